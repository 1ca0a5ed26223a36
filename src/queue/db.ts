/**
 * The job queue's own tables in PostgreSQL (schema `receiptkit_queue` by default): one row per queued
 * file, keyed by its identity (path inside the folder + sha256 of the content), holding its extraction
 * options and, once final, its one result or error. pg-boss keeps the jobs (leases, retries, back-off,
 * dead letters) in the schema `<schema>_jobs` (src/queue/jobs.ts).
 *
 * - Migrations: numbered, applied under a transaction-scoped advisory lock on the schema (workers
 *   starting at once migrate once), as the PostgreSQL store does (src/store/pg.ts).
 * - Errors: a connection failure on open is INVALID_OPTION on `queue`; while running, a lost or refused
 *   connection is OVERLOADED (try again), anything else INTERNAL. Messages never show the password.
 */
import pg from 'pg';
import { ReceiptKitError } from '../errors.js';
import { PG_CONNECT_TIMEOUT_MS, inTransaction, isConnectionError, isPostgresUrl, redactUrl } from '../store/pg.js';

export const DEFAULT_QUEUE_SCHEMA = 'receiptkit_queue';
/** Letters, digits and `_` (pg-boss's rule for its schema, `<schema>_jobs`), at most 40 characters. */
const QUEUE_SCHEMA_RE = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

/** The queue's tables, as numbered migrations (`$Q.` is the schema). Never edit a released one: add one. */
export const QUEUE_MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE $Q.files (
        id BIGSERIAL PRIMARY KEY,                 -- enqueue order
        rel_path TEXT NOT NULL,                   -- path inside the folder given to enqueue, '/' separators
        sha256 TEXT NOT NULL,                     -- of the content when enqueued
        file TEXT NOT NULL,                       -- the path as listed: "file" of the result lines
        abs_path TEXT NOT NULL,                   -- where workers read it (a shared mount)
        options_json TEXT NOT NULL,               -- extraction options
        job_id UUID NOT NULL,                     -- the pg-boss job
        enqueued_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'done', 'failed', 'dead')),
        result_json TEXT,                         -- state done: the result, as batch writes it
        error_json TEXT,                          -- failed or dead: {"code","message"}
        error_code TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,      -- times a worker started it
        last_error TEXT,                          -- the last unexpected failure (retried)
        worker TEXT,                              -- host:pid that started it last, then the one that finished it
        started_at TIMESTAMPTZ,
        finished_at TIMESTAMPTZ,
        elapsed_ms INTEGER,
        UNIQUE (rel_path, sha256)
      );
      CREATE INDEX files_queued ON $Q.files (id) WHERE state = 'queued';
      CREATE INDEX files_finished ON $Q.files (finished_at) WHERE finished_at IS NOT NULL;
    `,
  },
];
export const QUEUE_SCHEMA_VERSION = QUEUE_MIGRATIONS.at(-1)!.version;

export interface QueueDbOptions {
  /** Schema of the queue's tables (default `receiptkit_queue`); pg-boss's is `<schema>_jobs`. */
  schema?: string | undefined;
  /** Connections in the pool, opened as needed (default 10); a worker with N jobs in hand uses up to N + 3. */
  poolSize?: number | undefined;
}

/** One transaction's connection. */
export type QueueTx = pg.PoolClient;

/** A failure while running: OVERLOADED for a lost or refused connection, INTERNAL otherwise. */
export function queueRuntimeError(e: unknown): unknown {
  if (e instanceof ReceiptKitError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  if (isConnectionError(e)) return new ReceiptKitError('OVERLOADED', `the queue's database is unavailable (PostgreSQL: ${msg}); try again later`, { cause: e });
  return new ReceiptKitError('INTERNAL', `queue: ${msg}`, { cause: e });
}

/** Checks a queue URL and schema name; INVALID_OPTION naming `queue` or `queueSchema`. */
export function checkQueueTarget(url: string, schema: string): void {
  if (typeof url !== 'string' || !isPostgresUrl(url)) {
    throw new ReceiptKitError('INVALID_OPTION', `queue: must be a postgres:// or postgresql:// URL: ${redactUrl(String(url))}`, { field: 'queue' });
  }
  if (!QUEUE_SCHEMA_RE.test(schema)) {
    throw new ReceiptKitError('INVALID_OPTION', `queueSchema: letters, digits or "_", starting with a letter or "_", 1..40 characters: ${JSON.stringify(String(schema).slice(0, 80))}`, { field: 'queueSchema' });
  }
}

