/**
 * The fast reading of a one-page image (engine option `reading: 'fast'`, experimental; the default is
 * the thorough reading, read/index.ts): one fast primary reading of the whole page, then targeted
 * looks by a line reader at the lines that need them, never a whole second page pass unless the first
 * reading found no total or no date.
 *
 *   1. orientation: text direction from geometry (ocr/orientation.ts); upright or upside down from the
 *      primary reader's own direction vote (PaddleOCR's classifier);
 *   2. the primary reader (PaddleOCR) reads the page; lines are made from its words' geometry;
 *   3. the header band (the lines above the first amount or date, at most HEADER_MAX_LINES) is read
 *      again by the line reader (tesseract), which names merchants and addresses better (bench/OCR.md):
 *      the document is the line reader's header over the primary's body;
 *   4. the lines of the total, the date and the tax are read by the other reader (tesseract for the
 *      body, PaddleOCR's own words for the header) and the fields of both readings are weighed
 *      (combine.ts: agreement raises, disagreement caps below 0.9);
 *   5. only when the first reading has no total or no date: the whole page is read by the line reader
 *      and weighed the same way (the tail, bounded by the benchmark's p95);
 *   6. an uncertain date's line, and item lines that do not add up, are read again (second-look.ts).
 */
import type { RasterPage } from '../input/types.js';
import type { Box, Document, Line, Word } from '../document/types.js';
import { buildDocument, lineFromWords } from '../document/geometry.js';
import { linesFromWords } from '../document/layout.js';
import { extractFields, taxAtTotal } from '../extract/index.js';
import type { FieldContext, FieldResults } from '../fields/types.js';
import { capUnsettledOrder, combineReadings } from './combine.js';
import { REREAD_HEIGHTS, secondLookDate, secondLookItems, withLine } from './second-look.js';
import { analysisCopy, rotateGray } from '../ocr/preprocess.js';
import type { GrayImage, Rotation, WorkingImage } from '../ocr/preprocess.js';
import { AXIS_ANALYSIS_LONG_SIDE, textDirection } from '../ocr/orientation.js';
import type { LineReader, PageReader, ReadWord } from '../ocr/reader.js';
import type { OcrPage } from './whole-page.js';
import { StageClock } from './clock.js';

/**
 * The header band holds at most this many lines of the first reading: a Malaysian header (name, company
 * number, three or four address lines, phone, fax, GST number) runs to 12 or more, and a band cut inside
 * the address joins two readings in the middle of it.
 */
export const HEADER_MAX_LINES = 16;
/**
 * The header band ends before the first line that ends with an amount with decimals (an item, a total;
 * a tax-code letter or mark after it aside) or holds a date. An amount-like run inside a line is an
 * address's house numbers ("NO 33,35, G F JALAN ...") as often as a price.
 */
