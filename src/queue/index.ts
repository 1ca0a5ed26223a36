/**
 * The job queue (issue 25): batch work shared by any number of processes and machines through one
 * PostgreSQL database. pg-boss keeps the jobs (leases, retries with back-off, dead letters); the queue's
 * table keeps one row per file, keyed by its identity, with its one result.
 *
 *   import { openQueue, createEngine } from 'receiptkit-ocr';
 *   const queue = await openQueue('postgres://user:pass@db:5432/receipts');
 *   const { files } = await queue.enqueue(['/mnt/receipts/2026-11'], { options: { verbose: true } });
 *   // on each machine: await queue.work(await createEngine({ storeUrl }), { concurrency: 2 });
 *   const lines = await queue.wait(files.map((f) => f.id));   // [{ file, result } | { file, error }]
 *   await queue.close();
 *
 * The files must be readable by every worker at the path they were enqueued with (a shared mount).
 */
import type { Writable } from 'node:stream';
import { ReceiptKitError } from '../errors.js';
import { QueueDb } from './db.js';
import type { QueueDbOptions } from './db.js';
import { JobQueue } from './jobs.js';
import { enqueueFiles } from './enqueue.js';
import type { EnqueueOptions, EnqueueSummary } from './enqueue.js';
import { queueStatus, resultLines, waitForFiles, writeResults } from './results.js';
import type { ExportSummary, QueueStatus, ResultLine, WaitOptions } from './results.js';
import { QueueWorker } from './worker.js';
import type { Extractor, WorkOptions, WorkSummary } from './worker.js';

export type { EnqueueOptions, EnqueueSummary, QueuedFile, QueuedExtractOptions } from './enqueue.js';
export type { ExportSummary, QueueStatus, ResultLine, StaleHeld, WaitOptions } from './results.js';
export type { Extractor, JobEvent, WorkOptions, WorkSummary } from './worker.js';
export { DEFAULT_QUEUE_SCHEMA } from './db.js';

export interface QueueOptions extends QueueDbOptions {
  /**
   * How often a working queue takes back the jobs of workers that stopped beating, or whose lease ran
   * out (pg-boss's monitor, one running worker at a time), seconds (default 5).
   */
  maintenanceIntervalSeconds?: number;
}

export class ReceiptQueue {
  private closing: Promise<void> | undefined;

  private constructor(private readonly db: QueueDb, private readonly jobs: JobQueue, private readonly o: QueueOptions) {}

  /** Connects to the queue's database, creating or migrating its tables (INVALID_OPTION on `queue` when it cannot). */
  static async open(url: string, o: QueueOptions = {}): Promise<ReceiptQueue> {
    const db = await QueueDb.open(url, o);
    try {
      return new ReceiptQueue(db, await JobQueue.start(db, { supervise: false }), o);
    } catch (e) {
      await db.close().catch(() => undefined);
      if (e instanceof ReceiptKitError) throw e;
      throw new ReceiptKitError('INVALID_OPTION', `queue: cannot start the job store (${e instanceof Error ? e.message : String(e)}): ${db.location}`, { field: 'queue', cause: e });
    }
  }

  /** The URL without its password, and the schema. */
  get location(): string { return `${this.db.location} schema ${this.db.schema}`; }

  /** One job per file identity (path inside the folder + sha256 of the content) not queued before. */
  enqueue(inputs: string | readonly string[], o: EnqueueOptions = {}): Promise<EnqueueSummary> {
    return enqueueFiles(this.db, this.jobs, typeof inputs === 'string' ? [inputs] : inputs, o);
  }

  /** Counts (pending, running, done, failed, dead; of running, held by workers that stopped beating) and the rate. */
  status(): Promise<QueueStatus> {
    return queueStatus(this.db, this.jobs);
  }

  /** The final files' lines (`{ file, result }` or `{ file, error }`), in enqueue order. */
  async *results(ids?: readonly number[]): AsyncGenerator<ResultLine> {
    for await (const text of resultLines(this.db, ids)) yield JSON.parse(text) as ResultLine;
  }

  /** Writes every final file's line (JSON Lines, enqueue order) to `out`. */
  writeResults(out: Writable): Promise<ExportSummary> {
    return writeResults(this.db, out);
  }

  /** Resolves with the lines of `ids` (every file when absent) once they are all final. */
  wait(ids?: readonly number[], o: WaitOptions = {}): Promise<ResultLine[]> {
    return waitForFiles(this.db, ids, o);
  }

  /**
   * Works on the queue with `engine` until `signal` (the jobs in hand finish first) or, with `drain`,
   * until no job is left. It beats for the jobs it holds, and also takes back the jobs of workers that
   * stopped beating while it works.
   */
  async work(engine: Extractor, o: WorkOptions = {}): Promise<WorkSummary> {
    if (this.closing) throw new ReceiptKitError('ENGINE_CLOSED', 'the queue is closed');
    const supervisor = await JobQueue.start(this.db, {
      supervise: true, monitorIntervalSeconds: this.o.maintenanceIntervalSeconds ?? 5, ...(o.onError ? { onError: o.onError } : {}),
    });
    try {
      return await new QueueWorker(this.db, this.jobs, engine, o).run();
    } finally {
      await supervisor.stop();
    }
  }

  /** Closes the connections (after `work` has returned). Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.jobs.stop().catch(() => undefined);
      await this.db.close();
    })();
    return this.closing;
  }
}

/** Opens a job queue in the PostgreSQL database at `url` (schema `receiptkit_queue` unless `schema`). */
export function openQueue(url: string, o: QueueOptions = {}): Promise<ReceiptQueue> {
  return ReceiptQueue.open(url, o);
}
