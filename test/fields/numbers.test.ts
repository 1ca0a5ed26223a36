import { describe, expect, it } from 'vitest';
import { parseNumber, repairDigitRuns, confusedVariants } from '../../src/locale/numbers.js';
import { amountsInLine } from '../../src/fields/numbers.js';
import { inferLocale } from '../../src/locale/index.js';
import { documentFromText } from '../../src/document/geometry.js';

const US = { decimalComma: false, wholeCurrency: false };
const EU = { decimalComma: true, wholeCurrency: false };
const ID = { decimalComma: true, wholeCurrency: true };

describe('parseNumber', () => {
  it('reads decimal points and thousands commas', () => {
    expect(parseNumber('1,234.56', US)?.value).toBe(1234.56);
    expect(parseNumber('12.50', US)?.value).toBe(12.5);
    expect(parseNumber('1,234', US)?.value).toBe(1234);
    expect(parseNumber('1,234,567.89', US)?.value).toBe(1234567.89);
  });

  it('reads European decimal commas and dot or space grouping', () => {
    expect(parseNumber('1.234,56', EU)?.value).toBe(1234.56);
    expect(parseNumber('12,50', EU)?.value).toBe(12.5);
    expect(parseNumber('3 038,14', EU)?.value).toBe(3038.14);
    expect(parseNumber("1'234.50", US)?.value).toBe(1234.5);
  });

  it('reads Indonesian whole-rupiah grouping', () => {
    expect(parseNumber('43.000', ID)?.value).toBe(43000);
    expect(parseNumber('131,000', ID)?.value).toBe(131000);
    expect(parseNumber('1.250.000', ID)?.value).toBe(1250000);
    expect(parseNumber('130.000,00', ID)?.value).toBe(130000);
    expect(parseNumber('43.000', US)?.value).toBe(43); // the same text under US conventions is not grouping
  });

  it('tolerates a space after the decimal point (OCR)', () => {
    expect(parseNumber('31. 60', US)?.value).toBe(31.6);
    expect(parseNumber('40, 900', ID)?.value).toBe(40900);
  });

  it('rejects text that is not a clean number', () => {
    expect(parseNumber('0A19', US)).toBeUndefined();
    expect(parseNumber('1.2.3', US)).toBeUndefined();
    expect(parseNumber('12,,50', US)).toBeUndefined();
    expect(parseNumber('', US)).toBeUndefined();
    expect(parseNumber('1,23,4', US)).toBeUndefined();
  });

  it('reports decimals and grouping', () => {
    const p = parseNumber('1,234.56', US)!;
    expect(p.decimals).toBe(2);
    expect(p.grouped).toBe(true);
    expect(parseNumber('1234', US)!.decimals).toBe(0);
  });
});

describe('OCR repairs', () => {
  it('reads look-alike letters as digits inside number runs only', () => {
    expect(repairDigitRuns('TOTAL 1O.5O').text).toBe('TOTAL 10.50');
    expect(repairDigitRuns('TOTAL 2l.S0').text).toBe('TOTAL 21.50');
    // words stay words
    expect(repairDigitRuns('SOLD BILL').text).toBe('SOLD BILL');
    expect(repairDigitRuns('9.90S').text).toBe('9.90S');
  });

  it('keeps the string length so offsets still match', () => {
    const s = 'CASH RM 1O.OO';
    expect(repairDigitRuns(s).text).toHaveLength(s.length);
  });

  it('lists one-digit confusions', () => {
    expect(confusedVariants('30.50')).toContain(30.8);
    expect(confusedVariants('16.60')).not.toContain(16.6);
  });
});

describe('amountsInLine', () => {
  const my = inferLocale(documentFromText('TOTAL RM 10.00\nSDN BHD\nJALAN AMPANG'));
  const idr = inferLocale(documentFromText('Total 43.000\nTunai 50.000\nKembali 7.000\nJl. Sudirman'));

  it('finds amounts with currency markers and signs', () => {
    const line = documentFromText('Rounding Adj RM -0.02').lines[0]!;
    const a = amountsInLine(line, my);
    expect(a.map((x) => x.value)).toEqual([-0.02]);
    expect(a[0]!.currency).toBe('MYR');
    expect(a[0]!.moneyLike).toBe(true);
  });

  it('reads a lone R glued to an amount with cents as the rand, and as the ringgit on a Malaysian receipt', () => {
    const za = inferLocale(documentFromText('Total: R288.40\nR35.42 V.A.T Included\nR252.98'));
    const [rand] = amountsInLine(documentFromText('Total: R288.40').lines[0]!, za);
    expect(rand).toMatchObject({ value: 288.4, currency: 'ZAR', moneyLike: true });
    const [ringgit] = amountsInLine(documentFromText('CARLSBERG CAN R106.50').lines[0]!, my);
    expect(ringgit).toMatchObject({ value: 106.5, currency: 'MYR' });
    // not a sign without cents, nor inside a word
    expect(amountsInLine(documentFromText('ROOM R12').lines[0]!, za).map((x) => x.currency)).toEqual([]);
    expect(amountsInLine(documentFromText('BAR12.50').lines[0]!, za).map((x) => x.value)).toEqual([]);
  });

  it('reads a dong sign read as a 4 ("26.0004") on a dong receipt, as a repaired amount', () => {
    const vn = inferLocale(documentFromText('HOA DON BAN HANG\nTong cong 26.000d\nCam on quy khach'));
    expect(vn.currency).toBe('VND');
    const [a] = amountsInLine(documentFromText('Tong cong 26.0004').lines[0]!, vn);
    expect(a).toMatchObject({ value: 26000, currency: 'VND', moneyLike: true, repaired: true });
    // elsewhere the digits stay as printed
    expect(amountsInLine(documentFromText('Total 26.0004').lines[0]!, my).map((x) => x.value)).not.toContain(26000);
  });

  it('does not read dates, times or phone numbers as amounts', () => {
    const line = documentFromText('25/12/2018 13:45 TEL 0123456789').lines[0]!;
    expect(amountsInLine(line, my)).toEqual([]);
  });

  it('offers the lost-decimal reading of an integer as an alternative', () => {
    const line = documentFromText('Total GST 308').lines[0]!;
    const [a] = amountsInLine(line, my);
    expect(a!.moneyLike).toBe(false);
    expect(a!.alternatives).toContain(3.08);
  });

  it('joins "57 50" at a line end into 57.50', () => {
    const line = documentFromText('Total Sales (Excluding GST) 57 50').lines[0]!;
    const a = amountsInLine(line, my);
    expect(a.map((x) => x.value)).toContain(57.5);
  });

  it('reads rupiah amounts as whole units', () => {
    const line = documentFromText('Total 43.000').lines[0]!;
    expect(amountsInLine(line, idr).map((x) => x.value)).toEqual([43000]);
  });
});
