/**
 * A throwaway HTTPS server on loopback with a self-signed certificate made at test time by openssl
 * (for the URL helper and the server's URL endpoints).
 */
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestHttps {
  /** `https://127.0.0.1:PORT` */
  origin: string;
  port: number;
  ca: string;
  /** Requests seen: method, url and headers. */
  seen: Array<{ url: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

/** A certificate for `receipts.test` and 127.0.0.1 (valid one day). */
export function selfSignedCert(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-cert-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
      '-subj', '/CN=receipts.test', '-addext', 'subjectAltName=DNS:receipts.test,IP:127.0.0.1',
    ], { stdio: 'pipe' });
    return { key: readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startHttps(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestHttps> {
  const { key, cert } = selfSignedCert();
  const seen: TestHttps['seen'] = [];
  const server = https.createServer({ key, cert }, (req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `https://127.0.0.1:${port}`,
    port,
    ca: cert,
    seen,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
