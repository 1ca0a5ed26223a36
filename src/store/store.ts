/**
 * The store: a SQLite database (Node's built-in `node:sqlite`, see sqlite.ts) with the scan history, the campaigns and the usage
 * counters of one engine (one account).
 *
 * - A file at the engine's `storePath`, or an in-memory database when none is given (the library never
 *   writes a file it was not told to; an in-memory store keeps the last MEMORY_SCAN_LIMIT scans).
 * - WAL journal, `synchronous = FULL` (a committed scan survives a crash of the process and of the
 *   machine), `busy_timeout` so several engines and processes can share one file, every write in a
 *   transaction, schema versioned with `PRAGMA user_version` (migrations.ts).
 * - `node:sqlite` is synchronous: each call is a short indexed statement, run between the slow
 *   (asynchronous) OCR steps. Statements are prepared once per connection and finalized by `close()`.
 */
import { ReceiptKitError } from '../errors.js';
import { SqliteDb, sqliteErrcode, SQLITE_CANTOPEN, SQLITE_CORRUPT, SQLITE_NOTADB } from './sqlite.js';
import type { SqlStatement } from './sqlite.js';
import type { ValidationRules, UsageQuery, UsageSummary } from '../contract/validation.js';
import type { ValidationSubject } from '../validate/subject.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import type {
  EndpointKind, ListRow, ScanCandidate, ScanRecord, ScanScope, ScanSummary, Store, StoreListKind, StoredResult, StoredSubject,
} from './types.js';
import { SUMMARY_COLUMNS, listRevision, scanColumns, scopeWhere, summariseUsage, usageFilter } from './types.js';

export type { EndpointKind, ScanRecord, ScanSummary, ScanCandidate, ScanScope, Store } from './types.js';
export { ENDPOINT_KINDS } from './types.js';

/** Scans an in-memory store keeps (oldest dropped first), so a long-running process does not grow without bound. */
export const MEMORY_SCAN_LIMIT = 1000;
/** How long a write waits for another connection's lock before failing, ms. */
export const BUSY_TIMEOUT_MS = 10_000;

function storeError(path: string, e: unknown): ReceiptKitError {
  if (e instanceof ReceiptKitError && e.code === 'INTERNAL') return e; // no SQLite in this Node
  const code = sqliteErrcode(e);
  const why = code === SQLITE_NOTADB || code === SQLITE_CORRUPT ? 'the file is not a usable SQLite database'
    : code === SQLITE_CANTOPEN ? 'the file cannot be opened (does its folder exist?)'
      : e instanceof Error ? e.message : String(e);
  return new ReceiptKitError('INVALID_OPTION', `storePath: ${why}: ${path}`, { field: 'storePath', cause: e });
}

export class ReceiptStore implements Store {
  readonly backend = 'sqlite' as const;
  readonly path: string;
  readonly inMemory: boolean;
  private readonly db: SqliteDb;
  private readonly stmt: Record<string, SqlStatement>;

