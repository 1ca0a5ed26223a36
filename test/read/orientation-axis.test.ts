/**
 * The page's text direction from the text detector's lines (issue 33, item 1): a busy background, or a
 * column of quantities, fools the geometry's character components but not text lines. Unit rules first,
 * then PaddleOCR's real detector and the engine on a receipt drawn on a patterned tablecloth, upright and
 * turned a quarter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { AXIS_HORIZONTAL_FROM, AXIS_VERTICAL_UP_TO, textAxis, textIsVertical } from '../../src/ocr/orientation.js';
import { PaddleReader } from '../../src/ocr/paddle.js';
import { createEngine } from '../../src/index.js';
import type { Engine } from '../../src/index.js';

describe('the detector vote (no OCR)', () => {
  it('counts only elongated lines, each with its length', () => {
    const wide = { width: 300, height: 30, score: 0.8 };
    const tall = { width: 30, height: 200, score: 0.8 };
    const blob = { width: 40, height: 35, score: 0.8 };
    expect(textAxis([wide, wide, blob, blob, blob])).toEqual({ vertical: false, score: 1, lines: 2 });
    expect(textAxis([tall, tall, tall, wide]).vertical).toBe(true);
    expect(textAxis([tall, wide]).score).toBeCloseTo((300 - 200) / 500, 5);
    expect(textAxis([blob])).toEqual({ vertical: false, score: 0, lines: 0 });
  });

  it('decides where its lines are clear, and leaves the rest to the geometry', () => {
    const lines = (score: number, n = 10) => ({ vertical: score < 0, score, lines: n });
    expect(textIsVertical({ vertical: true }, lines(AXIS_HORIZONTAL_FROM))).toBe(false); // a tablecloth fooled the geometry
    expect(textIsVertical({ vertical: false }, lines(AXIS_VERTICAL_UP_TO))).toBe(true);
    expect(textIsVertical({ vertical: true }, lines(0.1))).toBe(true); // unclear: the geometry
    expect(textIsVertical({ vertical: false }, lines(0.1))).toBe(false);
    expect(textIsVertical({ vertical: true }, lines(1, 2))).toBe(true); // two lines are no evidence
    expect(textIsVertical({ vertical: true })).toBe(true);
  });
});

const LINES = ['HARBOUR STORE', '21 Quay Road, Bristol', 'Date: 09/06/2023 18:12', '1 Tea bags          3.20', '2 Oat milk          2.90',
  '1 Rye bread         2.45', '4 Apples            1.60', 'TOTAL              10.15', 'CARD               10.15'];

/** A small receipt on a tablecloth of flowers in a lattice: the pattern has more marks than the receipt. */
async function onTablecloth(turn: 0 | 90): Promise<Buffer> {
  const esc = (s: string) => s.replace(/&/g, '&amp;');
  const W = 520, H = 700;
  let cloth = '';
  for (let y = 0; y < H; y += 26) for (let x = 0; x < W; x += 26) {
    cloth += `<circle cx="${x + 13}" cy="${y + 13}" r="7" fill="none" stroke="#b08a2a" stroke-width="3"/><rect x="${x + 11}" y="${y}" width="4" height="9" fill="#8a6a1a"/>`;
  }
  const rows = LINES.map((l, i) => `<text x="150" y="${250 + i * 20}" font-family="DejaVu Sans Mono" font-size="12" fill="#222">${esc(l)}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#6b5330"/>${cloth}`
    + `<rect x="135" y="220" width="250" height="${LINES.length * 20 + 50}" fill="#ecebe6"/>${rows}</svg>`;
  return sharp(Buffer.from(svg)).rotate(turn).jpeg({ quality: 85 }).toBuffer();
}

async function gray(buf: Buffer) {
  const { data, info } = await sharp(buf).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { gray: data, width: info.width, height: info.height };
}

describe('a receipt on a patterned tablecloth (PaddleOCR detector, real)', () => {
  const paddle = new PaddleReader({ threads: 1 });
  let engine: Engine;
  beforeAll(async () => { engine = await createEngine({ workers: 1 }); });
  afterAll(async () => { await paddle.close(); await engine.close(); });

  it('its text lines vote horizontal upright and vertical turned a quarter', async () => {
    const up = textAxis(await paddle.textLines(await gray(await onTablecloth(0))));
    const side = textAxis(await paddle.textLines(await gray(await onTablecloth(90))));
    expect(up.score).toBeGreaterThanOrEqual(AXIS_HORIZONTAL_FROM);
    expect(up.lines).toBeGreaterThanOrEqual(5);
    expect(side.score).toBeLessThanOrEqual(AXIS_VERTICAL_UP_TO);
  }, 60_000);

  it('is read upright with its total, and turned a quarter, is read on the other axis', async () => {
    const up = await engine.extract(await onTablecloth(0), { verbose: true, incognito: true });
    expect(up.targetRotation).toBe(0);
    expect(up.totalAmount.data).toBe(10.15);
    // (which way up a sideways page is, is the 0/180 search's: on this cloth, whose rings tesseract reads
    // as lines of O's, it is not what this test is about)
    const side = await engine.extract(await onTablecloth(90), { verbose: true, incognito: true });
    expect(side.targetRotation % 180).toBe(90);
  }, 180_000);
});
