// Cold start: a text-layer PDF is read without any OCR model; an image starts both readers.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import type { OcrPool } from '../src/ocr/pool.js';
import type { PaddleReader } from '../src/ocr/paddle.js';

const FIX = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
/** The engine's readers (private fields, read here only). */
const readersOf = (engine: unknown) => engine as { ocr: OcrPool; paddle: PaddleReader };

describe('what the first page loads', () => {
  it('a text PDF starts no tesseract worker and loads no PaddleOCR model', async () => {
    const engine = await createEngine({ workers: 1 });
    try {
      const r = await engine.extract(path.join(FIX, 'invoice.pdf'), { verbose: true, incognito: true });
      expect(r.totalAmount.data).toBeGreaterThan(0);
      const { ocr, paddle } = readersOf(engine);
      expect(ocr.workersCreated).toBe(0);
      expect(paddle.started).toBe(false);
    } finally {
      await engine.close();
    }
  }, 60_000);

  it('an image starts both readers', async () => {
    const engine = await createEngine({ workers: 1 });
    try {
      await engine.extract(path.join(FIX, 'receipt-en-simple.png'), { incognito: true });
      const { ocr, paddle } = readersOf(engine);
      expect(ocr.workersCreated).toBeGreaterThan(0);
      expect(paddle.started).toBe(true);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
