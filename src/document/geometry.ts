import type { Box, Document, Line, Page, PaperFrame, Point, Polygon, Word } from './types.js';

export function unionBox(boxes: readonly Box[]): Box {
  if (boxes.length === 0) return { x0: 0, y0: 0, x1: 0, y1: 0 };
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const b of boxes) {
    if (b.x0 < x0) x0 = b.x0;
    if (b.y0 < y0) y0 = b.y0;
    if (b.x1 > x1) x1 = b.x1;
    if (b.y1 > y1) y1 = b.y1;
  }
  return { x0, y0, x1, y1 };
}

/** Share of `a`'s area inside `b` (1 when `a` has no area). */
export function coverage(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0));
  const iy = Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
  const area = (a.x1 - a.x0) * (a.y1 - a.y0);
  return area > 0 ? (ix * iy) / area : 1;
}

/** The share of the smaller of two boxes that lies inside the other (0 when apart or either has no area, 1 when one holds the other). */
export function overlapShare(a: Box, b: Box): number {
  const hasArea = (x: Box) => x.x1 > x.x0 && x.y1 > x.y0;
  return hasArea(a) && hasArea(b) ? Math.max(coverage(a, b), coverage(b, a)) : 0;
}

/** Maps an upright-frame point back to original-image pixels (through the paper frame, when the page has one). */
export function toOriginalPoint(p: Point, page: Pick<Page, 'rotation' | 'originalWidth' | 'originalHeight' | 'paper'>): Point {
  // the frame the rotation turned: the paper when there is one, else the whole image
  const W = page.paper ? page.paper.width : page.originalWidth, H = page.paper ? page.paper.height : page.originalHeight;
  let q: Point;
  switch (page.rotation) {
    case 0: q = { x: p.x, y: p.y }; break;
    // original turned 90° clockwise to read upright: upright (x, y) came from original (y, H - x)
    case 90: q = { x: p.y, y: H - p.x }; break;
    case 180: q = { x: W - p.x, y: H - p.y }; break;
    case 270: q = { x: W - p.y, y: p.x }; break;
  }
  return page.paper ? paperToImagePoint(page.paper, q) : q;
}

/** A point of a paper frame (its straightened pixels, at the photo's resolution) in the photo's pixels. */
export function paperToImagePoint(frame: PaperFrame, p: Point): Point {
  const t = (frame.angle * Math.PI) / 180, c = Math.cos(t), s = Math.sin(t);
  const dx = p.x - frame.width / 2, dy = p.y - frame.height / 2;
  return { x: frame.cx + dx * c - dy * s, y: frame.cy + dx * s + dy * c };
}

/** Polygon (clockwise from the upright top-left corner) of a box, in original-image pixels, rounded. */
export function boxToPolygon(box: Box, page: Pick<Page, 'rotation' | 'originalWidth' | 'originalHeight' | 'paper'>): Polygon {
  const corners: Point[] = [
    { x: box.x0, y: box.y0 }, { x: box.x1, y: box.y0 }, { x: box.x1, y: box.y1 }, { x: box.x0, y: box.y1 },
  ];
  return corners.map((c) => {
    const o = toOriginalPoint(c, page);
    return { x: Math.round(o.x), y: Math.round(o.y) };
  }) as Polygon;
}

/**
 * Longest line text the field finders see. A receipt or invoice line is never this long; a longer
 * one (a text layer without line breaks, garbage read as text) is cut, so that the finders, which run
 * synchronously, stay linear and fast whatever the input.
 */
export const MAX_LINE_CHARS = 400;

/** A line cut to MAX_LINE_CHARS: its text, and the words that fit in it (joined by single spaces). */
function boundedLine<L extends Omit<Line, 'index' | 'page'>>(l: L): L {
  if (l.text.length <= MAX_LINE_CHARS) return l;
  let used = 0;
  let keep = 0;
  for (const w of l.words) {
    const next = used + (keep ? 1 : 0) + w.text.length;
    if (next > MAX_LINE_CHARS) break;
    used = next;
    keep++;
  }
  const words = l.words.slice(0, keep);
  return { ...l, text: l.text.slice(0, MAX_LINE_CHARS), words, ...(words.length ? { box: unionBox(words.map((w) => w.box)) } : {}) };
}

/** Builds a Document from pages of lines (each page's lines already in reading order; long lines cut to MAX_LINE_CHARS). */
export function buildDocument(pages: Array<Omit<Page, 'lineIndices'> & { lines: Array<Omit<Line, 'index' | 'page'>> }>): Document {
  const lines: Line[] = [];
  const outPages: Page[] = [];
  for (const p of pages) {
    const lineIndices: number[] = [];
    for (const l of p.lines) {
      const line: Line = { ...boundedLine(l), index: lines.length, page: p.index };
      lineIndices.push(line.index);
      lines.push(line);
    }
    const { lines: _ignored, ...rest } = p;
    outPages.push({ ...rest, lineIndices });
  }
  return { pages: outPages, lines, text: lines.map((l) => l.text).join('\n') };
}

/** Makes a Line from words (sorted left to right); text is the words joined by single spaces. */
export function lineFromWords(words: Word[]): Omit<Line, 'index' | 'page'> {
  const sorted = [...words].sort((a, b) => a.box.x0 - b.box.x0);
  const conf = sorted.length ? sorted.reduce((s, w) => s + w.confidence, 0) / sorted.length : 0;
  return { text: sorted.map((w) => w.text).join(' '), words: sorted, box: unionBox(sorted.map((w) => w.box)), confidence: conf };
}

/**
 * A Document from plain text, for tests and for callers that already have text: each line becomes a
 * Line with synthetic geometry (monospace 10 px wide, 20 px tall characters, 30 px line pitch).
 */
export function documentFromText(text: string, opts: { charWidth?: number; lineHeight?: number } = {}): Document {
  const cw = opts.charWidth ?? 10, lh = opts.lineHeight ?? 30;
  const rawLines = text.split('\n');
  const lines = rawLines.map((t, i) => {
    const words: Word[] = [];
    const re = /\S+/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(t))) {
      words.push({ text: m[0], confidence: 0.95, box: { x0: m.index * cw, y0: i * lh, x1: (m.index + m[0].length) * cw, y1: i * lh + 20 } });
    }
    return words.length ? lineFromWords(words) : { text: '', words: [], box: { x0: 0, y0: i * lh, x1: 0, y1: i * lh + 20 }, confidence: 0 };
  }).filter((l) => l.text.length > 0);
  const width = Math.max(1, ...rawLines.map((l) => l.length)) * cw;
  const height = rawLines.length * lh;
  return buildDocument([{ index: 0, source: 'ocr', width, height, originalWidth: width, originalHeight: height, rotation: 0, lines }]);
}
