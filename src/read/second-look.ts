/**
 * Second looks at uncertain fields, from the image again.
 *
 * The date: when the chosen date is not certain, its line is read again from the image
 * (at full resolution, at several text heights, in single-line mode) and the fields are extracted again
 * from each reading. The readings are independent opinions on the same printed characters:
 *
 * - every re-reading gives the same date as the first pass: OCR is not the doubt, the confidence rises
 *   to the high band (measured on the corpus: precision of dates at >= 0.9 stayed >= 97 %);
 * - every re-reading agrees on another date: the first pass misread a digit (8/6, 3/8, 5/6 ...), the
 *   re-read date is taken with a moderate confidence;
 * - otherwise nothing changes.
 *
 * The total: only where the two readers disagree on it, the lines both took it from are read again
 * (secondLookTotal); a total one reader is unsure of alone is not re-read, since re-reading a total's line
 * alone agreed on wrong values too often (multi-line totals, amounts whose meaning depends on the lines around them).
 *
 * Photographed pages are read from an enlarged, locally equalised image (ocr/preprocess.ts). That reading
 * finds more totals and dates overall but loses some the plain image gave, so when its total or date is
 * uncertain the plain image is read too (`preferAlternate`): per field, the more confident reading wins.
 * Measured on the 81 phone photos: totals 60 (enhanced only) / 57 (plain only) -> 67 of 78 expected.
 * When both images give the same date (neither by a digit guess), the date rises to 0.9: on the 81
 * photos the two readings agreed on 37 dates, all right (10 of them below 0.9 before).
 *
 * Line items: when the items do not add up to the subtotal or total, their amount lines are read again
 * (all of them, at each text height) and the items are taken from the first reading in which they add
 * up. The arithmetic is the judge, so a re-reading is only used when it makes the receipt consistent.
 */
import type { Box, Document, Line, Word } from '../document/types.js';
import { lineFromWords } from '../document/geometry.js';
import { extractFields } from '../extract/index.js';
import type { FieldContext, FieldResults } from '../fields/types.js';
import { roundConfidence } from '../fields/confidence.js';
import { same } from '../resolve/arithmetic.js';
import { parseTime } from '../locale/dates.js';

/** Text heights (pixels) of the re-readings. */
export const REREAD_HEIGHTS: readonly number[] = [36, 48, 64];
/** Below this confidence a date gets a second look. */
export const SECOND_LOOK_BELOW = 0.9;

type ReadWord = Pick<Word, 'text' | 'confidence' | 'box'>;
/**
 * Reads lines again: per line, one word list per text height (empty when a line cannot be read), at
 * `heights` (REREAD_HEIGHTS unless given). One reader serves one look: the budget is asked on its first call.
 */
export type LinesReader = (lines: Line[], heights?: readonly number[]) => Promise<ReadWord[][][]>;
/** At most this many item lines are read again. */
export const MAX_ITEM_LINES = 16;

/** The document with one line replaced by another reading of it. */
export function withLine(doc: Document, index: number, words: Array<Pick<Word, 'text' | 'confidence' | 'box'>>): Document {
  const old = doc.lines[index]!;
  const line: Line = { ...lineFromWords(words.map((w) => ({ text: w.text, confidence: w.confidence, box: w.box }))), index, page: old.page };
  const lines = doc.lines.map((l) => (l.index === index ? line : l));
  return { pages: doc.pages, lines, text: lines.map((l) => l.text).join('\n') };
}

/** The alternate reading must be this much more confident to replace a field. */
export const ALTERNATE_MARGIN = 0.05;
/** Fields an alternate reading of the page may replace. */
const ALTERNATE_FIELDS = ['totalAmount', 'date'] as const;
/** ...and the fields it may then replace (the merchant's name is read from the same header pixels). */
const REPLACEABLE_FIELDS = ['totalAmount', 'date', 'merchantName'] as const;

/** Does this extraction of a photographed page need the alternate (plain) reading? */
export function needsAlternate(fields: FieldResults): boolean {
  return ALTERNATE_FIELDS.some((k) => !fields[k] || fields[k]!.confidence < SECOND_LOOK_BELOW);
}

/**
 * Per field (total, date, merchant name): the alternate reading's value when it is more confident than the first by
 * ALTERNATE_MARGIN (or the first has none). Its line index is mapped to the first document's line
 * that overlaps it most (boxes of both readings are in the same upright frame).
 */
