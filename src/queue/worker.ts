/**
 * A worker: claims jobs, extracts each file with the options it was queued with, and records the one
 * result of the file together with the job's completion in one transaction.
 *
 * - Heartbeat: while a job is in hand the worker beats for it (pg-boss `touch`) four times per the job's
 *   `heartbeatSeconds`, so a job stays its worker's however long the file takes (up to the job's hard
 *   lease); a job whose worker stops beating (killed, stalled, cut off from the database) is failed by
 *   the monitor of any running worker once the window has passed, and retried elsewhere.
 * - The result is written only by the current holder of the job: its completion (fenced to the attempt
 *   this worker fetched) and its file's result commit in one transaction, and a worker whose claim was
 *   taken (it missed its heartbeats, e.g. paused past the window) writes nothing and reports the job
 *   `abandoned`. The file's result is also written only while the file is still `queued`, so a job
 *   retried after its file got a result is completed without extracting again.
 * - A typed error (UNREADABLE_FILE, FILE_TOO_LARGE, TIMEOUT, ...) is final: kept with the file, job
 *   completed. An unexpected failure (INTERNAL, OVERLOADED, ENGINE_CLOSED, a non-receiptkit error) is
 *   failed in pg-boss: retried after its back-off while tries are left, then a dead letter, which a
 *   worker records as the file's final `dead` state with the last error.
 * - A lost database: no job is claimed while it is gone; the jobs in hand go on, and what they write
 *   (result, failure) is tried again until the database is back (the pool reconnects), for up to
 *   `maxOutageMs`, after which the worker stops with OVERLOADED; a job whose heartbeat lapsed meanwhile
 *   is another worker's and is abandoned.
 * - Stopping (`signal`): no new job is claimed; the jobs in hand finish and are recorded.
 */
import os from 'node:os';
import { ReceiptKitError, isReceiptKitError } from '../errors.js';
import type { Engine } from '../engine.js';
import type { ExtractOptionsInput } from '../contract/options.js';
import { queueRuntimeError } from './db.js';
import type { QueueDb } from './db.js';
import { DEAD_QUEUE, EXTRACT_QUEUE } from './jobs.js';
import type { ExtractJob, JobQueue } from './jobs.js';
import { sha256OfFile } from './enqueue.js';

/** Typed errors that are not final: the job is retried. */
export const RETRIED_CODES: ReadonlySet<string> = new Set(['INTERNAL', 'OVERLOADED', 'ENGINE_CLOSED']);

export interface WorkOptions {
  /** Jobs in hand at once (default 1). */
  concurrency?: number;
  /** Return once the queue has no job left (none waiting, held or dead-lettered); default: run until stopped. */
  drain?: boolean;
  /** Stop: claim no new job, finish the jobs in hand, then return. */
  signal?: AbortSignal;
  /** How often an idle worker looks for jobs, ms (default 1000). */
  pollMs?: number;
  /** Per-file time limit, ms (TIMEOUT, final); default none. */
  timeoutMs?: number;
  /** Names this worker in the queue (default host:pid). */
  workerId?: string;
  /** Give up (OVERLOADED) when the queue's database fails this long in a row, ms (default 60000). */
  maxOutageMs?: number;
  /** How often the worker looks whether a held job is due a heartbeat, ms (default 1000; each job beats every quarter of its `heartbeatSeconds`). */
  beatCheckMs?: number;
  /** Called once each job's outcome is committed (or found). */
  onJob?: (event: JobEvent) => void;
  /** Called when the queue's database fails (the worker goes on until `maxOutageMs`; what the jobs in hand write is tried again). */
  onError?: (error: unknown) => void;
}

export interface JobEvent {
  /** The file's id in the queue. */
  id: number;
  file: string;
  /**
   * done, failed (a typed error): the file's outcome, recorded by this worker. error: an unexpected
   * failure, tried again after its back-off (`retry`) or, on the last try, left to the dead letters.
   * dead: a dead letter recorded as the file's outcome. skipped: the file was final already.
   * abandoned: the job was taken from this worker (it missed its heartbeats): nothing written, the
   * file is the next holder's.
   */
  outcome: 'done' | 'failed' | 'error' | 'dead' | 'skipped' | 'abandoned';
  /** error: whether tries are left. */
  retry?: boolean;
  /** Which try this was (1 = first). */
  attempt: number;
  ms: number;
  error?: { code: string; message: string };
}

