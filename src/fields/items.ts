/**
 * Product line items: the table between the receipt's header and its totals block.
 *
 * Each line of that region is read as `[codes] [name] [numbers]`: leading article codes and a count,
 * the description, then the numbers of the row (quantity, unit price, discount, amount). The row's
 * amount is its last number. Rows with numbers but no description take it from the text line above
 * or below, whichever way the receipt prints it (decided once per receipt from how its rows pair up).
 * A discount line under an item belongs to that item. Totals, tax, payment, change and loyalty lines
 * are never items: they carry a keyword of the money lexicon.
 *
 * Arithmetic decides between OCR readings: quantity x unit price must give the amount (a lost decimal
 * point in "1440" for 14.40 is recovered that way), and the items must add up to the subtotal or the
 * total (with or without tax, discount and rounding). Agreement raises the items' confidence; a single
 * unreadable amount is recovered from the sum when everything else agrees.
 *
 * `itemsFrom` runs ordered lists of small named rules: OTHER_ROW_RULES (lines that are never part of
 * the table), NAME_RULES (the row that names a priced row; each item keeps the rule's name), MERGE_RULES
 * (a discount, running total or breakdown line that is no item of its own), SUM_TARGETS (what the items
 * must add up to), RECOVERY_RULES (one unconfirmed amount fixed to what a target needs) and
 * ITEM_CONFIDENCE_RULES (an item's confidence terms).
 */
import type { Document, Line } from '../document/types.js';
import type { Locale } from '../locale/index.js';
import { parseNumber, repairDigitRuns } from '../locale/numbers.js';
import type { LineFacts } from './lines.js';
import { ITEM_COUNT_LABEL } from './amounts.js';
import type { MoneyFacts, MoneyResolution } from './amounts.js';
import { TAX_ALTERNATION, wordAlternation } from '../locale/languages/index.js';
import { boxesForSpan } from './text.js';
import type { ItemPart, ItemsCheck, LineItem, TaxLine } from './types.js';
import { roundConfidence } from './confidence.js';

interface Tok { text: string; start: number; end: number }

/** A number of a row, with the readings OCR makes plausible. */
interface Num {
  tok: Tok;
  value: number;
  /** Readings to try, the printed one first (a lost decimal point, a tax code read as a digit). */
  readings: number[];
  /** Printed with the currency's decimals (or grouping for whole currencies). */
  money: boolean;
  /** A count marker was attached ("2x", "x2", "QTY 2"). */
  qtyMark: boolean;
  /** Followed by a unit of measure ("1.00 kg", "15.00 g", "3 UNIT"). */
  unit: boolean;
  percent: boolean;
  negative: boolean;
  /** Printed without a separator where the currency has decimals ("1440"): the raw reading is doubtful. */
  bare: boolean;
}

interface Row {
  /** 'code': an article code or count line without a description ("FI-04 - 36", "72/1"). */
  facts: LineFacts;
  line: Line;
  /** Name span in line.text (may be empty). */
  name?: Tok;
  lead: Num[];
  nums: Num[];
  /** Letters in the name part. */
  letters: number;
  /** A code printed at the start of the line (SKU, barcode, article number). */
  code?: Tok;
  kind: 'item' | 'nums' | 'text' | 'code' | 'other';
}

/** Trailing tokens that are tax codes, flags or OCR specks, not part of the amount. */
const TAIL_JUNK = /^(?:[A-Z]{1,3}|[*#§$%&~=_|\\/;:.,'"`°»«()[\]{}<>!?-]+|\*[A-Z]{1,2}|[A-Z][*)]?|TX|NT)$/i;
const UNIT_WORD = new RegExp(String.raw`^(?:${wordAlternation('units')}|@|\*|=)$`, 'i');
const CURRENCY_TOKEN = /^(?:RM|RH|RN|RP|RP\.|IDR|MYR|USD|EUR|SGD|\$|€|£|₹|¥|S\$|US\$)$/i;
const CUR_PREFIX = /^(?:RM|RH|RN|RP\.?|IDR|MYR|USD|EUR|SGD|S\$|US\$|\$|€|£|₹|¥)/i;
const CODE_TOKEN = /^(?:[A-Z0-9-]*\d{4,}[A-Z0-9-]*|\[[^\]]*\]|\*\d+\*|[A-Z]{0,4}\d{4,}[A-Z]?-?|\d{4,}[A-Z0-9-]*|[A-Z0-9]{2,}-\d+[A-Z0-9-]*)$/i;
/** Keyword roles that make a line part of the totals block (never an item). */
const SUMMARY_ROLES = new Set(['total', 'subtotal', 'tax', 'taxIncluded', 'taxBase', 'rounding', 'paid', 'change', 'balance', 'deposit', 'points', 'tip']);
/** Column header words: the item table starts below the last line that has several of them. */
const HEADER_WORDS = new RegExp(String.raw`^(?:${wordAlternation('itemHeader')})$`, 'i');
/** Header words that name only an amount: a line of only these is a label ("TOTAL AMOUNT"), not a table header. */
const AMOUNT_HEADER = new RegExp(String.raw`^(?:${wordAlternation('amountHeader')})$`, 'i');
/** Marks of a second header line ("Qty RM RM CODE", "(GST) (GST)"). */
const HEADER_TAIL = new RegExp(String.raw`^\W*(?:${wordAlternation('itemHeaderTail')})\W*$`, 'i');

const lettersIn = (s: string) => (s.match(/\p{L}/gu) ?? []).length;

function tokens(text: string): Tok[] {
  const out: Tok[] = [];
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) out.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}

/**
 * "63065005@2.33" -> "2.33": an article code (ending in 3+ digits) glued to the unit price. Linear: the
 * glued part is found first and its digits checked after (`^[A-Z0-9]*\d{3,}@` backtracked
 * quadratically: 22 s on 80k digits).
 */
export function withoutGluedCode(t: string): string {
  const code = /^[A-Z0-9]*@(?=\d)/i.exec(t);
  return code && /\d{3}@$/.test(code[0]) ? t.slice(code[0].length) : t;
}