const BODY_START = /\d[.,]\d{2}(?!\d)\s*[A-Z*#%]{0,2}\s*$|\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b/i;

export interface FastReaders {
  /** Reads the whole page first; must report upside-down pages (`readPage(..., { detectFlip })`). */
  primary: PageReader & LineReader;
  /** Reads the header band, the field lines and, in the tail, the whole page. */
  lines: PageReader & LineReader;
  /** The page's working image (decoded once per page, shared with any other reading of it). */
  working(page: RasterPage, enhance: boolean): Promise<WorkingImage>;
}

export interface FastReading {
  document: Document;
  fields: FieldResults;
  rotation: Rotation;
  orientationConfidence: number;
  warnings: string[];
}

/** What the steps of the fast reading share: the upright working image, its frame, and the first reading. */
interface Fast {
  readers: FastReaders;
  ctx: { fields: FieldContext; languages: string[]; signal: AbortSignal };
  clock: StageClock;
  warnings: string[];
  upright: GrayImage;
  rotation: Rotation;
  orientationConfidence: number;
  /** The page's frame (OcrPage without its lines). */
  meta: Omit<OcrPage, 'lines'>;
  /** Working-image words to the frame's pixels, and boxes back. */
  toOriginal(w: ReadWord): Word;
  toWorking(b: Box): Box;
  /** The primary reader's reading. */
  docP: Document;
}

/** Decodes the page, finds its text direction, reads it whole with the primary reader (which says whether it is upside down). */
async function readFirst(page: RasterPage, readers: FastReaders, ctx: Fast['ctx'], clock: StageClock): Promise<Fast> {
  const { signal, languages } = ctx;
  const work = await clock.time('decode', () => readers.working(page, false));
  const direction = await clock.time('orientation', async () => textDirection(await analysisCopy(work, AXIS_ANALYSIS_LONG_SIDE)));
  let rotation: Rotation = direction.vertical ? 90 : 0;
  let upright = rotateGray(work, rotation);
  const first = await clock.time(`read:${readers.primary.name}`, () => readers.primary.readPage(upright, { languages, signal, detectFlip: true }));
  if (first.flipped) {
    rotation = ((rotation + 180) % 360) as Rotation;
    upright = rotateGray(work, rotation);
  }
  const orientationConfidence = Math.round(Math.min(1, Math.abs(direction.score) / 0.3) * (first.flipConfidence ?? 0) * 100) / 100;
  const s = work.scale;
  const toOriginal = (w: ReadWord): Word => ({ text: w.text, confidence: w.confidence, box: { x0: w.box.x0 / s, y0: w.box.y0 / s, x1: w.box.x1 / s, y1: w.box.y1 / s } });
  const toWorking = (b: Box): Box => ({ x0: b.x0 * s, y0: b.y0 * s, x1: b.x1 * s, y1: b.y1 * s });
  const turned = rotation === 90 || rotation === 270;
  const meta: Omit<OcrPage, 'lines'> = {
    index: page.index, source: 'ocr',
    width: turned ? work.originalHeight : work.originalWidth, height: turned ? work.originalWidth : work.originalHeight,
    originalWidth: work.originalWidth, originalHeight: work.originalHeight, rotation,
    // read from the paper found in the photo: boxes are in its frame, mapped back through it
    ...(work.paper ? { paper: work.paper, originalWidth: work.paper.imageWidth, originalHeight: work.paper.imageHeight } : {}),
  };
  const primaryWords = first.lines.flat().map(toOriginal);
  const docP = buildDocument([{ ...meta, lines: first.grouped ? first.lines.map((l) => lineFromWords(l.map(toOriginal))) : linesFromWords(primaryWords) }]);
  return { readers, ctx, clock, warnings: [], upright, rotation, orientationConfidence, meta, toOriginal, toWorking, docP };
}

/** The header band (headerLineCount) read again by the line reader, in place of the primary reading's header lines. */
async function readHeaderBand(f: Fast, headerEnd: number): Promise<Document> {
  const { docP, meta, ctx: { signal, languages } } = f;
  if (headerEnd <= 0 || signal.aborted) return docP;
  const bottom = docP.lines[headerEnd - 1]!.box.y1;
  const next = docP.lines[headerEnd];
  const cut = next ? Math.min(next.box.y0, bottom + (next.box.y0 - bottom) / 2) : bottom;
  const band: Box = { x0: 0, y0: 0, x1: meta.width, y1: Math.min(meta.height, cut + 0.25 * lineHeight(docP)) };
  try {
    const read = await f.clock.time(`header:${f.readers.lines.name}`, () => f.readers.lines.readRegions(f.upright, [f.toWorking(band)], { mode: 'block', languages, signal }));
    const words = (read[0]?.[0] ?? []).map(f.toOriginal).filter((w) => w.text.trim());
    if (!words.length) return docP;
    const body = docP.lines.slice(headerEnd).map(({ index: _i, page: _p, ...l }) => l);
    const header = linesFromWords(words).filter((l) => (l.box.y0 + l.box.y1) / 2 < cut);
    return buildDocument([{ ...meta, lines: [...header, ...body] }]);
  } catch (e) {
    if (signal.aborted) throw e;
    f.warnings.push(`the header was not read again: ${e instanceof Error ? e.message : String(e)}`);
    return docP;
  }
}

/**
 * The lines of the total, the date and the tax, read by the other reader (tesseract for the body,
 * PaddleOCR's own words for the header) and weighed as a second opinion where it read the value on a
 * line it re-read: a value both derive from the same unread lines (a sum of items) is one reading, not two.
 */
async function readFieldLines(f: Fast, doc: Document, inHeader: (i: number) => boolean, fields: FieldResults): Promise<FieldResults> {
  const { signal, languages } = f.ctx;
  const keys = (['totalAmount', 'date', 'taxAmount'] as const).filter((k) => fields[k]);
  const targets = [...new Set(keys.map((k) => fields[k]!.lineIndex))].filter((i) => doc.lines[i]);
  if (signal.aborted || !targets.length) return fields;
  let other = doc;
  const body = targets.filter((i) => !inHeader(i));
  for (const i of targets.filter(inHeader)) {
    const words = wordsInside(f.docP, doc.lines[i]!.box);
    if (words.length) other = withLine(other, i, words);
  }
  if (body.length) {
    try {
      const reads = await f.clock.time(`lines:${f.readers.lines.name}`, () => f.readers.lines.readRegions(f.upright, body.map((i) => f.toWorking(doc.lines[i]!.box)), { mode: 'line', heights: [48], languages, signal }));
      body.forEach((i, j) => { const ws = reads[j]?.[0]; if (ws?.length) other = withLine(other, i, ws.map(f.toOriginal)); });
    } catch (e) {
      if (signal.aborted) throw e;
    }
  }
  if (other === doc) return fields;
  const again = f.clock.timeSync('fields', () => extractFields(other, { ...f.ctx.fields, extractLineItems: false }));
  const opinion: FieldResults = { ...again, lineItems: undefined, itemsCheck: undefined };
  for (const k of keys) {
    const mine = fields[k], theirs = opinion[k];
    if (theirs && (!targets.includes(theirs.lineIndex) || !theirs.boxes.length || !mine?.boxes.length)) opinion[k] = undefined;
  }
  return combineReadings(doc, fields, other, opinion, 'line-reader', { hints: f.ctx.fields });
}

/** The tail: no total or no date in the first reading: the whole page by the line reader, weighed. */
async function readTail(f: Fast, doc: Document, fields: FieldResults): Promise<FieldResults> {
  const { signal, languages } = f.ctx;
  if ((fields.totalAmount && fields.date) || signal.aborted) return fields;
  try {
    const whole = await f.clock.time(`page:${f.readers.lines.name}`, () => f.readers.lines.readPage(f.upright, { languages, signal }));
    const lines = whole.grouped ? whole.lines.map((l) => lineFromWords(l.map(f.toOriginal))) : linesFromWords(whole.lines.flat().map(f.toOriginal));
    const docT = buildDocument([{ ...f.meta, lines }]);
    const fieldsT = f.clock.timeSync('fields', () => extractFields(docT, f.ctx.fields));
    return combineReadings(doc, fields, docT, fieldsT, 'second-reader', { hints: f.ctx.fields, taxAt: (d, total) => taxAtTotal(d, f.ctx.fields, total) });
  } catch (e) {
    if (signal.aborted) throw e;
    return fields;
  }
}

/** Second looks: an uncertain date's line, items that do not add up (line reader, at several heights); a failed look leaves the fields. */
async function secondLooks(f: Fast, doc: Document, fields: FieldResults): Promise<FieldResults> {
  const { signal, languages } = f.ctx;
  const reread = async (lines: Line[], heights: readonly number[] = REREAD_HEIGHTS): Promise<ReadWord[][][]> => {
    const reads = await f.clock.time(`lines:${f.readers.lines.name}`, () => f.readers.lines.readRegions(f.upright, lines.map((l) => f.toWorking(l.box)), { mode: 'line', heights, languages, signal }));
    return reads.map((perHeight) => perHeight.map((ws) => ws.map(f.toOriginal)));
  };
  const guarded = async (look: () => Promise<FieldResults>, fallback: FieldResults): Promise<FieldResults> => {
    try { return await look(); } catch (e) { if (signal.aborted) throw e; return fallback; }
  };
  const before = fields;
  let out = await guarded(() => secondLookDate(doc, before, f.ctx.fields, reread), before);
  if (f.ctx.fields.extractLineItems) {
    const now = out;
    out = await guarded(() => secondLookItems(doc, now, f.ctx.fields, reread), now);
  }
  return out;
}

export async function readImageFast(page: RasterPage, readers: FastReaders, ctx: { fields: FieldContext; languages: string[]; signal: AbortSignal; clock?: StageClock }): Promise<FastReading> {
  const f = await readFirst(page, readers, ctx, ctx.clock ?? new StageClock());
  const { docP } = f;
  const headerEnd = headerLineCount(docP);
  const doc = await readHeaderBand(f, headerEnd);
  const headerCut = doc === docP ? -1 : doc.lines.findIndex((l) => l.words === docP.lines[headerEnd]?.words);
  const inHeader = (i: number): boolean => doc !== docP && (headerCut < 0 || i < headerCut);
  let fields = f.clock.timeSync('fields', () => extractFields(doc, ctx.fields));
  fields = await readFieldLines(f, doc, inHeader, fields);
  fields = await readTail(f, doc, fields);
  fields = await secondLooks(f, doc, fields);
  return { document: doc, fields: capUnsettledOrder(fields), rotation: f.rotation, orientationConfidence: f.orientationConfidence, warnings: f.warnings };
}

/** Lines of the header band: from the top to the line before the first line ending with an amount, or holding a date, at most HEADER_MAX_LINES. */
export function headerLineCount(doc: Document): number {
  const n = Math.min(doc.lines.length, HEADER_MAX_LINES);
  for (let i = 0; i < n; i++) if (BODY_START.test(doc.lines[i]!.text)) return i;
  return n;
}

function lineHeight(doc: Document): number {
  const hs = doc.lines.map((l) => l.box.y1 - l.box.y0).sort((a, b) => a - b);
  return hs[hs.length >> 1] ?? 20;
}

/** Words of a reading whose centre lies inside a box. */
function wordsInside(doc: Document, box: Box): Word[] {
  const out: Word[] = [];
  for (const l of doc.lines) for (const w of l.words) {
    const cx = (w.box.x0 + w.box.x1) / 2, cy = (w.box.y0 + w.box.y1) / 2;
    if (cx >= box.x0 && cx <= box.x1 && cy >= box.y0 && cy <= box.y1) out.push(w);
  }
  return out;
}

