/**
 * Where a receipt is from, read with the world's data (data.ts), as named evidence (issue 50): each rule
 * one function that says what it found, for which country or currency; the locale weighs them with the
 * page's other cues (locale/index.ts) and the currency candidates carry them as features
 * (resolve/currency.ts). No country is named here: the data name them.
 */
import { foldName, worldData } from './data.js';
import type { WorldData } from './data.js';

/** The features the world's data give, by the names the currency candidates carry. */
export type WorldFeature = 'phone-country' | 'phone-national' | 'country-name' | 'postcode-city' | 'sign-beside-amount' | 'code-beside-amount';

/** One finding: the rule that made it, the country it places the page in and/or the currency it prints, how often. */
export interface WorldCue {
  feature: WorldFeature;
  country?: string;
  currency?: string;
  /** How many printings (a telephone number twice is one place, a sign beside ten amounts ten printings). */
  count: number;
  /** What was read ("+48 22 123 45 67", "31-000 KRAKOW", "zł"). */
  found: string;
}

/**
 * A telephone number written with its country calling code ("+48 22 ...", "0048 22 ..."); with "00", in
 * groups (a run of digits starting "00" is as often an invoice's or a card's number).
 */
const INTERNATIONAL_PHONE = /\+[ \t]?[1-9][\d \t().\/-]{5,18}\d|(?<![\d.,])00[1-9]\d{0,3}[ \t().\/-][\d \t().\/-]{4,16}\d/g;

/** A number in international format names its country (libphonenumber-js: the calling code and the plan's leading digits). */
export function phoneCountries(text: string, world: WorldData = worldData()): WorldCue[] {
  const out = new Map<string, WorldCue>();
  for (const m of text.matchAll(INTERNATIONAL_PHONE)) {
    const raw = m[0].replace(/^00/, '+');
    const parsed = world.phone.parsePhoneNumberFromString(raw);
    const country = parsed && parsed.isValid() ? parsed.country : undefined;
    if (country && !out.has(country)) out.set(country, { feature: 'phone-country', country, count: 1, found: m[0].trim() });
  }
  return [...out.values()];
}

/**
 * A national number: the trunk prefix 0 and 6 to 13 more digits, grouped as printed ("030 1234567",
 * "030/1234567", "(022) 123-45-67"); a slash or point only after the area code ("04/07/2018" is a date); the
 * area code starts with 1-9 (a run starting "00" is an international prefix or a product's number: "00100998274").
 */
const NATIONAL_PHONE = /(?<![\d+.,:/-])\(?0[1-9]\d{0,3}\)?[ \t./-]?\d[\d \t-]{3,12}\d(?![\d.,:/-])/g;

/**
 * A national number is valid in many countries' plans; among the page's likely countries (`among`), those
 * whose plan it fits, when it does not fit them all (else it tells them apart no better than nothing).
 */
export function phoneNationalCountries(text: string, among: readonly string[], world: WorldData = worldData()): WorldCue[] {
  const countries = among.filter((c) => world.phone.isSupportedCountry(c as never));
  if (countries.length < 2) return [];
  const numbers = [...text.matchAll(NATIONAL_PHONE)].map((m) => m[0].trim()).filter((n) => n.replace(/\D/g, '').length <= 13).slice(0, 2);
  const fits = new Map<string, string>();
  for (const n of numbers) for (const c of countries) if (!fits.has(c) && world.phone.isValidPhoneNumber(n, c as never)) fits.set(c, n);
  if (fits.size === 0 || fits.size === countries.length) return [];
  return [...fits].map(([country, found]) => ({ feature: 'phone-national', country, count: 1, found }));
}

/** Each line's last `n` words (split where it has spaces), folded (foldName): a name's words fold to as many or more. */
const lineEnds = (text: string, n: number): string[][] => text.split('\n').map((l) => foldName(l.trim().split(/\s+/).slice(-n).join(' ')).split(' ').filter(Boolean));

/**
 * A country's name, in any language, ending a line ("Warszawa, Polska", a line "DEUTSCHLAND"): where an
 * address names its country. Inside a line a name is as often a dish's or a product's ("CHILE CON CARNE 5.00").
 */
