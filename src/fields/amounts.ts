/**
 * Money finders: every amount of the document with the role its label gives it (total, subtotal, tax,
 * rounding, paid, change, discount, tip, service, quantity, ...), the tax-summary table rows and the
 * item lines. They only propose; `resolve/money.ts` chooses the values with the arithmetic.
 *
 * The work is ordered lists of small named rules, run by `findMoney`: SUMMARY_ROW_RULES find the tax
 * summary rows (a row that proves itself by its rate is read by the first of RATE_ROW_READINGS that
 * fits; each row keeps the name of the rule that found it), SUMMARY_ROLE_RULES make an amount part of a
 * summary table, NOT_ITEM_RULES keep a line's amount out of the item lines.
 */
import type { Document } from '../document/types.js';
import type { Locale } from '../locale/index.js';
import type { AmountRole } from '../locale/keywords.js';
import { analyseLines } from './lines.js';
import type { AmountLabel, LineFacts } from './lines.js';
import type { Amount } from './numbers.js';
import { TAX_ALTERNATION, wordAlternation } from '../locale/languages/index.js';

export interface MoneyCandidate {
  amount: Amount;
  /** The label printed before it, if any. */
  label?: AmountLabel;
  role: AmountRole | 'none' | 'item' | 'summary';
  lineIndex: number;
}

export interface SummaryRow {
  lineIndex: number;
  net: number;
  tax: number;
  gross?: number;
  amounts: Amount[];
  /** The summary-row rule that found it (SUMMARY_ROW_RULES). */
  rule?: string;
}

export interface MoneyFacts {
  lines: LineFacts[];
  /** Money-like amounts (and labelled integers) with their roles, in reading order. */
  candidates: MoneyCandidate[];
  /** Rows of a tax summary table (net, tax[, gross]). */
  summaryRows: SummaryRow[];
  /** Line-end amounts of the item lines, in reading order. */
  items: MoneyCandidate[];
  /** Index of the first line of the totals block (first subtotal/total/tax label), or the line count. */
  totalsStart: number;
}

/** What resolve/money.ts chooses of the candidates: one amount per money field (findLineItems reads it too). */
export interface ChosenAmount {
  value: number;
  confidence: number;
  /** The printed amount it was read from (absent when only derived). */
  source?: MoneyCandidate;
  keyword: string;
  /** Evidence terms; the last one, `rule:<name>`, names the rule that decided the value. */
  evidence: string[];
  /** It agrees with the total (resolve/money/pick.ts pickConsistent's test held; its evidence says so too). */
  consistent?: true;
}

export interface MoneyResolution {
  total?: ChosenAmount;
  subtotal?: ChosenAmount;
  tax?: ChosenAmount;
  paid?: ChosenAmount;
  change?: ChosenAmount;
  discount?: ChosenAmount;
  tip?: ChosenAmount;
  rounding?: ChosenAmount;
}

const SUMMARY_HEADER = new RegExp(String.raw`\b(?:(?:${TAX_ALTERNATION}|[G6][S5$][T7])\s*(?:${wordAlternation('taxSummary')}|%)|${wordAlternation('taxSummaryAlone')}|(?:${wordAlternation('taxBase')})\b.*\b(?:${TAX_ALTERNATION})\b)`);
/** A quantity label that counts the items ("TOTAL QTY", "NO OF ITEMS", "JUMLAH"). */
export const ITEM_COUNT_LABEL = new RegExp(wordAlternation('itemCount', { space: ' ' }));

/** Roles that a money amount can have when it is not itself the total. */
/** The tax rate printed on a line (a percentage above 0 and below 30), if any. */
export function printedRate(line: { amounts: readonly Amount[] }): Amount | undefined {
  return line.amounts.find((a) => a.percent && a.value > 0 && a.value < 30);
}

/**
 * Net, tax and gross of a tax-table row whatever order it prints them in: the gross is the sum of the
 * other two, the net the larger of those. Printed order (net, tax, gross) when no two add up to the third.
 */
export function netTaxGross(v: [number, number, number]): [number, number, number | undefined] {
  const near = (a: number, b: number) => Math.abs(a - b) <= 0.011;
  for (const g of [2, 0, 1] as const) {
    const [x, y] = v.filter((_, k) => k !== g) as [number, number];
    if (near(x + y, v[g])) return [Math.max(x, y), Math.min(x, y), v[g]];
  }
  return v;
}

/**
 * Collects the money facts of a document: the summary-row rules in order (SUMMARY_ROW_RULES), then every
 * amount with its role (SUMMARY_ROLE_RULES), the start of the totals block and the item lines
 * (NOT_ITEM_RULES).
 */