export function preferAlternate(doc: Document, fields: FieldResults, altDoc: Document, alt: FieldResults, keys: ReadonlyArray<(typeof REPLACEABLE_FIELDS)[number]> = REPLACEABLE_FIELDS, tag = 'plain-reading', confirmsDate = true): FieldResults {
  let out = fields;
  const d = fields.date;
  for (const k of keys) {
    const a = alt[k];
    const f = fields[k];
    // the same date from both images, neither a digit guess: two readings of different pixels agree
    if (k === 'date' && confirmsDate && d && alt.date?.value === d.value && d.confidence < SECOND_LOOK_BELOW && !d.marks?.digitGuess && !alt.date.marks?.digitGuess) {
      out = { ...out, date: { ...d, confidence: roundConfidence(SECOND_LOOK_BELOW) }, evidence: { ...out.evidence, date: [...(out.evidence?.date ?? []), `${tag}-agrees`] } };
      continue;
    }
    if (!a || (f && a.confidence <= f.confidence + ALTERNATE_MARGIN)) continue;
    const altLine = altDoc.lines[a.lineIndex];
    const lineIndex = altLine ? closestLine(doc, altLine) : -1;
    if (lineIndex < 0) continue;
    out = { ...out, [k]: { ...a, lineIndex }, evidence: { ...out.evidence, [k]: [...(alt.evidence?.[k] ?? []), tag] } };
  }
  return out;
}

/** Index of the line of `doc` on the same page overlapping `line` most (by area), else nearest by centre; -1 when the page has none. */
export function closestLine(doc: Document, line: Line): number {
  let best = -1, bestScore = -Infinity;
  const b = line.box;
  for (const l of doc.lines) {
    if (l.page !== line.page) continue;
    const ox = Math.max(0, Math.min(b.x1, l.box.x1) - Math.max(b.x0, l.box.x0));
    const oy = Math.max(0, Math.min(b.y1, l.box.y1) - Math.max(b.y0, l.box.y0));
    const score = ox * oy > 0 ? ox * oy : -Math.abs((b.y0 + b.y1) / 2 - (l.box.y0 + l.box.y1) / 2);
    if (score > bestScore) { bestScore = score; best = l.index; }
  }
  return best;
}

/** With no date at all, at most this many lines holding a time of day are read again to find one. */
export const MISSING_DATE_LINES = 3;

/**
 * The text inside a text detector's line box: the detector's box is grown around the text (unclip) and
 * is the bound of a slanted line, about twice the text's height; the line re-readings scale a box's
 * height to REREAD_HEIGHTS, so a detector's box is taken at half its height, about its centre.
 */
export function detectorTextBox(b: Box): Box {
  const cy = (b.y0 + b.y1) / 2, h = (b.y1 - b.y0) / 4;
  return { x0: b.x0, y0: cy - h, x1: b.x1, y1: cy + h };
}

/** A year of this century or the last's, not part of a longer number ("VEN18AR2014" holds one). */
const YEAR_IN_TEXT = /(?<!\d)(?:19[89]\d|20[0-4]\d)(?!\d)/;

/**
 * No date was read: the first lines printing a time (dates are printed beside times) are read again; a
 * date two readings of one line agree on is taken, at most 0.8. When the second reader's reading
 * (`secondDoc`, same page frame) is given, its lines printing a time or a year that the first reading
 * has no such line for are read too (at detectorTextBox), in the first reading's closest line (a first
 * reading of noise on a patterned cloth, where the second read "VEN18AR2014 21:").
 */
async function findMissingDate(doc: Document, fields: FieldResults, ctx: FieldContext, read: LinesReader, secondDoc?: Document): Promise<FieldResults> {
  const ocr = (d: Document, l: Line) => d.pages[l.page]?.source === 'ocr';
  const mine = doc.lines.filter((l) => ocr(doc, l) && parseTime(l.text)).map((line) => ({ line, at: line.index }));
  const theirs = (secondDoc?.lines ?? []).filter((l) => ocr(secondDoc!, l) && (parseTime(l.text) || YEAR_IN_TEXT.test(l.text)))
    .map((line) => ({ line: { ...line, box: detectorTextBox(line.box) }, at: closestLine(doc, line) }))
    .filter(({ at }) => at >= 0 && !mine.some((m) => m.at === at));
  const looks = [...mine, ...theirs].slice(0, MISSING_DATE_LINES);
  if (!looks.length) return fields;
  const reads = await read(looks.map((l) => l.line));
  for (const [j, { at }] of looks.entries()) {
    const results = (reads[j] ?? []).filter((ws) => ws.length > 0).map((ws) => extractFields(withLine(doc, at, ws), { ...ctx, extractLineItems: false }));
    const values = results.map((r) => (r.date && r.date.lineIndex === at && !r.date.marks?.digitGuess ? r.date.value : undefined));
    for (const [k, v] of values.entries()) {
      if (v === undefined || values.filter((x) => x === v).length < 2) continue;
      const found = results[k]!.date!;
      return { ...fields, date: { ...found, confidence: roundConfidence(Math.min(found.confidence, 0.8)) }, evidence: { ...fields.evidence, date: [...(results[k]!.evidence?.date ?? []), 'reread-finds'] } };
    }
  }
  return fields;
}

