/**
 * Scripted readers for the reading stage's tests (src/read/index.ts): they stand for tesseract and PaddleOCR
 * and read the receipt only from an image `readable` accepts, noise otherwise; `asked` lists each page reading.
 */
import type { Readers } from '../../src/read/readers.js';
import type { GrayImage, WorkingImage } from '../../src/ocr/preprocess.js';
import type { PageReading, ReadWord, TextLineShape } from '../../src/ocr/reader.js';
import type { LoadedInput, RasterPage } from '../../src/input/types.js';
import type { OcrPool } from '../../src/ocr/pool.js';
import { DEFAULT_SCALING } from '../../src/ocr/preprocess.js';
import { documentFromText } from '../../src/document/geometry.js';

export const RECEIPT = ['HARBOUR STORE', '21 Quay Road, Bristol', 'Date: 09/06/2023 18:12', 'Tea bags 3.20', 'Oat milk 2.90', 'TOTAL 6.10', 'CARD 6.10'];
export const words = (lines: string[], confidence: number): ReadWord[] =>
  documentFromText(lines.join('\n')).lines.flatMap((l) => l.words.map((w) => ({ text: w.text, confidence, box: w.box })));
export const RECEIPT_WORDS = words(RECEIPT, 0.95);
/** The words of each line, line by line (what tesseract groups). */
export const lineWords = (lines: string[], confidence: number): ReadWord[][] =>
  documentFromText(lines.join('\n')).lines.map((l) => l.words.map((w) => ({ text: w.text, confidence, box: w.box })));
export const NOISE_WORDS = words(['~ ., ;', 'l1 ii', '= - ='], 0.15);

/** A portrait page 400 x 600 px: its working image is white (the scripted readers do not look at pixels). */
export const W = 400, H = 600;
export const PAGE: RasterPage = { kind: 'raster', index: 0, image: Buffer.alloc(1), width: W, height: H, exifOrientation: 1 } as RasterPage;
export const INPUT: LoadedInput = { mediaType: 'image/png', bytes: Buffer.alloc(1), sha256: '0', pages: [PAGE], pageCount: 1, metadata: {} } as LoadedInput;
const WORK: WorkingImage = { gray: Buffer.alloc(W * H, 255), width: W, height: H, scale: 1, photo: false, paperLevel: 255, originalWidth: W, originalHeight: H, ms: 0 };

/** What both scripted readers read from an image: the receipt when `readable` says so, noise otherwise (or the words given). */
export function readers(readable: (img: GrayImage) => boolean, detectorLines: TextLineShape[], pages: { yes: ReadWord[] | ReadWord[][]; no: ReadWord[] } = { yes: RECEIPT_WORDS, no: NOISE_WORDS }) {
  const asked: Array<{ reader: string; width: number; height: number }> = [];
  // words given line by line (lineWords) are grouped into those lines by tesseract, as it does; PaddleOCR's are one list
  const grouped = Array.isArray(pages.yes[0]);
  const read = (reader: string) => async (img: GrayImage): Promise<PageReading> => {
    asked.push({ reader, width: img.width, height: img.height });
    if (!readable(img)) return { lines: [pages.no], grouped: false };
    if (!grouped) return { lines: [pages.yes as ReadWord[]], grouped: false };
    const lines = pages.yes as ReadWord[][];
    return reader === 'tesseract' ? { lines, grouped: true } : { lines: [lines.flat()], grouped: false };
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
export const HORIZONTAL: TextLineShape[] = Array.from({ length: 8 }, () => ({ width: 300, height: 20, score: 0.9 }));
export const ctx = () => ({ fields: { extractTime: false, extractLineItems: false, now: new Date('2024-06-01T00:00:00Z') }, languages: ['eng'], signal: new AbortController().signal });
