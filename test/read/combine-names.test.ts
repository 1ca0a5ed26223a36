import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/extract/index.js';
import { combineReadings, NAME_SURE, NAME_WEAK, READERS_DISAGREE_CAP, sameName } from '../../src/read/combine.js';
import { documentFromText } from '../../src/document/geometry.js';
import type { Document } from '../../src/document/types.js';

const ctx = { extractTime: false, extractLineItems: false, now: new Date('2024-06-01T00:00:00Z') };
/** A reading whose first line's words were read at `headConf` (a logo tesseract turned to noise, or read clearly). */
const read = (lines: string[], headConf = 0.95) => {
  const doc: Document = documentFromText(lines.join('\n'));
  for (const w of doc.lines[0]!.words) w.confidence = headConf;
  doc.lines[0]!.confidence = headConf;
  return { doc, fields: extractFields(doc, ctx) };
};
const BODY = ['3123 CLEMENTS ST', 'SAN FRANCISCO CA 94121', '8/9/2008', 'SUBTOTAL 79.50', 'SALES TAX 6.76', 'TOTAL 86.26'];

describe('the merchant\'s name weighed between two readings', () => {
  it('one name in two spellings (PaddleOCR runs the words together) is one name', () => {
    expect(sameName('Harvard Gardens', 'HarvardGardens')).toBe(true);
    expect(sameName('RAJ GAYLORD', 'RAJGAYLORD INDIAN RESTAURANT')).toBe(true);
    expect(sameName('Coloniai C.C.', 'Colonial C.C.')).toBe(true);
    expect(sameName('MERRY HILL', 'VOLUME ONE')).toBe(false);
    expect(sameName('ROSS', 'DRESS FOR LESS')).toBe(false);
  });

  it('the name the second reader read clearly replaces the first reading\'s noise, held below 0.9', () => {
    const a = read(['#B0O1 boy A', ...BODY], 0.3);
    const b = read(['OYAJI RESTAURANT', ...BODY]);
    expect(b.fields.merchantName!.confidence).toBeGreaterThan(a.fields.merchantName?.confidence ?? 0);
    const out = combineReadings(a.doc, a.fields, b.doc, b.fields);
    expect(out.merchantName?.value).toBe('OYAJI RESTAURANT');
    expect(out.merchantName!.confidence).toBeLessThanOrEqual(READERS_DISAGREE_CAP);
    expect(out.merchantName!.lineIndex).toBe(0);
    expect(out.evidence?.merchantName).toContain('second-reader-more-confident');
    // the other way round, the first reading's clear name stands, also held below 0.9
    const back = combineReadings(b.doc, b.fields, a.doc, a.fields);
    expect(back.merchantName?.value).toBe('OYAJI RESTAURANT');
    expect(back.merchantName!.confidence).toBeLessThanOrEqual(READERS_DISAGREE_CAP);
  });

  it('the same name in both readings: the first reading\'s spelling and confidence (its spaces kept)', () => {
    const a = read(['OYAJI RESTAURANT', ...BODY], 0.6);
    const b = read(['OYAJIRESTAURANT', ...BODY]);
    expect(b.fields.merchantName!.confidence).toBeGreaterThan(a.fields.merchantName!.confidence);
    const out = combineReadings(a.doc, a.fields, b.doc, b.fields);
    expect(out.merchantName).toEqual(a.fields.merchantName);
    expect(out.evidence?.merchantName).toContain('second-reader-agrees');
  });

  it('the same name, spelt as a company only by the second reading: its spelling, the first reading\'s confidence', () => {
    const a = read(['GARDENIA BAK FRI ks 1KL) SON BUD', ...BODY], 0.7);
    const b = read(['GARDENIA BAKERIES(KL)SDN BHD', ...BODY]);
    expect(sameName(a.fields.merchantName!.value, b.fields.merchantName!.value)).toBe(true);
    expect(a.fields.evidence?.merchantName?.some((t) => t.startsWith('company-suffix'))).toBe(false);
    expect(a.fields.merchantName?.companyForm).toBeUndefined();
    const out = combineReadings(a.doc, a.fields, b.doc, b.fields);
    expect(out.merchantName?.value).toBe('GARDENIA BAKERIES(KL)SDN BHD');
    expect(out.merchantName!.confidence).toBe(a.fields.merchantName!.confidence);
    expect(out.merchantName!.lineIndex).toBe(0);
    expect(out.evidence?.merchantName).toContain('second-reader-agrees-spelt-as-company');
    // both spell the company form: the first reading's spelling stands
    const c = read(['GARDENIA BAKERIES (KL) SDN BHD', ...BODY], 0.7);
    expect(combineReadings(c.doc, c.fields, b.doc, b.fields).merchantName).toEqual(c.fields.merchantName);
  });

  it('a first name that is not weak stands against a different, more confident one the second reader is not sure of', () => {
    const a = read(['SANYU STATIONERY SHOP', ...BODY], 0.75);
    const b = read(['SANYU SUPPLY SDN BHD', ...BODY], 0.8);
    expect(a.fields.merchantName!.confidence).toBeGreaterThanOrEqual(NAME_WEAK);
    expect(b.fields.merchantName!.confidence).toBeGreaterThan(a.fields.merchantName!.confidence);
    expect(b.fields.merchantName!.confidence).toBeLessThan(NAME_SURE);
    const out = combineReadings(a.doc, a.fields, b.doc, b.fields);
    expect(out.merchantName?.value).toBe('SANYU STATIONERY SHOP');
    expect(out.merchantName!.confidence).toBeLessThanOrEqual(READERS_DISAGREE_CAP);
    expect(out.evidence?.merchantName).toContain('second-reader-differs');
  });

  it('a company\'s legal name is not given up for a bare brand the second reader is sure of', () => {
    const a = read(['TRI SHAAS SDN BHD', ...BODY], 0.9);
    const b = read(['TRI SHAAS SDN BHD', ...BODY]);
    const { companyForm: _form, ...brand } = b.fields.merchantName!;
    const sure = { ...b.fields, merchantName: { ...brand, value: 'MYDIN', confidence: 0.97 }, evidence: { ...b.fields.evidence, merchantName: ['brand-line(0.6)'] } };
    expect(a.fields.evidence?.merchantName?.some((t) => t.startsWith('company-suffix'))).toBe(true);
    expect(a.fields.merchantName?.companyForm).toBe(true);
    expect(combineReadings(a.doc, a.fields, b.doc, sure).merchantName?.value).toBe('TRI SHAAS SDN BHD');
    // a first name without a company form gives way to a name the second reader is that sure of
    const plain = read(['DRESS FOR LESS', ...BODY], 0.9);
    expect(combineReadings(plain.doc, plain.fields, b.doc, sure).merchantName?.value).toBe('MYDIN');
  });

  it('a name only the second reading has is taken, held below 0.9', () => {
    const a = read(['#### ####', ...BODY], 0.2);
    const b = read(['OYAJI RESTAURANT', ...BODY]);
    const out = combineReadings(a.doc, { ...a.fields, merchantName: undefined }, b.doc, b.fields);
    expect(out.merchantName?.value).toBe('OYAJI RESTAURANT');
    expect(out.merchantName!.confidence).toBeLessThanOrEqual(READERS_DISAGREE_CAP);
    expect(out.evidence?.merchantName).toContain('second-reader-only');
  });
});

