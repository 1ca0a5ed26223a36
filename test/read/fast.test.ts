/**
 * The fast reading (src/read/fast.ts) through the reader seam (src/ocr/reader.ts): scripted readers show
 * which regions the strategy asks to be read again and how the readings are weighed; real OCR on the
 * fixtures shows the readers plugged in (PaddleOCR first, tesseract for lines), upside-down pages, and
 * the stage times.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import sharp from 'sharp';
import { readImageFast, headerLineCount } from '../../src/read/fast.js';
import type { FastReaders } from '../../src/read/fast.js';
import type { LineReader, PageReader, PageReading, ReadWord, RegionReadOptions } from '../../src/ocr/reader.js';
import type { Box } from '../../src/document/types.js';
import type { RasterPage } from '../../src/input/types.js';
import type { WorkingImage } from '../../src/ocr/preprocess.js';
import { documentFromText } from '../../src/document/geometry.js';
import { createEngine } from '../../src/engine.js';

const FIX = path.resolve(__dirname, '../../fixtures');

/** Words of text lines laid out like documentFromText (10 px characters, 30 px line pitch), in a 400 x 400 image frame. */
function wordsOf(lines: string[], conf = 0.95): ReadWord[] {
  return documentFromText(lines.join('\n')).lines.flatMap((l) => l.words.map((w) => ({ text: w.text, confidence: conf, box: w.box })));
}

const RECEIPT = ['KEDAI MAKAN SERI MURNI SDN BHD', 'NO 12 JALAN MAWAR 3', 'Date: 12/03/2024', 'NASI LEMAK 7.50', 'TOTAL 29.05', 'CASH 50.00'];

/** A scripted reader: reads the page as `page` says, regions from `region`, and records what it was asked. */
class Scripted implements PageReader, LineReader {
  calls: Array<{ kind: 'page' } | { kind: 'regions'; mode: string | undefined; regions: Box[] }> = [];
  constructor(readonly name: string, private readonly page: ReadWord[], private readonly region: (b: Box, mode?: string) => ReadWord[]) {}
  async readPage(): Promise<PageReading> {
    this.calls.push({ kind: 'page' });
    return { lines: [this.page], grouped: false, flipped: false, flipConfidence: 0.9 };
  }
  async readRegions(_img: unknown, regions: readonly Box[], opts: RegionReadOptions = {}): Promise<ReadWord[][][]> {
    this.calls.push({ kind: 'regions', mode: opts.mode, regions: [...regions] });
    return regions.map((b) => [this.region(b, opts.mode)]);
  }
  async close(): Promise<void> {}
}

/** Words of `all` whose centre lies in a box. */
const inside = (all: ReadWord[], b: Box) => all.filter((w) => (w.box.x0 + w.box.x1) / 2 >= b.x0 && (w.box.x0 + w.box.x1) / 2 <= b.x1 && (w.box.y0 + w.box.y1) / 2 >= b.y0 && (w.box.y0 + w.box.y1) / 2 <= b.y1);

function readersFor(primary: Scripted, lines: Scripted): FastReaders {
  const work: WorkingImage = { gray: Buffer.alloc(400 * 400, 255), width: 400, height: 400, scale: 1, photo: false, paperLevel: 255, originalWidth: 400, originalHeight: 400, ms: 0 };
  return { primary, lines, working: async () => work };
}
const PAGE: RasterPage = { kind: 'raster', index: 0, image: Buffer.alloc(1), width: 400, height: 400, exifOrientation: 1 } as RasterPage;
const ctx = () => ({ fields: { extractTime: false, extractLineItems: false }, languages: ['eng'], signal: new AbortController().signal });

