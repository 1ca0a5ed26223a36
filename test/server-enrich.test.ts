/**
 * Enrichment over HTTP (`/api/account/v1/...`): import (CSV body, multipart file, JSON rows; replace
 * and append), export (text/csv), list, errors (400 naming the row and field, 413, 415), accounts kept
 * apart, lists from the config, lists surviving a restart, and extraction results using them. Real
 * HTTP requests to servers on port 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KEY_A, KEY_B, postForm, raw, sendJsonBody, start } from './helpers/server.js';
import type { Started } from './helpers/server.js';
import { makePdf } from './helpers/pdf.js';

const HEADER = 'id,name,address,city,state,postcode,country,latitude,longitude,category';
const CSV = [
  HEADER,
  'kl,Kedai Kopi Maju,"12, Jalan Tun Perak",Kuala Lumpur,,50050,MY,3.1466,101.6958,',
  'pg,Kedai Kopi Maju,"8, Lebuh Chulia",George Town,Penang,10200,MY,5.4180,100.3380,',
  'zed,"Caf\u00e9 ""Zed""","1, rue X\nEntr\u00e9e B",Lyon,,69001,FR,,,food & drink',
].join('\r\n') + '\r\n';

const csvPost = (url: string, key: string | undefined, body: string | Buffer, type = 'text/csv') =>
  raw(url, { method: 'POST', headers: { 'content-type': type, ...(key ? { apikey: key } : {}) }, body });
const get = (url: string, key?: string) => raw(url, { headers: key ? { apikey: key } : {} });

describe('server: enrichment import, export, list', () => {
  let s: Started;
  beforeAll(async () => { s = await start({ limits: { maxFileBytes: 50_000, maxFields: 5, maxFieldBytes: 1000, maxJsonBytes: 10_000 } }); });
  afterAll(async () => { await s?.server.close(); });
  const api = (p: string) => `${s.url}/api/account/v1/${p}`;

  it('CSV body in, the same CSV out (quotes, commas, line breaks, UTF-8), JSON list', async () => {
    const imp = await csvPost(api('merchants/import'), KEY_A, CSV);
    expect(imp.status, imp.text).toBe(200);
    expect(imp.json).toEqual({ list: 'merchants', mode: 'replace', imported: 3, total: 3 });
    const exp = await get(api('merchants/export'), KEY_A);
    expect(exp.status).toBe(200);
    expect(exp.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(exp.headers['content-disposition']).toBe('attachment; filename="merchants.csv"');
    expect(exp.text).toBe(CSV.replace('5.4180,100.3380', '5.418,100.338'));
    const list = await get(api('merchants'), KEY_A);
    expect(list.status).toBe(200);
    expect(list.json[2]).toEqual({ id: 'zed', name: 'Caf\u00e9 "Zed"', address: '1, rue X\nEntr\u00e9e B', city: 'Lyon', postcode: '69001', country: 'FR', category: 'food & drink' });
  });

  it('multipart file and JSON rows; mode=append as a query parameter, form field or JSON field', async () => {
    const form = await postForm(api('product-codes/import'), KEY_A, [{ name: 'file', file: Buffer.from('code,name,category\r\n9556001234567,"Milk, 1L",dairy\r\n'), filename: 'codes.csv', type: 'text/csv' }]);
    expect(form.status, form.text).toBe(200);
    expect(form.json).toEqual({ list: 'productCodes', mode: 'replace', imported: 1, total: 1 });
    const appended = await postForm(api('product-codes/import'), KEY_A, [{ name: 'mode', value: 'append' }, { name: 'file', file: Buffer.from('code\nABC-123\n'), filename: 'more.csv' }]);
    expect(appended.json).toMatchObject({ mode: 'append', total: 2 });
    const query = await csvPost(api('product-codes/import?mode=append'), KEY_A, 'code,name\nABC-123,Renamed\n');
    expect(query.json).toMatchObject({ mode: 'append', imported: 1, total: 2 });
    const json = await sendJsonBody(api('product-codes/import'), KEY_A, { rows: [{ code: 'X-9' }], mode: 'append' });
    expect(json.json).toMatchObject({ mode: 'append', total: 3 });
    expect((await get(api('product-codes/export'), KEY_A)).text).toBe('code,name,category\r\n9556001234567,"Milk, 1L",dairy\r\nABC-123,Renamed,\r\nX-9,,\r\n');
    const arr = await sendJsonBody(api('categories/import'), KEY_A, [{ category: 'Kopitiam', level: 'merchant', keywords: ['kopi', 'kopitiam'] }]);
    expect(arr.json).toEqual({ list: 'categories', mode: 'replace', imported: 1, total: 1 });
    expect((await get(api('categories/export'), KEY_A)).text).toBe('category,level,keywords\r\nKopitiam,merchant,kopi; kopitiam\r\n');
    expect((await get(api('categories'), KEY_A)).json).toEqual([{ category: 'Kopitiam', level: 'merchant', keywords: ['kopi', 'kopitiam'] }]);
  });

  it('a bad row is a 400 naming the row, line and field, and stores nothing', async () => {
    await csvPost(api('merchants/import'), KEY_B, 'name\nBeta Shop\n');
    const bad = await csvPost(api('merchants/import'), KEY_B, 'name,latitude,longitude\nGood,1,2\nBad,95,2\n');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ statusCode: 400, error: 'Bad Request', message: 'merchants: row 2 (line 3): latitude: must be between -90 and 90' });
    const unclosed = await csvPost(api('merchants/import'), KEY_B, 'name,city\n"Open,X\n');
    expect(unclosed.status).toBe(400);
    expect(unclosed.json.message).toMatch(/line 2: a quoted field is not closed/);
    const rowJson = await sendJsonBody(api('merchants/import'), KEY_B, [{ name: 'A' }, { city: 'no name' }]);
    expect(rowJson.status).toBe(400);
    expect(rowJson.json.message).toBe('merchants: merchants.1: name: is required');
    expect((await get(api('merchants'), KEY_B)).json).toEqual([{ name: 'Beta Shop' }]);
  });

  it('bad parameters, types and sizes', async () => {
    const mode = await csvPost(api('merchants/import?mode=merge'), KEY_B, 'name\nX\n');
    expect(mode.status).toBe(400);
    expect(mode.json.message).toMatch(/^mode: must be replace or append/);
    const extra = await csvPost(api('merchants/import?force=1'), KEY_B, 'name\nX\n');
    expect(extra.status).toBe(400);
    expect(extra.json.message).toMatch(/^force: not a parameter/);
    const noFile = await postForm(api('merchants/import'), KEY_B, [{ name: 'mode', value: 'append' }]);
    expect(noFile.status).toBe(400);
    expect(noFile.json.message).toMatch(/^file: the CSV file is required/);
    const jsonBad = await sendJsonBody(api('merchants/import'), KEY_B, { rows: 'name\nX' });
    expect(jsonBad.status).toBe(400);
    expect(jsonBad.json.message).toMatch(/^rows: an array of rows is required/);
    const type = await csvPost(api('merchants/import'), KEY_B, Buffer.from([1, 2, 3]), 'application/octet-stream');
    expect(type.status).toBe(415);
    expect(type.json).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
    const big = await csvPost(api('merchants/import'), KEY_B, `name\n${'x,'.repeat(30_000)}\n`);
    expect(big.status).toBe(413);
    const utf = await csvPost(api('merchants/import'), KEY_B, Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xc3, 0x28, 0x0a]));
    expect(utf.status).toBe(400);
    expect(utf.json.message).toMatch(/not valid UTF-8/);
    expect((await get(api('merchants'), KEY_B)).json).toEqual([{ name: 'Beta Shop' }]);
  });

  it('needs a key; accounts are kept apart', async () => {
    expect((await get(api('merchants/export'))).status).toBe(401);
    expect((await csvPost(api('merchants/import'), 'not-a-configured-key-000000', 'name\nX\n')).status).toBe(403);
    expect((await get(api('merchants'), KEY_B)).json.map((m: { name: string }) => m.name)).toEqual(['Beta Shop']);
    expect((await get(api('merchants'), KEY_A)).json.map((m: { name: string }) => m.name)).toEqual(['Kedai Kopi Maju', 'Kedai Kopi Maju', 'Caf\u00e9 "Zed"']);
    expect((await raw(api('merchants/export'), { method: 'POST', headers: { apikey: KEY_A } })).status).toBe(405);
  });

  it('extraction uses the account\'s lists: normalisedMerchant, categories, and near', async () => {
    const pdf = makePdf([{ lines: ['KEDAI KOPI MAJU', '8, Lebuh Chulia', '10200 George Town', 'Date: 05/02/2024', 'KOPI O 2 x 1.80 3.60', 'TOTAL 3.60']
      .map((text, i) => ({ text, x: 40, y: 60 + i * 22, size: 11 })) }]);
    const r = await postForm(`${s.url}/api/receipt/v1/verbose/file`, KEY_A, [{ name: 'file', file: pdf, filename: 'r.pdf', type: 'application/pdf' }]);
    expect(r.status, r.text).toBe(200);
    expect(r.json.entities.normalisedMerchant).toMatchObject({ data: { id: 'pg', name: 'Kedai Kopi Maju' }, nameMatched: true, locationMatched: true });
    expect(r.json.entities.category).toMatchObject({ data: 'Kopitiam', source: 'keywords' });
    expect(r.json.merchantTypes.data).toEqual(['Kopitiam']);
    // account B has no such merchant and no categories of its own: built-in list
    const b = await postForm(`${s.url}/api/receipt/v1/verbose/file`, KEY_B, [{ name: 'file', file: pdf, filename: 'r.pdf', type: 'application/pdf' }]);
    expect(b.json.entities.normalisedMerchant).toBeUndefined();
    expect(b.json.merchantTypes.data[0]).toBe('food & drink');
    // no address on the receipt: near chooses the branch
    const bare = makePdf([{ lines: ['KEDAI KOPI MAJU', 'Date: 05/02/2024', 'TOTAL 3.60'].map((text, i) => ({ text, x: 40, y: 60 + i * 22, size: 11 })) }]);
    const n = await postForm(`${s.url}/api/receipt/v1/verbose/file`, KEY_A, [{ name: 'file', file: bare, filename: 'b.pdf' }, { name: 'near', value: 'Kuala Lumpur, Malaysia' }, { name: 'ipAddress', value: '10.0.0.7' }]);
    expect(n.status, n.text).toBe(200);
    expect(n.json.entities.normalisedMerchant).toMatchObject({ data: { id: 'kl' }, locationMatched: false });
    expect(n.json.location).toBeUndefined();
    const badIp = await postForm(`${s.url}/api/receipt/v1/verbose/file`, KEY_A, [{ name: 'file', file: bare, filename: 'b.pdf' }, { name: 'ipAddress', value: 'not-an-ip' }]);
    expect(badIp.status).toBe(400);
    expect(badIp.json.message).toMatch(/ipAddress/);
  });
});

describe('server: enrichment lists from the config and across restarts', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rk-srv-enrich-'));
  let s: Started | undefined;
  afterAll(async () => { await s?.server.close(); });

  it('config lists are the account\'s lists at start; imported lists survive a restart', async () => {
    s = await start({
      dataDir,
      accounts: [
        { id: 'acme', keys: [KEY_A], enrichment: { merchants: [{ id: 'c1', name: 'Config Shop', city: 'Ipoh', country: 'MY' }] } },
        { id: 'beta', keys: [KEY_B] },
      ],
    });
    expect((await get(`${s.url}/api/account/v1/merchants`, KEY_A)).json).toEqual([{ id: 'c1', name: 'Config Shop', city: 'Ipoh', country: 'MY' }]);
    const imp = await csvPost(`${s.url}/api/account/v1/product-codes/import`, KEY_A, 'code\nKEEP-1\n');
    expect(imp.status).toBe(200);
    await csvPost(`${s.url}/api/account/v1/merchants/import`, KEY_B, 'name\nBeta Persisted\n');
    await s.server.close();
    s = await start({
      dataDir,
      accounts: [
        { id: 'acme', keys: [KEY_A], enrichment: { merchants: 'name,city\nConfig Shop 2,Ipoh\n' } },
        { id: 'beta', keys: [KEY_B] },
      ],
    });
    expect((await get(`${s.url}/api/account/v1/merchants`, KEY_A)).json).toEqual([{ name: 'Config Shop 2', city: 'Ipoh' }]);
    expect((await get(`${s.url}/api/account/v1/product-codes/export`, KEY_A)).text).toBe('code,name,category\r\nKEEP-1,,\r\n');
    expect((await get(`${s.url}/api/account/v1/merchants`, KEY_B)).json).toEqual([{ name: 'Beta Persisted' }]);
  });

  it('a bad list in the config stops the start, naming the account field', async () => {
    await expect(start({ accounts: [{ id: 'acme', keys: [KEY_A], enrichment: { merchants: [{ name: 'x', latitude: 200, longitude: 0 }] } }] }))
      .rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'enrichment.merchants.0.latitude' });
  });
});
