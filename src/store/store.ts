/**
 * The store: a SQLite database (better-sqlite3) with the scan history, the campaigns and the usage
 * counters of one engine (one account).
 *
 * - A file at the engine's `storePath`, or an in-memory database when none is given (the library never
 *   writes a file it was not told to; an in-memory store keeps the last MEMORY_SCAN_LIMIT scans).
 * - WAL journal, `synchronous = FULL` (a committed scan survives a crash of the process and of the
 *   machine), `busy_timeout` so several engines and processes can share one file, every write in a
 *   transaction, schema versioned with `PRAGMA user_version` (migrations.ts).
 * - better-sqlite3 is synchronous: each call is a short indexed statement, run between the slow
 *   (asynchronous) OCR steps.
 */
import Database from 'better-sqlite3';
import type { Database as Db, Statement } from 'better-sqlite3';
import { ReceiptKitError } from '../errors.js';
import type { ValidationRules, UsageCounts, UsageDay, UsageQuery, UsageSummary } from '../contract/validation.js';
import type { ValidationSubject } from '../validate/subject.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import type { SimilaritySignature } from '../similarity/index.js';

export type EndpointKind = 'simple' | 'verbose' | 'validation' | 'campaign-validation';
export const ENDPOINT_KINDS: readonly EndpointKind[] = ['simple', 'verbose', 'validation', 'campaign-validation'];

/** Scans an in-memory store keeps (oldest dropped first), so a long-running process does not grow without bound. */
export const MEMORY_SCAN_LIMIT = 1000;
/** How long a write waits for another connection's lock before failing, ms. */
export const BUSY_TIMEOUT_MS = 10_000;

export interface ScanRecord {
  trackingId: string;
  endpoint: EndpointKind;
  contentHash: string;
  /** Hash of the endpoint kind and every option that changes the result (refresh key). */
  resultKey: string;
  /** Hash of the options that change what the extraction reads (validation refresh key). */
  extractionKey: string;
  perceptualHash: string | null;
  /** merchant|day|total|number, see validate/subject.ts fingerprintOf. */
  fingerprint: string | null;
  subject: ValidationSubject;
  /** Similarity signature (src/similarity) and its lookup keys; absent: the scan is found by file and fingerprint only. */
  similarity?: { signature: SimilaritySignature; keys: readonly string[] } | null;
  /** The result returned to the caller. */
  result: unknown;
  userId?: string | undefined;
  referenceId?: string | undefined;
  containerId?: string | undefined;
  subAccountId?: string | undefined;
  campaignId?: string | undefined;
  createdAt?: Date;
}

/** A stored scan as the similarity hook sees it. */
export interface ScanSummary {
  trackingId: string;
  endpoint: EndpointKind;
  contentHash: string;
  perceptualHash: string | null;
  fingerprint: string | null;
  userId: string | null;
  referenceId: string | null;
  containerId: string | null;
  campaignId: string | null;
  createdAt: string;
}

/** A candidate for the similarity score: the summary, its stored signature, and its subject when it has none. */
export interface ScanCandidate extends ScanSummary {
  similarityJson: string | null;
  /** Only for scans stored without a signature (before schema 2). */
  subjectJson: string | null;
}

export interface ScanScope {
  /** Only scans in this container (account-wide when absent). */
  containerId?: string | undefined;
  /** Leave out scans sharing this reference id. */
  excludeReferenceId?: string | undefined;
  /** Only these endpoint kinds. */
  kinds?: readonly EndpointKind[] | undefined;
  limit?: number;
}

const SUMMARY_COLUMNS = `tracking_id AS trackingId, endpoint, content_hash AS contentHash, perceptual_hash AS perceptualHash,
  fingerprint, user_id AS userId, reference_id AS referenceId, container_id AS containerId, campaign_id AS campaignId, created_at AS createdAt`;