export function findMoney(doc: Document, locale: Locale): MoneyFacts {
  const lines = analyseLines(doc, locale);
  const summaryRows: SummaryRow[] = [];
  const inSummary = new Set<number>();
  for (const rule of SUMMARY_ROW_RULES) {
    for (const { at, row } of rule.find(lines, inSummary)) {
      summaryRows.push({ ...row, rule: rule.name });
      inSummary.add(at);
    }
  }
  const candidates = moneyCandidates(lines, inSummary);
  const totalsStart = totalsStartOf(lines);
  return { lines, candidates, summaryRows, items: itemLines(lines, totalsStart, inSummary), totalsStart };
}

// ---------------------------------------------------------------------------------------------
// Summary-row rules: each finds rows of a tax summary (net, tax[, gross]) among the lines.

/** A summary row a rule found, with the index (in the line facts) of its line. */
export interface FoundRow { at: number; row: SummaryRow }

/** A named rule that finds summary rows; `taken` holds the lines earlier rules made rows. */
export interface SummaryRowRule {
  name: string;
  find: (lines: LineFacts[], taken: ReadonlySet<number>) => FoundRow[];
}

/** A summary row of line f (the gross only when known). */
function summaryRow(f: LineFacts, net: number, tax: number, gross: number | undefined, amounts: Amount[]): SummaryRow {
  return { lineIndex: f.line.index, net, tax, ...(gross !== undefined ? { gross } : {}), amounts };
}

/**
 * Both amounts of a row printed without their decimal point ("SR 6% 4610 290"): they are the row's
 * amounts when the printed rate confirms them (tax = net x rate).
 */
function barePairByRate(f: LineFacts, all: Amount[]): Amount[] | undefined {
  const rate = printedRate(f);
  const bare = all.filter((a) => a.alternatives.length && !a.negative);
  if (!rate || bare.length !== 2) return undefined;
  const [net, tax] = bare.map((a) => a.alternatives[0]!) as [number, number];
  return net > 0 && Math.abs(tax / net - rate.value / 100) < 0.006 ? bare : undefined;
}

/** One amount of a row that lost its decimal point ("42.20 283"): the money amount with the bare ones at or before it. */
function withLostDecimalPoint(all: Amount[], money: Amount[]): Amount[] {
  if (money.length !== 1 || all.length > 4) return money;
  const lastMoney = money[0]!;
  return all.filter((a) => a === lastMoney || (a.alternatives.length && (a.atLineEnd || a.end <= lastMoney.start) && !a.negative));
}

/** The amounts of a line under a summary header that may form its row: the money amounts, OCR's lost decimal points recovered. */
export function rowMoney(f: LineFacts): Amount[] {
  const all = f.amounts.filter((a) => !a.percent);
  const money = all.filter((a) => a.moneyLike);
  if (!money.length) return barePairByRate(f, all) ?? money;
  return withLostDecimalPoint(all, money);
}

/** The lines of the table under the summary header at line i: the header itself when it prints two amounts, then rows of two or more up to 5 lines below (ended by a line without amounts). */
function tableLines(lines: LineFacts[], i: number): number[] {
  const headerMoney = lines[i]!.amounts.filter((a) => a.moneyLike && !a.percent);
  // the header line itself may be a row ("DPP 43,694 PPN 4,806")
  const rows = headerMoney.length >= 2 ? [i] : [];
  for (let j = i + 1; j < Math.min(lines.length, i + 6); j++) {
    if (rowMoney(lines[j]!).length >= 2) rows.push(j);
    else if (rows.length && !lines[j]!.amounts.length) break;
  }
  return rows;
}

/**
 * A row's tax is at most this share of its net (the highest VAT rate is 27 %): two amounts further apart
 * are another pair of the table's columns ("Total 122.10 HT 106.82" under "TVA% Total HT Tva").
 */
export const MAX_TAX_SHARE = 0.3;

/** Header table: under a summary header ("GST SUMMARY", "TAX CODE", "DPP ... PPN"), the rows of two or three amounts whose tax is at most MAX_TAX_SHARE of the net and whose gross is not below it (net, tax, gross in whatever order they add up). */
function headerTableRows(lines: LineFacts[]): FoundRow[] {
  const out: FoundRow[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!SUMMARY_HEADER.test(lines[i]!.canon)) continue;
    for (const j of tableLines(lines, i)) {
      const money = rowMoney(lines[j]!);
      const vals = money.map((a) => (a.moneyLike ? a.value : a.alternatives[0]!));
      const [net, tax, gross] = vals.length >= 3 ? netTaxGross(vals.slice(-3) as [number, number, number]) : [vals[0]!, vals[1]!, undefined];
      // a gross below its net: the amounts are not this row's three ("Tot 122.10 106.82 15.28" read "124 122.10 ...", 124,122.10)
      if (tax > net * MAX_TAX_SHARE || (gross !== undefined && gross < net)) continue;
      out.push({ at: j, row: summaryRow(lines[j]!, net, tax, gross, money) });
    }
  }
  return out;
}

