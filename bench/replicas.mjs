#!/usr/bin/env node
// Replicas on one PostgreSQL: throughput and latency of 1, 2 and 3 `receiptkit serve` processes
// (the built package, dist/; `npm run build` first) sharing one throwaway PostgreSQL server
// (test/helpers/postgres.mjs: Debian's postgresql package, loopback, temp dir), and cross-replica
// duplicate detection.
//
//   node bench/replicas.mjs [--receipts 50] [--requests 240] [--concurrency 8] [--max-seconds 60]
//                           [--replicas 1,2,3] [--sqlite-baseline] [--json]
//
// 1. --receipts receipt images are drawn with sharp (SVG text to PNG: merchant, address, date, number,
//    items and total differ per receipt).
// 2. Phase "ocr": 3 replicas; each receipt is validated once against a campaign (similarity check on)
//    through replica i % 3, with 3 clients: every request is OCR'd and stored (reported separately).
//    Then each is submitted again through replica (i + 1) % 3: the share flagged as a duplicate of its
//    first submission (failed fraud_detection_unique_receipt_validated, the first trackingId listed with
//    score 1) is the cross-replica duplicate detection rate (target 100 %).
// 3. Phase "store": for each replica count, a bounded load of --requests campaign validations of the
//    stored receipts (round robin over the replicas, --concurrency clients, at most --max-seconds):
//    the same bytes, so the stored extraction is reused (no OCR): each request is a store lookup, a
//    similarity search over the shared scans and a stored scan. Reports requests/s, p50 and p99 (ms),
//    errors, and the duplicate share (every one is a re-submission, so 100 % expected).
// 4. --sqlite-baseline: the same (first submissions, then the bounded load) through 1 replica on a SQLite
//    store file instead, for comparison with the 1-replica PostgreSQL figures.
// Exit code 0 when the duplicate detection is 100 % and no request failed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { startPostgres } from '../test/helpers/postgres.mjs';
import { startReplica, postFile, sendJson, CAMPAIGN_SETTINGS, CAMPAIGN_VALIDATE } from '../test/helpers/replicas.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const KEY = 'bench-replicas-key-0123456789abcdef';

function args(argv) {
  const a = { receipts: 50, requests: 240, concurrency: 8, maxSeconds: 60, replicas: [1, 2, 3], json: false, sqliteBaseline: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i], v = () => argv[++i];
    if (k === '--receipts') a.receipts = Number(v());
    else if (k === '--requests') a.requests = Number(v());
    else if (k === '--concurrency') a.concurrency = Number(v());
    else if (k === '--max-seconds') a.maxSeconds = Number(v());
    else if (k === '--replicas') a.replicas = v().split(',').map(Number);
    else if (k === '--json') a.json = true;
    else if (k === '--sqlite-baseline') a.sqliteBaseline = true;
    else { console.error(`unknown option ${k}`); process.exit(2); }
  }
  return a;
}

const WORDS = ['ALPHA', 'BRAVO', 'CEDAR', 'DELTA', 'EMBER', 'FJORD', 'GARNET', 'HARBOR', 'IVORY', 'JUNIPER', 'KESTREL', 'LOTUS', 'MAPLE', 'NECTAR', 'ORCHID', 'PEBBLE', 'QUARTZ', 'RAVEN', 'SAFFRON', 'TUNDRA'];
const ITEMS = ['KOPI O', 'NASI LEMAK', 'ROTI CANAI', 'TEH TARIK', 'MEE GORENG', 'MILO AIS', 'CHAR KUEY TEOW', 'LAKSA', 'SATAY', 'CENDOL', 'APAM', 'KUIH'];