/** Adds a scope's conditions on the scans table (aliased by `t`) to a WHERE list. */
function scopeWhere(scope: ScanScope, where: string[], args: unknown[], t = ''): void {
  if (scope.containerId !== undefined) { where.push(`${t}container_id = ?`); args.push(scope.containerId); }
  if (scope.excludeReferenceId !== undefined) { where.push(`(${t}reference_id IS NULL OR ${t}reference_id <> ?)`); args.push(scope.excludeReferenceId); }
  if (scope.kinds?.length) { where.push(`${t}endpoint IN (${scope.kinds.map(() => '?').join(', ')})`); args.push(...scope.kinds); }
}

function storeError(path: string, e: unknown): ReceiptKitError {
  const code = (e as { code?: string })?.code;
  const why = code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' ? 'the file is not a usable SQLite database'
    : code === 'SQLITE_CANTOPEN' ? 'the file cannot be opened (does its folder exist?)'
      : e instanceof Error ? e.message : String(e);
  return new ReceiptKitError('INVALID_OPTION', `storePath: ${why}: ${path}`, { field: 'storePath', cause: e });
}

export class ReceiptStore {
  readonly path: string;
  readonly inMemory: boolean;
  private readonly db: Db;
  private readonly stmt: Record<string, Statement>;

  /** Opens (creating and migrating when needed) the store at `path`, or an in-memory one. */
  constructor(path?: string) {
    this.inMemory = !path || path === ':memory:';
    this.path = this.inMemory ? ':memory:' : path!;
    try {
      this.db = new Database(this.path, { timeout: BUSY_TIMEOUT_MS });
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
    };
  }

  get open(): boolean { return this.db.open; }

  /** The connection, for modules that keep their own tables in this store (src/enrich/store.ts). */
  get connection(): Db { return this.db; }

  /** Schema version of the file (PRAGMA user_version). */
  get schemaVersion(): number { return this.db.pragma('user_version', { simple: true }) as number; }

