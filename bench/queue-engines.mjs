#!/usr/bin/env node
// How the job queue's engine was chosen (issue 25): pg-boss (10.4.2 then; the installed version now, 12
// since issue 53) against graphile-worker 0.17.3 on one throwaway PostgreSQL (test/helpers/postgres.mjs).
// graphile-worker is not a dependency: install it without saving first.
//
//   npm install --no-save graphile-worker@0.17.3 && node bench/queue-engines.mjs [jobs 2000] [slots 4]
//   node bench/queue-engines.mjs 0 0 lease-boss      # pg-boss's lease and heartbeat only, no graphile-worker
//
//  1. enqueue N jobs (1000 per call), then claim + complete them with C concurrent slots in one process
//     (no work): jobs/s; for pg-boss also the pattern receiptkit uses (a result row written and the job
//     completed in one transaction)
//  2. lease: a child process claims a job and is SIGKILLed; how long until another worker gets the job
//     (pg-boss: expireInSeconds 3, then heartbeatSeconds 10 with a 1 h lease, monitor every 1 s;
//     graphile-worker: its lock, watched 30 s)
import { spawn } from 'node:child_process';
import { startPostgres } from '../test/helpers/postgres.mjs';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PgBoss } from 'pg-boss';
import pg from 'pg';

const N = Number(process.argv[2] ?? 2000);
const C = Number(process.argv[3] ?? 4);
const mode = process.argv[4] ?? 'all';
// graphile-worker is loaded only by the runs that use it (`lease-boss` needs only pg-boss)
const run = async (...a) => (await import('graphile-worker')).run(...a);
const makeWorkerUtils = async (...a) => (await import('graphile-worker')).makeWorkerUtils(...a);
const BOSS = `pg-boss ${JSON.parse(readFileSync(createRequire(import.meta.url).resolve('pg-boss/package.json'), 'utf8')).version}`;

async function bossThroughput(url) {
  const boss = new PgBoss({ connectionString: url, schema: 'bench_boss', supervise: false, schedule: false, max: C + 2 });
  boss.on('error', () => {});
  await boss.start();
  await boss.createQueue('q');
  let t0 = performance.now();
  for (let i = 0; i < N; i += 1000) {
    await boss.insert('q', Array.from({ length: Math.min(1000, N - i) }, (_, k) => ({ data: { n: i + k } })));
  }
  const enq = performance.now() - t0;
  t0 = performance.now();
  let done = 0;
  const lat = [];
  const slot = async () => {
    for (;;) {
      const s = performance.now();
      const [job] = await boss.fetch('q');
      if (!job) return;
      await boss.complete('q', job.id);
      lat.push(performance.now() - s);
      done++;
    }
  };
  await Promise.all(Array.from({ length: C }, slot));
  const ms = performance.now() - t0;
  await boss.stop({ graceful: false });
  lat.sort((a, b) => a - b);
  return { engine: BOSS, jobs: done, enqueuePerS: Math.round(N / (enq / 1000)), claimCompletePerS: Math.round(done / (ms / 1000)), p50ms: +lat[lat.length >> 1].toFixed(2) };
}

async function bossTxThroughput(url) {
  // the pattern receiptkit would use: fetch, then one transaction writing a result row and completing the job
  const pool = new pg.Pool({ connectionString: url, max: C + 2 });
  await pool.query('CREATE TABLE IF NOT EXISTS results (id int primary key, result text)');
  const db = { executeSql: (text, values) => pool.query(text, values) };
  const boss = new PgBoss({ db, schema: 'bench_boss_tx', supervise: false, schedule: false });
  boss.on('error', () => {});
  await boss.start();
  await boss.createQueue('q');
  for (let i = 0; i < N; i += 1000) {
    await boss.insert('q', Array.from({ length: Math.min(1000, N - i) }, (_, k) => ({ data: { n: i + k } })));
  }
  const t0 = performance.now();
  let done = 0;
  const slot = async () => {
    for (;;) {
      const [job] = await boss.fetch('q');
      if (!job) return;
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        await c.query('INSERT INTO results VALUES ($1, $2) ON CONFLICT DO NOTHING', [job.data.n, '{"ok":true}']);
        await boss.complete('q', job.id, null, { db: { executeSql: (t, v) => c.query(t, v) } });
        await c.query('COMMIT');
      } finally { c.release(); }
      done++;
    }
  };
  await Promise.all(Array.from({ length: C }, slot));
  const ms = performance.now() - t0;
  await boss.stop({ graceful: false });
  await pool.end();
  return { engine: `${BOSS}, result row + complete in one transaction`, jobs: done, claimCompletePerS: Math.round(done / (ms / 1000)) };
}

async function graphileThroughput(url) {
  const utils = await makeWorkerUtils({ connectionString: url, schema: 'bench_gw' });
  await utils.migrate();
  let t0 = performance.now();
  for (let i = 0; i < N; i += 1000) {
    await utils.addJobs(Array.from({ length: Math.min(1000, N - i) }, (_, k) => ({ identifier: 't', payload: { n: i + k } })));
  }
  const enq = performance.now() - t0;
  await utils.release();
  let done = 0;
  let resolveDone;
  const all = new Promise((r) => { resolveDone = r; });
  t0 = performance.now();
  const runner = await run({
    connectionString: url, schema: 'bench_gw', concurrency: C, noHandleSignals: true, pollInterval: 1000,
    taskList: { t: async () => { if (++done === N) resolveDone(); } },
    logger: new (await import('graphile-worker')).Logger(() => () => {}),
  });
  await all;
  const ms = performance.now() - t0;
  await runner.stop();
  return { engine: 'graphile-worker 0.17.3', jobs: done, enqueuePerS: Math.round(N / (enq / 1000)), claimCompletePerS: Math.round(done / (ms / 1000)) };
}

