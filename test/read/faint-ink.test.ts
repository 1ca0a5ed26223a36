/**
 * Faint print beside a dark border (a light receipt scanned on a black lid): tesseract's global threshold
 * falls between the border and the paper and the whole page reads as no words; the page was then turned
 * 180° on a band of garbage and given up as noise. The faint-ink copy (preprocess.ts faintInkCopy) is read
 * instead. Unit rules on drawn pixels, then real tesseract and the engine on a drawn receipt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { FAINT_INK_SPAN, faintInkCopy } from '../../src/ocr/preprocess.js';
import type { WorkingImage } from '../../src/ocr/preprocess.js';
import { OcrPool } from '../../src/ocr/pool.js';
import { FAINT_MAX_WORDS, readWholePage } from '../../src/read/whole-page.js';
import { createEngine } from '../../src/index.js';
import type { Engine } from '../../src/index.js';
import type { RasterPage } from '../../src/input/types.js';

/** A working image of paper (245) with black bands top and bottom and strokes of ink at `ink`. */
function drawn(ink: number): WorkingImage {
  const width = 200, height = 300, gray = Buffer.alloc(width * height, 245);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
    if (y < 30 || y >= height - 30) gray[y * width + x] = 10;
    else if (y % 20 < 3 && x > 40 && x < 160 && x % 7 < 4) gray[y * width + x] = ink; // dashes of text
  }
  return { gray, width, height, scale: 1, photo: false, paperLevel: 245, originalWidth: width, originalHeight: height, ms: 0 };
}

describe('the faint-ink copy (no OCR)', () => {
  it('stretches faint ink to black and paper to white, the border not setting the ink level', async () => {
    const copy = await faintInkCopy(drawn(200));
    expect(copy).toBeDefined();
    const at = (x: number, y: number) => copy!.gray[y * 200 + x]!;
    expect(at(42, 60)).toBeLessThan(30); // a dash of ink (row 60: 60 % 20 < 3)
    expect(at(100, 70)).toBeGreaterThan(240); // paper
    expect(at(100, 5)).toBe(0); // the border stays dark
  });

  it('leaves a page whose ink is already dark', async () => {
    expect(245 - 40).toBeGreaterThanOrEqual(FAINT_INK_SPAN);
    expect(await faintInkCopy(drawn(40))).toBeUndefined();
  });
});

const LINES = ['HARBOUR STORE', '21 Quay Road, Bristol', 'Date: 09/06/2023 18:12', '1 Tea bags          3.20', '2 Oat milk          2.90',
  '1 Rye bread         2.45', '4 Apples            1.60', 'TOTAL              10.15', 'CARD               10.15'];

/** A receipt printed in light grey (#c4c4c4) on light paper, black bands above and below it (a scanner's lid). */
async function faintReceipt(): Promise<Buffer> {
  const W = 480, H = 620;
  const rows = LINES.map((l, i) => `<text x="60" y="${120 + i * 30}" font-family="DejaVu Sans Mono" font-size="18" fill="#c4c4c4">${l}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#f2f2f2"/>`
    + `<rect width="100%" height="40" fill="#111"/><rect y="${H - 40}" width="100%" height="40" fill="#111"/>${rows}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

describe('a faint receipt beside a dark border (tesseract, real)', () => {
  let pool: OcrPool;
  let engine: Engine;
  let page: RasterPage;
  beforeAll(async () => {
    pool = new OcrPool({ size: 1 });
    engine = await createEngine({ workers: 1 });
    const image = await faintReceipt();
    page = { kind: 'raster', index: 0, image, width: 480, height: 620, exifOrientation: 1 };
  });
  afterAll(async () => { await pool.close(); await engine.close(); });

  it('reads as no words from its plain working image, and upright with its total from the copy', async () => {
    const plain = await pool.working(page, pool.scaling, true);
    const { lines } = await pool.readPage(plain, {});
    expect(lines.flat().length).toBeLessThan(FAINT_MAX_WORDS); // the trap itself
    const r = await readWholePage(pool, page, { detectOrientation: true });
    expect(r.rotation).toBe(0);
    expect(r.page.lines.map((l) => l.words.map((w) => w.text).join(' '))).toContain('TOTAL 10.15');
    expect(pool.isFaint(page)).toBe(true);
    // every later working image of the page is the copy (a re-read at another scale finds the words too)
    const again = await readWholePage(pool, page, { rotation: 0, scaling: { maxLongSide: 900, minLongSide: 900, maxUpscale: 2 } });
    expect(again.page.lines.flatMap((l) => l.words).length).toBeGreaterThanOrEqual(FAINT_MAX_WORDS);
  }, 120_000);

  it('gives its total and date through the engine', async () => {
    const r = await engine.extract(await faintReceipt(), { verbose: true, incognito: true });
    expect(r.targetRotation).toBe(0);
    expect(r.totalAmount.data).toBe(10.15);
    expect(r.date.data).toMatch(/^2023-06-09/);
  }, 180_000);
});