/** What a rate-row reading sees: the line's money amounts after its rate, and the rate. */
export interface RateRowContext { f: LineFacts; money: Amount[]; rate: Amount }

/** Tax = net x rate, to a cent or 1 %. */
const taxAtRate = (rate: Amount, n: number, t: number) => Math.abs(n * rate.value / 100 - t) <= Math.max(0.011, t * 0.01);

/** "<rate>% <net> <tax>": the last two amounts, the tax the net at the rate. */
function rateNetTax({ f, money, rate }: RateRowContext): SummaryRow | undefined {
  const [net, tax] = money.slice(-2).map((a) => a.value) as [number, number];
  return taxAtRate(rate, net, tax) ? summaryRow(f, net, tax, undefined, money.slice(-2)) : undefined;
}

/** "<rate>% <gross> <tax>": the tax included in the gross ("INCL. BTW 6.00% 21.95 1.24"); the net is their difference. */
function rateGrossTax({ f, money, rate }: RateRowContext): SummaryRow | undefined {
  const [gross, tax] = money.slice(-2).map((a) => a.value) as [number, number];
  if (!(tax < gross && taxAtRate(rate, gross - tax, tax))) return undefined;
  return summaryRow(f, Math.round((gross - tax) * 100) / 100, tax, gross, money.slice(-2));
}

/** "<rate>% " and three amounts in any order that add up ("A 7% 0,16 2,33 2,49": tax, net, gross, as German VAT rows print them). */
function rateAnyOrder({ f, money, rate }: RateRowContext): SummaryRow | undefined {
  if (money.length < 3) return undefined;
  const [net, tax, gross] = netTaxGross(money.slice(-3).map((a) => a.value) as [number, number, number]);
  return gross !== undefined && taxAtRate(rate, net, tax) ? summaryRow(f, net, tax, gross, money.slice(-3)) : undefined;
}

/** The readings of a row that proves itself by its rate, in order: the first that reads the line decides. */
export const RATE_ROW_READINGS: ReadonlyArray<{ name: string; read: (ctx: RateRowContext) => SummaryRow | undefined }> = [
  { name: 'rate-net-tax', read: rateNetTax },
  { name: 'rate-gross-tax', read: rateGrossTax },
  { name: 'rate-any-order', read: rateAnyOrder },
];

/** Rate rows: a line no earlier rule took, with a printed rate and two positive money amounts after it, that one of RATE_ROW_READINGS reads (no header needed). */
function rateRows(lines: LineFacts[], taken: ReadonlySet<number>): FoundRow[] {
  const out: FoundRow[] = [];
  for (let j = 0; j < lines.length; j++) {
    if (taken.has(j)) continue;
    const f = lines[j]!;
    const rate = printedRate(f);
    const money = f.amounts.filter((a) => a.moneyLike && !a.percent && a.value > 0 && (!rate || a.start > rate.start));
    if (!rate || money.length < 2) continue;
    for (const { read } of RATE_ROW_READINGS) {
      const row = read({ f, money, rate });
      if (row) { out.push({ at: j, row }); break; }
    }
  }
  return out;
}

/** The summary-row rules, run in this order (a line a rule took is not read again by the rate rows). */
export const SUMMARY_ROW_RULES: readonly SummaryRowRule[] = [
  { name: 'header-table', find: headerTableRows },
  { name: 'rate-row', find: rateRows },
];

// ---------------------------------------------------------------------------------------------
// Roles: an amount takes its label's role, unless a summary-role rule makes it part of a summary table.

/** What a summary-role rule sees: the line (index i in the line facts), the role its label gives, the summary lines. */
export interface RoleContext { f: LineFacts; i: number; role: MoneyCandidate['role']; inSummary: ReadonlySet<number>; explicitSummary: ReadonlySet<number> }

/** The rules that make an amount's role 'summary'; any one that applies decides. */
export const SUMMARY_ROLE_RULES: ReadonlyArray<{ name: string; applies: (ctx: RoleContext) => boolean }> = [
  /** On a summary row and not labelled a total. */
  { name: 'summary-row', applies: ({ i, role, inSummary }) => inSummary.has(i) && role !== 'total' },
  /** A total on a summary row that prints two or more money amounts (the table's total row). */
  { name: 'summary-total-row', applies: ({ f, i, role, inSummary }) => inSummary.has(i) && role === 'total' && f.amounts.filter((x) => x.moneyLike).length >= 2 },
  /** A "Total" line with several numbers within 6 lines under an explicit SUMMARY / ANALYSIS / BREAKDOWN header. */
  { name: 'table-total-row', applies: ({ f, i, role, explicitSummary }) => explicitSummary.has(i) && role === 'total' && f.amounts.length >= 2 },
];

