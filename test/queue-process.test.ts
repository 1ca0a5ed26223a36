/**
 * The job queue through real processes (issue 25): `receiptkit enqueue`, three `receiptkit work`
 * processes of the built CLI sharing 60 small text-layer PDFs and 10 scans (drawn here with sharp, read
 * by real OCR) through a real PostgreSQL server; one worker is SIGKILLed while it holds a job, one is
 * added late; the job it held is taken again once its heartbeat window (10 s) has passed (within 30 s and
 * one job's time of the kill, not after a lease). Every file ends with exactly one result, no acknowledged result is lost, and the exported
 * JSON Lines equal a plain `batch` over the same files line for line. Also: SIGTERM finishes the job in
 * hand, and bad or unreachable queues are clear errors.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startPostgres, freePort } from './helpers/postgres.mjs';
import type { RunningPostgres } from './helpers/postgres.mjs';
import { writeQueueFiles } from './generators/queue-files.ts';
import { CLI, runCli, startCli, sleep, until as untilEvery } from './helpers/cli-process.js';
import type { Proc } from './helpers/cli-process.js';


let postgres: RunningPostgres;
let dir: string;
let files: { pdfs: string[]; scans: string[] };
beforeAll(async () => {
  expect(existsSync(CLI)).toBe(true); // npm test builds first
  [postgres, dir] = await Promise.all([startPostgres(), mkdtempSync(path.join(os.tmpdir(), 'rk-queue-proc-'))]);
  files = await writeQueueFiles(dir, { pdfs: 60, scans: 10 });
});
afterAll(() => { postgres?.stop(); });

const start = startCli;
const run = runCli;

async function query(sql: string, args: unknown[] = []): Promise<any[]> {
  const c = new pg.Client({ connectionString: postgres.url });
  await c.connect();
  try { return (await c.query(sql, args)).rows; } finally { await c.end(); }
}

/** Waits until `cond` holds (checked every 50 ms), at most `ms`. */
const until = (cond: () => boolean | Promise<boolean>, ms: number, what: string) => untilEvery(cond, ms, what, 50);

/** Stops a worker while it holds a job (SIGSTOP, then the queue says what it holds), then SIGKILLs it; returns the held file ids. */
async function killHoldingAJob(p: Proc, schema: string): Promise<number[]> {
  for (let i = 0; i < 400; i++) {
    p.child.kill('SIGSTOP');
    const held = await query(`SELECT id FROM "${schema}".files WHERE worker = $1 AND state = 'queued'`, [p.id]);
    if (held.length) {
      p.child.kill('SIGKILL');
      return held.map((r) => Number(r.id));
    }
    p.child.kill('SIGCONT');
    await sleep(20 + (i % 5) * 7);
  }
  throw new Error('the worker was never seen holding a job');
}

/** A result line without what differs from run to run (none in simple results, but batch says: timings and ids aside). */
const comparable = (line: string) => JSON.stringify(JSON.parse(line), (k, v) => (k === 'trackingId' || k === 'elapsed' ? undefined : v));