export class QueueDb {
  readonly location: string;
  readonly schema: string;
  private closed = false;

  private constructor(readonly pool: pg.Pool, location: string, schema: string) {
    this.location = location;
    this.schema = schema;
  }

  /** Connects, creates the schema when missing and migrates it. */
  static async open(url: string, options: QueueDbOptions = {}): Promise<QueueDb> {
    const schema = options.schema ?? DEFAULT_QUEUE_SCHEMA;
    checkQueueTarget(url, schema);
    const location = redactUrl(url);
    let pool: pg.Pool;
    try {
      pool = new pg.Pool({
        connectionString: url, max: options.poolSize ?? 10, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS, idleTimeoutMillis: 30_000,
        // a transaction left open (its worker paused or cut off mid-way) holds its job's row no longer than 10 s
        options: '-c synchronous_commit=on -c idle_in_transaction_session_timeout=10000', application_name: 'receiptkit-queue',
      });
    } catch (e) {
      throw new ReceiptKitError('INVALID_OPTION', `queue: ${e instanceof Error ? e.message : String(e)}: ${location}`, { field: 'queue', cause: e });
    }
    pool.on('error', () => undefined); // an idle connection the server dropped: the pool replaces it
    // a connection the server dropped while checked out (a restart between two statements of a
    // transaction): its next statement fails, as a lost connection, instead of the process
    pool.on('connect', (client) => { client.on('error', () => undefined); });
    const db = new QueueDb(pool, location, schema);
    try {
      await db.migrate();
    } catch (e) {
      await pool.end().catch(() => undefined);
      if (e instanceof ReceiptKitError && e.code === 'INVALID_OPTION') throw e;
      const cause = e instanceof ReceiptKitError && e.cause !== undefined ? e.cause : e;
      throw new ReceiptKitError('INVALID_OPTION', `queue: cannot open the job queue (${cause instanceof Error ? cause.message : String(cause)}): ${location}`, { field: 'queue', cause });
    }
    return db;
  }

  get open(): boolean { return !this.closed; }

  /** `$Q.` to the quoted schema. */
  sql(text: string): string { return text.replace(/\$Q\./g, `"${this.schema}".`); }

  async query<R extends pg.QueryResultRow>(text: string, args: unknown[] = [], on: Pick<pg.Pool, 'query'> | QueueTx = this.pool): Promise<pg.QueryResult<R>> {
    if (this.closed) throw new ReceiptKitError('ENGINE_CLOSED', 'the queue is closed');
    try {
      return await on.query<R>(this.sql(text), args);
    } catch (e) {
      throw queueRuntimeError(e);
    }
  }

  /** Runs `fn` in one transaction on one connection, committed before the promise resolves. */
  transaction<T>(fn: (tx: QueueTx) => Promise<T>): Promise<T> {
    if (this.closed) throw new ReceiptKitError('ENGINE_CLOSED', 'the queue is closed');
    return inTransaction(this.pool, fn, queueRuntimeError);
  }

  private async migrate(): Promise<void> {
    await this.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`receiptkit queue ${this.schema}`]);
      await tx.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
      await tx.query(this.sql('CREATE TABLE IF NOT EXISTS $Q.queue_schema (version INTEGER NOT NULL)'));
      const got = await tx.query<{ version: number }>(this.sql('SELECT version FROM $Q.queue_schema'));
      let current = got.rows[0]?.version ?? 0;
      if (!got.rows.length) await tx.query(this.sql('INSERT INTO $Q.queue_schema (version) VALUES (0)'));
      if (current > QUEUE_SCHEMA_VERSION) {
        throw new ReceiptKitError('INVALID_OPTION', `queue: written by a newer receiptkit (schema ${current}, this version knows ${QUEUE_SCHEMA_VERSION}): ${this.location} schema ${this.schema}`, { field: 'queue' });
      }
      for (const m of QUEUE_MIGRATIONS) {
        if (m.version <= current) continue;
        await tx.query(this.sql(m.sql));
        current = m.version;
      }
      await tx.query(this.sql('UPDATE $Q.queue_schema SET version = $1'), [current]);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
