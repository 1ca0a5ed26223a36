/**
 * Tesseract's whole-page reading, the thorough reading's first reader: the strategy around the pool's
 * PageReader and LineReader (ocr/pool.ts), which knows workers and tesseract, not pages.
 *
 * Per page: the working image (decoded once per page and scaling, ocr/preprocess.ts), the text direction
 * from geometry (ocr/orientation.ts), one reading at the likely orientation, and only when that reading is
 * not confident, a band of the page read turned 180° to decide between upright and upside down (then the
 * page is read again turned). The words are mapped back to the upright frame at original resolution.
 *
 * Also here: line re-reads of a page (`rereadLines`): lines read again from the full-resolution image at
 * several text heights, the second looks' independent opinions on a field's text.
 */
import type { RasterPage } from '../input/types.js';
import type { Box, Line, Page, Word } from '../document/types.js';
import { lineFromWords } from '../document/geometry.js';
import { ReceiptKitError } from '../errors.js';
import type { OcrPool } from '../ocr/pool.js';
import { analysisCopy, cropGray, faintInkCopy, rotateGray } from '../ocr/preprocess.js';
import type { OcrScaling, Rotation, WorkingImage } from '../ocr/preprocess.js';
import type { ReadOptions, ReadWord } from '../ocr/reader.js';
import { AXIS_ANALYSIS_LONG_SIDE, AXIS_MIN_LINES, readingQuality, textDirection, textIsVertical } from '../ocr/orientation.js';
import type { TextAxis, TextDirection } from '../ocr/orientation.js';

export type { Rotation } from '../ocr/preprocess.js';

export type OcrPage = Omit<Page, 'lineIndices'> & { lines: Array<Omit<Line, 'index' | 'page'>> };

export interface OcrResult {
  /** The page as `buildDocument` takes it: boxes in the upright frame at original resolution. */
  page: OcrPage;
  /** Clockwise degrees the original was turned to read upright (also `page.rotation`). */
  rotation: Rotation;
  /** How sure the orientation is, 0..1 (0 when detection was off). */
  orientationConfidence: number;
  /** What the orientation was decided on (absent when detection was off); for debugging and benchmarks. */
  orientationEvidence?: OrientationEvidence;
  /** Wall time of this call, including waiting for a worker. */
  ms: number;
  /** The page looked photographed (grey paper) and was read from its enlarged, equalised image. */
  enhanced: boolean;
  warnings: string[];
}

export interface OrientationEvidence {
  /** Text direction vote of the geometry, -1 (vertical) .. 1 (horizontal). */
  directionScore: number;
  /** Text direction vote of the detector's lines, when it was asked (textAxis). */
  detectorScore?: number;
  /** Confidence of the first full reading (0..1). */
  firstConfidence: number;
  /** When the band check ran: its confidence upright-as-first-read and turned 180°. */
  band?: { first: number; turned: number };
  /** OCR passes made (1 to 3). */
  passes: number;
}

export interface RecognizeOptions {
  /** Language hints or tesseract codes (default: the pool's `defaultLanguages`, else English). */
  languages?: string[];
  /** Find sideways and upside-down pages (default true). */
  detectOrientation?: boolean;
  /** Aborting rejects with a TIMEOUT error; a worker interrupted mid-page is replaced. */
  signal?: AbortSignal;
  /** Read at this rotation (clockwise degrees), no orientation detection: a known page read again. */
  rotation?: Rotation;
  /** Scaling for this call instead of the pool's (another resolution for a confirming pass). */
  scaling?: Partial<OcrScaling>;
  /** Enlarge and equalise photographed pages (default true; see preprocess.ts PHOTO_PAPER_BELOW). */
  enhance?: boolean;
  /** The text detector's lines on the page (ocr/orientation.ts textAxis): the direction where they are clear. */
  axis?: TextAxis;
  /** Read the page on this axis (0/180 still searched): the other axis of a page read as noise. */
  vertical?: boolean;
  /**
   * With `rotation`: read only this part of the page (upright frame at original resolution, as Document
   * boxes are), at the scale of the whole page; words keep the whole page's frame (see read/region.ts).
   */
  region?: Box;
}

/**
 * A full reading at least this confident (0..1) is accepted as upright without further checks. On 30
 * corpus pages, upside-down readings scored 0.15-0.33 and upright ones 0.34-0.93 (most above 0.55).
 */