/**
 * A second look at the date: a date below SECOND_LOOK_BELOW, or one the other reader read otherwise
 * (`disputed`: "22-08-2014" against "22-09-2014", a digit of small print misread by one of them), has
 * its line read again at REREAD_HEIGHTS; readings that all agree confirm it or correct it. No date:
 * findMissingDate (with the second reader's lines, `secondDoc`, when given).
 */
export async function secondLookDate(doc: Document, fields: FieldResults, ctx: FieldContext, read: LinesReader, disputed = false, secondDoc?: Document): Promise<FieldResults> {
  const date = fields.date;
  if (!date) return findMissingDate(doc, fields, ctx, read, secondDoc);
  if (date.confidence >= SECOND_LOOK_BELOW && !disputed) return fields;
  const line = doc.lines[date.lineIndex];
  if (!line || doc.pages[line.page]?.source !== 'ocr') return fields;
  const readings = ((await read([line]))[0] ?? []).filter((ws) => ws.length > 0);
  if (readings.length < REREAD_HEIGHTS.length) return fields;
  const results = readings.map((ws) => extractFields(withLine(doc, line.index, ws), { ...ctx, extractLineItems: false }));
  const again = results.map((r) => r.date);
  const values = again.map((d) => d?.value);
  // a date guessed from a misread digit is confirmed only by readings that print it, not by the same guess again
  if (results.some((r) => r.date?.marks?.digitGuess)) return fields;
  if (values.every((v) => v === date.value)) {
    return { ...fields, date: { ...date, confidence: roundConfidence(Math.max(date.confidence, SECOND_LOOK_BELOW)) }, evidence: { ...fields.evidence, date: [...(fields.evidence?.date ?? []), 'reread-agrees'] } };
  }
  const first = again[0];
  if (first && values.every((v) => v !== undefined && v === first.value)) {
    return { ...fields, date: { ...first, confidence: roundConfidence(Math.min(first.confidence, 0.8)) }, evidence: { ...fields.evidence, date: [...(fields.evidence?.date ?? []), `reread-corrects:${date.value.slice(0, 10)}`] } };
  }
  return fields;
}

/** A disputed total's lines read again: at most this many. */
export const TOTAL_LOOK_LINES = 2;

/**
 * A second look at a disputed total: when the second reader's total differs from the first's, the line
 * of the first's total and the line the second's maps to are read again at REREAD_HEIGHTS (small print:
 * "Check Total 65.6" for 65.66). When every height gives one total printed on a re-read line (not one
 * the arithmetic or a digit repair made of it):
 * - another than the first's: it replaces it, with the first's confidence or its own, whichever is
 *   higher, at no more than 0.8 (`reread-corrects`);
 * - the first's, where both readers took their totals from one line: its confidence rises to
 *   SECOND_LOOK_BELOW (`reread-agrees`; the second misread the digits).
 * The readers are weighed after this as before. Readings that disagree change nothing.
 */
export async function secondLookTotal(doc: Document, fields: FieldResults, ctx: FieldContext, read: LinesReader, secondDoc: Document, second: FieldResults): Promise<FieldResults> {
  const t = fields.totalAmount, o = second.totalAmount;
  if (!t || !o || same(t.value, o.value)) return fields;
  const otherLine = secondDoc.lines[o.lineIndex];
  const indices = [...new Set([t.lineIndex, otherLine ? closestLine(doc, otherLine) : -1])].filter((i) => i >= 0).slice(0, TOTAL_LOOK_LINES);
  const lines = indices.map((i) => doc.lines[i]!).filter((l) => l && doc.pages[l.page]?.source === 'ocr');
  if (!lines.length) return fields;
  const reads = await read(lines);
  const found: Array<FieldResults['totalAmount']> = [];
  for (let k = 0; k < REREAD_HEIGHTS.length; k++) {
    let d = doc;
    lines.forEach((l, j) => { const ws = reads[j]?.[k]; if (ws?.length) d = withLine(d, l.index, ws); });
    if (d === doc) return fields;
    const f = extractFields(d, { ...ctx, extractLineItems: false }).totalAmount;
    // a total the re-read lines print at this height (not one the arithmetic or a digit repair made of them)
    const at = lines.findIndex((l) => l.index === f?.lineIndex);
    found.push(f && at >= 0 && printsValue((reads[at]?.[k] ?? []).map((w) => w.text).join(' '), f.value) ? f : undefined);
  }
  const v = found[0];
  if (!v || !found.every((f) => f && same(f.value, v.value))) return fields;
  if (same(v.value, t.value)) {
    // every height reads the first's total again on the line the second read another there: the second
    // misread its digits (totals on two lines are a choice between lines, which reading one again does not settle)
    if (indices.length > 1) return fields;
    return { ...fields, totalAmount: { ...t, confidence: roundConfidence(Math.max(t.confidence, SECOND_LOOK_BELOW)) }, evidence: { ...fields.evidence, totalAmount: [...(fields.evidence?.totalAmount ?? []), 'reread-agrees'] } };
  }
  return { ...fields, totalAmount: { ...v, confidence: roundConfidence(Math.min(Math.max(v.confidence, t.confidence), 0.8)) }, evidence: { ...fields.evidence, totalAmount: [...(fields.evidence?.totalAmount ?? []), `reread-corrects:${t.value}`] } };
}

