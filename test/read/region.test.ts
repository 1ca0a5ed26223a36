import { describe, expect, it } from 'vitest';
import { buildDocument } from '../../src/document/geometry.js';
import { REGION_MAX_SHARE, textRegion } from '../../src/read/region.js';
import type { Box } from '../../src/document/types.js';

/** A one-page reading of lines given as [text, box], each word of confidence `conf`. */
function reading(lines: Array<[string, Box]>, conf = 0.9, width = 1000, height = 1000) {
  return buildDocument([{
    index: 0, source: 'ocr', width, height, originalWidth: width, originalHeight: height, rotation: 0,
    lines: lines.map(([text, box]) => ({ text, box, confidence: conf, words: [{ text, box, confidence: conf }] })),
  }]);
}
const at = (y: number, x0 = 300, x1 = 600): Box => ({ x0, y0: y, x1, y1: y + 20 });

describe('where the text is (textRegion)', () => {
  it('a receipt in a quarter of the frame: its lines with a margin of two line heights', () => {
    const doc = reading([['SHOP NAME', at(400)], ['ITEM 4.00', at(450)], ['TOTAL 4.00', at(500)], ['THANK YOU', at(550)]]);
    expect(textRegion(doc)).toEqual({ x0: 260, y0: 360, x1: 640, y1: 610 });
  });

  it('grows to hold the values found elsewhere (a total the detector missed)', () => {
    const doc = reading([['SHOP NAME', at(400)], ['ITEM 4.00', at(450)], ['THANK YOU', at(550)]]);
    expect(textRegion(doc, [{ x0: 500, y0: 700, x1: 560, y1: 720 }])!.y1).toBe(760);
  });

  it('text over most of the page, too few text lines, or only unsure words: the whole page', () => {
    const wide = reading([['A LONG LINE', at(50, 10, 990)], ['ITEM 4.00', at(450)], ['TOTAL 4.00', at(950, 10, 990)]]);
    const r = { x0: 0, y0: 10, x1: 1000, y1: 1000 };
    expect((r.x1 - r.x0) * (r.y1 - r.y0)).toBeGreaterThan(REGION_MAX_SHARE * 1e6);
    expect(textRegion(wide)).toBeUndefined();
    expect(textRegion(reading([['SHOP NAME', at(400)], ['TOTAL 4.00', at(500)]]))).toBeUndefined();
    expect(textRegion(reading([['SHOP NAME', at(400)], ['ITEM 4.00', at(450)], ['TOTAL 4.00', at(500)]], 0.4))).toBeUndefined();
  });

  it('marks of one or two characters (a pattern read as "7" or "oo") are not text', () => {
    const doc = reading([['SHOP NAME', at(400)], ['ITEM 4.00', at(450)], ['TOTAL 4.00', at(500)], ['7', at(0, 0, 20)], ['oo', at(980, 980, 1000)]]);
    expect(textRegion(doc)).toEqual({ x0: 260, y0: 360, x1: 640, y1: 560 });
  });
});
