/**
 * Server hardening (issue 15): clients that stream their upload see the 401/403 answer (lingering
 * close), slow clients are timed out, connections per address are capped, a multipart body without a
 * boundary stops at the upload limit, queue time counts against the request time limit, CORS.
 */
import { describe, it, expect, afterEach } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import { KEY_A, postForm, raw, start } from './helpers/server.js';
import { WorkQueue } from '../src/server/limits.js';
import { loadServerConfig } from '../src/server/config.js';
import { ReceiptKitError } from '../src/errors.js';
import type { Started } from './helpers/server.js';

/** An engine that is never used (the requests here are refused before any work). */
const noEngine = async () => ({ close: async () => undefined }) as never;

interface Upload { status?: number; text?: string; error?: string; wrote: number }

/**
 * Streams a multipart upload of `size` bytes the way Node clients do (axios + form-data, `request`):
 * a declared length, then chunks written as fast as the socket takes them, whatever the server answers.
 */
function streamUpload(url: string, key: string, size: number, chunkSize = 64 * 1024): Promise<Upload> {
  return new Promise((resolve) => {
    const out: Upload = { wrote: 0 };
    const boundary = 'rkStreamBoundary0123';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const req = http.request(`${url}/api/receipt/v1/simple/file`, {
      method: 'POST', agent: false,
      headers: { ...(key ? { apikey: key } : {}), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + size + tail.length) },
    }, (res) => {
      out.status = res.statusCode;
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => { out.text = text; });
      res.on('error', (e: NodeJS.ErrnoException) => { out.error ??= e.code ?? e.message; });
    });
    req.on('error', (e: NodeJS.ErrnoException) => { out.error ??= e.code ?? e.message; });
    req.setMaxListeners(0);
    req.on('close', () => setTimeout(() => resolve(out), 50));
    void (async () => {
      if (!req.write(head)) await new Promise((r) => { req.once('drain', r); req.once('close', r); });
      const chunk = Buffer.alloc(chunkSize, 0x5a);
      while (out.wrote < size && !req.destroyed) {
        out.wrote += chunk.length;
        if (!req.write(chunk)) await new Promise((r) => { req.once('drain', r); req.once('close', r); });
      }
      if (!req.destroyed) req.end(tail);
    })();
  });
}

let s: Started | undefined;
afterEach(async () => { await s?.server.close(); s = undefined; });

describe('lingering close: streaming clients see the refusal', () => {
  it('2 and 16 MB streamed uploads with a wrong key get the JSON 403, without EPIPE or reset', async () => {
    s = await start({}, { engineFactory: noEngine });
    for (const [size, chunk] of [[2, 64], [2, 512], [2, 2048], [16, 64], [16, 4096]] as const) {
      const r = await streamUpload(s.url, 'wrong-key-0000000000000000', size * 1024 * 1024, chunk * 1024);
      expect(r.error).toBeUndefined();
      expect(r.status).toBe(403);
      expect(JSON.parse(r.text!)).toEqual({ message: 'Invalid authentication credentials' });
    }
  });

  it('2 and 16 MB streamed uploads without a key get the JSON 401', async () => {
    s = await start({}, { engineFactory: noEngine });
    for (const [size, chunk] of [[2, 64], [2, 2048], [16, 64], [16, 1024], [16, 4096]] as const) {
      const r = await streamUpload(s.url, '', size * 1024 * 1024, chunk * 1024);
      expect(r.error).toBeUndefined();
      expect(r.status).toBe(401);
      expect(JSON.parse(r.text!)).toEqual({ message: 'No API key found in request' });
    }
  });
});

/** Opens a raw connection and collects what the server sends until it closes. */
async function rawSocket(url: string): Promise<{ sock: net.Socket; text: () => string; closed: Promise<number> }> {
  const sock = net.connect(Number(new URL(url).port), '127.0.0.1');
  await new Promise((r) => sock.once('connect', r));
  let text = '';
  const t0 = Date.now();
  sock.on('data', (d) => { text += d; });
  sock.on('error', () => undefined);
  const closed = new Promise<number>((r) => sock.once('close', () => r(Date.now() - t0)));
  return { sock, text: () => text, closed };
}

