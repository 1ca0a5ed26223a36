// Issue 50's target: generated receipts (text documents, as the unit tests build them) from 40 countries,
// each with a telephone number in that country's format (libphonenumber-js's example numbers, national
// and international in turn), a postcode and city, and amounts with a currency sign, with the ISO code or
// bare, in the country's own number format (CLDR through Intl): country and currency right on >= 95 %.
// The countries are test data; the library names none of them in the rules that place these pages.
import { describe, expect, it } from 'vitest';
import { getExampleNumber } from 'libphonenumber-js/min';
import examples from 'libphonenumber-js/mobile/examples';
import type { CountryCode } from 'libphonenumber-js/min';
import { documentFromText } from '../../src/document/geometry.js';
import { extractFields } from '../../src/extract/index.js';

/** Country, its currency, and an address line with a postcode and city as the country writes them. */
const COUNTRIES: Array<[CountryCode, string, string]> = [
  ['PL', 'PLN', '31-019 Kraków'], ['DE', 'EUR', '50667 Köln'], ['ES', 'EUR', '41001 Sevilla'], ['PT', 'EUR', '4000-322 Porto'],
  ['UA', 'UAH', '79000 Lviv'], ['BG', 'EUR', '4000 Plovdiv'], ['TR', 'TRY', '35220 İzmir'], ['IN', 'INR', 'Pune 411001'],
  ['TH', 'THB', 'Chiang Mai 50200'], ['FR', 'EUR', '69002 Lyon'], ['IT', 'EUR', '40121 Bologna'], ['NL', 'EUR', '3511 AB Utrecht'],
  ['BE', 'EUR', '9000 Gent'], ['AT', 'EUR', '8010 Graz'], ['CH', 'CHF', '1003 Lausanne'], ['CZ', 'CZK', '602 00 Brno'],
  ['HU', 'HUF', '4025 Debrecen'], ['RO', 'RON', '400114 Cluj-Napoca'], ['HR', 'EUR', '21000 Split'], ['GR', 'EUR', '262 21 Pátra'],
  ['SE', 'SEK', '211 22 Malmö'], ['NO', 'NOK', '5003 Bergen'], ['DK', 'DKK', '8000 Aarhus'], ['FI', 'EUR', '33100 Tampere'],
  ['LT', 'EUR', '44280 Kaunas'], ['GB', 'GBP', 'Leeds LS1 4DY'], ['US', 'USD', 'Denver, CO 80202'], ['CA', 'CAD', 'Calgary, AB T2P 1J9'],
  ['MX', 'MXN', '64000 Monterrey'], ['BR', 'BRL', 'Curitiba 80010-000'], ['AR', 'ARS', '2000 Rosario'], ['AU', 'AUD', 'Adelaide SA 5000'],
  ['NZ', 'NZD', 'Tauranga 3110'], ['JP', 'JPY', '060-0001 Sapporo'], ['KR', 'KRW', 'Busan 48058'], ['ZA', 'ZAR', 'Durban 4001'],
  ['PH', 'PHP', '6000 Cebu City'], ['ID', 'IDR', 'Bandung 40111'], ['RS', 'RSD', '21000 Novi Sad'], ['MY', 'MYR', '30000 Ipoh'],
];

const localeOf = (country: string) => new Intl.Locale('und', { region: country }).maximize().toString();

/** The amounts of one receipt in the country's format: with its sign (i % 3 = 0), its ISO code after (1), bare (2). */
function amounts(country: string, currency: string, i: number): string[] {
  const locale = localeOf(country);
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const values = digits === 0 ? [1250, 725, 1975] : [12.5, 7.25, 19.75];
  const bare = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const signed = new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' });
  return values.map((v) => (i % 3 === 0 ? signed.format(v) : i % 3 === 1 ? `${bare.format(v)} ${currency}` : bare.format(v)));
}

/** One generated receipt's text. */
export function receiptText(country: CountryCode, currency: string, place: string, i: number): string {
  const phone = getExampleNumber(country, examples)!;
  const [a, b, total] = amounts(country, currency, i);
  return [
    `MARKET ${i + 1}`,
    place,
    `Tel. ${i % 2 === 0 ? phone.formatNational() : phone.formatInternational()}`,
    `ITEM A ${a}`,
    `ITEM B ${b}`,
    `TOTAL ${total}`,
  ].join('\n');
}

describe('generated receipts from 40 countries (issue 50 target)', () => {
  it('gives the country and the currency right on at least 95 % of them', () => {
    expect(COUNTRIES).toHaveLength(40);
    const wrong: string[] = [];
    COUNTRIES.forEach(([country, currency, place], i) => {
      const text = receiptText(country, currency, place, i);
      const fields = extractFields(documentFromText(text), {});
      const got = { country: fields.country?.code, currency: fields.currencyCode?.value };
      if (got.country !== country || got.currency !== currency) wrong.push(`${country}/${currency}: got ${got.country}/${got.currency} from ${JSON.stringify(text)}`);
    });
    const share = (COUNTRIES.length - wrong.length) / COUNTRIES.length;
    console.log(`world-40: country and currency right on ${COUNTRIES.length - wrong.length}/${COUNTRIES.length} (${(100 * share).toFixed(1)} %)${wrong.length ? `\n  ${wrong.join('\n  ')}` : ''}`);
    expect(share).toBeGreaterThanOrEqual(0.95);
  });
});
