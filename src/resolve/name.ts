/**
 * The merchant's name among the candidates the rule lists of fields/merchant/ propose and score: the best
 * score (above -3), joined with the next or the previous line where the name is split over two, its
 * confidence from the evidence terms (a close rival, the page's domains naming someone else, a name only a
 * picture holds), and its evidence list, which ends with `rule:<name>` of the candidate rule that proposed it.
 */
import type { Box } from '../document/types.js';
import { confidenceFrom } from '../fields/confidence.js';
import type { EvidenceTerm } from '../fields/confidence.js';
import { fold } from '../fields/text.js';
import type { Located, LocatedName } from '../fields/types.js';
import type { MerchantContext } from '../fields/merchant/context.js';
import { ADDRESS_HINT, DOMAIN_DIFFERS_MAX_CONFIDENCE, NOT_NAME, PICTURE_NAME_MAX_CONFIDENCE, cleanName, hasSuffix, letters, loc, squash } from '../fields/merchant/patterns.js';
import type { NameCandidate } from '../fields/merchant/types.js';
import { modelScore } from './field-model.js';
import type { RankModel } from './field-model.js';

export interface ChosenName { best: NameCandidate; name: LocatedName; evidence: string[] }

/**
 * The best candidate as the merchant's name, or undefined when none scores above -3 (sorts the candidates).
 * Ranked by the rules' hand-set scores, or with `model` by its weights of their features (the rival's
 * margin then in the model's units); the -3 floor is the hand-set score's either way.
 */
export function chooseName(ctx: MerchantContext, cands: NameCandidate[], model?: RankModel): ChosenName | undefined {
  const rank = new Map(cands.map((c) => [c, model ? modelScore(model, c.features) : c.score]));
  cands.sort((a, b) => rank.get(b)! - rank.get(a)!);
  const best = cands[0];
  if (!best || !(best.score > -3)) return undefined;
  const joined = joinSplitName(ctx, best);
  const longer = joined.value === best.value ? longerReading(ctx, best) : undefined;
  const { value, boxes } = longer ?? joined;
  const terms = [...best.terms, ...(longer ? [{ name: 'longer-reading', weight: -0.5 }] : [])];
  const rival = rivalTerm(cands, best, rank);
  if (rival) terms.push(rival);
  const otherDomain = domainDiffers(ctx, best, value);
  if (otherDomain) terms.push({ name: 'domain-differs', weight: 0 });
  const conf = Math.min(confidenceFrom(1.0, terms),
    // a name only a picture holds is the last resort above: never one to trust without a look
    terms.some((t) => t.name === 'picture-text') ? PICTURE_NAME_MAX_CONFIDENCE : 1,
    otherDomain ? DOMAIN_DIFFERS_MAX_CONFIDENCE : 1);
  const name: LocatedName = { ...loc(best.seg.line, value, conf), boxes, ...(best.terms.some((t) => t.name === 'company-suffix') ? { companyForm: true as const } : {}) };
  const fitted = model ? [`model=${rank.get(best)!.toFixed(2)}`] : [];
  const evidence = [...terms.map((t) => `${t.name}(${t.weight})`), `score=${best.score.toFixed(2)}`, ...fitted, ...cands.slice(1, 3).map((c) => `alt=${c.value}@${rank.get(c)!.toFixed(2)}`), `rule:${best.rule}`];
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

/** A line with a web address or a social handle. */
const WEB_LINE = /\b(?:W{2,3}|HTTPS?|FACEBOOK|INSTAGRAM|TWITTER|TIKTOK|FB|IG)\b|@|\bCOM\b/i;

/**
 * The name read cut where another line reads the same letters with more glued to both ends ("A GASOL IN"
 * at a photo's top edge, "SA GASOLINE #98:" below it): that line's words around the letters, which read
 * the name more fully ("SA GASOLINE"). Not when the other line only adds words (a footer's "THANK YOU FOR
 * SHOPPING AT ..."), nor from a web address or social handle.
 */
export function longerReading(ctx: MerchantContext, best: NameCandidate): { value: string; boxes: Box[] } | undefined {
  const sq = squash(best.value);
  if (sq.length < 5 || best.fromBrand) return undefined;
  for (const line of ctx.doc.lines) {
    // a web address or a social handle glues words ("ww. clockeddiner com", "FACEBOOK © FamilyMartHy")
    if (line.index === best.seg.line.index || WEB_LINE.test(line.text)) continue;
    // the line's letters and digits, each with its place in the line's text
    const chars = line.text.split('').map((c, i) => ({ c: squash(c), i })).filter((x) => x.c.length === 1);
    const at = chars.map((x) => x.c).join('').indexOf(sq);
    if (at < 0) continue;
    const first = chars[at]!.i, last = chars[at + sq.length - 1]!.i;
    const isLetter = (i: number) => /\p{L}/u.test(line.text[i] ?? '');
    // cut mid-word at both ends: letters glued to the match's first and last letters on the other line
    // (at one end only, the other line may have glued noise to a name read whole: "FamilyMartHy")
    if (!isLetter(first - 1) || !isLetter(last + 1)) continue;
    let a = first, b = last;
    while (a > 0 && isLetter(a - 1)) a--;
    while (b < line.text.length - 1 && isLetter(b + 1)) b++;
    const value = cleanName(line.text.slice(a, b + 1));
    if (value && squash(value).length > sq.length && !NOT_NAME.test(fold(value))) return { value, boxes: [best.seg.box] };
  }
  return undefined;
}

/** The best other name (not the same brand) ranks close: under 1 behind a close rival, under 2.5 a rival. */
function rivalTerm(cands: NameCandidate[], best: NameCandidate, rank: ReadonlyMap<NameCandidate, number>): EvidenceTerm | undefined {
  const rival = cands.find((c) => c !== best && squash(c.value) !== squash(best.value) && !(best.brand && c.brand === best.brand));
  const margin = rival ? rank.get(best)! - rank.get(rival)! : 5;
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