describe('receiptkit enqueue / work / results with real processes', () => {
  it('three workers share 70 files; one is SIGKILLed holding a job, one joins late; one result per file, equal to batch', async () => {
    const SCHEMA = 'q_main', STORE = 's_main';
    const queueArgs = ['--queue', postgres.url, '--queue-schema', SCHEMA];
    const inputs = [path.join(dir, 'pdf'), path.join(dir, 'scan')];
    const enq = run(['enqueue', ...inputs, ...queueArgs, '--heartbeat', '10', '--tries', '5', '--retry-delay', '1']);
    expect(enq.status, enq.stderr).toBe(0);
    expect(enq.stderr).toMatch(/^70 files: 70 queued, 0 already in the queue -> postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres schema q_main\n$/);
    expect(run(['enqueue', ...inputs, ...queueArgs]).stderr).toMatch(/^70 files: 0 queued, 70 already in the queue/);

    const batchOut = path.join(dir, 'batch.jsonl');
    const batch = start(['batch', ...inputs, '--out', batchOut, '--workers', '1', '--page-budget', '0', '--quiet']);
    const workArgs = ['work', ...queueArgs, '--drain', '--workers', '1', '--page-budget', '0', '--poll', '300', '--store-schema', STORE];
    const [a, b, victim] = [start(workArgs), start(workArgs), start(workArgs)];
    const doneBy = (p: Proc) => p.lines.filter((l) => l.msg === 'job' && l.outcome === 'done');
    await until(() => doneBy(victim).length >= 2, 90_000, 'the victim to finish two jobs');
    const held = await killHoldingAJob(victim, SCHEMA);
    const killedAt = new Date();
    expect((await victim.exited).signal).toBe('SIGKILL');
    const acknowledged = doneBy(victim).map((l) => l.id as number);
    const late = start(workArgs);

    const exits = await Promise.all([a, b, late].map((p) => p.exited));
    for (const [i, p] of [a, b, late].entries()) {
      expect(exits[i]!.code, p.stderr()).toBe(0);
      expect(p.lines.at(-1)).toMatchObject({ msg: 'stopped', stoppedBy: 'drained' });
    }
    const slowest = Math.max(...[a, b, late].flatMap((p) => doneBy(p).map((l) => l.ms as number)));
    // every file has exactly one result; the held job was taken again by another worker once its
    // heartbeat window (10 s) had passed, not after a lease
    const rows = await query(`SELECT id, state, attempts, worker, started_at, finished_at FROM "${SCHEMA}".files ORDER BY id`);
    expect(rows).toHaveLength(70);
    expect(rows.filter((r) => r.state !== 'done')).toEqual([]);
    for (const id of held) {
      const r = rows.find((x) => Number(x.id) === id)!;
      expect(r.attempts).toBeGreaterThanOrEqual(2);
      expect(r.worker).not.toBe(victim.id);
      // taken again after the window (10 s), the monitor's pass (5 s) and the back-off (1-2 s), by the first
      // worker free (within one job's time), plus 10 s of slack: not after a lease
      expect(r.started_at.getTime() - killedAt.getTime()).toBeLessThan(30_000 + slowest);
    }
    const since = (id: number, k: 'started_at' | 'finished_at') => (rows.find((x) => Number(x.id) === id)![k].getTime() - killedAt.getTime()) / 1000;
    const heldBack = held.map((id) => `taken again ${since(id, 'started_at').toFixed(1)} s, its result ${since(id, 'finished_at').toFixed(1)} s after the kill`).join('; ');
    // no acknowledged result lost: what the victim logged as done is its result in the queue
    expect(acknowledged.length).toBeGreaterThanOrEqual(2);
    for (const id of acknowledged) expect(rows.find((x) => Number(x.id) === id)).toMatchObject({ state: 'done', worker: victim.id });
    // none twice: over all four workers' logs, one `done` per file
    const doneIds = [a, b, victim, late].flatMap((p) => doneBy(p).map((l) => l.id as number)).sort((x, y) => x - y);
    expect(doneIds).toEqual(rows.map((r) => Number(r.id)));
    // the scans went to the shared store
    expect(await query(`SELECT count(DISTINCT content_hash)::int AS n FROM "${STORE}".scans`)).toEqual([{ n: 70 }]);

    const out = path.join(dir, 'queue.jsonl');
    const res = run(['results', ...queueArgs, '--out', out]);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/^70 result lines \(0 failed, 0 dead\)/);
    expect((await batch.exited).code, batch.stderr()).toBe(0);
    const queued = readFileSync(out, 'utf8').trim().split('\n');
    const plain = readFileSync(batchOut, 'utf8').trim().split('\n');
    expect(queued.map((l) => JSON.parse(l).file)).toEqual([...files.pdfs, ...files.scans]);
    expect(queued.map(comparable)).toEqual(plain.map(comparable));
    expect(queued.filter((l) => l.includes('"error"'))).toEqual([]);

    const status = JSON.parse(run(['status', ...queueArgs, '--json']).stdout);
    expect(status).toMatchObject({ total: 70, pending: 0, running: 0, done: 70, failed: 0, dead: 0 });
    console.log(`queue: victim acknowledged ${acknowledged.length}, held ${held.length} (${heldBack}); done by a ${doneBy(a).length}, b ${doneBy(b).length}, late ${doneBy(late).length}; slowest job ${slowest} ms`);
  }, 240_000);

  it('SIGTERM finishes the job in hand and exits 0 without taking another', async () => {
    const SCHEMA = 'q_term';
    const queueArgs = ['--queue', postgres.url, '--queue-schema', SCHEMA];
    expect(run(['enqueue', files.scans[0]!, files.scans[1]!, ...queueArgs]).status).toBe(0);
    const w = start(['work', ...queueArgs, '--workers', '1', '--poll', '200', '--store-schema', 's_term']);
    let holding: number | undefined;
    await until(async () => {
      const r = await query(`SELECT id FROM "${SCHEMA}".files WHERE worker = $1 AND state = 'queued'`, [w.id]);
      holding = r[0] ? Number(r[0].id) : undefined;
      return holding !== undefined;
    }, 90_000, 'the worker to hold a job');
    w.child.kill('SIGTERM');
    const exit = await w.exited;
    expect(exit.code, w.stderr()).toBe(0);
    expect(w.lines.map((l) => l.msg)).toEqual(['working', 'signal', 'job', 'stopped']);
    expect(w.lines[2]).toMatchObject({ id: holding, outcome: 'done', attempt: 1 });
    expect(w.lines[3]).toMatchObject({ done: 1, stoppedBy: 'signal' });
    const rows = await query(`SELECT id, state, attempts FROM "${SCHEMA}".files ORDER BY id`);
    expect(rows.map((r) => [Number(r.id) === holding, r.state, r.attempts])).toEqual(
      rows.map((r) => (Number(r.id) === holding ? [true, 'done', 1] : [false, 'queued', 0])));
  }, 120_000);

  it('bad usage exits 2; an unreachable queue is a one-line INVALID_OPTION, exit 1, no password, no stack', async () => {
    const noQueue = run(['status']);
    expect(noQueue.status).toBe(2);
    expect(noQueue.stderr).toMatch(/^receiptkit: status needs --queue postgres:\/\/\.\.\./);
    const badUrl = run(['enqueue', dir, '--queue', 'mysql://db/x']);
    expect(badUrl.status).toBe(2);
    expect(badUrl.stderr).toMatch(/--queue takes a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(run(['work', '--queue', postgres.url, '--workers', '0']).status).toBe(2);
    const port = await freePort();
    const down = run(['work', '--queue', `postgres://rk:secret@127.0.0.1:${port}/db`]);
    expect(down.status).toBe(1);
    expect(down.stderr).toMatch(/^receiptkit: INVALID_OPTION: queue: cannot open the job queue \(connect ECONNREFUSED 127\.0\.0\.1:\d+\): postgres:\/\/rk:\*\*\*@127\.0\.0\.1:\d+\/db\n$/);
    const schema = run(['status', '--queue', postgres.url, '--queue-schema', 'no-dashes']);
    expect(schema.status).toBe(1);
    expect(schema.stderr).toMatch(/^receiptkit: INVALID_OPTION: queueSchema: /);
  });
});