export interface WorkSummary {
  done: number;
  failed: number;
  /** Unexpected failures (each tried again, or a dead letter). */
  errors: number;
  dead: number;
  skipped: number;
  /** Jobs taken from this worker after it missed their heartbeats (nothing written for them). */
  abandoned: number;
  elapsedMs: number;
  stoppedBy: 'drained' | 'signal';
}

/** What a worker needs of an engine (tests pass stand-ins). */
export type Extractor = Pick<Engine, 'extract'>;

interface FileRow { id: string; file: string; abs_path: string; sha256: string; options_json: string; attempts: number }
type Outcome = { state: 'done'; resultJson: string } | { state: 'failed'; error: { code: string; message: string } };
/** A job in hand: when it beat last, and whether its claim was found gone. */
interface Held { job: ExtractJob; beatAt: number; lost: boolean }

const errorOf = (e: unknown) => (isReceiptKitError(e) ? { code: e.code, message: e.message } : { code: 'INTERNAL', message: String((e as Error)?.message ?? e) });

export class QueueWorker {
  private readonly summary: WorkSummary = { done: 0, failed: 0, errors: 0, dead: 0, skipped: 0, abandoned: 0, elapsedMs: 0, stoppedBy: 'signal' };
  private readonly workerId: string;
  private readonly held = new Map<string, Held>();
  private beating: Promise<void> | undefined;

  constructor(private readonly db: QueueDb, private readonly jobs: JobQueue, private readonly engine: Extractor, private readonly o: WorkOptions = {}) {
    this.workerId = o.workerId ?? `${os.hostname()}:${process.pid}`;
  }

  /** Runs until stopped (or drained); the jobs in hand are always finished first. */
  async run(): Promise<WorkSummary> {
    const started = performance.now();
    const concurrency = Math.max(1, this.o.concurrency ?? 1);
    const inHand = new Set<Promise<void>>();
    const beats = setInterval(() => { this.beating ??= this.beat().finally(() => { this.beating = undefined; }); }, this.o.beatCheckMs ?? 1000);
    try {
      await this.loop(inHand, concurrency);
    } finally {
      await Promise.allSettled(inHand);
      clearInterval(beats);
      await this.beating;
    }
    this.summary.elapsedMs = Math.round(performance.now() - started);
    return { ...this.summary };
  }

  /** Claims jobs while not stopped (or drained); throws OVERLOADED after `maxOutageMs` of failures in a row. */
  private async loop(inHand: Set<Promise<void>>, concurrency: number): Promise<void> {
    let outageSince: number | undefined;
    while (!this.o.signal?.aborted) {
      if (inHand.size >= concurrency) { await Promise.race(inHand); continue; }
      let step: 'job' | 'idle' | 'drained';
      try {
        step = await this.step(inHand);
        outageSince = undefined;
      } catch (e) {
        this.report(e);
        outageSince ??= Date.now();
        if (Date.now() - outageSince > (this.o.maxOutageMs ?? 60_000)) throw queueRuntimeError(e);
        step = 'idle';
      }
      if (step === 'drained') { this.summary.stoppedBy = 'drained'; return; }
      if (step === 'idle') await this.idle(inHand);
    }
  }

  /** One heartbeat for every held job due one (a quarter of its window since its last); marks the ones whose claim is gone. */
  private async beat(): Promise<void> {
    const now = Date.now();
    const due = [...this.held.values()].filter((h) => !h.lost && h.job.heartbeatSeconds && now - h.beatAt >= h.job.heartbeatSeconds * 250);
    if (!due.length) return;
    try {
      const gone = await this.jobs.beat(due.map((h) => h.job));
      for (const h of due) { if (gone.has(h.job.id)) h.lost = true; else h.beatAt = now; }
    } catch (e) {
      this.report(e); // the database is gone: no beat; past the window the job is another worker's
    }
  }