async function drawReceipt(n) {
  const a = WORDS[n % 20], b = WORDS[(7 * n + 3) % 20];
  const items = [ITEMS[n % 12], ITEMS[(5 * n + 1) % 12], ITEMS[(3 * n + 2) % 12]].map((name, i) => [name, (2 + ((n * 7 + i * 13) % 40) + (n % 100) / 100).toFixed(2)]);
  const total = items.reduce((t, [, p]) => t + Number(p), 0).toFixed(2);
  const day = String(1 + (n % 28)).padStart(2, '0'), month = String(1 + (Math.floor(n / 28) % 12)).padStart(2, '0');
  const lines = [[`${a} ${b} ENTERPRISE`, 'middle'], [`${10 + n} JALAN ${b} ${n % 7 + 1}`, 'middle'], [`INVOICE NO: ${a.slice(0, 2)}-${7000 + n * 13}`, 'start'],
    [`DATE: ${day}/${month}/2024`, 'start'], ...items.map(([name, p]) => [`${name.padEnd(18)} ${p.padStart(7)}`, 'start']),
    [`TOTAL${' '.repeat(14)} ${total.padStart(7)}`, 'start'], ['THANK YOU', 'middle']];
  const width = 480, lineH = 34, height = 80 + lines.length * lineH;
  const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${
    lines.map(([t, anchor], i) => `<text x="${anchor === 'middle' ? width / 2 : 30}" y="${60 + i * lineH}" font-family="DejaVu Sans Mono, monospace" font-size="20" text-anchor="${anchor}" fill="black">${esc(t)}</text>`).join('')}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const isDuplicateOf = (json, trackingId) => json?.failedValidations?.includes('fraud_detection_unique_receipt_validated')
  && json.similarReceipts?.some((m) => m.trackingId === trackingId && m.similarityScore === 1);

/** Runs `jobs` (async functions) with `concurrency` clients, at most `maxMs`; returns latencies and results. */
async function drive(jobs, concurrency, maxMs) {
  const started = performance.now();
  const lat = [];
  const results = [];
  let next = 0;
  const client = async () => {
    while (next < jobs.length && performance.now() - started < maxMs) {
      const i = next++;
      const t0 = performance.now();
      let r;
      try { r = await jobs[i](); } catch (e) { r = { status: 0, error: String(e) }; }
      lat.push(performance.now() - t0);
      results[i] = r;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const seconds = (performance.now() - started) / 1000;
  lat.sort((x, y) => x - y);
  const done = results.filter(Boolean);
  return { results, done: done.length, seconds, rps: done.length / seconds, p50: pct(lat, 50), p99: pct(lat, 99), errors: done.filter((r) => r.status !== 200).length };
}

async function main() {
  const a = args(process.argv.slice(2));
  const pg = await startPostgres();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rk-bench-replicas-'));
  const configPath = path.join(dir, 'config.json');
  fs.writeFileSync(configPath, JSON.stringify({ storeUrl: pg.url, rateLimit: false, workers: 1, maxQueue: 256, accounts: [{ id: 'bench', keys: [KEY] }] }));
  const running = [];
  const stopAll = async () => { await Promise.all(running.splice(0).map((r) => r.stop())); };
  const report = { date: new Date().toISOString(), host: { cpus: os.cpus().length, load1: os.loadavg()[0] }, options: a, ocr: null, store: [] };
  try {
    const receipts = await Promise.all(Array.from({ length: a.receipts }, (_, i) => drawReceipt(i)));
    // ---- phase ocr: first submissions and cross-replica re-submissions through 3 replicas
    running.push(...await Promise.all([0, 1, 2].map(() => startReplica({ configPath }))));
    const url = (i) => running[i % running.length].url;
    const created = await sendJson(`${url(0)}${CAMPAIGN_SETTINGS}/create/bench`, KEY, { fraudDetection: { allowSimilarityCheck: true } });
    if (created.status !== 201) throw new Error(`campaign: ${created.status} ${created.text}`);
    const first = await drive(receipts.map((r, i) => () => postFile(`${url(i)}${CAMPAIGN_VALIDATE}`, KEY, r, { campaignId: 'bench', userId: `first-${i}` }, `r${i}.png`)), 3, 30 * 60_000);
    const firstIds = first.results.map((r) => r?.json?.trackingId);
    const firstUnique = first.results.filter((r) => r?.json?.passedValidations?.includes('fraud_detection_unique_receipt_validated')).length;
    const again = await drive(receipts.map((r, i) => () => postFile(`${url(i + 1)}${CAMPAIGN_VALIDATE}`, KEY, r, { campaignId: 'bench', userId: `again-${i}` }, `r${i}.png`)), 3, 30 * 60_000);
    const flagged = again.results.filter((r, i) => isDuplicateOf(r?.json, firstIds[i])).length;
    report.ocr = {
      replicas: 3, receipts: a.receipts,
      first: { rps: first.rps, p50: first.p50, p99: first.p99, errors: first.errors, unique: firstUnique },
      resubmitted: { rps: again.rps, p50: again.p50, p99: again.p99, errors: again.errors, flagged, rate: flagged / a.receipts },
    };
    await stopAll();
    // ---- phase store: bounded load of re-submissions (stored extraction reused) through 1..3 replicas
    for (const n of a.replicas) {
      running.push(...await Promise.all(Array.from({ length: n }, () => startReplica({ configPath }))));
      const jobs = Array.from({ length: a.requests }, (_, j) => () => postFile(`${url(j)}${CAMPAIGN_VALIDATE}`, KEY, receipts[j % a.receipts], { campaignId: 'bench', userId: `load-${n}-${j}` }, 'r.png'));
      const r = await drive(jobs, a.concurrency, a.maxSeconds * 1000);
      const dup = r.results.filter((x, j) => x && isDuplicateOf(x.json, firstIds[j % a.receipts])).length;
      report.store.push({ replicas: n, requests: r.done, seconds: r.seconds, rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors, duplicatesFlagged: dup });
      await stopAll();
    }
    if (a.sqliteBaseline) {
      const sqliteConfig = path.join(dir, 'sqlite.json');
      fs.writeFileSync(sqliteConfig, JSON.stringify({ dataDir: path.join(dir, 'data'), rateLimit: false, workers: 1, maxQueue: 256, accounts: [{ id: 'bench', keys: [KEY] }] }));
      running.push(await startReplica({ configPath: sqliteConfig }));
      await sendJson(`${url(0)}${CAMPAIGN_SETTINGS}/create/bench`, KEY, { fraudDetection: { allowSimilarityCheck: true } });
      const seeded = await drive(receipts.map((r, i) => () => postFile(`${url(0)}${CAMPAIGN_VALIDATE}`, KEY, r, { campaignId: 'bench', userId: `first-${i}` }, `r${i}.png`)), 3, 30 * 60_000);
      const ids = seeded.results.map((x) => x?.json?.trackingId);
      const jobs = Array.from({ length: a.requests }, (_, j) => () => postFile(`${url(0)}${CAMPAIGN_VALIDATE}`, KEY, receipts[j % a.receipts], { campaignId: 'bench', userId: `load-sqlite-${j}` }, 'r.png'));
      const r = await drive(jobs, a.concurrency, a.maxSeconds * 1000);
      const dup = r.results.filter((x, j) => x && isDuplicateOf(x.json, ids[j % a.receipts])).length;
      report.sqlite = { replicas: 1, requests: r.done, seconds: r.seconds, rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors, duplicatesFlagged: dup };
      await stopAll();
    }
  } finally {
    await stopAll();
    pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const f = (x) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 2 : 0) : '-');
  if (a.json) console.log(JSON.stringify(report, null, 2));
  else {
    const o = report.ocr;
    console.log(`host: ${report.host.cpus} cpus, load ${report.host.load1.toFixed(2)} at start`);
    console.log(`ocr phase (3 replicas, ${o.receipts} receipts drawn with sharp, 3 clients):`);
    console.log(`  first submissions : ${f(o.first.rps)} req/s, p50 ${f(o.first.p50)} ms, p99 ${f(o.first.p99)} ms, errors ${o.first.errors}, passed unique ${o.first.unique}/${o.receipts}`);
    console.log(`  re-submissions via another replica: flagged ${o.resubmitted.flagged}/${o.receipts} (${(100 * o.resubmitted.rate).toFixed(1)} %), ${f(o.resubmitted.rps)} req/s, p50 ${f(o.resubmitted.p50)} ms, p99 ${f(o.resubmitted.p99)} ms`);
    console.log(`store phase (re-submissions, stored extraction reused; ${a.concurrency} clients, <= ${a.requests} requests, <= ${a.maxSeconds} s):`);
    for (const s of report.store) console.log(`  ${s.replicas} replica(s): ${s.requests} requests in ${f(s.seconds)} s = ${f(s.rps)} req/s, p50 ${f(s.p50)} ms, p99 ${f(s.p99)} ms, errors ${s.errors}, duplicates flagged ${s.duplicatesFlagged}/${s.requests}`);
    const q = report.sqlite;
    if (q) console.log(`  baseline, 1 replica on a SQLite file: ${q.requests} requests in ${f(q.seconds)} s = ${f(q.rps)} req/s, p50 ${f(q.p50)} ms, p99 ${f(q.p99)} ms, errors ${q.errors}, duplicates flagged ${q.duplicatesFlagged}/${q.requests}`);
  }
  const out = path.join(here, 'reports', `replicas-${report.date.replace(/[:.]/g, '-').slice(0, 19)}Z.json`);
  fs.writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
  if (!a.json) console.log(`-> ${path.relative(process.cwd(), out)}`);
  const ok = report.ocr.resubmitted.rate === 1 && report.ocr.first.errors === 0 && [...report.store, ...(report.sqlite ? [report.sqlite] : [])].every((s) => s.errors === 0 && s.duplicatesFlagged === s.requests);
  process.exitCode = ok ? 0 : 1;
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
