/**
 * Brands seen on the page: sighting rules find a brand in a website or e-mail domain ("rossmann.de",
 * "www.roller.de"), in a company name anywhere on the page ("Aldi GmbH & Co. KG, Schloß Holte" in the
 * footer), on a line of its own, run together inside a header line, or a logo read one letter off a brand
 * of the country ("LDL" for LIDL). Each gives the brand's own spelling. A brand seen confirms a candidate
 * of the same brand, or becomes a candidate of its own (the brand-sighting candidate rule): a company name
 * with the brand is strong, a domain less (a domain may advertise a product), a near match of a logo weak.
 */
import type { Line } from '../../document/types.js';
import type { EvidenceTerm } from '../confidence.js';
import { brandAtStart, brandInCountry, brandInside, brandOfDomain, nearBrand } from '../brands.js';
import type { Brand } from '../brands.js';
import { fold } from '../text.js';
import type { Segment } from '../text.js';
import type { MerchantContext } from './context.js';
import { COMPANY_SUFFIX, NEVER_NAME, countersOnly, squash, streetLine } from './patterns.js';
import type { NameCandidate, PageRule } from './types.js';
import { gain } from './scoring.js';

export type How = 'domain' | 'company' | 'near' | 'line' | 'inside';
export interface Sighting { brand: Brand; line: Line; how: How }

/** A rule that sees a brand on a line: the document's lines, or the first N of the first page. */
export interface SightingRule {
  name: string;
  how: How;
  doc: string;
  scope: 'document' | number;
  see(ctx: MerchantContext, line: Line, sofar: readonly Sighting[]): Brand | undefined;
}

export const SIGHTING_RULES: readonly SightingRule[] = [
  {
    name: 'domain-sighting',
    how: 'domain',
    doc: 'A website or e-mail domain that spells a brand of the country ("www. mark tkauf-lehr. de" read with spaces).',
    scope: 'document',
    see(ctx, line) {
      const text = line.text.replace(/\bwww\b.*$/i, (m) => m.replace(/\s+/g, '')).replace(/\s+(?=[.-])|(?<=[.-])\s+/g, '');
      const w = /\b(?:www\.?\s?|https?:\/\/)?([a-z0-9][a-z0-9-]{2,})\.(?:[a-z]{2,3})(?:\/|\b)/i.exec(text);
      if (!w || !(/www|https?:/i.test(w[0]) || /\.(?:de|com|co|uk|fr|nl|at|ch|es|it|be|us)\b/i.test(w[0]))) return undefined;
      const b = brandOfDomain(w[1]!.toLowerCase());
      return b && brandInCountry(b, ctx.locale.countryCode) ? b : undefined;
    },
  },
  {
    name: 'company-sighting',
    how: 'company',
    doc: 'A company name that starts with a brand, any country ("Aldi GmbH" trades as Aldi Süd at home).',
    scope: 'document',
    see(_ctx, line) {
      const form = COMPANY_SUFFIX.exec(` ${fold(line.text)} `);
      if (!form || form.index <= 1) return undefined;
      const m = brandAtStart(line.text.slice(0, Math.max(0, form.index - 1)).replace(/^[^\p{L}\d]+/u, ''));
      return m && m.of - m.words <= 2 ? m.brand : undefined;
    },
  },
  {
    name: 'line-sighting',
    how: 'line',
    doc: 'One of the first 30 lines is a brand of the country and at most one more word (a branch).',
    scope: 30,
    see(ctx, line) {
      const m = brandAtStart(line.text.replace(/^[^\p{L}\d]+/u, ''));
      const ok = m && m.of - m.words <= 1 && brandInCountry(m.brand, ctx.locale.countryCode) && !streetLine(line.text, ctx.locale) && !NEVER_NAME.test(fold(line.text)) && !countersOnly(m.brand.name);
      return ok ? m.brand : undefined;
    },
  },
  {
    name: 'inside-sighting',
    how: 'inside',
    doc: 'A brand run together with the words around it in one of the first 6 lines ("WelcometoChick-fil-A").',
    scope: 6,
    see(ctx, line, sofar) {
      if (sofar.some((o) => o.line === line) || streetLine(line.text, ctx.locale) || NEVER_NAME.test(fold(line.text))) return undefined;
      return brandInside(line.text, ctx.locale.countryCode)?.brand;
    },
  },
  {
    name: 'near-sighting',
    how: 'near',
    doc: 'One word alone on one of the first 3 lines, one letter off a brand of the country (a logo: "LDL" for LIDL).',
    scope: 3,
    see(ctx, line) {
      if (line.words.length !== 1 || !/^\p{Lu}(?:\p{Lu}{2,}|\p{Ll}{3,})$/u.test(line.words[0]!.text)) return undefined;
      return nearBrand(line.text, ctx.locale.countryCode)?.brand;
    },
  },
];

