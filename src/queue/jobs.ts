/**
 * The jobs, kept by pg-boss 12 in the schema `<queue schema>_jobs`, through the queue's own connection
 * pool (pg-boss's `db` option), so a job's completion commits in the same transaction as its file's result.
 *
 * What pg-boss gives (src/plans.ts of pg-boss 12): `fetch` claims the oldest job with
 * `FOR UPDATE SKIP LOCKED`, makes it active and stamps its `heartbeat_on`; `touch` stamps it again (one
 * heartbeat), fenced to the attempt fetched (a worker whose claim was taken from it refreshes nothing). The
 * supervisor of any started instance (one at a time, every `monitorIntervalSeconds`) fails a job whose last
 * heartbeat is older than its `heartbeatSeconds` (its worker died, stalled or lost the database) and a job
 * active longer than its `expireInSeconds` (the hard limit, a day at most); a failed job is retried after
 * `retryDelay` seconds, doubled per try with jitter (`retryBackoff`), while tries are left (`retryLimit`
 * retries), and is then copied into its dead-letter queue with its last output. `complete` and `fail`
 * with the fetched `{ id, retryCount }` are fenced the same way as `touch`.
 *
 * pg-boss 12's `fetch` throws when its query fails (pg-boss 10 answered an empty list).
 */
import { randomBytes } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import type { Db } from 'pg-boss';
import { ReceiptKitError } from '../errors.js';
import type { QueueDb, QueueTx } from './db.js';

/** The pg-boss queue of extraction jobs and its dead-letter queue. */
export const EXTRACT_QUEUE = 'extract';
export const DEAD_QUEUE = 'extract-dead';
/** How long a job may wait in the queue (pg-boss deletes older waiting jobs): ten years. */
const KEEP_SECONDS = 3650 * 86_400;

export interface ExtractJob {
  id: string;
  /** The file's row id (queue table `files`). */
  data: { id: number };
  /** Retries so far; with `id`, the attempt this worker holds (what fences complete, fail and touch). */
  retryCount: number;
  retryLimit: number;
  /** Seconds without a heartbeat after which the job is taken from its worker; null for jobs enqueued without one. */
  heartbeatSeconds: number | null;
  /** Dead-letter jobs: the last failure's output (`{ code, message }`, or pg-boss's `{ value: { message } }` for a heartbeat or lease that ended). */
  sourceOutput?: unknown;
  /** Dead-letter jobs: the retries the failed job had. */
  sourceRetryCount?: number | null;
}

export interface JobSettings {
  /** Tries in all (the first and the retries). */
  tries: number;
  /** The hard limit on how long one worker may hold a job, even while it beats. */
  leaseSeconds: number;
  /** A job whose worker has not beaten for this long is taken from it. */
  heartbeatSeconds: number;
  retryDelaySeconds: number;
}

export interface JobCounts {
  /** Waiting for a worker. */
  created: number;
  /** Waiting for a retry (back-off, or a heartbeat or lease that ended). */
  retry: number;
  /** Held by a worker (leased). */
  active: number;
  /** Of `active`: held by a worker that missed its heartbeats (more than half the job's `heartbeatSeconds` since its last). */
  stale: number;
  /** Dead letters not yet recorded in the files table. */
  deadWaiting: number;
}

/** A job held by a worker that no longer beats (`receiptkit status`). */
export interface StaleJob {
  /** The file's id in the queue. */
  id: number;
  /** Seconds since the job's last heartbeat. */
  silentSeconds: number;
  /** The job's heartbeat window: it is taken from its worker once `silentSeconds` passes it. */
  heartbeatSeconds: number;
}

type CommandResult = { affected: number };
type Attempt = Pick<ExtractJob, 'id' | 'retryCount'>;
const attempt = (job: Attempt) => ({ id: job.id, retryCount: job.retryCount });

export class JobQueue {
  private constructor(private readonly boss: PgBoss, private readonly db: QueueDb) {}

