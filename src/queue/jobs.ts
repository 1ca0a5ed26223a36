/**
 * The jobs, kept by pg-boss 10 (the last line that runs on Node 20) in the schema `<queue schema>_jobs`,
 * through the queue's own connection pool (pg-boss's `db` option), so a job's completion commits in the
 * same transaction as its file's result.
 *
 * What pg-boss gives (src/plans.js of pg-boss 10.4): `fetch` claims the oldest job with
 * `FOR UPDATE SKIP LOCKED` and makes it active; a job active longer than its `expireInSeconds` (its
 * lease) is failed by the maintenance loop, which any started instance runs every
 * `maintenanceIntervalSeconds` (one at a time); a failed job is retried after `retryDelay` seconds,
 * doubled per try with jitter (`retryBackoff`), while tries are left (`retryLimit` retries), and is then
 * copied into its dead-letter queue with its last output.
 *
 * pg-boss's `fetch` answers an empty list when its query fails (a lost connection included): callers
 * check the database with a query of their own before concluding the queue is empty.
 */
import { randomBytes } from 'node:crypto';
import PgBoss from 'pg-boss';
import type { QueueDb, QueueTx } from './db.js';

/** The pg-boss queue of extraction jobs and its dead-letter queue. */
export const EXTRACT_QUEUE = 'extract';
export const DEAD_QUEUE = 'extract-dead';
/** How long a job may wait in the queue (pg-boss archives older waiting jobs): ten years. */
const KEEP_DAYS = 3650;

export interface ExtractJob {
  id: string;
  /** The file's row id (queue table `files`). */
  data: { id: number };
  retryCount: number;
  retryLimit: number;
  /** Dead-letter jobs: the last failure's output (`{ code, message }`, or pg-boss's `{ value: { message } }` for a lease that ended). */
  output?: unknown;
}

export interface JobSettings {
  /** Tries in all (the first and the retries). */
  tries: number;
  leaseSeconds: number;
  retryDelaySeconds: number;
}

export interface JobCounts {
  /** Waiting for a worker. */
  created: number;
  /** Waiting for a retry (back-off, or a lease that ended). */
  retry: number;
  /** Held by a worker (leased). */
  active: number;
  /** Dead letters not yet recorded in the files table. */
  deadWaiting: number;
}

type CommandResult = { affected: number };

export class JobQueue {
  private constructor(private readonly boss: PgBoss) {}

  /**
   * Starts pg-boss on the queue's pool (creating or migrating its schema) and creates the two queues.
   * `supervise`: this instance may run the maintenance (ends leases, archives) every
   * `maintenanceIntervalSeconds`.
   */
  static async start(db: QueueDb, o: { supervise: boolean; maintenanceIntervalSeconds?: number; onError?: (e: Error) => void }): Promise<JobQueue> {
    const boss = new PgBoss({
      db: { executeSql: (text: string, values: unknown[]) => db.pool.query(text, values) },
      schema: `${db.schema}_jobs`,
      supervise: o.supervise,
      schedule: false,
      migrate: true,
      ...(o.maintenanceIntervalSeconds ? { maintenanceIntervalSeconds: o.maintenanceIntervalSeconds } : {}),
    });
    boss.on('error', (e: Error) => o.onError?.(e));
    await boss.start();
    await boss.createQueue(DEAD_QUEUE);
    await boss.createQueue(EXTRACT_QUEUE, { name: EXTRACT_QUEUE, deadLetter: DEAD_QUEUE });
    return new JobQueue(boss);
  }

  /** Adds one job per file row, inside the enqueue transaction. */
  async insert(rows: ReadonlyArray<{ id: number; jobId: string }>, s: JobSettings, tx: QueueTx): Promise<void> {
    if (!rows.length) return;
    const keepUntil = new Date(Date.now() + KEEP_DAYS * 86_400_000).toISOString();
    await this.boss.insert(rows.map((r) => ({
      id: r.jobId, name: EXTRACT_QUEUE, data: { id: r.id }, retryLimit: s.tries - 1, retryDelay: s.retryDelaySeconds,
      retryBackoff: true, expireInSeconds: s.leaseSeconds, keepUntil, deadLetter: DEAD_QUEUE,
    })), { db: txDb(tx) });
  }

  /** Claims the next extraction job (made active, its lease starts), if any. */
  async fetch(): Promise<ExtractJob | undefined> {
    const [job] = await this.boss.fetch<{ id: number }>(EXTRACT_QUEUE, { includeMetadata: true });
    return job as ExtractJob | undefined;
  }

  /** Claims the next dead letter, if any. */
  async fetchDead(): Promise<ExtractJob | undefined> {
    const [job] = await this.boss.fetch<{ id: number }>(DEAD_QUEUE, { includeMetadata: true });
    return job as ExtractJob | undefined;
  }

  /** Completes a job (in `tx` when given); false when it was no longer active (its lease had ended). */
  async complete(queue: string, jobId: string, tx?: QueueTx): Promise<boolean> {
    const r = await this.boss.complete(queue, jobId, {}, tx ? { db: txDb(tx) } : {}) as unknown as CommandResult;
    return r.affected > 0;
  }

  /** Fails a job with its error: retried after its back-off while tries are left, else a dead letter. */
  async fail(jobId: string, error: { code: string; message: string }): Promise<void> {
    await this.boss.fail(EXTRACT_QUEUE, jobId, error);
  }

  async counts(): Promise<JobCounts> {
    const size = (queue: string, before: 'retry' | 'active' | 'completed') => this.boss.getQueueSize(queue, { before });
    const [created, waiting, open, deadWaiting] = await Promise.all([
      size(EXTRACT_QUEUE, 'retry'), size(EXTRACT_QUEUE, 'active'), size(EXTRACT_QUEUE, 'completed'), size(DEAD_QUEUE, 'completed'),
    ]);
    return { created, retry: waiting - created, active: open - waiting, deadWaiting };
  }

  /** Stops the maintenance loop (jobs in hand are the caller's). */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, close: false });
  }
}

let lastMs = 0;
let counter = 0;

/**
 * Job ids that sort in the order they are made (UUID version 7: milliseconds, a 12-bit counter, random
 * bits). pg-boss claims the jobs of one enqueue transaction (one `created_on`) by id, so in enqueue order.
 */
export function orderedJobId(): string {
  const now = Date.now();
  if (now > lastMs) { lastMs = now; counter = 0; } else if (++counter > 0xfff) { lastMs++; counter = 0; }
  const b = randomBytes(16);
  b.writeUIntBE(lastMs, 0, 6);
  b[6] = 0x70 | (counter >> 8);
  b[7] = counter & 0xff;
  b[8] = 0x80 | (b[8]! & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function txDb(tx: QueueTx): PgBoss.Db {
  return { executeSql: (text: string, values: unknown[]) => tx.query(text, values) };
}
