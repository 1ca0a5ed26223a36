/**
 * Duplicates and similarity (issue 6): the signature of a scan (image + content), the calibrated pair
 * score, the store's candidate lookup and migration, and through the engine (real OCR on the small
 * fixtures, real SQLite files in a temp dir): copies of a fixture score above 0.9, other fixtures do
 * not, referenceId and containerId rules, incognito stores nothing, verbose results list the matches,
 * campaign validation flags a re-encoded copy.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteDb } from '../src/store/sqlite.js';
import sharp from 'sharp';
import { createEngine } from '../src/index.js';
import type { Engine, VerboseResult } from '../src/index.js';
import { ReceiptStore } from '../src/store/store.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../src/store/migrations.js';
import { findSimilarReceipts, LIST_SCORE } from '../src/store/similar.js';
import { contentSignature, TEXT_SKETCH } from '../src/similarity/content.js';
import { sketchDice, setDice, multisetDice, alignProfiles } from '../src/similarity/features.js';
import { estimateSkew, characterComponents, signatureOfGrey } from '../src/similarity/image.js';
import { inkMask } from '../src/ocr/orientation.js';
import { scorePair, defaultModel, TERMS } from '../src/similarity/score.js';
import { signatureKeys, SIGNATURE_VERSION } from '../src/similarity/index.js';
import type { SimilaritySignature } from '../src/similarity/index.js';
import { subjectFromExtraction, fingerprintOf } from '../src/validate/subject.js';
import { extraction, receiptFields, RECEIPT_LINES, loc } from './helpers/extraction.js';

const FIX = path.resolve(__dirname, '../fixtures');
const RECEIPT = path.join(FIX, 'receipt-en-simple.png');
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'rk-similarity-'));

function rows(file: string, sql: string, ...args: unknown[]): any[] {
  const db = new SqliteDb(file, { readOnly: true });
  try { return db.all(sql, ...args); } finally { db.close(); }
}

/** A content-only signature of a hand-built extraction. */
function contentOnly(lines: string[], fields = receiptFields()): SimilaritySignature {
  return { v: SIGNATURE_VERSION, image: null, content: contentSignature(subjectFromExtraction(extraction({ lines, fields }))) };
}

/** Lines of another purchase at the same shop: other day, time, number, items and total. */
const OTHER_PURCHASE = [
  'KEDAI MAKAN SERI MURNI SDN BHD',
  'NO 12, JALAN MAWAR 3, TAMAN BUNGA',
  '43300 SERI KEMBANGAN, SELANGOR',
  'RECEIPT R000377   19/03/2024 09:12',
  '1 MEE GORENG 7.90 7.90',
  '1 KOPI O 2.20 2.20',
  'SUBTOTAL 10.10',
  'SST 6% 0.61',
  'TOTAL 10.70',
  'CASH 20.00',
  'CHANGE 9.30',
];
const otherFields = () => receiptFields({
  totalAmount: loc(10.7, 8), subtotalAmount: loc(10.1, 6), taxAmount: loc(0.61, 7), paidAmount: loc(20, 9),
  date: loc('2024-03-19T12:00:00.000Z', 3), receiptNumber: loc('R000377', 3),
});

