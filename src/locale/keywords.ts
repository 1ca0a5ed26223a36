/**
 * Keyword lexicon for the labels printed next to amounts (TOTAL, SUBTOTAL, GST, CASH, CHANGE, ...)
 * in many languages, and OCR-tolerant canonicalisation of words so that `T0TAL`, `TOTAI`, `fotal`,
 * `kounding` or `SUB-TOTAI` still read as the keywords they are.
 *
 * Rules run on *canonical* line text: upper case, accents folded, each word replaced by the lexicon
 * word it is an OCR variant of, punctuation-only tokens dropped, words joined by single spaces.
 */

import { LANGUAGES, TAX_ALTERNATION, wordAlternation } from './languages/index.js';

import type { AmountRole } from './roles.js';
export type { AmountRole } from './roles.js';

export interface RoleRule {
  role: AmountRole;
  /** How strongly the label names this role (totals: 3.5 final/grand, 3 qualified, 2.2 plain). */
  strength: number;
  re: RegExp;
  /** Total rules only: the label says the amount is final (after rounding/discount/tax). */
  final?: boolean;
}

/** Tax names of every language folder (languages/*). */
const TAXES = TAX_ALTERNATION;
/** A tax name anywhere in a line's canonical text ("INCL.BTW 6.00%" too, which the rules below read as a qualifier). */
export const TAX_NAME = new RegExp(String.raw`(?:^|[^A-Z])(?:${TAXES})(?![A-Z])`);
const CUR = String.raw`RM|MYR|RP|IDR|USD|EUR|SGD|INR|RS|GBP|AUD|CAD|CHF|JPY|PHP|THB|HKD|NZD`;
/** What may follow a total label and belongs to it: "INCL. 6% GST", "EXCL VAT", "(RM)". */
const TAIL = String.raw`(?:\s*(?:INCL\w*|INCLUSIVE|INC|EXCL\w*|EXCLUSIVE|WITH|W)\b(?:\s*OF)?(?:\s*@?\s*\d+(?:[.,]\d+)?\s*%)?(?:\s*(?:${TAXES})\b)?(?:\s*@?\s*\d+(?:[.,]\d+)?\s*%)?)?`;

/** What the phrases of the label lists may name besides a tax: a currency code, a total label's tail. */
const PARTS = { CUR, TAIL };

/** The labels of the language folders (languages/<code>: Vietnamese "TONG TIEN", "TIEN KHACH TRA", ...) as rules. */
const LANGUAGE_RULES: RoleRule[] = LANGUAGES.flatMap((l) => l.labels ?? []).map((x) => ({
  role: x.role, strength: x.strength, ...(x.final ? { final: true } : {}),
  re: new RegExp(String.raw`\b(?:${x.phrases.map((p) => p.replace(/ /g, String.raw`\s+`)).join('|')})\b`),
}));