describe('the fast reading, with scripted readers', () => {
  it('the header band ends before the first amount or date', () => {
    expect(headerLineCount(documentFromText(RECEIPT.join('\n')))).toBe(2);
    expect(headerLineCount(documentFromText(['A', 'B', 'C'].join('\n')))).toBe(3);
  });

  it('an address\'s house numbers inside a line do not end the band; an amount at a line\'s end does, a tax code after it aside', () => {
    const header = ['99 SPEED MART S/B (519537-X)', 'NO 33,35, G F JALAN TEMENGGUNG 3/9', 'BANDAR MAHKOTA CHERAS, 43200 CHERAS'];
    expect(headerLineCount(documentFromText([...header, 'MILO 1KG 13.58 SR', 'TOTAL 13.58'].join('\n')))).toBe(3);
    expect(headerLineCount(documentFromText([...header, 'MILO 1KG RM13.58'].join('\n')))).toBe(3);
  });

  it('a long header (name, company number, four address lines, phone, fax, GST number, ...) is not cut at ten lines', () => {
    const header = Array.from({ length: 14 }, (_, i) => `HEADER LINE ${String.fromCharCode(65 + i)}`);
    expect(headerLineCount(documentFromText([...header, 'ITEM 7.50'].join('\n')))).toBe(14);
    expect(headerLineCount(documentFromText(Array.from({ length: 30 }, () => 'WORDS').join('\n')))).toBe(16);
  });

  it('reads the header band as a block and the total and date lines as lines, by the line reader', async () => {
    const words = wordsOf(RECEIPT);
    const primary = new Scripted('primary', words, (b) => inside(words, b));
    const lines = new Scripted('lines', [], (b) => inside(words, b));
    const r = await readImageFast(PAGE, readersFor(primary, lines), ctx());
    expect(primary.calls).toEqual([{ kind: 'page' }]);
    const block = lines.calls.find((c) => c.kind === 'regions' && c.mode === 'block');
    expect(block).toBeDefined();
    // the band covers the two header lines and stops above the date line (y 60..80)
    const band = (block as { regions: Box[] }).regions[0]!;
    expect(band.y1).toBeGreaterThan(50);
    expect(band.y1).toBeLessThan(70);
    const asLines = lines.calls.filter((c) => c.kind === 'regions' && c.mode === 'line');
    expect(asLines.length).toBeGreaterThan(0);
    // no whole-page reading by the line reader: a total and a date were found
    expect(lines.calls.some((c) => c.kind === 'page')).toBe(false);
    expect(r.fields.totalAmount?.value).toBe(29.05);
    expect(r.fields.evidence?.totalAmount?.join(' ')).toMatch(/line-reader-agrees/);
    expect(r.document.lines[0]!.text).toBe('KEDAI MAKAN SERI MURNI SDN BHD');
  });

  it('the line reader reading another total: the value is kept below 0.9', async () => {
    const words = wordsOf(RECEIPT);
    const other = wordsOf(RECEIPT.map((l) => l.replace('29.05', '28.05')), 0.95);
    const primary = new Scripted('primary', words, (b) => inside(words, b));
    const lines = new Scripted('lines', [], (b) => inside(other, b));
    const r = await readImageFast(PAGE, readersFor(primary, lines), ctx());
    expect(r.fields.totalAmount).toBeDefined();
    expect(r.fields.totalAmount!.confidence).toBeLessThan(0.9);
    expect(r.fields.evidence?.totalAmount?.join(' ')).toMatch(/line-reader-(differs|more-confident)/);
  });

  it('no total in the first reading: the line reader reads the whole page, and its total is taken', async () => {
    const words = wordsOf(RECEIPT.filter((l) => !l.startsWith('TOTAL') && !l.startsWith('NASI') && !l.startsWith('CASH')));
    const primary = new Scripted('primary', words, (b) => inside(words, b));
    const full = wordsOf(RECEIPT);
    const lines = new Scripted('lines', full, (b) => inside(full, b));
    const r = await readImageFast(PAGE, readersFor(primary, lines), ctx());
    expect(lines.calls.some((c) => c.kind === 'page')).toBe(true);
    expect(r.fields.totalAmount?.value).toBe(29.05);
  });
});

describe('the fast reading, with the real readers', () => {
  it('reads the fixture receipt; stage times name both readers; a page turned upside down is read upright', async () => {
    const times: Array<Record<string, number>> = [];
    const engine = await createEngine({ workers: 1, reading: 'fast', onStageTimes: (t) => times.push(t) });
    try {
      const file = path.join(FIX, 'receipt-en-simple.png');
      const r = await engine.extract(file, { verbose: true, refresh: true, incognito: true });
      expect(r.totalAmount.data).toBe(29.05);
      expect(times).toHaveLength(1);
      expect(Object.keys(times[0]!)).toEqual(expect.arrayContaining(['input', 'read:paddleocr', 'header:tesseract', 'fields', 'fraud']));
      const turned = await sharp(file).rotate(180).png().toBuffer();
      const x = await engine.analyze(turned, { refresh: true, incognito: true });
      expect(x.targetRotation).toBe(180);
      expect(x.fields.totalAmount?.value).toBe(29.05);
    } finally {
      await engine.close();
    }
  }, 180_000);

  it('an onStageTimes observer that throws does not fail the extraction', async () => {
    const engine = await createEngine({ workers: 1, reading: 'fast', onStageTimes: () => { throw new Error('observer'); } });
    try {
      const r = await engine.extract(path.join(FIX, 'receipt-en-simple.png'), { refresh: true, incognito: true });
      expect(r.totalAmount.data).toBe(29.05);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
