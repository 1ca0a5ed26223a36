/**
 * The job queue's library API (src/queue) on a real PostgreSQL server (test/helpers/postgres.mjs), one
 * schema per test, driven with stand-in engines (what is tested is the queue: identities, leases,
 * retries, dead letters, the one result per file, the lines in enqueue order; test/queue-process.test.ts
 * runs real `receiptkit work` processes with real OCR).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openQueue } from '../src/queue/index.js';
import type { Extractor, JobEvent, ReceiptQueue } from '../src/queue/index.js';
import { ReceiptKitError } from '../src/errors.js';
import { QueueDb } from '../src/queue/db.js';
import { JobQueue, orderedJobId } from '../src/queue/jobs.js';
import { startPostgres, freePort } from './helpers/postgres.mjs';
import type { RunningPostgres } from './helpers/postgres.mjs';

let postgres: RunningPostgres;
beforeAll(async () => { postgres = await startPostgres(); });
afterAll(() => { postgres?.stop(); });
let seq = 0;
const open = (o: { maintenanceIntervalSeconds?: number } = {}) => openQueue(postgres.url, { schema: `q_${process.pid}_${++seq}`, ...o });

/** A folder of "receipts": each .png file holds a number, which the stand-in engine returns as the total. */
function folder(names: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-queue-'));
  for (const [name, text] of Object.entries(names)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** Numbers are read; 'broken' is a typed error; 'flaky' fails unexpectedly `flaky` times, then is read; 'crash' always fails unexpectedly. */
function standIn(o: { flaky?: number; delayMs?: number; calls?: string[] } = {}): Extractor {
  let flaky = o.flaky ?? 0;
  return {
    extract: (async (file: string) => {
      o.calls?.push(path.basename(file));
      if (o.delayMs) await new Promise((r) => setTimeout(r, o.delayMs));
      const text = readFileSync(file, 'utf8');
      if (text === 'broken') throw new ReceiptKitError('UNREADABLE_FILE', 'not a receipt');
      if (text === 'crash') throw new Error('the reader crashed');
      if (text === 'flaky' && flaky-- > 0) throw new ReceiptKitError('OVERLOADED', 'the store is unavailable');
      return { totalAmount: { data: Number(text) || 0, confidenceLevel: 0.9 } };
    }) as Extractor['extract'],
  };
}

async function rowsOf(q: ReceiptQueue, sql: string): Promise<any[]> {
  const c = new pg.Client({ connectionString: postgres.url });
  await c.connect();
  try { return (await c.query(sql.replace(/\$Q\./g, `"${q.location.split(' schema ')[1]}".`))).rows; } finally { await c.end(); }
}

describe('job queue: enqueue', () => {
  it('records one job per identity (path inside the folder + sha256): enqueuing again adds nothing, a changed file is a new identity', async () => {
    const dir = folder({ 'a/r1.png': '10', 'a/r2.png': '20', 'b/r3.png': '30', 'notes.txt': 'x' });
    const q = await open();
    try {
      const first = await q.enqueue([dir]);
      expect(first).toMatchObject({ listed: 3, added: 3, existing: 0, skipped: 1, unreadable: [] });
      expect(first.files.map((f) => f.relPath)).toEqual(['a/r1.png', 'a/r2.png', 'b/r3.png']);
      expect(first.files.map((f) => f.id)).toEqual([...first.files.map((f) => f.id)].sort((x, y) => x - y));
      // the same folder again, and the same files named one by one: nothing new
      expect(await q.enqueue([dir])).toMatchObject({ added: 0, existing: 3 });
      // the folder seen through another path (a mount elsewhere): the same identities
      const moved = folder({ 'a/r1.png': '10', 'a/r2.png': '20', 'b/r3.png': '30' });
      const again = await q.enqueue(moved);
      expect(again).toMatchObject({ added: 0, existing: 3 });
      expect(again.files.map((f) => f.id)).toEqual(first.files.map((f) => f.id));
      // new content at a known path: a new identity
      writeFileSync(path.join(dir, 'a/r2.png'), '21');
      const changed = await q.enqueue([dir]);
      expect(changed).toMatchObject({ added: 1, existing: 2 });
      expect((await q.status())).toMatchObject({ total: 4, pending: 4, running: 0, done: 0 });
      // a file that cannot be read is reported, nothing is queued for it
      const missing = await q.enqueue([path.join(dir, 'gone.png')]);
      expect(missing.unreadable).toEqual([{ file: path.join(dir, 'gone.png'), message: expect.stringMatching(/ENOENT/) }]);
      expect(missing.added).toBe(0);
    } finally { await q.close(); }
  });

  it('checks its options: INVALID_OPTION naming the option; a bad URL, schema or unreachable server is INVALID_OPTION on queue', async () => {
    const q = await open();
    const dir = folder({ 'r.png': '1' });
    try {
      await expect(q.enqueue(dir, { tries: 0 })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'tries' });
      await expect(q.enqueue(dir, { leaseSeconds: 1 })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'leaseSeconds' });
      await expect(q.enqueue(dir, { options: { language: '' } })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'language' });
      await expect(q.enqueue(dir, { options: { incognito: true } as never })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'incognito' });
      expect((await q.status()).total).toBe(0);
    } finally { await q.close(); }
    await expect(openQueue('mysql://db/x')).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'queue' });
    await expect(openQueue(postgres.url, { schema: 'bad-name' })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'queueSchema' });
    const port = await freePort();
    const err = await openQueue(`postgres://user:secret@127.0.0.1:${port}/db`).catch((e) => e);
    expect(err).toBeInstanceOf(ReceiptKitError);
    expect(err).toMatchObject({ code: 'INVALID_OPTION', field: 'queue', message: expect.stringMatching(/ECONNREFUSED/) });
    expect(err.message).not.toContain('secret');
  });

  it('a queue whose jobs pg-boss 10 wrote (schema version 24) is refused with INVALID_OPTION saying what to do; its files are untouched', async () => {
    const schema = `q_${process.pid}_old`;
    const c = new pg.Client({ connectionString: postgres.url });
    await c.connect();
    try {
      // what pg-boss 10.4 leaves: its schema with a version table at 24 (and the queue's own tables)
      await c.query(`CREATE SCHEMA "${schema}_jobs"; CREATE TABLE "${schema}_jobs".version (version int PRIMARY KEY, maintained_on timestamptz, cron_on timestamptz, monitored_on timestamptz); INSERT INTO "${schema}_jobs".version (version) VALUES (24)`);
      const err = await openQueue(postgres.url, { schema }).catch((e) => e);
      expect(err).toBeInstanceOf(ReceiptKitError);
      expect(err).toMatchObject({ code: 'INVALID_OPTION', field: 'queue', message: expect.stringMatching(/written by pg-boss 10 \(schema version 24\).*receiptkit work --drain.*drop the schema/) });
      expect((await c.query(`SELECT version FROM "${schema}_jobs".version`)).rows).toEqual([{ version: 24 }]); // pg-boss never started on it
    } finally { await c.end(); }
  });

  it('job ids sort in the order they are made (pg-boss claims one enqueue by id)', () => {
    const ids = Array.from({ length: 5000 }, () => orderedJobId());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('job queue: work', () => {
  it('extracts every file once; a typed error is final and kept; lines come in enqueue order, as batch writes them', async () => {
    const dir = folder({ 'r1.png': '10', 'r2.png': 'broken', 'r3.png': '30', 'sub/r4.png': '40' });
    const q = await open();
    try {
      const { files } = await q.enqueue(dir, { tries: 3 });
      const calls: string[] = [];
      const events: JobEvent[] = [];
      const summary = await q.work(standIn({ calls }), { concurrency: 2, drain: true, pollMs: 100, onJob: (e) => events.push(e) });
      expect(summary).toMatchObject({ done: 3, failed: 1, errors: 0, dead: 0, stoppedBy: 'drained' });
      expect(calls.sort()).toEqual(['r1.png', 'r2.png', 'r3.png', 'r4.png']); // the typed error was not retried
      expect(events.every((e) => e.attempt === 1)).toBe(true);
      const lines = await q.wait(files.map((f) => f.id));
      expect(lines).toEqual([
        { file: path.join(dir, 'r1.png'), result: { totalAmount: { data: 10, confidenceLevel: 0.9 } } },
        { file: path.join(dir, 'r2.png'), error: { code: 'UNREADABLE_FILE', message: 'not a receipt' } },
        { file: path.join(dir, 'r3.png'), result: { totalAmount: { data: 30, confidenceLevel: 0.9 } } },
        { file: path.join(dir, 'sub', 'r4.png'), result: { totalAmount: { data: 40, confidenceLevel: 0.9 } } },
      ]);
      const out = new PassThrough();
      let text = '';
      out.on('data', (d) => { text += d; });
      expect(await q.writeResults(out)).toEqual({ written: 4, failed: 1, dead: 0, unfinished: 0 });
      expect(text).toBe(lines.map((l) => JSON.stringify(l) + '\n').join(''));
      expect(await q.status()).toMatchObject({ total: 4, pending: 0, running: 0, done: 3, failed: 1, dead: 0 });
      expect((await q.status()).ratePerSecond).toBeGreaterThan(0);
    } finally { await q.close(); }
  });

  it('an unexpected failure is retried with back-off; after its tries it is a dead letter kept with its error', async () => {
    const dir = folder({ 'ok.png': '5', 'flaky.png': 'flaky', 'crash.png': 'crash' });
    const q = await open({ maintenanceIntervalSeconds: 1 });
    try {
      await q.enqueue(dir, { tries: 2, retryDelaySeconds: 1 });
      const events: JobEvent[] = [];
      const t0 = Date.now();
      const summary = await q.work(standIn({ flaky: 1 }), { drain: true, pollMs: 100, onJob: (e) => events.push(e) });
      expect(summary).toMatchObject({ done: 2, failed: 0, errors: 3, dead: 1, stoppedBy: 'drained' });
      const flaky = events.filter((e) => e.file.endsWith('flaky.png'));
      expect(flaky.map((e) => [e.outcome, e.attempt])).toEqual([['error', 1], ['done', 2]]);
      expect(flaky[0]).toMatchObject({ retry: true, error: { code: 'OVERLOADED' } });
      const crash = events.filter((e) => e.file.endsWith('crash.png'));
      expect(crash.map((e) => [e.outcome, e.retry])).toEqual([['error', true], ['error', false], ['dead', undefined]]);
      expect(Date.now() - t0).toBeGreaterThan(1000); // the retry waited for its back-off
      const rows = await rowsOf(q, 'SELECT file, state, attempts, error_code, error_json, last_error FROM $Q.files ORDER BY id');
      const byName = Object.fromEntries(rows.map((r) => [path.basename(r.file), r]));
      expect(byName['crash.png']).toMatchObject({ state: 'dead', attempts: 2, error_code: 'INTERNAL' });
      expect(JSON.parse(byName['crash.png'].error_json).message).toMatch(/failed on every try \(2\): the reader crashed/);
      expect(byName['flaky.png']).toMatchObject({ state: 'done', attempts: 2 });
      expect(JSON.parse(byName['flaky.png'].last_error)).toMatchObject({ code: 'OVERLOADED' });
      expect(await q.status()).toMatchObject({ done: 2, dead: 1, pending: 0 });
    } finally { await q.close(); }
  });

  it.concurrent('a job whose worker stopped beating is taken again after its heartbeat window; status shows it meanwhile; the file keeps one result', async () => {
    const dir = folder({ 'r1.png': '1', 'r2.png': '2' });
    const q = await open({ maintenanceIntervalSeconds: 1 });
    // a worker that claims a job and dies: the claim is made through pg-boss directly and never beats
    const db = await QueueDb.open(postgres.url, { schema: q.location.split(' schema ')[1] });
    try {
      await q.enqueue(dir, { heartbeatSeconds: 10, tries: 3, retryDelaySeconds: 1 });
      const dead = await JobQueue.start(db, { supervise: false });
      const held = await dead.fetch();
      expect(held).toMatchObject({ data: { id: expect.any(Number) }, heartbeatSeconds: 10, retryCount: 0 });
      await db.query('UPDATE $Q.files SET attempts = attempts + 1, worker = $2 WHERE id = $1', [held!.data.id, 'dead-worker']);
      await dead.stop();
      const t0 = Date.now();
      const events: JobEvent[] = [];
      const working = q.work(standIn(), { drain: true, pollMs: 200, onJob: (e) => events.push(e) });
      // silent for more than half its window: shown as held by a worker that no longer beats
      await new Promise((r) => setTimeout(r, 6000));
      const status = await q.status();
      expect(status).toMatchObject({ running: 1, stale: 1, done: 1, staleJobs: [{ id: held!.data.id, worker: 'dead-worker', heartbeatSeconds: 10, file: path.join(dir, 'r1.png') }] });
      expect(status.staleJobs[0]!.silentSeconds).toBeGreaterThanOrEqual(5);
      const summary = await working;
      const waited = Date.now() - t0;
      expect(summary).toMatchObject({ done: 2, abandoned: 0, stoppedBy: 'drained' });
      expect(waited).toBeGreaterThan(9000); // taken back only once its window had passed ...
      expect(waited).toBeLessThan(20_000); // ... not after a lease (a day by default)
      expect(events.find((e) => e.id === held!.data.id)).toMatchObject({ outcome: 'done', attempt: 2 });
      expect(await rowsOf(q, `SELECT count(*)::int AS n FROM $Q.files WHERE state = 'done' AND attempts = 2 AND worker <> 'dead-worker'`)).toEqual([{ n: 1 }]);
      expect(await q.status()).toMatchObject({ stale: 0, staleJobs: [], done: 2 });
    } finally { await db.close(); await q.close(); }
  }, 60_000);

  it.concurrent('jobs are claimed in enqueue order, and a job taken back from a silent worker is claimed again before the files enqueued after it', async () => {
    const names = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`r${String(i + 1).padStart(2, '0')}.png`, String(i + 1)]));
    const dir = folder(names);
    const q = await open({ maintenanceIntervalSeconds: 1 });
    const db = await QueueDb.open(postgres.url, { schema: q.location.split(' schema ')[1] });
    try {
      await q.enqueue(dir, { heartbeatSeconds: 10, retryDelaySeconds: 1 });
      const dead = await JobQueue.start(db, { supervise: false });
      const held = await dead.fetch(); // the first file's job, claimed by a worker that never beats
      await dead.stop();
      const calls: string[] = [];
      // one file every 2 s: the nine others take 18 s; the held one is free again after 11-13 s
      const summary = await q.work(standIn({ delayMs: 2000, calls }), { drain: true, pollMs: 100 });
      expect(summary).toMatchObject({ done: 10 });
      expect(calls.slice(0, 5)).toEqual(['r02.png', 'r03.png', 'r04.png', 'r05.png', 'r06.png']);
      expect(calls.indexOf('r01.png')).toBeGreaterThan(4);
      expect(calls.indexOf('r01.png')).toBeLessThan(8); // not after the files enqueued after it
      expect(held).toMatchObject({ data: { id: expect.any(Number) } });
    } finally { await db.close(); await q.close(); }
  }, 60_000);

  it.concurrent('a worker whose claim was taken (it missed its heartbeats) writes nothing: the job is abandoned, the next holder writes the one result', async () => {
    const dir = folder({ 'r1.png': '7' });
    const q = await open({ maintenanceIntervalSeconds: 1 });
    const db = await QueueDb.open(postgres.url, { schema: q.location.split(' schema ')[1] });
    try {
      const { files } = await q.enqueue(dir, { heartbeatSeconds: 10, retryDelaySeconds: 1 });
      // the first worker's beats do not get through (as for a paused worker) and its job's last beat is an
      // hour old: its own monitor takes the job from it while it extracts; it claims nothing more
      const stop = new AbortController();
      let firstCalls = 0;
      const slow: Extractor = {
        extract: (async () => {
          firstCalls++;
          stop.abort();
          await db.query(`UPDATE "${db.schema}_jobs".job SET heartbeat_on = now() - interval '1 hour' WHERE name = 'extract'`);
          await new Promise((r) => setTimeout(r, 4000));
          return { totalAmount: { data: -1, confidenceLevel: 0.9 } };
        }) as unknown as Extractor['extract'],
      };
      const events: JobEvent[] = [];
      const first = await q.work(slow, { signal: stop.signal, pollMs: 100, beatCheckMs: 60_000, onJob: (e) => events.push(e) });
      expect(firstCalls).toBe(1);
      expect(first).toMatchObject({ done: 0, abandoned: 1 });
      expect(events).toEqual([expect.objectContaining({ id: files[0]!.id, outcome: 'abandoned', attempt: 1 })]);
      expect(await rowsOf(q, `SELECT state, result_json FROM $Q.files`)).toEqual([{ state: 'queued', result_json: null }]);
      // the next holder writes the one result
      const second = await q.work(standIn(), { drain: true, pollMs: 100, onJob: (e) => events.push(e) });
      expect(second).toMatchObject({ done: 1, abandoned: 0 });
      expect(events[1]).toMatchObject({ outcome: 'done', attempt: 2 });
      expect(await q.wait()).toEqual([{ file: path.join(dir, 'r1.png'), result: { totalAmount: { data: 7, confidenceLevel: 0.9 } } }]);
    } finally { await db.close(); await q.close(); }
  }, 60_000);

  it.concurrent('a job that takes longer than its heartbeat window on a live worker stays its own: a second worker does not take it', async () => {
    const dir = folder({ 'slow.png': '3' });
    const a = await open({ maintenanceIntervalSeconds: 1 });
    const other = await openQueue(postgres.url, { schema: a.location.split(' schema ')[1], maintenanceIntervalSeconds: 1 });
    try {
      await a.enqueue(dir, { heartbeatSeconds: 10, retryDelaySeconds: 1 });
      const calls: string[] = [];
      const events: JobEvent[] = [];
      const t0 = Date.now();
      const [first, second] = await Promise.all([
        a.work(standIn({ delayMs: 14_000, calls }), { drain: true, pollMs: 200, onJob: (e) => events.push(e) }),
        (async () => { await new Promise((r) => setTimeout(r, 500)); return other.work(standIn({ calls }), { drain: true, pollMs: 200, onJob: (e) => events.push(e) }); })(),
      ]);
      expect(Date.now() - t0).toBeGreaterThan(14_000);
      expect(calls).toEqual(['slow.png']);
      expect(first).toMatchObject({ done: 1, abandoned: 0, skipped: 0 });
      expect(second).toMatchObject({ done: 0, abandoned: 0, skipped: 0, stoppedBy: 'drained' });
      expect(events).toEqual([expect.objectContaining({ outcome: 'done', attempt: 1 })]);
      expect(await rowsOf(a, 'SELECT state, attempts FROM $Q.files')).toEqual([{ state: 'done', attempts: 1 }]);
    } finally { await other.close(); await a.close(); }
  }, 60_000);

  it('a file already final is not extracted again (a retried job), and a file changed since it was enqueued is a final INVALID_INPUT', async () => {
    const dir = folder({ 'r1.png': '1', 'r2.png': '2' });
    const q = await open();
    const db = await QueueDb.open(postgres.url, { schema: q.location.split(' schema ')[1] });
    try {
      const { files } = await q.enqueue(dir);
      // r1 was finished by someone whose acknowledgement was lost: its job is still there
      await db.query(`UPDATE $Q.files SET state = 'done', result_json = '{"totalAmount":{"data":1}}' WHERE id = $1`, [files[0]!.id]);
      writeFileSync(path.join(dir, 'r2.png'), '3');
      const calls: string[] = [];
      const events: JobEvent[] = [];
      const summary = await q.work(standIn({ calls }), { drain: true, pollMs: 100, onJob: (e) => events.push(e) });
      expect(calls).toEqual([]);
      expect(summary).toMatchObject({ done: 0, failed: 1, skipped: 1 });
      expect(events.map((e) => e.outcome).sort()).toEqual(['failed', 'skipped']);
      const lines = await q.wait();
      expect(lines[0]).toEqual({ file: path.join(dir, 'r1.png'), result: { totalAmount: { data: 1 } } });
      expect(lines[1]).toMatchObject({ error: { code: 'INVALID_INPUT', message: expect.stringMatching(/changed since it was enqueued/) } });
    } finally { await db.close(); await q.close(); }
  });

  it('stopping finishes the jobs in hand, records them, and claims no new one', async () => {
    const dir = folder({ 'r1.png': '1', 'r2.png': '2', 'r3.png': '3', 'r4.png': '4' });
    const q = await open();
    try {
      await q.enqueue(dir);
      const stop = new AbortController();
      const events: JobEvent[] = [];
      const calls: string[] = [];
      const running = q.work(standIn({ delayMs: 600, calls }), { concurrency: 2, signal: stop.signal, pollMs: 100, onJob: (e) => events.push(e) });
      while (calls.length < 2) await new Promise((r) => setTimeout(r, 20));
      stop.abort();
      const summary = await running;
      expect(summary).toMatchObject({ done: 2, stoppedBy: 'signal' });
      expect(events.map((e) => e.outcome)).toEqual(['done', 'done']);
      expect(await q.status()).toMatchObject({ total: 4, done: 2, pending: 2, running: 0 });
    } finally { await q.close(); }
  });

  it('a worker whose database stays unreachable stops with OVERLOADED, after reporting it', async () => {
    const own = await startPostgres();
    let q: ReceiptQueue | undefined;
    try {
      q = await openQueue(own.url, { schema: 'outage' });
      const errors: unknown[] = [];
      const working = q.work(standIn(), { pollMs: 100, maxOutageMs: 1500, onError: (e) => errors.push(e) });
      await new Promise((r) => setTimeout(r, 500));
      own.stop();
      const t0 = Date.now();
      await expect(working).rejects.toMatchObject({ code: 'OVERLOADED', message: expect.stringMatching(/queue's database is unavailable/) });
      expect(Date.now() - t0).toBeGreaterThan(1000);
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((e) => e instanceof ReceiptKitError && e.code === 'OVERLOADED')).toBe(true);
    } finally { own.stop(); await q?.close().catch(() => undefined); }
  });

  it('wait() gives up with TIMEOUT when files stay unfinished', async () => {
    const dir = folder({ 'r1.png': '1' });
    const q = await open();
    try {
      const { files } = await q.enqueue(dir);
      await expect(q.wait(files.map((f) => f.id), { pollMs: 50, timeoutMs: 200 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    } finally { await q.close(); }
  });
});
