/**
 * Candidate rules, in order: the header's lines, then below the header a line with a merchant label or
 * a company form (footers, bank lines), then the brands seen on the page. A segment is read as a name
 * (readSegment), facts about it gathered (draftOf), and the scored draft becomes a candidate (candidateOf).
 */
import { looksLikeAddress } from '../address.js';
import { brandAtStart, brandInCountry } from '../brands.js';
import { fold } from '../text.js';
import type { Segment } from '../text.js';
import { brandSighting } from './brand-rules.js';
import type { MerchantContext } from './context.js';
import {
  ADDRESS_FORM, ADDRESS_HINT, MERCHANT_LABEL, NEVER_NAME, NOT_NAME, SUFFIX_AT_END,
  cleanName, hasSuffix, letters, lowerWeakSuffix, placeAlone, squash, streetLine, unglueCamel,
} from './patterns.js';
import type { CandidateRule, Draft, NameCandidate, Place, Reading, SegmentRule } from './types.js';

/** Below the header: no line order, no header bonus. */
const BELOW_HEADER: Place = { order: 99, inHeader: false };

export const CANDIDATE_RULES: readonly CandidateRule[] = [
  {
    kind: 'segment',
    name: 'header-line',
    doc: 'Every segment of the header\'s lines (12, 16 on a PDF text page), ranked by its line.',
    take: (ctx, _seg, i) => (i < ctx.headerLines ? { order: i, inHeader: true } : undefined),
  },
  {
    kind: 'segment',
    name: 'label-below-header',
    doc: 'Below the header, a segment with a merchant label ("Sold by:", "Payable to:").',
    take: (ctx, seg, i) => (i >= ctx.headerLines && MERCHANT_LABEL.test(seg.text) ? BELOW_HEADER : undefined),
  },
  {
    kind: 'segment',
    name: 'company-form-below-header',
    doc: 'Below the header, a name ending in a company form, outside the customer\'s block, no label words.',
    take: (ctx, seg, i) => (i >= ctx.headerLines && SUFFIX_AT_END.test(fold(cleanName(seg.text))) && !ctx.customer.has(seg) && !NOT_NAME.test(fold(seg.text)) ? BELOW_HEADER : undefined),
  },
  brandSighting,
];

export const isSegmentRule = (r: CandidateRule): r is SegmentRule => r.kind === 'segment';

/** A segment read as a name: after its merchant label, or without OCR noise at its edges; cleaned. */
export function readSegment(ctx: MerchantContext, seg: Segment, place: Place, rule: string): Reading {
  const text = unglueCamel(seg.text);
  const lm = MERCHANT_LABEL.exec(text);
  const labelled = !!lm && text.slice(lm.index + lm[0].length).trim().length >= 2;
  const value = beforeAddressTail(ctx, cleanName(labelled ? text.slice(lm!.index + lm![0].length) : ctx.pdf ? text : unglueCamel(withoutNoise(seg))));
  const u = fold(value);
  return { seg, ...place, rule, labelled, value, u, suffix: hasSuffix(u) && !lowerWeakSuffix(value) };
}

/** A segment's text without OCR noise: low-confidence words before confident ones (a logo), or next to none after. */
function withoutNoise(seg: Segment): string {
  let k = 0;
  while (k < seg.words.length - 1 && seg.words[k]!.confidence < 0.5) k++;
  const rest = seg.words.slice(k);
  if (k > 0 && rest.length >= 2 && rest.every((w) => w.confidence >= 0.75)) return rest.map((w) => w.text).join(' ');
  // and after it: trailing words read at next to no confidence ("BP STATION VAN YEEN-eem eee.")
  let e = seg.words.length;
  while (e > 2 && seg.words[e - 1]!.confidence < 0.3) e--;
  const kept = seg.words.slice(0, e);
  if (e < seg.words.length && kept.reduce((a, w) => a + w.confidence, 0) / kept.length >= 0.6) return kept.map((w) => w.text).join(' ');
  return seg.text;
}

/** Reads like an address: street words, an address form, a postcode, a house number first, a place alone (`u`: the value folded). */
function addressLike(ctx: MerchantContext, value: string, u = fold(value)): boolean {
  return ADDRESS_HINT.test(u) || ADDRESS_FORM.test(u) || /\b\d{5}\b/.test(u) || /^\d+[A-Z]?[,\s-]/.test(u) || looksLikeAddress(value) || placeAlone(u) || streetLine(value, ctx.locale);
}

/**
 * A name printed with its address after a dash on one line ("CO.OPSMILE - A1 KHU B KTX ..."): the part
 * before the dash, when the part after it reads like an address and the part before neither does nor
 * holds a number (an address's first half: "So 7 khu Tan Lap 4 - P.Cam Thuy").
 */
function beforeAddressTail(ctx: MerchantContext, value: string): string {
  const m = /^(.*?\p{L}.*?)\s+[-–]\s+(.+)$/u.exec(value);
  return m && letters(m[1]!) >= 3 && !/\d/.test(m[1]!) && addressLike(ctx, m[2]!) && !addressLike(ctx, m[1]!) ? m[1]! : value;
}

/** The facts the scoring rules weigh: address-like, a brand line, the page's domains spelling the name. */
export function draftOf(ctx: MerchantContext, r: Reading): Draft {
  const { value, u, suffix } = r;
  const addressy = addressLike(ctx, value, u);
  const brand = brandAtStart(value);
  const brandLine = !!brand && brand.of - brand.words <= (suffix ? 4 : 2) && brandInCountry(brand.brand, ctx.locale.countryCode) && !addressy && !NEVER_NAME.test(u);
  const core = squash(u.replace(SUFFIX_AT_END, ''));
  const firstWord = squash(value.split(/\s+/)[0] ?? '');
  const coreMatch = core.length >= 3 && ctx.domains.some((d) => d.toUpperCase() === core || d.toUpperCase().startsWith(core) || core.startsWith(d.toUpperCase()));
  const wordMatch = firstWord.length >= 3 && ctx.domains.some((d) => d.toUpperCase().startsWith(firstWord));
  return { ...r, addressy, ...(brandLine ? { brand: brand!.brand } : {}), coreMatch, wordMatch, score: 0, features: {}, terms: [] };
}

/**
 * The candidate a scored draft makes. "OYO 4189 Resort Nanganallur, 31/12/2017": the brand of the domain,
 * then a branch number and table content, is named by its first word.
 */
export function candidateOf(d: Draft): NameCandidate {
  const value = !d.coreMatch && d.wordMatch && /^\S+\s+\d/.test(d.value) ? d.value.split(/\s+/)[0]! : d.value;
  return { seg: d.seg, lineOrder: d.order, value, score: d.score, features: d.features, terms: d.terms, ...(d.brand ? { brand: d.brand } : {}), rule: d.rule };
}
