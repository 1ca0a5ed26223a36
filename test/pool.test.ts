/**
 * The training pool (issue 49): its label derivation (scripts/pool/labels.mjs), the never-train-on filter and
 * the committed manifest (scripts/pool/manifest.jsonl). No images, no ../shared: the filter is checked on
 * lists written here, the manifest on its own contents.
 */
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error plain ESM script without type declarations
import { datesIn, oneDate, decimalAmount, wholeAmount, sroieLabel, mcocrLabel, wildreceiptLabel, totalBeforeRounding, totalAboveAmountToPay } from '../scripts/pool/labels.mjs';
// @ts-expect-error plain ESM script without type declarations
import { loadNever, neverReason, parseCsv } from '../scripts/pool/build.mjs';

describe('pool labels', () => {
  it('reads numeric dates in the order given, and leaves a swappable one unsettled without an order', () => {
    expect(datesIn('12/01/2019', 'dmy')).toEqual([{ iso: '2019-01-12', ambiguous: false }]);
    expect(datesIn('12/01/2019', 'mdy')).toEqual([{ iso: '2019-12-01', ambiguous: false }]);
    expect(datesIn('12/01/2019', 'none')[0].ambiguous).toBe(true);
    // 25 cannot be a month: settled whatever the order
    expect(datesIn('25-12-18', 'none')).toEqual([{ iso: '2018-12-25', ambiguous: false }]);
    expect(datesIn('2017/07/13', 'none')).toEqual([{ iso: '2017-07-13', ambiguous: false }]);
    expect(datesIn('25 DEC 2018', 'none')).toEqual([{ iso: '2018-12-25', ambiguous: false }]);
    expect(datesIn('31/02/2019', 'dmy')).toEqual([]);
  });

  it('gives one date only when every date printed is the same day', () => {
    expect(oneDate(['Ngày: 09/08/2020-06:41'], 'dmy')).toEqual({ date: '2020-08-09' });
    expect(oneDate(['01/02/2020', '03/02/2020'], 'dmy').date).toBeUndefined();
    expect(oneDate(['8/9/2008'], 'none').date).toBeUndefined();
    expect(oneDate(['no date here'], 'dmy').note).toMatch(/no date/);
  });

  it('parses decimal and whole-currency amounts, and refuses what is not one amount', () => {
    expect(decimalAmount('RM 3.90')).toBe(3.9);
    expect(decimalAmount('1,234.50')).toBe(1234.5);
    expect(decimalAmount('12,50')).toBe(12.5);
    expect(decimalAmount('$200.00')).toBe(200);
    // cents printed without a leading zero are cents, not a whole amount
    expect(decimalAmount('.82')).toBe(0.82);
    expect(decimalAmount('$.82')).toBe(0.82);
    expect(decimalAmount('TOTAL .82')).toBe(0.82);
    expect(decimalAmount('12.5.0')).toBeUndefined();
    expect(wholeAmount('212,016')).toBe(212016);
    expect(wholeAmount('880,400.00')).toBe(880400);
    expect(wholeAmount('74.000 VND')).toBe(74000);
    expect(wholeAmount('Tổng tiền:')).toBeUndefined();
    // one box holding the amount twice is that amount, not 253,000,253,000; two different ones are none
    expect(wholeAmount('253.000 253.000')).toBe(253000);
    expect(wholeAmount('240,000 240,000')).toBe(240000);
    expect(wholeAmount('240,000 250,000')).toBeUndefined();
    expect(wholeAmount('1 250 000')).toBe(1250000);
  });

  it('derives a SROIE label: ringgit, day-first date', () => {
    const { label } = sroieLabel({ company: 'MR. D.I.Y. SDN BHD', date: '24-11-17', address: 'LOT 1851-A', total: 'RM 3.90' });
    expect(label).toEqual({ merchantName: 'MR. D.I.Y. SDN BHD', merchantAddress: 'LOT 1851-A', date: '2017-11-24', totalAmount: 3.9, currency: 'MYR' });
  });

  it('leaves out a SROIE total that its own transcript shows before cash rounding, and keeps the rounded one', () => {
    // SROIE data/box rows: x1,y1,x2,y2,x3,y3,x4,y4,text
    const row = (y: number, x: number, text: string) => `${x},${y},${x + 80},${y},${x + 80},${y + 20},${x},${y + 20},${text}`;
    const box = [row(100, 10, 'TOTAL:'), row(100, 300, '26.82'), row(130, 10, 'Rounding Adjustment:'), row(130, 300, '-0.02'), row(160, 10, 'Amount To Be Paid:'), row(160, 300, '26.80'), row(190, 300, '50.00')].join('\n');
    expect(totalBeforeRounding(box, 26.82)).toBe(true);
    expect(totalBeforeRounding(box, 26.8)).toBe(false);
    // the rounding printed "0.02-" and no rounding word: the same structure
    const bare = [row(100, 300, '17.22'), row(130, 300, '0.02-'), row(160, 300, '17.20')].join('\n');
    expect(totalBeforeRounding(bare, 17.22)).toBe(true);
    // a small amount below the total with nothing rounded under it (a tax of 0.02): the label stands
    expect(totalBeforeRounding([row(100, 300, '10.03'), row(130, 300, '0.02'), row(160, 300, '20.00')].join('\n'), 10.03)).toBe(false);
    const key = { company: 'HAPPY SNACKS', date: '20/03/2018', total: '26.82' };
    expect(sroieLabel(key, box).label.totalAmount).toBeUndefined();
    expect(sroieLabel(key, box).notes.join(' ')).toMatch(/before a rounding line/);
    expect(sroieLabel(key).label.totalAmount).toBe(26.82);
  });

  it('leaves out a SROIE total that its own transcript shows as a sub-total above an amount taken off', () => {
    const row = (y: number, x: number, text: string) => `${x},${y},${x + 80},${y},${x + 80},${y + 20},${x},${y + 20},${text}`;
    // label and amount in separate boxes of one line, as SROIE's transcripts often have them
    const box = [row(100, 10, 'SUB-TOTAL :'), row(100, 300, '60.60'), row(130, 10, 'COUPON DISCOUNT :'), row(130, 300, '27.60'), row(160, 10, 'GRAND TOTAL :'), row(160, 300, '33.00'), row(190, 10, 'CASH'), row(190, 300, '50.00')].join('\n');
    expect(totalAboveAmountToPay(box, 60.6)).toBe(true);
    expect(totalAboveAmountToPay(box, 33)).toBe(false);
    expect(sroieLabel({ company: 'A', date: '01/02/2018', total: '60.60' }, box).label.totalAmount).toBeUndefined();
    // a lower "GRAND TOTAL" with nothing taken off between (a second receipt's total, a tax summary): the label stands
    const noTaken = [row(100, 10, 'TOTAL'), row(100, 300, '60.60'), row(130, 10, 'GST 6%'), row(130, 300, '3.43'), row(160, 10, 'GRAND TOTAL'), row(160, 300, '33.00')].join('\n');
    expect(totalAboveAmountToPay(noTaken, 60.6)).toBe(false);
    // what is taken off printed below the amount to pay does not count: the order is the receipt's arithmetic
    const after = [row(100, 300, '60.60'), row(160, 10, 'GRAND TOTAL'), row(160, 300, '33.00'), row(190, 300, '27.60')].join('\n');
    expect(totalAboveAmountToPay(after, 60.6)).toBe(false);
  });

  it('derives an MC-OCR total only from a total keyword with one amount, never from cash handed over', () => {
    const row = (texts: string[], labels: string[]) => ({ anno_texts: texts.join('|||'), anno_labels: labels.join('|||') });
    const ok = mcocrLabel(row(['MINIMART ANAN', 'Ngày : 11/08/2020 08:06', 'Tổng tiền:', '74,000'], ['SELLER', 'TIMESTAMP', 'TOTAL_COST', 'TOTAL_COST']));
    expect(ok.label).toMatchObject({ merchantName: 'MINIMART ANAN', date: '2020-08-11', totalAmount: 74000, currency: 'VND' });
    const cash = mcocrLabel(row(['Tiền mặt', '100,000'], ['TOTAL_COST', 'TOTAL_COST']));
    expect(cash.label.totalAmount).toBeUndefined();
    const two = mcocrLabel(row(['Tổng cộng', '74,000', '75,000'], ['TOTAL_COST', 'TOTAL_COST', 'TOTAL_COST']));
    expect(two.label.totalAmount).toBeUndefined();
  });

  it('derives a WildReceipt currency only from a mark naming one currency', () => {
    const b = (label: string, transcription: string) => ({ label, transcription });
    const uk = wildreceiptLabel([b('Store_name_value', 'TESCO'), b('Total_value', '£12.40'), b('Date_value', '25/12/2019')]);
    expect(uk.label).toMatchObject({ merchantName: 'TESCO', totalAmount: 12.4, date: '2019-12-25', currency: 'GBP' });
    const dollar = wildreceiptLabel([b('Total_value', '$12.40'), b('Date_value', '3/1/2018')]);
    expect(dollar.label.currency).toBeUndefined();
    expect(dollar.label.date).toBeUndefined();
    const mixed = wildreceiptLabel([b('Total_value', '12.40'), b('Others', 'EUR'), b('Others', '£')]);
    expect(mixed.label.currency).toBeUndefined();
  });

  it('leaves out a WildReceipt total that its boxes show before a rounding line', () => {
    const at = (label: string, transcription: string, y: number) => ({ label, transcription, points: [[200, y + 16], [260, y + 16], [260, y], [200, y]] });
    const boxes = [at('Total_value', '11.98', 100), at('Others', '0.02', 120), at('Others', '12.00', 140), at('Others', '20.00', 160)];
    const r = wildreceiptLabel(boxes);
    expect(r.label.totalAmount).toBeUndefined();
    expect(r.notes.join(' ')).toMatch(/before a rounding line/);
    // the same boxes without the rounding line: the label stands
    expect(wildreceiptLabel(boxes.filter((b) => b.transcription !== '0.02')).label.totalAmount).toBe(11.98);
  });

  it('reads quoted CSV fields with commas and newlines', () => {
    expect(parseCsv('a,b\n"x, y","line1\nline2"\n1,2\n')).toEqual([{ a: 'x, y', b: 'line1\nline2' }, { a: '1', b: '2' }]);
  });
});