/** Reads a token as a number of a row, or undefined. */
function readNum(tok: Tok, next: Tok | undefined, locale: Locale): Num | undefined {
  let t = repairDigitRuns(tok.text).text;
  t = withoutGluedCode(t);
  let negative = false, qtyMark = false, percent = false;
  if (/^[-−(]/.test(t)) { negative = /^[-−]/.test(t) || /\)$/.test(t); t = t.replace(/^[-−(]+/, ''); }
  t = t.replace(/^[~=@*]+/, (m) => { if (m.includes('@')) qtyMark = false; return ''; });
  t = t.replace(CUR_PREFIX, '');
  // "RM.50": the leading zero of cents
  if (/^[.,]\d{2}$/.test(t) && !locale.wholeCurrency) t = `0${t}`;
  if (/^[xX]\d/.test(t)) { qtyMark = true; t = t.slice(1); }
  // trailing marks: "2x", "3X", "4.25-", "250s" (a tax code glued on), "3.99/kg", "21%", ")"
  const unitSuffix = /\/(?:KG|G|L|PC|PCS|EA|UNIT|M)$/i.test(t);
  if (unitSuffix) t = t.replace(/\/\w+$/, '');
  if (/[%]$/.test(t)) { percent = true; t = t.slice(0, -1); }
  if (/^\d+[xX]$/.test(t)) { qtyMark = true; t = t.slice(0, -1); }
  if (/[-−]$/.test(t)) { negative = true; t = t.slice(0, -1); }
  t = t.replace(/[)|;:,.'"`]+$/, '');
  let glued = false;
  if (/^\d[\d.,]*(?:SR|ZR|ZRL|S|T|Z|E|R|D|N|A|B|\*)$/i.test(t) && !/^\d+[xX]$/.test(t)) { t = t.replace(/[A-Za-z*]+$/, ''); glued = true; }
  if (!/^\d[\d.,]*$/.test(t)) return undefined;
  // article numbers and barcodes: long digit runs without separators, or zero-padded
  if (/^\d+$/.test(t) && (t.length >= (locale.wholeCurrency ? 8 : 5) || (/^0\d{3,}$/.test(t)))) return undefined;
  const p = parseNumber(t, { decimalComma: locale.decimalComma, wholeCurrency: locale.wholeCurrency });
  if (!p) return undefined;
  const readings: number[] = [p.value];
  const plain = t.replace(/[.,]/g, '');
  if (!locale.wholeCurrency) {
    if (p.decimals === 0 && /^\d{3,6}$/.test(plain)) readings.push(p.value / 100);
    // "3.905": a tax code (S) read as a digit after the cents
    if (p.decimals === 3) readings.push(Math.trunc(p.value * 100) / 100);
    if (p.decimals === 4 && !/0{2}$/.test(plain)) readings.push(Math.trunc(p.value * 100) / 100);
  }
  const nextText = next?.text ?? '';
  const unit = unitSuffix || (!!next && UNIT_WORD.test(nextText.replace(/[.:]$/, '')) && !/^[xX*@=]$/.test(nextText));
  if (next && /^[xX]$/.test(nextText)) qtyMark = true;
  const money = locale.wholeCurrency ? (p.grouped || /[.,]00$/.test(t)) : p.decimals === 2;
  void glued;
  const sign = (v: number) => (negative ? -v : v);
  const bare = !locale.wholeCurrency && p.decimals === 0 && plain.length >= 3;
  return { tok, value: sign(p.value), readings: [...new Set(readings)].map(sign), money, qtyMark, unit, percent, negative, bare };
}

/** Splits a line into leading codes/numbers, a name and trailing numbers. */
function parseRow(f: LineFacts, locale: Locale): Row {
  const line = f.line;
  const toks = tokens(line.text);
  // drop trailing junk (tax codes, specks) after the last number
  let endIdx = toks.length;
  while (endIdx > 0 && TAIL_JUNK.test(toks[endIdx - 1]!.text) && toks.slice(0, endIdx - 1).some((t) => /\d/.test(t.text))) {
    // stop at a token that is itself a number
    if (/\d/.test(toks[endIdx - 1]!.text)) break;
    endIdx--;
  }
  const body = toks.slice(0, endIdx);
  // trailing numbers, currency words, units and markers
  const nums: Num[] = [];
  let k = body.length - 1;
  for (; k >= 0; k--) {
    const t = body[k]!;
    const n = readNum(t, body[k + 1], locale);
    if (n) { nums.unshift(n); continue; }
    if (CURRENCY_TOKEN.test(t.text) || UNIT_WORD.test(t.text.replace(/[.:]$/, '')) || /^[^\p{L}\p{N}]+$/u.test(t.text)) continue;
    // "12%", "5%": percent tokens were read above; "(RM)" and similar
    if (/^\(?[A-Z]{1,3}\)?$/.test(t.text) && nums.length && k > 0 && /\d/.test(body[k - 1]!.text)) continue;
    break;
  }
  // "5.30 5": a tax code (S) read as a digit after the amount
  if (nums.length >= 2 && /^\d$/.test(nums[nums.length - 1]!.tok.text) && (nums[nums.length - 2]!.money || /[.,]\d{3}$/.test(nums[nums.length - 2]!.tok.text))) nums.pop();
  // "BOARD -013": a model number ending the name, not an amount
  if (nums.length === 1 && nums[0]!.negative && !nums[0]!.money && !locale.wholeCurrency) { k = body.length - 1; nums.length = 0; }
  // leading codes and a count
  const lead: Num[] = [];
  let i = 0;
  let code: Tok | undefined;
  for (; i <= k; i++) {
    const t = body[i]!;
    const stripped = t.text.replace(/^[|{[(]+(?=\d)|[|}\])]+$/g, '');
    if (/^[^\p{L}\p{N}]+$/u.test(t.text)) continue;
    if ((CODE_TOKEN.test(stripped) || /^\[?[\w-]{2,}\]$/.test(t.text)) && (i < k)) { code = code ?? t; continue; }
    if (/^(?:SR|ZR|ZRL|S|Z|T|E)$/.test(t.text) && i < k && lettersIn(body.slice(i + 1, k + 1).map((x) => x.text).join('')) >= 3) continue;
    const n = /^\d{1,3}(?:[.,]\d{1,3})?[xX]?$/.test(t.text) && i < k ? readNum(t, body[i + 1], locale) : undefined;
    if (n && !n.money && i < k) { lead.push(n); continue; }
    break;
  }
  // a "name" that is only an article code ("g5L65701105139 1 250 250")
  if (i === k && CODE_TOKEN.test(body[k]!.text.replace(/^[|{[(]+|[|}\])]+$/g, '')) && nums.length) { code = code ?? body[k]; i = k + 1; }
  const nameToks = body.slice(i, k + 1);
  let name: Tok | undefined;
  if (nameToks.length) {
    const s = nameToks[0]!.start, e = nameToks[nameToks.length - 1]!.end;
    let text = line.text.slice(s, e);
    // strip edge junk
    const lead2 = text.match(/^[^\p{L}\p{N}("'&]+/u)?.[0].length ?? 0;
    text = text.slice(lead2);
    const trail = text.match(/[\s~|*§#=_:;,.\-—]+(?:\*?[A-Z§$]{1,2})?[\s~|*§#=_:;,.\-—]*$/u);
    let cut = text.length;
    if (trail && /[~|*§#=_:;,\-—]/.test(trail[0])) cut = trail.index!;
    text = text.slice(0, cut).trimEnd();
    if (text) name = { text, start: s + lead2, end: s + lead2 + text.length };
  }
  let letters = name ? lettersIn(name.text) : 0;
  const last = nums[nums.length - 1];
  // a one- or two-digit count ending a line ("MacBook Pro 15,4'' 256 GB 1") is not an amount
  const countOnly = !!last && /^\d{1,2}$/.test(last.tok.text);
  const hasAmount = !!last && !last.percent && !countOnly && (last.money || last.readings.length > 1 || nums.length >= 2 || lead.length > 0);
  let kind: Row['kind'];
  // an amount has its decimals (possibly damaged: "16.0038"), or company (a count, a unit price)
  const realAmount = !!last && (last.money || /\d[.,]\d/.test(last.tok.text) || nums.length >= 2 || lead.length > 0);
  if (hasAmount && letters >= 2 && realAmount) kind = 'item';
  else if (hasAmount && letters >= 2) kind = 'text';
  else if (hasAmount && realAmount) kind = 'nums';
  else if (lettersIn(line.text) >= 3) kind = 'text';
  else if (/\d/.test(line.text)) kind = 'code';
  else kind = 'other';
  if (kind === 'text') {
    // a description line: all of it but the leading codes ("SR 100100000056-Fried Noodle (S)")
    let from = 0;
    for (const t of toks) {
      const x = t.text.replace(/^[|{[(]+(?=\d)|[|}\])]+$/g, '');
      const glued = x.match(/^(\d{5,}-)(\p{L}.*)$/u);
      if (glued) { from = t.start + glued[1]!.length; break; }
      if (/^[^\p{L}\p{N}]+$/u.test(x) || /^(?:SR|ZR|ZRL)$/.test(x) || (CODE_TOKEN.test(x) && /\d{4,}/.test(x))) { from = t.end; continue; }
      break;
    }
    const text = cleanName(line.text.slice(from));
    const at = line.text.indexOf(text, from);
    if (text && at >= 0) { name = { text, start: at, end: at + text.length }; letters = lettersIn(text); }
  }
  return { facts: f, line, ...(name ? { name } : {}), lead, nums, letters, ...(code ? { code } : {}), kind };
}

const near = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol;

interface Reading { total: number; quantity?: number; unitPrice?: number; confirmed: boolean; totalTok: Tok; qtyTok?: Tok; unitTok?: Tok }

/** Chooses the amount, quantity and unit price of a row: quantity x unit price = amount when possible. */
function readRow(row: Row, locale: Locale): Reading | undefined {
  const nums = row.nums.filter((n) => !n.percent);
  const last = nums[nums.length - 1];
  if (!last) return undefined;
  const tol = locale.wholeCurrency ? 1 : 0.0105;
  const others = [...row.lead, ...nums.slice(0, -1)];
  let best: { score: number; r: Reading } | undefined;
  last.readings.forEach((total, ti) => {
    for (const q of others) {
      for (const u of others) {
        if (q === u) continue;
        const qv = q.value;
        if (qv === 0 || Math.abs(qv) > 9999) continue;
        // a count is whole unless it carries a unit of measure (0.456 kg)
        if (!Number.isInteger(qv) && !q.unit && !(Number.isInteger(Math.round(qv * 1000) / 1000) && q.tok.text.match(/[.,]0+$/))) continue;
        u.readings.forEach((uv, ui) => {
          if (uv === 0) return;
          if (!near(Math.abs(qv * uv), Math.abs(total), Math.max(tol, Math.abs(total) * 0.002))) return;
          const odd = (v: number) => (locale.wholeCurrency ? 0 : Math.abs(Math.round(v * 100) - v * 100) > 1e-6 ? 3 : 0);
          const score = 10 - ti * 2 - ui * 2 - odd(total) - (ti === 0 && last.bare ? 3 : 0) - (ui === 0 && u.bare ? 3 : 0) - (q.bare ? 4 : 0) - (Math.abs(qv) > 100 && !q.unit ? 2 : 0) + (q.qtyMark ? 2 : 0) + (q.unit ? 1 : 0) + (Number.isInteger(qv) ? 1 : 0) + (u.tok.start > q.tok.start ? 0.5 : 0);
          if (!best || score > best.score) {
            best = { score, r: { total, quantity: Math.abs(qv), unitPrice: Math.abs(uv), confirmed: true, totalTok: last.tok, qtyTok: q.tok, unitTok: u.tok } };
          }
        });
      }
    }
  });
  if (best) return best.r;
  // no product check: quantity 1 when a unit price equal to the amount is printed
  const order = last.bare && last.readings.length > 1 ? [...last.readings.slice(1), last.readings[0]!] : last.readings;
  for (const t of order) {
    const u = others.find((o) => o.value !== 0 && o.readings.some((uv) => near(uv, t, tol / 2)));
    if (u) return { total: t, quantity: 1, unitPrice: t, confirmed: true, totalTok: last.tok, unitTok: u.tok };
  }
  const total = last.money || last.readings.length === 1 ? last.value : last.readings[1]!;
  const lone = others.length === 1 && !others[0]!.money && !others[0]!.bare && Number.isInteger(others[0]!.value) && others[0]!.value > 0 && others[0]!.value < 100 ? others[0] : undefined;
  const qty = [...others].reverse().find((n) => n.qtyMark) ?? lone ?? row.lead.find((n) => Number.isInteger(n.value) && n.value > 0 && n.value < 100);
  return { total, confirmed: false, totalTok: last.tok, ...(qty ? { quantity: qty.value, qtyTok: qty.tok } : {}) };
}

/** Lines of the item table: below the last column header (or header block), above the totals. */
function itemRegion(facts: LineFacts[], moneyFacts: MoneyFacts, money: MoneyResolution, locale: Locale): { rows: number[]; totalsStart: number } {
  const isHeader = (f: LineFacts) => {
    const words = f.line.text.split(/\s+/).map((w) => w.replace(/[^\p{L}./%]/gu, '')).filter(Boolean);
    const found = words.filter((w) => HEADER_WORDS.test(w));
    const hits = found.length;
    // "TOTAL AMOUNT" is a label, not a table header: a header names the item or its count or price
    if (found.every((w) => AMOUNT_HEADER.test(w))) return false;
    const digitWords = f.line.text.split(/\s+/).filter((w) => /\d/.test(w)).length;
    return hits >= 2 && hits >= words.length * 0.4 && (digitWords === 0 || (digitWords === 1 && hits >= 3));
  };
  // a second header line: short words, no digits ("Qty RM RM CODE", "(GST) (GST)")
  const isHeaderTail = (f: LineFacts) => {
    const words = f.line.text.split(/\s+/).filter((w) => /\p{L}/u.test(w));
    const marked = words.some((w) => HEADER_WORDS.test(w.replace(/[^\p{L}./%]/gu, '')) || HEADER_TAIL.test(w));
    return marked && !/\d/.test(f.line.text) && words.length <= 6 && words.reduce((s, w) => s + w.length, 0) / words.length <= 4.5;
  };
  const summaryLines = new Set(moneyFacts.summaryRows.map((r) => r.lineIndex));
  const totalsStart = moneyFacts.totalsStart;
  const totalLine = money.total?.source?.lineIndex;
  const end = Math.min(facts.length, totalLine !== undefined && totalLine > totalsStart ? totalLine : totalsStart);
  // the last header line above the totals on each page; pages without one start at their top
  const headerAt = new Map<number, number>();
  for (let i = 0; i < end; i++) {
    if (!isHeader(facts[i]!)) continue;
    let h = i;
    while (h + 1 < end && facts[h + 1]!.line.page === facts[i]!.line.page && isHeaderTail(facts[h + 1]!)) h++;
    headerAt.set(facts[i]!.line.page, h);
  }
  const hasHeader = headerAt.size > 0;
  const firstPage = facts[0]?.line.page ?? 0;
  // without a column header, the items start after the header block: the last line above the first
  // priced line that names a date, a cashier, a phone, a registration or opening hours
  let fallbackStart = 0;
  if (!hasHeader) {
    const firstPriced = facts.findIndex((f, i) => {
      if (i >= end || isSummaryLine(f, false) || isMarker(f) || f.hits.some((h) => h.role === 'info')) return false;
      const r = parseRow(f, locale);
      return (r.kind === 'item' || r.kind === 'nums') && (r.nums.length >= 2 || r.nums.some((n) => n.money));
    });
    const limit = firstPriced >= 0 ? firstPriced : Math.min(end, totalsStart);
    for (let i = 0; i < limit; i++) {
      const f = facts[i]!;
      if (isSummaryLine(f, false)) continue;
      if (isMarker(f)) fallbackStart = i + 1;
    }
  }
  const rows: number[] = [];
  const pageEnded = new Set<number>();
  let pageItems = 0, lastPage = -1;
  for (let i = 0; i < end; i++) {
    const f = facts[i]!;
    const page = f.line.page;
    if (page !== lastPage) { pageItems = 0; lastPage = page; }
    const h = headerAt.get(page);
    if (h !== undefined ? i <= h : (hasHeader ? page === firstPage : i < fallbackStart)) continue;
    if (pageEnded.has(page)) continue;
    // a page footer (bank details, registration, e-mail) ends that page's table
    if (pageItems > 0 && FOOTER.test(f.line.text)) { pageEnded.add(page); continue; }
    // a tax summary sits below the totals (a table header such as "Amt Inc. GST" is not one)
    if (summaryLines.has(f.line.index) && i >= totalsStart) continue;
    if (f.amounts.some((a) => a.moneyLike)) pageItems++;
    rows.push(i);
  }
  return { rows, totalsStart };
}

const SUMMARY_WORDS = new RegExp(String.raw`\b(?:${wordAlternation('itemSummary')})`);
/** Words of a line below the totals that is no item. */
const AFTER_TOTALS = new RegExp(String.raw`\b(?:${wordAlternation('afterTotals', { space: ' ' })})\b`);
/** A discount line's words. */
const DISCOUNT_WORDS = new RegExp(String.raw`\b(?:${wordAlternation('discountWords')})\b`, 'i');
/** A service or discount label that is a line of the totals. */
const CHARGE_WORDS = new RegExp(wordAlternation('chargeWords'));
/** Page footers of invoices: the item table of that page has ended. */
const FOOTER = new RegExp(String.raw`\b(?:${wordAlternation('footer')})\b|[\w.-]+@[a-z][\w-]*\.[a-z]{2,}|\bwww\.|https?:`, 'i');

const DATE_RE = /\b(?:[0-2]?\d|3[01])[/.-](?:0?[1-9]|1[0-2])[/.-](?:\d{2}|\d{4})\b|\b(?:0?[1-9]|1[0-2])[/.-](?:[0-2]?\d|3[01])[/.-](?:\d{2}|\d{4})\b|\b\d{1,2}:\d{2}(?::\d{2})?\s*(?:AM|PM)?\b/i;
const MARKER_RE = new RegExp(String.raw`\b(?:${wordAlternation('headerMarkers')})\b`);

/** A line of the receipt's header block: date, time, cashier, phone, registration, opening hours. */
function isMarker(f: LineFacts): boolean {
  return MARKER_RE.test(f.canon) || f.hits.some((h) => h.role === 'info') || (DATE_RE.test(f.line.text) && !f.amounts.some((a) => a.moneyLike && a.atLineEnd));
}

function isSummaryLine(f: LineFacts, afterTotals: boolean): boolean {
  if (SUMMARY_WORDS.test(f.canon)) return true;
  const upper = f.line.text.toUpperCase();
  for (const h of f.hits) {
    if (h.role === 'quantity' && /^\s*(?:\(S\))?\s*[:=]/.test(upper.slice(h.end))) return true;
    if (SUMMARY_ROLES.has(h.role)) return true;
    if (h.role === 'quantity' && ITEM_COUNT_LABEL.test(h.keyword)) return true;
    if (h.role === 'quantity' && /^ITEMS?$/.test(h.keyword) && f.amounts.length && /\bITEMS?\s*(?:\(S\))?\s*[:=]/.test(f.canon + ':')) return true;
    if (h.role === 'service' && h.keyword === 'SERVICE' && !/%/.test(f.line.text)) continue;
    // a discount or service label, not a product that mentions one ("SX Flyer SAECO Korting 0,00")
    if ((h.role === 'service' || h.role === 'discount') && (afterTotals || CHARGE_WORDS.test(h.keyword + upper) || (/%/.test(upper) && h.start < 12) || (h.start <= 2 && /^\s*[:=]/.test(upper.slice(h.end))))) return true;
    if (h.role === 'info' && afterTotals) return true;
  }
  return AFTER_TOTALS.test(f.canon) && afterTotals;
}

function part<T>(value: T, line: Line, tok?: Tok): ItemPart<T> {
  return { value, text: tok ? line.text.slice(tok.start, tok.end) : '', lineIndex: line.index, page: line.page, boxes: tok ? boxesForSpan(line, tok.start, tok.end) : [] };
}

export interface ItemsResult { items: LineItem[]; check?: ItemsCheck }

/** Finds the product line items of a document. */
export function findLineItems(doc: Document, locale: Locale, moneyFacts: MoneyFacts, money: MoneyResolution, debug?: string[]): ItemsResult {
  const facts = moneyFacts.lines;
  if (!facts.length) return { items: [] };
  const { rows: regionIdx, totalsStart } = itemRegion(facts, moneyFacts, money, locale);
  const main = itemsFrom(regionIdx, totalsStart, facts, locale, money, debug);
  if (main.check?.matches) return main;
  // some invoices print a summary first and the detail below it: take the detail when it adds up
  // (below the last line that prints the total)
  const tv = money.total?.value;
  let totalLine: number | undefined;
  if (tv !== undefined) facts.forEach((f, i) => { if (f.hits.some((h) => h.role === 'total') && f.amounts.some((a) => near(a.value, tv, 0.001))) totalLine = i; });
  if (totalLine !== undefined) {
    const summaryLines = new Set(moneyFacts.summaryRows.map((r) => r.lineIndex));
    const below: number[] = [];
    for (let i = totalLine + 1; i < facts.length; i++) {
      if (summaryLines.has(facts[i]!.line.index)) continue;
      if (FOOTER.test(facts[i]!.line.text) && below.length) break;
      below.push(i);
    }
    const detail = itemsFrom(below, 0, facts, locale, money, debug);
    if (detail.check?.matches && detail.items.length >= main.items.length) return detail;
  }
  return main;
}

/**
 * The items of a region: each line classified (classifyRow, OTHER_ROW_RULES), weakly named rows given
 * the description above, each priced row paired with its description (NAME_RULES) unless a merge rule
 * makes it part of the item before (MERGE_RULES), then the sum checked against the money fields
 * (SUM_TARGETS, with one unconfirmed amount recovered by RECOVERY_RULES) and each item built.
 */
function itemsFrom(regionIdx: number[], totalsStart: number, facts: LineFacts[], locale: Locale, money: MoneyResolution, debug?: string[]): ItemsResult {
  const rows = regionIdx.map((i) => classifyRow(facts[i]!, i >= totalsStart, locale));
  takeDescriptionsAbove(rows, locale);
  if (debug) debugRows(debug, rows, totalsStart, money);
  const descAfter = descriptionsBelow(rows);
  const found = pairRows(rows, descAfter, locale);
  const tol = locale.wholeCurrency ? 1 : 0.011;
  const targets = sumTargets(money);
  let match = targets.find((t) => near(sumOf(found), t.value, tol));
  if (!match && found.length) match = recoverOpenItem(found, targets, tol);
  const itemsSum = sumOf(found);
  const items = found.map((x) => lineItemOf(x, !!match));
  const check: ItemsCheck | undefined = items.length
    ? { itemsSum, against: match?.against ?? 'none', ...(match ? { expected: Math.round(match.value * 100) / 100 } : targets[0] ? { expected: Math.round(targets[0].value * 100) / 100 } : {}), matches: !!match }
    : undefined;
  return { items, ...(check ? { check } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Rows: each line of the region read as a row and classified.

/** What an other-row rule sees: the line's facts, its parsed row, whether it is below the first totals line. */
export interface RowContext { f: LineFacts; r: Row; afterTotals: boolean }

/** The rules that make a parsed row 'other' (never an item, a description or its numbers); any one that applies decides. */
export const OTHER_ROW_RULES: ReadonlyArray<{ name: string; applies: (ctx: RowContext) => boolean }> = [
  /** A date or header line that is not a description and ends in no money amount ("Invoice Date: August 3, 2014", "01.05.14-31.05.14"). */
  { name: 'date-line', applies: ({ f, r }) => r.kind !== 'text' && isMarker(f) && !f.amounts.some((a) => a.moneyLike && a.atLineEnd) },
  /** Below the first totals line, anything but a clear item row with three letters or more (a garbled tax line is not an item). */
  { name: 'garbled-after-totals', applies: ({ r, afterTotals }) => afterTotals && (r.kind !== 'item' || r.letters < 3) },
];

/** A line of the region as a row: a summary line (totals, tax, payment, ...) is 'other' unread; else its parsed row, 'other' when an other-row rule applies. */
export function classifyRow(f: LineFacts, afterTotals: boolean, locale: Locale): Row {
  if (isSummaryLine(f, afterTotals)) return { facts: f, line: f.line, lead: [], nums: [], letters: 0, kind: 'other' };
  const r = parseRow(f, locale);
  return OTHER_ROW_RULES.some((rule) => rule.applies({ f, r, afterTotals })) ? { ...r, kind: 'other' } : r;
}

/** A name with at most one word of three letters and five letters in all (a unit word or a speck: "t ONIT"), or none. */
const weakName = (r: Row) => !r.name || (r.name.text.split(/\s+/).filter((w) => lettersIn(w) >= 3).length <= 1 && r.letters <= 5);

/**
 * An item row with a weak name and two numbers or more ("t ONIT 280 000 2240") becomes a row of numbers
 * that takes the description above; when the row above is an item with one unconfirmed number
 * ("PLASTIC BOWL - 2.80"), that number is part of its description and it becomes a text row.
 */
function takeDescriptionsAbove(rows: Row[], locale: Locale): void {
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!, p = rows[k - 1] ?? { kind: 'other' as const, nums: [] as Num[] } as unknown as Row;
    if (r.kind !== 'item' || !weakName(r) || r.nums.length < 2) continue;
    if (p.kind === 'text' || p.kind === 'other' || p.kind === 'nums') r.kind = 'nums';
    else if (p.kind === 'item' && p.nums.length === 1 && !readRow(p, locale)?.confirmed) { p.kind = 'text'; r.kind = 'nums'; }
  }
}

/** The rows as the debug lines print them. */
function debugRows(debug: string[], rows: Row[], totalsStart: number, money: MoneyResolution): void {
  debug.push(`totalsStart=${totalsStart} totalLine=${money.total?.source?.lineIndex}`);
  for (const r of rows) debug.push(`${r.line.index} ${r.kind} name=${JSON.stringify(r.name?.text)} nums=${r.nums.map((n) => n.readings.join('/')).join(',')} lead=${r.lead.map((n) => n.value).join(',')} hits=${r.facts.hits.map((h) => h.role + ':' + h.keyword).join(',')}`);
}

/**
 * Whether number-only rows take their description from the line below (else from the line above):
 * the side where more of them have a text row (code lines between skipped), on a tie below when the
 * first row of the table is a number-only row.
 */
export function descriptionsBelow(rows: Row[]): boolean {
  let before = 0, after = 0;
  rows.forEach((r, k) => {
    if (r.kind !== 'nums') return;
    // code lines ("BB21-41-61 - 12/72") sit between a description and its numbers either way
    let p = k - 1, n = k + 1;
    while (rows[p]?.kind === 'code') p--;
    while (rows[n]?.kind === 'code') n++;
    if (rows[p]?.kind === 'text') before++;
    if (rows[n]?.kind === 'text') after++;
  });
  const firstRow = rows.find((r) => r.kind === 'nums' || r.kind === 'item' || r.kind === 'text');
  return after > before || (after === before && after > 0 && firstRow?.kind === 'nums');
}

// ---------------------------------------------------------------------------------------------
// Pairing: each priced row with its description.

/** A priced row with its description: the row whose text names it, every row of it, its reading, the name rule that named it. */
export interface FoundItem { row: Row; nameRow: Row; nameLines: Row[]; reading: Reading; nameRule: string }

/** What a name rule sees: the rows, the priced row r at k, the side descriptions are on, the rows already used as descriptions, the item's rows so far. */
export interface NameContext { rows: Row[]; k: number; r: Row; descAfter: boolean; used: Set<number>; nameLines: Row[] }

/** The text row below (past one code row), when descriptions are below and no item used it. */
function textBelow({ rows, k, r, descAfter, used, nameLines }: NameContext): Row | undefined {
  if (r.kind === 'item' || !descAfter) return undefined;
  const skip = rows[k + 1]?.kind === 'code' ? 1 : 0;
  const n = rows[k + 1 + skip];
  if (!n || n.kind !== 'text' || used.has(k + 1 + skip)) return undefined;
  used.add(k + 1 + skip);
  nameLines.push(n);
  return n;
}

/** When descriptions are above: the unused text and code rows since the previous item all belong to the item; its name is the first text row of them with letters. */
function textAbove({ rows, k, r, descAfter, used, nameLines }: NameContext): Row | undefined {
  if (r.kind === 'item' || descAfter) return undefined;
  let j = k - 1;
  while (j >= 0 && (rows[j]!.kind === 'text' || rows[j]!.kind === 'code') && !used.has(j)) j--;
  for (let m = j + 1; m < k; m++) { used.add(m); nameLines.unshift(rows[m]!); }
  return rows.slice(j + 1, k).find((x) => x.kind === 'text' && (x.letters >= 2 || lettersIn(x.line.text) >= 3));
}

/** The name rules of a priced row, in order: the first that gives a row naming it decides. */
export const NAME_RULES: ReadonlyArray<{ name: string; find: (ctx: NameContext) => Row | undefined }> = [
  /** An item row names itself. */
  { name: 'own-name', find: ({ r }) => (r.kind === 'item' ? r : undefined) },
  { name: 'text-below', find: textBelow },
  { name: 'text-above', find: textAbove },
  /** No description around: the row's own short text ("PPF P7 1.000 50 50.00"). */
  { name: 'own-short-text', find: ({ r }) => (r.name && r.letters >= 2 ? r : undefined) },
];

/** One word or none in the row's name. */
const oneWord = (r: Row) => (r.name?.text.trim().split(/\s+/).length ?? 0) <= 1;

/** A discount line under its item (a negative amount with no description of its own, or a promo code), when descriptions are above: taken off the item before. */
function discountLine(x: FoundItem, found: FoundItem[], descAfter: boolean): boolean {
  const { row: r, reading } = x;
  if (!(reading.total < 0 && found.length && (r.kind === 'nums' || DISCOUNT_WORDS.test(r.line.text)) && !descAfter)) return false;
  const prev = found[found.length - 1]!;
  prev.reading = { ...prev.reading, total: Math.round((prev.reading.total + reading.total) * 100) / 100, confirmed: false };
  prev.nameLines.push(r);
  return true;
}

/** A running total ("Qty 1 7.50" read as "Bty 1 7.50"): the sum of the items so far (two at least when confirmed), under a one-word label: dropped. */
function runningTotal(x: FoundItem, found: FoundItem[]): boolean {
  const { row: r, reading } = x;
  return found.length > 0 && r.kind === 'item' && x.nameRow === r && oneWord(r)
    && near(found.reduce((sum, y) => sum + y.reading.total, 0), reading.total, 0.001) && found.length >= (reading.confirmed ? 2 : 1);
}

/** A breakdown line within two lines under its item, the same amount under a one-word label ("Charges $1.87" under "Amazon Glacier $1.87"): a line of the item before. */
function breakdownLine(x: FoundItem, found: FoundItem[]): boolean {
  const { row: r, reading } = x;
  const prev = found[found.length - 1];
  if (!(prev && r.kind === 'item' && x.nameRow === r && oneWord(r) && near(prev.reading.total, reading.total, 0.001) && prev.row.line.index >= r.line.index - 2)) return false;
  prev.nameLines.push(r);
  return true;
}

/** The rules that make a named priced row no item of its own, in order: the first that applies decides (and does what it says). */
export const MERGE_RULES: ReadonlyArray<{ name: string; merges: (x: FoundItem, found: FoundItem[], descAfter: boolean) => boolean }> = [
  { name: 'discount-line', merges: discountLine },
  { name: 'running-total', merges: runningTotal },
  { name: 'breakdown-line', merges: breakdownLine },
];

/** The items of the rows: each priced row (item or numbers) with a reading, named by the first name rule that names it, unless a merge rule takes it. */
export function pairRows(rows: Row[], descAfter: boolean, locale: Locale): FoundItem[] {
  const used = new Set<number>();
  const found: FoundItem[] = [];
  rows.forEach((r, k) => {
    if (r.kind !== 'item' && r.kind !== 'nums') return;
    const reading = readRow(r, locale);
    if (!reading) return;
    const ctx: NameContext = { rows, k, r, descAfter, used, nameLines: [r] };
    for (const rule of NAME_RULES) {
      const nameRow = rule.find(ctx);
      if (!nameRow) continue;
      const x: FoundItem = { row: r, nameRow, nameLines: ctx.nameLines, reading, nameRule: rule.name };
      if (!MERGE_RULES.some((m) => m.merges(x, found, descAfter))) found.push(x);
      return;
    }
  });
  return found;
}

// ---------------------------------------------------------------------------------------------
// The sum: the items must add up to the subtotal or the total (tax-inclusive or not).

/** The items' sum, to the cent. */
const sumOf = (found: FoundItem[]) => Math.round(found.reduce((s, x) => s + x.reading.total, 0) * 100) / 100;

/** What the items' sum may equal, in the order tried: each named by what it is measured against. */
export const SUM_TARGETS: ReadonlyArray<{ against: string; value: (m: MoneyResolution) => number | undefined }> = [
  { against: 'subtotal', value: (m) => m.subtotal?.value },
  { against: 'total', value: (m) => m.total?.value },
  { against: 'total-rounding', value: (m) => (m.total && m.rounding ? m.total.value - m.rounding.value : undefined) },
  { against: 'total-tax', value: (m) => (m.total && m.tax ? m.total.value - m.tax.value : undefined) },
  { against: 'total+discount', value: (m) => (m.total && m.discount ? m.total.value + Math.abs(m.discount.value) : undefined) },
  { against: 'total-tax-rounding', value: (m) => (m.total && m.tax && m.rounding ? m.total.value - m.tax.value - m.rounding.value : undefined) },
];

/** The targets the money fields give, in SUM_TARGETS order. */
function sumTargets(money: MoneyResolution): Array<{ against: string; value: number }> {
  return SUM_TARGETS.flatMap((t) => { const value = t.value(money); return value === undefined ? [] : [{ against: t.against, value }]; });
}

/** What a recovery rule sees: the open item's numbers (no percentages), the amount it needs, the tolerance, whether its amount is garbled. */
export interface RecoveryContext { nums: Num[]; need: number; tol: number; garbled: boolean }

/** A reading the row supports: another reading of one of its numbers, else a count (1-99, printed whole) times a price it prints. */
function rowReading({ nums, need, tol }: RecoveryContext): Partial<Reading> | undefined {
  if (nums.some((n) => n.readings.some((v) => near(v, need, tol)))) return {};
  for (const q of nums) {
    if (!Number.isInteger(q.value) || q.value <= 0 || q.value > 99 || q.bare) continue;
    const u = nums.find((o) => o !== q && o.readings.some((v) => near(v * q.value, need, tol)));
    if (u) return { quantity: q.value, unitPrice: u.readings.find((v) => near(v * q.value, need, tol))!, qtyTok: q.tok, unitTok: u.tok };
  }
  return undefined;
}

/** The recovery rules, in order, each tried on every target: the first fix decides the open item's amount (what the target needs). */
export const RECOVERY_RULES: ReadonlyArray<{ name: string; fix: (ctx: RecoveryContext) => Partial<Reading> | undefined }> = [
  { name: 'row-reading', fix: rowReading },
  /** An unreadable amount (its last number not money): the remainder. */
  { name: 'garbled-remainder', fix: ({ garbled }) => (garbled ? {} : undefined) },
];

/** One item whose amount is unconfirmed, when the sum matches no target: the first recovery rule that fixes it to what a target needs; that target, else undefined. */
function recoverOpenItem(found: FoundItem[], targets: Array<{ against: string; value: number }>, tol: number): { against: string; value: number } | undefined {
  const open = found.filter((x) => !x.reading.confirmed);
  if (open.length !== 1) return undefined;
  const x = open[0]!;
  const rest = sumOf(found) - x.reading.total;
  const nums = [...x.row.lead, ...x.row.nums].filter((n) => !n.percent);
  const lastNum = x.row.nums[x.row.nums.length - 1];
  const garbled = !!lastNum && !lastNum.money;
  for (const rule of RECOVERY_RULES) {
    for (const t of targets) {
      const need = Math.round((t.value - rest) * 100) / 100;
      if (need <= 0) continue;
      const fix = rule.fix({ nums, need, tol, garbled });
      if (!fix) continue;
      x.reading = { ...x.reading, ...fix, total: need, confirmed: false };
      return t;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The line item.

/** The name's span: on an item row, with the numbers right after it that the arithmetic did not use ("Exchange 2010 3,89 3,89"). */
function itemName({ row, nameRow, reading }: FoundItem): Tok {
  const nm = nameRow.name ?? { text: nameRow.line.text.trim(), start: 0, end: nameRow.line.text.length };
  if (nameRow !== row || !row.name) return nm;
  const usedToks = new Set([reading.qtyTok, reading.unitTok, reading.totalTok].filter(Boolean));
  let end = nm.end;
  for (const n of row.nums) {
    if (usedToks.has(n.tok) || n.tok.start < end) break;
    if (!/^\d+$/.test(n.tok.text) || n.qtyMark || n.unit || !reading.confirmed) break;
    end = n.tok.end;
  }
  return end !== nm.end ? { text: row.line.text.slice(nm.start, end), start: nm.start, end } : nm;
}

/** What a confidence rule of an item sees: the item, its cleaned name, whether the items add up. */
export interface ItemConfidenceContext { x: FoundItem; nameText: string; matched: boolean }

/** The confidence terms of an item, added in this order to 0.55 (then kept within 0.05-0.95). */
export const ITEM_CONFIDENCE_RULES: ReadonlyArray<{ name: string; term: (ctx: ItemConfidenceContext) => number }> = [
  /** Quantity x unit price = amount, or a printed unit price equal to it: +0.2. */
  { name: 'confirmed', term: ({ x }) => (x.reading.confirmed ? 0.2 : 0) },
  /** The items add up to a target: +0.2. */
  { name: 'sum-matches', term: ({ matched }) => (matched ? 0.2 : 0) },
  /** A name of fewer than three letters: -0.25. */
  { name: 'short-name', term: ({ nameText }) => (lettersIn(nameText) < 3 ? -0.25 : 0) },
  /** The name's line read with OCR confidence below 0.6: -0.1. */
  { name: 'low-ocr', term: ({ x }) => (x.nameRow.line.confidence < 0.6 ? -0.1 : 0) },
];

/** The line item of a found item: name, quantity, unit price, amount, product code, confidence, its lines. */
function lineItemOf(x: FoundItem, matched: boolean): LineItem {
  const { row, nameRow, nameLines, reading } = x;
  const line = row.line;
  const nm = itemName(x);
  const nameText = cleanName(nm.text);
  const qty = reading.quantity ?? 1;
  const unit = reading.unitPrice ?? (qty ? Math.round((reading.total / qty) * 10000) / 10000 : reading.total);
  let conf = 0.55;
  for (const rule of ITEM_CONFIDENCE_RULES) conf += rule.term({ x, nameText, matched });
  const lines = [...new Set(nameLines.map((y) => y.line))].sort((a, b) => a.index - b.index);
  const codeRow = [row, nameRow].find((y) => y.code);
  return {
    name: part(nameText, nameRow.line, nm),
    quantity: part(qty, line, reading.qtyTok),
    unitPrice: part(unit, line, reading.unitTok),
    totalPrice: part(reading.total, line, reading.totalTok),
    ...(codeRow?.code ? { productCode: part(codeRow.code.text.replace(/[^\p{L}\p{N}-]/gu, '').replace(/-$/, ''), codeRow.line, codeRow.code) } : {}),
    confidence: roundConfidence(Math.max(0.05, Math.min(0.95, conf))),
    text: lines.map((l) => l.text).join('\n'),
    lineIndex: lines[0]!.index,
    lineIndices: lines.map((l) => l.index),
    page: line.page,
    boxes: lines.map((l) => l.box),
  };
}

function cleanName(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/\s\*\s?[A-Z§$]{0,2}$/, '').replace(/^[\s|{}[\]~_.,:;'"`°»«*§#-]+/, '').replace(/[\s|{}~_,:;'"`°»«*§#=-]+$/, '').trim() || s.trim();
}

const TAX_NAME_WORD = new RegExp(String.raw`\b(?:${TAX_ALTERNATION})\b`);
/** A tax summary row's type: a tax's name, a tax code, or a one-letter code. */
const TAX_TYPE = new RegExp(String.raw`\b(?:${TAX_ALTERNATION}|${wordAlternation('taxCodes')}|S|Z|T|E)\b`, 'i');

/** Tax summary rows (type, rate, net, tax, gross), from the tables the money finder found. */
export function findTaxLines(moneyFacts: MoneyFacts, locale: Locale): TaxLine[] {
  const out: TaxLine[] = [];
  const byIndex = new Map(moneyFacts.lines.map((f) => [f.line.index, f]));
  for (const r of moneyFacts.summaryRows) {
    const f = byIndex.get(r.lineIndex);
    if (!f) continue;
    // the table's own total row is not a tax line
    if (f.hits.some((h) => h.role === 'total') && !TAX_NAME_WORD.test(f.canon.replace(/\bTOTAL\b.*/, ''))) continue;
    const line = f.line;
    const pct = f.amounts.find((a) => a.percent);
    const typeMatch = line.text.match(TAX_TYPE);
    let rate = pct ? pct.value / 100 : undefined;
    if (rate === undefined) {
      const bare = line.text.match(/(?:^|\s)(\d{1,2}(?:[.,]\d{1,2})?)\s*(?:%|\s)/);
      const guess = bare ? Number(bare[1]!.replace(',', '.')) : NaN;
      if (Number.isFinite(guess) && guess > 0 && guess < 30 && near(r.net * guess / 100, r.tax, Math.max(0.02, r.tax * 0.02))) rate = guess / 100;
    }
    if (rate === undefined && r.net > 0 && r.tax >= 0) {
      const implied = r.tax / r.net;
      const common = [0, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.11, 0.12, 0.15, 0.16, 0.18, 0.19, 0.2, 0.21, 0.22, 0.25];
      const c = common.find((x) => near(x, implied, 0.003));
      if (c !== undefined) rate = c;
    }
    const gross = r.gross ?? (locale.wholeCurrency ? r.net + r.tax : Math.round((r.net + r.tax) * 100) / 100);
    out.push({
      taxType: typeMatch ? typeMatch[0].toUpperCase() : 'TAX',
      ...(rate !== undefined ? { taxRate: Math.round(rate * 10000) / 10000 } : {}),
      netAmount: r.net, taxAmount: r.tax, grossAmount: gross,
      confidence: roundConfidence(rate !== undefined && near(r.net * rate, r.tax, Math.max(0.02, r.tax * 0.02)) ? 0.85 : 0.6),
      text: line.text, lineIndex: line.index, page: line.page,
      boxes: r.amounts.map((a) => boxesForSpan(line, a.start, a.end)).flat(),
    });
  }
  return out;
}
