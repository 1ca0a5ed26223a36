/**
 * The server's validation and campaign endpoints (contract sections 4-6): inline validation by file
 * and URL (a per-account feature), campaign create/list/get/update/delete and validation by file and
 * URL, per-account stores. The digital invoice PDF needs no OCR, so these requests are quick.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync, mkdtempSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { VALIDATION_RESULT_KEYS } from '../src/contract/validation.js';
import { KEY_A, KEY_B, postForm, raw, sendJsonBody, start } from './helpers/server.js';
import type { Started } from './helpers/server.js';
import { startHttps } from './helpers/https-server.js';
import type { TestHttps } from './helpers/https-server.js';

const FIX = path.resolve(__dirname, '..', 'fixtures');
const PDF = readFileSync(path.join(FIX, 'invoice.pdf'));
const TEXT = Buffer.from('plain text, not a receipt');
const V = '/api/validation/v1';

const APRIL = { date: { start: '2024-04-01', end: '2024-04-30' }, merchantNames: { allowList: ['Nordlicht Design'] } };
const MAY = { date: { start: '2024-05-01', end: '2024-05-31' } };
const errorShape = (status: number, error: string) => ({ statusCode: status, error, message: expect.any(String) });

let s: Started;
let https: TestHttps;
beforeAll(async () => {
  https = await startHttps((req, res) => {
    if (req.url === '/invoice.pdf') { res.writeHead(200, { 'content-type': 'application/pdf' }); res.end(PDF); return; }
    res.writeHead(404); res.end();
  });
  s = await start({}, { fetch: { allowAddresses: ['127.0.0.1'], ca: https.ca } });
});
afterAll(async () => { await s?.server.close(); await https?.close(); });

describe('inline validation', () => {
  it('file: passes and fails with reasons; the result has the keys of contract section 4 in order', async () => {
    let res = await postForm(`${s.url}${V}/receipt-validation/file`, KEY_A, [{ name: 'file', file: PDF, filename: 'invoice.pdf' }, { name: 'validation', value: JSON.stringify(APRIL) }]);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json)).toEqual([...VALIDATION_RESULT_KEYS]);
    expect(res.json.successful).toBe(true);
    expect(res.json.passedValidations).toEqual(expect.arrayContaining(['campaign_date_validated', 'merchant_name_validated']));
    expect(res.json.failedValidations).toEqual([]);
    expect(res.json.totalAmount).toBe(2320.5);
    res = await postForm(`${s.url}${V}/receipt-validation/file`, KEY_A, [{ name: 'file', file: PDF }, { name: 'validation', value: JSON.stringify(MAY) }, { name: 'refresh', value: 'true' }]);
    expect(res.status, res.text).toBe(200);
    expect(res.json.successful).toBe(false);
    expect(res.json.failedValidations).toEqual(['campaign_date_validated']);
    expect(res.json.reasons.campaign_date_validated).toMatch(/2024-04-18/);
  });

  it('url: validation is an object', async () => {
    const res = await sendJsonBody(`${s.url}${V}/receipt-validation/url`, KEY_A, { url: `${https.origin}/invoice.pdf`, validation: APRIL, incognito: true });
    expect(res.status, res.text).toBe(200);
    expect(res.json.successful).toBe(true);
  });

  it('403 with a clear message when the account does not enable it (before the body is read)', async () => {
    const before = https.seen.length;
    let res = await postForm(`${s.url}${V}/receipt-validation/file`, KEY_B, [{ name: 'file', file: PDF }, { name: 'validation', value: '{}' }]);
    expect(res.status).toBe(403);
    expect(res.json).toEqual(errorShape(403, 'Forbidden'));
    expect(res.json.message).toMatch(/inline validation is not enabled for this account/);
    res = await sendJsonBody(`${s.url}${V}/receipt-validation/url`, KEY_B, { url: `${https.origin}/invoice.pdf`, validation: {} });
    expect(res.status).toBe(403);
    expect(https.seen.length).toBe(before); // nothing was fetched
  });

  it('400 naming the parameter or the rule', async () => {
    const form = (validation?: string, extra: Array<{ name: string; value: string }> = []) => postForm(`${s.url}${V}/receipt-validation/file`, KEY_A,
      [{ name: 'file', file: PDF }, ...(validation !== undefined ? [{ name: 'validation', value: validation }] : []), ...extra]);
    const cases: Array<[Promise<Awaited<ReturnType<typeof raw>>>, RegExp]> = [
      [form(), /^validation: the rule set is required/],
      [form('{not json'), /^validation: not valid JSON/],
      [form('[1]'), /^validation: must be a JSON object/],
      [form(JSON.stringify({ date: { start: '2024-04-01' } })), /date\.end/],
      [form(JSON.stringify({ date: { start: '2024-04-01', end: '2024-13-01' } })), /date\.end/],
      [form(JSON.stringify({ balanceOwing: {} })), /balanceOwing\.max/],
      [form(JSON.stringify({ colour: 'red' })), /colour/],
      [form('{}', [{ name: 'incognito', value: 'no' }]), /^incognito: must be true or false/],
      [form('{}', [{ name: 'verbose', value: 'true' }]), /^verbose: not a parameter/],
      [sendJsonBody(`${s.url}${V}/receipt-validation/url`, KEY_A, { url: `${https.origin}/invoice.pdf`, validation: [] }), /^validation: must be an object/],
      [sendJsonBody(`${s.url}${V}/receipt-validation/url`, KEY_A, { url: `${https.origin}/invoice.pdf`, validation: { merchantNames: { allowList: [''] } } }), /merchantNames\.allowList\.0/],
      [sendJsonBody(`${s.url}${V}/receipt-validation/url`, KEY_A, { validation: {} }), /^url: is required/],
    ];
    const before = https.seen.length;
    for (const [p, why] of cases) {
      const res = await p;
      expect(res.status, res.text).toBe(400);
      expect(res.json).toEqual(errorShape(400, 'Bad Request'));
      expect(res.json.message).toMatch(why);
    }
    expect(https.seen.length).toBe(before); // bad requests fetch nothing
  });

  it('415 and 422 from the file', async () => {
    let res = await postForm(`${s.url}${V}/receipt-validation/file`, KEY_A, [{ name: 'file', file: TEXT }, { name: 'validation', value: '{}' }]);
    expect(res.status).toBe(415);
    res = await postForm(`${s.url}${V}/receipt-validation/file`, KEY_A, [{ name: 'file', file: PDF.subarray(0, 200) }, { name: 'validation', value: '{}' }]);
    expect(res.status).toBe(422);
  });
});

describe('campaigns', () => {
  it('create (201, exact body), conflict (409), list, get, update, delete, not found (404)', async () => {
    const id = 'summer-2026';
    let res = await sendJsonBody(`${s.url}${V}/campaign/settings/create/${id}`, KEY_A, APRIL);
    expect(res.status, res.text).toBe(201);
    expect(res.text).toBe('{"result":"Successfully created campaign settings","statusCode":201}');
    res = await sendJsonBody(`${s.url}${V}/campaign/settings/create/${id}`, KEY_A, MAY);
    expect(res.status).toBe(409);
    expect(res.json).toEqual(errorShape(409, 'Conflict'));
    res = await raw(`${s.url}${V}/campaign/settings/list`, { headers: { apikey: KEY_A } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual([id]);
    res = await raw(`${s.url}${V}/campaign/settings/${id}`, { headers: { apikey: KEY_A } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject(APRIL);
    res = await sendJsonBody(`${s.url}${V}/campaign/settings/update/${id}`, KEY_A, MAY, 'PUT');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ result: 'Successfully updated campaign settings', statusCode: 200 });
    res = await raw(`${s.url}${V}/campaign/settings/${id}`, { headers: { apikey: KEY_A } });
    expect(res.json).toEqual(MAY); // the whole settings were replaced
    res = await raw(`${s.url}${V}/campaign/settings/delete/${id}`, { method: 'DELETE', headers: { apikey: KEY_A } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ result: 'Successfully deleted campaign settings', statusCode: 200 });
    for (const [method, p] of [['GET', `settings/${id}`], ['DELETE', `settings/delete/${id}`]] as const) {
      res = await raw(`${s.url}${V}/campaign/${p}`, { method, headers: { apikey: KEY_A } });
      expect(res.status, p).toBe(404);
      expect(res.json).toEqual({ statusCode: 404, error: 'Not Found', message: `Cannot find settings for the campaign ID - ${id}` });
    }
    res = await sendJsonBody(`${s.url}${V}/campaign/settings/update/${id}`, KEY_A, MAY, 'PUT');
    expect(res.status).toBe(404);
  });

  it('campaign ids: percent-decoded from the path, 1..50 characters', async () => {
    let res = await sendJsonBody(`${s.url}${V}/campaign/settings/create/spring%20sale`, KEY_A, {});
    expect(res.status, res.text).toBe(201);
    res = await raw(`${s.url}${V}/campaign/settings/list`, { headers: { apikey: KEY_A } });
    expect(res.json).toContain('spring sale');
    res = await sendJsonBody(`${s.url}${V}/campaign/settings/create/${'x'.repeat(51)}`, KEY_A, {});
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/^campaignId: is longer than 50/);
    res = await sendJsonBody(`${s.url}${V}/campaign/settings/create/bad%zz`, KEY_A, {});
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/percent-encoding/);
  });

  it('settings are checked (400 naming the field) and must be JSON (415)', async () => {
    let res = await sendJsonBody(`${s.url}${V}/campaign/settings/create/checked`, KEY_A, { balanceOwing: { max: -1 } });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/balanceOwing\.max/);
    res = await raw(`${s.url}${V}/campaign/settings/create/checked`, { method: 'POST', headers: { apikey: KEY_A, 'content-type': 'text/plain' }, body: '{}' });
    expect(res.status).toBe(415);
    res = await raw(`${s.url}${V}/campaign/settings/checked`, { headers: { apikey: KEY_A } });
    expect(res.status).toBe(404); // nothing was stored
  });

  it('validate a receipt against a campaign, by file and by URL; the scan is stored for duplicate checks', async () => {
    const id = 'april-promo';
    expect((await sendJsonBody(`${s.url}${V}/campaign/settings/create/${id}`, KEY_A, { ...APRIL, fraudDetection: { allowSimilarityCheck: true } })).status).toBe(201);
    let res = await postForm(`${s.url}${V}/campaign/receipt-validation/file`, KEY_A, [{ name: 'campaignId', value: id }, { name: 'file', file: PDF }, { name: 'userId', value: 'u-17' }, { name: 'referenceId', value: 'ref-1' }]);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json)).toEqual([...VALIDATION_RESULT_KEYS]);
    expect(res.json.passedValidations).toEqual(expect.arrayContaining(['campaign_date_validated', 'merchant_name_validated']));
    const first = res.json.trackingId;
    res = await sendJsonBody(`${s.url}${V}/campaign/receipt-validation/url`, KEY_A, { campaignId: id, url: `${https.origin}/invoice.pdf`, userId: 'u-18', referenceId: 'ref-2' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.similarReceipts.map((r: { trackingId: string }) => r.trackingId)).toContain(first);
    expect(res.json.failedValidations).toContain('fraud_detection_unique_receipt_validated');
  });

  it('campaign validation: 404 for an unknown campaign (before fetching), 400 without campaignId', async () => {
    const before = https.seen.length;
    let res = await sendJsonBody(`${s.url}${V}/campaign/receipt-validation/url`, KEY_A, { campaignId: 'nope', url: `${https.origin}/invoice.pdf` });
    expect(res.status).toBe(404);
    expect(res.json.message).toBe('Cannot find settings for the campaign ID - nope');
    expect(https.seen.length).toBe(before);
    res = await postForm(`${s.url}${V}/campaign/receipt-validation/file`, KEY_A, [{ name: 'campaignId', value: 'nope' }, { name: 'file', file: PDF }]);
    expect(res.status).toBe(404);
    res = await postForm(`${s.url}${V}/campaign/receipt-validation/file`, KEY_A, [{ name: 'file', file: PDF }]);
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/^campaignId: is required/);
  });

  it('campaigns belong to the account of the key', async () => {
    expect((await sendJsonBody(`${s.url}${V}/campaign/settings/create/acme-only`, KEY_A, {})).status).toBe(201);
    let res = await raw(`${s.url}${V}/campaign/settings/list`, { headers: { apikey: KEY_B } });
    expect(res.json).not.toContain('acme-only');
    res = await raw(`${s.url}${V}/campaign/settings/acme-only`, { headers: { apikey: KEY_B } });
    expect(res.status).toBe(404);
    // beta may use campaigns (only inline validation is a per-account feature)
    expect((await sendJsonBody(`${s.url}${V}/campaign/settings/create/acme-only`, KEY_B, {})).status).toBe(201);
  });
});

describe('per-account stores on disk', () => {
  it('campaigns survive a restart with dataDir, one store file per account', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rk-store-'));
    let s1 = await start({ dataDir });
    try {
      expect((await sendJsonBody(`${s1.url}${V}/campaign/settings/create/kept`, KEY_A, APRIL)).status).toBe(201);
    } finally {
      await s1.server.close();
    }
    expect(existsSync(path.join(dataDir, 'acme.db'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'beta.db'))).toBe(true);
    s1 = await start({ dataDir });
    try {
      expect((await raw(`${s1.url}${V}/campaign/settings/list`, { headers: { apikey: KEY_A } })).json).toEqual(['kept']);
      expect((await raw(`${s1.url}${V}/campaign/settings/list`, { headers: { apikey: KEY_B } })).json).toEqual([]);
    } finally {
      await s1.server.close();
    }
  });
});
