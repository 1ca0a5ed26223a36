/**
 * The store: schema and migrations, bad files and URLs, the in-memory store, usage counters, the
 * similarity hook, campaigns, enrichment lists, and through the engine: scans stored with their keys,
 * refresh (a stored result without OCR), incognito (nothing stored), usage per sub-account.
 * The store contract and the engine tests run against both backends: a real SQLite file in a temp
 * dir, and a real PostgreSQL server started for this file (test/helpers/postgres.mjs), one schema per test.
 */
import { describe, it, expect, vi, beforeAll, afterAll, afterEach } from 'vitest';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteDb } from '../src/store/sqlite.js';
import pg from 'pg';
import { createEngine, ReceiptKitError } from '../src/index.js';
import type { Engine, EngineOptionsInput, SimpleResult, VerboseResult } from '../src/index.js';
import { OcrPool } from '../src/ocr/pool.js';
import { ReceiptStore, MEMORY_SCAN_LIMIT, BUSY_TIMEOUT_MS } from '../src/store/store.js';
import type { ScanRecord, Store } from '../src/store/types.js';
import { PgStore, redactUrl } from '../src/store/pg.js';
import { openStore } from '../src/store/open.js';
import { MIGRATIONS, PG_MIGRATIONS, SCHEMA_VERSION } from '../src/store/migrations.js';
import { findSimilarReceipts } from '../src/store/similar.js';
import { hammingDistance } from '../src/similarity/phash.js';
import { subjectFromExtraction } from '../src/validate/subject.js';
import { extraction } from './helpers/extraction.js';
import { startPostgres } from './helpers/postgres.mjs';
import type { RunningPostgres } from './helpers/postgres.mjs';

const ROOT = path.resolve(__dirname, '..');
const FIX = path.join(ROOT, 'fixtures');
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
  const db = new SqliteDb(file, { readOnly: true });
  try { return db.all(sql, ...args); } finally { db.close(); }
}

// one PostgreSQL server for this file; each test gets its own schema
let postgres: RunningPostgres;
beforeAll(async () => { postgres = await startPostgres(); });
afterAll(() => { postgres?.stop(); });
let schemaSeq = 0;
const newSchema = () => `t_${process.pid}_${++schemaSeq}`;

type Backend = 'sqlite' | 'postgres';
const BACKENDS: Backend[] = ['sqlite', 'postgres'];

/** Store options of a fresh store on a backend (a new SQLite file, or a new PostgreSQL schema). */
function freshStore(backend: Backend): { storePath: string } | { storeUrl: string; storeSchema: string } {
  return backend === 'sqlite' ? { storePath: path.join(tmp(), 's.db') } : { storeUrl: postgres.url, storeSchema: newSchema() };
}

/** Reads rows straight from a backend (`?` placeholders), to check what was written. */
async function readRows(where: { storePath: string } | { storeUrl: string; storeSchema: string }, sql: string, ...args: unknown[]): Promise<any[]> {
  if ('storePath' in where) return rows(where.storePath, sql, ...args);
  const client = new pg.Client({ connectionString: where.storeUrl });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${where.storeSchema}"`);
    let n = 0;
    return (await client.query(sql.replace(/\?/g, () => `$${++n}`), args)).rows;
  } finally { await client.end(); }
}

