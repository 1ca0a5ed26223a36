/**
 * Groups words into lines (reading order: top to bottom, then left to right) and turns PDF text
 * layers into pages of the Document.
 */
import type { Line, Page, Word } from './types.js';
import type { TextPage } from '../input/types.js';
import { lineFromWords, unionBox } from './geometry.js';

type PageWithLines = Omit<Page, 'lineIndices'> & { lines: Array<Omit<Line, 'index' | 'page'>> };

/**
 * Clusters words into lines by vertical overlap: a word joins the line whose vertical span overlaps
 * it by more than half of the smaller height. Lines are sorted by their vertical centre.
 */
export function linesFromWords(words: Word[]): Array<Omit<Line, 'index' | 'page'>> {
  const sorted = [...words].sort((a, b) => (a.box.y0 + a.box.y1) - (b.box.y0 + b.box.y1) || a.box.x0 - b.box.x0);
  const groups: Array<{ y0: number; y1: number; words: Word[] }> = [];
  for (const w of sorted) {
    const h = w.box.y1 - w.box.y0;
    let best: (typeof groups)[number] | undefined;
    let bestOverlap = 0;
    for (let i = groups.length - 1; i >= Math.max(0, groups.length - 6); i--) {
      const g = groups[i]!;
      const overlap = Math.min(g.y1, w.box.y1) - Math.max(g.y0, w.box.y0);
      const minH = Math.min(h, g.y1 - g.y0);
      if (overlap > 0.5 * minH && overlap > bestOverlap) { best = g; bestOverlap = overlap; }
    }
    if (best) {
      best.words.push(w);
      // keep the line's span from drifting: median-ish update
      best.y0 = Math.min(best.y0, w.box.y0 * 0.3 + best.y0 * 0.7);
      best.y1 = Math.max(best.y1, w.box.y1 * 0.3 + best.y1 * 0.7);
    } else {
      groups.push({ y0: w.box.y0, y1: w.box.y1, words: [w] });
    }
  }
  groups.sort((a, b) => (a.y0 + a.y1) - (b.y0 + b.y1));
  return groups.map((g) => {
    const line = lineFromWords(g.words);
    return { ...line, box: unionBox(g.words.map((w) => w.box)) };
  });
}

/** A PDF text-layer page as a Document page (no OCR; confidence 1). */
export function pageFromText(tp: TextPage): PageWithLines {
  return {
    index: tp.index, source: 'pdf-text',
    width: tp.width, height: tp.height, originalWidth: tp.width, originalHeight: tp.height, rotation: 0,
    lines: linesFromWords(tp.words),
  };
}
