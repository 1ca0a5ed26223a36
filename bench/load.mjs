#!/usr/bin/env node
// Load test of `receiptkit serve` over loopback, bounded in time.
//
//   node bench/load.mjs [--duration 60] [--concurrency 2] [--max-queue 4] [--workers 2]
//                       [--clients N] [--overload-clients N] [--no-overload] [--fixtures a.png,b.jpg]
//                       [--dist DIR] [--json]
//   node bench/load.mjs --url http://host:port --key KEY [--pid PID] ...   (an already running server)
//
// Starts the built server (dist/cli/main.js serve, so `npm run build` first) on a free loopback port
// with a throwaway key, then runs two phases, splitting --duration 2:1:
//   1. below the queue limit: --clients (default concurrency + max-queue) clients, each posting the
//      fixtures one after the other to /api/receipt/v1/simple/file (refresh=true, so every request is
//      OCR'd): no errors are expected;
//   2. above it: --overload-clients (default concurrency + max-queue + 6) clients: the extra requests
//      must be refused cleanly with 503, a JSON error body and Retry-After (a refused client waits
//      100 ms before its next request).
// Reports per phase requests/s, p50/p99 latency, responses by status and the server's RSS at the
// start and end (from /proc). Exit code 0 when phase 1 had no errors and phase 2 only clean 503s.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..');

function parseArgs(argv) {
  const a = {
    duration: 60, concurrency: 2, maxQueue: 4, workers: 2, clients: undefined, overloadClients: undefined, overload: true,
    fixtures: ['receipt-en-simple.png', 'receipt-eu.png', 'receipt-us.jpg'].map((f) => path.join(repoRoot, 'fixtures', f)),
    dist: path.join(repoRoot, 'dist'), json: false, url: undefined, key: undefined, pid: undefined,
  };
  const num = (name, v) => { const n = Number(v); if (!Number.isFinite(n) || n <= 0) fail(`${name} takes a positive number, not '${v}'`); return n; };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => { if (i + 1 >= argv.length) fail(`${k} needs a value`); return argv[++i]; };
    switch (k) {
      case '--duration': a.duration = num(k, v()); break;
      case '--concurrency': a.concurrency = Math.round(num(k, v())); break;
      case '--max-queue': a.maxQueue = Math.round(Number(v())); if (!(a.maxQueue >= 0)) fail('--max-queue takes a number >= 0'); break;
      case '--workers': a.workers = Math.round(num(k, v())); break;
      case '--clients': a.clients = Math.round(num(k, v())); break;
      case '--overload-clients': a.overloadClients = Math.round(num(k, v())); break;
      case '--no-overload': a.overload = false; break;
      case '--fixtures': a.fixtures = v().split(',').map((f) => path.resolve(f)); break;
      case '--dist': a.dist = path.resolve(v()); break;
      case '--url': a.url = v().replace(/\/$/, ''); break;
      case '--key': a.key = v(); break;
      case '--pid': a.pid = Math.round(num(k, v())); break;
      case '--json': a.json = true; break;
      case '-h': case '--help':
        process.stdout.write(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 20).map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
        process.exit(0);
      default: fail(`unknown argument ${k}`);
    }
  }
  if (a.url && !a.key) fail('--url needs --key');
  a.clients ??= a.concurrency + a.maxQueue;
  a.overloadClients ??= a.concurrency + a.maxQueue + 6;
  return a;
}

function fail(msg) {
  process.stderr.write(`load: ${msg}\n`);
  process.exit(2);
}

const log = (msg) => process.stderr.write(`${msg}\n`);

