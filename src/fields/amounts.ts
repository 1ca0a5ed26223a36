/**
 * Money finders: every amount of the document with the role its label gives it (total, subtotal, tax,
 * rounding, paid, change, discount, tip, service, quantity, ...), the tax-summary table rows and the
 * item lines. They only propose; `resolve/money.ts` chooses the values with the arithmetic.
 */
import type { Document } from '../document/types.js';
import type { Locale } from '../locale/index.js';
import type { AmountRole } from '../locale/keywords.js';
import { analyseLines } from './lines.js';
import type { AmountLabel, LineFacts } from './lines.js';
import type { Amount } from './numbers.js';

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

const SUMMARY_HEADER = /\b(?:(?:GST|TAX|VAT|PPN|SST|TVA|MWST|BTW|IVA|[G6][S5$][T7])\s*(?:SUMMARY|ANALYSIS|DETAILS?|BREAKDOWN|CODE|RATE|%)|TAX\s*CODE|DPP|(?:AMOUNT|AMT|NET|NETTO|HT)\b.*\b(?:TAX|GST|VAT|TVA|MWST|BTW|SST|PPN)\b)/;

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

/** Collects the money facts of a document. */
export function findMoney(doc: Document, locale: Locale): MoneyFacts {
  const lines = analyseLines(doc, locale);
  const candidates: MoneyCandidate[] = [];
  const summaryRows: SummaryRow[] = [];
  const inSummary = new Set<number>();

  // tax summary tables: a header, then rows with two or three amounts
  for (let i = 0; i < lines.length; i++) {
    if (!SUMMARY_HEADER.test(lines[i]!.canon)) continue;
    const headerMoney = lines[i]!.amounts.filter((a) => a.moneyLike && !a.percent);
    // the header line itself may be a row ("DPP 43,694 PPN 4,806")
    const rows = headerMoney.length >= 2 ? [i] : [];
    const rowMoney = (j: number) => {
      const all = lines[j]!.amounts.filter((a) => !a.percent);
      const money = all.filter((a) => a.moneyLike);
      // both amounts without their decimal point ("SR 6% 4610 290"): kept when the printed rate confirms them
      if (!money.length) {
        const rate = printedRate(lines[j]!);
        const bare = all.filter((a) => a.alternatives.length && !a.negative);
        if (rate && bare.length === 2) {
          const [net, tax] = bare.map((a) => a.alternatives[0]!) as [number, number];
          if (net > 0 && Math.abs(tax / net - rate.value / 100) < 0.006) return bare;
        }
        return money;
      }
      // one amount may have lost its decimal point ("42.20 283")
      if (money.length !== 1 || all.length > 4) return money;
      const lastMoney = money[0]!;
      return all.filter((a) => a === lastMoney || (a.alternatives.length && (a.atLineEnd || a.end <= lastMoney.start) && !a.negative));
    };
    for (let j = i + 1; j < Math.min(lines.length, i + 6); j++) {
      const money = rowMoney(j);
      if (money.length >= 2) rows.push(j);
      else if (rows.length && !lines[j]!.amounts.length) break;
    }
    for (const j of rows) {
      const money = rowMoney(j);
      const vals = money.map((a) => (a.moneyLike ? a.value : a.alternatives[0]!));
      const [net, tax, gross] = vals.length >= 3 ? netTaxGross(vals.slice(-3) as [number, number, number]) : [vals[0]!, vals[1]!, undefined];
      if (tax > net) continue;
      summaryRows.push({ lineIndex: lines[j]!.line.index, net, tax, ...(gross !== undefined ? { gross } : {}), amounts: money });
      inSummary.add(j);
    }
  }

  // rows that prove themselves: "<rate>% <net> <tax>" with tax = net x rate (no header needed)
  for (let j = 0; j < lines.length; j++) {
    if (inSummary.has(j)) continue;
    const f = lines[j]!;
    const rate = printedRate(f);
    const money = f.amounts.filter((a) => a.moneyLike && !a.percent && a.value > 0 && (!rate || a.start > rate.start));
    if (!rate || money.length < 2) continue;
    const [net, tax] = money.slice(-2).map((a) => a.value) as [number, number];
    const ok = (n: number, t: number) => Math.abs(n * rate.value / 100 - t) <= Math.max(0.011, t * 0.01);
    if (ok(net, tax)) {
      summaryRows.push({ lineIndex: f.line.index, net, tax, amounts: money.slice(-2) });
      inSummary.add(j);
    } else if (tax < net && ok(net - tax, tax)) {
      // "<rate>% <gross> <tax>": the tax included in the gross ("INCL. BTW 6.00% 21.95 1.24")
      summaryRows.push({ lineIndex: f.line.index, net: Math.round((net - tax) * 100) / 100, tax, gross: net, amounts: money.slice(-2) });
      inSummary.add(j);
    } else if (money.length >= 3) {
      // German VAT rows print the three in any order ("A 7% 0,16 2,33 2,49": tax, net, gross)
      const [n3, t3, g3] = netTaxGross(money.slice(-3).map((a) => a.value) as [number, number, number]);
      if (g3 !== undefined && ok(n3, t3)) {
        summaryRows.push({ lineIndex: f.line.index, net: n3, tax: t3, gross: g3, amounts: money.slice(-3) });
        inSummary.add(j);
      }
    }
  }
  // under an explicit summary header, a "Total" line with several numbers is the table's total row
  const explicitSummary = new Set<number>();
  lines.forEach((f, i) => { if (/\bSUMMARY\b|\bANALYSIS\b|\bBREAKDOWN\b/.test(f.canon)) for (let j = i + 1; j < Math.min(lines.length, i + 7); j++) explicitSummary.add(j); });

  let totalsStart = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const f = lines[i]!;
    if (f.labels.some((l) => l && ['total', 'subtotal', 'tax', 'paid', 'change', 'rounding'].includes(l.role)) && f.amounts.some((a) => a.moneyLike)) { totalsStart = i; break; }
  }

  for (let i = 0; i < lines.length; i++) {
    const f = lines[i]!;
    f.amounts.forEach((a, k) => {
      const label = f.labels[k];
      if (a.percent) return;
      if (!a.moneyLike && !label && !a.alternatives.length) return;
      let role: MoneyCandidate['role'] = label?.role ?? 'none';
      if (inSummary.has(i) && role !== 'total') role = 'summary';
      else if (inSummary.has(i) && role === 'total' && f.amounts.filter((x) => x.moneyLike).length >= 2) role = 'summary';
      else if (explicitSummary.has(i) && role === 'total' && f.amounts.length >= 2) role = 'summary';
      candidates.push({ amount: a, ...(label ? { label } : {}), role, lineIndex: f.line.index });
    });
  }

  // item lines: above the totals block, an unlabelled money amount at the line end
  const items: MoneyCandidate[] = [];
  const firstItemLine = Math.min(totalsStart, Math.max(0, Math.floor(lines.length * 0.08)));
  for (let i = firstItemLine; i < totalsStart; i++) {
    const f = lines[i]!;
    if (inSummary.has(i)) continue;
    const k = f.amounts.length - 1;
    const a = f.amounts[k];
    if (!a || !a.atLineEnd || !a.moneyLike || a.percent) continue;
    const label = f.labels[k];
    if (label && !['unitPrice', 'discount'].includes(label.role)) continue;
    if (f.hits.some((h) => h.role === 'quantity' && /TOTAL|COUNT|JUMLAH|NO OF/.test(h.keyword))) continue;
    items.push({ amount: a, ...(label ? { label } : {}), role: 'item', lineIndex: f.line.index });
  }
  return { lines, candidates, summaryRows, items, totalsStart };
}
