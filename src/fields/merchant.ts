/**
 * The merchant's name candidates: the name is found by ordered lists of small named rules (merchant/), as
 * chrono-node lists its parsers and refiners: candidate rules propose names (CANDIDATE_RULES), never-name
 * rules drop readings that never name the merchant (NEVER_NAME_RULES), scoring rules weigh the rest
 * (SCORING_RULES). A name is looked for in the header (company suffixes, larger text, position, the name
 * repeated in the footer or in the website/e-mail domain; skipping document titles, slogans, addresses,
 * phone and registration lines, and the customer's block after "Bill to" / "To:"). resolve/name.ts chooses
 * among the candidates, and the chosen name's evidence ends with `rule:<name>` of the candidate rule that
 * proposed it; extract/merchant.ts findMerchant puts the name, the address block under it (address.ts)
 * and the merchant's phone, tax id and website together.
 */
import type { Segment } from './text.js';
import { CANDIDATE_RULES, candidateOf, draftOf, isSegmentRule, readSegment } from './merchant/candidates.js';
import type { MerchantContext } from './merchant/context.js';
import { NEVER_NAME_RULES } from './merchant/never.js';
import { SCORING_RULES } from './merchant/scoring.js';
import type { NameCandidate, SegmentRule } from './merchant/types.js';

export type { MerchantFields, NameCandidate } from './merchant/types.js';
export { cleanName, countersOnly, emailDomains, weakSuffix, DOMAIN_DIFFERS_MAX_CONFIDENCE } from './merchant/patterns.js';
export { merchantTypes } from './merchant/contact.js';
export { CANDIDATE_RULES } from './merchant/candidates.js';
export { SIGHTING_RULES } from './merchant/brand-rules.js';
export { NEVER_NAME_RULES } from './merchant/never.js';
export { SCORING_RULES } from './merchant/scoring.js';
export { merchantContext } from './merchant/context.js';

/** The name candidates: the segment rules on every segment in reading order, then the page rules in order. */
export function nameCandidates(ctx: MerchantContext): NameCandidate[] {
  const cands: NameCandidate[] = [];
  const segmentRules = CANDIDATE_RULES.filter(isSegmentRule);
  ctx.segs.forEach((row, i) => {
    for (const seg of row) {
      const c = segmentCandidate(ctx, seg, i, segmentRules);
      if (c) cands.push(c);
    }
  });
  for (const rule of CANDIDATE_RULES) if (rule.kind === 'page') cands.push(...rule.find(ctx, cands));
  return cands;
}

/** The first segment rule that takes the segment reads it; no never-name rule may reject it; every scoring rule weighs it. */
function segmentCandidate(ctx: MerchantContext, seg: Segment, lineNo: number, rules: SegmentRule[]): NameCandidate | undefined {
  for (const rule of rules) {
    const place = rule.take(ctx, seg, lineNo);
    if (!place) continue;
    const reading = readSegment(ctx, seg, place, rule.name);
    if (NEVER_NAME_RULES.some((n) => n.rejects(reading, ctx))) return undefined;
    const draft = draftOf(ctx, reading);
    for (const s of SCORING_RULES) s.score(draft, ctx);
    return candidateOf(draft);
  }
  return undefined;
}
