/**
 * The part of a page where its text is: what a whole-page re-reading of a photo needs to read. A small
 * receipt on a patterned tablecloth fills a quarter of its photo; the confirming passes read the page
 * again at up to twice its size, and tesseract spends most of that time on the cloth.
 */
import type { Box, Document, Line } from '../document/types.js';

/** A word this confident (0..1)... */
const REGION_WORD_CONFIDENCE = 0.6;
/** ...with at least this many letters or digits makes its line text. */
const REGION_WORD_CHARS = 3;
/** Fewer text lines than this: no region (too little to say where the text is). */
const REGION_MIN_LINES = 3;
/** Margin around the text, in median text-line heights. */
const REGION_MARGIN_LINES = 2;
/** A region covering at least this share of the page is the page. */
export const REGION_MAX_SHARE = 0.6;

function isText(l: Line): boolean {
  return l.words.some((w) => w.confidence >= REGION_WORD_CONFIDENCE && (w.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= REGION_WORD_CHARS);
}

/**
 * The box (page frame at original resolution) around the text lines of page 0 of a reading by the
 * text detector's reader (PaddleOCR: its lines are the text's own boxes; tesseract's first reading can
 * run a line across the whole cloth), grown to hold `keep` (the boxes of the values found so far), with
 * a margin; undefined when the text covers most of the page (read it whole) or too few lines were read.
 */
export function textRegion(doc: Document, keep: readonly Box[] = []): Box | undefined {
  const page = doc.pages[0];
  if (!page) return undefined;
  const lines = doc.lines.filter((l) => l.page === 0 && isText(l));
  if (lines.length < REGION_MIN_LINES) return undefined;
  const heights = lines.map((l) => l.box.y1 - l.box.y0).sort((a, b) => a - b);
  const m = heights[heights.length >> 1]! * REGION_MARGIN_LINES;
  const boxes = [...lines.map((l) => l.box), ...keep];
  const box = {
    x0: Math.max(0, Math.min(...boxes.map((b) => b.x0)) - m),
    y0: Math.max(0, Math.min(...boxes.map((b) => b.y0)) - m),
    x1: Math.min(page.width, Math.max(...boxes.map((b) => b.x1)) + m),
    y1: Math.min(page.height, Math.max(...boxes.map((b) => b.y1)) + m),
  };
  return (box.x1 - box.x0) * (box.y1 - box.y0) >= REGION_MAX_SHARE * page.width * page.height ? undefined : box;
}
