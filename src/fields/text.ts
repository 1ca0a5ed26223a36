/** Helpers from line text positions to the words (and boxes) they came from. */
import type { Box, Line } from '../document/types.js';
import { foldText } from '../locale/keywords.js';

/** Character offsets of each word in `line.text` (words joined by single spaces). */
const offsetCache = new WeakMap<Line, Array<{ start: number; end: number }>>();

export function wordOffsets(line: Line): Array<{ start: number; end: number }> {
  const cached = offsetCache.get(line);
  if (cached) return cached;
  const out: Array<{ start: number; end: number }> = [];
  let pos = 0;
  for (const w of line.words) {
    const start = line.text.indexOf(w.text, pos);
    const s = start >= 0 ? start : pos;
    out.push({ start: s, end: s + w.text.length });
    pos = s + w.text.length;
  }
  offsetCache.set(line, out);
  return out;
}

/** Boxes of the words overlapping the character span [start, end) of the line; the line box when none. */
export function boxesForSpan(line: Line, start: number, end: number): Box[] {
  const offs = wordOffsets(line);
  const boxes: Box[] = [];
  offs.forEach((o, i) => { if (o.end > start && o.start < end) boxes.push(line.words[i]!.box); });
  return boxes.length ? boxes : [line.box];
}

/** Mean OCR confidence of the words in a span. */
export function confidenceForSpan(line: Line, start: number, end: number): number {
  const offs = wordOffsets(line);
  let s = 0, n = 0;
  offs.forEach((o, i) => { if (o.end > start && o.start < end) { s += line.words[i]!.confidence; n++; } });
  return n ? s / n : line.confidence;
}

/** Upper-cases and folds accents, for keyword matching (locale/keywords.ts foldText, one definition). */
export const fold: (s: string) => string = foldText;

/** A run of words on one line, separated from the next run by a wide gap (a column boundary). */
export interface Segment { line: Line; text: string; words: Line['words']; box: Box }

/** Splits a line at gaps wider than `gapFactor` times its text height (columns of invoices, address blocks beside titles). */
export function segmentsOf(line: Line, gapFactor = 2.5): Segment[] {
  const words = line.words;
  if (!words.length) return [{ line, text: line.text, words, box: line.box }];
  // the typical text height of the line (a bracket or a dot must not make every gap look wide)
  const hs = words.map((w) => w.box.y1 - w.box.y0).sort((a, b) => a - b);
  const h = Math.max(1, hs[Math.floor(hs.length / 2)]!);
  const out: Segment[] = [];
  let cur: Line['words'] = [words[0]!];
  const flush = () => {
    const box = cur.reduce((b, w) => ({ x0: Math.min(b.x0, w.box.x0), y0: Math.min(b.y0, w.box.y0), x1: Math.max(b.x1, w.box.x1), y1: Math.max(b.y1, w.box.y1) }), { ...cur[0]!.box });
    out.push({ line, text: cur.map((w) => w.text).join(' '), words: cur, box });
  };
  for (let i = 1; i < words.length; i++) {
    const gap = words[i]!.box.x0 - words[i - 1]!.box.x1;
    if (gap > gapFactor * h) { flush(); cur = [words[i]!]; } else cur.push(words[i]!);
  }
  flush();
  return out;
}
