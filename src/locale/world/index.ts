/**
 * The world's evidence weighed into the locale's tallies (issue 50): each finding of evidence.ts adds to
 * its country's score and, for a currency printed, to the currency's votes, as the locale's own cues do
 * (locale/index.ts); what each country and currency got is kept by feature for the currency candidates.
 */
import { codesBesideAmount, countryNames, signIsWord, onlyCountryOf, phoneCountries, phoneNationalCountries, postcodeCities, signsBesideAmount } from './evidence.js';
import type { WorldCue, WorldFeature } from './evidence.js';
import { worldData } from './data.js';

export { worldConventions, worldData, countryLocale, foldName } from './data.js';
export type { WorldFeature, WorldCue } from './evidence.js';

/**
 * Each feature's weight in a country's score, stated until the pool fits them (a printed currency code
 * weighs 3 among the locale's cues, "Sdn Bhd" 3, a US "City, ST 12345" 3).
 */
export const WORLD_WEIGHTS: Readonly<Record<WorldFeature, number>> = {
  'phone-country': 3, 'phone-national': 1, 'country-name': 2.5, 'postcode-city': 3, 'sign-beside-amount': 3, 'code-beside-amount': 3,
};

/** The locale's tallies the world's evidence adds to (locale/index.ts inferLocale keeps them). */
export interface LocaleTallies {
  score: Record<string, number>;
  symbolScore: Record<string, number>;
  currencyVotes: Record<string, number>;
  codeVotes: Record<string, number>;
  symbolCounts: Record<string, number>;
}

/** What the world's data found, by feature: for each country (its place) and each currency (its printings). */
export interface WorldFindings {
  places: Record<string, Partial<Record<WorldFeature, number>>>;
  printings: Record<string, Partial<Record<WorldFeature, number>>>;
}


function addCue(cue: WorldCue, t: LocaleTallies, found: WorldFindings, evidence: string[]): void {
  const n = Math.min(3, cue.count);
  const gain = WORLD_WEIGHTS[cue.feature] * (1 + 0.25 * (n - 1));
  const country = cue.country ?? (cue.currency ? onlyCountryOf(cue.currency) : undefined);
  const symbol = cue.feature === 'sign-beside-amount' && !signIsWord(cue.found);
  // one glyph printed once may be a smudge or another sign misread: it places no page
  if (country && !(symbol && cue.count < 2)) {
    for (const m of symbol ? [t.score, t.symbolScore] : [t.score]) m[country] = (m[country] ?? 0) + gain;
    if (cue.country) (found.places[country] ??= {})[cue.feature] = n;
  }
  if (cue.currency) {
    t.currencyVotes[cue.currency] = (t.currencyVotes[cue.currency] ?? 0) + n * WORLD_WEIGHTS[cue.feature];
    if (symbol) t.symbolCounts[cue.currency] = (t.symbolCounts[cue.currency] ?? 0) + cue.count;
    else t.codeVotes[cue.currency] = (t.codeVotes[cue.currency] ?? 0) + n;
    (found.printings[cue.currency] ??= {})[cue.feature] = n;
  }
  evidence.push(`world:${cue.feature}:${country ?? cue.currency}:${cue.found.slice(0, 24)}`);
}

/** The countries with the highest scores, at most `n` (the pseudo-countries of a currency area left out). */
const leading = (score: Record<string, number>, n: number) => Object.entries(score).filter(([c, s]) => /^[A-Z]{2}$/.test(c) && s > 0).sort((a, b) => b[1] - a[1]).slice(0, n).map(([c]) => c);

/**
 * Adds the world's evidence on `text` to the tallies: numbers in international format, country names,
 * postcodes with their city, currency signs and codes beside amounts (those of currencies the locale's
 * own cues did not count), then national numbers among the leading countries.
 */
export function weighWorldEvidence(text: string, t: LocaleTallies, evidence: string[]): WorldFindings {
  const world = worldData();
  const found: WorldFindings = { places: {}, printings: {} };
  const known = new Set(Object.keys(t.currencyVotes));
  const cues = [
    ...phoneCountries(text, world), ...countryNames(text, world), ...postcodeCities(text, world),
    ...signsBesideAmount(text, known, world), ...codesBesideAmount(text, known, world),
  ];
  for (const cue of cues) addCue(cue, t, found, evidence);
  for (const cue of phoneNationalCountries(text, leading(t.score, 4), world)) addCue(cue, t, found, evidence);
  return found;
}
