/** Helpers from line text positions to the words (and boxes) they came from. */
import type { Box, Line } from '../document/types.js';

/** Character offsets of each word in `line.text` (words joined by single spaces). */
export function wordOffsets(line: Line): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  let pos = 0;
  for (const w of line.words) {
    const start = line.text.indexOf(w.text, pos);
    const s = start >= 0 ? start : pos;
    out.push({ start: s, end: s + w.text.length });
    pos = s + w.text.length;
  }
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

/** Upper-cases and folds accents, for keyword matching. */
export function fold(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase();
}
