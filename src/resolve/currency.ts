/**
 * The document's currency (ISO 4217) as candidates for fitting (issue 34): every currency the page or
 * its country suggests, described by named features (printed as a code or word, as a bare symbol, the
 * country's own and how sure the country is, the keyword language's, the locale's rule, what the world's
 * data say: telephone numbers, country names, postcodes with their city). They are listed
 * to scripts/fit-fields.mjs through candidateTaps; the currency itself is still the locale's rule
 * (locale/index.ts) until a fitted model is adopted.
 */
import type { Locale } from '../locale/index.js';
import type { WorldFindings } from '../locale/world/index.js';
import { DOLLARS, besideSigns, countryConventions, knownFromSignsOnly } from '../locale/index.js';
import { languageCurrency } from '../locale/lexicon.js';
import type { TappedCandidate } from './model.js';

const cap = (n: number | undefined) => Math.min(3, n ?? 0);

/** Every candidate currency with its features, in a stable order (the locale's choice first). */
export function currencyCandidates(locale: Locale): TappedCandidate[] {
  const cues = locale.currencyCues ?? { votes: {}, codes: {}, symbols: {}, own: locale.currency, countries: [], symbolScore: {} };
  const own = cues.own;
  const langCurrency = languageCurrency(locale.language);
  // the currencies of the runner-up countries, and how far behind the first their cues are
  const runnerUp = new Map<string, number>();
  const topScore = cues.countries[0]?.[1] ?? 0;
  for (const [country, sc] of cues.countries.slice(1)) {
    const cur = countryConventions(country)?.currency;
    if (cur && cur !== own && !runnerUp.has(cur)) runnerUp.set(cur, topScore - sc);
  }
  const world = worldFeatures(cues.world);
  const names = [...new Set([locale.currency, own, ...Object.keys(cues.votes), langCurrency, ...runnerUp.keys(), ...world.keys()].filter((c): c is string => !!c))];
  return names.map((c) => {
    const f: Record<string, number> = { ...world.get(c) };
    if (c === locale.currency) f['rule-choice'] = 1;
    if (c === own && locale.countryCode) { f['country-currency'] = 1; f['country-confidence'] = locale.countryConfidence; }
    if (cues.codes[c]) f['code-printed'] = cap(cues.codes[c]);
    if (cues.symbols[c]) f['symbol-printed'] = cap(cues.symbols[c]);
    if (c === locale.printedCurrency) f['most-printed'] = 1;
    if (c === langCurrency) f['language-currency'] = 1;
    if (runnerUp.has(c)) { f['runner-up-country'] = 1; f['runner-up-gap'] = Math.min(6, runnerUp.get(c)!); }
    if (c === own && DOLLARS.has(c) && (cues.symbols.USD ?? 0) > 0 && !cues.codes.USD) f['dollar-of-country'] = 1;
    if (Object.entries(cues.codes).some(([o, n]) => o !== c && n > 0)) f['other-code-printed'] = 1;
    if (Object.entries(cues.symbols).some(([o, n]) => o !== c && n > 0)) f['other-symbol-printed'] = 1;
    return { value: c, features: f };
  });
}

/**
 * The world's evidence (locale/world: 'phone-country', 'phone-national', 'country-name', 'postcode-city',
 * 'sign-beside-amount', 'code-beside-amount') by currency: a currency's own printings, and the places of
 * the countries whose currency it is.
 */
function worldFeatures(world: WorldFindings | undefined): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  const add = (currency: string | undefined, features: Partial<Record<string, number>>) => {
    if (!currency) return;
    const f = out.get(currency) ?? {};
    for (const [k, v] of Object.entries(features)) if (v) f[k] = Math.min(3, (f[k] ?? 0) + v);
    out.set(currency, f);
  };
  for (const [country, features] of Object.entries(world?.places ?? {})) add(countryConventions(country)?.currency, features);
  for (const [currency, features] of Object.entries(world?.printings ?? {})) add(currency, features);
  return out;
}

/** Another currency's sign printed this many times makes it a rival (currencyContested). */
export const RIVAL_SIGN_COUNT = 2;
/** A country's cues of its place from this score up make it a rival of a currency that is not its own (currencyContested). */
export const RIVAL_COUNTRY_SCORE = 1.5;

/**
 * Why the page does not settle its currency, if it does not. A currency whose code or word is printed,
 * with no other currency's, is settled. Otherwise: another currency printed, as its code or its sign
 * twice (`other-currency`: "€" on a page of "£", not the "$" of a dollar country), cues of the place of a
 * country whose money it is not (`other-country:XX`: a US address on a page of "£"; its signs and its way
 * of grouping amounts do not count here: "Rs" read in noise, thousands grouped on a page in dong), or nothing but the
 * symbol itself (`symbol-only`: a "£" that may be another sign misread). Such a currency is given
 * below 0.9 (extract/index.ts).
 */
export function currencyContested(locale: Locale, currency: string): string | undefined {
  const cues = locale.currencyCues;
  if (!cues) return undefined;
  // its code or word printed ("RM", "VND"), and no other currency's: the page settles it, stray signs or not
  if ((cues.codes[currency] ?? 0) > 0 && !Object.entries(cues.codes).some(([c, n]) => c !== currency && n > 0)) return undefined;
  const dollarSign = (c: string) => c === 'USD' && DOLLARS.has(currency) && !(cues.codes.USD ?? 0);
  // another currency printed as its code, or its sign standing twice (once is a smudge as often as not)
  if (Object.keys(cues.votes).some((c) => c !== currency && !dollarSign(c) && ((cues.codes[c] ?? 0) > 0 || (cues.symbols[c] ?? 0) >= RIVAL_SIGN_COUNT))) return 'other-currency';
  for (const ranked of cues.countries) {
    const [country] = ranked, own = countryConventions(country)?.currency;
    // its place, not its money's signs nor how its amounts are grouped (those are the branch above's, or no place at all)
    if (besideSigns(ranked, cues.symbolScore) >= RIVAL_COUNTRY_SCORE && own && own !== currency && !(DOLLARS.has(own) && DOLLARS.has(currency) && !(cues.codes[currency] ?? 0) && !(cues.codes[own] ?? 0))) return `other-country:${country}`;
  }
  const top = cues.countries[0];
  if (!(cues.codes[currency] ?? 0) && top && knownFromSignsOnly(top, cues.symbolScore)) return 'symbol-only';
  return undefined;
}
