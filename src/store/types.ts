/**
 * The store interface: scan history (duplicates and similarity), campaigns, usage counters and the
 * enrichment lists of one engine (one account). Two implementations share it:
 *
 * - `ReceiptStore` (store.ts): a SQLite file (Node's built-in node:sqlite, sqlite.ts), or an in-memory database. The default.
 * - `PgStore` (pg.ts): a PostgreSQL database (`storeUrl: 'postgres://...'`) shared by many processes
 *   and machines (server replicas, batch workers).
 *
 * Every method is asynchronous (PostgreSQL is a network round trip). Every write is one transaction and
 * is durable when its promise resolves (SQLite: WAL with synchronous=FULL; PostgreSQL: synchronous_commit
 * on). Both run the same numbered migrations (migrations.ts, and its PostgreSQL translation).
 */
import { createHash } from 'node:crypto';
import type { UsageCounts, UsageDay, UsageQuery, UsageSummary, ValidationRules } from '../contract/validation.js';
import type { ValidationSubject } from '../validate/subject.js';
import type { SimilaritySignature } from '../similarity/index.js';

export type EndpointKind = 'simple' | 'verbose' | 'validation' | 'campaign-validation';
export const ENDPOINT_KINDS: readonly EndpointKind[] = ['simple', 'verbose', 'validation', 'campaign-validation'];

/** The enrichment list kinds (src/enrich). */
export type StoreListKind = 'merchants' | 'productCodes' | 'categories';

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

export interface StoredResult { result: unknown; subject: ValidationSubject; perceptualHash: string | null; similarityJson: string | null }
export interface StoredSubject { subject: ValidationSubject; perceptualHash: string | null; similarityJson: string | null }

/** One row of an enrichment list as the store keeps it: its key (merchant id, code, ...) and its JSON. */
export interface ListRow { key: string | null; json: string }

export interface Store {
  readonly backend: 'sqlite' | 'postgres';
  /** Where it lives, for messages: the SQLite path, or the PostgreSQL URL without its password. */
  readonly location: string;
  readonly inMemory: boolean;
  /** False once closed. */
  readonly open: boolean;
  schemaVersion(): Promise<number>;

  /** Stores a scan (with its similarity keys) and counts it in the usage summary, in one transaction. */
  recordScan(rec: ScanRecord): Promise<void>;
  /** Counts one call in the usage summary (calls that store no scan: incognito, inline validation). */
  countUsage(kind: EndpointKind, subAccountId: string | undefined, at?: Date): Promise<void>;
  /** The newest stored result for these bytes and result-affecting options. */
  findResult(contentHash: string, resultKey: string): Promise<StoredResult | undefined>;
  /** The newest stored extraction snapshot for these bytes and extraction options (any endpoint). */
  findSubject(contentHash: string, extractionKey: string): Promise<StoredSubject | undefined>;
  /** One stored scan by trackingId, with its stored result. */
  getScan(trackingId: string): Promise<(ScanSummary & { subAccountId: string | null; result: unknown }) | undefined>;
  /** Whether a stored scan has a similarity signature. */
  hasSimilarity(trackingId: string): Promise<boolean>;
  scanCount(): Promise<number>;
  /** Stored scans whose `column` equals `value`, within a scope, newest first. */
  scansWhere(column: 'content_hash' | 'fingerprint' | 'perceptual_hash', value: string, scope?: ScanScope): Promise<ScanSummary[]>;
  /**
   * Candidates for the similarity score, within a scope: the scans sharing the most lookup keys with
   * the new one (at most `byKeys`, most shared keys first, then newest), and the newest `recent` scans
   * whatever their keys. Newest first.
   */
  similarityCandidates(keys: readonly string[], scope: ScanScope, limits: { byKeys: number; recent: number }): Promise<ScanCandidate[]>;

  /** False when the id exists. */
  createCampaign(id: string, settings: ValidationRules): Promise<boolean>;
  getCampaign(id: string): Promise<ValidationRules | undefined>;
  /** Every campaign id, oldest first. */
  listCampaigns(): Promise<string[]>;
  /** Replaces the settings; false when the id does not exist. */
  updateCampaign(id: string, settings: ValidationRules): Promise<boolean>;
  /** False when the id does not exist. Scans stored for the campaign are kept. */
  deleteCampaign(id: string): Promise<boolean>;

  usage(q?: UsageQuery): Promise<UsageSummary>;