function rssOf(pid) {
  if (!pid) return undefined;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
const mb = (b) => (b === undefined ? 'n/a' : `${(b / 1024 / 1024).toFixed(0)} MB`);

async function startServer(a) {
  const main = path.join(a.dist, 'cli', 'main.js');
  if (!fs.existsSync(main)) fail(`${main} not found: run npm run build first (or give --dist)`);
  const key = `load-${randomBytes(16).toString('hex')}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rk-load-'));
  const config = path.join(dir, 'config.json');
  fs.writeFileSync(config, JSON.stringify({
    accounts: [{ id: 'load', keys: [key] }], rateLimit: false,
    concurrency: a.concurrency, maxQueue: a.maxQueue, workers: a.workers,
  }));
  const child = spawn(process.execPath, [main, 'serve', '--port', '0', '--host', '127.0.0.1', '--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let lines = 0;
  let buffer = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start within 30 s')), 30_000);
    child.stdout.on('data', (d) => {
      buffer += d;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        lines++;
        const m = /"msg":"listening","url":"([^"]+)"/.exec(line);
        if (m) { clearTimeout(timer); resolve(m[1]); }
      }
    });
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the server exited with ${code}`)); });
  });
  return {
    url, key, pid: child.pid, logLines: () => lines,
    async stop() {
      const t0 = Date.now();
      const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 60_000))]);
      if (code === 'timeout') child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
      return { code, ms: Date.now() - t0 };
    },
  };
}

