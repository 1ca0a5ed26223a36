/**
 * Month-name dates through chrono-node's locale parsers (strict mode: a day, a month and a year
 * printed), for the languages whose folder names a chrono locale. Used where the library's own
 * patterns found no date at all (a language or a spelling the month lists do not hold). chrono-node
 * is loaded on first use only.
 */
import { createRequire } from 'node:module';
import { languageByCode } from './languages/index.js';
import type { ParsedDate } from './dates.js';
import { validDate } from './dates.js';

type ChronoResult = { index: number; text: string; start: { get(c: string): number | null; isCertain(c: string): boolean } };
type ChronoLocale = { strict: { parse(text: string, ref?: Date): ChronoResult[] } };
let chrono: Record<string, ChronoLocale> | null | undefined;

function load(): Record<string, ChronoLocale> | null {
  if (chrono !== undefined) return chrono;
  try {
    chrono = createRequire(import.meta.url)('chrono-node') as Record<string, ChronoLocale>;
  } catch {
    chrono = null;
  }
  return chrono;
}

/** Dates with a printed day, month and year that chrono's parser of the language reads in the text. */
export function chronoDates(text: string, language: string | undefined, now: Date): ParsedDate[] {
  const lang = languageByCode(language)?.chrono;
  if (!lang || !/\p{L}{3}/u.test(text) || !/\d/.test(text)) return [];
  const parser = load()?.[lang];
  if (!parser) return [];
  let results: ChronoResult[];
  try {
    results = parser.strict.parse(text, now);
  } catch {
    return [];
  }
  const out: ParsedDate[] = [];
  for (const r of results) {
    const s = r.start;
    if (!s.isCertain('day') || !s.isCertain('month') || !s.isCertain('year')) continue;
    const y = s.get('year')!, m = s.get('month')!, d = s.get('day')!;
    // numeric dates are the library's own (its day/month order follows the country); chrono's are month names
    if (!/\p{L}{3}/u.test(r.text) || !validDate(y, m, d)) continue;
    out.push({ y, m, d, ambiguous: false, form: 'month-name', shortYear: !/\d{4}/.test(r.text), start: r.index, end: r.index + r.text.length });
  }
  return out;
}
