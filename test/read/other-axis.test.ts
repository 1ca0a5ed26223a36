/**
 * The other axis (src/read/index.ts readOtherAxis): a one-page image that both readers read as noise at
 * the axis its text lines showed is read at the other axis before it is given up as noise. Scripted
 * readers stand for tesseract and PaddleOCR: they read the receipt only from an image turned to its
 * true axis (here: a landscape image, the page turned a quarter), and noise otherwise, so the tests
 * show what the strategy asks for and which reading it keeps.
 */
import { describe, expect, it } from 'vitest';
import { readDocument } from '../../src/read/index.js';
import type { Readers } from '../../src/read/readers.js';
import type { GrayImage, WorkingImage } from '../../src/ocr/preprocess.js';
import type { PageReading, ReadWord, TextLineShape } from '../../src/ocr/reader.js';
import type { LoadedInput, RasterPage } from '../../src/input/types.js';
import type { OcrPool } from '../../src/ocr/pool.js';
import { DEFAULT_SCALING } from '../../src/ocr/preprocess.js';
import { documentFromText } from '../../src/document/geometry.js';

const RECEIPT = ['HARBOUR STORE', '21 Quay Road, Bristol', 'Date: 09/06/2023 18:12', 'Tea bags 3.20', 'Oat milk 2.90', 'TOTAL 6.10', 'CARD 6.10'];
const words = (lines: string[], confidence: number): ReadWord[] =>
  documentFromText(lines.join('\n')).lines.flatMap((l) => l.words.map((w) => ({ text: w.text, confidence, box: w.box })));
const RECEIPT_WORDS = words(RECEIPT, 0.95);
const NOISE_WORDS = words(['~ ., ;', 'l1 ii', '= - ='], 0.15);

/** A portrait page 400 x 600 px: its working image is white (the scripted readers do not look at pixels). */
const W = 400, H = 600;
const PAGE: RasterPage = { kind: 'raster', index: 0, image: Buffer.alloc(1), width: W, height: H, exifOrientation: 1 } as RasterPage;
const INPUT: LoadedInput = { mediaType: 'image/png', bytes: Buffer.alloc(1), sha256: '0', pages: [PAGE], pageCount: 1, metadata: {} } as LoadedInput;
const WORK: WorkingImage = { gray: Buffer.alloc(W * H, 255), width: W, height: H, scale: 1, photo: false, paperLevel: 255, originalWidth: W, originalHeight: H, ms: 0 };

/** What both scripted readers read from an image: the receipt when `readable` says so, noise otherwise (or the words given). */
function readers(readable: (img: GrayImage) => boolean, detectorLines: TextLineShape[], pages: { yes: ReadWord[]; no: ReadWord[] } = { yes: RECEIPT_WORDS, no: NOISE_WORDS }) {
  const asked: Array<{ reader: string; width: number; height: number }> = [];
  const read = (reader: string) => async (img: GrayImage): Promise<PageReading> => {
    asked.push({ reader, width: img.width, height: img.height });
    return { lines: [readable(img) ? pages.yes : pages.no], grouped: false };
  };
  const tesseract = {
    isClosed: false, size: 1, scaling: DEFAULT_SCALING,
    languages: () => ({ codes: ['eng'], warnings: [] }),
    warm: () => undefined,
    working: async () => WORK,
    readPage: read('tesseract'),
    readRegions: async (_img: GrayImage, regions: readonly unknown[]) => regions.map(() => []),
  } as unknown as OcrPool;
  const paddle = {
    name: 'paddle',
    textLines: async () => detectorLines,
    readPage: read('paddle'),
    readRegions: async (_img: GrayImage, regions: readonly unknown[]) => regions.map(() => []),
    close: async () => undefined,
  };
  return { readers: { tesseract, paddle } as unknown as Readers, asked };
}

/** Text lines the detector "saw": wide boxes, that is, horizontal text on the page as it is. */
const HORIZONTAL: TextLineShape[] = Array.from({ length: 8 }, () => ({ width: 300, height: 20, score: 0.9 }));
const ctx = () => ({ fields: { extractTime: false, extractLineItems: false, now: new Date('2024-06-01T00:00:00Z') }, languages: ['eng'], signal: new AbortController().signal });

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
