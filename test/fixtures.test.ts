/**
 * The generated fixtures (fixtures/, made by scripts/make-fixtures.mjs): every file is there and decodes,
 * the PDFs are well formed with the expected pages and text layer (or none), and each <name>.expected.json
 * adds up. No OCR here: end-to-end extraction is tested in e2e.test.ts.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync, existsSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const FIX = path.resolve(__dirname, '../fixtures');
const IMAGES = ['receipt-en-simple.png', 'receipt-id-rotated.jpg', 'receipt-us.jpg', 'receipt-eu.png', 'receipt-bg-cyrillic.png'];
const PDFS = ['invoice.pdf', 'invoice-scanned.pdf'];
const ALL = [...IMAGES, ...PDFS];

interface Item { name: string; quantity: number; unitPrice: number; totalPrice: number }
interface Expected {
  merchantName: string; merchantAddress?: string; merchantCountryCode?: string; date: string; time?: string; dueDate?: string;
  receiptNumber?: string; invoiceNumber?: string; currency: string; pricesIncludeTax: boolean;
  subtotalAmount?: number; taxAmount?: number; taxRate?: number; roundingAmount?: number; totalAmount: number; paidAmount?: number;
  paymentType?: string; cardLast4?: string; rotation?: number; pages?: number; textLayer?: boolean; lineItems: Item[];
}
const expectedOf = (file: string): Expected => JSON.parse(readFileSync(path.join(FIX, file.replace(/\.[^.]+$/, '.expected.json')), 'utf8'));
const cents = (x: number) => Math.round(x * 100);
const isoDate = (s: string) => /^\d{4}-\d\d-\d\d$/.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

describe('fixture files', () => {
  it.each(ALL)('%s and its expected.json exist', (f) => {
    expect(existsSync(path.join(FIX, f))).toBe(true);
    expect(existsSync(path.join(FIX, f.replace(/\.[^.]+$/, '.expected.json')))).toBe(true);
  });

  it('stay small together (< 1 MB)', () => {
    const total = readdirSync(FIX).reduce((a, f) => a + statSync(path.join(FIX, f)).size, 0);
    expect(total).toBeLessThan(1024 * 1024);
  });

  it.each(IMAGES)('%s decodes, is receipt-sized, black on white, without EXIF orientation', async (f) => {
    const file = path.join(FIX, f);
    const meta = await sharp(file).metadata();
    expect(meta.format).toBe(f.endsWith('.png') ? 'png' : 'jpeg');
    expect(meta.orientation ?? 1).toBe(1); // any rotation is in the pixels
    const exp = expectedOf(f);
    const [w, h] = exp.rotation === 90 || exp.rotation === 270 ? [meta.height!, meta.width!] : [meta.width!, meta.height!];
    expect(w).toBeGreaterThanOrEqual(600);
    expect(w).toBeLessThanOrEqual(800);
    expect(h).toBeGreaterThan(w * 0.8); // upright, a receipt is at least about as tall as it is wide
    if (exp.rotation) expect(meta.width!).toBeGreaterThan(meta.height!); // stored sideways
    const { data, info } = await sharp(file).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect(data.length).toBe(info.width * info.height);
    let dark = 0;
    for (const v of data) if (v < 100) dark++;
    const share = dark / data.length;
    expect(share).toBeGreaterThan(0.01); // there is text
    expect(share).toBeLessThan(0.2); // on white paper
  });
});

/** Checks the PDF structure by hand: header, %%EOF, startxref -> xref, every xref offset -> "n 0 obj". */
function pdfStructure(buf: Buffer) {
  const text = buf.toString('latin1');
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
  const xrefAt = text.slice(startxref, startxref + 4);
  const xref = /xref\n0 (\d+)\n([\s\S]*?)trailer/.exec(text.slice(startxref));
  const entries = xref ? xref[2]!.match(/.{20}/gs) ?? [] : [];
  const badOffsets = entries.slice(1).map((e, i) => ({ n: i + 1, off: Number(e.slice(0, 10)) }))
    .filter(({ n, off }) => !text.startsWith(`${n} 0 obj`, off)).map(({ n }) => n);
  const pageObjects = (text.match(/\/Type\s*\/Page(?![a-z])/g) ?? []).length;
  const count = Number(/\/Type\s*\/Pages\b[^>]*\/Count\s+(\d+)/.exec(text)?.[1]);
  return { text, xrefAt, size: xref ? Number(xref[1]) : 0, entries: entries.length, badOffsets, pageObjects, count };
}