  /** Opens (creating and migrating when needed) the store at `path`, or an in-memory one. */
  constructor(path?: string) {
    this.inMemory = !path || path === ':memory:';
    this.path = this.inMemory ? ':memory:' : path!;
    try {
      this.db = new SqliteDb(this.path, { busyTimeoutMs: BUSY_TIMEOUT_MS });
    } catch (e) {
      throw storeError(this.path, e);
    }
    try {
      if (!this.inMemory) {
        this.db.pragma('journal_mode = WAL');
        this.db.pragma('synchronous = FULL');
      }
      this.migrate();
    } catch (e) {
      this.db.close();
      if (e instanceof ReceiptKitError) throw e;
      throw storeError(this.path, e);
    }
    this.stmt = {
      insertScan: this.db.prepare(`INSERT INTO scans (tracking_id, created_at, endpoint, content_hash, result_key, extraction_key,
        perceptual_hash, fingerprint, fp_merchant, fp_date, fp_total, fp_receipt_number, result_json, subject_json,
        user_id, reference_id, container_id, sub_account_id, campaign_id, similarity_json)
        VALUES (@trackingId, @createdAt, @endpoint, @contentHash, @resultKey, @extractionKey, @perceptualHash, @fingerprint,
        @fpMerchant, @fpDate, @fpTotal, @fpReceiptNumber, @resultJson, @subjectJson, @userId, @referenceId, @containerId,
        @subAccountId, @campaignId, @similarityJson)`),
      insertKey: this.db.prepare('INSERT OR IGNORE INTO scan_keys (key, scan_id) VALUES (?, ?)'),
      trimMemoryKeys: this.db.prepare(`DELETE FROM scan_keys WHERE scan_id <= (SELECT max(id) FROM scans) - ${MEMORY_SCAN_LIMIT}`),
      trimMemory: this.db.prepare(`DELETE FROM scans WHERE id <= (SELECT max(id) FROM scans) - ${MEMORY_SCAN_LIMIT}`),
      countUsage: this.db.prepare(`INSERT INTO usage (sub_account_id, day, endpoint, count) VALUES (?, ?, ?, 1)
        ON CONFLICT (sub_account_id, day, endpoint) DO UPDATE SET count = count + 1`),
      findResult: this.db.prepare('SELECT result_json AS json, perceptual_hash AS phash, subject_json AS subject, similarity_json AS similarity FROM scans WHERE content_hash = ? AND result_key = ? ORDER BY id DESC LIMIT 1'),
      findSubject: this.db.prepare('SELECT subject_json AS json, perceptual_hash AS phash, similarity_json AS similarity FROM scans WHERE content_hash = ? AND extraction_key = ? ORDER BY id DESC LIMIT 1'),
      getScan: this.db.prepare(`SELECT ${SUMMARY_COLUMNS}, sub_account_id AS subAccountId, result_json AS resultJson FROM scans WHERE tracking_id = ?`),
      countScans: this.db.prepare('SELECT count(*) AS n FROM scans'),
      hasSimilarity: this.db.prepare('SELECT similarity_json IS NOT NULL AS has FROM scans WHERE tracking_id = ?'),
      insertCampaign: this.db.prepare('INSERT INTO campaigns (id, settings_json, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING'),
      getCampaign: this.db.prepare('SELECT settings_json AS json FROM campaigns WHERE id = ?'),
      listCampaigns: this.db.prepare('SELECT id FROM campaigns ORDER BY created_at, id'),
      updateCampaign: this.db.prepare('UPDATE campaigns SET settings_json = ?, updated_at = ? WHERE id = ?'),
      deleteCampaign: this.db.prepare('DELETE FROM campaigns WHERE id = ?'),
      listRows: this.db.prepare('SELECT row_json AS json FROM enrichment_rows WHERE list = ? ORDER BY seq'),
      clearList: this.db.prepare('DELETE FROM enrichment_rows WHERE list = ?'),
      insertRow: this.db.prepare('INSERT INTO enrichment_rows (list, seq, row_key, row_json) VALUES (?, ?, ?, ?)'),
      maxSeq: this.db.prepare('SELECT coalesce(max(seq), 0) AS n FROM enrichment_rows WHERE list = ?'),
      rowByKey: this.db.prepare('SELECT seq FROM enrichment_rows WHERE list = ? AND row_key = ?'),
      replaceRow: this.db.prepare('UPDATE enrichment_rows SET row_json = ? WHERE list = ? AND seq = ?'),
      setRevision: this.db.prepare(`INSERT INTO enrichment_lists (list, revision, row_count, updated_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (list) DO UPDATE SET revision = excluded.revision, row_count = excluded.row_count, updated_at = excluded.updated_at`),
      revisions: this.db.prepare('SELECT list, revision FROM enrichment_lists'),
    };
  }

  get open(): boolean { return this.db.open; }

  get location(): string { return this.path; }

  /** The connection (tests and tools that read the file directly). */
  get connection(): SqliteDb { return this.db; }

  /** Schema version of the file (PRAGMA user_version). */
  async schemaVersion(): Promise<number> { return this.userVersion(); }

  private userVersion(): number { return Number(this.db.pragma('user_version', { simple: true })); }