export const ACCEPT_CONFIDENCE = 0.5;
/** The band read turned 180° must beat the same band of the first reading by this much to flip. */
const FLIP_MARGIN = 0.05;
/** ...and be at least this confident. */
const FLIP_MIN_CONFIDENCE = 0.2;
/** ...and hold at least this many words (one misread blot is no evidence). */
const FLIP_MIN_WORDS = 3;
/** Share of the page height the orientation band covers. */
const BAND_FRACTION = 0.2;

/** Second-look reads: the page at up to this long side (full resolution for receipts and A4 scans at 300 dpi). */
const REREAD_MAX_LONG_SIDE = 4000;

/** Words of one OCR pass, in that pass's pixel frame. */
export interface Reading { rotation: Rotation; width: number; height: number; lines: ReadWord[][] }

function abortError(): ReceiptKitError {
  return new ReceiptKitError('TIMEOUT', 'OCR was aborted');
}

/** One page read whole: orientation, scaling, recognition, boxes mapped back to original pixels. */
export async function readWholePage(pool: OcrPool, page: RasterPage, opts: RecognizeOptions = {}): Promise<OcrResult> {
  const { signal } = opts;
  if (pool.isClosed) throw new ReceiptKitError('ENGINE_CLOSED', 'the OCR pool is closed');
  if (signal?.aborted) throw abortError();
  const started = performance.now();
  const warnings = [...pool.languages(opts.languages).warnings];
  const work = await pool.working(page, opts.scaling ? { ...pool.scaling, ...opts.scaling } : pool.scaling, opts.enhance !== false);
  const detect = opts.detectOrientation !== false && opts.rotation === undefined;
  let direction: TextDirection | undefined;
  if (detect) direction = textDirection(await analysisCopy(work, AXIS_ANALYSIS_LONG_SIDE));
  if (signal?.aborted) throw abortError();
  const vertical = opts.vertical ?? (direction ? textIsVertical(direction, opts.axis) : false);
  const base: Rotation = opts.rotation ?? (vertical ? 90 : 0);
  let read = { pool, work, languages: opts.languages, signal };
  let reading = opts.region && !detect ? await readRegion(read, base, opts.region) : await readTurned(read, base);
  // (the page's first reading only: a later pass that reads few words, a band or a small scale, proves nothing of the ink)
  const faint = detect && opts.vertical === undefined ? await faintInkReading(page, read, base, reading) : undefined;
  if (faint) { read = faint.read; reading = faint.reading; }
  let orientationConfidence = 0;
  let evidence: OrientationEvidence | undefined;
  if (detect && direction) {
    const search = await uprightOrTurned(read, base, reading);
    reading = search.reading;
    evidence = { directionScore: round2(direction.score), ...(opts.axis ? { detectorScore: round2(opts.axis.score) } : {}), ...search.evidence };
    const axisSure = Math.max(Math.abs(direction.score), opts.axis && opts.axis.lines >= AXIS_MIN_LINES ? Math.abs(opts.axis.score) : 0);
    orientationConfidence = Math.round(Math.min(1, axisSure / 0.3) * search.flipEvidence * 100) / 100;
  }
  return {
    page: toPage(page, read.work, reading),
    rotation: reading.rotation,
    orientationConfidence,
    ...(evidence ? { orientationEvidence: evidence } : {}),
    ms: Math.round(performance.now() - started),
    enhanced: read.work.photo,
    warnings,
  };
}

interface PassContext { pool: OcrPool; work: WorkingImage; languages: string[] | undefined; signal: AbortSignal | undefined }

/** The reader options of every pass of a page: its languages and its signal. */
function passOptions(c: PassContext): ReadOptions {
  return { ...(c.languages ? { languages: c.languages } : {}), ...(c.signal ? { signal: c.signal } : {}) };
}

/** A whole-page reading with fewer words than this is read again from the faint-ink copy (faintInkReading). */
export const FAINT_MAX_WORDS = 5;

/**
 * A page whose first reading (orientation searched) holds next to no words, read again from its
 * faint-ink copy (preprocess.ts faintInkCopy: faint print beside a dark border, which tesseract's global
 * threshold loses whole). When the copy reads more words, the page is marked faint in the pool (every
 * later working image of it is the copy) and the copy's reading and pass context replace the first.
 */
