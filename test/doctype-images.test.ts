/**
 * documentType through the real engine with real OCR, on pages generated here (test/generators/doctype-images.ts,
 * no corpus needed): one of each kind of non-receipt, small, and a receipt shown on a phone screen,
 * which must stay a receipt and be flagged digital. Then the validation rule on the same pages.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createEngine } from '../src/index.js';
import type { Engine, VerboseResult } from '../src/index.js';
import { doctypeImages } from './generators/doctype-images.ts';
import type { DoctypeImage } from './generators/doctype-images.ts';

let engine: Engine;
let images: DoctypeImage[];
const results = new Map<string, VerboseResult>();

beforeAll(async () => {
  engine = await createEngine({ workers: 1 });
  // the non-receipts a little smaller (faster OCR); the screenshot at its size, as a phone saves it
  images = [
    ...await doctypeImages({ perKind: 1, scale: 0.8, kinds: ['chat', 'web', 'letter', 'bank-statement', 'picture'] }),
    ...await doctypeImages({ perKind: 1, kinds: ['receipt-screenshot'] }),
  ];
});
afterAll(async () => { await engine?.close(); });

const read = async (im: DoctypeImage): Promise<VerboseResult> => {
  const r = results.get(im.name) ?? await engine.extract(im.bytes, { verbose: true, incognito: true });
  results.set(im.name, r);
  return r;
};

describe('documentType of generated pages (real OCR)', () => {
  for (const kind of ['chat', 'web', 'letter', 'bank-statement', 'picture'] as const) {
    it(`a ${kind} is other`, async () => {
      const im = images.find((i) => i.kind === kind)!;
      const r = await read(im);
      expect(r.documentType.data, `${im.name}: ${r.evidence.documentType?.join(' ')}`).toBe('other');
      expect(r.documentType.confidenceLevel).toBeGreaterThan(0.5);
      expect(r.evidence.documentType?.length).toBeGreaterThan(0);
    });
  }

  it('a receipt on a phone screen is a receipt, flagged digital, with its language', async () => {
    const im = images.find((i) => i.kind === 'receipt-screenshot')!;
    const r = await read(im);
    expect(r.documentType.data, r.evidence.documentType?.join(' ')).toBe('receipt');
    expect(r.entities.digitalDetection?.isDigital).toBe(true);
    // a short receipt's language is a guess (item names in English, an address in French...): only that there is one
    expect(r.language.confidenceLevel).toBeGreaterThan(0);
  });

  it('the letter is read in its language', async () => {
    const letter = await read(images.find((i) => i.kind === 'letter')!);
    expect(letter.language.data).toBe('en');
    expect(letter.language.confidenceLevel).toBeGreaterThan(0);
  });
});

describe('documentType rule (real OCR)', () => {
  it('rejects a bank statement and accepts the receipt screenshot; allowOther lets the statement pass', async () => {
    const statement = images.find((i) => i.kind === 'bank-statement')!;
    const receipt = images.find((i) => i.kind === 'receipt-screenshot')!;
    const no = await engine.validate(statement.bytes, { documentType: {} });
    expect(no.failedValidations).toEqual(['document_type_validated']);
    expect(no.reasons.document_type_validated).toMatch(/not a receipt or an invoice/);
    const yes = await engine.validate(receipt.bytes, { documentType: {} });
    expect(yes.passedValidations).toEqual(['document_type_validated']);
    const allowed = await engine.validate(statement.bytes, { documentType: { allowOther: true } });
    expect(allowed.successful).toBe(true);
  });
});