/** The lines within 6 lines under an explicit summary header (SUMMARY, ANALYSIS, BREAKDOWN). */
function explicitSummaryLines(lines: LineFacts[]): Set<number> {
  const out = new Set<number>();
  lines.forEach((f, i) => { if (/\bSUMMARY\b|\bANALYSIS\b|\bBREAKDOWN\b/.test(f.canon)) for (let j = i + 1; j < Math.min(lines.length, i + 7); j++) out.add(j); });
  return out;
}

/** Every amount that may be money (money-like, labelled, or with OCR readings; never a percentage) with its role, in reading order. */
function moneyCandidates(lines: LineFacts[], inSummary: ReadonlySet<number>): MoneyCandidate[] {
  const explicitSummary = explicitSummaryLines(lines);
  const out: MoneyCandidate[] = [];
  lines.forEach((f, i) => {
    f.amounts.forEach((a, k) => {
      const label = f.labels[k];
      if (a.percent) return;
      if (!a.moneyLike && !label && !a.alternatives.length) return;
      const labelled: MoneyCandidate['role'] = label?.role ?? 'none';
      const ctx: RoleContext = { f, i, role: labelled, inSummary, explicitSummary };
      const role = SUMMARY_ROLE_RULES.some((r) => r.applies(ctx)) ? 'summary' : labelled;
      out.push({ amount: a, ...(label ? { label } : {}), role, lineIndex: f.line.index });
    });
  });
  return out;
}

/**
 * The index of the first line of the totals block: a total, subtotal, tax, paid, change or rounding label
 * with a money amount, or a strong total label alone on its line whose amount OCR lost ("Grand Total el .30");
 * else the line count.
 */
function totalsStartOf(lines: LineFacts[]): number {
  const at = lines.findIndex((f) => (f.labels.some((l) => l && ['total', 'subtotal', 'tax', 'paid', 'change', 'rounding'].includes(l.role)) && f.amounts.some((a) => a.moneyLike))
    || (f.hits.length === 1 && f.hits[0]!.role === 'total' && f.hits[0]!.strength >= 3 && !f.amounts.some((a) => a.moneyLike)));
  return at >= 0 ? at : lines.length;
}

// ---------------------------------------------------------------------------------------------
// Item lines: above the totals block, an unlabelled money amount at the line end, unless a rule rejects it.

/** What a not-item rule sees: the line (index i), its last amount and that amount's label. */
export interface ItemLineContext { f: LineFacts; i: number; a: Amount | undefined; label: AmountLabel | undefined; inSummary: ReadonlySet<number> }

/** The rules that keep a line's last amount out of the item lines; any one that applies decides. */
export const NOT_ITEM_RULES: ReadonlyArray<{ name: string; rejects: (ctx: ItemLineContext) => boolean }> = [
  /** A row of a tax summary. */
  { name: 'summary-row', rejects: ({ i, inSummary }) => inSummary.has(i) },
  /** No money amount (not a percentage) ends the line. */
  { name: 'no-line-end-money', rejects: ({ a }) => !a || !a.atLineEnd || !a.moneyLike || a.percent },
  /** Labelled with another role than a unit price or a discount. */
  { name: 'labelled', rejects: ({ label }) => !!label && !['unitPrice', 'discount'].includes(label.role) },
  /** An item count ("TOTAL QTY", "NO OF ITEMS", "JUMLAH"). */
  { name: 'item-count', rejects: ({ f }) => f.hits.some((h) => h.role === 'quantity' && ITEM_COUNT_LABEL.test(h.keyword)) },
];

/** The line-end amounts of the item lines: from 8 % down the page to the totals block, those no not-item rule rejects. */
function itemLines(lines: LineFacts[], totalsStart: number, inSummary: ReadonlySet<number>): MoneyCandidate[] {
  const items: MoneyCandidate[] = [];
  const firstItemLine = Math.min(totalsStart, Math.max(0, Math.floor(lines.length * 0.08)));
  for (let i = firstItemLine; i < totalsStart; i++) {
    const f = lines[i]!;
    const k = f.amounts.length - 1;
    const ctx: ItemLineContext = { f, i, a: f.amounts[k], label: f.labels[k], inSummary };
    if (NOT_ITEM_RULES.some((r) => r.rejects(ctx))) continue;
    const label = ctx.label;
    items.push({ amount: ctx.a!, ...(label ? { label } : {}), role: 'item', lineIndex: f.line.index });
  }
  return items;
}