async function faintInkReading(page: RasterPage, c: PassContext, base: Rotation, reading: Reading): Promise<{ read: PassContext; reading: Reading } | undefined> {
  const words = (r: Reading) => allWords(r).length;
  if (words(reading) >= FAINT_MAX_WORDS || c.pool.isFaint(page)) return undefined;
  const copy = await faintInkCopy(c.work);
  if (!copy) return undefined;
  const read = { ...c, work: copy };
  const again = await readTurned(read, base);
  if (words(again) <= words(reading)) return undefined;
  c.pool.markFaint(page);
  return { read, reading: again };
}

/** Full-page pass at a rotation. */
async function readTurned(c: PassContext, rotation: Rotation): Promise<Reading> {
  const img = rotateGray(c.work, rotation);
  const { lines } = await c.pool.readPage(img, passOptions(c));
  return { rotation, width: img.width, height: img.height, lines };
}

/**
 * A part of the page (upright frame at original resolution) read at a rotation: the crop of the turned
 * working image, its words placed back in the whole turned image's frame.
 */
async function readRegion(c: PassContext, rotation: Rotation, region: Box): Promise<Reading> {
  const img = rotateGray(c.work, rotation);
  const turned = rotation === 90 || rotation === 270;
  const fx = img.width / (turned ? c.work.originalHeight : c.work.originalWidth);
  const fy = img.height / (turned ? c.work.originalWidth : c.work.originalHeight);
  const x0 = Math.max(0, Math.floor(region.x0 * fx)), y0 = Math.max(0, Math.floor(region.y0 * fy));
  const x1 = Math.min(img.width, Math.ceil(region.x1 * fx)), y1 = Math.min(img.height, Math.ceil(region.y1 * fy));
  if (x1 - x0 < 8 || y1 - y0 < 8) return { rotation, width: img.width, height: img.height, lines: [] };
  const { lines } = await c.pool.readPage(cropGray(img, x0, y0, x1 - x0, y1 - y0), passOptions(c));
  const moved = lines.map((l) => l.map((w) => ({ ...w, box: { x0: w.box.x0 + x0, y0: w.box.y0 + y0, x1: w.box.x1 + x0, y1: w.box.y1 + y0 } })));
  return { rotation, width: img.width, height: img.height, lines: moved };
}

/**
 * Upright or upside down: a confident first reading stands; otherwise the densest band of the page is
 * read turned 180°, and when it reads clearly better the whole page is read turned.
 */
async function uprightOrTurned(c: PassContext, base: Rotation, reading: Reading): Promise<{ reading: Reading; evidence: Omit<OrientationEvidence, 'directionScore'>; flipEvidence: number }> {
  const first = readingQuality(allWords(reading));
  const evidence: Omit<OrientationEvidence, 'directionScore'> = { firstConfidence: round2(first.confidence), passes: 1 };
  if (first.confidence >= ACCEPT_CONFIDENCE) return { reading, evidence, flipEvidence: Math.min(1, (first.confidence - 0.3) / 0.3) };
  const band = densestBand(reading);
  const mine = readingQuality(allWords(reading).filter((w) => centreY(w.box) >= band.y0 && centreY(w.box) < band.y1));
  const other = readingQuality(await readBand(c, base, band));
  const gain = other.confidence - mine.confidence;
  evidence.band = { first: round2(mine.confidence), turned: round2(other.confidence) };
  evidence.passes = 2;
  let out = reading;
  if (gain > FLIP_MARGIN && other.confidence >= FLIP_MIN_CONFIDENCE && other.words >= FLIP_MIN_WORDS) {
    out = await readTurned(c, ((base + 180) % 360) as Rotation);
    evidence.passes = 3;
  }
  return { reading: out, evidence, flipEvidence: Math.min(1, Math.abs(gain) / 0.3) * Math.min(1, Math.max(mine.words, other.words) / 8) };
}

/** Words of a horizontal band (given in the `base` frame) read turned 180°. */
async function readBand(c: PassContext, base: Rotation, band: { y0: number; y1: number }): Promise<ReadWord[]> {
  const upright = rotateGray(c.work, base);
  const crop = rotateGray(cropGray(upright, 0, band.y0, upright.width, band.y1 - band.y0), 180);
  const { lines } = await c.pool.readPage(crop, passOptions(c));
  return lines.flat();
}

