// Server replicas as separate processes for test/store-replicas.test.ts and bench/replicas.mjs:
// `receiptkit serve` from the built package (dist/) on a loopback port, plus small HTTP helpers.
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './postgres.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'dist/cli/main.js');

/**
 * Starts `receiptkit serve --config <configPath> --port <free port>`; resolves once it logged
 * `listening`. Returns { url, child, logs, exited, stop() } (stop: SIGTERM, then waits for the exit).
 */
export async function startReplica({ configPath, env = {}, args = [], timeoutMs = 60_000 }) {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [CLI, 'serve', '--config', configPath, '--port', String(port), '--host', '127.0.0.1', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env },
    });
    const logs = [];
    let stderr = '';
    let partial = '';
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    const listening = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`replica on port ${port} did not start in ${timeoutMs} ms: ${stderr.slice(-2000)}`)), timeoutMs);
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk) => {
        partial += chunk;
        const parts = partial.split('\n');
        partial = parts.pop();
        for (const line of parts) {
          let l;
          try { l = JSON.parse(line); } catch { continue; }
          logs.push(l);
          if (l.msg === 'listening') { clearTimeout(timer); resolve(l.url); }
        }
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (c) => { stderr += c; });
      exited.then((e) => { clearTimeout(timer); reject(new Error(`replica exited (${e.code ?? e.signal}) before listening: ${stderr.slice(-2000)}`)); });
    });
    try {
      const url = await listening;
      const stop = async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        return exited;
      };
      return { url, port, child, logs, exited, stderr: () => stderr, stop };
    } catch (e) {
      if (attempt < 2 && /EADDRINUSE/.test(String(e))) continue; // the port was taken meanwhile
      throw e;
    }
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One HTTP request; resolves { status, json, text }. */
export function request(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let json;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode ?? 0, json, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export function sendJson(url, key, value, method = 'POST') {
  return request(url, { method, headers: { 'content-type': 'application/json', apikey: key }, body: JSON.stringify(value) });
}

/** POST multipart/form-data: fields (strings) and one `file`. */
export function postFile(url, key, file, fields = {}, filename = 'receipt.bin') {
  const boundary = `----rk${Math.random().toString(16).slice(2)}`;
  const chunks = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`), file, Buffer.from(`\r\n--${boundary}--\r\n`));
  return request(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, apikey: key }, body: Buffer.concat(chunks) });
}

export const CAMPAIGN_VALIDATE = '/api/validation/v1/campaign/receipt-validation/file';
export const CAMPAIGN_SETTINGS = '/api/validation/v1/campaign/settings';
export const VERBOSE_FILE = '/api/receipt/v1/verbose/file';
