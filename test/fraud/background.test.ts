// The background statistics of the digital-document check (src/fraud/digital.ts), on drawn samples.
import { describe, expect, it } from 'vitest';
import { backgroundStats, radixSort24 } from '../../src/fraud/digital.js';

/** An RGB sample of w x h from a function of the pixel. */
const sample = (w: number, h: number, px: (x: number, y: number) => [number, number, number]) => {
  const rgb = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rgb.set(px(x, y), 3 * (y * w + x));
  return { width: w, height: h, rgb };
};

describe('radixSort24', () => {
  it('sorts 24-bit values as a numeric sort does', () => {
    let s = 7;
    const v = Uint32Array.from({ length: 5000 }, () => { s = (s * 1103515245 + 12345) >>> 0; return s & 0xffffff; });
    expect(Array.from(radixSort24(v))).toEqual(Array.from(v).sort((a, b) => a - b));
    expect(radixSort24(new Uint32Array(0)).length).toBe(0);
  });
});

describe('backgroundStats', () => {
  it('a flat page is all flat and all one colour, with no edges', () => {
    const b = backgroundStats(sample(40, 30, () => [250, 250, 250]));
    expect(b.modeShare).toBe(1);
    expect(b.flatShare).toBeCloseTo((38 * 28) / (40 * 30), 10); // the border pixels are not measured
    expect(b.midtoneShare).toBe(1);
    expect(b.specksPerMp).toBe(0);
  });
  it('counts an isolated dark speck, not a dark bar, and the midtones of a soft edge', () => {
    // a speck of 2x2 at (5,5); a bar 30 px long at row 20; a soft edge (white, grey 128, black) at x = 30..32
    const b = backgroundStats(sample(60, 40, (x, y) => {
      if (x >= 5 && x <= 6 && y >= 5 && y <= 6) return [0, 0, 0];
      if (y === 20 && x >= 10 && x < 40) return [0, 0, 0];
      if (x === 50) return [128, 128, 128];
      if (x > 50) return [0, 0, 0];
      return [255, 255, 255];
    }));
    expect(b.specksPerMp).toBeCloseTo(1 / ((60 * 40) / 1e6), 6);
    expect(b.midtoneShare).toBeGreaterThan(0);
    expect(b.midtoneShare).toBeLessThan(1);
    expect(b.modeShare).toBeLessThan(1);
  });
});