/**
 * Reads text lines of a page again, from the image at full resolution, each scaled so that the line is
 * each of `heights` pixels tall, in single-line mode: independent second opinions on a field's text.
 * `boxes` are in the upright frame of the page at original resolution (as Document boxes are). Returns,
 * per box, one word list per height (boxes mapped back to that frame); a line too small or too long
 * gives fewer (or no) readings.
 */
export async function rereadLines(pool: OcrPool, page: RasterPage, rotation: Rotation, boxes: readonly Box[], heights: readonly number[], opts: { languages?: string[]; signal?: AbortSignal } = {}): Promise<ReadWord[][][]> {
  if (pool.isClosed) throw new ReceiptKitError('ENGINE_CLOSED', 'the OCR pool is closed');
  if (opts.signal?.aborted) throw abortError();
  const work = await pool.working(page, { maxLongSide: REREAD_MAX_LONG_SIDE, minLongSide: 0, maxUpscale: 1 }, true);
  const s = work.scale;
  const scaled = boxes.map((b) => ({ x0: b.x0 * s, y0: b.y0 * s, x1: b.x1 * s, y1: b.y1 * s }));
  const reads = await pool.readRegions(rotateGray(work, rotation), scaled, { ...opts, mode: 'line', heights });
  return reads.map((perHeight) => perHeight.map((words) => words.map((w) => ({
    text: w.text, confidence: w.confidence, box: { x0: w.box.x0 / s, y0: w.box.y0 / s, x1: w.box.x1 / s, y1: w.box.y1 / s },
  }))));
}

function centreY(b: Box): number { return (b.y0 + b.y1) / 2; }

function allWords(r: Reading): ReadWord[] { return r.lines.flat(); }

/**
 * The horizontal band (BAND_FRACTION of the height, at least 6 text lines) where the reading found
 * the most letters and digits: the part of the page that says most about its orientation.
 */
function densestBand(r: Reading): { y0: number; y1: number } {
  const words = allWords(r);
  const heights = words.map((w) => w.box.y1 - w.box.y0).sort((a, b) => a - b);
  const lineH = heights.length ? heights[heights.length >> 1]! : 20;
  const h = Math.min(r.height, Math.max(Math.round(r.height * BAND_FRACTION), Math.round(lineH * 6 * 1.4)));
  let best = 0, bestY = Math.max(0, Math.round((r.height - h) / 2));
  const step = Math.max(1, Math.round(h / 8));
  for (let y = 0; y + h <= r.height; y += step) {
    let chars = 0;
    for (const w of words) {
      const c = centreY(w.box);
      if (c >= y && c < y + h) chars += w.text.replace(/[^\p{L}\p{N}]/gu, '').length;
    }
    if (chars > best) { best = chars; bestY = y; }
  }
  return { y0: bestY, y1: Math.min(r.height, bestY + h) };
}

/**
 * Maps a reading back to the upright frame at original resolution and makes Document lines: by default
 * one per line of the reading; `makeLines` groups the mapped words otherwise.
 */
export function toPage(page: RasterPage, work: WorkingImage, r: Reading, makeLines: (groups: Word[][]) => OcrPage['lines'] = (groups) => groups.map(lineFromWords)): OcrPage {
  const turned = r.rotation === 90 || r.rotation === 270;
  const width = turned ? work.originalHeight : work.originalWidth;
  const height = turned ? work.originalWidth : work.originalHeight;
  const fx = width / r.width, fy = height / r.height;
  const clampX = (v: number): number => Math.max(0, Math.min(width, v));
  const clampY = (v: number): number => Math.max(0, Math.min(height, v));
  const groups: Word[][] = r.lines.map((l) => l.map((w) => ({
    text: w.text,
    confidence: w.confidence,
    box: {
      x0: round1(clampX(w.box.x0 * fx)), y0: round1(clampY(w.box.y0 * fy)),
      x1: round1(clampX(w.box.x1 * fx)), y1: round1(clampY(w.box.y1 * fy)),
    },
  })));
  return {
    index: page.index, source: 'ocr', width, height,
    originalWidth: work.originalWidth, originalHeight: work.originalHeight,
    rotation: r.rotation, lines: makeLines(groups),
  };
}

function round1(v: number): number { return Math.round(v * 10) / 10; }
function round2(v: number): number { return Math.round(v * 100) / 100; }