describe('ReceiptStore (SQLite file)', () => {
  it('creates a versioned WAL database with a busy timeout, and reopens it without migrating again', async () => {
    const file = path.join(tmp(), 'a.db');
    const s = new ReceiptStore(file);
    expect(await s.schemaVersion()).toBe(SCHEMA_VERSION);
    await s.recordScan(scan({ trackingId: 'one' }));
    await s.close();
    const db = new SqliteDb(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
    const again = new ReceiptStore(file);
    expect(await again.scanCount()).toBe(1);
    expect(await again.getScan('one')).toMatchObject({ trackingId: 'one', endpoint: 'simple', result: { ok: true } });
    expect(await again.integrityCheck()).toBe('ok');
    await again.close();
    expect(BUSY_TIMEOUT_MS).toBeGreaterThanOrEqual(5000);
  });

  it('migrates an empty SQLite file, and refuses a file from a newer version or one that is not a database', async () => {
    const dir = tmp();
    const empty = path.join(dir, 'empty.db');
    new SqliteDb(empty).close();
    const s = new ReceiptStore(empty);
    expect(await s.schemaVersion()).toBe(SCHEMA_VERSION);
    await s.close();

    const newer = path.join(dir, 'newer.db');
    const db = new SqliteDb(newer);
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

  it('opens a store file written by the better-sqlite3 build (0b818e3) as it was: scans, usage, campaigns, lists', async () => {
    // fixtures/store-better-sqlite3-v3.db was written by ReceiptStore at 0b818e3 (better-sqlite3 12.11.1)
    const file = path.join(tmp(), 'old.db');
    writeFileSync(file, readFileSync(path.join(FIX, 'store-better-sqlite3-v3.db')));
    const s = new ReceiptStore(file);
    expect(await s.schemaVersion()).toBe(3);
    expect(await s.integrityCheck()).toBe('ok');
    expect(await s.scanCount()).toBe(2);
    expect(await s.getScan('old-1')).toEqual({
      trackingId: 'old-1', endpoint: 'verbose', contentHash: 'hash-1', perceptualHash: 'ffff0000ffff0000',
      fingerprint: 'OLD STORE MART|2026-11-20|12.5|A-17', userId: null, referenceId: null, containerId: null, campaignId: 'spring',
      createdAt: '2026-11-20T10:00:00.000Z', subAccountId: 'acct-a', result: { totalAmount: { data: 12.5 } },
    });
    expect((await s.scansWhere('fingerprint', 'OLD STORE MART|2026-11-20|12.5|A-17')).map((r) => r.trackingId)).toEqual(['old-1']);
    expect((await s.usage()).totals).toMatchObject({ simple: 1, verbose: 1, total: 2 });
    expect(await s.getCampaign('spring')).toEqual({ minTotal: 10, currency: 'EUR' });
    expect(await s.listRows('merchants')).toEqual(['{"name":"Old Store Mart"}']);
    expect((await s.similarityCandidates(['k1'], {}, { byKeys: 5, recent: 0 })).map((c) => c.trackingId)).toEqual(['old-1']);
    // and it keeps writing
    await s.recordScan(scan({ trackingId: 'new-1' }));
    expect(await s.scanCount()).toBe(3);
    await s.close();
  });

  it('a process that drops statements to the garbage collector, then extracts with the store on a file, exits cleanly and prints nothing', () => {
    // Many short-lived statements (scansWhere/similarityCandidates prepare per call) with forced GCs, then an
    // engine on the same file extracts a receipt and closes. The build with better-sqlite3 12.11.1 aborted
    // here on Node 24.21 (SIGABRT, `(env) != nullptr` in Statement::~Statement), 2 of 2 runs; 22 and 26 did not.
    const file = path.join(tmp(), 'gc.db');
    const dist = JSON.stringify(path.join(ROOT, 'dist'));
    const script = `const { ReceiptStore } = await import(${dist} + '/store/store.js');
      const { createEngine } = await import(${dist} + '/index.js');
      const s = new ReceiptStore(${JSON.stringify(file)});
      const subject = { merchantName: 'GC MART' };
      for (let i = 0; i < 300; i++) {
        await s.recordScan({ trackingId: 't' + i, endpoint: 'simple', contentHash: 'h' + (i % 7), resultKey: 'r', extractionKey: 'e',
          perceptualHash: null, fingerprint: 'GC|' + (i % 5), subject, result: { i }, similarity: { signature: { i }, keys: ['k' + (i % 9)] } });
        await s.scansWhere('fingerprint', 'GC|' + (i % 5));
        await s.similarityCandidates(['k' + (i % 9)], {}, { byKeys: 5, recent: 5 });
        if (i % 50 === 0) globalThis.gc();
      }
      await s.close();
      const engine = await createEngine({ storePath: ${JSON.stringify(file)} });
      const r = await engine.extract(${JSON.stringify(RECEIPT)});
      await engine.close();
      globalThis.gc();
      process.stdout.write('done ' + r.totalAmount.data);`;
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
    expect(r.signal).toBeNull();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`done ${JSON.parse(readFileSync(path.join(FIX, 'receipt-en-simple.expected.json'), 'utf8')).totalAmount}`);
    expect(rows(file, 'SELECT count(*) AS n FROM scans')[0].n).toBe(301);
  });

  it('an in-memory store keeps only the newest scans', async () => {
    const s = new ReceiptStore();
    expect(s.inMemory).toBe(true);
    for (let i = 0; i < MEMORY_SCAN_LIMIT + 5; i++) await s.recordScan(scan({ trackingId: `m-${i}`, result: { i } }));
    expect(await s.scanCount()).toBe(MEMORY_SCAN_LIMIT);
    expect(await s.getScan('m-0')).toBeUndefined();
    expect(await s.getScan(`m-${MEMORY_SCAN_LIMIT + 4}`)).toBeDefined();
    expect((await s.usage()).totals.simple).toBe(MEMORY_SCAN_LIMIT + 5); // counters are not trimmed
    await s.close();
  });

  it('hamming distance of perceptual hashes', () => {
    expect(hammingDistance('ffffffffffffffff', 'ffffffffffffffff')).toBe(0);
    expect(hammingDistance('0000000000000000', '000000000000000f')).toBe(4);
  });
});

describe('PgStore (PostgreSQL)', () => {
  it('the PostgreSQL migrations are the SQLite ones, one to one', () => {
    expect(PG_MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((m) => m.version));
    // every table and column of the SQLite schema is in the translation
    const names = (sql: string) => [...sql.matchAll(/CREATE TABLE (?:\$S\.)?(\w+)|ADD COLUMN (\w+)|^\s+(\w+) (?:INTEGER|TEXT|REAL|BIGSERIAL|BIGINT|DOUBLE)/gm)].map((m) => m[1] ?? m[2] ?? m[3]);
    MIGRATIONS.forEach((m, i) => expect(names(PG_MIGRATIONS[i]!.sql)).toEqual(names(m.sql)));
  });

  it('creates its schema and migrates it once when several processes open it at once; reopens without migrating', async () => {
    const schema = newSchema();
    const opened = await Promise.all(Array.from({ length: 4 }, () => PgStore.open(postgres.url, { schema })));
    for (const s of opened) expect(await s.schemaVersion()).toBe(SCHEMA_VERSION);
    await opened[0]!.recordScan(scan({ trackingId: 'one' }));
    await Promise.all(opened.map((s) => s.close()));
    const again = await PgStore.open(postgres.url, { schema });
    expect(await again.scanCount()).toBe(1);
    expect(await again.integrityCheck()).toBe('ok');
    expect(again.location).toBe(postgres.url);
    await again.close();
    await expect(again.scanCount()).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
    const v = await readRows({ storeUrl: postgres.url, storeSchema: schema }, 'SELECT version FROM receiptkit_schema');
    expect(v).toEqual([{ version: SCHEMA_VERSION }]);
  });

  it('refuses a schema from a newer version, an unreachable server, a bad URL or schema name (INVALID_OPTION naming the option)', async () => {
    const schema = newSchema();
    await (await PgStore.open(postgres.url, { schema })).close();
    const c = new pg.Client({ connectionString: postgres.url });
    await c.connect();
    await c.query(`UPDATE "${schema}".receiptkit_schema SET version = 99`);
    await c.end();
    await expect(PgStore.open(postgres.url, { schema })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'storeUrl', message: expect.stringMatching(/newer receiptkit \(schema 99/) });

    const down = `postgres://postgres:secret-pw@127.0.0.1:1/postgres`;
    const e = await PgStore.open(down).catch((x) => x);
    expect(e).toMatchObject({ code: 'INVALID_OPTION', field: 'storeUrl' });
    expect(e.message).toMatch(/cannot open the PostgreSQL store/);
    expect(e.message).not.toContain('secret-pw'); // the password is not echoed
    expect(redactUrl(down)).toBe('postgres://postgres:***@127.0.0.1:1/postgres');
    await expect(PgStore.open('mysql://x')).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'storeUrl' });
    await expect(PgStore.open(postgres.url, { schema: 'bad"name' })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'storeSchema' });
    await expect(openStore({ storePath: 'x.db', storeUrl: postgres.url })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'storeUrl' });
    await expect(createEngine({ storeUrl: 'http://nope' })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'storeUrl' });
  });

  it('a store whose server went away answers OVERLOADED (503, try again), not a crash', async () => {
    const other = await startPostgres();
    const s = await PgStore.open(other.url, { schema: 'gone' });
    await s.recordScan(scan({ trackingId: 'before' }));
    other.stop();
    await expect(s.recordScan(scan({ trackingId: 'after' }))).rejects.toMatchObject({ code: 'OVERLOADED', status: 503 });
    await expect(s.getScan('before')).rejects.toMatchObject({ code: 'OVERLOADED' });
    await s.close();
  });
});