  /**
   * Starts pg-boss on the queue's pool (creating or migrating its schema) and creates the two queues.
   * `supervise`: this instance may run the monitor (fails jobs whose heartbeat or lease ended) every
   * `monitorIntervalSeconds` (default 5).
   */
  static async start(db: QueueDb, o: { supervise: boolean; monitorIntervalSeconds?: number; onError?: (e: Error) => void }): Promise<JobQueue> {
    await refuseOldJobs(db);
    const every = o.monitorIntervalSeconds ?? 5;
    const boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => db.pool.query(text, values) } as Db,
      schema: `${db.schema}_jobs`,
      supervise: o.supervise, schedule: false, migrate: true, registerInstance: false,
      superviseIntervalSeconds: every, monitorIntervalSeconds: every, maintenanceIntervalSeconds: 300,
      reindex: false, monitorVacuum: false, openTelemetry: { enabled: false },
    });
    boss.on('error', (e: Error) => o.onError?.(e));
    await boss.start();
    await boss.createQueue(DEAD_QUEUE);
    await boss.createQueue(EXTRACT_QUEUE, { deadLetter: DEAD_QUEUE });
    return new JobQueue(boss, db);
  }

  /** Adds one job per file row, inside the enqueue transaction. */
  async insert(rows: ReadonlyArray<{ id: number; jobId: string }>, s: JobSettings, tx: QueueTx): Promise<void> {
    if (!rows.length) return;
    await this.boss.insert(EXTRACT_QUEUE, rows.map((r) => ({
      id: r.jobId, data: { id: r.id }, priority: enqueueOrder(r.id), retryLimit: s.tries - 1, retryDelay: s.retryDelaySeconds, retryBackoff: true,
      expireInSeconds: s.leaseSeconds, heartbeatSeconds: s.heartbeatSeconds, retentionSeconds: KEEP_SECONDS, deadLetter: DEAD_QUEUE,
    })), { db: txDb(tx) });
  }

  /** Claims the next extraction job (made active, its heartbeat and lease start), if any. */
  async fetch(): Promise<ExtractJob | undefined> {
    const [job] = await this.boss.fetch<{ id: number }>(EXTRACT_QUEUE, { includeMetadata: true });
    return job as ExtractJob | undefined;
  }

  /** Claims the next dead letter, if any. */
  async fetchDead(): Promise<ExtractJob | undefined> {
    const [job] = await this.boss.fetch<{ id: number }>(DEAD_QUEUE, { includeMetadata: true });
    return job as ExtractJob | undefined;
  }

  /** One heartbeat of the attempts held; answers the ids whose claim is gone (taken after a missed heartbeat, or ended). */
  async beat(jobs: readonly Attempt[]): Promise<Set<string>> {
    if (!jobs.length) return new Set();
    const r = await this.boss.touch(EXTRACT_QUEUE, jobs.map(attempt)) as unknown as { settled?: unknown };
    if (!Array.isArray(r.settled)) return new Set(); // cannot tell which: none is taken to be lost
    const alive = new Set(r.settled.map(String));
    return new Set(jobs.filter((j) => !alive.has(j.id)).map((j) => j.id));
  }

  /** Completes the attempt held (in `tx` when given); false when the claim was gone (taken, or ended). */
  async complete(queue: string, job: Attempt, tx?: QueueTx): Promise<boolean> {
    const r = await this.boss.complete(queue, attempt(job), {}, tx ? { db: txDb(tx) } : {}) as unknown as CommandResult;
    return r.affected > 0;
  }

  /** Fails the attempt held with its error: retried after its back-off while tries are left, else a dead letter. */
  async fail(job: Attempt, error: { code: string; message: string }): Promise<void> {
    await this.boss.fail(EXTRACT_QUEUE, attempt(job), error);
  }

  /** The jobs by state, in one query of pg-boss's table. */
  async counts(): Promise<JobCounts> {
    const r = await this.db.query<JobCounts>(`SELECT
      count(*) FILTER (WHERE name = $1 AND state = 'created')::int AS created,
      count(*) FILTER (WHERE name = $1 AND state = 'retry')::int AS retry,
      count(*) FILTER (WHERE name = $1 AND state = 'active')::int AS active,
      count(*) FILTER (WHERE name = $1 AND state = 'active' AND ${STALE})::int AS stale,
      count(*) FILTER (WHERE name = $2 AND state < 'completed')::int AS "deadWaiting"
      FROM ${this.table} WHERE name IN ($1, $2) AND state < 'completed'`, [EXTRACT_QUEUE, DEAD_QUEUE]);
    return r.rows[0]!;
  }

  /** The jobs held by workers that no longer beat, longest silent first (at most `limit`). */
  async stale(limit: number): Promise<StaleJob[]> {
    const r = await this.db.query<{ id: string; silent: number; hb: number }>(`SELECT (data->>'id')::bigint AS id,
      extract(epoch FROM now() - heartbeat_on)::float8 AS silent, heartbeat_seconds AS hb
      FROM ${this.table} WHERE name = $1 AND state = 'active' AND ${STALE} ORDER BY heartbeat_on LIMIT $2`, [EXTRACT_QUEUE, limit]);
    return r.rows.map((row) => ({ id: Number(row.id), silentSeconds: Math.round(row.silent), heartbeatSeconds: row.hb }));
  }

  private get table(): string { return `"${this.db.schema}_jobs".job`; }

  /** Stops the monitor (jobs in hand are the caller's). */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, close: false });
  }
}

