import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/extract/index.js';
import { inferLocale } from '../../src/locale/index.js';
import { documentFromText } from '../../src/document/geometry.js';
import type { FieldContext } from '../../src/fields/types.js';

const ctx = (extra: Partial<FieldContext> = {}): FieldContext => ({ extractTime: false, now: new Date('2024-06-01T00:00:00Z'), ...extra });
const fields = (lines: string[], extra: Partial<FieldContext> = {}) => extractFields(documentFromText(lines.join('\n')), ctx(extra));
const locale = (lines: string[]) => inferLocale(documentFromText(lines.join('\n')));

describe('locale from weighed evidence', () => {
  it('a US state and ZIP with dollar amounts is the US, month-first', () => {
    const l = locale(['JOE\'S DINER', '12 Main St', 'Springfield, IL 62701', 'Burger $8.99', 'TOTAL $8.99']);
    expect(l.countryCode).toBe('US');
    expect(l.dayFirst).toBe(false);
  });
  it('a US state code read in title case with its ZIP ("Boston, Ma 02114") is the US, month-first', () => {
    const l = locale(['Harvard Gardens', '320 Cambridge St.', 'Boston, Ma 02114', 'Server: Jennifer 04/07/2018', 'Total 70.97']);
    expect(l.countryCode).toBe('US');
    expect(l.dayFirst).toBe(false);
    expect(locale(['Cafe Roma', 'Roma, Ma']).countryCode).not.toBe('US');
  });
  it('a UK postcode with pounds is GB, day-first', () => {
    const l = locale(['THE CROWN', '1 High Street', 'London SW1A 1AA', 'Ale £4.50', 'TOTAL £4.50', 'VAT 0.75']);
    expect(l.countryCode).toBe('GB');
    expect(l.dayFirst).toBe(true);
  });
  it('a German PLZ and city with MwSt is DE', () => {
    const l = locale(['Bäckerei Schmidt', 'Hauptstraße 5', '33100 Paderborn', 'Brot 2,49 A', 'SUMME EUR 2,49', 'MwSt 7 % 0,16']);
    expect(l.countryCode).toBe('DE');
    expect(l.decimalComma).toBe(true);
  });
});

describe('dates follow the country', () => {
  it('reads 3/7/2018 as 7 March on a US receipt', () => {
    const r = fields(['JOE\'S DINER', '12 Main St', 'Springfield, IL 62701', '(217) 555-0100', '3/7/2018 12:31 PM', 'Burger 8.99', 'TOTAL $8.99']);
    expect(r.date?.value.slice(0, 10)).toBe('2018-03-07');
  });
  it('reads 05/07/2016 as 7 May on a US receipt with a sales tax line', () => {
    const r = fields(['CORNER MARKET', 'Austin, TX 78701', 'Date 05/07/2016', 'Milk 3.49', 'Sales Tax 0.29', 'Total $3.78']);
    expect(r.date?.value.slice(0, 10)).toBe('2016-05-07');
  });
  it('reads 05/07/2016 as 5 July on a UK receipt', () => {
    const r = fields(['THE CROWN', 'London SW1A 1AA', 'Date 05/07/2016', 'Ale £4.50', 'TOTAL £4.50']);
    expect(r.date?.value.slice(0, 10)).toBe('2016-07-05');
  });
  it('keeps an ambiguous date below 0.9 when nothing shows the country', () => {
    const r = fields(['CORNER SHOP', 'Date: 05/07/2016 10:22', 'Milk 3.49', 'TOTAL 3.49']);
    expect(r.date).toBeDefined();
    expect(r.date!.confidence).toBeLessThan(0.9);
  });
  it('reads a two-digit year month-first when only that order is valid: 07-24-11 is 2011-07-24', () => {
    const r = fields(['GAS STATION', 'Reno, NV 89501', '07-24-11 14:02', 'UNLEADED $40.00', 'TOTAL $40.00']);
    expect(r.date?.value.slice(0, 10)).toBe('2011-07-24');
  });
});

describe('payment lines', () => {
  const base = ['SWEETGREEN', '1164 Broadway', 'New York, NY 10001', 'Guacamole Greens 11.95', 'Subtotal 11.95', 'Tax 1.06'];
  it('takes the last 4 of a masked card number with a label', () => {
    const r = fields([...base, 'Total $13.01', 'Card#: ************4497', 'VISA $13.01']);
    expect(r.cardLast4?.value).toBe('4497');
  });
  it('takes the last 4 when the mask is read as other marks or spaced', () => {
    expect(fields([...base, 'Total $13.01', 'Acct: XXXX XXXX XXXX 1234']).cardLast4?.value).toBe('1234');
    expect(fields([...base, 'Total $13.01', 'MASTERCARD ************ 5678']).cardLast4?.value).toBe('5678');
  });
  it('does not take digits without a mask', () => {
    expect(fields([...base, 'Total $13.01', 'Order 1234']).cardLast4).toBeUndefined();
  });
  it('reads a tip line into tipAmount', () => {
    const r = fields([...base, 'Amount 13.01', 'Tip: 2.00', 'Total $15.01']);
    expect(r.tipAmount?.value).toBe(2);
  });
});

