/**
 * Retail brands by country (models/brands.json, derived from OpenStreetMap's name-suggestion-index by
 * scripts/build-brands.mjs): recognises a brand printed on a line, in a website or e-mail domain, or in
 * the company name of the footer ("Aldi GmbH & Co. KG"), and gives its usual spelling. A brand list from
 * general geography, never a list of the receipts the library was tested on.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fold } from './text.js';
import { wordsOf } from '../locale/languages/index.js';

export interface Brand {
  /** The brand as usually written ("Rossmann", "IN-N-OUT BURGER" keeps its own spelling). */
  name: string;
  /** Lower-case ISO codes; '001' = worldwide; empty = unknown. */
  countries: string[];
}

export interface BrandMatch {
  brand: Brand;
  /** Words of the text the brand took (from the start). */
  words: number;
  /** Words in the text. */
  of: number;
  /** Edit distance of a near match (0 = exact). */
  distance: number;
}

/** Brand keys: upper case, accents folded, letters and digits only. */
export const brandKey = (s: string): string => fold(s).replace(/[^A-Z0-9]/g, '');

interface BrandIndex { exact: Map<string, Brand>; byLength: Map<number, string[]> }
let index: BrandIndex | undefined;

/** Words too common to name a shop on their own (a line "EXPRESS" or "FOOD" is no brand). */
const GENERIC = new Set(wordsOf('genericNames'));

/** The brand list, read once (an unreadable file gives an empty list: brands are extra evidence only). */
function brandIndex(): BrandIndex {
  if (index) return index;
  const exact = new Map<string, Brand>();
  const byLength = new Map<number, string[]>();
  try {
    const file = fileURLToPath(new URL('../../models/brands.json', import.meta.url));
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { brands: Array<[string, string, ...string[]]> };
    for (const [name, countries, ...alts] of data.brands) {
      const brand: Brand = { name, countries: countries ? countries.split(' ') : [] };
      for (const n of [name, ...alts]) {
        const k = brandKey(n);
        if (k.length < 3 || GENERIC.has(k) || /^\d+$/.test(k)) continue;
        const had = exact.get(k);
        // one key, several entries ("Aldi" abroad, "Aldi Süd" at home calls itself "aldi"): one brand of all their countries
        if (had) { for (const c of brand.countries) if (!had.countries.includes(c)) had.countries.push(c); }
        else {
          exact.set(k, brand);
          const list = byLength.get(k.length) ?? [];
          list.push(k);
          byLength.set(k.length, list);
        }
      }
    }
  } catch {
    // no list: the merchant finder works without it
  }
  index = { exact, byLength };
  return index;
}

/** Does the brand trade in the country (or everywhere)? */
export function brandInCountry(b: Brand, country: string | undefined): boolean {
  // a brand the list places nowhere is often a common word ("Notes"): not a brand line of its own
  if (!b.countries.length) return false;
  // a country the document does not show: only a brand that trades everywhere
  if (!country) return b.countries.includes('001');
  const c = country.toLowerCase();
  return b.countries.includes('001') || b.countries.includes(c) || (c === 'fr' && b.countries.includes('fx'));
}

/**
 * The brand a text starts with: the longest run of its first words (up to four) that spells a brand,
 * with or without the spaces ("IN-N-OUT BURGER Santa Clara", "Media Markt", "MARKTKAUF Lehr").
 */
export function brandAtStart(text: string): BrandMatch | undefined {
  const { exact } = brandIndex();
  const words = fold(text).split(/[^A-Z0-9&'’-]+/).filter((w) => /[A-Z0-9]/.test(w));
  for (let n = Math.min(4, words.length); n >= 1; n--) {
    const k = brandKey(words.slice(0, n).join(''));
    const b = exact.get(k);
    if (b) return { brand: b, words: n, of: words.length, distance: 0 };
  }
  return undefined;
}

/** The brand a website or e-mail domain label names ("rossmann", "marktkauf-lehr", "roller"). */
export function brandOfDomain(label: string): Brand | undefined {
  const { exact } = brandIndex();
  const parts = label.toUpperCase().split(/[^A-Z0-9]+/).filter(Boolean);
  for (let n = parts.length; n >= 1; n--) {
    const b = exact.get(parts.slice(0, n).join(''));
    if (b) return b;
  }
  return undefined;
}

/**
 * A short line that is one letter away from exactly one brand of the country ("LDL" for a logo's LIDL):
 * OCR of a logo. Only for keys of 3+ letters; undefined when two brands are as near.
 */
export function nearBrand(text: string, country: string | undefined): BrandMatch | undefined {
  const { exact, byLength } = brandIndex();
  const k = brandKey(text);
  if (k.length < 3 || k.length > 12 || /\d/.test(k)) return undefined;
  let found: Brand | undefined;
  for (const len of [k.length - 1, k.length, k.length + 1]) {
    for (const key of byLength.get(len) ?? []) {
      if (key.length < 4 || !withinOne(k, key)) continue;
      const b = exact.get(key)!;
      if (!country || !brandInCountry(b, country) || !b.countries.length) continue;
      if (found && found !== b) return undefined;
      found = b;
    }
  }
  return found ? { brand: found, words: 1, of: 1, distance: 1 } : undefined;
}

/** Look-alike letters and digits as one (1, I, L, |; 0, O; 5, S; 8, B): a key OCR may have read either way. */
const lookalikeKey = (k: string): string => k.replace(/[1IL|]/g, 'I').replace(/0/g, 'O').replace(/5/g, 'S').replace(/8/g, 'B');
let longKeys: Array<[string, Brand]> | undefined;

/**
 * A brand of the country whose name (7+ letters) a line holds run together with other words, as PaddleOCR
 * reads a line without its spaces, look-alike letters aside ("elooetoCh1ck-f11-A" holds Chick-fil-A).
 * Undefined when the line holds none, or two different brands.
 */
export function brandInside(text: string, country: string | undefined): BrandMatch | undefined {
  if (!country) return undefined;
  const { exact } = brandIndex();
  longKeys ??= [...exact].filter(([k]) => k.length >= 7 && !/\d/.test(k)).map(([k, b]) => [lookalikeKey(k), b]);
  const key = lookalikeKey(fold(text).replace(/[^A-Z0-9|]/g, ''));
  if (key.length < 7) return undefined;
  let found: Brand | undefined;
  for (const [k, b] of longKeys) {
    if (k.length > key.length || !key.includes(k) || !brandInCountry(b, country)) continue;
    if (found && found !== b) return undefined;
    found = b;
  }
  return found ? { brand: found, words: 1, of: 1, distance: 0 } : undefined;
}

/** Edit distance at most one (one letter inserted, dropped or changed). */
function withinOne(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0, j = 0, edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) { i++; j++; continue; }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (a.length < b.length) j++;
    else { i++; j++; }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}
