#!/usr/bin/env node
// The store's SQLite driver, measured (issue 32): better-sqlite3 against Node's built-in node:sqlite.
//
//   node bench/sqlite-drivers.mjs --better-sqlite3 DIR [--runs 10] [--ops 3000]
//
// DIR is a folder whose node_modules holds better-sqlite3 built for the running Node (it is no longer
// a dependency: `npm install --prefix DIR better-sqlite3@12.11.1` with npm_config_nodedir at the
// running Node's headers). Two measurements, each in child processes of the running Node:
// - abort: the store's pattern, a statement prepared per query and left to the garbage collector
//   (scansWhere and similarityCandidates do this), forced GCs, then close and exit. Counts runs that end
//   by a signal (SIGABRT) or print anything on stderr.
// - speed: OPS scans inserted one transaction each (WAL, synchronous FULL, as the store), then OPS
//   look-ups by key with a prepared statement; the medians of RUNS child runs, ms per 1000 operations.
// Prints a JSON report on stdout. The drivers run in turn, one child each, RUNS times.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { 'better-sqlite3': { type: 'string' }, runs: { type: 'string', default: '10' }, ops: { type: 'string', default: '3000' } } });
const runs = Number(values.runs), ops = Number(values.ops);
const bs3Dir = values['better-sqlite3'] && path.resolve(values['better-sqlite3']);

/** The child: a tiny driver layer over either module, then the workload. */
const child = (driver, mode, file) => `
const driver = ${JSON.stringify(driver)};
let db, prep, exec, tx, close;
if (driver === 'better-sqlite3') {
  const { createRequire } = await import('node:module');
  const Database = createRequire(${JSON.stringify(bs3Dir ? path.join(bs3Dir, 'x.js') : '')})('better-sqlite3');
  db = new Database(${JSON.stringify(file)}, { timeout: 10000 });
  prep = (s) => db.prepare(s); exec = (s) => db.exec(s); tx = (f) => db.transaction(f).immediate(); close = () => db.close();
} else {
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
  db = new DatabaseSync(${JSON.stringify(file)});
  exec = (s) => db.exec(s); prep = (s) => db.prepare(s); close = () => db.close();
  tx = (f) => { db.exec('BEGIN IMMEDIATE'); try { const r = f(); db.exec('COMMIT'); return r; } catch (e) { db.exec('ROLLBACK'); throw e; } };
}
exec('PRAGMA journal_mode = WAL'); exec('PRAGMA synchronous = FULL'); exec('PRAGMA busy_timeout = 10000');
exec('CREATE TABLE IF NOT EXISTS scans (id INTEGER PRIMARY KEY, key TEXT, fp TEXT, json TEXT)');
exec('CREATE INDEX IF NOT EXISTS scans_key ON scans (key)');
const ops = ${ops};
if (${JSON.stringify(mode)} === 'abort') {
  for (let i = 0; i < ops; i++) {
    tx(() => prep('INSERT INTO scans (key, fp, json) VALUES (?, ?, ?)').run('k' + (i % 50), 'fp' + (i % 7), JSON.stringify({ i })));
    prep('SELECT id, json FROM scans WHERE fp = ? ORDER BY id DESC LIMIT 20').all('fp' + (i % 7));
    if (i % 100 === 0) globalThis.gc();
  }
  globalThis.gc(); close(); globalThis.gc();
  await new Promise((r) => setTimeout(r, 20));
  globalThis.gc();
  process.stdout.write('ok');
} else {
  const ins = prep('INSERT INTO scans (key, fp, json) VALUES (?, ?, ?)');
  const get = prep('SELECT id, json FROM scans WHERE key = ? ORDER BY id DESC LIMIT 1');
  const json = JSON.stringify({ totalAmount: { data: 12.5 }, text: 'x'.repeat(2000) });
  let t = performance.now();
  for (let i = 0; i < ops; i++) tx(() => ins.run('k' + i, 'fp', json));
  const insertMs = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < ops; i++) get.get('k' + ((i * 7919) % ops));
  const getMs = performance.now() - t;
  close();
  process.stdout.write(JSON.stringify({ insertMs, getMs }));
}
`;

function runChild(driver, mode) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-sqlite-'));
  try {
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', child(driver, mode, path.join(dir, 's.db'))], { encoding: 'utf8', timeout: 300_000 });
    return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : null; };
const drivers = ['node:sqlite', ...(bs3Dir ? ['better-sqlite3'] : [])];
const report = { node: process.version, runs, ops, drivers: {} };
// the drivers in turn (A B A B ...), so that a change of the machine's speed falls on both
const aborts = Object.fromEntries(drivers.map((d) => [d, []]));
const speeds = Object.fromEntries(drivers.map((d) => [d, []]));
for (let i = 0; i < runs; i++) {
  for (const d of drivers) {
    const r = runChild(d, 'abort');
    aborts[d].push(r.signal ? r.signal : r.status !== 0 ? `exit ${r.status}` : r.stderr ? `stderr: ${r.stderr.split('\n').find((l) => l.trim())}` : 'ok');
  }
  for (const d of drivers) {
    const r = runChild(d, 'speed');
    if (r.status === 0) speeds[d].push(JSON.parse(r.stdout));
  }
}
for (const d of drivers) {
  report.drivers[d] = {
    abortRuns: aborts[d].filter((a) => a !== 'ok').length, outcomes: aborts[d],
    insertMsPer1000: median(speeds[d].map((s) => (s.insertMs / ops) * 1000)), getMsPer1000: median(speeds[d].map((s) => (s.getMs / ops) * 1000)),
    speedRuns: speeds[d].length,
  };
  process.stderr.write(`${d}: ${JSON.stringify(report.drivers[d])}\n`);
}
console.log(JSON.stringify(report, null, 2));