  private migrate(): void {
    const current = this.userVersion();
    if (current > SCHEMA_VERSION) {
      throw new ReceiptKitError('INVALID_OPTION', `storePath: the store was written by a newer receiptkit (schema ${current}, this version knows ${SCHEMA_VERSION}): ${this.path}`, { field: 'storePath' });
    }
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      // immediate: take the write lock first, then re-check (another process may have migrated meanwhile)
      this.db.transaction(() => {
        const now = this.userVersion();
        if (now >= m.version) return;
        this.db.exec(m.sql);
        this.db.exec(`PRAGMA user_version = ${m.version}`);
      });
    }
  }

  /** Runs `fn` in one immediate transaction (synchronously). */
  private transaction<T>(fn: () => T): T {
    return this.db.transaction(fn);
  }

  async recordScan(rec: ScanRecord): Promise<void> {
    const at = rec.createdAt ?? new Date();
    this.transaction(() => {
      const { lastInsertRowid } = this.stmt.insertScan!.run(scanColumns(rec, at));
      for (const key of new Set(rec.similarity?.keys ?? [])) this.stmt.insertKey!.run(key, lastInsertRowid);
      this.countUsageNow(rec.endpoint, rec.subAccountId, at);
      if (this.inMemory) {
        this.stmt.trimMemoryKeys!.run();
        this.stmt.trimMemory!.run();
      }
    });
  }

  async countUsage(kind: EndpointKind, subAccountId: string | undefined, at: Date = new Date()): Promise<void> {
    this.transaction(() => this.countUsageNow(kind, subAccountId, at));
  }

  private countUsageNow(kind: EndpointKind, subAccountId: string | undefined, at: Date): void {
    this.stmt.countUsage!.run(subAccountId ?? '', at.toISOString().slice(0, 10), kind);
  }

  async findResult(contentHash: string, resultKey: string): Promise<StoredResult | undefined> {
    const row = this.stmt.findResult!.get(contentHash, resultKey) as { json: string; phash: string | null; subject: string; similarity: string | null } | undefined;
    return row ? { result: JSON.parse(row.json), subject: JSON.parse(row.subject) as ValidationSubject, perceptualHash: row.phash, similarityJson: row.similarity } : undefined;
  }

  async findSubject(contentHash: string, extractionKey: string): Promise<StoredSubject | undefined> {
    const row = this.stmt.findSubject!.get(contentHash, extractionKey) as { json: string; phash: string | null; similarity: string | null } | undefined;
    return row ? { subject: JSON.parse(row.json) as ValidationSubject, perceptualHash: row.phash, similarityJson: row.similarity } : undefined;
  }

  async getScan(trackingId: string): Promise<(ScanSummary & { subAccountId: string | null; result: unknown }) | undefined> {
    const row = this.stmt.getScan!.get(trackingId) as (ScanSummary & { subAccountId: string | null; resultJson: string }) | undefined;
    if (!row) return undefined;
    const { resultJson, ...rest } = row;
    return { ...rest, result: JSON.parse(resultJson) };
  }

  async hasSimilarity(trackingId: string): Promise<boolean> {
    return Boolean((this.stmt.hasSimilarity!.get(trackingId) as { has: number } | undefined)?.has);
  }

  async scanCount(): Promise<number> {
    return (this.stmt.countScans!.get() as { n: number }).n;
  }

  async scansWhere(column: 'content_hash' | 'fingerprint' | 'perceptual_hash', value: string, scope: ScanScope = {}): Promise<ScanSummary[]> {
    const where = [`${column} = ?`];
    const args: unknown[] = [value];
    scopeWhere(scope, where, args);
    const limit = Math.max(1, Math.min(scope.limit ?? 50, 1000));
    return this.db.all<ScanSummary>(`SELECT ${SUMMARY_COLUMNS} FROM scans WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${limit}`, ...args);
  }

  async similarityCandidates(keys: readonly string[], scope: ScanScope, limits: { byKeys: number; recent: number }): Promise<ScanCandidate[]> {
    const cols = `${SUMMARY_COLUMNS}, similarity_json AS "similarityJson", CASE WHEN similarity_json IS NULL THEN subject_json END AS "subjectJson"`;
    const ids = new Set<number>();
    const uniqueKeys = [...new Set(keys)].slice(0, 500);
    if (uniqueKeys.length && limits.byKeys > 0) {
      const where = [`k.key IN (${uniqueKeys.map(() => '?').join(', ')})`];
      const args: unknown[] = [...uniqueKeys];
      scopeWhere(scope, where, args, 's.');
      const rows = this.db.all<{ id: number }>(`SELECT s.id AS id FROM scan_keys k JOIN scans s ON s.id = k.scan_id WHERE ${where.join(' AND ')}
        GROUP BY s.id ORDER BY count(*) DESC, s.id DESC LIMIT ${Math.floor(limits.byKeys)}`, ...args);
      for (const r of rows) ids.add(r.id);
    }
    if (limits.recent > 0) {
      const where: string[] = ['1 = 1'];
      const args: unknown[] = [];
      scopeWhere(scope, where, args, 's.');
      const rows = this.db.all<{ id: number }>(`SELECT s.id AS id FROM scans s WHERE ${where.join(' AND ')} ORDER BY s.id DESC LIMIT ${Math.floor(limits.recent)}`, ...args);
      for (const r of rows) ids.add(r.id);
    }
    if (!ids.size) return [];
    const list = [...ids];
    const out: Array<ScanCandidate & { id: number }> = [];
    for (let i = 0; i < list.length; i += 500) {
      const chunk = list.slice(i, i + 500);
      out.push(...this.db.all<ScanCandidate & { id: number }>(`SELECT id, ${cols} FROM scans WHERE id IN (${chunk.map(() => '?').join(', ')})`, ...chunk));
    }
    return out.sort((a, b) => b.id - a.id).map(({ id: _id, ...rest }) => rest);
  }

  // ---- campaigns ----

  async createCampaign(id: string, settings: ValidationRules): Promise<boolean> {
    const now = new Date().toISOString();
    return this.transaction(() => this.stmt.insertCampaign!.run(id, JSON.stringify(settings), now, now).changes === 1);
  }

  async getCampaign(id: string): Promise<ValidationRules | undefined> {
    const row = this.stmt.getCampaign!.get(id) as { json: string } | undefined;
    return row ? JSON.parse(row.json) as ValidationRules : undefined;
  }

  async listCampaigns(): Promise<string[]> {
    return (this.stmt.listCampaigns!.all() as Array<{ id: string }>).map((r) => r.id);
  }

  async updateCampaign(id: string, settings: ValidationRules): Promise<boolean> {
    return this.transaction(() => this.stmt.updateCampaign!.run(JSON.stringify(settings), new Date().toISOString(), id).changes === 1);
  }

  async deleteCampaign(id: string): Promise<boolean> {
    return this.transaction(() => this.stmt.deleteCampaign!.run(id).changes === 1);
  }

  // ---- usage ----

  async usage(q: UsageQuery = {}): Promise<UsageSummary> {
    const { where, args } = usageFilter(q);
    const rows = this.db.all<{ sub: string; day: string; endpoint: EndpointKind; count: number }>(`SELECT sub_account_id AS sub, day, endpoint, count FROM usage ${where}
      ORDER BY day, sub_account_id`, ...args);
    return summariseUsage(q, rows);
  }

  // ---- enrichment lists ----

  async listRows(kind: StoreListKind): Promise<string[]> {
    return (this.stmt.listRows!.all(kind) as Array<{ json: string }>).map((r) => r.json);
  }

  async listRevisions(): Promise<Partial<Record<StoreListKind, string>>> {
    const out: Partial<Record<StoreListKind, string>> = {};
    for (const r of this.stmt.revisions!.all() as Array<{ list: StoreListKind; revision: string }>) out[r.list] = r.revision;
    return out;
  }

  async dataVersion(): Promise<number | null> {
    return Number(this.db.pragma('data_version', { simple: true }));
  }

  async writeList(kind: StoreListKind, rows: readonly ListRow[], mode: 'replace' | 'append'): Promise<number> {
    return this.transaction(() => {
      if (mode === 'replace') this.stmt.clearList!.run(kind);
      let seq = (this.stmt.maxSeq!.get(kind) as { n: number }).n;
      for (const row of rows) {
        const existing = row.key === null || mode === 'replace' ? undefined : this.stmt.rowByKey!.get(kind, row.key) as { seq: number } | undefined;
        if (existing) this.stmt.replaceRow!.run(row.json, kind, existing.seq);
        else this.stmt.insertRow!.run(kind, ++seq, row.key, row.json);
      }
      const all = (this.stmt.listRows!.all(kind) as Array<{ json: string }>).map((r) => r.json);
      this.stmt.setRevision!.run(kind, listRevision(all), all.length, new Date().toISOString());
      return all.length;
    });
  }

  /** `PRAGMA integrity_check` result ('ok' when sound). */
  async integrityCheck(): Promise<string> {
    return this.db.pragma('integrity_check').map((r) => String(r.integrity_check)).join('; ');
  }

  async close(): Promise<void> {
    this.closeNow();
  }

  /** Closes at once (synchronous), finalizing every statement of the connection. */
  closeNow(): void {
    if (!this.db.open) return;
    if (!this.inMemory) {
      try { this.db.exec('PRAGMA wal_checkpoint(PASSIVE)'); } catch { /* another connection is busy: it will checkpoint */ }
    }
    this.db.close();
  }
}
