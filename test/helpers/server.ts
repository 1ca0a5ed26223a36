/** Helpers for the server tests: start a server on port 0, make raw HTTP requests. */
import http from 'node:http';
import { startServer } from '../../src/server/server.js';
import type { ReceiptServer, ServerOptions, LogLine } from '../../src/server/server.js';
import type { ServerConfigInput } from '../../src/server/config.js';

export const KEY_A = 'test-key-acme-0123456789abcdef';
export const KEY_B = 'test-key-beta-0123456789abcdef';

export interface Started { server: ReceiptServer; url: string; logs: LogLine[] }

export async function start(config: Partial<ServerConfigInput> = {}, extra: Partial<ServerOptions> = {}): Promise<Started> {
  const logs: LogLine[] = [];
  const server = await startServer({
    config: {
      accounts: [
        { id: 'acme', keys: [KEY_A], inlineValidation: true },
        { id: 'beta', keys: [KEY_B] },
      ],
      rateLimit: false,
      workers: 1,
      ...config,
    },
    logger: (l) => logs.push(l),
    port: 0,
    host: '127.0.0.1',
    ...extra,
  });
  return { server, url: server.url, logs };
}

export interface RawResponse { status: number; headers: http.IncomingHttpHeaders; text: string; json: any }

/** One HTTP request with full control of the body (a Buffer, or chunks written one by one without a length). */
export function raw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: Buffer | string; chunks?: Buffer[] } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers ?? {}, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let json: unknown;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.chunks) {
      (async () => {
        for (const c of opts.chunks!) {
          if (!req.write(c)) await new Promise((r) => req.once('drain', r));
        }
        req.end();
      })().catch(() => undefined);
    } else {
      req.end(opts.body);
    }
  });
}

/** A multipart/form-data body built by hand (so tests can send exactly what they mean). */
export function multipart(parts: Array<{ name: string; value?: string; file?: Buffer; filename?: string; type?: string }>): { body: Buffer; contentType: string } {
  const boundary = `----rk${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.file) head += `; filename="${p.filename ?? 'file.bin'}"\r\nContent-Type: ${p.type ?? 'application/octet-stream'}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`), p.file ?? Buffer.from(p.value ?? ''), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POST a multipart form with an API key. */
export function postForm(url: string, key: string | undefined, parts: Parameters<typeof multipart>[0]): Promise<RawResponse> {
  const { body, contentType } = multipart(parts);
  return raw(url, { method: 'POST', headers: { 'content-type': contentType, ...(key ? { apikey: key } : {}) }, body });
}

/** POST (or another method) a JSON body with an API key. */
export function sendJsonBody(url: string, key: string | undefined, body: unknown, method = 'POST'): Promise<RawResponse> {
  return raw(url, { method, headers: { 'content-type': 'application/json', ...(key ? { apikey: key } : {}) }, body: JSON.stringify(body) });
}