describe('slow clients', () => {
  it('headers that trickle in get a 408 at the header timeout, not up to 30 s later', async () => {
    s = await start({ headersTimeoutMs: 600 }, { engineFactory: noEngine });
    const c = await rawSocket(s.url);
    const trickle = setInterval(() => { if (!c.sock.destroyed) c.sock.write('X-Slow: a\r\n'); }, 100);
    c.sock.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const ms = await c.closed;
    clearInterval(trickle);
    expect(c.text()).toMatch(/^HTTP\/1\.1 408 /);
    expect(c.text()).toContain('"statusCode":408');
    expect(ms).toBeLessThan(2_500);
  });

  it('a body that stops arriving gets a 408 after the idle timeout', async () => {
    s = await start({ bodyIdleTimeoutMs: 400 }, { engineFactory: noEngine });
    const c = await rawSocket(s.url);
    c.sock.write(`POST /api/receipt/v1/simple/file HTTP/1.1\r\nHost: x\r\napikey: ${KEY_A}\r\ncontent-type: multipart/form-data; boundary=b\r\ncontent-length: 5000\r\n\r\n--b\r\n`);
    const ms = await c.closed;
    expect(c.text()).toMatch(/^HTTP\/1\.1 408 /);
    expect(c.text()).toMatch(/no part of the request body arrived for 400 ms/);
    expect(ms).toBeLessThan(3_000);
    expect(s.logs.some((l) => l.level === 'error')).toBe(false);
    expect(s.logs.find((l) => l.msg === 'request')).toMatchObject({ status: 408, timedOut: expect.any(String) });
  });

  it('a body trickled a byte at a time gets a 408 (average rate under the floor)', async () => {
    s = await start({ bodyIdleTimeoutMs: 500, minBodyBytesPerSecond: 100 }, { engineFactory: noEngine });
    const c = await rawSocket(s.url);
    c.sock.write(`POST /api/receipt/v1/simple/file HTTP/1.1\r\nHost: x\r\napikey: ${KEY_A}\r\ncontent-type: multipart/form-data; boundary=b\r\ncontent-length: 5000\r\n\r\n`);
    const trickle = setInterval(() => { if (!c.sock.destroyed) c.sock.write('x'); }, 100);
    const ms = await c.closed;
    clearInterval(trickle);
    expect(c.text()).toMatch(/^HTTP\/1\.1 408 /);
    expect(c.text()).toMatch(/bytes\/s, under 100 bytes\/s/);
    expect(ms).toBeLessThan(3_000);
  });

  it('caps open connections per address (503 past the cap; room again once one closes)', async () => {
    s = await start({ maxConnectionsPerAddress: 3 }, { engineFactory: noEngine });
    const open = [await rawSocket(s.url), await rawSocket(s.url), await rawSocket(s.url)];
    const fourth = await rawSocket(s.url);
    await fourth.closed;
    expect(fourth.text()).toMatch(/^HTTP\/1\.1 503 /);
    expect(fourth.text()).toMatch(/too many connections from this address \(limit 3\)/);
    open[0]!.sock.destroy();
    await open[0]!.closed;
    await new Promise((r) => setTimeout(r, 50));
    const again = await rawSocket(s.url);
    again.sock.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await again.closed;
    expect(again.text()).toMatch(/^HTTP\/1\.1 200 /);
    for (const o of open) o.sock.destroy();
  });
});

