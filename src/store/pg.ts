/**
 * The PostgreSQL store (`storeUrl: 'postgres://user:pass@host:5432/db'`): the same tables as the SQLite
 * store (PG_MIGRATIONS, one to one with MIGRATIONS) in one schema (`storeSchema`, default `receiptkit`),
 * shared by every process and machine that opens the same URL and schema: server replicas behind a load
 * balancer, batch workers on many machines. Duplicate checks, campaigns, usage and enrichment lists are
 * then the same for all of them.
 *
 * - Driver: `pg` (node-postgres), a pool of `poolSize` connections (default 10) per store.
 * - Durability: every write is one statement or one transaction, with `synchronous_commit = on` for the
 *   session: a write whose promise resolved (a response that was sent) survives a crash of the process,
 *   and of the database server once its WAL is on disk.
 * - Migrations: the opener takes a transaction-scoped advisory lock on the schema, creates it when
 *   missing and applies the missing migrations in that transaction (so replicas starting at once
 *   migrate once); a schema written by a newer receiptkit is refused.
 * - Errors: a connection failure on open is INVALID_OPTION (field `storeUrl`); while running, a lost
 *   or refused connection is OVERLOADED (503: try again), anything else INTERNAL.
 */
import pg from 'pg';
import { ReceiptKitError } from '../errors.js';
import type { UsageQuery, UsageSummary, ValidationRules } from '../contract/validation.js';
import type { ValidationSubject } from '../validate/subject.js';
import { PG_MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import type {
  EndpointKind, ListRow, ScanCandidate, ScanRecord, ScanScope, ScanSummary, Store, StoreListKind, StoredResult, StoredSubject,
} from './types.js';
import { SCAN_COLUMN_NAMES, SUMMARY_COLUMNS, listRevision, scanColumns, scopeWhere, summariseUsage, usageFilter } from './types.js';

export const DEFAULT_PG_SCHEMA = 'receiptkit';
export const DEFAULT_PG_POOL_SIZE = 10;
/** How long getting a connection may take before a call fails, ms. */
export const PG_CONNECT_TIMEOUT_MS = 10_000;
/** Similarity candidates kept in memory by id (a stored scan never changes), so a lookup fetches only new ones. */
export const CANDIDATE_CACHE_SIZE = 5000;

export interface PgStoreOptions {
  /** Schema holding the tables (created when missing); default `receiptkit`. */
  schema?: string | undefined;
  /** Connections in the pool (default 10). */
  poolSize?: number | undefined;
}

const SCHEMA_RE = /^[A-Za-z_][A-Za-z0-9_.-]{0,62}$/;

/** True for a `postgres://` or `postgresql://` URL. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  }
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300']);

/** A lost, refused or timed-out connection (worth trying again), as opposed to a bad statement. */
export function isConnectionError(e: unknown): boolean {
  const code = (e as { code?: string })?.code;
  if (code && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  const msg = e instanceof Error ? e.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended/i.test(msg);
}

function runtimeError(e: unknown): unknown {
  if (e instanceof ReceiptKitError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  if (isConnectionError(e)) return new ReceiptKitError('OVERLOADED', `the store is unavailable (PostgreSQL: ${msg}); try again later`, { cause: e });
  return new ReceiptKitError('INTERNAL', `store: ${msg}`, { cause: e });
}

/** `?` placeholders to `$1..$n`; `$S.` to the quoted schema. */
function sqlFor(schema: string, text: string): string {
  let n = 0;
  return text.replace(/\$S\./g, `${schema}.`).replace(/\?/g, () => `$${++n}`);
}

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

/**
 * Runs `fn` in one transaction on one connection of `pool`, committed before the promise resolves; any
 * failure rolls back and is thrown as `toError` makes it. A connection whose ROLLBACK failed is dropped
 * from the pool, not reused. Shared by the store and the job queue (src/queue/db.ts).
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>, toError: (e: unknown) => unknown): Promise<T> {
  let client: pg.PoolClient;
  try { client = await pool.connect(); } catch (e) { throw toError(e); }
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (e) {
    try { await client.query('ROLLBACK'); } catch (r) { broken = r as Error; }
    throw toError(e);
  } finally {
    client.release(broken);
  }
}

export class PgStore implements Store {
  readonly backend = 'postgres' as const;
  readonly inMemory = false;
  readonly location: string;
  private readonly schema: string;
  private closed = false;
  private readonly candidates = new Map<number, ScanCandidate>();

  private constructor(private readonly pool: pg.Pool, location: string, schema: string) {
    this.location = location;
    this.schema = schema;
  }

  /** Connects, creates the schema when missing and migrates it. */
  static async open(url: string, options: PgStoreOptions = {}): Promise<PgStore> {
    const location = redactUrl(url);
    if (!isPostgresUrl(url)) throw new ReceiptKitError('INVALID_OPTION', `storeUrl: must be a postgres:// or postgresql:// URL: ${location}`, { field: 'storeUrl' });
    const schemaName = options.schema ?? DEFAULT_PG_SCHEMA;
    if (!SCHEMA_RE.test(schemaName)) throw new ReceiptKitError('INVALID_OPTION', `storeSchema: letters, digits, "_", "." or "-", starting with a letter or "_", 1..63 characters: ${JSON.stringify(schemaName.slice(0, 80))}`, { field: 'storeSchema' });
    const schema = `"${schemaName}"`;
    let pool: pg.Pool;
    try {
      pool = new pg.Pool({
        connectionString: url,
        max: options.poolSize ?? DEFAULT_PG_POOL_SIZE,
        connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
        idleTimeoutMillis: 30_000,
        // the durability promise holds whatever the server's default is
        options: '-c synchronous_commit=on',
        application_name: 'receiptkit',
      });
    } catch (e) {
      throw new ReceiptKitError('INVALID_OPTION', `storeUrl: ${e instanceof Error ? e.message : String(e)}: ${location}`, { field: 'storeUrl', cause: e });
    }
    // an idle connection the server dropped: the pool replaces it; the next query reports a real failure
    pool.on('error', () => undefined);
    const store = new PgStore(pool, location, schema);
    try {
      await store.migrate(schemaName);
    } catch (e) {
      await pool.end().catch(() => undefined);
      if (e instanceof ReceiptKitError) throw e;
      throw new ReceiptKitError('INVALID_OPTION', `storeUrl: cannot open the PostgreSQL store (${e instanceof Error ? e.message : String(e)}): ${location}`, { field: 'storeUrl', cause: e });
    }
    return store;
  }

  get open(): boolean { return !this.closed; }

  private sql(text: string): string { return sqlFor(this.schema, text); }

  private async query<R extends pg.QueryResultRow>(text: string, args: unknown[] = [], on: Queryable = this.pool): Promise<pg.QueryResult<R>> {
    if (this.closed) throw new ReceiptKitError('ENGINE_CLOSED', 'the store is closed');
    try {
      return await on.query<R>(this.sql(text), args);
    } catch (e) {
      throw runtimeError(e);
    }
  }

  /** Runs `fn` in one transaction on one connection (committed before the promise resolves). */
  private transaction<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.closed) throw new ReceiptKitError('ENGINE_CLOSED', 'the store is closed');
    return inTransaction(this.pool, fn, runtimeError);
  }

  private async migrate(schemaName: string): Promise<void> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      // one opener at a time per schema, for the whole migration
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`receiptkit schema ${schemaName}`]);
      await client.query(this.sql('CREATE SCHEMA IF NOT EXISTS $S.').replace(/\.$/, ''));
      await client.query(this.sql('CREATE TABLE IF NOT EXISTS $S.receiptkit_schema (version INTEGER NOT NULL)'));
      const got = await client.query<{ version: number }>(this.sql('SELECT version FROM $S.receiptkit_schema'));
      let current = got.rows[0]?.version ?? 0;
      if (!got.rows.length) await client.query(this.sql('INSERT INTO $S.receiptkit_schema (version) VALUES (0)'));
      if (current > SCHEMA_VERSION) {
        throw new ReceiptKitError('INVALID_OPTION', `storeUrl: the store was written by a newer receiptkit (schema ${current}, this version knows ${SCHEMA_VERSION}): ${this.location} schema ${schemaName}`, { field: 'storeUrl' });
      }
      for (const m of PG_MIGRATIONS) {
        if (m.version <= current) continue;
        await client.query(this.sql(m.sql));
        current = m.version;
      }
      await client.query(this.sql('UPDATE $S.receiptkit_schema SET version = ?'), [current]);
      await client.query('COMMIT');
    } catch (e) {
      try { await client.query('ROLLBACK'); } catch (r) { broken = r as Error; }
      throw e;
    } finally {
      client.release(broken);
    }
  }

  async schemaVersion(): Promise<number> {
    const r = await this.query<{ version: number }>('SELECT version FROM $S.receiptkit_schema');
    return r.rows[0]?.version ?? 0;
  }

  async recordScan(rec: ScanRecord): Promise<void> {
    const at = rec.createdAt ?? new Date();
    const cols = scanColumns(rec, at);
    const values = Object.values(cols);
    const keys = [...new Set(rec.similarity?.keys ?? [])];
    // one statement: the scan, its lookup keys and the usage counter commit together
    await this.query(`WITH s AS (
        INSERT INTO $S.scans (${SCAN_COLUMN_NAMES.join(', ')}) VALUES (${values.map(() => '?').join(', ')}) RETURNING id
      ), k AS (
        INSERT INTO $S.scan_keys (key, scan_id) SELECT key, s.id FROM s, unnest(?::text[]) AS key ON CONFLICT DO NOTHING
      ), u AS (
        INSERT INTO $S.usage AS u (sub_account_id, day, endpoint, count) VALUES (?, ?, ?, 1)
        ON CONFLICT (sub_account_id, day, endpoint) DO UPDATE SET count = u.count + 1
      )
      SELECT id FROM s`, [...values, keys, rec.subAccountId ?? '', at.toISOString().slice(0, 10), rec.endpoint]);
  }

  async countUsage(kind: EndpointKind, subAccountId: string | undefined, at: Date = new Date()): Promise<void> {
    await this.query(`INSERT INTO $S.usage AS u (sub_account_id, day, endpoint, count) VALUES (?, ?, ?, 1)
      ON CONFLICT (sub_account_id, day, endpoint) DO UPDATE SET count = u.count + 1`, [subAccountId ?? '', at.toISOString().slice(0, 10), kind]);
  }

  async findResult(contentHash: string, resultKey: string): Promise<StoredResult | undefined> {
    const r = await this.query<{ json: string; phash: string | null; subject: string; similarity: string | null }>(
      'SELECT result_json AS json, perceptual_hash AS phash, subject_json AS subject, similarity_json AS similarity FROM $S.scans WHERE content_hash = ? AND result_key = ? ORDER BY id DESC LIMIT 1',
      [contentHash, resultKey]);
    const row = r.rows[0];
    return row ? { result: JSON.parse(row.json), subject: JSON.parse(row.subject) as ValidationSubject, perceptualHash: row.phash, similarityJson: row.similarity } : undefined;
  }

  async findSubject(contentHash: string, extractionKey: string): Promise<StoredSubject | undefined> {
    const r = await this.query<{ json: string; phash: string | null; similarity: string | null }>(
      'SELECT subject_json AS json, perceptual_hash AS phash, similarity_json AS similarity FROM $S.scans WHERE content_hash = ? AND extraction_key = ? ORDER BY id DESC LIMIT 1',
      [contentHash, extractionKey]);
    const row = r.rows[0];
    return row ? { subject: JSON.parse(row.json) as ValidationSubject, perceptualHash: row.phash, similarityJson: row.similarity } : undefined;
  }

  async getScan(trackingId: string): Promise<(ScanSummary & { subAccountId: string | null; result: unknown }) | undefined> {
    const r = await this.query<ScanSummary & { subAccountId: string | null; resultJson: string }>(
      `SELECT ${SUMMARY_COLUMNS}, sub_account_id AS "subAccountId", result_json AS "resultJson" FROM $S.scans WHERE tracking_id = ?`, [trackingId]);
    const row = r.rows[0];
    if (!row) return undefined;
    const { resultJson, ...rest } = row;
    return { ...rest, result: JSON.parse(resultJson) };
  }

  async hasSimilarity(trackingId: string): Promise<boolean> {
    const r = await this.query<{ has: boolean }>('SELECT similarity_json IS NOT NULL AS has FROM $S.scans WHERE tracking_id = ?', [trackingId]);
    return Boolean(r.rows[0]?.has);
  }

  async scanCount(): Promise<number> {
    const r = await this.query<{ n: number }>('SELECT count(*)::int AS n FROM $S.scans');
    return r.rows[0]!.n;
  }

  async scansWhere(column: 'content_hash' | 'fingerprint' | 'perceptual_hash', value: string, scope: ScanScope = {}): Promise<ScanSummary[]> {
    if (!['content_hash', 'fingerprint', 'perceptual_hash'].includes(column)) throw new ReceiptKitError('INTERNAL', `store: no lookup by ${column}`);
    const where = [`${column} = ?`];
    const args: unknown[] = [value];
    scopeWhere(scope, where, args);
    const limit = Math.max(1, Math.min(scope.limit ?? 50, 1000));
    return (await this.query<ScanSummary>(`SELECT ${SUMMARY_COLUMNS} FROM $S.scans WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${limit}`, args)).rows;
  }

  async similarityCandidates(keys: readonly string[], scope: ScanScope, limits: { byKeys: number; recent: number }): Promise<ScanCandidate[]> {
    const cols = `${SUMMARY_COLUMNS}, similarity_json AS "similarityJson", CASE WHEN similarity_json IS NULL THEN subject_json END AS "subjectJson"`;
    const ids = new Set<number>();
    const uniqueKeys = [...new Set(keys)].slice(0, 500);
    if (uniqueKeys.length && limits.byKeys > 0) {
      const where = ['k.key = ANY(?::text[])'];
      const args: unknown[] = [uniqueKeys];
      scopeWhere(scope, where, args, 's.');
      const r = await this.query<{ id: string }>(`SELECT s.id AS id FROM $S.scan_keys k JOIN $S.scans s ON s.id = k.scan_id WHERE ${where.join(' AND ')}
        GROUP BY s.id ORDER BY count(*) DESC, s.id DESC LIMIT ${Math.floor(limits.byKeys)}`, args);
      for (const row of r.rows) ids.add(Number(row.id));
    }
    if (limits.recent > 0) {
      const where: string[] = ['1 = 1'];
      const args: unknown[] = [];
      scopeWhere(scope, where, args, 's.');
      const r = await this.query<{ id: string }>(`SELECT s.id AS id FROM $S.scans s WHERE ${where.join(' AND ')} ORDER BY s.id DESC LIMIT ${Math.floor(limits.recent)}`, args);
      for (const row of r.rows) ids.add(Number(row.id));
    }
    if (!ids.size) return [];
    const missing = [...ids].filter((id) => !this.candidates.has(id));
    if (missing.length) {
      const r = await this.query<ScanCandidate & { id: string }>(`SELECT id, ${cols} FROM $S.scans WHERE id = ANY(?::bigint[])`, [missing]);
      for (const { id, ...row } of r.rows) {
        this.candidates.set(Number(id), row);
        if (this.candidates.size > CANDIDATE_CACHE_SIZE) this.candidates.delete(this.candidates.keys().next().value!);
      }
    }
    return [...ids].sort((a, b) => b - a).map((id) => this.candidates.get(id)).filter((c): c is ScanCandidate => c !== undefined);
  }

  // ---- campaigns ----

  async createCampaign(id: string, settings: ValidationRules): Promise<boolean> {
    const now = new Date().toISOString();
    const r = await this.query('INSERT INTO $S.campaigns (id, settings_json, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
      [id, JSON.stringify(settings), now, now]);
    return r.rowCount === 1;
  }

  async getCampaign(id: string): Promise<ValidationRules | undefined> {
    const r = await this.query<{ json: string }>('SELECT settings_json AS json FROM $S.campaigns WHERE id = ?', [id]);
    return r.rows[0] ? JSON.parse(r.rows[0].json) as ValidationRules : undefined;
  }

  async listCampaigns(): Promise<string[]> {
    // COLLATE "C": the byte order SQLite sorts ids in
    return (await this.query<{ id: string }>('SELECT id FROM $S.campaigns ORDER BY created_at COLLATE "C", id COLLATE "C"')).rows.map((r) => r.id);
  }

  async updateCampaign(id: string, settings: ValidationRules): Promise<boolean> {
    const r = await this.query('UPDATE $S.campaigns SET settings_json = ?, updated_at = ? WHERE id = ?', [JSON.stringify(settings), new Date().toISOString(), id]);
    return r.rowCount === 1;
  }

  async deleteCampaign(id: string): Promise<boolean> {
    const r = await this.query('DELETE FROM $S.campaigns WHERE id = ?', [id]);
    return r.rowCount === 1;
  }

  // ---- usage ----

  async usage(q: UsageQuery = {}): Promise<UsageSummary> {
    const { where, args } = usageFilter(q);
    const r = await this.query<{ sub: string; day: string; endpoint: EndpointKind; count: number }>(
      `SELECT sub_account_id AS sub, day, endpoint, count::float8 AS count FROM $S.usage ${where}
      ORDER BY day COLLATE "C", sub_account_id COLLATE "C", endpoint COLLATE "C"`, args);
    return summariseUsage(q, r.rows);
  }

  // ---- enrichment lists ----

  async listRows(kind: StoreListKind): Promise<string[]> {
    return (await this.query<{ json: string }>('SELECT row_json AS json FROM $S.enrichment_rows WHERE list = ? ORDER BY seq', [kind])).rows.map((r) => r.json);
  }

  async listRevisions(): Promise<Partial<Record<StoreListKind, string>>> {
    const out: Partial<Record<StoreListKind, string>> = {};
    for (const r of (await this.query<{ list: StoreListKind; revision: string }>('SELECT list, revision FROM $S.enrichment_lists')).rows) out[r.list] = r.revision;
    return out;
  }

  async dataVersion(): Promise<number | null> { return null; }

  async writeList(kind: StoreListKind, rows: readonly ListRow[], mode: 'replace' | 'append'): Promise<number> {
    return this.transaction(async (c) => {
      // writers of one list take turns (replicas importing at once)
      await this.query('SELECT pg_advisory_xact_lock(hashtext(?))', [`receiptkit list ${this.schema} ${kind}`], c);
      if (mode === 'replace') await this.query('DELETE FROM $S.enrichment_rows WHERE list = ?', [kind], c);
      let seq = (await this.query<{ n: number }>('SELECT coalesce(max(seq), 0)::int AS n FROM $S.enrichment_rows WHERE list = ?', [kind], c)).rows[0]!.n;
      const existing = new Map<string, number>();
      if (mode === 'append') {
        for (const r of (await this.query<{ key: string; seq: number }>('SELECT row_key AS key, seq FROM $S.enrichment_rows WHERE list = ? AND row_key IS NOT NULL', [kind], c)).rows) existing.set(r.key, r.seq);
      }
      const inserts: Array<[number, string | null, string]> = [];
      const flush = async () => {
        if (!inserts.length) return;
        await this.query('INSERT INTO $S.enrichment_rows (list, seq, row_key, row_json) SELECT ?, * FROM unnest(?::int[], ?::text[], ?::text[])',
          [kind, inserts.map((i) => i[0]), inserts.map((i) => i[1]), inserts.map((i) => i[2])], c);
        inserts.length = 0;
      };
      for (const row of rows) {
        const at = row.key === null ? undefined : existing.get(row.key);
        if (at !== undefined) {
          await flush();
          await this.query('UPDATE $S.enrichment_rows SET row_json = ? WHERE list = ? AND seq = ?', [row.json, kind, at], c);
        } else {
          inserts.push([++seq, row.key, row.json]);
          if (row.key !== null && mode === 'append') existing.set(row.key, seq);
          if (inserts.length >= 1000) await flush();
        }
      }
      await flush();
      const all = (await this.query<{ json: string }>('SELECT row_json AS json FROM $S.enrichment_rows WHERE list = ? ORDER BY seq', [kind], c)).rows.map((r) => r.json);
      await this.query(`INSERT INTO $S.enrichment_lists (list, revision, row_count, updated_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (list) DO UPDATE SET revision = excluded.revision, row_count = excluded.row_count, updated_at = excluded.updated_at`,
        [kind, listRevision(all), all.length, new Date().toISOString()], c);
      return all.length;
    });
  }

  /** 'ok' when the store answers and is at this version's schema. */
  async integrityCheck(): Promise<string> {
    const v = await this.schemaVersion();
    return v === SCHEMA_VERSION ? 'ok' : `schema ${v}, expected ${SCHEMA_VERSION}`;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
