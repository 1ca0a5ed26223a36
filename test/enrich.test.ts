/**
 * Enrichment (src/enrich): the CSV lists (round trip, bad rows), storage per engine, merchant
 * resolution with and without `near`, product code normalisation, merchant and product categories
 * (account list and built-in), and the results an engine returns with them.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeCsv, parseCsv, formatCsv } from '../src/enrich/csv.js';
import { CATEGORIES, MERCHANTS, PRODUCT_CODES, countryCode, rowsFromCsv } from '../src/enrich/schema.js';
import { EngineEnrichment } from '../src/enrich/index.js';
import { DEFAULT_CATEGORIES, compileRules, productCategory } from '../src/enrich/categories.js';
import type { EnrichmentOptions } from '../src/enrich/index.js';
import { MerchantIndex, nameScore, parseNear } from '../src/enrich/merchants.js';
import { ProductCodeIndex } from '../src/enrich/products.js';
import { ReceiptStore } from '../src/store/store.js';
import { SCHEMA_VERSION } from '../src/store/migrations.js';
import { extractFields } from '../src/extract/index.js';
import { documentFromText } from '../src/document/geometry.js';
import { createEngine } from '../src/engine.js';
import type { Engine } from '../src/engine.js';
import { ReceiptKitError } from '../src/errors.js';
import { makePdf } from './helpers/pdf.js';

async function rejection(p: Promise<unknown> | (() => unknown)): Promise<ReceiptKitError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    expect(e).toBeInstanceOf(ReceiptKitError);
    return e as ReceiptKitError;
  }
  throw new Error('expected an error');
}

const stores: ReceiptStore[] = [];
async function enrichment(options?: EnrichmentOptions, storePath?: string): Promise<EngineEnrichment> {
  const store = new ReceiptStore(storePath);
  stores.push(store);
  return new EngineEnrichment(() => store, options).init();
}
afterEach(async () => { for (const s of stores.splice(0)) await s.close(); });

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'rk-enrich-'));

// ------------------------------------------------------------------------------------ CSV

describe('CSV (RFC 4180)', () => {
  it('parses quoted fields with commas, doubled quotes, line breaks (CRLF and LF) and UTF-8', () => {
    const text = '\uFEFFname,address\r\n"Caf\u00e9 ""Zed""","12, Jalan Maju\r\nTaman \u6771\u4eac"\r\nPlain,x\n\nLast,"ends, here"';
    const recs = parseCsv(decodeCsv(text, 'merchants'), 'merchants');
    expect(recs.map((r) => r.fields)).toEqual([
      ['name', 'address'],
      ['Caf\u00e9 "Zed"', '12, Jalan Maju\r\nTaman \u6771\u4eac'],
      ['Plain', 'x'],
      ['Last', 'ends, here'],
    ]);
    expect(recs.map((r) => r.line)).toEqual([1, 2, 4, 6]);
  });

  it('writes a header row, CRLF records and quotes only what needs it', () => {
    const out = formatCsv(['a', 'b', 'c'], [['x, y', 'say "hi"', 'line\nbreak'], [' pad', 3.5, undefined]]);
    expect(out).toBe('a,b,c\r\n"x, y","say ""hi""","line\nbreak"\r\n" pad",3.5,\r\n');
    expect(parseCsv(out, 't').map((r) => r.fields)).toEqual([['a', 'b', 'c'], ['x, y', 'say "hi"', 'line\nbreak'], [' pad', '3.5', '']]);
  });

  it('refuses malformed CSV, naming the line', async () => {
    expect((await rejection(() => parseCsv('a,b\n"open,x\n', 'merchants'))).message).toMatch(/line 2: a quoted field is not closed/);
    expect((await rejection(() => parseCsv('a,b\nab"c,d\n', 'merchants'))).message).toMatch(/line 2: a quote inside an unquoted field/);
    expect((await rejection(() => parseCsv('a,b\n"x"y,d\n', 'merchants'))).message).toMatch(/line 2: text after the closing quote/);
  });
});

describe('list rows', () => {
  it('merchants: aliases, country names to codes, coordinates as numbers, absent fields dropped', () => {
    const rows = rowsFromCsv(MERCHANTS, 'Name,Street,Town,ZIP,Country,Lat,Lng\r\nKedai A,"1, Jalan X",Shah Alam,40150,Malaysia,3.07,101.52\r\nShop B,,,,us,,\r\n');
    expect(rows).toEqual([
      { name: 'Kedai A', address: '1, Jalan X', city: 'Shah Alam', postcode: '40150', country: 'MY', latitude: 3.07, longitude: 101.52 },
      { name: 'Shop B', country: 'US' },
    ]);
    expect(countryCode('United Kingdom')).toBe('GB');
    expect(countryCode('uk')).toBe('GB');
    expect(countryCode('Atlantis')).toBeUndefined();
  });

  it('bad rows are INVALID_OPTION naming the list, the row (line) and the field', async () => {
    const cases: Array<[string, RegExp, string]> = [
      ['name,latitude,longitude\nA,91,10\n', /merchants: row 1 \(line 2\): latitude: must be between -90 and 90/, 'merchants.1.latitude'],
      ['name,latitude,longitude\nA,1,2\nB,north,2\n', /row 2 \(line 3\): latitude: must be a number/, 'merchants.2.latitude'],
      ['name,latitude,longitude\nA,1,\n', /row 1 \(line 2\): longitude: latitude and longitude go together/, 'merchants.1.longitude'],
      ['name,city\nA,X\n,Y\n', /row 2 \(line 3\): name: is required/, 'merchants.2.name'],
      ['name,country\nA,Atlantis\n', /row 1 \(line 2\): country: unknown country "Atlantis"/, 'merchants.1.country'],
      ['name,city\nA,X,extra\n', /row 1 \(line 2\): has 3 fields, the header has 2/, 'merchants.1'],
      ['name,colour\nA,red\n', /header \(line 1\): unknown column "colour"/, 'merchants.header'],
      ['city\nX\n', /the column name is required/, 'merchants.header'],
      ['id,name\nb1,A\nb1,B\n', /row 2 \(line 3\): id "b1" is listed twice \(first at row 1 \(line 2\)\)/, 'merchants.2.id'],
      ['', /is empty: the first line must be a header row/, 'merchants'],
    ];
    for (const [csv, message, field] of cases) {
      const e = await rejection(() => rowsFromCsv(MERCHANTS, csv));
      expect(e.code).toBe('INVALID_OPTION');
      expect(e.status).toBe(400);
      expect(e.message, csv).toMatch(message);
      expect(e.field, csv).toBe(field);
    }
    // a quoted field spanning lines: the row is still named by its first line
    const e = await rejection(() => rowsFromCsv(MERCHANTS, 'name,address,latitude,longitude\nA,"two\nlines",1,1\nB,x,1,500\n'));
    expect(e.message).toMatch(/row 2 \(line 4\): longitude/);
    // invalid UTF-8 bytes
    expect((await rejection(() => rowsFromCsv(MERCHANTS, Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xff, 0xfe])))).message).toMatch(/not valid UTF-8/);
  });

  it('product codes and categories', async () => {
    expect(rowsFromCsv(PRODUCT_CODES, 'SKU,Description,category\n0123456789012,Oat milk 1L,dairy\nAB-12,,\n')).toEqual([
      { code: '0123456789012', name: 'Oat milk 1L', category: 'dairy' }, { code: 'AB-12' },
    ]);
    expect((await rejection(() => rowsFromCsv(PRODUCT_CODES, 'code\nab-12\nAB-12\n'))).message).toMatch(/code "AB-12" is listed twice/);
    expect(rowsFromCsv(CATEGORIES, 'category,level,keywords\nCoffee shop,merchant,"coffee; espresso bar"\nSnacks,,chips|crisps\n')).toEqual([
      { category: 'Coffee shop', level: 'merchant', keywords: ['coffee', 'espresso bar'] },
      { category: 'Snacks', level: 'both', keywords: ['chips', 'crisps'] },
    ]);
    expect((await rejection(() => rowsFromCsv(CATEGORIES, 'category,level,keywords\nX,shop,a\n'))).message).toMatch(/row 1 \(line 2\): level: must be merchant, product or both/);
  });
});

// ------------------------------------------------------------------------------------ import / export / storage

const MERCHANT_CSV = [
  'id,name,address,city,state,postcode,country,latitude,longitude,category',
  'sb-klcc,Starbucks Coffee,"Lot G-12, Jalan Ampang",Kuala Lumpur,WP Kuala Lumpur,50450,MY,3.1579,101.7123,',
  'sb-pj,Starbucks Coffee,"12, Jalan SS 2/24",Petaling Jaya,Selangor,47300,MY,3.1185,101.6232,',
  'sb-pg,Starbucks Coffee,"Gurney Plaza, Persiaran Gurney",George Town,Penang,10250,MY,5.4376,100.3096,',
  'caf,"Caf\u00e9 ""Le Zinc""","3, rue de l\'Arbre\nBâtiment B",Paris,,75001,FR,48.86,2.34,food & drink',
  'diy,MR D.I.Y. (M) SDN BHD,"Lot 1851-A, Jalan KPB 6, Kawasan Perindustrian Balakong",Seri Kembangan,Selangor,43300,MY,,,',
].join('\r\n') + '\r\n';

describe('engine.enrichment import and export', () => {
  it('CSV round trip keeps every character (quotes, commas, line breaks, UTF-8)', async () => {
    const en = await enrichment();
    expect(await en.importMerchants(MERCHANT_CSV)).toEqual({ list: 'merchants', mode: 'replace', imported: 5, total: 5 });
    const out = await en.exportMerchants();
    expect(out.split('\r\n')[0]).toBe('id,name,address,city,state,postcode,country,latitude,longitude,category');
    expect(out).toContain('"Caf\u00e9 ""Le Zinc"""');
    const again = await enrichment();
    await again.importMerchants(out);
    expect(await again.listMerchants()).toEqual(await en.listMerchants());
    expect(await again.exportMerchants()).toBe(out);
    expect((await en.listMerchants())[3]).toEqual({ id: 'caf', name: 'Caf\u00e9 "Le Zinc"', address: "3, rue de l'Arbre\nBâtiment B", city: 'Paris', postcode: '75001', country: 'FR', latitude: 48.86, longitude: 2.34, category: 'food & drink' });
    // bytes work too
    const third = await enrichment();
    await third.importMerchants(Buffer.from(out, 'utf8'));
    expect(await third.exportMerchants()).toBe(out);
  });

  it('rows as objects; append replaces rows by key and adds the rest; replace is the whole list', async () => {
    const en = await enrichment();
    await en.importMerchants([{ id: 'a', name: 'Alpha' }, { id: 'b', name: 'Beta', latitude: 1, longitude: 2 }]);
    expect(await en.importMerchants([{ id: 'b', name: 'Beta 2' }, { name: 'Gamma' }], { mode: 'append' })).toEqual({ list: 'merchants', mode: 'append', imported: 2, total: 3 });
    expect((await en.listMerchants()).map((m) => m.name)).toEqual(['Alpha', 'Beta 2', 'Gamma']);
    await en.importMerchants('name\nOnly\n');
    expect((await en.listMerchants()).map((m) => m.name)).toEqual(['Only']);
    await en.importMerchants('name\n'); // a header alone empties the list
    expect(await en.listMerchants()).toEqual([]);
    expect(await en.exportMerchants()).toBe('id,name,address,city,state,postcode,country,latitude,longitude,category\r\n');
  });

  it('a bad import changes nothing and names the row and field', async () => {
    const en = await enrichment();
    await en.importMerchants('name\nKeep me\n');
    const e = await rejection(en.importMerchants([{ name: 'ok' }, { name: 'bad', latitude: 'x', longitude: 3 }]));
    expect(e.code).toBe('INVALID_OPTION');
    expect(e.field).toBe('merchants.1.latitude');
    expect(e.message).toMatch(/merchants\.1: latitude: must be a number/);
    expect((await rejection(en.importMerchants([{ name: 'x', colour: 'red' }]))).message).toMatch(/unknown field colour/);
    expect((await rejection(en.importMerchants('name\nA\n', { mode: 'merge' as 'append' }))).field).toBe('mode');
    expect((await en.listMerchants()).map((m) => m.name)).toEqual(['Keep me']);
  });

  it('product codes and categories import and export', async () => {
    const en = await enrichment();
    await en.importProductCodes('code,name,category\r\n9556001234567,"Milk, fresh 1L",dairy\r\n');
    expect(await en.exportProductCodes()).toBe('code,name,category\r\n9556001234567,"Milk, fresh 1L",dairy\r\n');
    await en.importCategories([{ category: 'Coffee', level: 'merchant', keywords: ['coffee', 'espresso*'] }]);
    expect(await en.exportCategories()).toBe('category,level,keywords\r\nCoffee,merchant,coffee; espresso*\r\n');
    expect(await en.listCategories()).toEqual([{ category: 'Coffee', level: 'merchant', keywords: ['coffee', 'espresso*'] }]);
  });

  it('lists live in the store file (migration 3), survive a reopen and are seen by another engine on the file', async () => {
    const file = path.join(tmp(), 'r.db');
    const a = await enrichment(undefined, file);
    expect(await stores[0]!.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(2);
    await a.importMerchants(MERCHANT_CSV);
    const b = await enrichment(undefined, file);
    expect((await b.listMerchants()).length).toBe(5);
    expect((await b.resolveMerchant({ name: 'MR DIY', postcode: '43300' }))?.data.id).toBe('diy');
    // a change made through the other connection is seen (the index is rebuilt)
    await a.importMerchants('id,name,postcode\nnew,Brand New Shop,11111\n');
    expect((await b.resolveMerchant({ name: 'MR DIY', postcode: '43300' }))).toBeUndefined();
    expect((await b.resolveMerchant({ name: 'BRAND NEW SHOP' }))?.data.id).toBe('new');
  });

  it('lists given as engine options replace the stored list of their kind; a bad one names enrichment.<list>.<row>', async () => {
    const file = path.join(tmp(), 'o.db');
    const first = await enrichment({ merchants: MERCHANT_CSV, productCodes: [{ code: 'X1' }] }, file);
    await first.importProductCodes([{ code: 'IMPORTED-1' }]);
    const second = await enrichment({ merchants: 'name\nFrom Config\n' }, file);
    expect((await second.listMerchants()).map((m) => m.name)).toEqual(['From Config']);
    expect((await second.listProductCodes()).map((p) => p.code)).toEqual(['IMPORTED-1']); // not named: kept
    const e = await rejection(() => enrichment({ merchants: [{ name: 'a' }, { name: 'b', latitude: 100, longitude: 1 }] }));
    expect(e.field).toBe('enrichment.merchants.1.latitude');
    const e2 = await rejection(createEngine({ enrichment: { merchants: 'name,latitude,longitude\nA,1,999\n' } }));
    expect(e2.code).toBe('INVALID_OPTION');
    expect(e2.field).toBe('enrichment.merchants.1.longitude');
    const e3 = await rejection(createEngine({ enrichment: { shops: [] } as never }));
    expect(e3.message).toMatch(/unknown option enrichment\.shops/);
    expect(e3.field).toBe('enrichment.shops');
  });
});

// ------------------------------------------------------------------------------------ merchant resolution

describe('merchant resolution', () => {
  const index = new MerchantIndex(rowsFromCsv(MERCHANTS, MERCHANT_CSV));

  it('name and address/postcode pick the exact branch of a chain', () => {
    const r = index.resolve({ name: 'STARBUCKS COFFEE', address: '12, Jalan SS 2/24, 47300 Petaling Jaya', postcode: '47300' })!;
    expect(r.data.id).toBe('sb-pj');
    expect(r.nameMatched).toBe(true);
    expect(r.locationMatched).toBe(true);
    expect(r.matchedOn).toEqual(expect.arrayContaining(['name', 'postcode', 'address']));
    expect(r.confidenceLevel).toBeGreaterThanOrEqual(0.85);
  });

  it('the location can come from the header lines when no address field was read', () => {
    const r = index.resolve({ name: 'STARBUCKS', headerLines: ['STARBUCKS', 'Gurney Plaza', '10250 George Town, Penang'] })!;
    expect(r.data.id).toBe('sb-pg');
    expect(r.locationMatched).toBe(true);
  });

  it('a shorter printed name matches a longer listed one when it covers half of it', () => {
    expect(index.resolve({ name: 'STARBUCKS', postcode: '47300' })?.data.id).toBe('sb-pj');
    expect(index.resolve({ name: 'COFFEE', postcode: '47300' })).toBeUndefined();
    expect(index.resolve({ name: 'MR DIY' })?.data.id).toBe('diy');
  });

  it('OCR-noisy names and legal forms still match', () => {
    const r = index.resolve({ name: 'MR. D.I.Y. (M) SDN. BHD.', postcode: '43300' })!;
    expect(r.data.id).toBe('diy');
    const noisy = index.resolve({ name: 'STARBUCK5 C0FFEE', postcode: '50450' })!;
    expect(noisy.data.id).toBe('sb-klcc');
    expect(noisy.nameScore).toBeLessThanOrEqual(1);
    expect(noisy.matchedText).toBe('STARBUCK5 C0FFEE');
  });

  it('without a location, near biases toward its city; without near the branches tie at low confidence', () => {
    const none = index.resolve({ name: 'Starbucks Coffee' })!;
    expect(none.nameMatched).toBe(true);
    expect(none.locationMatched).toBe(false);
    expect(none.confidenceLevel).toBeLessThan(0.3); // three equal branches
    const near = index.resolve({ name: 'Starbucks Coffee', near: 'George Town, Penang, Malaysia' })!;
    expect(near.data.id).toBe('sb-pg');
    expect(near.matchedOn).toContain('near');
    expect(near.locationMatched).toBe(false); // near is a hint, not what the receipt says
    expect(near.confidenceLevel).toBeGreaterThan(none.confidenceLevel);
    const coords = index.resolve({ name: 'Starbucks Coffee', near: '3.12, 101.62' })!;
    expect(coords.data.id).toBe('sb-pj');
    // near never overrules what the receipt says
    const printed = index.resolve({ name: 'Starbucks Coffee', postcode: '50450', near: 'George Town, Penang, Malaysia' })!;
    expect(printed.data.id).toBe('sb-klcc');
  });

  it('the GeoIP location is a weak hint', () => {
    const r = index.resolve({ name: 'Starbucks Coffee', ipLocation: { city: 'George Town', country: 'MY', latitude: 5.41, longitude: 100.33 } })!;
    expect(r.data.id).toBe('sb-pg');
    expect(r.matchedOn).toContain('ipAddress');
  });

  it('a contradicting location lowers the confidence; unlisted merchants resolve to nothing', () => {
    const elsewhere = index.resolve({ name: 'MR DIY', postcode: '99999', country: 'MY' })!;
    expect(elsewhere.data.id).toBe('diy');
    expect(elsewhere.locationMatched).toBe(false);
    expect(elsewhere.confidenceLevel).toBeLessThanOrEqual(0.35);
    expect(index.resolve({ name: 'Tesco Extra', postcode: '43300' })).toBeUndefined();
    expect(index.resolve({ name: 'Starbucks Coffee', country: 'FR', postcode: '75001' })?.data.id).not.toBe('sb-pj');
  });

  it('a receipt whose name was not read resolves by a strong location alone', () => {
    const r = index.resolve({ name: 'XYZZY', postcode: '43300', address: 'Lot 1851-A, Jalan KPB 6, Kawasan Perindustrian Balakong' })!;
    expect(r.data.id).toBe('diy');
    expect(r.nameMatched).toBe(false);
    expect(r.locationMatched).toBe(true);
    expect(r.confidenceLevel).toBeLessThanOrEqual(0.6);
    expect(index.resolve({ name: 'XYZZY', postcode: '43300' })).toBeUndefined(); // a postcode alone is not enough
  });

  it('the pre-filter of a long list loses no match the matcher would find (OCR-noisy reads of 300 random names)', () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const syl = ['ka', 'ri', 'mo', 'ta', 'sen', 'lu', 'bar', 'kin', 'do', 'pe', 'zo', 'mar', 'ha', 'ni', 'ro', 'vel', 'tu', 'ga', 'sho', 'lem'];
    const word = () => Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => syl[Math.floor(rnd() * syl.length)]).join('');
    const listed = Array.from({ length: 300 }, (_, i) => ({ id: `m${i}`, name: `${word()} ${word()}${rnd() < 0.3 ? ' Sdn Bhd' : ''}` }));
    const big = new MerchantIndex(listed);
    const confuse: Record<string, string> = { o: '0', l: '1', s: '5', b: '8', a: 'e', e: 'a', r: 'n', i: 'l', k: 'x' };
    let checked = 0;
    for (const m of listed) {
      // about one misread letter in six, and upper case
      const read = [...m.name.toLowerCase()].map((c) => (rnd() < 1 / 6 && confuse[c] ? confuse[c] : c)).join('').toUpperCase();
      const expected = listed.filter((x) => nameScore(read, x.name) > 0).map((x) => x.id);
      const got = big.resolve({ name: read });
      if (expected.length === 0) { expect(got, read).toBeUndefined(); continue; }
      checked++;
      expect(expected, read).toContain(got!.data.id);
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('near parses "city, state, country" and coordinates', () => {
    expect(parseNear('Kuala Lumpur, Malaysia')).toEqual({ parts: ['Kuala Lumpur', 'Malaysia'], country: 'MY' });
    expect(parseNear('3.14, 101.69')).toEqual({ parts: [], coordinates: { latitude: 3.14, longitude: 101.69 } });
    expect(parseNear('')).toBeUndefined();
  });
});

// ------------------------------------------------------------------------------------ product codes

describe('product codes', () => {
  const codes = new ProductCodeIndex(rowsFromCsv(PRODUCT_CODES, 'code,name,category\n9556001234567,Fresh milk,dairy\n012345678905,Cola,beverages\nAB-1234-X,Widget,\n40001111,Pen A,\n40001112,Pen B,\n'));

  it('normalises OCR-tolerantly: letters read for digits, spacing, leading zeros', () => {
    expect(codes.match('9556OO1234567')).toMatchObject({ entry: { code: '9556001234567' }, how: 'exact' });
    expect(codes.match('955 600 123 4567')).toMatchObject({ entry: { code: '9556001234567' }, how: 'exact' });
    expect(codes.match('12345678905')).toMatchObject({ entry: { code: '012345678905' }, how: 'exact' });
    expect(codes.match('0012345678905')).toMatchObject({ entry: { code: '012345678905' }, how: 'exact' }); // EAN-13 form of a UPC-A
    expect(codes.match('ab1234x')).toMatchObject({ entry: { code: 'AB-1234-X' }, how: 'exact' });
  });

  it('one misread character of a long code matches only when one listed code is that close', () => {
    expect(codes.match('9556001234561')).toMatchObject({ entry: { code: '9556001234567' }, how: 'oneOff' });
    expect(codes.match('40001113')).toBeUndefined(); // Pen A and Pen B are both one away
    expect(codes.match('1234')).toBeUndefined();
    expect(codes.match('7777777777777')).toBeUndefined();
  });

  it('finds a listed code written in an item line', () => {
    expect(codes.findIn('COLA 012345678905 2.50')?.match.entry.code).toBe('012345678905');
    expect(codes.findIn('COLA CAN 2.50')).toBeUndefined();
  });

  it('engine.enrichment.normaliseProductCode', async () => {
    const en = await enrichment();
    await en.importProductCodes([{ code: 'SKU-0042', name: 'Bolt' }]);
    expect(await en.normaliseProductCode('SKU OO42')).toEqual({ code: 'SKU-0042', name: 'Bolt', how: 'exact' });
    expect(await en.normaliseProductCode('SKU-0043')).toBeUndefined();
  });
});

// ------------------------------------------------------------------------------------ enrich(): categories and items

const RECEIPT = [
  'STARBUCKS COFFEE',
  'Lot G-12, Jalan Ampang',
  '50450 Kuala Lumpur',
  'Date: 12/03/2024',
  '9556OO1234567 FRESH MILK 1L 2 x 6.50 13.00',
  '0123456 CROISSANT 4.50',
  'BATTERY AA 8.90',
  'TOTAL 26.40',
].join('\n');

function read(text: string) {
  const doc = documentFromText(text);
  return { doc, fields: extractFields(doc, { extractTime: false, now: new Date('2024-06-01T00:00:00Z') }) };
}

describe('enrich: categories, codes, known merchant', () => {
  it('built-in categories: merchant from the header, products from item names', async () => {
    const { doc, fields } = read(RECEIPT);
    const out = await (await enrichment()).enrich(doc, fields, { verbose: true });
    expect(out.category).toMatchObject({ value: 'food & drink', source: 'keywords', keyword: 'starbucks', lineIndex: 0 });
    expect(out.category!.confidence).toBeGreaterThan(0.5);
    expect(out.merchantTypes?.value[0]).toBe('food & drink');
    expect(out.items.map((i) => i.category?.value)).toEqual(['dairy', 'bakery', 'electronics']);
    expect(out.items[0]!.category!.text).toBe('milk');
    expect(out.normalisedMerchant).toBeUndefined(); // no list
    expect(out.items[0]!.productCode).toBeUndefined(); // no code list: the read code stays
  });

  it('product categories: the longest keyword wins, whole words only', () => {
    const rules = compileRules(DEFAULT_CATEGORIES.filter((r) => r.level !== 'merchant'));
    expect(productCategory(rules, 'NASI LEMAK AYAM')?.category).toBe('prepared food'); // "nasi lemak" over "ayam"
    expect(productCategory(rules, 'AYAM GORENG 2PC')?.category).toBe('meat & seafood');
    expect(productCategory(rules, 'Croissants x2')?.category).toBe('bakery'); // prefix keyword
    const merchantRules = compileRules(DEFAULT_CATEGORIES.filter((r) => r.level === 'merchant'));
    expect(productCategory(merchantRules, 'KINGS BARBER')?.category).toBe('beauty'); // "bar" (food & drink) is not in "barber"
    expect(productCategory(merchantRules, 'SKY BAR')?.category).toBe('food & drink');
    expect(productCategory(rules, 'Café Latte')?.category).toBe('beverages');
  });

  it('other merchant types from the built-in list', async () => {
    const cases: Array<[string, string]> = [
      ['KEDAI PAPAN YEW CHUAN HARDWARE\nNo 5 Jalan Besi\nPAPAN 2 50.00\nTOTAL 50.00', 'hardware'],
      ['GUARDIAN PHARMACY\nSunway Pyramid\nPANADOL 12.90\nTOTAL 12.90', 'pharmacy'],
      ['PETRONAS SERVICE STATION\nJalan Duta\nRON95 50.00\nTOTAL 50.00', 'fuel'],
      ['GRAND HYATT HOTEL\nRoom 1204\nROOM CHARGE 450.00\nTOTAL 450.00', 'hotel'],
      ['POPULAR BOOKSTORE\nMid Valley\nA4 PAPER 12.00\nTOTAL 12.00', 'stationery'],
    ];
    for (const [text, category] of cases) {
      const { doc, fields } = read(text);
      expect((await (await enrichment()).enrich(doc, fields, { verbose: false })).category?.value, text).toBe(category);
    }
    const { doc, fields } = read('ACME 123\nThing 5.00\nTOTAL 5.00');
    const none = await (await enrichment()).enrich(doc, fields, { verbose: false });
    expect(none.category).toBeUndefined();
    expect(none.merchantTypes).toBeUndefined();
  });

  it("the account's categories replace the built-in list for their level", async () => {
    const en = await enrichment();
    await en.importCategories([
      { category: 'Coffee chain', level: 'merchant', keywords: ['starbucks'] },
      { category: 'Milk products', level: 'product', keywords: ['milk'] },
    ]);
    const { doc, fields } = read(RECEIPT);
    const out = await en.enrich(doc, fields, { verbose: true });
    expect(out.category?.value).toBe('Coffee chain');
    expect(out.merchantTypes?.value).toEqual(['Coffee chain']);
    expect(out.items.map((i) => i.category?.value)).toEqual(['Milk products', undefined, undefined]);
    const off = await enrichment({ defaultCategories: false });
    const none = await off.enrich(doc, fields, { verbose: true });
    expect(none.category).toBeUndefined();
    expect(none.items.every((i) => !i.category)).toBe(true);
  });

  it('known merchant: normalisedMerchant, and its category wins', async () => {
    const en = await enrichment();
    await en.importMerchants(MERCHANT_CSV.replace('sb-klcc,Starbucks Coffee,"Lot G-12, Jalan Ampang",Kuala Lumpur,WP Kuala Lumpur,50450,MY,3.1579,101.7123,', 'sb-klcc,Starbucks Coffee,"Lot G-12, Jalan Ampang",Kuala Lumpur,WP Kuala Lumpur,50450,MY,3.1579,101.7123,coffee shop'));
    const { doc, fields } = read(RECEIPT);
    const out = await en.enrich(doc, fields, { verbose: true });
    expect(out.normalisedMerchant).toMatchObject({ data: { id: 'sb-klcc', name: 'Starbucks Coffee', city: 'Kuala Lumpur' }, nameMatched: true, locationMatched: true });
    expect(out.category).toMatchObject({ value: 'coffee shop', source: 'knownMerchant' });
    expect(out.merchantTypes?.value).toEqual(['coffee shop', 'food & drink']);
  });

  it('product codes: the read code becomes the listed spelling (text kept), items without a read code get one, the code list category wins', async () => {
    const en = await enrichment();
    await en.importProductCodes('code,name,category\n9556001234567,Fresh milk,chilled\n8888000111222,Batteries,\n');
    const { doc, fields } = read(RECEIPT.replace('BATTERY AA 8.90', 'BATTERY AA 8888000111222 8.90'));
    const out = await en.enrich(doc, fields, { verbose: true });
    expect(fields.lineItems![0]!.productCode!.value).toBe('9556OO1234567');
    expect(out.items[0]!.productCode).toMatchObject({ value: '9556001234567', text: '9556OO1234567' });
    expect(out.items[0]!.category).toMatchObject({ value: 'chilled' });
    expect(out.items[1]!.productCode).toBeUndefined(); // 0123456 is not listed: the read code stays
    const battery = out.items.find((i) => i.productCode?.value === '8888000111222');
    expect(battery?.category?.value).toBe('electronics'); // listed without a category: keywords decide
  });
});

// ------------------------------------------------------------------------------------ engine results

describe('engine results with enrichment', () => {
  const engines: Engine[] = [];
  afterAll(async () => { await Promise.all(engines.map((e) => e.close())); });
  const pdf = makePdf([{ lines: RECEIPT.replace('9556OO', '955600').split('\n').map((text, i) => ({ text, x: 40, y: 60 + i * 22, size: 11 })) }]);

  it('verbose: entities.normalisedMerchant, entities.category, merchantTypes and item categories; simple: merchantTypes', async () => {
    const engine = await createEngine({ workers: 1, enrichment: { merchants: MERCHANT_CSV, productCodes: 'code\n9556001234567\n' } });
    engines.push(engine);
    const v = await engine.extract(pdf, { verbose: true });
    expect(v.entities.normalisedMerchant).toMatchObject({ data: { id: 'sb-klcc' }, nameMatched: true, locationMatched: true });
    expect(Object.keys(v.entities.normalisedMerchant!)).toEqual(['data', 'confidenceLevel', 'nameMatched', 'locationMatched', 'matchedOn', 'nameScore', 'matchedText']);
    expect(v.entities.category).toMatchObject({ data: 'food & drink', source: 'keywords', keyword: 'starbucks', text: 'STARBUCKS COFFEE', index: 0 });
    expect(v.entities.category!.regions).toHaveLength(1);
    expect(v.merchantTypes).toMatchObject({ data: ['food & drink'], keyword: 'STARBUCKS', text: 'STARBUCKS COFFEE' });
    const milk = v.entities.productLineItems.find((i) => /MILK/.test(i.data.name.data))!;
    expect(milk.data.category).toMatchObject({ data: 'dairy', text: 'milk' });
    expect(milk.data.category!.regions.length).toBeGreaterThan(0);
    expect(Object.keys(milk.data).slice(-2)).toEqual(['productCode', 'category']);
    const s = await engine.extract(pdf);
    expect(s.merchantTypes).toEqual({ data: ['food & drink'], confidenceLevel: expect.any(Number) });
    expect(Object.keys(s)).toHaveLength(11);
  });

  it('engine.enrichment: unknown lists are INVALID_OPTION; after close, ENGINE_CLOSED', async () => {
    const engine = await createEngine({ workers: 1, enrichment: { productCodes: [{ code: 'A-1' }] } });
    expect((await rejection(engine.enrichment.exportList('shops' as 'merchants'))).field).toBe('list');
    expect((await rejection(engine.enrichment.importList('toString' as 'merchants', 'x'))).code).toBe('INVALID_OPTION');
    expect(await engine.enrichment.listProductCodes()).toEqual([{ code: 'A-1' }]);
    await engine.close();
    expect((await rejection(engine.enrichment.listProductCodes())).code).toBe('ENGINE_CLOSED');
    expect((await rejection(engine.enrichment.importMerchants('name\nX\n'))).code).toBe('ENGINE_CLOSED');
  });

  it('a stored result is not reused after the lists change', async () => {
    const engine = await createEngine({ workers: 1 });
    engines.push(engine);
    const before = await engine.extract(pdf, { verbose: true });
    expect(before.entities.normalisedMerchant).toBeUndefined();
    const again = await engine.extract(pdf, { verbose: true });
    expect(again.elapsed).toBeLessThan(before.elapsed + 1000); // answered from the store
    await engine.enrichment.importMerchants(MERCHANT_CSV);
    const after = await engine.extract(pdf, { verbose: true });
    expect(after.entities.normalisedMerchant?.data.id).toBe('sb-klcc');
    await engine.enrichment.importCategories('category,level,keywords\nCafe chain,merchant,starbucks\n');
    expect((await engine.extract(pdf)).merchantTypes).toMatchObject({ data: ['Cafe chain'] });
  });

  it('near picks the branch when the receipt prints no location', async () => {
    const engine = await createEngine({ workers: 1, enrichment: { merchants: MERCHANT_CSV } });
    engines.push(engine);
    const bare = makePdf([{ lines: ['STARBUCKS COFFEE', 'Date: 12/03/2024', 'LATTE 12.00', 'TOTAL 12.00'].map((text, i) => ({ text, x: 40, y: 60 + i * 22, size: 11 })) }]);
    const r = await engine.extract(bare, { verbose: true, near: 'Petaling Jaya, Selangor, Malaysia' });
    expect(r.entities.normalisedMerchant).toMatchObject({ data: { id: 'sb-pj' }, nameMatched: true, locationMatched: false });
    expect(r.entities.normalisedMerchant!.matchedOn).toContain('near');
    const geo = await engine.extract(bare, { verbose: true, ipAddress: '203.106.0.1' });
    expect(geo.location).toBeDefined();
    expect(geo.entities.normalisedMerchant?.nameMatched).toBe(true);
  });
});
