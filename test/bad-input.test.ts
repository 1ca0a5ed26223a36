/**
 * Bad input is normal input: through the whole engine, each hostile file gets a typed error quickly,
 * with bounded memory, and the engine keeps working afterwards.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { createEngine, ReceiptKitError } from '../src/index.js';
import { loadInput } from '../src/input/index.js';
import type { Engine } from '../src/index.js';
import { pngDeclaring, randomBytes } from './helpers/hostile.js';
import { hostileFiles } from './generators/hostile-files.ts';

const FIX = path.resolve(__dirname, '../fixtures');

const pdfNoPages = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine({ workers: 1 });
  // the PDF thread and its PDF library start on the first PDF (0.3-1.5 s on a loaded machine): a
  // start-up cost, not the bad input's, so a good PDF is read before the clock runs for each hostile file
  await loadInput(readFileSync(path.join(FIX, 'invoice.pdf')));
});
afterAll(async () => { await engine?.close(); });

const cases: Array<[string, () => Buffer | { image: string; contentType: string }, string[]]> = [
  ['empty buffer', () => Buffer.alloc(0), ['UNREADABLE_FILE']],
  ['random bytes', () => randomBytes(50_000), ['UNSUPPORTED_MEDIA_TYPE']],
  ['truncated JPEG', () => readFileSync(path.join(FIX, 'receipt-us.jpg')).subarray(0, 6000), ['UNREADABLE_FILE']],
  ['PNG declaring 40000x40000 pixels', () => pngDeclaring(40000, 40000), ['FILE_TOO_LARGE']],
  ['PDF with no pages', () => pdfNoPages, ['UNREADABLE_FILE']],
  ['"%PDF-" then garbage', () => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(20_000, 3)]), ['UNREADABLE_FILE']],
  ['text claiming to be a JPEG', () => ({ image: Buffer.from('hello, this is not an image at all\n'.repeat(20)).toString('base64'), contentType: 'image/jpeg' }), ['UNSUPPORTED_MEDIA_TYPE']],
];

describe('bad input through the engine', () => {
  for (const [name, make, codes] of cases) {
    it(`${name}: typed error within a second`, async () => {
      const input = make();
      const t0 = performance.now();
      const rss0 = process.memoryUsage().rss;
      const err = await engine.extract(input).then(() => undefined, (e: unknown) => e);
      const ms = performance.now() - t0;
      expect(err).toBeInstanceOf(ReceiptKitError);
      expect(codes).toContain((err as ReceiptKitError).code);
      expect((err as ReceiptKitError).status).toBeGreaterThanOrEqual(400);
      expect(ms).toBeLessThan(1000);
      expect(process.memoryUsage().rss - rss0).toBeLessThan(200 * 1024 * 1024);
    });
  }

  for (const [name, f] of Object.entries(hostileFiles())) {
    if (f.expect.includes('ok')) continue;
    it(`hostile PDF ${name}: ${f.expect.join(' or ')} through the engine, typed, within 15 s`, async () => {
      const t0 = performance.now();
      const err = await engine.extract(f.bytes).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(ReceiptKitError);
      expect(f.expect).toContain((err as ReceiptKitError).code);
      expect(performance.now() - t0).toBeLessThan(15_000);
    }, 30_000);
  }

  it('a file over the size limit is refused before it is read', async () => {
    const small = await createEngine({ workers: 1, limits: { maxFileBytes: 1000 } });
    try {
      await expect(small.extract(path.join(FIX, 'receipt-us.jpg'))).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', status: 413 });
      await expect(small.extract(Buffer.alloc(5000, 1))).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    } finally { await small.close(); }
  });

  it('a missing file path is INVALID_INPUT naming the path', async () => {
    await expect(engine.extract('/nonexistent/receipt.jpg')).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('/nonexistent/receipt.jpg') });
  });

  it('the engine still works after all of that', async () => {
    const r = await engine.extract(path.join(FIX, 'invoice.pdf'));
    expect(r.totalAmount).toMatchObject({ data: 2320.5 });
  });
});
