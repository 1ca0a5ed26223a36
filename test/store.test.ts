/**
 * The store: schema and migrations, bad files, the in-memory store, usage counters, the similarity
 * hook, and through the engine: scans stored with their keys, refresh (a stored result without OCR),
 * incognito (nothing stored), usage per sub-account. Real SQLite files in a temp dir.
 */
import { describe, it, expect, vi, beforeAll, afterAll, afterEach } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createEngine, ReceiptKitError } from '../src/index.js';
import type { Engine, SimpleResult, VerboseResult } from '../src/index.js';
import { OcrPool } from '../src/ocr/pool.js';
import { ReceiptStore, MEMORY_SCAN_LIMIT, BUSY_TIMEOUT_MS } from '../src/store/store.js';
import type { ScanRecord } from '../src/store/store.js';
import { SCHEMA_VERSION } from '../src/store/migrations.js';
import { findSimilarReceipts } from '../src/store/similar.js';
import { hammingDistance } from '../src/store/phash.js';
import { subjectFromExtraction } from '../src/validate/subject.js';
import { extraction } from './helpers/extraction.js';

const FIX = path.resolve(__dirname, '../fixtures');
const RECEIPT = path.join(FIX, 'receipt-en-simple.png');
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'rk-store-'));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function scan(over: Partial<ScanRecord> = {}): ScanRecord {
  return {
    trackingId: `t-${Math.random().toString(36).slice(2)}`, endpoint: 'simple', contentHash: 'h1', resultKey: 'rk', extractionKey: 'ek',
    perceptualHash: null, fingerprint: null, subject: subjectFromExtraction(extraction()), result: { ok: true }, ...over,
  };
}

function rows(file: string, sql: string, ...args: unknown[]): any[] {
  const db = new Database(file, { readonly: true });
  try { return db.prepare(sql).all(...args); } finally { db.close(); }
}

