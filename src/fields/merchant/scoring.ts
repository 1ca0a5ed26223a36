/**
 * Scoring rules, in order: each adds to a draft's score (a sum, so the order is kept as it was written)
 * and, mostly, an evidence term whose weight the name's confidence is computed from. What a rule found is
 * also the draft's feature of its name (`gain`: 1 when present, or a measure such as the line's place),
 * which scripts/fit-fields.mjs weighs for the fitted ranking (models/fields.json; the name's default, see
 * resolve/field-model.ts FITTED_BY_DEFAULT). The hand-set numbers rank with `ranking: 'hand-set'`.
 */
import { NOT_NAME, SHOP_WORD, letters, squash } from './patterns.js';
import type { Draft, ScoringRule } from './types.js';

/** Adds `points` x `value` to the draft's score, and `value` as its feature `name` (the fit's unit: hand-set weight `points`). */
export function gain(d: Pick<Draft, 'score' | 'features'>, name: string, points: number, value = 1): void {
  d.score += points * value;
  d.features[name] = (d.features[name] ?? 0) + value;
}

export const SCORING_RULES: readonly ScoringRule[] = [
  {
    name: 'company-suffix',
    doc: 'A company form (SDN BHD, GmbH, LLC, PT ...): +3.',
    score(d) { if (d.suffix) { gain(d, 'company-suffix', 3); d.terms.push({ name: 'company-suffix', weight: 0.8 }); } },
  },
  {
    name: 'shop-word',
    doc: 'No company form but a shop-type word (RESTORAN, MART, CAFE ...): +1.',
    score(d) { if (!d.suffix && SHOP_WORD.test(d.u)) { gain(d, 'shop-word', 1); d.terms.push({ name: 'shop-word', weight: 0.4 }); } },
  },
  {
    name: 'merchant-label',
    doc: 'Printed after a merchant label ("Sold by:", "Seller:"): +4.',
    score(d) { if (d.labelled) { gain(d, 'merchant-label', 4); d.terms.push({ name: 'merchant-label', weight: 1.0 }); } },
  },
  {
    name: 'sentence',
    doc: 'A company named in a sentence (3+ lower-case words: legal small print): -2.',
    score(d) {
      if (d.suffix && d.value.split(/\s+/).filter((w) => /^\p{Ll}[\p{Ll}'’.]*$/u.test(w)).length >= 3) { gain(d, 'sentence', -2); d.terms.push({ name: 'sentence', weight: -0.8 }); }
    },
  },
  {
    name: 'customer-block',
    doc: 'In the customer\'s block ("Bill to", "To:") and not labelled as the merchant: -5.',
    score(d, ctx) { if (ctx.customer.has(d.seg) && !d.labelled) { gain(d, 'customer-block', -5); d.terms.push({ name: 'customer-block', weight: -2 }); } },
  },
  {
    name: 'not-a-name',
    doc: 'Words of greetings, labels, phone, tax or table lines (NOT_NAME), no company form: -3.',
    score(d) { if (NOT_NAME.test(d.u) && !d.suffix) { gain(d, 'not-a-name', -3); d.terms.push({ name: 'not-a-name', weight: -1.5 }); } },
  },
  {
    name: 'address-like',
    doc: 'Reads like an address and has no company form: -2.5.',
    score(d) { if (d.addressy && !d.suffix) { gain(d, 'address-like', -2.5); d.terms.push({ name: 'address-like', weight: -1.2 }); } },
  },
  {
    name: 'brand',
    doc: 'Starts with a brand of the country (less than a company form): +2 in the header, +1 below it.',
    score(d) { if (d.brand) { if (d.inHeader) gain(d, 'brand-in-header', 2); else gain(d, 'brand-below-header', 1); d.terms.push({ name: 'brand', weight: 1.0 }); } },
  },
  {
    name: 'parenthesised',
    doc: 'Wholly in parentheses: -2 (no term).',
    score(d) { if (/^\(.*\)$/.test(d.value)) gain(d, 'parenthesised', -2); },
  },
  {
    name: 'header-position',
    doc: 'In the header: +1.5 less 0.3 a line (first-line term on the first); below it: -1.5.',
    score(d) {
      if (d.inHeader) {
        gain(d, 'header', 1.5);
        gain(d, 'header-line-order', -0.3, d.order);
        if (d.order === 0) { gain(d, 'first-line', 0); d.terms.push({ name: 'first-line', weight: 0.4 }); }
      } else gain(d, 'below-header', -1.5);
    },
  },
  {
    name: 'large-text',
    doc: 'Taller than 1.15 median lines: up to +2.',
    score(d, ctx) {
      const rel = (d.seg.box.y1 - d.seg.box.y0) / ctx.medianH;
      if (rel > 1.15) { gain(d, 'large-text', 2.5, Math.min(0.8, rel - 1)); d.terms.push({ name: 'large-text', weight: Math.min(0.3, (rel - 1) * 0.6) }); }
    },
  },
  {
    name: 'ocr-confidence',
    doc: 'OCR quality: (mean word confidence - 0.75) x 5; low-ocr, mid-ocr or ocr-high term.',
    score(d, ctx) {
      const seg = d.seg;
      const conf = seg.words.length ? seg.words.reduce((a, w) => a + w.confidence, 0) / seg.words.length : seg.line.confidence;
      gain(d, 'ocr-confidence', 5, conf - 0.75);
      // (low and middling OCR are terms of the confidence only: as features of the rank, the fit held both at 0)
      if (conf < 0.6) d.terms.push({ name: 'low-ocr', weight: -1.6 });
      else if (conf < 0.75) d.terms.push({ name: 'mid-ocr', weight: -0.6 });
      else if (conf >= 0.9 && !ctx.pdf) { gain(d, 'ocr-high', 0); d.terms.push({ name: 'ocr-high', weight: 0.8 }); }
    },
  },
  {
    name: 'no-words',
    doc: 'No word of 2+ letters with a vowel (OCR garbage): -2.',
    score(d) {
      const wordy = d.value.split(/\s+/).filter((w) => /^[\p{L}'&.-]{2,}$/u.test(w) && /[AEIOUYaeiouy]/.test(w)).length;
      if (!wordy) { gain(d, 'no-words', -2); d.terms.push({ name: 'no-words', weight: -1.5 }); }
    },
  },
  {
    name: 'short',
    doc: 'Fewer than 4 letters: -1.',
    score(d) { if (letters(d.value) < 4) { gain(d, 'short', -1); d.terms.push({ name: 'short', weight: -0.5 }); } },
  },
  {
    name: 'lower-case',
    doc: 'All lower case (3+ letters): -1.',
    score(d) { if (d.value === d.value.toLowerCase() && letters(d.value) >= 3) { gain(d, 'lower-case', -1); d.terms.push({ name: 'lower-case', weight: -0.5 }); } },
  },
  {
    name: 'domain-match',
    doc: 'The page\'s web or e-mail domain spells the name or its first word: +2.5.',
    score(d) { if (d.coreMatch || d.wordMatch) { gain(d, 'domain-match', 2.5); d.terms.push({ name: 'domain-match', weight: 1.2 }); } },
  },
  {
    name: 'picture-text',
    doc: 'Read by OCR from a picture on a PDF text page (a logo\'s slogan as often as a name): -4.',
    score(d, ctx) {
      if (ctx.pdf && d.seg.words.length && d.seg.words.every((w) => w.confidence < 1)) { gain(d, 'picture-text', -4); d.terms.push({ name: 'picture-text', weight: -1 }); }
    },
  },
  {
    name: 'repeated',
    doc: 'The name printed again on other lines (footer, bank line): +1 a line, up to +2.',
    score(d, ctx) {
      const sq = squash(d.value);
      if (sq.length < 4) return;
      const again = ctx.allSquashed.filter((t, k) => k !== d.seg.line.index && t.includes(sq)).length;
      if (again) { gain(d, 'repeated', 1, Math.min(2, again)); d.terms.push({ name: `repeated:${again + 1}`, weight: 0.8 }); }
    },
  },
];