describe('signature parts', () => {
  it('content: merchant, date, total, number, times, amounts, digit runs, a trigram sketch', () => {
    const c = contentOnly(RECEIPT_LINES).content;
    expect(c).toMatchObject({ date: '2024-03-12', total: 29.05, number: 'R000123', times: ['14:35'] });
    expect(c.merchant).toMatch(/^kedalmakanserlmuml/); // OCR skeleton: i -> l, rn -> m
    expect(c.digits).toEqual(expect.arrayContaining(['43300', '12032024', '2905']));
    expect(c.textSize).toBeGreaterThan(100);
    expect(c.text.length).toBe(Math.min(TEXT_SKETCH, c.textSize));
    expect([...c.text].sort((a, b) => a - b)).toEqual(c.text);
  });

  it('overlaps: Dice of sets, multisets and bottom-k sketches', () => {
    expect(setDice(['a', 'b', 'c'], ['b', 'c', 'd'])).toBeCloseTo(2 / 3, 10);
    expect(multisetDice([1, 1, 2], [1, 2, 2])).toBeCloseTo(2 / 3, 10);
    // small sets: exact
    expect(sketchDice([1, 2, 3, 4], [3, 4, 5, 6])).toBeCloseTo(0.5, 10);
    // large sets through sketches of 256: close to the true value
    const all = Array.from({ length: 3000 }, (_, i) => (Math.imul(i + 1, 2654435761) >>> 0));
    const a = all.slice(0, 2000), b = all.slice(1000, 3000); // Jaccard 1000/3000 -> Dice 0.5
    const sketch = (v: number[]) => [...v].sort((x, y) => x - y).slice(0, 256);
    expect(Math.abs(sketchDice(sketch(a), sketch(b)) - 0.5)).toBeLessThan(0.08);
    expect(sketchDice(sketch(a), sketch(a))).toBe(1);
  });

  it('row profiles are aligned over a stretch and a shift', () => {
    const base = Uint8Array.from({ length: 96 }, (_, i) => (Math.floor(i / 3) % 2 ? 200 : 20));
    const stretched = Uint8Array.from({ length: 96 }, (_, i) => base[Math.min(95, Math.max(0, Math.round((i - 48) / 1.04 + 48 - 2)))]!);
    const fit = alignProfiles(base, stretched);
    expect(fit.r).toBeGreaterThan(0.8);
    expect(fit.scale).toBeGreaterThan(1);
  });

  it('skew: a page turned by a few degrees is measured within half a degree', async () => {
    for (const deg of [-4, 3]) {
      const { data, info } = await sharp(RECEIPT).rotate(deg, { background: '#ffffff' }).greyscale()
        .resize({ width: 800, height: 800, fit: 'inside' }).raw().toBuffer({ resolveWithObject: true });
      const img = { gray: data, width: info.width, height: info.height };
      const ink = inkMask(img, 13, 12);
      // sharp turns clockwise for positive angles: the text then runs down to the right (skew -deg)
      expect(Math.abs(estimateSkew(characterComponents(ink, img.width, img.height), img.width, img.height) + deg)).toBeLessThan(0.5);
    }
  });

  it('a blank page has no image signature', async () => {
    const { data, info } = await sharp({ create: { width: 300, height: 600, channels: 3, background: '#ffffff' } }).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect(await signatureOfGrey({ gray: data, width: info.width, height: info.height })).toBeNull();
  });

  it('lookup keys: total, date, number, amounts, long digit runs, hash bands', () => {
    const sig = contentOnly(RECEIPT_LINES);
    const withImage: SimilaritySignature = {
      ...sig,
      content: { ...sig.content, amounts: [60, 560, 1700, 2905] },
      image: { skew: 0, text: null, ink: { aspect: 2, phash: '0123456789abcdef', thumb: '', profile: '' } },
    };
    const keys = signatureKeys(withImage);
    expect(keys).toEqual(expect.arrayContaining(['t:2905', 'd:2024-03-12', 'n:R000123', 'a:2905', 'a:1700', 'a:560', 'x:12032024',
      'q0:0123', 'q1:4567', 'q2:89ab', 'q3:cdef']));
    expect(keys).not.toContain('a:60'); // small amounts are too common to look up
  });
});

describe('pair score', () => {
  it('the fitted model has a weight for every term and says how it was fitted', () => {
    const m = defaultModel();
    expect(Object.keys(m.weights).sort()).toEqual([...TERMS].sort());
    expect(m.fitted).toMatchObject({ script: 'scripts/fit-similarity.mjs' });
  });

  it('the same content scores above 0.9; another purchase at the same shop, and another shop, below', () => {
    const a = contentOnly(RECEIPT_LINES);
    expect(scorePair(a, contentOnly(RECEIPT_LINES)).score).toBeGreaterThan(0.9);
    // OCR noise on a copy: a few letters and one amount misread
    const noisy = RECEIPT_LINES.map((l) => l.replace('NASI', 'NAS1').replace('MAWAR', 'MAVVAR').replace('5.60', '5.68'));
    expect(scorePair(a, contentOnly(noisy)).score).toBeGreaterThan(0.9);
    const other = scorePair(a, contentOnly(OTHER_PURCHASE, otherFields()));
    expect(other.score).toBeLessThan(0.5);
    expect(other.basis).toMatch(/different .*date.*total/);
    const shop = scorePair(a, contentOnly(['GREENLEAF GROCERY', '100 MAIN ST', 'TOTAL 30.62', '03/07/2024 5:41 PM'], receiptFields({
      merchantName: loc('GREENLEAF GROCERY', 0), totalAmount: loc(30.62, 2), date: loc('2024-03-07T12:00:00.000Z', 3), receiptNumber: loc('004512', 3),
    })));
    expect(shop.score).toBeLessThan(0.1);
  });

  it('scores stay below 1 (kept for the same file) and are rounded to 3 decimals', () => {
    const s = scorePair(contentOnly(RECEIPT_LINES), contentOnly(RECEIPT_LINES)).score;
    expect(s).toBeLessThan(1);
    expect(Math.round(s * 1000) / 1000).toBe(s);
  });
});

