/**
 * Campaigns (contract section 5): lifecycle, messages and status codes, id rules, settings checked by
 * the rule-set schema, persistence in the store file, and validation against a campaign, which stores
 * the scan so that the same receipt (same file, or the same purchase in another photo) is flagged the
 * next time.
 */
import { describe, it, expect, vi, beforeAll, afterAll, afterEach } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteDb } from '../src/store/sqlite.js';
import sharp from 'sharp';
import { createEngine, ReceiptKitError } from '../src/index.js';
import type { Engine, ValidationRules } from '../src/index.js';
import { OcrPool } from '../src/ocr/pool.js';

const FIX = path.resolve(__dirname, '../fixtures');
const RECEIPT = path.join(FIX, 'receipt-en-simple.png');
const exp = JSON.parse(readFileSync(path.join(FIX, 'receipt-en-simple.expected.json'), 'utf8'));

const settings: ValidationRules = {
  date: { start: '2024-03-01', end: '2024-03-31' },
  merchantNames: { allowList: ['Kedai Makan Seri Murni'], returnFromTheList: true },
  fraudDetection: { allowSimilarityCheck: true },
};

let dir: string;
let file: string;
let engine: Engine;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'rk-campaigns-'));
  file = path.join(dir, 'campaigns.db');
  engine = await createEngine({ workers: 1, storePath: file });
});
afterAll(async () => { await engine?.close(); });
afterEach(() => { vi.restoreAllMocks(); });

function scans(sql = 'SELECT * FROM scans ORDER BY id'): any[] {
  const db = new SqliteDb(file, { readOnly: true });
  try { return db.all(sql); } finally { db.close(); }
}

async function error(p: Promise<unknown>): Promise<ReceiptKitError> {
  try { await p; } catch (e) { expect(e).toBeInstanceOf(ReceiptKitError); return e as ReceiptKitError; }
  throw new Error('resolved');
}

describe('campaign settings', () => {
  it('create returns the contract body; create again is CAMPAIGN_EXISTS (409)', async () => {
    expect(await engine.campaigns.create('summer-2026', settings)).toEqual({ result: 'Successfully created campaign settings', statusCode: 201 });
    const e = await error(engine.campaigns.create('summer-2026', { balanceOwing: { max: 1 } }));
    expect(e).toMatchObject({ code: 'CAMPAIGN_EXISTS', status: 409, field: 'campaignId' });
    expect(e.message).toBe('Campaign settings already exist for the campaign ID - summer-2026');
    expect(await engine.campaigns.get('summer-2026')).toEqual(settings); // unchanged
  });

  it('get, list, update (replaces the whole settings), delete', async () => {
    await engine.campaigns.create('winter', { balanceOwing: { max: 0 } });
    expect(await engine.campaigns.list()).toEqual(['summer-2026', 'winter']);
    expect(await engine.campaigns.update('winter', { productCodes: { list: ['123456'] } })).toEqual({ result: 'Successfully updated campaign settings', statusCode: 200 });
    expect(await engine.campaigns.get('winter')).toEqual({ productCodes: { list: ['123456'] } });
    expect(await engine.campaigns.delete('winter')).toEqual({ result: 'Successfully deleted campaign settings', statusCode: 200 });
    expect(await engine.campaigns.list()).toEqual(['summer-2026']);
  });

  it('a missing campaign is CAMPAIGN_NOT_FOUND (404) with the contract message, for get, update, delete and validate', async () => {
    const ocr = vi.spyOn(OcrPool.prototype, 'readPage');
    for (const p of [
      engine.campaigns.get('nope'),
      engine.campaigns.update('nope', {}),
      engine.campaigns.delete('nope'),
      engine.campaigns.validate('nope', RECEIPT),
    ]) {
      const e = await error(p);
      expect(e).toMatchObject({ code: 'CAMPAIGN_NOT_FOUND', status: 404 });
      expect(e.message).toBe('Cannot find settings for the campaign ID - nope');
    }
    expect(ocr).not.toHaveBeenCalled();
  });

  it('ids are 1..50 characters', async () => {
    const fifty = 'c'.repeat(50);
    await engine.campaigns.create(fifty, {});
    expect(await engine.campaigns.get(fifty)).toEqual({});
    await engine.campaigns.delete(fifty);
    for (const bad of ['', 'c'.repeat(51), 42 as unknown as string]) {
      const e = await error(engine.campaigns.create(bad, {}));
      expect(e).toMatchObject({ code: 'INVALID_OPTION', status: 400, field: 'campaignId' });
    }
    expect(await engine.campaigns.list()).toEqual(['summer-2026']);
  });

  it('settings are checked by the rule-set schema, naming the field; nothing is stored', async () => {
    const e = await error(engine.campaigns.create('bad', { date: { start: '2024-01-01', end: 'soon' } }));
    expect(e).toMatchObject({ code: 'INVALID_OPTION', field: 'date.end' });
    expect(e.message).toMatch(/^campaign settings: date\.end: must be an ISO 8601 date/);
    const u = await error(engine.campaigns.update('summer-2026', { merchantNames: { allowList: ['x'], returnFromList: true } } as never));
    expect(u).toMatchObject({ code: 'INVALID_OPTION', field: 'merchantNames.returnFromList' });
    expect(await engine.campaigns.list()).toEqual(['summer-2026']);
    expect(await engine.campaigns.get('summer-2026')).toEqual(settings);
  });

  it('campaigns persist in the store file', async () => {
    const again = await createEngine({ workers: 1, storePath: file });
    try {
      expect(await again.campaigns.list()).toEqual(['summer-2026']);
      expect(await again.campaigns.get('summer-2026')).toEqual(settings);
    } finally { await again.close(); }
  });
});