/** Ordered by priority: an earlier rule's match wins over a later rule's overlapping match. */
export const ROLE_RULES: RoleRule[] = [
  // registration numbers, document titles, table headers: they claim the words, never an amount
  { role: 'info', strength: 0, re: new RegExp(String.raw`\b(?:(?:${TAXES})\s*(?:REG\w*|ID|NO|NUMBER|NUM|#|IDENTIFICATION|CODE|SUMMARY|ANALYSIS|RATE|DETAILS?|BREAKDOWN|%)|TAX\s*INVOICE|NPWP|USTID\w*|GSTIN|SIRET|SIREN|TAX\s*CODE|INVOICE\s*NO|DOC\s*NO|RECEIPT\s*NO|POS\s*NO|TERMINAL|TRANS\w*\s*NO|REF\w*\s*NO|TEL|FAX|PHONE|MEMBER\w*\s*(?:NO|ID|CARD)|CARD\s*NO|APPR\w*\s*CODE|AUTH\w*\s*CODE|BATCH|TRACE|STAN|RRN|TID|MID)\b`) },
  { role: 'quantity', strength: 1, re: new RegExp(String.raw`\b(?:${wordAlternation('quantityLabels', { inOrder: true, parts: PARTS })})\b`) },
  // the language folders' own labels: phrases no rule below spells
  ...LANGUAGE_RULES,
  { role: 'taxIncluded', strength: 1.5, re: new RegExp(String.raw`(?<!\b(?:TOTAL|AMOUNT|AMT|SALES|PRICE|PRICES|TOTAAL|SUMME|JUMLAH)\s)\b(?:(?:${TAXES})\s*(?:@?\s*\d+(?:[.,]\d+)?\s*%?\s*)?(?:INCLUDED|INCL\w*|INC)\b(?:\s*IN\s*(?:THE\s*)?TOTAL)?|TOTAL\s*INCLUDE[SD]?\s*(?:@?\s*\d+(?:[.,]\d+)?\s*%?\s*)?(?:${TAXES})|INCLUDES?\s*(?:@?\s*\d+(?:[.,]\d+)?\s*%?\s*)?(?:${TAXES})|INCLUSIVE\s*OF\s*(?:${TAXES})\s*(?:AMOUNT|OF)?|INCLUDED\s*IN\s*(?:THE\s*)?TOTAL|(?:${TAXES})\s+[A-Z]{5,10}\s+IN\s+(?:THE\s+)?TOTAL|(?:DONT|DONT\s*TVA|DAVON|DAARVAN|INKL|ENTHALTEN)\s*(?:${TAXES})?)\b`) },
  // totals that say they are final
  { role: 'total', strength: 3.5, final: true, re: new RegExp(String.raw`\b(?:${wordAlternation('finalTotalLabels', { inOrder: true, parts: PARTS })})${TAIL}\b|合計|总计|合计|総計|รวมทั้งสิ้น|ยอดสุทธิ`) },
  { role: 'subtotal', strength: 2, re: new RegExp(String.raw`\b(?:${wordAlternation('subtotalLabels', { inOrder: true, parts: PARTS })})\b`) },
  { role: 'taxBase', strength: 1.5, re: new RegExp(String.raw`\b(?:${wordAlternation('taxBaseLabels', { inOrder: true })})\b`) },
  { role: 'rounding', strength: 2, re: new RegExp(String.raw`\b(?:${wordAlternation('roundingLabels', { inOrder: true })})\b`) },
  { role: 'change', strength: 2, re: new RegExp(String.raw`\b(?:${wordAlternation('changeLabels', { inOrder: true })})\b`) },
  { role: 'tip', strength: 2, re: new RegExp(String.raw`\b(?:${wordAlternation('tipLabels', { inOrder: true })})\b`) },
  { role: 'tax', strength: 2.2, re: new RegExp(String.raw`\b(?:${wordAlternation('taxLabels', { inOrder: true, parts: PARTS })})\b`) },
  { role: 'service', strength: 2, re: new RegExp(String.raw`\b(?:${wordAlternation('serviceLabels', { inOrder: true })})\b`) },
  { role: 'discount', strength: 2, re: new RegExp(String.raw`\b(?:${wordAlternation('discountLabels', { inOrder: true })})\b`) },
  { role: 'paid', strength: 1.8, re: new RegExp(String.raw`\b(?:${wordAlternation('paidLabels', { inOrder: true })}|VISA|MASTER\s*CARD|MASTERCARD|MASTER|AMEX|GOPAY|OVO|DANA|QRIS|SHOPEEPAY|SHOPEE\s*PAY|GRABPAY|GRAB\s*PAY|GRABFOOD|GOFOOD|SHOPEEFOOD|TNG|BOOST|GIROCARD|NETS|EFTPOS|BCA|MANDIRI|BNI|BRI|FLAZZ|E\s*MONEY|UPI|PAYTM|PHONEPE|GPAY)\b`) },
  { role: 'deposit', strength: 1, re: new RegExp(String.raw`\b(?:${wordAlternation('depositLabels', { inOrder: true })})\b`) },
  { role: 'points', strength: 1, re: new RegExp(String.raw`\b(?:${wordAlternation('pointsLabels', { inOrder: true })})\b`) },
  { role: 'balance', strength: 1.2, re: new RegExp(String.raw`\b(?:${wordAlternation('balanceLabels', { inOrder: true })})\b`) },
  // "@" between a count and a price ("2@3.50"); not glued to a word, where it is a tax's rate ("TOTAL INCL. GST@6%")
  { role: 'unitPrice', strength: 1, re: new RegExp(String.raw`\b(?:${wordAlternation('unitPriceLabels', { inOrder: true })}|(?<=\d)@)\b`) },
  // totals with a qualifier, then the bare word
  { role: 'total', strength: 3, re: new RegExp(String.raw`\b(?:${wordAlternation('totalLabels', { inOrder: true, parts: PARTS })})\b`) },
  { role: 'total', strength: 2.2, re: new RegExp(String.raw`\b(?:(?:TOTAL|TOTALS|TTL|TOT|GRAND)${TAIL}|AMOUNT|AMT)\b|รวม`) },
  { role: 'qualifier', strength: 0, re: new RegExp(String.raw`\b(?:INCL\w*|INCLUSIVE|INC|EXCL\w*|EXCLUSIVE|EX|WITH|W\s*O|WITHOUT|INKL|ZZGL|HT|TTC)\b(?:\s*OF)?(?:\s*@?\s*\d+(?:[.,]\d+)?\s*%)?(?:\s*(?:${TAXES})\b)?(?:\s*@?\s*\d+(?:[.,]\d+)?\s*%)?`) },
  // a tax's name, also run into its rate by a reader that drops spaces ("GST7% $6.72", "TVA20% 1.00")
  { role: 'tax', strength: 1.2, re: new RegExp(String.raw`\b(?:${TAXES})(?:\b|(?=\d{1,2}(?:[.,]\d{1,3})?\s*%))`) },
];