describe.each(BACKENDS)('store contract (%s)', (backend) => {
  const stores: Store[] = [];
  const open = async (where = freshStore(backend)) => {
    const s = await openStore(where);
    stores.push(s);
    return s;
  };
  afterEach(async () => { for (const s of stores.splice(0)) await s.close(); });

  it('stores a scan with its columns and keys, finds it by result and extraction keys, and a second connection sees it', async () => {
    const where = freshStore(backend);
    const a = await open(where);
    const b = await open(where);
    expect(a.backend).toBe(backend);
    await a.recordScan(scan({ trackingId: 'x1', contentHash: 'H', resultKey: 'R', extractionKey: 'E', fingerprint: 'shop|2024-01-02|12.50|77', userId: 'u', subAccountId: 'sa', result: { n: 1 } }));
    await a.recordScan(scan({ trackingId: 'x2', contentHash: 'H', resultKey: 'R', extractionKey: 'E', result: { n: 2 } }));
    expect((await b.findResult('H', 'R'))?.result).toEqual({ n: 2 }); // newest
    expect(await b.findResult('H', 'other')).toBeUndefined();
    expect((await b.findSubject('H', 'E'))?.subject).toMatchObject({ version: 1 });
    expect(await b.getScan('x1')).toMatchObject({ trackingId: 'x1', userId: 'u', subAccountId: 'sa', fingerprint: 'shop|2024-01-02|12.50|77', result: { n: 1 } });
    expect(await b.getScan('nope')).toBeUndefined();
    expect(await b.scanCount()).toBe(2);
    const row = (await readRows(where, 'SELECT fp_merchant, fp_date, fp_total, fp_receipt_number FROM scans WHERE tracking_id = ?', 'x1'))[0];
    expect(row).toEqual({ fp_merchant: 'shop', fp_date: '2024-01-02', fp_total: 12.5, fp_receipt_number: '77' });
    // a duplicate trackingId is refused (unique), and nothing of it is written (one transaction)
    await expect(a.recordScan(scan({ trackingId: 'x1', subAccountId: 'dup' }))).rejects.toThrow();
    expect((await a.usage({ subAccountId: 'dup' })).totals.total).toBe(0);
  });

  it('usage: counts per sub-account, UTC day and endpoint kind, filtered by sub-account and days', async () => {
    const s = await open();
    const d1 = new Date('2026-01-05T10:00:00Z');
    const d2 = new Date('2026-01-06T23:59:00Z');
    await s.countUsage('simple', 'acme', d1);
    await s.countUsage('simple', 'acme', d1);
    await s.countUsage('verbose', 'acme', d2);
    await s.countUsage('campaign-validation', 'acme', d2);
    await s.countUsage('validation', undefined, d2);
    await s.recordScan(scan({ endpoint: 'verbose', subAccountId: 'beta', createdAt: d1 }));
    expect(await s.usage({ subAccountId: 'acme' })).toEqual({
      subAccountId: 'acme', from: null, to: null,
      days: [
        { day: '2026-01-05', subAccountId: 'acme', simple: 2, verbose: 0, validation: 0, campaignValidation: 0, total: 2 },
        { day: '2026-01-06', subAccountId: 'acme', simple: 0, verbose: 1, validation: 0, campaignValidation: 1, total: 2 },
      ],
      totals: { simple: 2, verbose: 1, validation: 0, campaignValidation: 1, total: 4 },
    });
    const all = await s.usage({ from: '2026-01-06', to: '2026-01-06' });
    expect(all.days.map((d) => [d.day, d.subAccountId, d.total])).toEqual([['2026-01-06', null, 1], ['2026-01-06', 'acme', 2]]);
    expect((await s.usage({ from: '2026-01-05', to: '2026-01-05' })).totals).toEqual({ simple: 2, verbose: 1, validation: 0, campaignValidation: 0, total: 3 });
  });

  it('concurrent writers on two connections: every count and scan adds up', async () => {
    const where = freshStore(backend);
    const a = await open(where);
    const b = await open(where);
    const at = new Date('2026-02-01T00:00:00Z');
    await Promise.all([
      ...Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).countUsage('simple', 'c', at)),
      ...Array.from({ length: 20 }, (_, i) => (i % 2 ? b : a).recordScan(scan({ trackingId: `cc-${i}`, subAccountId: 'c', createdAt: at }))),
    ]);
    expect((await a.usage({ subAccountId: 'c' })).totals.simple).toBe(60);
    expect(await b.scanCount()).toBe(20);
  });

  it('similarity hook: same file, same fingerprint, container scope, shared referenceId, endpoint kinds', async () => {
    const s = await open();
    await s.recordScan(scan({ trackingId: 'a', contentHash: 'H', userId: 'u1', referenceId: 'r1', endpoint: 'campaign-validation' }));
    await s.recordScan(scan({ trackingId: 'b', contentHash: 'other', fingerprint: 'm|2024-01-01|9.99|', containerId: 'c1', endpoint: 'campaign-validation' }));
    await s.recordScan(scan({ trackingId: 'c', contentHash: 'H', endpoint: 'simple', containerId: 'c2' }));
    const q = { contentHash: 'H', fingerprint: 'm|2024-01-01|9.99|', perceptualHash: null };
    expect((await findSimilarReceipts(s, q)).map((m) => [m.trackingId, m.similarityScore, m.basis])).toEqual([
      ['c', 1, 'same file'], ['a', 1, 'same file'], ['b', 0.95, 'same merchant, date, total and receipt number'],
    ]);
    expect((await findSimilarReceipts(s, q)).find((m) => m.trackingId === 'a')).toEqual({ referenceId: 'r1', userId: 'u1', trackingId: 'a', similarityScore: 1, basis: 'same file' });
    expect((await findSimilarReceipts(s, { ...q, containerId: 'c1' })).map((m) => m.trackingId)).toEqual(['b']);
    expect((await findSimilarReceipts(s, { ...q, referenceId: 'r1' })).map((m) => m.trackingId)).toEqual(['c', 'b']);
    expect((await findSimilarReceipts(s, { ...q, kinds: ['validation', 'campaign-validation'] })).map((m) => m.trackingId)).toEqual(['a', 'b']);
    expect(await findSimilarReceipts(s, { contentHash: 'nothing', fingerprint: null, perceptualHash: null })).toEqual([]);
  });

  it('similarity candidates: most shared keys first within the scope, plus the newest scans', async () => {
    const s = await open();
    const sig = { version: 1 } as never;
    await s.recordScan(scan({ trackingId: 'k3', similarity: { signature: sig, keys: ['a', 'b', 'c', 'a'] } }));
    await s.recordScan(scan({ trackingId: 'k1', similarity: { signature: sig, keys: ['a'] } }));
    await s.recordScan(scan({ trackingId: 'k2', containerId: 'box', similarity: { signature: sig, keys: ['a', 'b'] } }));
    for (let i = 0; i < 5; i++) await s.recordScan(scan({ trackingId: `n${i}` }));
    const byKeys = await s.similarityCandidates(['a', 'b', 'c'], {}, { byKeys: 2, recent: 0 });
    expect(byKeys.map((c) => c.trackingId)).toEqual(['k2', 'k3']); // the two sharing most keys, newest first
    expect(byKeys[0]).toMatchObject({ similarityJson: '{"version":1}', subjectJson: null });
    expect((await s.similarityCandidates(['a', 'b', 'c'], { containerId: 'box' }, { byKeys: 5, recent: 0 })).map((c) => c.trackingId)).toEqual(['k2']);
    expect((await s.similarityCandidates([], {}, { byKeys: 5, recent: 2 })).map((c) => c.trackingId)).toEqual(['n4', 'n3']);
    expect((await s.similarityCandidates(['zzz'], {}, { byKeys: 5, recent: 0 }))).toEqual([]);
    expect(await s.hasSimilarity('k1')).toBe(true);
    expect(await s.hasSimilarity('n1')).toBe(false);
  });

  it('campaigns: create once, get, list oldest first, update, delete', async () => {
    const s = await open();
    expect(await s.createCampaign('b-camp', { balanceOwing: { max: 1 } })).toBe(true);
    expect(await s.createCampaign('b-camp', {})).toBe(false);
    await new Promise((r) => setTimeout(r, 5));
    expect(await s.createCampaign('a-camp', {})).toBe(true);
    expect(await s.getCampaign('b-camp')).toEqual({ balanceOwing: { max: 1 } });
    expect(await s.getCampaign('none')).toBeUndefined();
    expect(await s.listCampaigns()).toEqual(['b-camp', 'a-camp']);
    expect(await s.updateCampaign('b-camp', { balanceOwing: { max: 2 } })).toBe(true);
    expect(await s.updateCampaign('none', {})).toBe(false);
    expect(await s.getCampaign('b-camp')).toEqual({ balanceOwing: { max: 2 } });
    expect(await s.deleteCampaign('b-camp')).toBe(true);
    expect(await s.deleteCampaign('b-camp')).toBe(false);
    expect(await s.listCampaigns()).toEqual(['a-camp']);
  });

  it('enrichment lists: replace, append by key, revisions, seen through another connection', async () => {
    const where = freshStore(backend);
    const a = await open(where);
    const b = await open(where);
    expect(await a.listRevisions()).toEqual({});
    expect(await a.writeList('merchants', [{ key: 'm1', json: '{"id":"m1"}' }, { key: null, json: '{"n":1}' }], 'replace')).toBe(2);
    const r1 = (await b.listRevisions()).merchants;
    expect(r1).toMatch(/^[0-9a-f]{64}$/);
    expect(await a.writeList('merchants', [{ key: 'm1', json: '{"id":"m1","v":2}' }, { key: 'm2', json: '{"id":"m2"}' }], 'append')).toBe(3);
    expect(await b.listRows('merchants')).toEqual(['{"id":"m1","v":2}', '{"n":1}', '{"id":"m2"}']);
    expect((await b.listRevisions()).merchants).not.toBe(r1);
    expect(await a.writeList('merchants', [], 'replace')).toBe(0);
    expect(await b.listRevisions()).toEqual({ merchants: '' });
    expect(await b.listRows('productCodes')).toEqual([]);
  });
});

