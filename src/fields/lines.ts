/**
 * Line analysis shared by the money finders: OCR-tolerant keyword hits (TOTAL, GST, CASH, ...) and
 * the amounts of each line, each amount given the role of the label printed before it (on the same
 * line, or on the line above when the value stands alone below its label).
 */
import type { Document, Line } from '../document/types.js';
import type { Locale } from '../locale/index.js';
import { ROLE_RULES_GLOBAL, canonicalWord, foldText } from '../locale/keywords.js';
import type { AmountRole } from '../locale/keywords.js';
import { amountsInLine } from './numbers.js';
import type { Amount } from './numbers.js';

export interface KeywordHit {
  role: AmountRole;
  strength: number;
  /** Total labels that say the amount is final (grand total, after rounding, amount due). */
  final: boolean;
  /** The canonical keyword text (e.g. `GRAND TOTAL`). */
  keyword: string;
  /** Character span in the original line text. */
  start: number;
  end: number;
  /** Some word of it was an OCR variant (T0TAL, kounding). */
  fuzzy: boolean;
}

export interface AmountLabel {
  role: AmountRole;
  strength: number;
  final: boolean;
  keyword: string;
  fuzzy: boolean;
  /** The label is on the line above. */
  fromLineAbove: boolean;
}

export interface LineFacts {
  line: Line;
  /** Canonical text (upper case, OCR variants of keywords corrected). */
  canon: string;
  hits: KeywordHit[];
  amounts: Amount[];
  /** Label of each amount (same order as `amounts`), undefined when unlabelled. */
  labels: Array<AmountLabel | undefined>;
}

interface Token { start: number; end: number; canon: string; fuzzy: boolean; canonStart: number }

const GLUED_TOTAL = /^\p{L}{3,}TOTAL$/iu;
/**
 * An amount run into the next label, as PaddleOCR reads a line without its spaces ("200,00eCanbio:
 * 76,00", the € read as e): split before the capitalised word. Only after an amount: "TotalAmount:
 * 49.60" split into a second total label took a subtotal for the total on a SROIE scan.
 */
const GLUED_WORD = /(?<=\d[.,]?\d*\p{Ll}?)(?=\p{Lu}\p{Ll}{2,})/u;

/** Splits a line into word tokens (also at brackets, colons and letter-hyphen-letter), canonicalised. */
export function tokenize(text: string): { canon: string; tokens: Token[] } {
  const tokens: Token[] = [];
  const re = /[^\s(){}[\]:;=|]+/g;
  let m: RegExpExecArray | null;
  let canon = '';
  while ((m = re.exec(text))) {
    // split letter-hyphen-letter and letter/letter ("Sub-total", "S/C") into parts
    const pieces: Array<{ s: string; at: number }> = [];
    const partRe = /[^-/]+|[-/]/g;
    let p: RegExpExecArray | null;
    const word = m[0];
    if (/\p{L}[-/]\p{L}/u.test(word) && !/^\d/.test(word)) {
      while ((p = partRe.exec(word))) if (!/^[-/]$/.test(p[0])) pieces.push({ s: p[0], at: m.index + p.index });
    } else if (GLUED_TOTAL.test(word) && !/^(?:SUB|GRAND)/i.test(word)) {
      // a word run into TOTAL, as PaddleOCR reads a line without its spaces ("RECEIPTTOTAL", "OrderTotal")
      const cut = word.length - 5;
      pieces.push({ s: word.slice(0, cut), at: m.index }, { s: word.slice(cut), at: m.index + cut });
    } else if (/^\d/.test(word) && GLUED_WORD.test(word)) {
      let at = 0;
      for (const part of word.split(GLUED_WORD)) { pieces.push({ s: part, at: m.index + at }); at += part.length; }
    } else pieces.push({ s: word, at: m.index });
    for (const piece of pieces) {
      const c = canonicalWord(piece.s);
      if (!c) continue;
      const plain = foldText(piece.s).replace(/^[^\p{L}\p{N}%@&$|!]+|[^\p{L}\p{N}%@&$|!]+$/gu, '');
      const canonStart = canon.length ? canon.length + 1 : 0;
      canon = canon.length ? `${canon} ${c}` : c;
      tokens.push({ start: piece.at, end: piece.at + piece.s.length, canon: c, fuzzy: c !== plain, canonStart });
    }
  }
  return { canon, tokens };
}