/** ROLE_RULES with global regexes, compiled once (reset `lastIndex` before use). */
export const ROLE_RULES_GLOBAL: ReadonlyArray<RoleRule & { g: RegExp }> = ROLE_RULES.map((r) => ({ ...r, g: new RegExp(r.re.source, 'g' + r.re.flags.replace('g', '')) }));

/** Lexicon words that OCR variants are mapped back to (upper case, accent-free). */
export const KEYWORD_VOCABULARY: readonly string[] = [
  'TOTAL', 'SUBTOTAL', 'GRAND', 'AMOUNT', 'ROUNDING', 'ROUNDED', 'ROUND', 'ADJUSTMENT', 'CHANGE', 'CASH', 'TENDERED', 'TENDER',
  'PAYABLE', 'PAYMENT', 'INCLUSIVE', 'INCLUDING', 'INCLUDED', 'EXCLUSIVE', 'EXCLUDING', 'DISCOUNT', 'SALES', 'BALANCE', 'SERVICE',
  'CHARGE', 'QUANTITY', 'TUNAI', 'KEMBALI', 'KEMBALIAN', 'BELANJA', 'JUMLAH', 'HARGA', 'BAYAR', 'PEMBULATAN', 'DISKON', 'POTONGAN',
  'SUMME', 'GESAMT', 'BETRAG', 'TOTAAL', 'MONTANT', 'NETT', 'ITEMS', 'INVOICE', 'RECEIPT', 'PAID', 'AFTER', 'BEFORE', 'DUE',
  'CREDIT', 'DEBIT', 'VISA', 'MASTERCARD', 'GRATUITY', 'SAVINGS', 'TAGIHAN', 'PEMBAYARAN', 'DIBAYAR', 'SUMMARY', 'ITEM', 'COUNT',
  'GST', 'SST', 'TAX', 'PPN', 'VAT', 'TVA', 'MWST', 'QTY', 'RM', 'ADJ', 'INCL', 'EXCL', 'ACCEPTED', 'RECEIVED', 'SUPPLIES',
  'CAMBIO', 'EFECTIVO', 'ENTREGADO',
  // Vietnamese label words ("Khach phal tra", "lien mat"); DONG, the currency's word, stays itself
  'PHAI', 'KHACH', 'TIEN', 'TONG', 'CONG', 'TOAN', 'DONG',
];

