import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/extract/index.js';
import { confirmByPasses, needsAlternate, preferAlternate, needsConfirmation, secondLookDate, secondLookItems, secondLookTotal, withLine, REREAD_HEIGHTS, SECOND_LOOK_BELOW } from '../../src/read/second-look.js';
import { documentFromText } from '../../src/document/geometry.js';
import type { Line } from '../../src/document/types.js';

const NOW = new Date('2024-06-01T00:00:00Z');
const ctx = { extractTime: false, now: NOW };
// a date without a label and a short year: found, but not with high confidence
const doc = documentFromText(['CORNER SHOP', '12-01-19 21:13 SH01 T4', 'TOTAL 10.00', 'CASH 10.00'].join('\n'));
const words = (text: string, line: Line) => text.split(' ').map((t, i) => ({ text: t, confidence: 0.9, box: { ...line.box, x0: line.box.x0 + i * 50, x1: line.box.x0 + i * 50 + 40 } }));
const reader = (texts: string[]) => async (lines: Line[]) => lines.map((line) => texts.map((t) => words(t, line)));

describe('second look at the date', () => {
  const first = extractFields(doc, ctx);
  it('starts from an uncertain date', () => {
    expect(first.date?.value.slice(0, 10)).toBe('2019-01-12');
    expect(first.date!.confidence).toBeLessThan(SECOND_LOOK_BELOW);
  });

  it('raises the confidence when every re-reading agrees', async () => {
    const f = await secondLookDate(doc, first, ctx, reader(REREAD_HEIGHTS.map(() => '12-01-19 21:13 SH01 T4')));
    expect(f.date?.value).toBe(first.date!.value);
    expect(f.date!.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('takes the date every re-reading agrees on instead of a misread one', async () => {
    const f = await secondLookDate(doc, first, ctx, reader(REREAD_HEIGHTS.map(() => '18-01-19 21:13 SH01 T4')));
    expect(f.date?.value.slice(0, 10)).toBe('2019-01-18');
    expect(f.date!.confidence).toBeLessThanOrEqual(0.8);
  });

  it('changes nothing when the re-readings disagree or are missing', async () => {
    const mixed = await secondLookDate(doc, first, ctx, reader(['18-01-19 21:13', '12-01-19 21:13', '13-01-19 21:13']));
    expect(mixed.date).toEqual(first.date);
    const none = await secondLookDate(doc, first, ctx, async () => []);
    expect(none.date).toEqual(first.date);
  });

  it('does not raise a date guessed from a misread digit when the re-readings make the same guess', async () => {
    const misread = documentFromText(['CORNER SHOP', '76.01.20-21:13/2.2.17', 'TOTAL 10.00', 'CASH 10.00'].join('\n'));
    const f = extractFields(misread, ctx);
    expect(f.date!.value.slice(0, 10)).toBe('2020-01-26');
    expect(f.evidence!.date!.some((e) => e.startsWith('digit-guess'))).toBe(true);
    expect(f.date!.marks?.digitGuess).toBe(true);
    const same = await secondLookDate(misread, f, ctx, reader(['76.01.20-21:13/2.2.17', '76.01.20-21:13/2.2.17', '76.01.20-21:13/2.2.17']));
    expect(same.date!.confidence).toBe(f.date!.confidence);
    // readings that print the digits confirm it
    const printed = await secondLookDate(misread, f, ctx, reader(['26.01.20-21:13/2.2.17', '26.01.20-21:13/2.2.17', '26.01.20-21:13/2.2.17']));
    expect(printed.date!.value.slice(0, 10)).toBe('2020-01-26');
    expect(printed.date!.confidence).toBeGreaterThanOrEqual(SECOND_LOOK_BELOW);
  });

  it('with no date read, reads the lines with a time again and takes a date two readings agree on', async () => {
    const lost = documentFromText(['CORNER SHOP', '.U8.20-21:13/2.2.17/T4', 'TOTAL 10.00', 'CASH 10.00'].join('\n'));
    const f = extractFields(lost, ctx);
    expect(f.date).toBeUndefined();
    const two = await secondLookDate(lost, f, ctx, reader(['10.08.20-21:13/2.2.17/T4', '10.08.20-21:13/2.2.17/T4', '.08.20-21:13']));
    expect(two.date!.value.slice(0, 10)).toBe('2020-08-10');
    expect(two.date!.confidence).toBeLessThanOrEqual(0.8);
    expect(two.evidence!.date).toContain('reread-finds');
    const one = await secondLookDate(lost, f, ctx, reader(['10.08.20-21:13/2.2.17/T4', '16.08.20-21:13', '.08.20-21:13']));
    expect(one.date).toBeUndefined();
  });

  it('with no date in either reading, reads the second reader\'s line printing a year again, in the first\'s closest line', async () => {
    // the first reading is noise where the second read the date line with a letter of its month lost
    const noise = documentFromText(['SE a SS', 'RNR - SY', 'TOTAL EURO 50.00', 'a Ls'].join('\n'));
    const second = documentFromText(['RESTAURANT SALINE', 'VEN18AR2014 21:', 'TOTAL EURO 50.00', 'MERCI'].join('\n'));
    const f = extractFields(noise, ctx);
    expect(f.date).toBeUndefined();
    expect(extractFields(second, ctx).date).toBeUndefined();
    const asked: string[] = [];
    const boxes: number[] = [];
    const read = async (lines: Line[]) => { asked.push(...lines.map((l) => l.text)); boxes.push(...lines.map((l) => l.box.y1 - l.box.y0)); return reader(REREAD_HEIGHTS.map(() => 'VEN 18 AVR 2014 a 21:35'))(lines); };
    const found = await secondLookDate(noise, f, ctx, read, false, second);
    expect(asked).toEqual(['VEN18AR2014 21:']);
    // the detector's box is read at half its height (its text, not the box grown around it)
    expect(boxes[0]).toBeCloseTo((second.lines[1]!.box.y1 - second.lines[1]!.box.y0) / 2, 5);
    expect(found.date!.value.slice(0, 10)).toBe('2014-04-18');
    expect(found.date!.lineIndex).toBe(1);
    expect(found.date!.confidence).toBeLessThanOrEqual(0.8);
    // without the second reading there is no line to read
    expect((await secondLookDate(noise, f, ctx, read)).date).toBeUndefined();
  });

  it('does not look again at a certain date', async () => {
    let calls = 0;
    const sure = { ...first, date: { ...first.date!, confidence: 0.95 } };
    await secondLookDate(doc, sure, ctx, async () => { calls++; return []; });
    expect(calls).toBe(0);
  });

  it('looks again at a certain date the other reader read otherwise, and corrects it when every height agrees', async () => {
    let calls = 0;
    const sure = { ...first, date: { ...first.date!, confidence: 0.95 } };
    const f = await secondLookDate(doc, sure, ctx, async (lines) => { calls++; return reader(REREAD_HEIGHTS.map(() => '18-01-19 21:13 SH01 T4'))(lines); }, true);
    expect(calls).toBe(1);
    expect(f.date?.value.slice(0, 10)).toBe('2019-01-18');
    expect(f.date!.confidence).toBeLessThanOrEqual(0.8);
  });

  it('withLine replaces one line and the text', () => {
    const d = withLine(doc, 1, words('03-02-20 10:00', doc.lines[1]!));
    expect(d.lines[1]!.text).toBe('03-02-20 10:00');
    expect(d.text.split('\n')[1]).toBe('03-02-20 10:00');
    expect(d.lines[0]).toBe(doc.lines[0]);
  });
});

describe('second look at line items', () => {
  const items = documentFromText(['SHOP', 'Date 01/02/2020', 'Item Qty Amount', 'PEN 1 3.00', 'BOOK 1 18.00', 'TOTAL 15.00', 'CASH 20.00', 'CHANGE 5.00'].join('\n'));
  const first = extractFields(items, { ...ctx, extractLineItems: true });
  const lineReader = (fix: Record<string, string>) => async (lines: Line[]) =>
    lines.map((line) => REREAD_HEIGHTS.map(() => words(fix[line.text] ?? line.text, line)));

  it('starts from items that do not add up', () => {
    expect(first.itemsCheck).toMatchObject({ itemsSum: 21, matches: false });
  });

  it('takes the re-read items when they add up to the total', async () => {
    const f = await secondLookItems(items, first, { ...ctx, extractLineItems: true }, lineReader({ 'BOOK 1 18.00': 'BOOK 1 12.00' }));
    expect(f.lineItems!.map((i) => [i.name.value, i.totalPrice.value])).toEqual([['PEN', 3], ['BOOK', 12]]);
    expect(f.itemsCheck).toMatchObject({ itemsSum: 15, matches: true });
    expect(f.totalAmount).toEqual(first.totalAmount);
  });

  it('keeps the first reading when the re-reading does not add up either', async () => {
    const f = await secondLookItems(items, first, { ...ctx, extractLineItems: true }, lineReader({ 'BOOK 1 18.00': 'BOOK 1 13.00' }));
    expect(f.lineItems).toEqual(first.lineItems);
  });

  it('reads one height at a time and stops at the first whose items add up', async () => {
    const asked: Array<readonly number[] | undefined> = [];
    // the smallest height misreads the line again; the next one reads it right
    const reader = async (lines: Line[], heights?: readonly number[]) => {
      asked.push(heights);
      return lines.map((line) => (heights ?? REREAD_HEIGHTS).map((h) => words(line.text === 'BOOK 1 18.00' ? (h === REREAD_HEIGHTS[0] ? 'BOOK 1 19.00' : 'BOOK 1 12.00') : line.text, line)));
    };
    const f = await secondLookItems(items, first, { ...ctx, extractLineItems: true }, reader);
    expect(f.itemsCheck).toMatchObject({ itemsSum: 15, matches: true });
    expect(f.evidence?.lineItems).toEqual([`reread-adds-up:${REREAD_HEIGHTS[1]}px`]);
    expect(asked).toEqual([[REREAD_HEIGHTS[0]], [REREAD_HEIGHTS[1]]]);
  });
});

describe('confirming passes', () => {
  const base = extractFields(documentFromText(['SHOP', 'Date 01/02/2020', 'TOTAL RM 12.40', 'CASH 20.00'].join('\n')), ctx);
  const uncertain = { ...base, totalAmount: { ...base.totalAmount!, confidence: 0.6 } };
  const pass = (v: number | undefined) => ({ ...base, ...(v === undefined ? { totalAmount: undefined } : { totalAmount: { ...base.totalAmount!, value: v } }) });

  it('raises an uncertain total every pass agrees with, and only then', () => {
    expect(needsConfirmation(uncertain)).toBe(true);
    expect(confirmByPasses(uncertain, [pass(12.4), pass(12.4)]).totalAmount!.confidence).toBe(0.9);
    expect(confirmByPasses(uncertain, [pass(12.4), pass(12.9)]).totalAmount!.confidence).toBe(0.6);
    expect(confirmByPasses(uncertain, [pass(12.4), pass(undefined)]).totalAmount!.confidence).toBe(0.6);
    expect(confirmByPasses(uncertain, []).totalAmount!.confidence).toBe(0.6);
  });

  it('never switches the value, never touches a certain total or the date', () => {
    const f = confirmByPasses(uncertain, [pass(99), pass(99)]);
    expect(f.totalAmount!.value).toBe(12.4);
    const sure = { ...base, totalAmount: { ...base.totalAmount!, confidence: 0.95 } };
    expect(needsConfirmation(sure)).toBe(false);
    expect(confirmByPasses(sure, [pass(12.4), pass(12.4)]).totalAmount!.confidence).toBe(0.95);
    expect(confirmByPasses(uncertain, [pass(12.4), pass(12.4)]).date).toEqual(uncertain.date);
  });
});

describe('the plain reading of a photographed page', () => {
  const first = extractFields(documentFromText(['SHOP', 'Date 01/02/2020', 'TOTAL RM 12.40', 'CASH 20.00'].join('\n')), ctx);
  const altDoc = documentFromText(['SHOP', 'Date 01/02/2020', 'CASH 20.00', 'TOTAL RM 12.90'].join('\n'));
  const alt = extractFields(altDoc, ctx);
  const withConf = (f: typeof first, total: number, date: number) => ({ ...f, totalAmount: { ...f.totalAmount!, confidence: total }, date: { ...f.date!, confidence: date } });

  it('is only wanted when the total or the date is uncertain or missing', () => {
    expect(needsAlternate(withConf(first, 0.95, 0.95))).toBe(false);
    expect(needsAlternate(withConf(first, 0.5, 0.95))).toBe(true);
    expect(needsAlternate(withConf(first, 0.95, 0.5))).toBe(true);
    expect(needsAlternate({ ...withConf(first, 0.95, 0.95), date: undefined })).toBe(true);
  });

  it('replaces a field only by a clearly more confident value, mapped to the first document\'s line', () => {
    const doc = documentFromText(['SHOP', 'Date 01/02/2020', 'TOTAL RM 12.40', 'CASH 20.00'].join('\n'));
    const f = preferAlternate(doc, withConf(first, 0.3, 0.95), altDoc, withConf(alt, 0.8, 0.95));
    expect(f.totalAmount!.value).toBe(12.9);
    expect(f.totalAmount!.confidence).toBe(0.8);
    // the alternate's TOTAL is its 4th line; the same place in the first document is its 4th line too
    expect(f.totalAmount!.lineIndex).toBe(3);
    expect(f.evidence?.totalAmount).toContain('plain-reading');
    expect(f.date).toEqual(withConf(first, 0.3, 0.95).date);
    // within the margin, or less confident: the first reading stays
    expect(preferAlternate(doc, withConf(first, 0.78, 0.95), altDoc, withConf(alt, 0.8, 0.95)).totalAmount!.value).toBe(12.4);
    expect(preferAlternate(doc, withConf(first, 0.9, 0.95), altDoc, withConf(alt, 0.5, 0.99)).totalAmount!.value).toBe(12.4);
    // the same uncertain date from both images rises to 0.9, unless either is a digit guess or the caller says not to
    const agreed = preferAlternate(doc, withConf(first, 0.95, 0.6), altDoc, withConf(alt, 0.95, 0.5));
    expect(agreed.date!.confidence).toBe(0.9);
    expect(agreed.evidence?.date).toContain('plain-reading-agrees');
    const guessedAlt = withConf(alt, 0.95, 0.5);
    const guessed = { ...guessedAlt, date: { ...guessedAlt.date!, marks: { digitGuess: true as const } } };
    expect(preferAlternate(doc, withConf(first, 0.95, 0.6), altDoc, guessed).date!.confidence).toBe(0.6);
    expect(preferAlternate(doc, withConf(first, 0.95, 0.6), altDoc, withConf(alt, 0.95, 0.5), ['date'], 'pass', false).date!.confidence).toBe(0.6);
    // the merchant's name too, by the same rule
    const named = (f: typeof first, name: string, c: number) => ({ ...f, merchantName: { ...f.merchantName!, value: name, confidence: c } });
    expect(preferAlternate(doc, named(withConf(first, 0.95, 0.95), 'SH0P', 0.4), altDoc, named(alt, 'SHOP', 0.9)).merchantName!.value).toBe('SHOP');
    expect(preferAlternate(doc, named(withConf(first, 0.95, 0.95), 'SHOP', 0.8), altDoc, named(alt, 'SH0P', 0.82)).merchantName!.value).toBe('SHOP');
    // a missing field is taken from the alternate
    expect(preferAlternate(doc, { ...withConf(first, 0.9, 0.95), date: undefined }, altDoc, alt).date?.value).toBe(alt.date!.value);
  });
});

describe('second look at a disputed total', () => {
  const small = documentFromText(['ASIA BAY', 'Sb Total : 52.00', 'Sales Tax 4.30', 'Gratuity 9.36', 'Check Total + 65.6'].join('\n'));
  const first = extractFields(small, ctx);
  const other = documentFromText(['ASIA BAY', 'Sub Total 52.00', 'Sales Tax 4.30', 'Gratuity 9.36', 'Check Total 65.66'].join('\n'));
  const second = extractFields(other, ctx);
  const byLine = (texts: Record<number, string>) => async (lines: Line[]) => lines.map((line) => REREAD_HEIGHTS.map(() => words(texts[line.index] ?? line.text, line)));
  it('starts from two readers that differ', () => {
    expect(first.totalAmount?.value).toBe(52);
    expect(second.totalAmount?.value).toBe(65.66);
  });
  it('reads the lines of both totals again and takes the total every height gives, at most 0.8', async () => {
    const asked: number[] = [];
    const read = byLine({ 1: 'Sub Total 52.00', 4: 'Check Total 65.66' });
    const f = await secondLookTotal(small, first, ctx, async (lines) => { asked.push(...lines.map((l) => l.index)); return read(lines); }, other, second);
    expect(asked.sort()).toEqual([1, 4]);
    expect(f.totalAmount?.value).toBe(65.66);
    expect(f.totalAmount!.confidence).toBeLessThanOrEqual(0.8);
    expect(f.evidence!.totalAmount).toContain('reread-corrects:52');
  });
  it('raises the first total when every height reads it again on the line both readers took; changes nothing when the heights disagree', async () => {
    // totals on two lines: reading them again does not settle the choice
    const again = await secondLookTotal(small, first, ctx, byLine({}), other, second);
    expect(again.totalAmount).toEqual(first.totalAmount);
    // one line, two readings of its digits
    const one = documentFromText(['ASIA BAY', 'Sub Total 52.00', 'Check Total 65.66'].join('\n'));
    const misread = documentFromText(['ASIA BAY', 'Sub Total 52.00', 'Check Total 55.66'].join('\n'));
    const f1 = extractFields(one, ctx), f2 = extractFields(misread, ctx);
    expect([f1.totalAmount?.value, f2.totalAmount?.value]).toEqual([65.66, 55.66]);
    const agreed = await secondLookTotal(one, f1, ctx, byLine({}), misread, f2);
    expect(agreed.totalAmount?.value).toBe(65.66);
    expect(agreed.totalAmount!.confidence).toBeGreaterThanOrEqual(SECOND_LOOK_BELOW);
    expect(agreed.evidence!.totalAmount).toContain('reread-agrees');
    let n = 0;
    const mixed = await secondLookTotal(small, first, ctx, async (lines) => lines.map((line) => REREAD_HEIGHTS.map(() => words(line.index === 4 ? (n++ % 2 ? 'Check Total 65.66' : 'Check Total 56.66') : line.index === 1 ? 'Sub Total 52.00' : line.text, line))), other, second);
    expect(mixed.totalAmount).toEqual(first.totalAmount);
  });
  it('does not read again when the readers agree', async () => {
    let calls = 0;
    await secondLookTotal(small, first, ctx, async () => { calls++; return []; }, small, first);
    expect(calls).toBe(0);
  });
});