  /** The JSON rows of an enrichment list, in order. */
  listRows(kind: StoreListKind): Promise<string[]>;
  /** Revision of each list that was ever written ('' for an empty list). */
  listRevisions(): Promise<Partial<Record<StoreListKind, string>>>;
  /**
   * A number that changes when another connection committed (SQLite's data_version), so readers can
   * skip re-reading the revisions; null when the backend has none (the revisions are read each time).
   */
  dataVersion(): Promise<number | null>;
  /**
   * Writes list rows in one transaction: `replace` makes them the whole list; `append` adds them, a row
   * whose key is listed already replacing that row in place. Sets the list's revision (sha256 of its
   * rows). Returns the list's row count.
   */
  writeList(kind: StoreListKind, rows: readonly ListRow[], mode: 'replace' | 'append'): Promise<number>;

  /** 'ok' when the store is sound (SQLite integrity_check; PostgreSQL: reachable and migrated). */
  integrityCheck(): Promise<string>;
  close(): Promise<void>;
}

/** Folds usage rows (per sub-account, day and endpoint) into the summary the API returns. */
/** The WHERE clause (with `?` placeholders, empty when unfiltered) and arguments of a usage query; both stores use it. */
export function usageFilter(q: UsageQuery): { where: string; args: unknown[] } {
  const where: string[] = [];
  const args: unknown[] = [];
  if (q.subAccountId !== undefined) { where.push('sub_account_id = ?'); args.push(q.subAccountId); }
  if (q.from) { where.push('day >= ?'); args.push(q.from); }
  if (q.to) { where.push('day <= ?'); args.push(q.to); }
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', args };
}

export function summariseUsage(q: UsageQuery, rows: Array<{ sub: string; day: string; endpoint: EndpointKind; count: number }>): UsageSummary {
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

/** The scan columns of a ScanRecord, as both backends insert them. */
export function scanColumns(rec: ScanRecord, at: Date) {
  const [fpMerchant, fpDate, fpTotal, fpReceiptNumber] = rec.fingerprint ? rec.fingerprint.split('|') : [];
  const total = fpTotal !== undefined ? Number(fpTotal) : null;
  return {
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
    fpTotal: total !== null && Number.isFinite(total) ? total : null,
    fpReceiptNumber: fpReceiptNumber || null,
    resultJson: JSON.stringify(rec.result),
    subjectJson: JSON.stringify(rec.subject),
    userId: rec.userId ?? null,
    referenceId: rec.referenceId ?? null,
    containerId: rec.containerId ?? null,
    subAccountId: rec.subAccountId ?? null,
    campaignId: rec.campaignId ?? null,
    similarityJson: rec.similarity ? JSON.stringify(rec.similarity.signature) : null,
  };
}

export const SCAN_COLUMN_NAMES = ['tracking_id', 'created_at', 'endpoint', 'content_hash', 'result_key', 'extraction_key',
  'perceptual_hash', 'fingerprint', 'fp_merchant', 'fp_date', 'fp_total', 'fp_receipt_number', 'result_json', 'subject_json',
  'user_id', 'reference_id', 'container_id', 'sub_account_id', 'campaign_id', 'similarity_json'] as const;

export const SUMMARY_COLUMNS = `tracking_id AS "trackingId", endpoint, content_hash AS "contentHash", perceptual_hash AS "perceptualHash",
  fingerprint, user_id AS "userId", reference_id AS "referenceId", container_id AS "containerId", campaign_id AS "campaignId", created_at AS "createdAt"`;

/** Adds a scope's conditions on the scans table (aliased by `t`) to a WHERE list (`?` placeholders). */
export function scopeWhere(scope: ScanScope, where: string[], args: unknown[], t = ''): void {
  if (scope.containerId !== undefined) { where.push(`${t}container_id = ?`); args.push(scope.containerId); }
  if (scope.excludeReferenceId !== undefined) { where.push(`(${t}reference_id IS NULL OR ${t}reference_id <> ?)`); args.push(scope.excludeReferenceId); }
  if (scope.kinds?.length) { where.push(`${t}endpoint IN (${scope.kinds.map(() => '?').join(', ')})`); args.push(...scope.kinds); }
}

/** The revision of a list: sha256 of its JSON rows ('' for an empty list). */
export function listRevision(jsonRows: readonly string[]): string {
  if (!jsonRows.length) return '';
  const h = createHash('sha256');
  for (const r of jsonRows) h.update(r).update('\n');
  return h.digest('hex');
}