describe('never-train-on', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rk-never-'));
  const sha = 'ab'.repeat(32);
  fs.writeFileSync(path.join(dir, 'never-train-on.sha256'), `# comment\n${sha}\n`);
  fs.writeFileSync(path.join(dir, 'never-train-on.sources.tsv'), '# c\nrepo\tpath\tdataset_id\nowner/a\tdata/img/004.jpg\tX0001\nowner/b\timages/mc_x.jpg\t\n');
  const never = loadNever(dir);
  const item = (o: Record<string, string>) => ({ repo: 'other/r', path: 'p/q.jpg', sha256: 'cd'.repeat(32), ...o });

  it('refuses a receipt by sha256, by source path, by dataset id and by file name in any copy', () => {
    expect(neverReason(never, item({ sha256: sha }))).toMatch(/sha256/);
    expect(neverReason(never, item({ repo: 'owner/a', path: 'data/img/004.jpg' }))).toMatch(/path/);
    expect(neverReason(never, item({ datasetId: 'X0001' }))).toMatch(/dataset id/);
    expect(neverReason(never, item({ path: 'elsewhere/mc_x.png' }))).toMatch(/file name/);
    expect(neverReason(never, item({}))).toBeUndefined();
  });
});

describe('the committed pool manifest', () => {
  const file = path.join(__dirname, '..', 'scripts', 'pool', 'manifest.jsonl');
  const items = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

  it('holds at least 2,000 receipts from at least 5 sources, each with where it came from and how it was labelled', () => {
    expect(items.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(items.map((i) => i.source)).size).toBeGreaterThanOrEqual(5);
    for (const i of items) {
      expect(i.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(i.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(i.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(i.notes.length).toBeGreaterThan(0);
      expect(Object.keys(i.label).length).toBeGreaterThan(0);
    }
  });

  it('holds each receipt once (by sha256 and by id within a source)', () => {
    expect(new Set(items.map((i) => i.sha256)).size).toBe(items.length);
    expect(new Set(items.map((i) => `${i.source}/${i.id}`)).size).toBe(items.length);
  });

  it('labels total, date and currency across the pool, and name where the source has it', () => {
    const count = (f: string) => items.filter((i) => i.label[f] !== undefined).length;
    for (const f of ['totalAmount', 'date', 'currency', 'merchantName']) expect(count(f)).toBeGreaterThan(1000);
    expect(count('taxAmount')).toBeGreaterThan(100);
  });
});