const CONFUSABLE_GROUPS = ['O0DQCG', 'I1L|TJ!', 'S5$', 'B83E', 'MNHW', 'UV', 'A4', 'Z2', 'G6', 'FTP', 'KR', 'CE', 'RN'];
const CONFUSABLE_PAIRS: ReadonlySet<string> = new Set(CONFUSABLE_GROUPS.flatMap((g) => [...g].flatMap((a) => [...g].map((b) => a + b))));
const confusable = (a: string, b: string) => CONFUSABLE_PAIRS.has(a + b);

/** Edit distance with a cap (early exit), on short strings. */
export function editDistance(a: string, b: string, cap = 3): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const sub = a[i - 1] === b[j - 1] ? 0 : confusable(a[i - 1]!, b[j - 1]!) ? 0.6 : 1;
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + sub);
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > cap) return cap + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Folds accents and upper-cases. */
export function foldText(s: string): string {
  // đ has no decomposition: Vietnamese "Đơn giá" folds to DON GIA
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[đĐ]/g, 'D').toUpperCase();
}

const DIGIT_AS_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '5': 'S', '8': 'B', '4': 'A', '$': 'S', '|': 'I', '!': 'I', '€': 'E', '6': 'G', '2': 'Z', '7': 'T' };
const canonCache = new Map<string, string>();
/** Entries kept by canonicalWord's cache at most (then it starts again). */
export const CANON_CACHE_MAX = 20_000;
/** Entries in canonicalWord's cache now (for tests). */
export const canonCacheSize = (): number => canonCache.size;
const VOCAB_SET = new Set(KEYWORD_VOCABULARY);

/**
 * The lexicon word an OCR'd token stands for, or the token itself (folded, edge punctuation removed).
 * Only tokens of 4+ letters are corrected, by a confusion-aware edit distance: <= 1 for 4-6 letters
 * (<= 0.6 for 4 letters, i.e. one look-alike substitution), <= 1.6 for 7+.
 */
export function canonicalWord(token: string): string {
  const cached = canonCache.get(token);
  if (cached !== undefined) return cached;
  let t = foldText(token).replace(/^[^\p{L}\p{N}%@&$|!]+|[^\p{L}\p{N}%@&$|!]+$/gu, '');
  // letters spelt out with points: "V.A.T", "G.S.T." are VAT, GST
  if (/^(?:\p{L}\.){2,}\p{L}?$/u.test(t)) t = t.replace(/\./g, '');
  const letters = (t.match(/\p{L}/gu) ?? []).length;
  const lookalikes = (t.match(/[0158647$|!€2]/g) ?? []).length;
  if (lookalikes && letters >= 2 && letters >= lookalikes && /^[\p{L}0158647$|!€2]+$/u.test(t)) {
    // a word with digits standing in for letters: T0TAL, TOTA1, 5UBTOTAL, 10TAL
    t = t.replace(/[0158647$|!€2]/g, (c) => DIGIT_AS_LETTER[c] ?? c);
  }
  let out = t;
  if (!VOCAB_SET.has(t) && /^[A-Z]{4,}$/.test(t)) {
    let best = '', bestD = 9;
    const first = t[0]!, last = t[t.length - 1]!;
    for (const w of KEYWORD_VOCABULARY) {
      if (Math.abs(w.length - t.length) > (w.length >= 7 ? 2 : 1) || w.length < 4) continue;
      // cheap filter: one end of the word must agree (up to a look-alike)
      if (w[0] !== first && w[w.length - 1] !== last && !confusable(w[0]!, first) && !confusable(w[w.length - 1]!, last)) continue;
      const d = editDistance(t, w, 2);
      const limit = w.length <= 4 ? (t.length > w.length ? 1 : 0.6) : w.length <= 6 ? 1 : 1.6;
      if (d <= limit && d < bestD) { best = w; bestD = d; }
    }
    if (best) out = best;
  }
  // bounded: a long run sees ever new tokens (OCR noise); the cache must not grow with them
  if (canonCache.size >= CANON_CACHE_MAX) canonCache.clear();
  canonCache.set(token, out);
  return out;
}