describe('validation against a campaign', () => {
  it('passes a new receipt and stores the scan with the campaign id and the caller ids', async () => {
    const r = await engine.campaigns.validate('summer-2026', RECEIPT, { userId: 'u-17', referenceId: 'sub-1', subAccountId: 'brand-x' });
    expect(r.failedValidations, JSON.stringify(r.reasons)).toEqual([]);
    expect(r.passedValidations).toEqual(['campaign_date_validated', 'merchant_name_validated', 'fraud_detection_unique_receipt_validated']);
    expect(r.merchantName).toBe('Kedai Makan Seri Murni');
    expect(r.totalAmount).toBe(exp.totalAmount);
    const rows = scans();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tracking_id: r.trackingId, endpoint: 'campaign-validation', campaign_id: 'summer-2026', user_id: 'u-17', reference_id: 'sub-1', sub_account_id: 'brand-x' });
    expect(JSON.parse(rows[0].result_json)).toEqual(r);
  });

  it('the same file again is a likely duplicate, found without OCR', async () => {
    const ocr = vi.spyOn(OcrPool.prototype, 'readPage');
    const first = scans()[0];
    const r = await engine.campaigns.validate('summer-2026', RECEIPT, { userId: 'u-99' });
    expect(ocr).not.toHaveBeenCalled();
    expect(r.successful).toBe(false);
    expect(r.failedValidations).toEqual(['fraud_detection_unique_receipt_validated']);
    expect(r.reasons.fraud_detection_unique_receipt_validated).toBe(`likely duplicate of receipt ${first.tracking_id} (user u-17, reference sub-1): same file (similarity 1.00)`);
    expect(r.similarReceipts).toEqual([{ referenceId: 'sub-1', userId: 'u-17', trackingId: first.tracking_id, similarityScore: 1 }]);
    expect(r.trackingId).not.toBe(first.tracking_id);
    expect(scans()).toHaveLength(2);
  });

  it('receipts sharing a referenceId are not flagged against each other; a containerId scopes the check', async () => {
    const same = await engine.campaigns.validate('summer-2026', RECEIPT, { referenceId: 'sub-1' });
    expect(same.similarReceipts.map((s) => s.referenceId ?? null)).toEqual([null]); // only the u-99 scan, which had no referenceId
    const boxed = await engine.campaigns.validate('summer-2026', RECEIPT, { containerId: 'store-7' });
    expect(boxed.successful, JSON.stringify(boxed.reasons)).toBe(true);
    expect(boxed.reasons.fraud_detection_unique_receipt_validated).toBe('no earlier receipt in container "store-7" is a likely duplicate (the same file, or a similarity above 0.9 from the image, merchant, date, time, total, number, amounts and text)');
    const boxedAgain = await engine.campaigns.validate('summer-2026', RECEIPT, { containerId: 'store-7' });
    expect(boxedAgain.failedValidations).toEqual(['fraud_detection_unique_receipt_validated']);
    expect(boxedAgain.similarReceipts.map((s) => s.trackingId)).toEqual([boxed.trackingId]);
  });

  it('another file of the same purchase is flagged by its similarity score (image and content)', async () => {
    const ocr = vi.spyOn(OcrPool.prototype, 'readPage');
    const copy = await sharp(RECEIPT).png({ compressionLevel: 1 }).toBuffer(); // same pixels, other bytes
    expect(copy.equals(readFileSync(RECEIPT))).toBe(false);
    const r = await engine.campaigns.validate('summer-2026', copy, { containerId: 'store-7' });
    expect(ocr).toHaveBeenCalled();
    expect(r.failedValidations).toEqual(['fraud_detection_unique_receipt_validated']);
    expect(r.reasons.fraud_detection_unique_receipt_validated).toMatch(/: same merchant, date, time, total, receipt number; .*image correlation .* \(similarity 0\.9\d\)$/);
    expect(r.similarReceipts.every((s) => s.similarityScore > 0.9 && s.similarityScore < 1)).toBe(true);
  });

  it('incognito stores nothing; usage counts campaign validations per sub-account', async () => {
    const before = scans().length;
    const r = await engine.campaigns.validate('summer-2026', RECEIPT, { incognito: true, containerId: 'private', subAccountId: 'brand-x' });
    expect(r.successful).toBe(true);
    expect(scans()).toHaveLength(before);
    const again = await engine.campaigns.validate('summer-2026', RECEIPT, { incognito: true, containerId: 'private' });
    expect(again.successful).toBe(true); // the first incognito call left nothing to find
    const u = await engine.usage({ subAccountId: 'brand-x' });
    expect(u.totals).toMatchObject({ campaignValidation: 2, validation: 0, total: 2 });
  });

  it('validates with the current settings after an update', async () => {
    await engine.campaigns.create('autumn', { date: { start: '2024-09-01', end: '2024-11-30' } });
    const r = await engine.campaigns.validate('autumn', RECEIPT, { containerId: 'autumn' });
    expect(r.reasons.campaign_date_validated).toBe('date 2024-03-12 is before campaign start 2024-09-01');
    await engine.campaigns.update('autumn', { date: { start: '2024-01-01', end: '2024-03-12' } });
    const r2 = await engine.campaigns.validate('autumn', RECEIPT, { containerId: 'autumn-2' });
    expect(r2.successful).toBe(true);
    expect(scans('SELECT campaign_id FROM scans WHERE campaign_id = \'autumn\'')).toHaveLength(2);
  });
});