describe('store: migration and candidates', () => {
  it('a schema-1 file is migrated; its scans are still found (fingerprint) and scored on their stored content', async () => {
    const file = path.join(tmp(), 'v1.db');
    const db = new SqliteDb(file);
    db.exec(MIGRATIONS[0]!.sql);
    db.pragma('user_version = 1');
    const subject = subjectFromExtraction(extraction({ lines: RECEIPT_LINES, fields: receiptFields() }));
    db.prepare(`INSERT INTO scans (tracking_id, created_at, endpoint, content_hash, result_key, extraction_key, fingerprint, result_json, subject_json)
      VALUES ('old', '2026-01-01T00:00:00.000Z', 'campaign-validation', 'h-old', 'rk', 'ek', ?, '{}', ?)`).run(fingerprintOf(subject), JSON.stringify(subject));
    db.close();
    const s = new ReceiptStore(file);
    expect(await s.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(2);
    const sig = contentOnly(RECEIPT_LINES);
    const found = await findSimilarReceipts(s, { contentHash: 'h-new', fingerprint: fingerprintOf(subject), perceptualHash: null, signature: sig });
    expect(found.map((m) => m.trackingId)).toEqual(['old']);
    expect(found[0]!.similarityScore).toBeGreaterThan(0.9);
    // another purchase: the old scan is not listed
    expect(await findSimilarReceipts(s, { contentHash: 'h-x', fingerprint: null, perceptualHash: null, signature: contentOnly(OTHER_PURCHASE, otherFields()) })).toEqual([]);
    await s.close();
  });

  it('stores the signature and its keys; finds a scan by keys beyond the recent window; trims keys with the in-memory store', async () => {
    const s = new ReceiptStore();
    const subject = subjectFromExtraction(extraction({ lines: RECEIPT_LINES, fields: receiptFields() }));
    const sig = contentOnly(RECEIPT_LINES);
    await s.recordScan({
      trackingId: 'target', endpoint: 'verbose', contentHash: 'h0', resultKey: 'rk', extractionKey: 'ek', perceptualHash: null,
      fingerprint: fingerprintOf(subject), subject, result: {}, similarity: { signature: sig, keys: signatureKeys(sig) },
    });
    const filler = contentOnly(OTHER_PURCHASE, otherFields());
    for (let i = 0; i < 250; i++) {
      await s.recordScan({
        trackingId: `f${i}`, endpoint: 'verbose', contentHash: `hf${i}`, resultKey: 'rk', extractionKey: 'ek', perceptualHash: null,
        fingerprint: null, subject, result: {}, similarity: { signature: filler, keys: signatureKeys(filler) },
      });
    }
    const cands = await s.similarityCandidates(signatureKeys(sig), {}, { byKeys: 5, recent: 10 });
    expect(cands.map((c) => c.trackingId)).toContain('target');
    expect(cands.length).toBeLessThanOrEqual(15);
    const found = await findSimilarReceipts(s, { contentHash: 'h-new', fingerprint: null, perceptualHash: null, signature: sig });
    expect(found[0]).toMatchObject({ trackingId: 'target' });
    expect(found[0]!.similarityScore).toBeGreaterThan(0.9);
    expect(found.every((m) => m.similarityScore >= LIST_SCORE)).toBe(true);
    await s.close();
  });
});

describe('engine: copies of a fixture', () => {
  let dir: string;
  let file: string;
  let engine: Engine;
  let original: VerboseResult;
  const copies: Record<string, Buffer> = {};

  beforeAll(async () => {
    dir = tmp();
    file = path.join(dir, 'scans.db');
    engine = await createEngine({ workers: 1, storePath: file });
    const meta = await sharp(RECEIPT).metadata();
    const w = meta.width!, h = meta.height!;
    copies.reencoded = await sharp(RECEIPT).jpeg({ quality: 55 }).toBuffer();
    copies.resized = await sharp(RECEIPT).resize(Math.round(w * 0.8)).png().toBuffer();
    copies.cropped = await sharp(RECEIPT).extract({ left: Math.round(w * 0.03), top: Math.round(h * 0.02), width: Math.round(w * 0.94), height: Math.round(h * 0.95) }).jpeg({ quality: 90 }).toBuffer();
    original = await engine.extract(RECEIPT, { verbose: true, containerId: 'shop-1', userId: 'u-1', referenceId: 'entry-1' });
  });
  afterAll(async () => { await engine?.close(); });

  it('stores the signature with the scan', () => {
    const [row] = rows(file, 'SELECT perceptual_hash, similarity_json FROM scans WHERE tracking_id = ?', original.trackingId);
    expect(row.perceptual_hash).toMatch(/^[0-9a-f]{16}$/);
    const sig = JSON.parse(row.similarity_json) as SimilaritySignature;
    expect(sig.v).toBe(SIGNATURE_VERSION);
    expect(sig.image?.ink ?? sig.image?.text).toBeTruthy();
    expect(sig.content).toMatchObject({ total: 29.05, date: '2024-03-12' });
    const keys = rows(file, 'SELECT key FROM scan_keys k JOIN scans s ON s.id = k.scan_id WHERE s.tracking_id = ?', original.trackingId).map((r) => r.key);
    expect(keys).toEqual(expect.arrayContaining(['t:2905', 'd:2024-03-12']));
  });

  for (const kind of ['reencoded', 'resized', 'cropped']) {
    it(`a ${kind} copy scores above 0.9 against the original, in verbose similarReceipts`, async () => {
      const r = await engine.extract(copies[kind]!, { verbose: true, containerId: 'shop-1', userId: `u-${kind}` });
      const match = r.similarReceipts.find((m) => m.trackingId === original.trackingId);
      expect(match, JSON.stringify(r.similarReceipts)).toBeDefined();
      expect(match).toMatchObject({ referenceId: 'entry-1', userId: 'u-1', trackingId: original.trackingId });
      expect(match!.similarityScore).toBeGreaterThan(0.9);
      expect(match!.similarityScore).toBeLessThan(1); // 1 is the same file
      expect(Object.keys(match!)).toEqual(['referenceId', 'userId', 'trackingId', 'similarityScore']);
    });
  }

  it('different fixtures score at most 0.9 against it (and against each other)', async () => {
    const others = ['receipt-us.jpg', 'receipt-eu.png', 'receipt-id-rotated.jpg'];
    const seen: string[] = [];
    for (const f of others) {
      const r = await engine.extract(path.join(FIX, f), { verbose: true, containerId: 'shop-1' });
      expect(r.similarReceipts.every((m) => m.similarityScore <= 0.9), `${f}: ${JSON.stringify(r.similarReceipts)}`).toBe(true);
      expect(r.similarReceipts.map((m) => m.trackingId)).not.toContain(original.trackingId);
      for (const id of seen) expect(r.similarReceipts.map((m) => m.trackingId)).not.toContain(id);
      seen.push(r.trackingId);
    }
  });

  it('scans sharing the referenceId are not listed', async () => {
    const r = await engine.extract(copies.reencoded!, { verbose: true, containerId: 'shop-1', referenceId: 'entry-1' });
    expect(r.similarReceipts.map((m) => m.trackingId)).not.toContain(original.trackingId);
    expect(r.similarReceipts.every((m) => m.referenceId !== 'entry-1')).toBe(true);
    // the copies stored earlier without that referenceId are still listed
    expect(r.similarReceipts.some((m) => m.similarityScore > 0.9)).toBe(true);
  });

  it('containerId scopes the lookup; without one the whole store is searched', async () => {
    const boxed = await engine.extract(copies.resized!, { verbose: true, containerId: 'shop-2' });
    expect(boxed.similarReceipts).toEqual([]);
    const all = await engine.extract(copies.cropped!, { verbose: true });
    expect(all.similarReceipts.map((m) => m.trackingId)).toEqual(expect.arrayContaining([original.trackingId, boxed.trackingId]));
  });

  it('incognito: the call sees similar receipts but stores nothing, so later calls never list it', async () => {
    const before = rows(file, 'SELECT count(*) AS n FROM scans')[0].n;
    const keysBefore = rows(file, 'SELECT count(*) AS n FROM scan_keys')[0].n;
    const copy = await sharp(RECEIPT).jpeg({ quality: 70 }).toBuffer();
    const r = await engine.extract(copy, { verbose: true, containerId: 'shop-3', incognito: true });
    expect(rows(file, 'SELECT count(*) AS n FROM scans')[0].n).toBe(before);
    expect(rows(file, 'SELECT count(*) AS n FROM scan_keys')[0].n).toBe(keysBefore);
    const later = await engine.extract(copies.cropped!, { verbose: true, containerId: 'shop-3' });
    expect(later.similarReceipts.map((m) => m.trackingId)).not.toContain(r.trackingId);
    expect(later.similarReceipts).toEqual([]);
  });

  it('campaign validation flags a re-encoded copy of an earlier submission, with the evidence in the reason', async () => {
    await engine.campaigns.create('dupes', { fraudDetection: { allowSimilarityCheck: true } });
    const first = await engine.campaigns.validate('dupes', RECEIPT, { containerId: 'camp', userId: 'u-1' });
    expect(first.successful, JSON.stringify(first.reasons)).toBe(true);
    const again = await engine.campaigns.validate('dupes', copies.reencoded!, { containerId: 'camp', userId: 'u-2' });
    expect(again.failedValidations).toEqual(['fraud_detection_unique_receipt_validated']);
    expect(again.reasons.fraud_detection_unique_receipt_validated).toMatch(new RegExp(`^likely duplicate of receipt ${first.trackingId} \\(user u-1\\) in container "camp": .*same .*total.* \\(similarity 0\\.9\\d\\)$`));
    expect(again.similarReceipts[0]).toMatchObject({ trackingId: first.trackingId, userId: 'u-1' });
  });
});