describe('PDF fixtures', () => {
  it.each(PDFS)('%s is a well-formed PDF with a correct xref and the expected page count', (f) => {
    const buf = readFileSync(path.join(FIX, f));
    expect(buf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const s = pdfStructure(buf);
    expect(s.xrefAt).toBe('xref');
    expect(s.entries).toBe(s.size);
    expect(s.badOffsets).toEqual([]);
    const exp = expectedOf(f);
    expect(s.pageObjects).toBe(exp.pages);
    expect(s.count).toBe(exp.pages);
  });

  it('pdf.js opens both and finds the expected pages', async () => {
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    for (const f of PDFS) {
      const doc = await getDocument({ data: new Uint8Array(readFileSync(path.join(FIX, f))), verbosity: 0, isEvalSupported: false }).promise;
      expect(doc.numPages, f).toBe(expectedOf(f).pages);
      const items = (await (await doc.getPage(1)).getTextContent()).items as { str: string }[];
      const text = items.map((i) => i.str).join(' ');
      if (expectedOf(f).textLayer) {
        const exp = expectedOf(f);
        for (const needle of [exp.merchantName, exp.invoiceNumber!, '2,320.50', ...exp.lineItems.map((i) => i.name)]) expect(text, f).toContain(needle);
      } else {
        expect(text.trim(), f).toBe(''); // scanned: no text layer at all
      }
      await doc.destroy();
    }
  });

  it('invoice-scanned.pdf holds one decodable JPEG page image', async () => {
    const buf = readFileSync(path.join(FIX, 'invoice-scanned.pdf'));
    expect(buf.toString('latin1')).toContain('/Filter /DCTDecode');
    const start = buf.indexOf(Buffer.from([0xff, 0xd8, 0xff]));
    const end = buf.lastIndexOf(Buffer.from([0xff, 0xd9]));
    const meta = await sharp(buf.subarray(start, end + 2)).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBeGreaterThanOrEqual(1000);
  });
});

describe('expected values are internally consistent', () => {
  it.each(ALL)('%s', (f) => {
    const e = expectedOf(f);
    expect(e.merchantName.trim()).not.toBe('');
    expect(isoDate(e.date)).toBe(true);
    if (e.dueDate) expect(isoDate(e.dueDate)).toBe(true);
    if (e.time) expect(e.time).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
    expect(e.currency).toMatch(/^[A-Z]{3}$/);
    if (e.merchantCountryCode) expect(e.merchantCountryCode).toMatch(/^[A-Z]{2}$/);
    expect(e.receiptNumber ?? e.invoiceNumber).toBeTruthy();
    expect(typeof e.pricesIncludeTax).toBe('boolean');
    expect(e.totalAmount).toBeGreaterThan(0);
    expect(e.subtotalAmount).toBeDefined();
    expect(e.taxAmount).toBeDefined();

    // every line: quantity x unit price = line total
    expect(e.lineItems.length).toBeGreaterThanOrEqual(2);
    for (const it of e.lineItems) {
      expect(it.name.trim()).not.toBe('');
      expect(cents(it.quantity * it.unitPrice)).toBe(cents(it.totalPrice));
    }
    const items = e.lineItems.reduce((a, it) => a + cents(it.totalPrice), 0);
    const subtotal = cents(e.subtotalAmount!), tax = cents(e.taxAmount!), rounding = cents(e.roundingAmount ?? 0), total = cents(e.totalAmount);

    // items add up to the subtotal (net) or, when the prices include the tax, to the total
    expect(items).toBe(e.pricesIncludeTax ? total - rounding : subtotal);
    // subtotal + tax (+ rounding) = total
    expect(subtotal + tax + rounding).toBe(total);
    // the tax is the stated rate of the net amount (to the printed precision)
    if (e.taxRate !== undefined) expect(Math.abs(subtotal * e.taxRate - tax)).toBeLessThanOrEqual(1);
    if (e.roundingAmount !== undefined) expect(Math.abs(rounding)).toBeLessThanOrEqual(4); // cash rounding to 5 sen
    if (e.paidAmount !== undefined) expect(cents(e.paidAmount)).toBeGreaterThanOrEqual(total);
    if (e.cardLast4) expect(e.cardLast4).toMatch(/^\d{4}$/);
  });

  it('the digital and the scanned invoice expect the same values', () => {
    const { textLayer: a, ...digital } = expectedOf('invoice.pdf');
    const { textLayer: b, ...scanned } = expectedOf('invoice-scanned.pdf');
    expect([a, b]).toEqual([true, false]);
    expect(scanned).toEqual(digital);
  });
});
