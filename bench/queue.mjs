#!/usr/bin/env node
// The job queue on this machine (issue 25): throughput of 1, 2 and 3 `receiptkit work` processes, and
// the queue's own overhead per job against `batch`. Uses the built package (dist/; `npm run build`
// first) and one throwaway PostgreSQL server (test/helpers/postgres.mjs). Not a test: it prints and
// writes bench/reports/queue-<date>.json.
//
//   node bench/queue.mjs [--pdfs 60] [--scans 12] [--workers 1,2,3] [--overhead-jobs 400] [--json]
//   node bench/queue.mjs --overhead-only [--compare DIR] [--rounds 3]
//   node bench/queue.mjs --kill [--pdfs 4] [--scans 16] [--kill-after 6] [--late 10] [--cli DIR/dist/cli/main.js]
//
// --kill (issue 53): --pdfs + --scans files enqueued with the default settings, two `work --drain`
// processes; one is SIGKILLed --kill-after seconds in (a third starts --late seconds after the kill);
// the seconds from the kill to the last file's result and to the result of the file the killed worker
// held, and whether every file has its one result. --cli runs another build's CLI.
//
// --compare DIR: part 1 also with the queue of another build (DIR/dist/queue/index.js with DIR's own
// node_modules, e.g. the previous release: `git archive <commit> | tar -x -C DIR`, its pg-boss
// installed there, `tsc -p DIR/tsconfig.json`), the two interleaved round by round on the same server;
// the report gives each round and the ratio of the medians (this build / DIR's).
//
// 1. Overhead, in process, with a stand-in extractor that answers at once (what is measured is the
//    queue): --overhead-jobs tiny files enqueued, then worked with 1 job in hand and with 4; ms per job
//    (claim, start mark, content check, result + completion in one transaction, polling). The same
//    files through runBatch (src/cli/batch.ts) with the same stand-in: batch's own ms per file. The
//    difference is the queue's overhead per job.
// 2. Real extraction: --pdfs text-layer PDFs and --scans drawn scans (test/generators/queue-files.ts). A plain
//    `batch --workers 1` with a PostgreSQL store (as the workers have), then for each --workers count N
//    a fresh queue: enqueue, N `work --drain --workers 1` processes started together; files/s from the
//    first process start to the last exit (wall), and from the first job started to the last finished
//    (the queue's own timestamps). Every process uses --page-budget 0 (results depend on the file only).
//    The end-to-end overhead per job is (1 worker's wall - batch's wall) / files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPostgres } from '../test/helpers/postgres.mjs';
import { writeQueueFiles } from '../test/generators/queue-files.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(here, '../dist/cli/main.js');
const { openQueue } = await import('../dist/queue/index.js');
const { runBatch } = await import('../dist/cli/batch.js');

function args(argv) {
  const o = { pdfs: 60, scans: 12, workers: [1, 2, 3], overheadJobs: 400, json: false, overheadOnly: false, compare: null, rounds: 3 };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--pdfs') o.pdfs = o.killPdfs = Number(argv[++i]);
    else if (k === '--scans') o.scans = o.killScans = Number(argv[++i]);
    else if (k === '--workers') o.workers = argv[++i].split(',').map(Number);
    else if (k === '--overhead-jobs') o.overheadJobs = Number(argv[++i]);
    else if (k === '--json') o.json = true;
    else if (k === '--overhead-only') o.overheadOnly = true;
    else if (k === '--compare') o.compare = path.resolve(argv[++i]);
    else if (k === '--rounds') o.rounds = Number(argv[++i]);
    else if (k === '--kill') o.kill = true;
    else if (k === '--kill-after') o.killAfter = Number(argv[++i]);
    else if (k === '--late') o.late = Number(argv[++i]);
    else if (k === '--cli') o.cli = path.resolve(argv[++i]);
    else throw new Error(`unknown argument ${k}`);
  }
  return o;
}

