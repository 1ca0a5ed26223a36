/**
 * The merchant's name among the candidates: the best score (above -3), joined with the next or the
 * previous line where the name is split over two, its confidence from the evidence terms (a close rival,
 * the page's domains naming someone else, a name only a picture holds), and its evidence list, which ends
 * with `rule:<name>` of the candidate rule that proposed it.
 */
import type { Box } from '../../document/types.js';
import { confidenceFrom } from '../../resolve/confidence.js';
import type { EvidenceTerm } from '../../resolve/confidence.js';
import { fold } from '../text.js';
import type { Located } from '../types.js';
import type { MerchantContext } from './context.js';
import { ADDRESS_HINT, DOMAIN_DIFFERS_MAX_CONFIDENCE, NOT_NAME, PICTURE_NAME_MAX_CONFIDENCE, cleanName, hasSuffix, letters, loc, squash } from './patterns.js';
import type { NameCandidate } from './types.js';

export interface ChosenName { best: NameCandidate; name: Located<string>; evidence: string[] }

/** The best candidate as the merchant's name, or undefined when none scores above -3 (sorts the candidates). */
export function chooseName(ctx: MerchantContext, cands: NameCandidate[]): ChosenName | undefined {
  cands.sort((a, b) => b.score - a.score);
  const best = cands[0];
  if (!best || !(best.score > -3)) return undefined;
  const { value, boxes } = joinSplitName(ctx, best);
  const terms = [...best.terms];
  const rival = rivalTerm(cands, best);
  if (rival) terms.push(rival);
  const otherDomain = domainDiffers(ctx, best, value);
  if (otherDomain) terms.push({ name: 'domain-differs', weight: 0 });
  const conf = Math.min(confidenceFrom(1.0, terms),
    // a name only a picture holds is the last resort above: never one to trust without a look
    terms.some((t) => t.name === 'picture-text') ? PICTURE_NAME_MAX_CONFIDENCE : 1,
    otherDomain ? DOMAIN_DIFFERS_MAX_CONFIDENCE : 1);
  const name = { ...loc(best.seg.line, value, conf), boxes };
  const evidence = [...terms.map((t) => `${t.name}(${t.weight})`), `score=${best.score.toFixed(2)}`, ...cands.slice(1, 3).map((c) => `alt=${c.value}@${c.score.toFixed(2)}`), `rule:${best.rule}`];
  return { best, name, evidence };
}

/**
 * A name split over two lines: a company form on the next line ("AIK HUAT HARDWARE ENTERPRISE" /
 * "(SETIA ALAM) SDN BHD"), or a short name starting in lower case or parentheses ends the previous line's.
 */
function joinSplitName(ctx: MerchantContext, best: NameCandidate): { value: string; boxes: Box[] } {
  let value = best.value;
  const boxes = [best.seg.box];
  const { segs } = ctx;
  const li = best.fromBrand ? -9 : ctx.lines.indexOf(best.seg.line);
  const next = segs[li + 1]?.[0];
  if (next && !hasSuffix(fold(value)) && !best.brand) {
    const nv = cleanName(next.text);
    if (nv && hasSuffix(fold(nv)) && nv.split(/\s+/).length <= 5 && !ADDRESS_HINT.test(fold(nv)) && !NOT_NAME.test(fold(nv))) { value = `${value} ${nv}`; boxes.push(next.box); }
  }
  const prev = segs[li - 1]?.[0];
  if (prev && /^[a-z)(]|^\(?[A-Z]+\)/.test(value) && letters(value) < 16) {
    const pv = cleanName(prev.text);
    if (pv && !NOT_NAME.test(fold(pv)) && !ADDRESS_HINT.test(fold(pv))) { value = `${pv} ${value}`; boxes.unshift(prev.box); }
  }
  return { value, boxes };
}

/** The best other name (not the same brand) scores close: under 1 behind a close rival, under 2.5 a rival. */
function rivalTerm(cands: NameCandidate[], best: NameCandidate): EvidenceTerm | undefined {
  const rival = cands.find((c) => c !== best && squash(c.value) !== squash(best.value) && !(best.brand && c.brand === best.brand));
  const margin = rival ? best.score - rival.score : 5;
  if (margin < 1) return { name: 'close-rival', weight: -2.0 };
  if (margin < 2.5) return { name: 'rival', weight: -0.9 };
  return undefined;
}

/**
 * The page's website or e-mail domains name someone else ("Sold by: WS Retail Services Pvt. Ltd" on an
 * invoice from www.flipkart.com): the seller of record or the shop the user knows; not one to trust unchecked.
 */
function domainDiffers(ctx: MerchantContext, best: NameCandidate, value: string): boolean {
  const sq = squash(value);
  return !best.fromBrand && ctx.domains.length > 0 && !ctx.domains.some((d) => {
    const D = d.toUpperCase();
    return sq.includes(D) || (D.length >= 4 && sq.length >= 4 && D.startsWith(sq.slice(0, 4))) || (!!best.brand && squash(best.brand.name).includes(D));
  });
}