describe('multipart without a boundary', () => {
  /** Sends up to 100 MB of `A`s (chunked, no length) and stops when the server answers or closes. */
  async function sendUnbounded(url: string, contentType: string): Promise<{ sent: number; text: string }> {
    const c = await rawSocket(url);
    c.sock.write(`POST /api/receipt/v1/simple/file HTTP/1.1\r\nHost: x\r\napikey: ${KEY_A}\r\ncontent-type: ${contentType}\r\ntransfer-encoding: chunked\r\n\r\n`);
    const chunk = Buffer.alloc(256 * 1024, 0x41);
    let sent = 0;
    while (!c.sock.destroyed && sent < 100 * 1024 * 1024 && !c.text().includes('\r\n\r\n')) {
      const ok = c.sock.write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
      sent += chunk.length;
      if (!ok) await new Promise((r) => { c.sock.once('drain', r); c.sock.once('close', r); });
    }
    c.sock.destroy();
    await c.closed;
    return { sent, text: c.text() };
  }

  it('a body where the boundary never appears stops at the upload limit with a 413', async () => {
    s = await start({ limits: { maxFileBytes: 1024 * 1024 } }, { engineFactory: noEngine });
    const r = await sendUnbounded(s.url, 'multipart/form-data; boundary=never-in-the-body');
    expect(r.text).toMatch(/^HTTP\/1\.1 413 /);
    // the limit (1 MB file + room for the fields, about 3 MB) plus what socket buffers hold, not 100 MB
    expect(r.sent).toBeLessThan(24 * 1024 * 1024);
  });

  it('no boundary parameter: 400 at once', async () => {
    s = await start({ limits: { maxFileBytes: 1024 * 1024 } }, { engineFactory: noEngine });
    const r = await sendUnbounded(s.url, 'multipart/form-data');
    expect(r.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(r.sent).toBeLessThan(8 * 1024 * 1024);
  });
});

describe('time in the queue', () => {
  /** An engine whose extract takes `ms` and honours the per-call timeoutMs like the real one. */
  const slowEngine = (ms: number, seen: Array<number | undefined>) => async () => ({
    close: async () => undefined,
    extract: (_bytes: unknown, opts: { timeoutMs?: number }) => {
      seen.push(opts.timeoutMs);
      return new Promise((resolve, reject) => {
        if (opts.timeoutMs !== undefined && opts.timeoutMs < ms) {
          setTimeout(() => reject(new ReceiptKitError('TIMEOUT', `extraction took longer than ${opts.timeoutMs} ms`)), opts.timeoutMs);
        } else setTimeout(() => resolve({ totalAmount: { data: 1 } }), ms);
      });
    },
  }) as never;

  it('counts against the request time limit: no answer comes later than the limit', async () => {
    const seen: Array<number | undefined> = [];
    s = await start({ concurrency: 1, maxQueue: 10, requestTimeoutMs: 700 }, { engineFactory: slowEngine(400, seen) });
    const t0 = Date.now();
    const answers = await Promise.all([0, 1, 2, 3].map(async () => {
      const r = await postForm(`${s!.url}/api/receipt/v1/simple/file`, KEY_A, [{ name: 'file', file: Buffer.from('x'), filename: 'a.png' }]);
      return { status: r.status, ms: Date.now() - t0, message: r.json?.message as string };
    }));
    const statuses = answers.map((a) => a.status).sort();
    // one after another at 400 ms each: the first runs, the second starts at 400 ms with 300 ms left
    // (too little: 504 at 700 ms); the third and fourth time out waiting in the queue
    expect(statuses.filter((x) => x === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((x) => x === 504).length).toBeGreaterThanOrEqual(2);
    for (const a of answers) expect(a.ms).toBeLessThan(700 + 600);
    // each 504 says why: out of time in the queue, or in the engine with the time that was left (which of
    // the two a request meets depends on the order the four arrive in; the queue's own message is
    // checked deterministically below)
    for (const a of answers.filter((x) => x.status === 504)) expect(a.message).toMatch(/waited \d+ ms in the queue|took longer than \d+ ms/);
    // the engine was given the time left, not the whole limit again
    expect(seen[0]).toBeLessThanOrEqual(700);
    expect(seen.slice(1).every((t) => t !== undefined && t < 700)).toBe(true);
  });
});

describe('the queue drops a task whose time runs out while it waits', () => {
  it('TIMEOUT naming the wait, before the running task ends; the running task is not disturbed', async () => {
    const q = new WorkQueue(1, 10);
    let finish!: () => void;
    const running = q.run(() => new Promise<string>((r) => { finish = () => r('done'); }));
    const t0 = performance.now();
    const waiting = q.run(async () => 'ran', performance.now() + 60);
    const err = await waiting.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ReceiptKitError);
    expect((err as ReceiptKitError).code).toBe('TIMEOUT');
    expect((err as ReceiptKitError).message).toMatch(/waited \d+ ms in the queue/);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(50);
    finish();
    expect(await running).toEqual({ value: 'done' });
  });
});

describe('Retry-After is the expected wait', () => {
  it('a queue whose running task is nearly done asks for about the rest of its time', async () => {
    let now = 0;
    const q = new WorkQueue(1, 0, () => now);
    // five tasks of 10 s each teach the queue its task time
    for (let i = 0; i < 5; i++) await q.run(async () => { now += 10_000; });
    expect(q.meanTaskMs()).toBe(10_000);
    let finish!: () => void;
    const running = q.run(() => new Promise<void>((r) => { finish = r; }));
    now += 9_000; // the running task has 1 s to go
    expect(q.full).toBe(true);
    expect(q.retryAfterSeconds()).toBe(1);
    now += 5_000; // late: still a short wait, not the whole mean again
    expect(q.retryAfterSeconds()).toBe(1);
    finish();
    await running;
  });

  it('with tasks waiting: their mean time shared over the slots', async () => {
    let now = 0;
    const q = new WorkQueue(2, 10, () => now);
    for (let i = 0; i < 4; i++) await q.run(async () => { now += 4_000; });
    const gates: Array<() => void> = [];
    const tasks = [0, 1, 2, 3].map(() => q.run(() => new Promise<void>((r) => gates.push(r))));
    await new Promise((r) => setTimeout(r, 0));
    now += 1_000;
    // 2 running with 3 s left each, 2 waiting of 4 s: (3 + 3 + 4 + 4) / 2 = 7 s
    expect(q.expectedWaitMs()).toBe(7_000);
    expect(q.retryAfterSeconds()).toBe(7);
    while (gates.length) { gates.shift()!(); await new Promise((r) => setTimeout(r, 0)); }
    await Promise.all(tasks);
  });
});

describe('CORS and disconnects', () => {
  it('answers preflights for allowed origins, refuses others, and adds the headers to API answers', async () => {
    s = await start({ cors: { origins: ['https://app.example'] } }, { engineFactory: noEngine });
    let r = await raw(`${s.url}/api/receipt/v1/simple/file`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'apikey' } });
    expect(r.status).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(r.headers['access-control-allow-headers']).toMatch(/apikey/);
    expect(r.headers['access-control-allow-methods']).toMatch(/POST/);
    r = await raw(`${s.url}/api/receipt/v1/simple/file`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(r.status).toBe(403);
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    // an answer (here the 401) carries the header for an allowed origin, so the page can read it
    r = await raw(`${s.url}/api/receipt/v1/simple/file`, { method: 'POST', headers: { origin: 'https://app.example' } });
    expect(r.status).toBe(401);
    expect(r.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(r.headers.vary).toMatch(/Origin/);
    r = await raw(`${s.url}/api/receipt/v1/simple/file`, { method: 'POST', headers: { origin: 'https://evil.example' } });
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('no CORS headers unless configured; origins from RECEIPTKIT_CORS_ORIGINS', async () => {
    s = await start({}, { engineFactory: noEngine });
    const r = await raw(`${s.url}/api/receipt/v1/simple/file`, { method: 'POST', headers: { origin: 'https://app.example' } });
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    const config = loadServerConfig({ env: { RECEIPTKIT_API_KEYS: `acme:${KEY_A}`, RECEIPTKIT_CORS_ORIGINS: 'https://a.example, https://b.example:8443' } });
    expect(config.cors.origins).toEqual(['https://a.example', 'https://b.example:8443']);
    expect(() => loadServerConfig({ env: { RECEIPTKIT_API_KEYS: `acme:${KEY_A}`, RECEIPTKIT_CORS_ORIGINS: 'https://a.example/path' } })).toThrow(/cors\.origins/);
  });

  it('a client that goes away mid-body is not logged as an internal error', async () => {
    s = await start({}, { engineFactory: noEngine });
    const c = await rawSocket(s.url);
    c.sock.write(`POST /api/receipt/v1/simple/url HTTP/1.1\r\nHost: x\r\napikey: ${KEY_A}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"url":`);
    await new Promise((r) => setTimeout(r, 100));
    c.sock.destroy();
    const started = Date.now();
    while (!s.logs.some((l) => l.msg === 'request') && Date.now() - started < 3_000) await new Promise((r) => setTimeout(r, 20));
    expect(s.logs.find((l) => l.msg === 'request')).toMatchObject({ aborted: true });
    expect(s.logs.filter((l) => l.level === 'error')).toEqual([]);
  });
});