const load = () => Number(os.loadavg()[0].toFixed(2));
const instant = { extract: async () => ({ totalAmount: { confidenceLevel: 0 } }) };

/** Queue and batch overhead per job with an extractor that answers at once (`open`: the openQueue of the build measured). */
async function overhead(url, n, dir, open = openQueue, tag = '') {
  const files = path.join(dir, 'tiny');
  fs.mkdirSync(files, { recursive: true });
  for (let i = 0; i < n; i++) fs.writeFileSync(path.join(files, `t${String(i).padStart(5, '0')}.png`), String(i));
  const out = {};
  for (const concurrency of [1, 4]) {
    const q = await open(url, { schema: `bench_over${tag}_${concurrency}`, poolSize: concurrency + 3 });
    let t0 = performance.now();
    await q.enqueue(files);
    const enqueueMs = performance.now() - t0;
    t0 = performance.now();
    const s = await q.work(instant, { concurrency, drain: true, pollMs: 50 });
    const ms = performance.now() - t0;
    await q.close();
    out[`queue${concurrency}`] = { jobs: s.done, enqueueMsPerFile: round(enqueueMs / n, 3), msPerJob: round(ms / s.done, 3), jobsPerSecond: round(s.done / (ms / 1000), 1) };
  }
  for (const concurrency of [1, 4]) {
    const sink = new PassThrough();
    sink.resume();
    const t0 = performance.now();
    const s = await runBatch(instant, [files], { out: '-', stdout: sink, options: {}, concurrency, quiet: true });
    const ms = performance.now() - t0;
    out[`batch${concurrency}`] = { files: s.ok, msPerFile: round(ms / s.ok, 3) };
  }
  out.queueOverheadMsPerJob = { concurrency1: round(out.queue1.msPerJob - out.batch1.msPerFile, 3), concurrency4: round(out.queue4.msPerJob - out.batch4.msPerFile, 3) };
  return out;
}

const round = (v, d = 2) => Number(v.toFixed(d));

