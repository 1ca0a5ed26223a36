/**
 * The job queue's heartbeat through real `receiptkit work` processes (issue 53), on small text-layer
 * PDFs (test/generators/queue-files.ts, no OCR) and a real PostgreSQL server (test/helpers/postgres.mjs):
 *
 * - a worker paused (SIGSTOP) while it holds a job, past the job's heartbeat window: `status` shows the
 *   job held by a worker that no longer beats, another worker takes it; resumed (SIGCONT), the paused
 *   worker writes nothing for it (`abandoned`) and goes on; every file has one result, written once;
 * - PostgreSQL restarted under two running workers: they stop taking jobs while it is down, go on
 *   when it is back, and drain; every file has one result, no worker exits with a stack trace.
 *
 * (test/queue-process.test.ts SIGKILLs a worker holding a job with real OCR; test/queue.test.ts covers
 * the heartbeat window, a long job on a live worker and a taken claim in process.)
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startPostgres } from './helpers/postgres.mjs';
import type { RunningPostgres } from './helpers/postgres.mjs';
import { writeQueueFiles } from './generators/queue-files.ts';
import { CLI, runCli, startCli, sleep, until } from './helpers/cli-process.js';
import type { Proc } from './helpers/cli-process.js';


let shared: RunningPostgres;
let pdfDir: string;
let pdfs: string[];
beforeAll(async () => {
  expect(existsSync(CLI)).toBe(true); // npm test builds first
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-queue-hb-'));
  [shared, { pdfs }] = await Promise.all([startPostgres(), writeQueueFiles(dir, { pdfs: 24, scans: 0 })]);
  pdfDir = path.join(dir, 'pdf');
});
afterAll(() => { shared?.stop(); });

const start = startCli;
const run = runCli;

async function query(url: string, sql: string, args: unknown[] = []): Promise<any[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try { return (await c.query(sql, args)).rows; } finally { await c.end(); }
}


/** Restarts the server on its port and data directory (`pg_ctl restart -m fast`: connections are ended), as its owner. */
function restartPostgres(server: RunningPostgres): void {
  const pgCtl = path.join(server.bin, 'pg_ctl');
  const args = ['-D', path.join(server.dir, 'data'), '-l', path.join(server.dir, 'server.log'), '-m', 'fast', '-w', '-t', '60', 'restart'];
  const r = process.getuid?.() === 0
    ? spawnSync('runuser', ['-u', 'postgres', '--', pgCtl, ...args], { encoding: 'utf8', cwd: server.dir })
    : spawnSync(pgCtl, args, { encoding: 'utf8', cwd: server.dir });
  if (r.status !== 0) throw new Error(`pg_ctl restart failed: ${r.stderr || r.stdout}`);
}

const doneBy = (p: Proc) => p.lines.filter((l) => l.msg === 'job' && l.outcome === 'done');
const STACK = /\n\s+at .+:\d+:\d+/;

/** Every file done once: one `done` line per file over all the workers' logs, and one done row each. */
async function expectOneResultEach(url: string, schema: string, workers: Proc[]): Promise<any[]> {
  const rows = await query(url, `SELECT id, state, attempts, worker, result_json FROM "${schema}".files ORDER BY id`);
  expect(rows).toHaveLength(pdfs.length);
  expect(rows.filter((r) => r.state !== 'done' || !r.result_json)).toEqual([]);
  const doneIds = workers.flatMap((p) => doneBy(p).map((l) => l.id as number)).sort((x, y) => x - y);
  expect(doneIds).toEqual(rows.map((r) => Number(r.id)));
  return rows;
}