describe('tax tables and tax lines', () => {
  const head = ['Bäckerei Schmidt', 'Hauptstraße 5', '33100 Paderborn', 'Brot 2,49 A', 'Bier 1,19 B', 'SUMME EUR 3,68'];
  it('reads a German VAT table printed tax, net, gross (A/B rates) into tax lines and the tax', () => {
    const r = fields([...head, 'MwSt Netto Brutto', 'A 7% 0,16 2,33 2,49', 'B 19% 0,19 1,00 1,19']);
    expect(r.taxLines?.map((t) => [t.taxRate, t.netAmount, t.taxAmount, t.grossAmount])).toEqual([[0.07, 2.33, 0.16, 2.49], [0.19, 1, 0.19, 1.19]]);
    expect(r.taxAmount?.value).toBe(0.35);
  });
  it('reads a US tax line written Tx', () => {
    const r = fields(["JOE'S DINER", 'Austin, TX 78701', 'Burger 8.99', 'Fries 3.00', 'Subtotal 11.99', 'Tx 0.99', 'Total $12.98']);
    expect(r.taxAmount?.value).toBe(0.99);
  });
});

describe('merchant from brands and company lines', () => {
  it('takes the brand from the footer company name when the logo did not read', () => {
    const r = fields(['UNSERE ÖFFNUNGSZEITEN', 'MO.-SA. 9.00 Uhr - 20.00 Uhr', 'Pohlweg 110', '33100 Paderborn', 'KIWI 1,49 A', 'SUMME 1,49', 'Vielen Dank für Ihren Einkauf!', 'Aldi GmbH & Co. KG, Schloß Holte']);
    expect(r.merchantName?.value).toMatch(/^Aldi\b/);
  });
  it('takes the brand from a website domain', () => {
    const r = fields(['Senefelder Straße 2', '33100 Paderborn', 'Quittung', 'Duschvorhang 29,98', 'SUMME 29,98', 'www.roller.de']);
    expect(r.merchantName?.value).toBe('Roller');
    expect(r.merchantName!.confidence).toBeLessThan(0.9);
  });
  it('never takes opening hours, a street line, a cashier or a card line', () => {
    const r = fields(['UNSERE ÖFFNUNGSZEITEN', 'Warburger Straße 130', '33100 Paderborn', 'Kassierer: Anna', 'VISA DEBIT', 'Brot 2,49', 'SUMME 2,49']);
    const v = r.merchantName?.value ?? '';
    expect(v).not.toMatch(/ÖFFNUNGS|Warburger|Kassierer|VISA/);
  });
});

describe('language folders', () => {
  it('every language folder adds its months, weekdays and tax words to the shared lists', async () => {
    const { LANGUAGES, TAX_WORDS } = await import('../../src/locale/languages/index.js');
    const { MONTHS, WEEKDAYS } = await import('../../src/locale/lexicon.js');
    for (const l of LANGUAGES) {
      for (const w of Object.keys(l.months)) expect(MONTHS[w], `${l.code} ${w}`).toBeDefined();
      for (const w of Object.keys(l.weekdays)) expect(WEEKDAYS[w]).toBeDefined();
      for (const t of l.taxWords) expect(TAX_WORDS).toContain(t);
      expect(Object.values(l.months).every((n) => n >= 1 && n <= 12)).toBe(true);
    }
  });
  it('reads month-name dates through chrono-node for a language folder that names a chrono locale', async () => {
    const { chronoDates } = await import('../../src/locale/chrono.js');
    const now = new Date('2024-06-01T00:00:00Z');
    expect(chronoDates('Datum: 18. Apr. 2020 14:37', 'de', now).map((d) => [d.y, d.m, d.d, d.form])).toEqual([[2020, 4, 18, 'month-name']]);
    expect(chronoDates('18 de abril, 2020', 'pt', now).map((d) => [d.y, d.m, d.d])).toEqual([[2020, 4, 18]]);
    expect(chronoDates('18. Apr. 2020', 'ms', now)).toEqual([]); // no chrono locale in the Malay folder
    expect(chronoDates('18.04.2020', 'de', now)).toEqual([]); // numeric dates stay the library's own (country order)
    expect(chronoDates('18 April', 'en', now)).toEqual([]); // no year printed
  });
});

describe('names that look like never-names', () => {
  it('keeps a name ending in "!" and a name with a word ending in -ring', () => {
    expect(fields(['CLOCKED!', 'Springfield, IL 62701', 'Burger 8.99', 'TOTAL $8.99']).merchantName?.value).toBe('CLOCKED!');
    expect(fields(['ACE CATERING', 'Springfield, IL 62701', 'Lunch 8.99', 'TOTAL $8.99']).merchantName?.value).toBe('ACE CATERING');
  });
});

describe('brand evidence keeps the legal name', () => {
  it('takes no brand line from a brand the list places in no country ("Notes")', () => {
    const r = fields(['Sammy Maystone', '12 Harbour Road', 'Notes', 'Item 1 5.00', 'Total 5.00']);
    expect(r.merchantName?.value).toBe('Sammy Maystone');
  });
});
