/**
 * The document's currency (ISO 4217) as candidates for fitting (issue 34): every currency the page or
 * its country suggests, described by named features (printed as a code or word, as a bare symbol, the
 * country's own and how sure the country is, the keyword language's, the locale's rule). They are listed
 * to scripts/fit-fields.mjs through candidateTaps; the currency itself is still the locale's rule
 * (locale/index.ts) until a fitted model is adopted.
 */
import type { Locale } from '../locale/index.js';
import { DOLLARS } from '../locale/index.js';
import { CONVENTIONS, languageCurrency } from '../locale/lexicon.js';
import type { TappedCandidate } from './model.js';

const cap = (n: number | undefined) => Math.min(3, n ?? 0);

/** Every candidate currency with its features, in a stable order (the locale's choice first). */
export function currencyCandidates(locale: Locale): TappedCandidate[] {
  const cues = locale.currencyCues ?? { votes: {}, codes: {}, symbols: {}, own: locale.currency, countries: [] };
  const own = cues.own;
  const langCurrency = languageCurrency(locale.language);
  // the currencies of the runner-up countries, and how far behind the first their cues are
  const runnerUp = new Map<string, number>();
  const topScore = cues.countries[0]?.[1] ?? 0;
  for (const [country, sc] of cues.countries.slice(1)) {
    const cur = CONVENTIONS[country]?.currency;
    if (cur && cur !== own && !runnerUp.has(cur)) runnerUp.set(cur, topScore - sc);
  }
  const names = [...new Set([locale.currency, own, ...Object.keys(cues.votes), langCurrency, ...runnerUp.keys()].filter((c): c is string => !!c))];
  return names.map((c) => {
    const f: Record<string, number> = {};
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
