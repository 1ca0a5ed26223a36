// Where a receipt is from, from the world's data (issue 50): each rule of src/locale/world on its own,
// the locale weighing them, the currency candidates carrying them, and the city index reproducible.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codesBesideAmount, countryNames, phoneCountries, phoneNationalCountries, postcodeCities, signsBesideAmount } from '../../src/locale/world/evidence.js';
import { worldConventions, worldData } from '../../src/locale/world/data.js';
import { countryConventions, inferLocale } from '../../src/locale/index.js';
import { currencyCandidates } from '../../src/resolve/currency.js';
import { documentFromText } from '../../src/document/geometry.js';
import { extractFields } from '../../src/extract/index.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const none = new Set<string>();

describe('the world\'s evidence, rule by rule', () => {
  it('phoneCountries: a number with its calling code names its country; a national one does not', () => {
    expect(phoneCountries('Tel. +48 12 345 67 89').map((c) => c.country)).toEqual(['PL']);
    expect(phoneCountries('Tel: 0049 30 12345678').map((c) => c.country)).toEqual(['DE']);
    expect(phoneCountries('Tel: 012 345 67 89')).toEqual([]);
    // a run of digits starting 00 is an invoice's number as often
    expect(phoneCountries('INV 002017394688')).toEqual([]);
    // not a valid number of any plan
    expect(phoneCountries('Ref +99 1234 5678')).toEqual([]);
  });

  it('phoneNationalCountries: among the likely countries, those whose plan the number fits, when not all do', () => {
    const fits = phoneNationalCountries('Tel 030 1234567', ['DE', 'US']).map((c) => c.country);
    expect(fits).toEqual(['DE']);
    expect(phoneNationalCountries('Tel 030 1234567', ['DE'])).toEqual([]);
    // a date is no number
    expect(phoneNationalCountries('04/07/2018', ['DE', 'US'])).toEqual([]);
    // nor a product's number starting 00
    expect(phoneNationalCountries('NOTECARDS RED 00100998274 1.50', ['ID', 'US'])).toEqual([]);
  });

  it('countryNames: a country\'s name in any language ending a line, not inside one', () => {
    expect(countryNames('ul. Długa 1\nWarszawa, Polska').map((c) => c.country)).toEqual(['PL']);
    expect(countryNames('TÜRKİYE').map((c) => c.country)).toEqual(['TR']);
    expect(countryNames('CHILE CON CARNE 5.00')).toEqual([]);
  });

  it('postcodeCities: a city beside a postcode of its own country\'s format', () => {
    expect(postcodeCities('31-019 Kraków').map((c) => c.country)).toEqual(['PL']);
    expect(postcodeCities('400114 Cluj-Napoca').map((c) => c.country)).toEqual(['RO']);
    // the same city without a postcode, or with a number of another format
    expect(postcodeCities('Kraków')).toEqual([]);
    expect(postcodeCities('31019 Kraków')).toEqual([]);
    // a region's code between; a city's name that is only the start of the place's
    expect(postcodeCities('Adelaide SA 5000').map((c) => c.country)).toEqual(['AU']);
    expect(postcodeCities('40170 Bandar Baru Bangi')).toEqual([]);
  });

  it('signsBesideAmount: a sign of one currency beside an amount; not two Latin letters', () => {
    expect(signsBesideAmount('SUMA 12,50 zł', none).map((c) => c.currency)).toEqual(['PLN']);
    expect(signsBesideAmount('TOPLAM ₺45,00', none).map((c) => c.currency)).toEqual(['TRY']);
    expect(signsBesideAmount('TOTAL 45,00 lei', none).map((c) => c.currency)).toEqual(['RON']);
    expect(signsBesideAmount('TOPLAM ₺45,00', new Set(['TRY']))).toEqual([]);
    // a Vietnamese receipt's discount ("KM"), a distance
    expect(signsBesideAmount('KM 10,000\nTong 45,000', none)).toEqual([]);
    expect(signsBesideAmount('5 km', none)).toEqual([]);
    // a letter before a glyph, beside an amount in cents only
    expect(signsBesideAmount('TOTAL R$ 12,50', none).map((c) => c.currency)).toEqual(['BRL']);
    expect(signsBesideAmount('-E£19-9 La ink', none)).toEqual([]);
  });

  it('codesBesideAmount: an ISO code beside an amount, as a token of its own', () => {
    expect(codesBesideAmount('RAZEM PLN 12,50', none).map((c) => c.currency)).toEqual(['PLN']);
    expect(codesBesideAmount('S.Tax : AJTPM7071RSD001', none)).toEqual([]);
    expect(codesBesideAmount('ALL 12.00', none)).toEqual([]);
    // glued to a product's number, or to a number on the next line
    expect(codesBesideAmount('RELAXA BARLEY MNT125 7800', none)).toEqual([]);
    expect(codesBesideAmount('HARDWARE SDN BHD\n12.50', none)).toEqual([]);
  });
});