/** A child holds one job forever; it is SIGKILLed; how long until a second worker gets that job (max waitS). */
async function lease(url, engine, waitS) {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '0', '0', `hold-${engine}`, url], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.on('data', (d) => { if (String(d).includes('holding')) resolve(); }));
  child.kill('SIGKILL');
  const killedAt = performance.now();
  if (engine.startsWith('boss')) {
    const boss = new PgBoss({ connectionString: url, schema: 'lease_boss', superviseIntervalSeconds: 1, monitorIntervalSeconds: 1, schedule: false });
    boss.on('error', () => {});
    await boss.start();
    const how = engine === 'boss' ? '3 s (expireInSeconds)' : 'heartbeatSeconds 10, expireInSeconds 3600';
    for (;;) {
      const [job] = await boss.fetch(engine === 'boss' ? 'q' : 'qh', { includeMetadata: true });
      if (job) { await boss.stop({ graceful: false }); return { engine: BOSS, lease: `${how}, monitor every 1 s`, retriedAfterS: +((performance.now() - killedAt) / 1000).toFixed(1), retryCount: job.retryCount }; }
      if (performance.now() - killedAt > waitS * 1000) { await boss.stop({ graceful: false }); return { engine: 'pg-boss', retriedAfterS: null }; }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  let got = false;
  const runner = await run({ connectionString: url, schema: 'lease_gw', concurrency: 1, noHandleSignals: true, pollInterval: 500,
    taskList: { t: async () => { got = true; } }, logger: new (await import('graphile-worker')).Logger(() => () => {}) });
  while (!got && performance.now() - killedAt < waitS * 1000) await new Promise((r) => setTimeout(r, 200));
  await runner.stop();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const row = (await c.query('SELECT locked_at, locked_by, attempts FROM lease_gw._private_jobs')).rows[0];
  await c.end();
  return { engine: 'graphile-worker', retriedAfterS: got ? +((performance.now() - killedAt) / 1000).toFixed(1) : null, waitedS: waitS, stillLocked: !!row?.locked_at, lockedBy: row?.locked_by };
}

async function hold(engine, url) {
  if (engine.startsWith('boss')) {
    const boss = new PgBoss({ connectionString: url, schema: 'lease_boss', supervise: false, schedule: false });
    await boss.start();
    const q = engine === 'boss' ? 'q' : 'qh';
    await boss.createQueue(q);
    await boss.insert(q, [engine === 'boss' ? { data: {}, expireInSeconds: 3, retryLimit: 3 } : { data: {}, expireInSeconds: 3600, heartbeatSeconds: 10, retryLimit: 3 }]);
    const [job] = await boss.fetch(q);
    if (!job) throw new Error('no job');
  } else {
    const utils = await makeWorkerUtils({ connectionString: url, schema: 'lease_gw' });
    await utils.migrate();
    await utils.addJob('t', {});
    await utils.release();
    await run({ connectionString: url, schema: 'lease_gw', concurrency: 1, noHandleSignals: true,
      taskList: { t: () => new Promise(() => {}) }, logger: new (await import('graphile-worker')).Logger(() => () => {}) });
    await new Promise((r) => setTimeout(r, 1500));
  }
  process.stdout.write('holding\n');
  await new Promise(() => {});
}

if (mode.startsWith('hold-')) {
  await hold(mode.slice(5), process.argv[5]);
} else {
  const server = await startPostgres();
  try {
    const out = [];
    if (mode === 'all' || mode === 'throughput') {
      for (let rep = 0; rep < 2; rep++) {
        out.push(await bossThroughput(server.url));
        await (async () => { const c = new pg.Client({ connectionString: server.url }); await c.connect(); await c.query('DROP SCHEMA bench_boss CASCADE'); await c.end(); })();
        out.push(await graphileThroughput(server.url));
        await (async () => { const c = new pg.Client({ connectionString: server.url }); await c.connect(); await c.query('DROP SCHEMA bench_gw CASCADE'); await c.end(); })();
        out.push(await bossTxThroughput(server.url));
        await (async () => { const c = new pg.Client({ connectionString: server.url }); await c.connect(); await c.query('DROP SCHEMA bench_boss_tx CASCADE; DROP TABLE results'); await c.end(); })();
      }
    }
    if (mode === 'all' || mode === 'lease' || mode === 'lease-boss') {
      out.push(await lease(server.url, 'boss', 30));
      out.push(await lease(server.url, 'boss-heartbeat', 30));
      if (mode !== 'lease-boss') out.push(await lease(server.url, 'gw', 30));
    }
    for (const o of out) console.log(JSON.stringify(o));
  } finally {
    server.stop();
  }
  process.exit(0);
}