describe('the currency weighed between two readings', () => {
  it('a currency only the second reading found is taken (mapped to the first reading\'s line); one the first found stays', () => {
    const plain = ['KEDAI MAKAN', 'SUBTOTAL 79.50', 'TOTAL 86.26'];
    const a = read(plain);
    const b = read(['KEDAI MAKAN', 'SUBTOTAL RM 79.50', 'TOTAL RM 86.26']);
    expect(a.fields.currencyCode).toBeUndefined();
    expect(b.fields.currencyCode?.value).toBe('MYR');
    const out = combineReadings(a.doc, a.fields, b.doc, b.fields);
    expect(out.currencyCode?.value).toBe('MYR');
    expect(out.currencyCode?.confidence).toBe(b.fields.currencyCode!.confidence);
    expect(a.doc.lines[out.currencyCode!.lineIndex]).toBeDefined();
    expect(out.evidence?.currencyCode).toEqual(['second-reader-only']);
    // they differ: the page's cues counted on both readings decide. A first reading of noise whose smudges
    // read as a rupee sign, a second that read "RM" beside the amounts: the second's, held below 0.9
    const noise = read(['SR', 'a Ls', 'Rs 4 NE', 'fo . ae pe 2 2']);
    expect(noise.fields.currencyCode?.value).toBe('INR');
    const taken = combineReadings(noise.doc, noise.fields, b.doc, b.fields);
    expect(taken.currencyCode?.value).toBe('MYR');
    expect(taken.currencyCode!.confidence).toBe(Math.min(b.fields.currencyCode!.confidence, READERS_DISAGREE_CAP));
    expect(taken.evidence?.currencyCode?.at(-1)).toBe('second-reader-by-both-readings');
    // a Singapore page whose second reading lost the registration number and kept only "$": the first's stands
    const sg = read(['SHIMBASHI SOBA', '290 Orchard Road', 'GST Reg No:20-0301619-0', 'TOTAL $118.05']);
    const dollar = read(['SHIMBASHI SOBA', 'TOTAL $118.05', 'CASH $120.00']);
    expect(sg.fields.currencyCode?.value).toBe('SGD');
    expect(dollar.fields.currencyCode?.value).toBe('USD');
    const kept = combineReadings(sg.doc, sg.fields, dollar.doc, dollar.fields);
    expect(kept.currencyCode?.value).toBe('SGD');
    expect(kept.evidence?.currencyCode?.at(-1)).toBe('second-reader-differs');
    // at its own confidence: the second reading's bare "$" was not sure of itself (a sure one would hold it below 0.9)
    expect(dollar.fields.currencyCode!.confidence).toBeLessThan(0.9);
    expect(kept.currencyCode!.confidence).toBe(sg.fields.currencyCode!.confidence);
    // and neither reading with one leaves none
    expect(combineReadings(a.doc, a.fields, read(plain).doc, read(plain).fields).currencyCode).toBeUndefined();
  });
});