describe('the world\'s evidence in the locale', () => {
  it('a country the hand-kept table does not hold takes its conventions from the world\'s data', () => {
    expect(worldConventions('UA')).toMatchObject({ currency: 'UAH', decimalComma: true, dayFirst: true });
    expect(countryConventions('JP')?.currency).toBe('JPY');
    expect(worldConventions('ZZ')).toBeUndefined();
  });

  it('places a page by its address and telephone number, and the currency candidates carry the evidence', () => {
    const locale = inferLocale(documentFromText('SKLEP\nul. Floriańska 12\n31-019 Kraków\nTel. +48 12 345 67 89\nSUMA 12,50'));
    expect(locale.countryCode).toBe('PL');
    expect(locale.currency).toBe('PLN');
    const pln = currencyCandidates(locale).find((c) => c.value === 'PLN')!;
    expect(pln.features).toMatchObject({ 'phone-country': 1, 'postcode-city': 1, 'country-currency': 1 });
  });

  it('reads the caller\'s place (`near`) by the world\'s names and cities too', () => {
    const page = 'MARKET\nTOTAL 19,75';
    expect(inferLocale(documentFromText(page)).countryCode).toBeUndefined();
    expect(inferLocale(documentFromText(page), { near: 'Polska' }).currency).toBe('PLN');
    expect(inferLocale(documentFromText(page), { near: 'Lviv' }).currency).toBe('UAH');
    expect(inferLocale(documentFromText(page), { near: 'Izmir, TR' }).currency).toBe('TRY');
  });

  it('takes the currency from the caller\'s place only where the page says nothing, and says so (below 0.9)', () => {
    const bare = extractFields(documentFromText('MARKET\nITEM 12,50\nTOTAL 19,75'), { near: 'Polska' });
    expect(bare.currencyCode?.value).toBe('PLN');
    expect(bare.currencyCode!.confidence).toBeLessThan(0.9);
    expect(bare.evidence?.locale).toContain('country-from-caller-place');
    // the page's own address and number win over the caller's place
    const placed = extractFields(documentFromText('MARKET\n31-019 Kraków\nTel. +48 12 345 67 89\nTOTAL 19,75'), { near: 'Berlin, Germany' });
    expect(placed.country?.code).toBe('PL');
    expect(placed.currencyCode?.value).toBe('PLN');
    expect(placed.evidence?.locale).not.toContain('country-from-caller-place');
  });

  it('weighs the country of the caller\'s ipAddress as it weighs `near`, and `near` before it', () => {
    const page = documentFromText('MARKET\nITEM 12,50\nTOTAL 19,75');
    const ip = inferLocale(page, { callerCountry: 'PL' });
    expect(ip.currency).toBe('PLN');
    expect(ip.evidence).toContain('ip-address:PL');
    expect(ip.evidence).toContain('country-from-caller-place');
    expect(ip.countryConfidence).toBeLessThan(0.9);
    // the caller named the place: the address's country is not weighed besides it
    const named = inferLocale(page, { near: 'Lviv', callerCountry: 'PL' });
    expect(named.currency).toBe('UAH');
    expect(named.evidence.some((e) => e.startsWith('ip-address:'))).toBe(false);
    // a code no country has is not a place
    expect(inferLocale(page, { callerCountry: 'ZZ' }).countryCode).toBeUndefined();
    // the page's own number wins over the address's country
    const placed = extractFields(documentFromText('MARKET\nTel. +48 12 345 67 89\nTOTAL 19,75'), { callerCountry: 'DE', extractTime: false });
    expect(placed.currencyCode?.value).toBe('PLN');
  });

  it('loads the data once per process', () => {
    expect(worldData()).toBe(worldData());
  });

  it('the city index is what scripts/build-city-index.mjs derives from the installed package', () => {
    const out = execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-city-index.mjs'), '--check'], { encoding: 'utf8' });
    expect(out).toContain('up to date');
  }, 60_000);
});