  private migrate(): void {
    const current = this.schemaVersion;
    if (current > SCHEMA_VERSION) {
      throw new ReceiptKitError('INVALID_OPTION', `storePath: the store was written by a newer receiptkit (schema ${current}, this version knows ${SCHEMA_VERSION}): ${this.path}`, { field: 'storePath' });
    }
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      // immediate: take the write lock first, then re-check (another process may have migrated meanwhile)
      this.db.transaction(() => {
        const now = this.db.pragma('user_version', { simple: true }) as number;
        if (now >= m.version) return;
        this.db.exec(m.sql);
        this.db.pragma(`user_version = ${m.version}`);
      }).immediate();
    }
  }

  /** Runs `fn` in one immediate transaction. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** Stores a scan and counts it in the usage summary, in one transaction. */
  recordScan(rec: ScanRecord): void {
    const at = rec.createdAt ?? new Date();
    const [fpMerchant, fpDate, fpTotal, fpReceiptNumber] = rec.fingerprint ? rec.fingerprint.split('|') : [];
    this.transaction(() => {
      const { lastInsertRowid } = this.stmt.insertScan!.run({
        trackingId: rec.trackingId,
        createdAt: at.toISOString(),
        endpoint: rec.endpoint,
        contentHash: rec.contentHash,
        resultKey: rec.resultKey,
        extractionKey: rec.extractionKey,
        perceptualHash: rec.perceptualHash,
        fingerprint: rec.fingerprint,
        fpMerchant: fpMerchant ?? null,
        fpDate: fpDate ?? null,
        fpTotal: fpTotal !== undefined ? Number(fpTotal) : null,
        fpReceiptNumber: fpReceiptNumber || null,
        resultJson: JSON.stringify(rec.result),
        subjectJson: JSON.stringify(rec.subject),
        userId: rec.userId ?? null,
        referenceId: rec.referenceId ?? null,
        containerId: rec.containerId ?? null,
        subAccountId: rec.subAccountId ?? null,
        campaignId: rec.campaignId ?? null,
        similarityJson: rec.similarity ? JSON.stringify(rec.similarity.signature) : null,
      });
      for (const key of new Set(rec.similarity?.keys ?? [])) this.stmt.insertKey!.run(key, lastInsertRowid);
      this.countUsageNow(rec.endpoint, rec.subAccountId, at);
      if (this.inMemory) {
        this.stmt.trimMemoryKeys!.run();
        this.stmt.trimMemory!.run();
      }
    });
  }

  /** Counts one call in the usage summary (calls that store no scan: incognito, inline validation, stored results). */
  countUsage(kind: EndpointKind, subAccountId: string | undefined, at: Date = new Date()): void {
    this.transaction(() => this.countUsageNow(kind, subAccountId, at));
  }

  private countUsageNow(kind: EndpointKind, subAccountId: string | undefined, at: Date): void {
    this.stmt.countUsage!.run(subAccountId ?? '', at.toISOString().slice(0, 10), kind);
  }

  /** The newest stored result for these bytes and result-affecting options. */
  findResult(contentHash: string, resultKey: string): { result: unknown; subject: ValidationSubject; perceptualHash: string | null; similarityJson: string | null } | undefined {
    const row = this.stmt.findResult!.get(contentHash, resultKey) as { json: string; phash: string | null; subject: string; similarity: string | null } | undefined;
    return row ? { result: JSON.parse(row.json), subject: JSON.parse(row.subject) as ValidationSubject, perceptualHash: row.phash, similarityJson: row.similarity } : undefined;
  }

  /** The newest stored extraction snapshot for these bytes and extraction options (any endpoint). */
  findSubject(contentHash: string, extractionKey: string): { subject: ValidationSubject; perceptualHash: string | null; similarityJson: string | null } | undefined {
    const row = this.stmt.findSubject!.get(contentHash, extractionKey) as { json: string; phash: string | null; similarity: string | null } | undefined;
    return row ? { subject: JSON.parse(row.json) as ValidationSubject, perceptualHash: row.phash, similarityJson: row.similarity } : undefined;
  }

  /** One stored scan by trackingId, with its stored result. */
  getScan(trackingId: string): (ScanSummary & { subAccountId: string | null; result: unknown }) | undefined {
    const row = this.stmt.getScan!.get(trackingId) as (ScanSummary & { subAccountId: string | null; resultJson: string }) | undefined;
    if (!row) return undefined;
    const { resultJson, ...rest } = row;
    return { ...rest, result: JSON.parse(resultJson) };
  }

  /** Whether a stored scan has a similarity signature. */
  hasSimilarity(trackingId: string): boolean {
    return Boolean((this.stmt.hasSimilarity!.get(trackingId) as { has: number } | undefined)?.has);
  }

  scanCount(): number {
    return (this.stmt.countScans!.get() as { n: number }).n;
  }

  /** Stored scans whose `column` equals `value`, within a scope, newest first. */
  scansWhere(column: 'content_hash' | 'fingerprint' | 'perceptual_hash', value: string, scope: ScanScope = {}): ScanSummary[] {
    const where = [`${column} = ?`];
    const args: unknown[] = [value];
    scopeWhere(scope, where, args);
    const limit = Math.max(1, Math.min(scope.limit ?? 50, 1000));
    return this.db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM scans WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${limit}`).all(...args) as ScanSummary[];
  }

  /**
   * Candidates for the similarity score, within a scope: the scans sharing the most lookup keys with
   * the new one (at most `byKeys`, most shared keys first, then newest), and the newest `recent` scans
   * whatever their keys (so a copy whose every key was misread is still compared). Newest first.
   */
  similarityCandidates(keys: readonly string[], scope: ScanScope, limits: { byKeys: number; recent: number }): ScanCandidate[] {
    const cols = `${SUMMARY_COLUMNS}, similarity_json AS similarityJson, CASE WHEN similarity_json IS NULL THEN subject_json END AS subjectJson`;
    const ids = new Set<number>();
    const uniqueKeys = [...new Set(keys)].slice(0, 500);
    if (uniqueKeys.length && limits.byKeys > 0) {
      const where = [`k.key IN (${uniqueKeys.map(() => '?').join(', ')})`];
      const args: unknown[] = [...uniqueKeys];
      scopeWhere(scope, where, args, 's.');
      const rows = this.db.prepare(`SELECT s.id AS id FROM scan_keys k JOIN scans s ON s.id = k.scan_id WHERE ${where.join(' AND ')}
        GROUP BY s.id ORDER BY count(*) DESC, s.id DESC LIMIT ${Math.floor(limits.byKeys)}`).all(...args) as Array<{ id: number }>;
      for (const r of rows) ids.add(r.id);
    }
    if (limits.recent > 0) {
      const where: string[] = ['1'];
      const args: unknown[] = [];
      scopeWhere(scope, where, args, 's.');
      const rows = this.db.prepare(`SELECT s.id AS id FROM scans s WHERE ${where.join(' AND ')} ORDER BY s.id DESC LIMIT ${Math.floor(limits.recent)}`).all(...args) as Array<{ id: number }>;
      for (const r of rows) ids.add(r.id);
    }
    if (!ids.size) return [];
    const list = [...ids];
    const out: ScanCandidate[] = [];
    for (let i = 0; i < list.length; i += 500) {
      const chunk = list.slice(i, i + 500);
      out.push(...this.db.prepare(`SELECT id, ${cols} FROM scans WHERE id IN (${chunk.map(() => '?').join(', ')})`).all(...chunk) as Array<ScanCandidate & { id: number }>);
    }
    return (out as Array<ScanCandidate & { id: number }>).sort((a, b) => b.id - a.id).map(({ id: _id, ...rest }) => rest);
  }

  // ---- campaigns ----

  /** False when the id exists. */
  createCampaign(id: string, settings: ValidationRules): boolean {
    const now = new Date().toISOString();
    return this.transaction(() => this.stmt.insertCampaign!.run(id, JSON.stringify(settings), now, now).changes === 1);
  }

  getCampaign(id: string): ValidationRules | undefined {
    const row = this.stmt.getCampaign!.get(id) as { json: string } | undefined;
    return row ? JSON.parse(row.json) as ValidationRules : undefined;
  }

  listCampaigns(): string[] {
    return (this.stmt.listCampaigns!.all() as Array<{ id: string }>).map((r) => r.id);
  }

  /** Replaces the settings; false when the id does not exist. */
  updateCampaign(id: string, settings: ValidationRules): boolean {
    return this.transaction(() => this.stmt.updateCampaign!.run(JSON.stringify(settings), new Date().toISOString(), id).changes === 1);
  }

  /** False when the id does not exist. Scans stored for the campaign are kept (similarity history). */
  deleteCampaign(id: string): boolean {
    return this.transaction(() => this.stmt.deleteCampaign!.run(id).changes === 1);
  }

  // ---- usage ----

  usage(q: UsageQuery = {}): UsageSummary {
    const where: string[] = [];
    const args: unknown[] = [];
    if (q.subAccountId !== undefined) { where.push('sub_account_id = ?'); args.push(q.subAccountId); }
    if (q.from) { where.push('day >= ?'); args.push(q.from); }
    if (q.to) { where.push('day <= ?'); args.push(q.to); }
    const rows = this.db.prepare(`SELECT sub_account_id AS sub, day, endpoint, count FROM usage ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY day, sub_account_id`).all(...args) as Array<{ sub: string; day: string; endpoint: EndpointKind; count: number }>;
    const zero = (): UsageCounts => ({ simple: 0, verbose: 0, validation: 0, campaignValidation: 0, total: 0 });
    const add = (c: UsageCounts, kind: EndpointKind, n: number) => {
      c[kind === 'campaign-validation' ? 'campaignValidation' : kind] += n;
      c.total += n;
    };
    const days = new Map<string, UsageDay>();
    const totals = zero();
    for (const r of rows) {
      const key = `${r.day}\u0000${r.sub}`;
      let d = days.get(key);
      if (!d) { d = { day: r.day, subAccountId: r.sub === '' ? null : r.sub, ...zero() }; days.set(key, d); }
      add(d, r.endpoint, r.count);
      add(totals, r.endpoint, r.count);
    }
    return { subAccountId: q.subAccountId ?? null, from: q.from ?? null, to: q.to ?? null, days: [...days.values()], totals };
  }

  /** `PRAGMA integrity_check` result ('ok' when sound). */
  integrityCheck(): string {
    return (this.db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check).join('; ');
  }

  close(): void {
    if (!this.db.open) return;
    if (!this.inMemory) {
      try { this.db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* another connection is busy: it will checkpoint */ }
    }
    this.db.close();
  }
}