describe('ReceiptStore', () => {
  it('creates a versioned WAL database with a busy timeout, and reopens it without migrating again', () => {
    const file = path.join(tmp(), 'a.db');
    const s = new ReceiptStore(file);
    expect(s.schemaVersion).toBe(SCHEMA_VERSION);
    s.recordScan(scan({ trackingId: 'one' }));
    s.close();
    const db = new Database(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
    const again = new ReceiptStore(file);
    expect(again.scanCount()).toBe(1);
    expect(again.getScan('one')).toMatchObject({ trackingId: 'one', endpoint: 'simple', result: { ok: true } });
    expect(again.integrityCheck()).toBe('ok');
    again.close();
    expect(BUSY_TIMEOUT_MS).toBeGreaterThanOrEqual(5000);
  });

  it('migrates an empty SQLite file, and refuses a file from a newer version or one that is not a database', () => {
    const dir = tmp();
    const empty = path.join(dir, 'empty.db');
    new Database(empty).close();
    const s = new ReceiptStore(empty);
    expect(s.schemaVersion).toBe(SCHEMA_VERSION);
    s.close();

    const newer = path.join(dir, 'newer.db');
    const db = new Database(newer);
    db.pragma('user_version = 99');
    db.close();
    expect(() => new ReceiptStore(newer)).toThrow(/newer receiptkit \(schema 99/);

    const junk = path.join(dir, 'junk.db');
    writeFileSync(junk, Buffer.alloc(8192, 'not a database '));
    try { new ReceiptStore(junk); expect.unreachable(); } catch (e) {
      expect(e).toBeInstanceOf(ReceiptKitError);
      expect(e).toMatchObject({ code: 'INVALID_OPTION', field: 'storePath' });
      expect((e as Error).message).toMatch(/not a usable SQLite database/);
    }
    expect(() => new ReceiptStore(path.join(dir, 'no', 'such', 'dir.db'))).toThrow(/storePath/);
  });

  it('an in-memory store keeps only the newest scans', () => {
    const s = new ReceiptStore();
    expect(s.inMemory).toBe(true);
    for (let i = 0; i < MEMORY_SCAN_LIMIT + 5; i++) s.recordScan(scan({ trackingId: `m-${i}`, result: { i } }));
    expect(s.scanCount()).toBe(MEMORY_SCAN_LIMIT);
    expect(s.getScan('m-0')).toBeUndefined();
    expect(s.getScan(`m-${MEMORY_SCAN_LIMIT + 4}`)).toBeDefined();
    expect(s.usage().totals.simple).toBe(MEMORY_SCAN_LIMIT + 5); // counters are not trimmed
    s.close();
  });

  it('usage: counts per sub-account, UTC day and endpoint kind, filtered by sub-account and days', () => {
    const s = new ReceiptStore(path.join(tmp(), 'u.db'));
    const d1 = new Date('2026-01-05T10:00:00Z');
    const d2 = new Date('2026-01-06T23:59:00Z');
    s.countUsage('simple', 'acme', d1);
    s.countUsage('simple', 'acme', d1);
    s.countUsage('verbose', 'acme', d2);
    s.countUsage('campaign-validation', 'acme', d2);
    s.countUsage('validation', undefined, d2);
    s.recordScan(scan({ endpoint: 'verbose', subAccountId: 'beta', createdAt: d1 }));
    expect(s.usage({ subAccountId: 'acme' })).toEqual({
      subAccountId: 'acme', from: null, to: null,
      days: [
        { day: '2026-01-05', subAccountId: 'acme', simple: 2, verbose: 0, validation: 0, campaignValidation: 0, total: 2 },
        { day: '2026-01-06', subAccountId: 'acme', simple: 0, verbose: 1, validation: 0, campaignValidation: 1, total: 2 },
      ],
      totals: { simple: 2, verbose: 1, validation: 0, campaignValidation: 1, total: 4 },
    });
    const all = s.usage({ from: '2026-01-06', to: '2026-01-06' });
    expect(all.days.map((d) => [d.day, d.subAccountId, d.total])).toEqual([['2026-01-06', null, 1], ['2026-01-06', 'acme', 2]]);
    expect(s.usage({ from: '2026-01-05', to: '2026-01-05' }).totals).toEqual({ simple: 2, verbose: 1, validation: 0, campaignValidation: 0, total: 3 });
    s.close();
  });

  it('similarity hook: same file, same fingerprint, container scope, shared referenceId, endpoint kinds', () => {
    const s = new ReceiptStore();
    s.recordScan(scan({ trackingId: 'a', contentHash: 'H', userId: 'u1', referenceId: 'r1', endpoint: 'campaign-validation' }));
    s.recordScan(scan({ trackingId: 'b', contentHash: 'other', fingerprint: 'm|2024-01-01|9.99|', containerId: 'c1', endpoint: 'campaign-validation' }));
    s.recordScan(scan({ trackingId: 'c', contentHash: 'H', endpoint: 'simple', containerId: 'c2' }));
    const q = { contentHash: 'H', fingerprint: 'm|2024-01-01|9.99|', perceptualHash: null };
    expect(findSimilarReceipts(s, q).map((m) => [m.trackingId, m.similarityScore, m.basis])).toEqual([
      ['c', 1, 'same file'], ['a', 1, 'same file'], ['b', 0.95, 'same merchant, date, total and receipt number'],
    ]);
    expect(findSimilarReceipts(s, q).find((m) => m.trackingId === 'a')).toEqual({ referenceId: 'r1', userId: 'u1', trackingId: 'a', similarityScore: 1, basis: 'same file' });
    expect(findSimilarReceipts(s, { ...q, containerId: 'c1' }).map((m) => m.trackingId)).toEqual(['b']);
    expect(findSimilarReceipts(s, { ...q, referenceId: 'r1' }).map((m) => m.trackingId)).toEqual(['c', 'b']);
    expect(findSimilarReceipts(s, { ...q, kinds: ['validation', 'campaign-validation'] }).map((m) => m.trackingId)).toEqual(['a', 'b']);
    expect(findSimilarReceipts(s, { contentHash: 'nothing', fingerprint: null, perceptualHash: null })).toEqual([]);
    s.close();
  });

  it('hamming distance of perceptual hashes', () => {
    expect(hammingDistance('ffffffffffffffff', 'ffffffffffffffff')).toBe(0);
    expect(hammingDistance('0000000000000000', '000000000000000f')).toBe(4);
  });
});

describe('engine with a store', () => {
  let dir: string;
  let file: string;
  let engine: Engine;
  beforeAll(async () => {
    dir = tmp();
    file = path.join(dir, 'scans.db');
    engine = await createEngine({ workers: 1, storePath: file });
  });
  afterAll(async () => { await engine?.close(); });
  afterEach(() => { vi.restoreAllMocks(); });

  it('a bad storePath is INVALID_OPTION naming it', async () => {
    await expect(createEngine({ storePath: path.join(dir, 'missing-dir', 'x.db') })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'storePath' });
  });

  it('stores each scan with its hashes, fingerprint and caller ids; the same call again is answered from the store without OCR', async () => {
    const ocr = vi.spyOn(OcrPool.prototype, 'recognize');
    const ids = { userId: 'u-17', referenceId: 'ref-1', containerId: 'box-1', subAccountId: 'shop-a' };
    const first = await engine.extract(RECEIPT, ids) as SimpleResult;
    expect(ocr).toHaveBeenCalledTimes(1);
    const stored = rows(file, 'SELECT * FROM scans');
    expect(stored).toHaveLength(1);
    const row = stored[0];
    expect(row).toMatchObject({
      endpoint: 'simple', content_hash: sha(readFileSync(RECEIPT)), user_id: 'u-17', reference_id: 'ref-1', container_id: 'box-1',
      sub_account_id: 'shop-a', campaign_id: null, fp_date: '2024-03-12', fp_total: 29.05,
    });
    expect(row.perceptual_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(row.fingerprint).toMatch(/^kedal.*\|2024-03-12\|29\.05\|/);
    expect(JSON.parse(row.result_json)).toEqual(first);
    expect(JSON.parse(row.subject_json)).toMatchObject({ version: 1, totalAmount: 29.05 });
    expect(new Date(row.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const t0 = performance.now();
    const again = await engine.extract(RECEIPT, { subAccountId: 'shop-a' });
    const ms = performance.now() - t0;
    expect(ocr).toHaveBeenCalledTimes(1); // no OCR
    expect(ms).toBeLessThan(1000); // no OCR is asserted above; this bound only catches a slow path, with room for a noisy machine
    expect(again).toEqual(first);
    expect(rows(file, 'SELECT count(*) AS n FROM scans')[0].n).toBe(2); // every call is a scan

    // the same bytes in another input form hit the same stored result
    await engine.extract(readFileSync(RECEIPT));
    await engine.extract({ image: readFileSync(RECEIPT).toString('base64') });
    expect(ocr).toHaveBeenCalledTimes(1);
  });

  it('refresh: true re-processes; other result-affecting options are other keys', async () => {
    const ocr = vi.spyOn(OcrPool.prototype, 'recognize');
    const r = await engine.extract(RECEIPT, { refresh: true }) as SimpleResult;
    expect(ocr).toHaveBeenCalledTimes(1);
    expect(r.totalAmount).toMatchObject({ data: 29.05 });
    await engine.extract(RECEIPT, { extractTime: true });
    expect(ocr).toHaveBeenCalledTimes(2);
    await engine.extract(RECEIPT, { extractTime: true });
    expect(ocr).toHaveBeenCalledTimes(2);
  });

  it('a stored verbose result gets a new trackingId and lists the earlier scans as similar', async () => {
    const ocr = vi.spyOn(OcrPool.prototype, 'recognize');
    const a = await engine.extract(RECEIPT, { verbose: true, containerId: 'v' }) as VerboseResult;
    expect(ocr).toHaveBeenCalledTimes(1);
    expect(a.similarReceipts).toEqual([]); // nothing else in container v yet
    const b = await engine.extract(RECEIPT, { verbose: true, containerId: 'v', userId: 'u-2' }) as VerboseResult;
    expect(ocr).toHaveBeenCalledTimes(1);
    expect(b.trackingId).not.toBe(a.trackingId);
    expect(b.totalAmount).toEqual(a.totalAmount);
    expect(b.similarReceipts).toEqual([{ trackingId: a.trackingId, similarityScore: 1 }]);
    expect(Object.keys(b)).toEqual(Object.keys(a));
    expect(rows(file, 'SELECT user_id FROM scans WHERE tracking_id = ?', b.trackingId)).toEqual([{ user_id: 'u-2' }]);
  });

  it('incognito stores nothing (and a later call must OCR); usage still counts the call', async () => {
    const ocr = vi.spyOn(OcrPool.prototype, 'recognize');
    const before = rows(file, 'SELECT count(*) AS n FROM scans')[0].n;
    const us = path.join(FIX, 'receipt-us.jpg');
    const r = await engine.extract(us, { incognito: true, verbose: true, userId: 'secret', subAccountId: 'shop-b' }) as VerboseResult;
    expect(r.totalAmount).toMatchObject({ data: 30.62 });
    expect(rows(file, 'SELECT count(*) AS n FROM scans')[0].n).toBe(before);
    expect(rows(file, "SELECT count(*) AS n FROM scans WHERE user_id = 'secret' OR content_hash = ?", sha(readFileSync(us)))[0].n).toBe(0);
    await engine.extract(us, { verbose: true, subAccountId: 'shop-b' });
    expect(ocr).toHaveBeenCalledTimes(2);
    expect(rows(file, 'SELECT count(*) AS n FROM scans')[0].n).toBe(before + 1);
    expect((await engine.usage({ subAccountId: 'shop-b' })).totals).toEqual({ simple: 0, verbose: 2, validation: 0, campaignValidation: 0, total: 2 });
  });

  it('usage summary per sub-account and day', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const u = await engine.usage({ subAccountId: 'shop-a', from: today, to: today });
    expect(u.days).toEqual([{ day: today, subAccountId: 'shop-a', simple: 2, verbose: 0, validation: 0, campaignValidation: 0, total: 2 }]);
    const all = await engine.usage();
    expect(all.days.map((d) => d.subAccountId)).toEqual([null, 'shop-a', 'shop-b']);
    expect(all.totals.total).toBe(all.days.reduce((a, d) => a + d.total, 0));
    expect((await engine.usage({ from: '2000-01-01', to: '2000-01-02' })).days).toEqual([]);
    await expect(engine.usage({ from: '2026-13-01' })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'from' });
    await expect(engine.usage({ from: '2026-02-02', to: '2026-02-01' })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'to' });
  });

  it('a second engine on the same file sees the first one\'s scans and campaigns, and both write', async () => {
    const other = await createEngine({ workers: 1, storePath: file });
    try {
      const ocr = vi.spyOn(OcrPool.prototype, 'recognize');
      await other.extract(RECEIPT, { subAccountId: 'second' }); // stored by the first engine
      expect(ocr).not.toHaveBeenCalled();
      await engine.campaigns.create('shared', { balanceOwing: { max: 0 } });
      expect(await other.campaigns.get('shared')).toEqual({ balanceOwing: { max: 0 } });
      await Promise.all([
        ...Array.from({ length: 10 }, () => other.extract(RECEIPT, { subAccountId: 'second' })),
        ...Array.from({ length: 10 }, () => engine.extract(RECEIPT, { subAccountId: 'second' })),
      ]);
      expect((await engine.usage({ subAccountId: 'second' })).totals.simple).toBe(21);
      expect(rows(file, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    } finally {
      await other.close();
    }
  });

  it('without storePath the store is in memory: no file is written', async () => {
    const cwd = process.cwd();
    const empty = tmp();
    process.chdir(empty);
    try {
      const e = await createEngine({ workers: 1 });
      await e.extract(path.join(FIX, 'invoice.pdf'), { userId: 'u' });
      expect((await e.usage()).totals.simple).toBe(1);
      await e.close();
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('close() closes the store: later calls are ENGINE_CLOSED', async () => {
    const e = await createEngine({ workers: 1, storePath: path.join(dir, 'closed.db') });
    await e.close();
    await expect(e.usage()).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
    await expect(e.campaigns.list()).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
    await expect(e.validate(RECEIPT, {})).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
    await e.close(); // idempotent
  });
});