function formBody(file) {
  const boundary = `----rkload${randomBytes(8).toString('hex')}`;
  const bytes = fs.readFileSync(file);
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="refresh"\r\n\r\ntrue\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}`, name: path.basename(file) };
}

function post(url, key, form, agent) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const req = http.request(`${url}/api/receipt/v1/simple/file`, {
      method: 'POST', agent,
      headers: { apikey: key, 'content-type': form.contentType, 'content-length': String(form.body.length) },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        let json;
        try { json = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { json = undefined; }
        resolve({ status: res.statusCode, ms: performance.now() - t0, json, retryAfter: res.headers['retry-after'] });
      });
      res.on('error', (e) => resolve({ status: `error:${e.code ?? e.message}`, ms: performance.now() - t0 }));
    });
    req.on('error', (e) => resolve({ status: `error:${e.code ?? e.message}`, ms: performance.now() - t0 }));
    req.end(form.body);
  });
}

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

async function phase(name, clients, seconds, target, forms, pid) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const results = [];
  const rssStart = rssOf(pid);
  let rssPeak = rssStart ?? 0;
  const sampler = setInterval(() => { const r = rssOf(pid); if (r && r > rssPeak) rssPeak = r; }, 500);
  const deadline = performance.now() + seconds * 1000;
  const t0 = performance.now();
  let next = 0;
  log(`${name}: ${clients} clients for ${seconds.toFixed(1)} s ...`);
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < deadline) {
      const r = await post(target.url, target.key, forms[next++ % forms.length], agent);
      results.push(r);
      if (r.status === 503) await new Promise((res) => setTimeout(res, 100));
    }
  }));
  const elapsed = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  agent.destroy();
  const rssEnd = rssOf(pid);
  const ok = results.filter((r) => r.status === 200);
  const lat = ok.map((r) => r.ms).sort((x, y) => x - y);
  const byStatus = {};
  for (const r of results) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  const refused = results.filter((r) => r.status === 503);
  const clean503 = refused.filter((r) => r.json && r.json.statusCode === 503 && r.json.error === 'Service Unavailable' && Number(r.retryAfter) >= 1).length;
  const refusedLat = refused.map((r) => r.ms).sort((x, y) => x - y);
  return {
    phase: name, clients, seconds: Number(elapsed.toFixed(1)), requests: results.length,
    ok: ok.length, okPerSecond: Number((ok.length / elapsed).toFixed(2)), requestsPerSecond: Number((results.length / elapsed).toFixed(2)),
    p50ms: Math.round(pct(lat, 50)), p99ms: Math.round(pct(lat, 99)), maxMs: Math.round(lat.at(-1) ?? NaN),
    byStatus, errors: results.length - ok.length,
    refused503: refused.length, clean503, refusedP50ms: refused.length ? Math.round(pct(refusedLat, 50)) : undefined,
    rssStart, rssEnd, rssPeak: rssPeak || undefined,
  };
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const forms = a.fixtures.map(formBody);
  const own = a.url ? undefined : await startServer(a);
  const target = own ? { url: own.url, key: own.key } : { url: a.url, key: a.key };
  const pid = own?.pid ?? a.pid;
  const rssBoot = rssOf(pid);
  log(`server ${target.url} (pid ${pid ?? 'n/a'}, RSS ${mb(rssBoot)}); concurrency ${a.concurrency}, max queue ${a.maxQueue}, workers ${a.workers}; fixtures ${forms.map((f) => f.name).join(', ')}`);
  // warm-up: one request per worker slot, not counted (starts the OCR workers)
  const warm = await Promise.all(Array.from({ length: a.concurrency }, (_, i) => post(target.url, target.key, forms[i % forms.length])));
  const bad = warm.find((r) => r.status !== 200);
  if (bad) { await own?.stop(); fail(`warm-up request failed with ${bad.status}: ${JSON.stringify(bad.json)}`); }
  const phases = [];
  const first = a.overload ? (a.duration * 2) / 3 : a.duration;
  phases.push(await phase('below the queue limit', a.clients, first, target, forms, pid));
  if (a.overload) phases.push(await phase('above the queue limit', a.overloadClients, a.duration - first, target, forms, pid));
  const rssEnd = rssOf(pid);
  const stopped = own ? await own.stop() : undefined;
  const report = {
    server: { url: target.url, concurrency: a.concurrency, maxQueue: a.maxQueue, workers: a.workers, rssBoot, rssEnd, cores: os.availableParallelism?.() ?? os.cpus().length },
    phases,
    shutdown: stopped,
    logLines: own?.logLines(),
  };
  const passed = phases[0].errors === 0 && (phases[1] ? Object.keys(phases[1].byStatus).every((s) => s === '200' || s === '503') && phases[1].clean503 === phases[1].refused503 : true);
  if (a.json) {
    process.stdout.write(JSON.stringify({ ...report, passed }, null, 2) + '\n');
  } else {
    const out = [];
    out.push(`receiptkit serve load test: ${report.server.cores} cores, concurrency ${a.concurrency}, max queue ${a.maxQueue}, ${a.workers} OCR workers`);
    out.push(`RSS: ${mb(rssBoot)} at start (after boot), ${mb(rssEnd)} at end`);
    for (const p of phases) {
      out.push('');
      out.push(`${p.phase}: ${p.clients} clients, ${p.seconds} s`);
      out.push(`  requests ${p.requests} (${p.requestsPerSecond}/s), extracted ${p.ok} (${p.okPerSecond}/s)`);
      out.push(`  latency of extractions: p50 ${p.p50ms} ms, p99 ${p.p99ms} ms, max ${p.maxMs} ms`);
      out.push(`  by status: ${Object.entries(p.byStatus).map(([s, n]) => `${s}: ${n}`).join(', ')}`);
      if (p.refused503) out.push(`  503s: ${p.refused503}, clean (JSON body + Retry-After): ${p.clean503}, answered in p50 ${p.refusedP50ms} ms`);
      out.push(`  server RSS: ${mb(p.rssStart)} -> ${mb(p.rssEnd)} (peak ${mb(p.rssPeak)})`);
    }
    if (stopped) out.push('', `shutdown (SIGTERM): exit code ${stopped.code} after ${stopped.ms} ms; ${report.logLines} log lines`);
    out.push('', passed ? 'PASS: no errors below the queue limit; only clean 503s above it' : 'FAIL: unexpected errors (see by status)');
    process.stdout.write(out.join('\n') + '\n');
  }
  process.exitCode = passed ? 0 : 1;
}

main().catch((e) => { process.stderr.write(`load: ${e?.stack ?? e}\n`); process.exit(1); });