/** The text prints the value's digits (with its cents, or a whole value without them). */
function printsValue(text: string, value: number): boolean {
  const digits = text.replace(/[^0-9]/g, '');
  return digits.includes(Math.abs(value).toFixed(2).replace('.', '')) || (Number.isInteger(value) && digits.includes(String(Math.abs(value))));
}

export async function secondLookItems(doc: Document, fields: FieldResults, ctx: FieldContext, read: LinesReader): Promise<FieldResults> {
  const items = fields.lineItems;
  if (!items?.length || !fields.itemsCheck || fields.itemsCheck.matches || fields.itemsCheck.against === 'none' && fields.itemsCheck.expected === undefined) return fields;
  const indices = [...new Set(items.map((it) => it.totalPrice.lineIndex))].slice(0, MAX_ITEM_LINES);
  const lines = indices.map((i) => doc.lines[i]!).filter((l) => doc.pages[l.page]?.source === 'ocr');
  if (!lines.length) return fields;
  // height by height, the next only when the last did not make the items add up (the same answer as
  // reading every height first: each line at each height is its own recognition)
  for (let k = 0; k < REREAD_HEIGHTS.length; k++) {
    const reads = await read(lines, [REREAD_HEIGHTS[k]!]);
    let d = doc;
    lines.forEach((l, j) => { const ws = reads[j]?.[0]; if (ws?.length) d = withLine(d, l.index, ws); });
    if (d === doc) continue;
    const again = extractFields(d, ctx);
    if (again.itemsCheck?.matches && again.lineItems?.length) {
      return { ...fields, lineItems: again.lineItems, itemsCheck: again.itemsCheck, evidence: { ...fields.evidence, lineItems: [`reread-adds-up:${REREAD_HEIGHTS[k]}px`] } };
    }
  }
  return fields;
}

/**
 * Confirming passes: the whole page read again at other resolutions (engine option `confirmPasses`).
 * When every pass gives the same total as the first, the value is not an accident of one
 * reading and its confidence rises to the high band. Agreement never switches values (measured: the
 * passes agreeing on another total were right as often as wrong); the engine lets a pass whose total
 * is more confident by ALTERNATE_MARGIN replace it first (`preferAlternate`), and then raises nothing.
 * Measured on sroie (178 scans), with the photo treatment of grey scans: totals 155 -> 161 right with
 * that replacement (7 fixed by a pass, 3 broken; 157 before either change).
 * Measured on the corpus with passes at 2800 and 1500 px: totals at >= 0.9 were right in 98 % of cases
 * on sroie (share 62 -> 82 %) and indo_receipts_phone (share 40 -> 64 %).
 */
export function confirmByPasses(fields: FieldResults, passes: FieldResults[]): FieldResults {
  if (!passes.length) return fields;
  let out = fields;
  const t = fields.totalAmount;
  if (t && t.confidence < SECOND_LOOK_BELOW && passes.every((p) => p.totalAmount !== undefined && same(p.totalAmount.value, t.value))) {
    out = { ...out, totalAmount: { ...t, confidence: roundConfidence(SECOND_LOOK_BELOW) }, evidence: { ...out.evidence, totalAmount: [...(out.evidence?.totalAmount ?? []), `passes-agree:${passes.length + 1}`] } };
  }
  // dates are not raised this way: measured, agreeing passes raised wrong dates too (sroie precision at
  // >= 0.9 fell to 96.2 %); the date's own line re-reading (secondLookDate) is the better judge
  return out;
}

/** Long sides (pixels) of the confirming passes, in order. */
export const CONFIRM_SCALES: readonly number[] = [2800, 1500];

/** Does this extraction need confirming passes? */
export function needsConfirmation(fields: FieldResults): boolean {
  return !!fields.totalAmount && fields.totalAmount.confidence < SECOND_LOOK_BELOW;
}