// one after the other: each blocks the test process (spawnSync) at moments the other's timing depends on
describe('job queue heartbeat with real processes', () => {
  it('a worker paused past the heartbeat window: status shows its job, another worker takes it; resumed, it writes nothing for it and goes on', async () => {
    const url = shared.url, SCHEMA = 'q_pause';
    const queueArgs = ['--queue', url, '--queue-schema', SCHEMA];
    // a 30 s window: the two status commands below (each a CLI process, seconds apart on a loaded machine)
    // both run while the job is still held by the silent worker (with 10 s the monitor had taken it back
    // before the second one ran, at load 6-10)
    const enq = run(['enqueue', pdfDir, ...queueArgs, '--heartbeat', '30', '--retry-delay', '1']);
    expect(enq.status, enq.stderr).toBe(0);
    const workArgs = ['work', ...queueArgs, '--drain', '--workers', '1', '--poll', '200', '--store-schema', 's_pause'];
    const victim = start(workArgs);
    await until(() => doneBy(victim).length >= 1, 90_000, 'the victim to finish a job');
    // pause the victim while it holds a job whose heartbeat is fresh (SIGSTOP, then the queue says what
    // it holds, through one open connection so that the victim is stopped as briefly as can be)
    let held: number | undefined;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await until(async () => {
        victim.child.kill('SIGSTOP');
        const r = await c.query(`SELECT f.id FROM "${SCHEMA}".files f JOIN "${SCHEMA}_jobs".job j ON j.name = 'extract' AND j.id = f.job_id
          WHERE f.worker = $1 AND f.state = 'queued' AND j.state = 'active' AND j.heartbeat_on > now() - interval '4 seconds'`, [victim.id]);
        held = r.rows[0] ? Number(r.rows[0].id) : undefined;
        if (held === undefined) { victim.child.kill('SIGCONT'); await sleep(15 + Math.random() * 30); }
        return held !== undefined;
      }, 60_000, 'the victim to hold a job');
    } finally { await c.end(); }
    const pausedAt = Date.now();
    const other = start(workArgs);
    // silent for more than half its window: `status` shows the job held by a worker that no longer beats
    await sleep(16_500);
    const status = run(['status', ...queueArgs]);
    expect(status.stdout, status.stderr).toMatch(/\(\d+ held by workers that no longer beat\)/);
    expect(status.stdout).toContain(`held by ${victim.id}, no heartbeat for `);
    const json = JSON.parse(run(['status', ...queueArgs, '--json']).stdout);
    const seenAt = Date.now();
    expect(json.staleJobs).toContainEqual(expect.objectContaining({ id: held, worker: victim.id, heartbeatSeconds: 30 }));
    const lastBeat = seenAt - json.staleJobs.find((j: { id: number }) => j.id === held).silentSeconds * 1000; // within a second
    // past the window (30 s) and the monitor's pass (every 5 s) and the back-off (1-2 s): the other worker has it
    await until(async () => (await query(url, `SELECT worker FROM "${SCHEMA}".files WHERE id = $1`, [held]))[0].worker === other.id, 40_000, 'the other worker to take the job');
    const takenAt = ((await query(url, `SELECT started_at FROM "${SCHEMA}".files WHERE id = $1`, [held]))[0].started_at as Date).getTime();
    const takenAfter = takenAt - pausedAt;
    expect(takenAt - lastBeat).toBeGreaterThan(29_000); // not before its window (30 s) since its last beat had passed
    victim.child.kill('SIGCONT');
    const exits = await Promise.all([victim.exited, other.exited]);
    for (const [i, p] of [victim, other].entries()) {
      expect(exits[i]!.code, p.stderr()).toBe(0);
      expect(p.lines.at(-1)).toMatchObject({ msg: 'stopped', stoppedBy: 'drained' });
    }
    // the resumed worker wrote nothing for the job it had lost; the other worker wrote its one result
    expect(victim.lines.filter((l) => l.id === held && l.msg === 'job')).toEqual([expect.objectContaining({ outcome: 'abandoned', attempt: 1 })]);
    expect(victim.lines.at(-1)).toMatchObject({ abandoned: 1 });
    expect(other.lines.filter((l) => l.id === held && l.msg === 'job')).toEqual([expect.objectContaining({ outcome: 'done', attempt: 2 })]);
    const rows = await expectOneResultEach(url, SCHEMA, [victim, other]);
    expect(rows.find((r) => Number(r.id) === held)).toMatchObject({ worker: other.id, attempts: 2 });
    expect(doneBy(victim).length).toBeGreaterThan(0); // it went on after it was resumed, or before
    console.log(`queue heartbeat: paused worker's job taken by the other after ${(takenAfter / 1000).toFixed(1)} s (window 30 s); victim done ${doneBy(victim).length}, other ${doneBy(other).length}`);
  }, 150_000);

  it('PostgreSQL restarted under two running workers: they wait for it, go on and drain; every file one result, no stack trace', async () => {
    const own = await startPostgres();
    try {
      const SCHEMA = 'q_restart';
      const queueArgs = ['--queue', own.url, '--queue-schema', SCHEMA];
      const enq = run(['enqueue', pdfDir, ...queueArgs, '--heartbeat', '10', '--retry-delay', '1']);
      expect(enq.status, enq.stderr).toBe(0);
      const workArgs = ['work', ...queueArgs, '--drain', '--workers', '1', '--poll', '200', '--store-schema', 's_restart'];
      const workers = [start(workArgs), start(workArgs)];
      await until(() => workers.every((p) => doneBy(p).length >= 2), 90_000, 'both workers to finish two jobs');
      const before = (await query(own.url, 'SELECT pg_postmaster_start_time() AS t'))[0].t as Date;
      const doneAtRestart = workers.reduce((n, p) => n + doneBy(p).length, 0);
      restartPostgres(own);
      const after = (await query(own.url, 'SELECT pg_postmaster_start_time() AS t'))[0].t as Date;
      expect(after.getTime()).toBeGreaterThan(before.getTime()); // it was restarted
      const exits = await Promise.all(workers.map((p) => p.exited));
      for (const [i, p] of workers.entries()) {
        expect(exits[i]!.code, p.stderr()).toBe(0);
        expect(p.stderr()).not.toMatch(STACK);
        expect(p.lines.at(-1)).toMatchObject({ msg: 'stopped', stoppedBy: 'drained' });
      }
      expect(doneAtRestart).toBeLessThan(pdfs.length);
      await expectOneResultEach(own.url, SCHEMA, workers);
      const errors = workers.flatMap((p) => p.lines.filter((l) => l.msg === 'queue-error'));
      expect(errors.map((l) => l.error).filter((m) => !/unavailable|terminat|connect|shutting down|starting up/i.test(m))).toEqual([]);
      const retried = workers.flatMap((p) => p.lines.filter((l) => l.msg === 'job' && l.outcome === 'error'));
      console.log(`queue restart: ${doneAtRestart} of ${pdfs.length} done at the restart; ${errors.length} queue errors logged, ${retried.length} jobs retried; ${workers.map((p) => doneBy(p).length).join(' + ')} done`);
    } finally { own.stop(); }
  }, 150_000);
});
