/**
 * Money fields: total and its look-alikes (subtotal, tax, rounding, paid, change, discount, tip,
 * service charge, quantities). Each labelled line proposes a candidate; the total is chosen with
 * the arithmetic of the receipt as evidence (paid - change, subtotal + tax + rounding - discount,
 * the largest amount, repetition), and that evidence sets its confidence.
 */
import type { Document, Line } from '../document/types.js';
import type { Locale } from '../locale/index.js';
import { amountsInLine } from './numbers.js';
import type { Amount } from './numbers.js';
import { boxesForSpan, fold } from './text.js';
import type { Located } from './types.js';

export type AmountRole = 'total' | 'subtotal' | 'tax' | 'rounding' | 'paid' | 'change' | 'discount' | 'tip' | 'service' | 'quantity' | 'balance';

interface RoleRule { role: AmountRole; re: RegExp; strength: number }

/** Ordered: the first rule that matches a line decides its role. Patterns run on upper-cased, accent-free text. */
const RULES: RoleRule[] = [
  { role: 'quantity', re: /\b(TOTAL\s*(QTY|QUANTITY|ITEMS?|PCS|ARTICLES?|UNITS?)|QTY\b|QTY\(?S\)?|ITEM\(?S\)?\s*:|NO\.?\s*OF\s*(ITEMS?|QTY)|JUMLAH\s*(ITEM|BARANG|QTY)|TOTAL\s*ITEM|BTYS|OTY)/, strength: 1 },
  { role: 'change', re: /\b(CHANGE(\s*DUE)?|KEMBALI(AN)?|BAKI|RENDU|MONNAIE|RUCKGELD|WISSELGELD|CAMBIO|VUELTO)\b/, strength: 1 },
  { role: 'total', re: /\b(TOTAL\s*ROUNDED|ROUNDED\s*TOTAL|TOTAL\s*AFTER\s*ROUNDING|NETT?\s*TOTAL\s*ROUNDED)\b/, strength: 3.2 },
  { role: 'rounding', re: /\b(ROUNDING|ROUND(ING)?\s*(ADJ\w*|OFF)?|RND\s*ADJ|ADJ(USTMENT)?|PEMBULATAN|ARRONDI\w*|RUNDUNG|AFRONDING)\b/, strength: 1 },
  { role: 'subtotal', re: /\b(SUB\s*-?\s*T[O0]TAL|SUBTTL|SOUS[\s-]*TOTAL|ZWISCHENSUMME|SUBTOTAAL|TOTAL\s*\(?(EXCL\w*|BEFORE|HT\b|NETTO)|NET\s*AMOUNT|AMOUNT\s*EXCL\w*|EXCL\w*\s*(GST|TAX|VAT|SST)|MONTANT\s*HT|TOTAL\s*HT|NETTOBETRAG|NETTO|TOTAL\s*SALES\s*\(?EXCL|BEFORE\s*TAX|TOTAL\s*NET\b)/, strength: 1 },
  { role: 'discount', re: /\b(DISC(OUNT)?|SAVINGS?|YOU\s*SAVED|POTONGAN|DISKON|HEMAT|REMISE|RABATT?|KORTING|DESCUENTO|VOUCHER)\b/, strength: 1 },
  { role: 'tip', re: /\b(TIPS?|GRATUITY|POURBOIRE|TRINKGELD|FOOI|PROPINA)\b/, strength: 1 },
  { role: 'service', re: /\b(SERVICE\s*CHA?R?GE?|SVC\s*CHG|SERVIS|S\/C)\b/, strength: 1 },
  { role: 'tax', re: /\b(TOTAL\s*(GST|SST|TAX|VAT|TVA|PPN|MWST|IVA|BTW)|(GST|SST|VAT|TAX)\s*(AMT|AMOUNT|PAYABLE|TOTAL))\b/, strength: 2 },
  { role: 'total', re: /\b(GRAND\s*T[O0]TAL|T[O0]TAL\s*(AMOUNT|AMT|DUE|PAYABLE|TO\s*PAY|TTC|INCL\w*|INC\b|BAYAR|BELANJA|HARGA|SALES|INVOICE|RM|RP|EUR|USD|A\s*PAYER|NETT?\b|PEMBAYARAN|TAGIHAN)|NETT?\s*TOTAL|AMOUNT\s*(DUE|PAYABLE|TO\s*PAY)|BALANCE\s*DUE|JUMLAH(\s*(BESAR|BAYAR|KESELURUHAN|SEMUA|TOTAL))?|MONTANT\s*(TTC|TOTAL|A\s*PAYER|DU)|NET\s*A\s*PAYER|A\s*PAYER|GESAMT\w*|SUMME|RECHNUNGSBETRAG|ENDBETRAG|ZU\s*ZAHLEN|TOTAAL|TE\s*BETALEN|IMPORTE(\s*TOTAL)?|TOTALE|TOTAL\s*A\s*PAGAR|INVOICE\s*TOTAL|TOTAL\s*TAGIHAN)\b|合計|总计|合计|รวม/, strength: 3 },
  { role: 'tax', re: /\b(GST|SST|VAT|TVA|MWST|UST|IVA|PPN|BTW|TAX|PAJAK|IMPUESTO|STEUER|PB1|PAJAK\s*RESTORAN)\b/, strength: 1 },
  { role: 'paid', re: /\b(CASH|TUNAI|PAID|TENDER(ED)?|PAYMENT|BAYAR|DIBAYAR|VISA|MASTER\s*CARD|MASTERCARD|MASTER|AMEX|DEBIT|CREDIT|CARD|KARTU|EDC|GOPAY|OVO|DANA|QRIS|SHOPEEPAY|ESPECES|BARGELD|BAR|CARTE|EFECTIVO|PIN|NETS|BCA|MANDIRI|BNI|BRI)\b/, strength: 1 },
  { role: 'balance', re: /\b(BALANCE|OUTSTANDING|SISA)\b/, strength: 1 },
  { role: 'total', re: /\b[TF][O0]T[A4][L1I]\b|\bTTL\b|\bT[O0]TAL\w*/, strength: 2 },
];

/** Lines that mention tax but hold no tax amount. */
const TAX_NOT_AMOUNT = /\b(GST|SST|VAT|TAX|TVA|BTW|NPWP|PPN)\s*(REG\w*|NO\b|NO\.|NUMBER|ID\b|#|INVOICE|IDENTIFICATION)|\bTAX\s*INVOICE|INCLUSIVE\s*(OF\s*)?(GST|TAX|VAT|SST)|INCL\w*\s*(OF\s*)?(GST|TAX|VAT|SST|TVA|PPN)|PRICES?\s*(ARE\s*)?INCL|ID\s*NO|USt-?Id/i;

export interface RoleCandidate {
  role: AmountRole;
  strength: number;
  keyword: string;
  line: Line;
  amount: Amount;
  /** The amount came from the line after the keyword. */
  nextLine: boolean;
}

/** The role of a line from its words, or undefined. */
export function roleOf(text: string): { role: AmountRole; strength: number; keyword: string } | undefined {
  const t = fold(text);
  for (const r of RULES) {
    const m = r.re.exec(t);
    if (m) return { role: r.role, strength: r.strength, keyword: m[0].trim() };
  }
  return undefined;
}

/** Picks the amount a labelled line states: the rightmost money-like amount that is not a rate. */
function statedAmount(amounts: Amount[]): Amount | undefined {
  const money = amounts.filter((a) => a.moneyLike);
  const pool = money.length ? money : amounts;
  return pool[pool.length - 1];
}

/** Every labelled amount in the document. */
export function roleCandidates(doc: Document, locale: Locale, amountsByLine: Map<number, Amount[]>): RoleCandidate[] {
  const out: RoleCandidate[] = [];
  for (let i = 0; i < doc.lines.length; i++) {
    const line = doc.lines[i]!;
    const r = roleOf(line.text);
    if (!r) continue;
    if (r.role === 'tax' && TAX_NOT_AMOUNT.test(line.text)) continue;
    const amounts = (amountsByLine.get(line.index) ?? []).filter((a) => !(r.role === 'tax' && /%/.test(line.text.slice(a.end, a.end + 2))));
    // the keyword must come before the amount
    const kwPos = fold(line.text).indexOf(r.keyword);
    const after = amounts.filter((a) => a.start >= kwPos);
    let amount = statedAmount(after);
    let nextLine = false;
    if (!amount && i + 1 < doc.lines.length) {
      const next = doc.lines[i + 1]!;
      if (next.page === line.page && !roleOf(next.text)) {
        amount = statedAmount(amountsByLine.get(next.index) ?? []);
        nextLine = !!amount;
      }
    }
    if (amount) out.push({ ...r, line: nextLine ? doc.lines[i + 1]! : line, amount, nextLine });
  }
  return out;
}

const near = (a: number, b: number, tol = 0.011) => Math.abs(a - b) < tol;

export interface MoneyFields {
  totalAmount?: Located<number>;
  subtotalAmount?: Located<number>;
  taxAmount?: Located<number>;
  paidAmount?: Located<number>;
  discountAmount?: Located<number>;
  tipAmount?: Located<number>;
  roundingAmount?: Located<number>;
  /** Evidence of the total, for the verbose result and debugging. */
  totalEvidence: string[];
}

function located(c: { amount: Amount; keyword: string; line: Line }, confidence: number, currency: string | undefined, value = c.amount.value): Located<number> {
  const l = c.amount.line;
  return {
    value: Math.round(value * 100) / 100, confidence, text: l.text, lineIndex: l.index, keyword: c.keyword || '-',
    boxes: boxesForSpan(l, c.amount.start, c.amount.end), page: l.page,
    ...(c.amount.currency ?? currency ? { currencyCode: (c.amount.currency ?? currency)! } : {}),
  };
}

/** Finds the total and the other money fields. */
export function findMoney(doc: Document, locale: Locale): MoneyFields {
  const amountsByLine = new Map<number, Amount[]>();
  const all: Amount[] = [];
  for (const line of doc.lines) {
    const a = amountsInLine(line, locale);
    amountsByLine.set(line.index, a);
    all.push(...a);
  }
  const cands = roleCandidates(doc, locale, amountsByLine);
  const currency = locale.currency || undefined;
  const by = (role: AmountRole) => cands.filter((c) => c.role === role);
  const paid = by('paid').filter((c) => c.amount.value > 0);
  const change = by('change').filter((c) => c.amount.value >= 0);
  const subtotal = by('subtotal').filter((c) => c.amount.value > 0);
  const tax = by('tax').filter((c) => c.amount.value >= 0);
  const rounding = by('rounding').filter((c) => Math.abs(c.amount.value) < 1);
  const discount = by('discount').filter((c) => c.amount.value !== 0);
  const service = by('service').filter((c) => c.amount.value > 0);
  const tip = by('tip').filter((c) => c.amount.value > 0);
  const moneyValues = all.filter((a) => a.moneyLike && a.value > 0).map((a) => a.value);
  const maxMoney = moneyValues.length ? Math.max(...moneyValues) : 0;
  const count = (v: number) => moneyValues.filter((x) => near(x, v)).length;

  // --- total ---
  type Scored = { c: RoleCandidate | { amount: Amount; keyword: string; line: Line; strength: number; nextLine: boolean }; score: number; evidence: string[] };
  const totals: Scored[] = [];
  const totalLike = [...by('total'), ...by('balance').map((c) => ({ ...c, strength: 1.5 }))].filter((c) => c.amount.value > 0);
  const n = doc.lines.length || 1;
  for (const c of totalLike) {
    const v = c.amount.value;
    const evidence: string[] = [`keyword:${c.keyword}`];
    let score = c.strength + (c.amount.moneyLike ? 0.5 : -1) - (c.nextLine ? 0.3 : 0);
    if (paid.some((p) => change.some((ch) => near(p.amount.value - ch.amount.value, v)))) { score += 3; evidence.push('paid-change'); }
    else if (paid.some((p) => near(p.amount.value, v))) { score += 1.2; evidence.push('paid'); }
    const sums = subtotalSums(subtotal, tax, rounding, discount, service);
    if (sums.some((s) => near(s, v))) { score += 2.2; evidence.push('subtotal+tax'); }
    if (near(v, maxMoney)) { score += 0.8; evidence.push('largest'); }
    const reps = count(v);
    if (reps >= 2) { score += Math.min(1, 0.4 * (reps - 1)); evidence.push(`repeated:${reps}`); }
    if (subtotal.some((s) => s.amount.value > v + 0.01) && !discount.length && !rounding.length) { score -= 1; evidence.push('below-subtotal'); }
    // later lines are more often the final total (receipts print running totals first)
    score += 0.3 * (c.line.index / n);
    totals.push({ c, score, evidence });
  }
  // arithmetic-only fallbacks when no labelled total survived OCR
  if (!totals.length) {
    for (const p of paid) for (const ch of change) {
      const v = Math.round((p.amount.value - ch.amount.value) * 100) / 100;
      if (v > 0) {
        const hit = all.find((a) => near(a.value, v));
        if (hit) totals.push({ c: { amount: hit, keyword: '-', line: hit.line, strength: 0, nextLine: false }, score: 1.5, evidence: ['paid-change-derived'] });
      }
    }
    if (!totals.length) {
      const lineEnd = all.filter((a) => a.moneyLike && a.atLineEnd && a.value > 0 && !paid.some((p) => p.amount === a) && !change.some((c) => c.amount === a));
      const max = lineEnd.sort((a, b) => b.value - a.value)[0];
      if (max) totals.push({ c: { amount: max, keyword: '-', line: max.line, strength: 0, nextLine: false }, score: 0.5, evidence: ['largest-only'] });
    }
  }
  totals.sort((a, b) => b.score - a.score);
  const out: MoneyFields = { totalEvidence: [] };
  const best = totals[0];
  if (best) {
    const v = best.c.amount.value;
    const rival = totals.find((t) => !near(t.c.amount.value, v));
    const ev = best.evidence;
    let conf = 0.42;
    if (best.c.strength >= 3) conf += 0.15; else if (best.c.strength >= 2) conf += 0.08;
    if (ev.includes('paid-change')) conf += 0.22;
    if (ev.includes('subtotal+tax')) conf += 0.2;
    if (ev.includes('paid')) conf += 0.06;
    if (ev.includes('largest')) conf += 0.1;
    if (ev.some((e) => e.startsWith('repeated'))) conf += 0.06;
    if (best.c.amount.ocrConfidence >= 0.85) conf += 0.04;
    if (ev.includes('largest-only') || ev.includes('paid-change-derived')) conf = Math.min(conf, 0.45);
    if (rival && rival.score > best.score - 1) conf -= 0.15;
    out.totalAmount = located(best.c, Math.max(0.05, Math.min(0.99, conf)), currency);
    out.totalEvidence = ev;
  }
  const total = out.totalAmount?.value;

  // --- tax ---
  const taxOk = tax.filter((c) => total === undefined || (c.amount.value < total * 0.5 + 0.001));
  if (taxOk.length) {
    // prefer explicit "tax amount" lines, then one consistent with subtotal + tax = total
    const scored = taxOk.map((c) => {
      let s = c.strength;
      if (total !== undefined && subtotal.some((st) => near(st.amount.value + c.amount.value, total))) s += 2;
      if (total !== undefined && c.amount.value > 0 && c.amount.value < total * 0.3) s += 0.5;
      if (c.amount.value === 0) s -= 0.5;
      return { c, s };
    }).sort((a, b) => b.s - a.s);
    const t = scored[0]!;
    const conf = Math.min(0.95, 0.45 + 0.12 * t.s);
    out.taxAmount = located(t.c, conf, currency);
  }
  // --- the rest: first plausible labelled amount ---
  const simple = (list: RoleCandidate[], conf: number, abs = false): Located<number> | undefined => {
    const c = list[list.length - 1];
    if (!c) return undefined;
    return located(c, conf, currency, abs ? Math.abs(c.amount.value) : c.amount.value);
  };
  if (subtotal.length) {
    const s = subtotal.find((c) => total !== undefined && c.amount.value <= total + 0.01) ?? subtotal[0]!;
    out.subtotalAmount = located(s, total !== undefined && tax.some((t) => near(s.amount.value + t.amount.value, total)) ? 0.85 : 0.6, currency);
  }
  const paidC = paid.filter((p) => total === undefined || p.amount.value >= total - 0.01);
  const p = simple(paidC.length ? paidC : paid, 0.6);
  if (p) out.paidAmount = p;
  const d = simple(discount, 0.55, true);
  if (d) out.discountAmount = d;
  const tp = simple(tip, 0.6);
  if (tp) out.tipAmount = tp;
  const r = simple(rounding, 0.6);
  if (r) out.roundingAmount = r;
  return out;
}

/** Totals implied by subtotal, tax, rounding, discount and service charge (each optional). */
function subtotalSums(subtotal: RoleCandidate[], tax: RoleCandidate[], rounding: RoleCandidate[], discount: RoleCandidate[], service: RoleCandidate[]): number[] {
  const out: number[] = [];
  const taxes = [0, ...tax.map((t) => t.amount.value)];
  const taxSum = tax.reduce((s, t) => s + t.amount.value, 0);
  if (tax.length > 1) taxes.push(taxSum);
  const rounds = [0, ...rounding.map((r) => r.amount.value)];
  const discs = [0, ...discount.map((d) => -Math.abs(d.amount.value))];
  const svcs = [0, ...service.map((s) => s.amount.value)];
  for (const s of subtotal) for (const t of taxes) for (const r of rounds) for (const d of discs) for (const v of svcs) {
    if (t === 0 && r === 0 && d === 0 && v === 0) continue; // subtotal alone is not evidence
    out.push(s.amount.value + t + r + d + v);
  }
  return out;
}