/** Runs the CLI; resolves with its exit code and stderr once it exits (`exited`, with `child`, when `o.child`). */
function cli(argv, o = {}) {
  const child = spawn(process.execPath, [o.cli ?? CLI, ...argv], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => { stderr += c; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  return o.child ? { child, exited } : exited;
}

/** Issue 53: a worker SIGKILLed mid-run; seconds from the kill to the last result and to the held file's. */
async function killRun(url, dir, o) {
  const made = await writeQueueFiles(path.join(dir, 'kill'), { pdfs: o.killPdfs ?? 4, scans: o.killScans ?? 16 });
  const files = made.pdfs.length + made.scans.length;
  const queueArgs = ['--queue', url, '--queue-schema', 'bench_kill'];
  const enq = await cli(['enqueue', path.join(dir, 'kill', 'pdf'), path.join(dir, 'kill', 'scan'), ...queueArgs], o);
  if (enq.code !== 0) throw new Error(`enqueue: ${enq.stderr}`);
  const workArgs = ['work', ...queueArgs, '--drain', '--workers', '1', '--page-budget', '0', '--quiet', '--store-schema', 'bench_kill_s'];
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const started = performance.now();
    const [victim, other] = [cli(workArgs, { ...o, child: true }), cli(workArgs, { ...o, child: true })];
    await new Promise((r) => setTimeout(r, (o.killAfter ?? 6) * 1000));
    victim.child.kill('SIGSTOP');
    const held = (await c.query(`SELECT id FROM bench_kill.files WHERE worker = $1 AND state = 'queued'`, [`${os.hostname()}:${victim.child.pid}`])).rows.map((r) => Number(r.id));
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    await new Promise((r) => setTimeout(r, (o.late ?? 10) * 1000));
    const late = cli(workArgs, { ...o, child: true });
    const exits = await Promise.all([other.exited, late.exited]);
    if (exits.some((e) => e.code !== 0)) throw new Error(`work: ${exits.map((e) => e.stderr).join('\n')}`);
    const rows = (await c.query(`SELECT id, state, attempts, finished_at FROM bench_kill.files ORDER BY id`)).rows;
    const after = (t) => round((t.getTime() - killedAt) / 1000, 1);
    return {
      files, done: rows.filter((r) => r.state === 'done').length, heldByKilled: held,
      killAfterSeconds: o.killAfter ?? 6, lateAfterKillSeconds: o.late ?? 10, cli: o.cli ?? 'this build',
      lastResultAfterKillSeconds: after(new Date(Math.max(...rows.map((r) => r.finished_at.getTime())))),
      heldResultAfterKillSeconds: held.map((id) => after(rows.find((r) => Number(r.id) === id).finished_at)),
      wallSeconds: round((performance.now() - started) / 1000, 1), load: load(),
    };
  } finally { await c.end(); }
}

async function timed(fn) {
  const l0 = load();
  const t0 = performance.now();
  const r = await fn();
  return { ...r, seconds: round((performance.now() - t0) / 1000), load: [l0, load()] };
}

async function queueRun(url, inputs, n, files) {
  const queueArgs = ['--queue', url, '--queue-schema', `bench_q${n}`];
  const enq = await cli(['enqueue', ...inputs, ...queueArgs, '--lease', '300']);
  if (enq.code !== 0) throw new Error(`enqueue: ${enq.stderr}`);
  const r = await timed(async () => {
    const exits = await Promise.all(Array.from({ length: n }, () => cli(['work', ...queueArgs, '--drain', '--workers', '1', '--page-budget', '0', '--quiet', '--store-schema', `bench_s${n}`])));
    if (exits.some((e) => e.code !== 0)) throw new Error(`work: ${exits.map((e) => e.stderr).join('\n')}`);
    return {};
  });
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const row = (await c.query(`SELECT count(*) FILTER (WHERE state = 'done')::int AS done, extract(epoch FROM max(finished_at) - min(started_at))::float8 AS span FROM "bench_q${n}".files`)).rows[0];
  await c.end();
  return {
    workers: n, files, done: row.done, wallSeconds: r.seconds, filesPerSecondWall: round(files / r.seconds, 3),
    processingSeconds: round(row.span), filesPerSecondProcessing: round(files / row.span, 3), load: r.load,
  };
}

const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

/** Part 1 for this build and the one in `dir`, interleaved round by round; the ratio of the medians. */
async function compareOverhead(url, o, dir) {
  const before = await import(path.join(o.compare, 'dist/queue/index.js'));
  const rounds = [];
  for (let r = 1; r <= o.rounds; r++) {
    const b = await overhead(url, o.overheadJobs, dir, before.openQueue, `_before_${r}`);
    const a = await overhead(url, o.overheadJobs, dir, openQueue, `_after_${r}`);
    rounds.push({ round: r, before: b.queueOverheadMsPerJob, after: a.queueOverheadMsPerJob });
    console.log(`round ${r}: queue's own ms/job, 1 in hand: before ${b.queueOverheadMsPerJob.concurrency1}, after ${a.queueOverheadMsPerJob.concurrency1}; 4 in hand: before ${b.queueOverheadMsPerJob.concurrency4}, after ${a.queueOverheadMsPerJob.concurrency4}`);
  }
  const m = (side, c) => median(rounds.map((x) => x[side][c]));
  const out = { compare: o.compare, rounds };
  for (const c of ['concurrency1', 'concurrency4']) out[c] = { beforeMedian: m('before', c), afterMedian: m('after', c), ratio: round(m('after', c) / m('before', c), 3) };
  return out;
}

async function main() {
  const o = args(process.argv.slice(2));
  if (o.kill) {
    const server = await startPostgres();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rk-bench-queue-'));
    const report = { date: new Date().toISOString(), host: { cpus: os.cpus().length, load1: load() } };
    try { report.kill = await killRun(server.url, dir, o); } finally { server.stop(); fs.rmSync(dir, { recursive: true, force: true }); }
    const file = path.join(here, 'reports', `queue-kill-${report.date.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}.json`);
    fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
    console.log(JSON.stringify(report.kill));
    console.log(`report: ${path.relative(process.cwd(), file)}`);
    return;
  }
  if (o.overheadOnly) {
    const server = await startPostgres();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rk-bench-queue-'));
    const report = { date: new Date().toISOString(), host: { cpus: os.cpus().length, load1: load() }, options: o };
    try {
      if (o.compare) report.comparison = await compareOverhead(server.url, o, dir);
      else report.overhead = await overhead(server.url, o.overheadJobs, dir);
    } finally {
      server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    report.host.load1After = load();
    const file = path.join(here, 'reports', `queue-overhead-${report.date.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}.json`);
    fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
    console.log(JSON.stringify(report.comparison ? { concurrency1: report.comparison.concurrency1, concurrency4: report.comparison.concurrency4 } : report.overhead.queueOverheadMsPerJob));
    console.log(`report: ${path.relative(process.cwd(), file)}`);
    return;
  }
  const server = await startPostgres();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rk-bench-queue-'));
  const report = { date: new Date().toISOString(), host: { cpus: os.cpus().length, load1: load() }, options: o, overhead: null, batch: null, queue: [] };
  try {
    report.overhead = await overhead(server.url, o.overheadJobs, dir);
    const made = await writeQueueFiles(path.join(dir, 'in'), { pdfs: o.pdfs, scans: o.scans });
    const files = made.pdfs.length + made.scans.length;
    const inputs = [path.join(dir, 'in', 'pdf'), path.join(dir, 'in', 'scan')];
    const b = await timed(() => cli(['batch', ...inputs, '--out', path.join(dir, 'batch.jsonl'), '--workers', '1', '--page-budget', '0', '--quiet', '--store-url', server.url, '--store-schema', 'bench_batch']));
    if (b.code !== 0) throw new Error(`batch: ${b.stderr}`);
    report.batch = { workers: 1, files, wallSeconds: b.seconds, filesPerSecondWall: round(files / b.seconds, 3), load: b.load };
    for (const n of o.workers) report.queue.push(await queueRun(server.url, inputs, n, files));
    const one = report.queue.find((q) => q.workers === 1);
    if (one) report.endToEndOverheadMsPerJob = round(((one.wallSeconds - b.seconds) * 1000) / files, 1);
  } finally {
    server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const file = path.join(here, 'reports', `queue-${report.date.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}.json`);
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  if (o.json) process.stdout.write(JSON.stringify(report) + '\n');
  else {
    const ov = report.overhead;
    console.log(`overhead (stand-in extractor, ${o.overheadJobs} jobs): queue ${ov.queue1.msPerJob} ms/job (1 in hand), ${ov.queue4.msPerJob} (4); batch ${ov.batch1.msPerFile} / ${ov.batch4.msPerFile} ms/file; queue's own ${ov.queueOverheadMsPerJob.concurrency1} / ${ov.queueOverheadMsPerJob.concurrency4} ms/job; enqueue ${ov.queue1.enqueueMsPerFile} ms/file`);
    console.log(`batch --workers 1: ${report.batch.files} files in ${report.batch.wallSeconds} s = ${report.batch.filesPerSecondWall} files/s (load ${report.batch.load.join(' -> ')})`);
    for (const q of report.queue) console.log(`queue, ${q.workers} work process(es): ${q.wallSeconds} s wall = ${q.filesPerSecondWall} files/s; processing ${q.processingSeconds} s = ${q.filesPerSecondProcessing} files/s (load ${q.load.join(' -> ')})`);
    if (report.endToEndOverheadMsPerJob !== undefined) console.log(`end to end, 1 worker against batch: ${report.endToEndOverheadMsPerJob} ms per job`);
    console.log(`report: ${path.relative(process.cwd(), file)}`);
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