  /**
   * Runs a write of a job in hand, again while the database is unreachable (OVERLOADED), for up to
   * `maxOutageMs`: the pool reconnects once the server is back.
   */
  private async persist<T>(write: () => Promise<T>): Promise<T> {
    const since = Date.now();
    for (let wait = 250; ; wait = Math.min(wait * 2, 2000)) {
      try {
        return await write();
      } catch (e) {
        const err = queueRuntimeError(e);
        if (!isReceiptKitError(err) || err.code !== 'OVERLOADED' || Date.now() - since > (this.o.maxOutageMs ?? 60_000)) throw err;
        this.report(err);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /** Claims and starts one job, or records one dead letter; says when there was nothing to do. */
  private async step(inHand: Set<Promise<void>>): Promise<'job' | 'idle' | 'drained'> {
    const job = await this.jobs.fetch();
    if (job) {
      this.held.set(job.id, { job, beatAt: Date.now(), lost: false });
      const p: Promise<void> = this.handle(job).catch((e) => this.report(e)).finally(() => { inHand.delete(p); this.held.delete(job.id); });
      inHand.add(p);
      return 'job';
    }
    const dead = await this.jobs.fetchDead();
    if (dead) { await this.persist(() => this.recordDead(dead)); return 'job'; }
    const c = await this.jobs.counts();
    if (this.o.drain && inHand.size === 0 && c.created + c.retry + c.active + c.deadWaiting === 0) return 'drained';
    return 'idle';
  }

  /** Waits a poll interval, or less when a job in hand finishes or the worker is stopped. */
  private async idle(inHand: Set<Promise<void>>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      new Promise<void>((r) => { timer = setTimeout(r, this.o.pollMs ?? 1000); }),
      new Promise<void>((r) => { onAbort = () => r(); this.o.signal?.addEventListener('abort', onAbort, { once: true }); }),
      ...inHand,
    ]);
    clearTimeout(timer);
    if (onAbort) this.o.signal?.removeEventListener('abort', onAbort);
  }

  private async handle(job: ExtractJob): Promise<void> {
    const t0 = performance.now();
    const row = (await this.persist(() => this.db.query<FileRow>(`UPDATE $Q.files SET attempts = attempts + 1, started_at = now(), worker = $2
      WHERE id = $1 AND state = 'queued' RETURNING id, file, abs_path, sha256, options_json, attempts`, [job.data.id, this.workerId]))).rows[0];
    const attempt = job.retryCount + 1;
    if (!row) {
      // final already (a retry after a heartbeat or lease ended, or a second job for the file): nothing to extract
      const known = (await this.persist(() => this.db.query<{ file: string }>('SELECT file FROM $Q.files WHERE id = $1', [job.data.id]))).rows[0];
      await this.persist(() => this.jobs.complete(EXTRACT_QUEUE, job));
      this.summary.skipped++;
      this.emit({ id: job.data.id, file: known?.file ?? '', outcome: 'skipped', attempt, ms: 0 });
      return;
    }
    const base = { id: job.data.id, file: row.file, attempt };
    let outcome: Outcome;
    try {
      outcome = { state: 'done', resultJson: JSON.stringify(await this.extract(row)) };
    } catch (e) {
      const error = errorOf(e);
      if (isReceiptKitError(e) && !RETRIED_CODES.has(e.code)) {
        outcome = { state: 'failed', error };
      } else {
        await this.persist(async () => {
          await this.db.query('UPDATE $Q.files SET last_error = $2 WHERE id = $1', [row.id, JSON.stringify(error)]);
          await this.jobs.fail(job, error);
        });
        this.summary.errors++;
        this.emit({ ...base, outcome: 'error', retry: job.retryCount < job.retryLimit, ms: Math.round(performance.now() - t0), error });
        return;
      }
    }
    const ms = Math.round(performance.now() - t0);
    const wrote = this.held.get(job.id)?.lost ? 'lost' : await this.persist(() => this.finish(job, row.id, outcome, ms));
    const shown = wrote === 'lost' ? 'abandoned' : wrote === 'written' ? outcome.state : 'skipped';
    this.summary[shown]++;
    this.emit({ ...base, outcome: shown, ms, ...(outcome.state === 'failed' && shown === 'failed' ? { error: outcome.error } : {}) });
  }

  /** Extracts the file as queued; a file changed since it was enqueued is INVALID_INPUT. */
  private async extract(row: FileRow): Promise<unknown> {
    let sha: string | undefined;
    try { sha = await sha256OfFile(row.abs_path); } catch { /* unreadable: the engine says how, as batch would */ }
    if (sha !== undefined && sha !== row.sha256) {
      throw new ReceiptKitError('INVALID_INPUT', `the file changed since it was enqueued (sha256 ${sha.slice(0, 12)}..., queued ${row.sha256.slice(0, 12)}...); enqueue it again: ${row.file}`, { field: 'input' });
    }
    const options = JSON.parse(row.options_json) as ExtractOptionsInput;
    return this.engine.extract(row.abs_path, { ...options, ...(this.o.timeoutMs ? { timeoutMs: this.o.timeoutMs } : {}) });
  }

  /**
   * The job's completion and the file's one outcome, in one transaction. `lost`: the claim was taken
   * from this worker (nothing written); `final`: completed, the file had its outcome already.
   */
  private async finish(job: ExtractJob, id: string, outcome: Outcome, ms: number): Promise<'written' | 'final' | 'lost'> {
    return this.db.transaction(async (tx) => {
      if (!await this.jobs.complete(EXTRACT_QUEUE, job, tx)) return 'lost';
      const r = outcome.state === 'done'
        ? await this.db.query(`UPDATE $Q.files SET state = 'done', result_json = $2, finished_at = now(), elapsed_ms = $3, worker = $4
            WHERE id = $1 AND state = 'queued'`, [id, outcome.resultJson, ms, this.workerId], tx)
        : await this.db.query(`UPDATE $Q.files SET state = 'failed', error_json = $2, error_code = $3, finished_at = now(), elapsed_ms = $4, worker = $5
            WHERE id = $1 AND state = 'queued'`, [id, JSON.stringify(outcome.error), outcome.error.code, ms, this.workerId], tx);
      return (r.rowCount ?? 0) > 0 ? 'written' : 'final';
    });
  }

  /** A dead letter: the file's final state `dead` with the last error, and the letter completed, in one transaction. */
  private async recordDead(letter: ExtractJob): Promise<void> {
    const out = (letter.sourceOutput ?? {}) as { code?: unknown; message?: unknown; value?: { message?: unknown } };
    const last = typeof out.message === 'string' ? out.message : typeof out.value?.message === 'string' ? out.value.message : 'unknown failure';
    const error = { code: typeof out.code === 'string' ? out.code : 'INTERNAL', message: `failed on every try (${(letter.sourceRetryCount ?? 0) + 1}): ${last}` };
    const row = await this.db.transaction(async (tx) => {
      const r = await this.db.query<{ file: string; attempts: number }>(`UPDATE $Q.files SET state = 'dead', error_json = $2, error_code = $3, finished_at = now()
        WHERE id = $1 AND state = 'queued' RETURNING file, attempts`, [letter.data.id, JSON.stringify(error), error.code], tx);
      await this.jobs.complete(DEAD_QUEUE, letter, tx);
      return r.rows[0];
    });
    if (!row) return;
    this.summary.dead++;
    this.emit({ id: letter.data.id, file: row.file, outcome: 'dead', attempt: row.attempts, ms: 0, error });
  }

  private report(e: unknown): void {
    try { this.o.onError?.(queueRuntimeError(e)); } catch { /* a listener's failure is not the worker's */ }
  }

  private emit(e: JobEvent): void {
    try { this.o.onJob?.(e); } catch { /* a listener's failure is not the job's */ }
  }
}