/** Keyword hits of a line: each rule in priority order claims the words it matches. */
export function keywordHits(text: string): { canon: string; hits: KeywordHit[] } {
  const { canon, tokens } = tokenize(text);
  const claimed = new Array<boolean>(tokens.length).fill(false);
  const hits: KeywordHit[] = [];
  const tokenAt = (pos: number) => {
    let idx = -1;
    for (let i = 0; i < tokens.length; i++) if (tokens[i]!.canonStart <= pos) idx = i;
    return idx;
  };
  if (!canon) return { canon, hits };
  for (const rule of ROLE_RULES_GLOBAL) {
    const re = rule.g;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(canon))) {
      if (!m[0]) { re.lastIndex++; continue; }
      const a = tokenAt(m.index), b = tokenAt(m.index + m[0].length - 1);
      if (a < 0 || b < 0) continue;
      let free = true;
      for (let i = a; i <= b; i++) if (claimed[i]) free = false;
      if (!free) continue;
      for (let i = a; i <= b; i++) claimed[i] = true;
      hits.push({
        role: rule.role, strength: rule.strength, final: !!rule.final, keyword: m[0].trim(),
        start: tokens[a]!.start, end: tokens[b]!.end, fuzzy: tokens.slice(a, b + 1).some((t) => t.fuzzy),
      });
    }
  }
  hits.sort((x, y) => x.start - y.start);
  return { canon, hits };
}

/** Roles whose label names one value only; later amounts on the line go back to the label before it. */
const CLAIMS_ONE: ReadonlySet<AmountRole> = new Set(['quantity', 'unitPrice', 'info', 'points']);

/** Roles whose label may follow its amount at the start of a line ("R35.42 V.A.T Included @ 14%", "1.64 Food BTW 6% 28.95"). */
const LABEL_AFTER_ROLES: ReadonlySet<AmountRole> = new Set(['tax', 'taxIncluded', 'subtotal']);
/** ...when the label starts at most this many characters after the amount (one short word between). */
const LABEL_AFTER_GAP = 12;

/**
 * The label of a line's first amount printed ahead of it: the amount opens the line (a currency sign
 * before it at most), money with its cents, and a tax or net label follows within LABEL_AFTER_GAP
 * characters, as tills that print the amount first do ("R252.98 Total Excl", "6.00 VAT TTL 40.50").
 */
function labelAfter(hits: KeywordHit[], a: Amount): KeywordHit | undefined {
  if (!a.moneyLike || a.percent || a.start > 2 || !/[.,]\d{2}$/.test(a.text)) return undefined;
  return hits.find((h) => h.start >= a.end && h.start - a.end <= LABEL_AFTER_GAP && LABEL_AFTER_ROLES.has(h.role));
}

function labelFor(hits: KeywordHit[], amounts: Amount[], idx: number): AmountLabel | undefined {
  const a = amounts[idx]!;
  const after = idx === 0 ? labelAfter(hits, a) : undefined;
  if (after) return { role: after.role, strength: after.strength, final: after.final, keyword: after.keyword, fuzzy: after.fuzzy, fromLineAbove: false };
  // the label starts before the amount (a currency word such as RM may be part of both)
  const before = hits.filter((h) => h.start < a.start && h.end <= a.end && h.role !== 'qualifier');
  for (let k = before.length - 1; k >= 0; k--) {
    const h = before[k]!;
    if (CLAIMS_ONE.has(h.role)) {
      // does an earlier amount after this hit already take it?
      const taken = amounts.some((o, j) => j < idx && o.start >= h.end && !o.percent);
      if (taken) continue;
      // a count is a whole number: a signed money amount after "ITEM" belongs to another label
      if (h.role === 'quantity' && a.moneyLike && (a.negative || !/[.,]0+$/.test(a.text))) continue;
    }
    return { role: h.role, strength: h.strength, final: h.final, keyword: h.keyword, fuzzy: h.fuzzy, fromLineAbove: false };
  }
  return undefined;
}

/** Analyses every line of the document. */
export function analyseLines(doc: Document, locale: Locale): LineFacts[] {
  const facts: LineFacts[] = doc.lines.map((line) => {
    const { canon, hits } = keywordHits(line.text);
    const amounts = amountsInLine(line, locale);
    const labels = amounts.map((_, i) => labelFor(hits, amounts, i));
    return { line, canon, hits, amounts, labels };
  });
  // a value alone on its line below a label line without a value ("Total" / "43.000")
  for (let i = 1; i < facts.length; i++) {
    const f = facts[i]!, prev = facts[i - 1]!;
    if (f.line.page !== prev.line.page || !f.amounts.length || f.hits.length) continue;
    const money = prev.amounts.filter((a) => a.moneyLike);
    const label = prev.hits.filter((h) => !CLAIMS_ONE.has(h.role) && h.role !== 'qualifier').pop();
    // a table header (several column labels) is not the label of the row below
    if (!label || money.length || prev.hits.length > 2 || f.amounts.length > 1) continue;
    const letters = (f.line.text.match(/\p{L}/gu) ?? []).length;
    if (letters > 4) continue;
    f.labels = f.labels.map((l) => l ?? { role: label.role, strength: label.strength, final: label.final, keyword: label.keyword, fuzzy: label.fuzzy, fromLineAbove: true });
  }
  return facts;
}
