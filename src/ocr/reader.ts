/**
 * The readers' seam: what the reading strategy (src/read/) asks of an OCR engine, and nothing more.
 *
 * - A PageReader reads a whole upright grey page into words with boxes and confidences.
 * - A LineReader reads given regions of an upright grey page again (targeted re-reads: a header band
 *   for the merchant, a total's or a date's line), each region on its own.
 *
 * Boxes are in the pixel frame of the image handed in. Confidences are 0..1. A reader loads lazily on
 * first use and rejects with the reason when it cannot (a missing model, an unsupported platform); the
 * strategy then reads with the others. A new reader is one file in ocr/ implementing these and one entry
 * in read/readers.ts.
 */
import type { Box } from '../document/types.js';
import type { GrayImage } from './gray.js';

export interface ReadWord { text: string; confidence: number; box: Box }

export interface ReadOptions {
  /** tesseract codes or language hints; a reader that does not use them ignores them. */
  languages?: string[];
  /** Aborting rejects the read (with a TIMEOUT error where the reader can tell). */
  signal?: AbortSignal;
  /** PageReader: the image may be upside down; a reader that can tell reads it turned and says so. */
  detectFlip?: boolean;
}

export interface PageReading {
  /** Words, one array per line when the reader groups lines (`grouped`), else one array of all words. */
  lines: ReadWord[][];
  /** The reader grouped its words into lines (tesseract); otherwise lines are made from the geometry. */
  grouped: boolean;
  /** With `detectFlip`: the page read upside down and was read turned 180° (boxes in the turned frame). */
  flipped?: boolean;
  /** How sure the flip decision is, 0..1 (0 when the reader cannot tell). */
  flipConfidence?: number;
}

/** A text line a detector found: its extent along and across its (near horizontal or vertical) axis, in image pixels. */
export interface TextLineShape { width: number; height: number; score: number }

export interface PageReader {
  readonly name: string;
  readPage(img: GrayImage, opts?: ReadOptions): Promise<PageReading>;
  /**
   * Optional: the text lines a detector finds on the image, without reading them (a reading of the same
   * image object reuses the detection): evidence of the text's direction and size.
   */
  textLines?(img: GrayImage, opts?: ReadOptions): Promise<TextLineShape[]>;
  /** Optional: whether an image whose text runs horizontally reads upside down, and how sure (0..1) that is. */
  upsideDown?(img: GrayImage, opts?: ReadOptions): Promise<{ flip: boolean; confidence: number }>;
  /** Optional: starts loading models without waiting, so a first page finds them (or nearly) ready. */
  warm?(): void;
  close(): Promise<void>;
}

export interface RegionReadOptions extends ReadOptions {
  /**
   * 'line': each region is one text line, read in single-line mode, scaled so the text is each of
   * `heights` pixels tall (one reading per height); 'block': each region is read as a block of lines
   * at the image's scale (one reading).
   */
  mode?: 'line' | 'block';
  heights?: readonly number[];
}

export interface LineReader {
  readonly name: string;
  /** Per region, one word list per reading (see RegionReadOptions); empty when a region cannot be read. */
  readRegions(img: GrayImage, regions: readonly Box[], opts?: RegionReadOptions): Promise<ReadWord[][][]>;
  close(): Promise<void>;
}
