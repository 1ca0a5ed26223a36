/**
 * Words -> lines in reading order, and PDF text-layer pages -> Document pages.
 *
 * Line text is always the line's words joined by single spaces, for PDF text layers as for OCR
 * (tesseract's lines are built the same way): field patterns then see one spacing whatever the source,
 * and columns stay recoverable from the word boxes (see `segmentsOf` in fields/text.ts), which say more
 * than a count of spaces could.
 */
import type { Box, Line, Page, Word } from './types.js';
import { coverage, lineFromWords } from './geometry.js';

export type PageWithLines = Omit<Page, 'lineIndices'> & { lines: Array<Omit<Line, 'index' | 'page'>> };

/** Two words share a line when their vertical spans overlap by at least this share of the smaller height. */
const SAME_LINE_OVERLAP = 0.5;
/** Pieces of one word (a PDF run split by kerning or styling) are at most this far apart, in line heights. */
const FRAGMENT_GAP = 0.1;

interface Group { y0: number; y1: number; words: Word[] }

const height = (b: Box): number => Math.max(1e-6, b.y1 - b.y0);
const centreY = (b: Box): number => (b.y0 + b.y1) / 2;

/**
 * Groups words into lines: a word joins the line whose vertical band overlaps it most (at least half of
 * the smaller height) unless it would sit on top of a word already there; otherwise it starts a line.
 * Lines come out top to bottom (then left to right), their words left to right, with overprinted
 * duplicates (fake bold) dropped and touching fragments of one word joined. Words far apart on the same
 * baseline stay on one line, joined by a single space.
 */
export function linesFromWords(words: readonly Word[]): Array<Omit<Line, 'index' | 'page'>> {
  const sorted = words.filter((w) => w.text.trim().length > 0).sort((a, b) => centreY(a.box) - centreY(b.box) || a.box.x0 - b.box.x0);
  const groups: Group[] = [];
  for (const w of sorted) {
    const h = height(w.box);
    let best: Group | undefined;
    let bestRatio = 0;
    for (let i = groups.length - 1; i >= 0; i--) {
      const g = groups[i]!;
      if (g.y1 < w.box.y0 - 4 * h) break; // far above: no earlier group can overlap either (sorted by centre)
      const overlap = Math.min(g.y1, w.box.y1) - Math.max(g.y0, w.box.y0);
      const ratio = overlap / Math.min(h, g.y1 - g.y0 || 1e-6);
      if (ratio < SAME_LINE_OVERLAP || ratio <= bestRatio) continue;
      if (collides(g, w)) continue;
      best = g;
      bestRatio = ratio;
    }
    if (best) {
      best.words.push(w);
      // the band follows the line's median top and bottom, so one tall word does not widen it for good
      best.y0 = median(best.words.map((x) => x.box.y0));
      best.y1 = median(best.words.map((x) => x.box.y1));
    } else {
      groups.push({ y0: w.box.y0, y1: w.box.y1, words: [w] });
    }
  }
  groups.sort((a, b) => (a.y0 + a.y1) - (b.y0 + b.y1) || minX(a) - minX(b));
  return groups.map((g) => lineFromWords(joinFragments(dropOverprints(g.words))));
}

/**
 * What a PDF text-layer page gives a Document page: its index, size and words (input/types.ts TextPage
 * is one; the document layer needs no more of it).
 */
export type TextLayerPage = Pick<Page, 'index' | 'width' | 'height'> & { words: readonly Word[] };

/** A PDF text-layer page as a Document page (no OCR: confidence 1, upright, size as laid out). */
export function pageFromText(tp: TextLayerPage): PageWithLines {
  return {
    index: tp.index,
    source: 'pdf-text',
    width: tp.width,
    height: tp.height,
    originalWidth: tp.width,
    originalHeight: tp.height,
    rotation: 0,
    lines: linesFromWords(tp.words),
  };
}

/**
 * True when `w` sits on top of a word of the group (horizontal overlap over 30 % of the narrower one)
 * while sharing less than 80 % of its height: a word of the line above or below. Words at the same
 * height that overlap are overprints or fragments of one word and are sorted out per line.
 */
function collides(g: Group, w: Word): boolean {
  for (const o of g.words) {
    const ov = Math.min(o.box.x1, w.box.x1) - Math.max(o.box.x0, w.box.x0);
    const narrower = Math.min(o.box.x1 - o.box.x0, w.box.x1 - w.box.x0);
    if (ov <= 0.3 * narrower) continue;
    const vov = Math.min(o.box.y1, w.box.y1) - Math.max(o.box.y0, w.box.y0);
    if (vov < 0.8 * Math.min(height(o.box), height(w.box))) return true;
  }
  return false;
}

/**
 * Drops words drawn twice (PDF fake bold, or a run emitted whole and in pieces): a word mostly
 * (80 %) covered by another whose text contains it goes; of two equal ones the first stays.
 */
function dropOverprints(words: Word[]): Word[] {
  const sorted = [...words].sort((a, b) => a.box.x0 - b.box.x0);
  return sorted.filter((a, i) => !sorted.some((b, j) => j !== i
    && b.text.includes(a.text)
    && (b.text.length > a.text.length || j < i)
    && coverage(a.box, b.box) >= 0.8));
}

/** Joins pieces of one word that touch (gap under FRAGMENT_GAP line heights). */
function joinFragments(words: Word[]): Word[] {
  if (words.length < 2) return words;
  const h = median(words.map((w) => height(w.box)));
  const out: Word[] = [];
  for (const w of words) {
    const prev = out[out.length - 1];
    if (prev && w.box.x0 - prev.box.x1 < FRAGMENT_GAP * h && w.box.x0 >= prev.box.x0 + 0.5 * (prev.box.x1 - prev.box.x0)) {
      out[out.length - 1] = {
        text: prev.text + w.text,
        confidence: Math.min(prev.confidence, w.confidence),
        box: { x0: prev.box.x0, y0: Math.min(prev.box.y0, w.box.y0), x1: Math.max(prev.box.x1, w.box.x1), y1: Math.max(prev.box.y1, w.box.y1) },
      };
    } else out.push(w);
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function minX(g: Group): number {
  return Math.min(...g.words.map((w) => w.box.x0));
}
