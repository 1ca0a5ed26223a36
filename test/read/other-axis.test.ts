/**
 * The other axis (src/read/index.ts readOtherAxis): a one-page image that both readers read as noise at
 * the axis its text lines showed is read at the other axis before it is given up as noise. Scripted
 * readers stand for tesseract and PaddleOCR: they read the receipt only from an image turned to its
 * true axis (here: a landscape image, the page turned a quarter), and noise otherwise, so the tests
 * show what the strategy asks for and which reading it keeps.
 */
import { describe, expect, it } from 'vitest';
import { readDocument } from '../../src/read/index.js';
import { HORIZONTAL, INPUT, RECEIPT, ctx, readers, words } from '../helpers/scripted-readers.js';

describe('a page read as noise at one axis is read at the other before it is given up', () => {
  it('a receipt whose lines were misjudged horizontal is read sideways, with its total and date', async () => {
    const { readers: r, asked } = readers((img) => img.width > img.height, HORIZONTAL);
    const out = await readDocument(INPUT, r, ctx());
    expect(out.rotation % 180).toBe(90);
    expect(out.fields.totalAmount?.value).toBe(6.1);
    expect(out.fields.date?.value.slice(0, 10)).toBe('2023-06-09');
    // both readers were asked at the first axis (portrait) and then at the other (landscape)
    for (const reader of ['tesseract', 'paddle']) {
      expect(asked.some((a) => a.reader === reader && a.width < a.height)).toBe(true);
      expect(asked.some((a) => a.reader === reader && a.width > a.height)).toBe(true);
    }
    expect(out.warnings.join(' ')).not.toMatch(/noise/);
  });

  it('a receipt read at its first axis is not read at the other', async () => {
    const { readers: r, asked } = readers((img) => img.width < img.height, HORIZONTAL);
    const out = await readDocument(INPUT, r, ctx());
    expect(out.rotation).toBe(0);
    expect(out.fields.totalAmount?.value).toBe(6.1);
    expect(asked.some((a) => a.width > a.height)).toBe(false);
  });

  it('a legible page whose total is only uncertain keeps its reading against sideways garbage that prints an amount', async () => {
    // upright: well read, no date, its total label misread (the total is a guess under the noise line); sideways: "TOTAL £30.00" read out of smudges
    const upright = words(['RAMEN HOUSE', 'Ramen Special 15.90', 'Ramen Egg 13.90', 'Ramen Seaweed 12.90', 'SUBTOTAL 42.69', 'SC 4.27', 'PAY THIS ANONT: $90.25', 'ORDER NUMBER IS: 26367'], 0.93);
    const garbage = words(['= FH i It', 'TOTAL £30.00', 'CASH £30.00', 'l1 ii ~'], 0.35);
    const { readers: r, asked } = readers((img) => img.width < img.height, HORIZONTAL, { yes: upright, no: garbage });
    const out = await readDocument(INPUT, r, ctx());
    // the other axis was read (the first looked like noise to the noise rule) but did not replace the upright reading
    expect(asked.some((a) => a.reader === 'tesseract' && a.width > a.height)).toBe(true);
    expect(out.rotation).toBe(0);
    expect(out.fields.totalAmount?.value).not.toBe(30);
    expect(out.document.text).toContain('Ramen');
    expect(out.document.text).not.toContain('FH');
  });

  it('a page that is noise both ways is given up as noise, after both axes were read', async () => {
    const { readers: r, asked } = readers(() => false, HORIZONTAL);
    const out = await readDocument(INPUT, r, ctx());
    expect(out.fields.totalAmount?.value ?? null).toBeNull();
    expect(out.fields.date).toBeUndefined();
    // the other axis was read by both, and its noise did not replace the first axis's reading
    expect(asked.some((a) => a.reader === 'tesseract' && a.width > a.height)).toBe(true);
    expect(asked.some((a) => a.reader === 'paddle' && a.width > a.height)).toBe(true);
    expect(out.rotation).toBe(0);
  });
});