export function countryNames(text: string, world: WorldData = worldData()): WorldCue[] {
  const out = new Map<string, WorldCue>();
  for (const words of lineEnds(text, world.maxNameWords)) {
    if (!world.nameLastWords.has(words[words.length - 1] ?? '')) continue;
    for (let n = Math.min(world.maxNameWords, words.length); n >= 1; n--) {
      const name = words.slice(words.length - n).join(' ');
      const country = world.countryNames.get(name);
      if (!country) continue;
      const had = out.get(country);
      out.set(country, { feature: 'country-name', country, count: (had?.count ?? 0) + 1, found: name });
      break;
    }
  }
  return [...out.values()];
}

/** A line's tokens as printed (split at spaces and commas, outer punctuation but hyphens dropped: "31-000", "SW1A") and folded (foldName). */
function lineTokens(line: string): { raw: string[]; folded: string[] } {
  const raw = line.split(/[\s,;]+/).map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')).filter(Boolean);
  return { raw, folded: raw.map(foldName) };
}

/** A line with a token of digits, or digits with letters or a hyphen, and no point, comma or colon ("31-000", "SW1A", "5000"; not "12.50", "12:30"). */
const POSTCODE_LIKE = /(?<![^\s,;])(?=[\p{L}-]*\d)[\p{L}\d-]{2,10}(?![^\s,;])/u;

/** A region's code between a city and its postcode ("Denver, CO 80202", "Adelaide SA 5000"). */
const REGION_CODE = /^[A-Z]{2,3}$/;

/**
 * The tokens next to a city's (tokens `from` to `to`, exclusive) that may be its postcode: one token or
 * two ("SW1A 1AA", "1012 AB") just before or after it, or after a region's code.
 */
function postcodeTokens(raw: string[], from: number, to: number): string[] {
  const at = (i: number, n: number) => (i >= 0 && i + n <= raw.length ? [raw.slice(i, i + n).join(' ')] : []);
  const after = to < raw.length && REGION_CODE.test(raw[to]!) ? to + 1 : to;
  return [...at(from - 1, 1), ...at(from - 2, 2), ...at(to, 1), ...at(to, 2), ...(after > to ? [...at(after, 1), ...at(after, 2)] : [])];
}

/** The city's name ends where its line, a comma, a region's code or a number does ("40170 BANDAR BARU BANGI" is not Bandar's). */
const cityEnds = (line: string, raw: string[], to: number) => to >= raw.length || /\d/.test(raw[to]!) || REGION_CODE.test(raw[to]!)
  || new RegExp(String.raw`${raw[to - 1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\s*,`, 'u').test(line);

/**
 * A city printed beside a postcode of its own country's format on one line ("31-000 Kraków",
 * "Denver, CO 80202"): an address, as surely as a page says where it is. A city's name alone is as
 * often a street's, a shop's or a word ("NICE DAY").
 */
export function postcodeCities(text: string, world: WorldData = worldData()): WorldCue[] {
  const out = new Map<string, WorldCue>();
  for (const line of text.split('\n')) {
    if (!POSTCODE_LIKE.test(line)) continue;
    const { raw, folded } = lineTokens(line);
    for (let i = 0; i < folded.length; i++) {
      if (!world.cityFirstWords.has(folded[i]!.split(' ')[0]!)) continue;
      for (let n = Math.min(4, folded.length - i); n >= 1; n--) {
        const name = folded.slice(i, i + n).join(' ');
        const country = world.cities.get(name);
        if (!country || out.has(country) || !cityEnds(line, raw, i + n)) continue;
        const code = postcodeTokens(raw, i, i + n).find((t) => world.postcodeOf(country, t));
        if (code) { out.set(country, { feature: 'postcode-city', country, count: 1, found: `${code} ${name}` }); break; }
      }
    }
  }
  return [...out.values()];
}

