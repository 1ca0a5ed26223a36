/**
 * What every merchant rule reads: the first page's lines cut into segments, their median height, the
 * header's length, the customer's block, the page's web and e-mail domains, the name to ignore.
 */
import type { Document, Line, Page } from '../../document/types.js';
import type { Locale } from '../../locale/index.js';
import { fold, segmentsOf } from '../text.js';
import type { Segment } from '../text.js';
import { CUSTOMER_LABEL, SECTION_START, domainsOf, squash } from './patterns.js';

export interface MerchantContext {
  doc: Document;
  locale: Locale;
  /** The first page, and its lines in reading order. */
  page: Page;
  lines: Line[];
  /** Median line height (1 when none). */
  medianH: number;
  /** The name never to return, squashed ('' when none). */
  ignore: string;
  /** A PDF text page (every word's confidence 1). */
  pdf: boolean;
  /** Gap between words (in character widths) that starts a new segment. */
  gap: number;
  /** Each line's segments. */
  segs: Segment[][];
  /** The page's website and e-mail domain labels. */
  domains: string[];
  /** Every line of the document, squashed. */
  allSquashed: string[];
  /** Segments of the customer's block ("Bill to", "To:" and the lines under it). */
  customer: Set<Segment>;
  /** Lines of the header: 12, 16 on a PDF text page. */
  headerLines: number;
}

/** The context of the merchant rules, or undefined when the first page has no lines. */
export function merchantContext(doc: Document, locale: Locale, opts: { ignoreMerchantName?: string }): MerchantContext | undefined {
  const page = doc.pages[0];
  if (!page) return undefined;
  const lines = page.lineIndices.map((i) => doc.lines[i]!);
  if (!lines.length) return undefined;
  const heights = lines.map((l) => l.box.y1 - l.box.y0).sort((a, b) => a - b);
  const medianH = heights[Math.floor(heights.length / 2)] || 1;
  const ignore = opts.ignoreMerchantName ? squash(opts.ignoreMerchantName) : '';
  const pdf = page.source === 'pdf-text';
  const gap = pdf ? 2.5 : 8;
  const segs = lines.map((l) => segmentsOf(l, gap));
  const domains = domainsOf(doc);
  const allSquashed = doc.lines.map((l) => squash(l.text));
  const customer = customerBlock(segs, medianH, page.width);
  const headerLines = Math.min(lines.length, pdf ? 16 : 12);
  return { doc, locale, page, lines, medianH, ignore, pdf, gap, segs, domains, allSquashed, customer, headerLines };
}

/** The customer's block: segments under a customer label, in its column, for a few lines. */
function customerBlock(segs: Segment[][], medianH: number, pageWidth: number): Set<Segment> {
  const customer = new Set<Segment>();
  segs.forEach((row, i) => {
    for (const seg of row) {
      const u = fold(seg.text);
      const m = CUSTOMER_LABEL.exec(u);
      if (!m) continue;
      customer.add(seg);
      const x0 = seg.box.x0 - medianH * 2, x1 = Math.max(seg.box.x1, seg.box.x0 + (pageWidth || 1000) * 0.35);
      // the block goes on while its lines follow closely and no new section starts
      let lastY = seg.box.y1;
      for (let j = i + 1; j < Math.min(segs.length, i + 6); j++) {
        const below = segs[j]!.filter((s2) => s2.box.x0 >= x0 && s2.box.x0 <= x1);
        if (!below.length) continue;
        const s2 = below[0]!;
        if (s2.box.y0 - lastY > medianH * 1.8 || SECTION_START.test(fold(s2.text))) break;
        for (const b of below) customer.add(b);
        lastY = s2.box.y1;
      }
    }
  });
  return customer;
}
