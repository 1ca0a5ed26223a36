/**
 * The readers the reading stage takes, by role. The engine makes them (and closes them); the stage
 * only calls their PageReader / LineReader methods (ocr/reader.ts), and the tesseract pool's working
 * images and languages (the thorough way's whole-page reading with its orientation search is the
 * stage's own: whole-page.ts).
 *
 * To add a reader: implement PageReader and/or LineReader in one file in ocr/ and name it here in the
 * role it takes (the fast reading takes `primary` and `lines`).
 */
import type { OcrPool } from '../ocr/pool.js';
import type { LineReader, PageReader } from '../ocr/reader.js';

export interface Readers {
  /** tesseract.js: header bands, field lines, the tail's whole page; the thorough way's first reader. */
  tesseract: OcrPool;
  /** PaddleOCR: the fast reading's primary reader, the thorough way's second (absent when turned off). */
  paddle: (PageReader & LineReader) | undefined;
}
