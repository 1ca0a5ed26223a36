// The codes stage on generated receipts (test/generators/code-fixtures.ts: a receipt drawn with sharp, a code
// drawn module by module, then blurred, tilted and saved as JPEG): every supported fiscal format is
// decoded and parsed right at realistic sizes, product barcodes read, positions land on the code, a
// page without codes costs little, and a huge page is scaled down before the decoder sees it.
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { loadInput } from '../src/input/index.js';
import { readPageCodes } from '../src/codes/index.js';
import { WORK_MAX_PIXELS, workScale } from '../src/codes/decode.js';
import { DEFAULT_LIMITS } from '../src/input/types.js';
import { fiscalSamples, receiptWithCode } from './generators/code-fixtures.ts';

/** Module sizes (px) x blur (sigma) x tilt (degrees): a receipt scanned or photographed at 200-300 dpi. */
const GRID = [
  { module: 4, blur: 0, tilt: 0 }, { module: 3, blur: 0, tilt: 0 }, { module: 4, blur: 1, tilt: 0 }, { module: 3, blur: 1, tilt: 0 },
  { module: 4, blur: 0, tilt: 3 }, { module: 3, blur: 0.6, tilt: -3 }, { module: 4, blur: 1.2, tilt: 6 }, { module: 3, blur: 0.8, tilt: -6 },
];

describe('codes on generated receipts', () => {
  it('every fiscal format, 8 sizes/blurs/tilts each: >= 98 % decoded, and every decoded payload gives all its fields', async () => {
    let tried = 0, decoded = 0;
    const misses: string[] = [];
    for (const s of fiscalSamples()) {
      // a 1-D barcode as long as an access key is printed straight (a tilt over ~2 degrees takes its
      // scan lines off the bars: bench/codes-fixtures.mjs reports those separately)
      const grid = s.format ? GRID.filter((g) => Math.abs(g.tilt) <= 0) : GRID;
      for (const g of grid) {
        tried++;
        const { bytes } = await receiptWithCode(s.text, { format: s.format ?? 'QRCode', ...g });
        const r = await readPageCodes(await loadInput(bytes));
        const fact = r.facts[0];
        if (!fact) { misses.push(`${s.scheme}/${s.variant ?? ''} ${JSON.stringify(g)}`); continue; }
        decoded++;
        expect(fact.scheme).toBe(s.scheme);
        expect(fact.fields, `${s.scheme} ${JSON.stringify(g)}`).toEqual(s.fields);
        expect(r.codes).toHaveLength(1);
      }
    }
    expect(decoded / tried, misses.join('\n')).toBeGreaterThanOrEqual(0.98);
  });

  it('product and document barcodes (EAN-13, UPC-A, Code 128, Code 39) are listed with their text and are not fiscal', async () => {
    for (const [format, text] of [['EAN13', '4006381333931'], ['UPCA', '036000291452'], ['Code128', 'RCPT-2024-00917'], ['Code39', 'A017403FJVA2XMS']] as const) {
      const { bytes } = await receiptWithCode(text, { format, module: 3, blur: 0.6 });
      const r = await readPageCodes(await loadInput(bytes));
      // zxing reports a UPC-A as the EAN-13 it is (a leading 0) when both are looked for
      const seen = r.codes.map((c) => (c.format === 'EAN13' && format === 'UPCA' && c.text === `0${text}` ? ['UPCA', text] : [c.format, c.text]));
      expect(seen, format).toEqual([[format, text]]);
      expect(r.facts).toEqual([]);
      expect(r.codes[0]!.fiscal).toBeUndefined();
    }
  });

  it('a code\'s region is its corners in pixels of the original image', async () => {
    const s = fiscalSamples().find((x) => x.scheme === 'pt-atcud')!;
    const { bytes, box } = await receiptWithCode(s.text, { module: 4 });
    const [c] = (await readPageCodes(await loadInput(bytes))).codes;
    const xs = c!.polygon.map((p) => p.x), ys = c!.polygon.map((p) => p.y);
    // zxing reports the centres of the outer modules: within two modules of the drawn square
    expect(Math.abs(Math.min(...xs) - box.x)).toBeLessThanOrEqual(8);
    expect(Math.abs(Math.max(...xs) - (box.x + box.width))).toBeLessThanOrEqual(8);
    expect(Math.abs(Math.min(...ys) - box.y)).toBeLessThanOrEqual(8);
    expect(Math.abs(Math.max(...ys) - (box.y + box.height))).toBeLessThanOrEqual(8);
  });

  it('a damaged fiscal payload is listed with a warning and gives no fact', async () => {
    const { bytes } = await receiptWithCode('t=20240315T1432&s=abc&fn=9960440300123456&i=1&fp=1&n=1', { module: 4 });
    const r = await readPageCodes(await loadInput(bytes));
    expect(r.codes).toHaveLength(1);
    expect(r.codes[0]!.fiscal).toMatchObject({ scheme: 'ru-fns', error: expect.stringMatching(/not an amount/) });
    expect(r.facts).toEqual([]);
    expect(r.warnings.join('\n')).toMatch(/ru-fns fiscal code could not be read/);
  });

  it('a receipt without codes: none found, quickly', async () => {
    const { bytes } = await receiptWithCode('x', { format: 'QRCode', module: 0 });
    const input = await loadInput(bytes);
    await readPageCodes(input); // warm: the decoder compiles once per process
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const r = await readPageCodes(input);
      times.push(performance.now() - t0);
      expect(r.codes).toEqual([]);
    }
    times.sort((a, b) => a - b);
    expect(times[2]).toBeLessThan(150);
  });

  it('a huge page is scaled down for the decoder: bounded pixels, still in time', async () => {
    expect(workScale(8000, 6000) * 8000).toBeLessThanOrEqual(2000);
    expect(workScale(8000, 6000) ** 2 * 48e6).toBeLessThanOrEqual(WORK_MAX_PIXELS);
    expect(workScale(700, 1200)).toBe(1);
    const big = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#f4f1ea' } }).jpeg().toBuffer();
    const input = await loadInput(big, { limits: DEFAULT_LIMITS });
    const t0 = performance.now();
    const r = await readPageCodes(input);
    expect(r.codes).toEqual([]);
    const ms = performance.now() - t0;
    console.log(`a blank 49-megapixel photo: codes stage ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(3000);
  });
});