describe.each(BACKENDS)('engine with a store (%s)', (backend) => {
  let dir: string;
  let where: ReturnType<typeof freshStore>;
  let engine: Engine;
  const count = async (sql = 'SELECT CAST(count(*) AS INTEGER) AS n FROM scans', ...args: unknown[]) => (await readRows(where, sql, ...args))[0].n as number;
  beforeAll(async () => {
    dir = tmp();
    where = freshStore(backend);
    engine = await createEngine({ workers: 1, ...where });
  });
  afterAll(async () => { await engine?.close(); });
  afterEach(() => { vi.restoreAllMocks(); });

  if (backend === 'sqlite') {
    it('a bad storePath is INVALID_OPTION naming it', async () => {
      await expect(createEngine({ storePath: path.join(dir, 'missing-dir', 'x.db') })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'storePath' });
    });
  }

  it('stores each scan with its hashes, fingerprint and caller ids; the same call again is answered from the store without OCR', async () => {
    const ocr = vi.spyOn(OcrPool.prototype, 'readPage');
    const ids = { userId: 'u-17', referenceId: 'ref-1', containerId: 'box-1', subAccountId: 'shop-a' };
    const first = await engine.extract(RECEIPT, ids) as SimpleResult;
    expect(ocr).toHaveBeenCalledTimes(1);
    const stored = await readRows(where, 'SELECT * FROM scans');
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
    expect(await count()).toBe(2); // every call is a scan

    // the same bytes in another input form hit the same stored result
    await engine.extract(readFileSync(RECEIPT));
    await engine.extract({ image: readFileSync(RECEIPT).toString('base64') });
    expect(ocr).toHaveBeenCalledTimes(1);
  });

  it('refresh: true re-processes; other result-affecting options are other keys', async () => {
    const ocr = vi.spyOn(OcrPool.prototype, 'readPage');
    const r = await engine.extract(RECEIPT, { refresh: true }) as SimpleResult;
    expect(ocr).toHaveBeenCalledTimes(1);
    expect(r.totalAmount).toMatchObject({ data: 29.05 });
    await engine.extract(RECEIPT, { extractTime: true });
    expect(ocr).toHaveBeenCalledTimes(2);
    await engine.extract(RECEIPT, { extractTime: true });
    expect(ocr).toHaveBeenCalledTimes(2);
  });

  it('a stored verbose result gets a new trackingId and lists the earlier scans as similar', async () => {
    const ocr = vi.spyOn(OcrPool.prototype, 'readPage');
    const a = await engine.extract(RECEIPT, { verbose: true, containerId: 'v' }) as VerboseResult;
    expect(ocr).toHaveBeenCalledTimes(1);
    expect(a.similarReceipts).toEqual([]); // nothing else in container v yet
    const b = await engine.extract(RECEIPT, { verbose: true, containerId: 'v', userId: 'u-2' }) as VerboseResult;
    expect(ocr).toHaveBeenCalledTimes(1);
    expect(b.trackingId).not.toBe(a.trackingId);
    expect(b.totalAmount).toEqual(a.totalAmount);
    expect(b.similarReceipts).toEqual([{ trackingId: a.trackingId, similarityScore: 1 }]);
    expect(Object.keys(b)).toEqual(Object.keys(a));
    expect(await readRows(where, 'SELECT user_id FROM scans WHERE tracking_id = ?', b.trackingId)).toEqual([{ user_id: 'u-2' }]);
  });

  it('incognito stores nothing (and a later call must OCR); usage still counts the call', async () => {
    const ocr = vi.spyOn(OcrPool.prototype, 'readPage');
    const before = await count();
    const us = path.join(FIX, 'receipt-us.jpg');
    const r = await engine.extract(us, { incognito: true, verbose: true, userId: 'secret', subAccountId: 'shop-b' }) as VerboseResult;
    expect(r.totalAmount).toMatchObject({ data: 30.62 });
    expect(await count()).toBe(before);
    expect(await count("SELECT CAST(count(*) AS INTEGER) AS n FROM scans WHERE user_id = 'secret' OR content_hash = ?", sha(readFileSync(us)))).toBe(0);
    await engine.extract(us, { verbose: true, subAccountId: 'shop-b' });
    expect(ocr).toHaveBeenCalledTimes(2);
    expect(await count()).toBe(before + 1);
    expect((await engine.usage({ subAccountId: 'shop-b' })).totals).toEqual({ simple: 0, verbose: 2, validation: 0, campaignValidation: 0, total: 2 });
  });

  it('usage summary per sub-account and day', async () => {
    // shop-a's two calls were made by earlier tests on the day the clock said then: today, or yesterday
    // as well when the run crossed midnight (UTC)
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const mine = (await engine.usage({ subAccountId: 'shop-a' })).days;
    expect(mine.length).toBeGreaterThanOrEqual(1);
    for (const d of mine) expect([today, yesterday]).toContain(d.day);
    const first = mine[0]!.day, last = mine[mine.length - 1]!.day;
    const u = await engine.usage({ subAccountId: 'shop-a', from: first, to: last });
    expect(u.days).toEqual(mine);
    expect(u.days.every((d) => d.subAccountId === 'shop-a' && d.verbose === 0 && d.validation === 0 && d.campaignValidation === 0)).toBe(true);
    expect(u.totals).toEqual({ simple: 2, verbose: 0, validation: 0, campaignValidation: 0, total: 2 });
    // a range after the calls holds none of them
    const tomorrow = new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect((await engine.usage({ subAccountId: 'shop-a', from: tomorrow, to: tomorrow })).days).toEqual([]);
    const all = await engine.usage();
    expect(all.days.map((d) => d.subAccountId)).toEqual([null, 'shop-a', 'shop-b']);
    expect(all.totals.total).toBe(all.days.reduce((a, d) => a + d.total, 0));
    expect((await engine.usage({ from: '2000-01-01', to: '2000-01-02' })).days).toEqual([]);
    await expect(engine.usage({ from: '2026-13-01' })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'from' });
    await expect(engine.usage({ from: '2026-02-02', to: '2026-02-01' })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'to' });
  });

  it('a second engine on the same store sees the first one\'s scans and campaigns, and both write', async () => {
    const other = await createEngine({ workers: 1, ...where });
    const before = await count();
    try {
      const ocr = vi.spyOn(OcrPool.prototype, 'readPage');
      await other.extract(RECEIPT, { subAccountId: 'second' }); // stored by the first engine
      expect(ocr).not.toHaveBeenCalled();
      await engine.campaigns.create('shared', { balanceOwing: { max: 0 } });
      expect(await other.campaigns.get('shared')).toEqual({ balanceOwing: { max: 0 } });
      await Promise.all([
        ...Array.from({ length: 10 }, () => other.extract(RECEIPT, { subAccountId: 'second' })),
        ...Array.from({ length: 10 }, () => engine.extract(RECEIPT, { subAccountId: 'second' })),
      ]);
      expect((await engine.usage({ subAccountId: 'second' })).totals.simple).toBe(21);
      if ('storePath' in where) expect(rows(where.storePath, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(await count()).toBe(before + 21); // every call stored one, through either engine
    } finally {
      await other.close();
    }
  });

  if (backend === 'sqlite') it('without storePath the store is in memory: no file is written', async () => {
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
    const e = await createEngine({ workers: 1, ...freshStore(backend) });
    await e.close();
    await expect(e.usage()).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
    await expect(e.campaigns.list()).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
    await expect(e.validate(RECEIPT, {})).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
    await e.close(); // idempotent
  });
});