/** The sightings of every rule; rules of one scope run line by line together (a line's domain, then its company name). */
export function brandSightings(ctx: MerchantContext): Sighting[] {
  const out: Sighting[] = [];
  for (let r = 0; r < SIGHTING_RULES.length;) {
    let end = r + 1;
    while (end < SIGHTING_RULES.length && SIGHTING_RULES[end]!.scope === SIGHTING_RULES[r]!.scope) end++;
    const group = SIGHTING_RULES.slice(r, end);
    const scope = group[0]!.scope;
    for (const line of scope === 'document' ? ctx.doc.lines : ctx.lines.slice(0, scope)) {
      for (const rule of group) {
        const brand = rule.see(ctx, line, out);
        if (brand) out.push({ brand, line, how: rule.how });
      }
    }
    r = end;
  }
  return out;
}

/** One brand and every sighting of it, the first one's line. */
interface SeenBrand { brand: Brand; how: Set<string>; line: Line; sightings: Sighting[] }

/** The brands seen, in the order first seen, but the one the caller asked to ignore. */
function brandsSeen(ctx: MerchantContext): SeenBrand[] {
  const seen = new Map<Brand, SeenBrand>();
  for (const s of brandSightings(ctx)) {
    const e = seen.get(s.brand) ?? { brand: s.brand, how: new Set<string>(), line: s.line, sightings: [] };
    e.how.add(s.how);
    e.sightings.push(s);
    seen.set(s.brand, e);
  }
  const { ignore } = ctx;
  return [...seen.values()].filter(({ brand }) => !(ignore && (squash(brand.name).includes(ignore) || ignore.includes(squash(brand.name)))));
}

/** A header line one letter off the brand ("Nichaels" for a logo's Michaels) is the brand, spelled as it spells itself. */
export function respellNearBrand({ brand, sightings }: SeenBrand, cands: NameCandidate[]): void {
  for (const c of cands) {
    if (c.brand || c.fromBrand || !sightings.some((x) => x.how === 'near' && x.line === c.seg.line)) continue;
    c.value = brand.name;
    c.brand = brand;
    c.terms.push({ name: 'near-brand', weight: 0 });
  }
}

/**
 * Candidates of the brand, if any: the brand seen on another line (a footer's company name, a domain, not
 * its own line) confirms them, +2 (only the legal names among them, where one has a company form). True when any.
 */
export function confirmBrand({ brand, sightings }: SeenBrand, cands: NameCandidate[]): boolean {
  const same = cands.filter((c) => c.brand === brand || brandAtStart(c.value)?.brand === brand);
  if (!same.length) return false;
  const legal = same.filter((c) => c.terms.some((t) => t.name === 'company-suffix'));
  for (const c of legal.length ? legal : same) {
    const other = [...new Set(sightings.filter((x) => x.line !== c.seg.line && x.how !== 'line' && x.how !== 'near' && x.how !== 'inside').map((x) => x.how))];
    if (other.length) { gain(c, 'brand-seen', 2); c.terms.push({ name: `brand-seen:${other.join('+')}`, weight: 1.0 }); }
  }
  return true;
}

/** What each way of seeing a brand adds to the brand's own candidate: score, evidence term, weight. */
const BRAND_WEIGHTS: ReadonlyArray<[How, number, string, number]> = [
  ['company', 4, 'company-brand', 1.4],
  ['domain', 3, 'domain-brand', 0.9],
  ['line', 2.5, 'brand-line', 0.6],
  ['near', 2.5, 'logo-near-brand', 0.2],
  ['inside', 2.5, 'brand-inside-line', 0.2],
];

/** The brand's own candidate, on its first sighting's line; two ways of seeing it agree. */
function brandCandidate({ brand, how, line }: SeenBrand, rule: string): NameCandidate {
  const scored = { score: 0, features: {} as Record<string, number> };
  const terms: EvidenceTerm[] = [];
  for (const [h, points, name, weight] of BRAND_WEIGHTS) {
    if (how.has(h)) { gain(scored, name, points); terms.push({ name, weight }); }
  }
  if (how.size >= 2) { gain(scored, 'brand-agrees', 0); terms.push({ name: 'brand-agrees', weight: 0.8 }); }
  const seg: Segment = { line, text: line.text, words: line.words, box: line.box };
  return { seg, lineOrder: 99, value: brand.name, ...scored, terms, brand, fromBrand: true, rule };
}

export const brandSighting: PageRule = {
  kind: 'page',
  name: 'brand-sighting',
  doc: 'A brand seen on the page respells a near header line, confirms candidates of it, or is a candidate itself.',
  find(ctx, found) {
    const all = [...found];
    const fresh: NameCandidate[] = [];
    for (const seen of brandsSeen(ctx)) {
      respellNearBrand(seen, all);
      if (confirmBrand(seen, all)) continue;
      const c = brandCandidate(seen, brandSighting.name);
      all.push(c);
      fresh.push(c);
    }
    return fresh;
  },
};