/** An amount as receipts print it: grouped or not, with or without decimals ("1 250", "12,50", "1.234,00"). */
const AMOUNT = String.raw`\d{1,3}(?:[.,' \u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;
/** Between a sign or code and its amount: a space on the same line at most (Intl prints a no-break space). */
const GAP = String.raw`[ \t\u00a0\u202f]?`;
/** An amount in cents or grouped by thousands ("12,50", "1 250"): a code or a word beside a bare "125" or "1000" is as often a product's or a unit's ("MNT125"). */
const moneyLike = (amount: string) => /[.,]\d{2}$|[.,' \u00a0\u202f]\d{3}(?!\d)/.test(amount);
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Two Latin letters ("km", "ar", "ft") are as often a unit's or a word's ("KM" is a Vietnamese receipt's discount): not read as a sign. */
const SHORT_LETTERS = /^[a-z]{1,2}\.?$/;

/** A sign of two letters or more ("zł", "lei", "Kč") is a word: beside a money-like amount only, as a code. */
export const signIsWord = (sign: string): boolean => (sign.match(/\p{L}/gu) ?? []).length >= 2;

/** A letter before a glyph ("e£", "r$", "us$"): OCR puts a letter before a "£" too, so only beside an amount in cents ("E£19" in noise is not Egypt's). */
const PREFIXED_GLYPH = /^\p{L}+[^\p{L}\s]+$/u;

let signPattern: RegExp | undefined;
function signsBesideAmounts(world: WorldData): RegExp {
  if (signPattern) return signPattern;
  const signs = [...world.signs.keys()].sort((a, b) => b.length - a.length).map(escapeRe).join('|');
  return (signPattern ??= new RegExp(String.raw`(?<![\p{L}\d])(${signs})${GAP}(${AMOUNT})(?![\p{L}\d])|(?<![\p{L}\d.,])(${AMOUNT})${GAP}(${signs})(?![\p{L}\d])`, 'giu'));
}

/**
 * A currency's sign beside an amount ("12,50 zł", "₺45,00"), for the signs of one currency only (CLDR's,
 * through Intl). `known`: currencies the locale's own cues already counted, not counted twice.
 */
export function signsBesideAmount(text: string, known: ReadonlySet<string>, world: WorldData = worldData()): WorldCue[] {
  const counts = new Map<string, WorldCue>();
  for (const m of text.matchAll(signsBesideAmounts(world))) {
    const sign = (m[1] ?? m[4])!.toLowerCase(), amount = (m[2] ?? m[3])!;
    const currency = world.signs.get(sign);
    if (!currency || known.has(currency) || SHORT_LETTERS.test(sign) || (PREFIXED_GLYPH.test(sign) && !/[.,]\d{2}$/.test(amount)) || (signIsWord(sign) && !moneyLike(amount))) continue;
    const had = counts.get(currency);
    counts.set(currency, { feature: 'sign-beside-amount', currency, count: (had?.count ?? 0) + 1, found: sign });
  }
  return [...counts.values()];
}

/** ISO 4217 codes that are also words printed on receipts ("ALL ITEMS", "TOP UP", "CUP", "PEN"): no library tells the code from the word. */
const CODES_ALSO_WORDS: ReadonlySet<string> = new Set(['ALL', 'TOP', 'CUP', 'PEN', 'SOS', 'MOP', 'BAM', 'GEL', 'MAD', 'BOB']);

let codePattern: RegExp | undefined;
function codesBesideAmounts(world: WorldData): RegExp {
  if (codePattern) return codePattern;
  const codes = [...world.currencyCountries.keys()].filter((c) => !CODES_ALSO_WORDS.has(c)).sort().join('|');
  return (codePattern ??= new RegExp(String.raw`(?<![\p{L}\d])(${codes})${GAP}(${AMOUNT})(?![\p{L}\d])|(?<![\p{L}\d.,])(${AMOUNT})${GAP}(${codes})(?![\p{L}\d])`, 'gu'));
}

/** A currency's ISO code beside an amount ("PLN 12,50", "45,00 UAH"); `known` as for signsBesideAmount. */
export function codesBesideAmount(text: string, known: ReadonlySet<string>, world: WorldData = worldData()): WorldCue[] {
  const counts = new Map<string, WorldCue>();
  for (const m of text.matchAll(codesBesideAmounts(world))) {
    const currency = (m[1] ?? m[4])!, amount = (m[2] ?? m[3])!;
    if (known.has(currency) || !moneyLike(amount)) continue;
    const had = counts.get(currency);
    counts.set(currency, { feature: 'code-beside-amount', currency, count: (had?.count ?? 0) + 1, found: currency });
  }
  return [...counts.values()];
}

/** The one country that uses a currency, if only one does (a sign of the euro or the US dollar places no page). */
export function onlyCountryOf(currency: string, world: WorldData = worldData()): string | undefined {
  const countries = world.currencyCountries.get(currency);
  return countries?.length === 1 ? countries[0] : undefined;
}