/**
 * pg-boss 12 claims by `priority DESC, created_on` (ties in index order): a job retried (re-inserted)
 * after its worker died would wait behind every job of its enqueue transaction, which share one
 * `created_on`. The priority of a job is minus its file's id, so jobs are claimed in enqueue order and a
 * retried job takes its place again, ahead of the files enqueued after it.
 */
const enqueueOrder = (fileId: number) => Math.max(-fileId, -2_147_483_648);

/** pg-boss 12 migrates pg-boss's schema from its version 25 (pg-boss 11) on; pg-boss 10 wrote version 24. */
const OLDEST_MIGRATED = 25;

/**
 * A queue whose jobs pg-boss 10 wrote (receiptkit before issue 53) cannot be opened by pg-boss 12:
 * INVALID_OPTION on `queue`, saying what to do, before pg-boss is started on it.
 */
async function refuseOldJobs(db: QueueDb): Promise<void> {
  const jobs = `${db.schema}_jobs`;
  const r = await db.query<{ version: number | null }>(`SELECT CASE WHEN to_regclass($1) IS NULL THEN NULL ELSE 0 END AS version`, [`"${jobs}".version`]);
  if (r.rows[0]!.version === null) return;
  const v = Number((await db.query<{ version: string }>(`SELECT version FROM "${jobs}".version`)).rows[0]?.version ?? OLDEST_MIGRATED);
  if (v >= OLDEST_MIGRATED) return;
  throw new ReceiptKitError('INVALID_OPTION', `queue: its jobs (schema ${jobs}) were written by pg-boss 10 (schema version ${v}), which this receiptkit's pg-boss 12 cannot migrate: ` +
    `finish them with the receiptkit that enqueued them (receiptkit work --drain), then drop the schema ${jobs} (the files and their results stay in ${db.schema}), or enqueue into another --queue-schema: ${db.location}`, { field: 'queue' });
}

/** A held job that missed its heartbeats: silent for more than half its window (a worker beats four times per window). */
const STALE = `heartbeat_seconds IS NOT NULL AND heartbeat_on < now() - heartbeat_seconds * interval '0.5 second'`;

let lastMs = 0;
let counter = 0;

/**
 * Job ids that sort in the order they are made (UUID version 7: milliseconds, a 12-bit counter, random
 * bits), so that pg-boss's table lists a queue's jobs in enqueue order (claims follow `enqueueOrder`).
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

function txDb(tx: QueueTx): Db {
  return { executeSql: (text: string, values?: unknown[]) => tx.query(text, values) } as Db;
}
