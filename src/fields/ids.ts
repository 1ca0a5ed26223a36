/**
 * Invoice and receipt numbers: a keyword (many languages) followed by an id-like token on the same
 * line, on the next line, or below it in the same column (invoice header tables).
 */
import type { Box, Document, Line } from '../document/types.js';
import { parseDates } from '../locale/dates.js';
import { boxesForSpan, fold } from './text.js';
import type { Located } from './types.js';
import { roundConfidence } from './confidence.js';
import { wordAlternation } from '../locale/languages/index.js';

const NUMBERS = wordAlternation('numberWords');
const NUMBER_WORD = String.raw`(?:\s*(?:${NUMBERS}|N|ID|REF))?`;

interface IdRule { kind: 'invoice' | 'receipt'; strength: number; re: RegExp }

/** Patterns on folded text; the match ends where the value may start. */
const ID_RULES: IdRule[] = [
  { kind: 'invoice', strength: 3, re: new RegExp(String.raw`\b(?:${wordAlternation('invoiceWords')})\s*(?:${NUMBERS}|N)\s*\.?`, 'g') },
  { kind: 'invoice', strength: 3, re: new RegExp(String.raw`\b(?:${wordAlternation('invoiceNumberLabels')})\b\.?`, 'g') },
  { kind: 'receipt', strength: 2.5, re: new RegExp(String.raw`\b(?:${wordAlternation('receiptWords')})\s*(?:${NUMBERS}|ID|CODE)\s*\.?`, 'g') },
  { kind: 'receipt', strength: 2, re: new RegExp(String.raw`\b(?:${wordAlternation('receiptNumberLabels')})\b\.?`, 'g') },
  { kind: 'receipt', strength: 2, re: new RegExp(String.raw`\b(?:${wordAlternation('receiptLabels')})\s*[:#]`, 'g') },
  // a bare document word followed by an id ("Invoice INV/2023/03/0008", "Facture 2022089083", "# invoice_number_1")
  { kind: 'invoice', strength: 2, re: new RegExp(String.raw`\b(?:${wordAlternation('documentWords')})${NUMBER_WORD}\b`, 'g') },
  { kind: 'invoice', strength: 1.5, re: /^\s*#(?=\s*\S*\d)/g },
];

/** Words that follow a keyword but are not its value. */
const NOT_VALUE = new RegExp(String.raw`^(?:${wordAlternation('notValue')}|N°|#|:|-)$`, 'i');
const TOKEN = /^[#:.\s°-]*([A-Z0-9][A-Z0-9\-_/.]*[A-Z0-9]|[0-9])/i;

interface Found { value: string; kind: 'invoice' | 'receipt'; strength: number; line: Line; start: number; keyword: string; where: 'same' | 'next' | 'column' }

function validId(v: string): boolean {
  const digits = (v.match(/\d/g) ?? []).length;
  if (digits < 1) return false;
  if (digits < 3 && v.length < 4) return false;
  if (/^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$/.test(v)) return false; // a date
  if (/^\d+[.,]\d{2}$/.test(v)) return false; // an amount
  if (/^\d{1,2}:\d{2}/.test(v)) return false; // a time
  if (parseDates(v, true, 2200).some((d) => d.start === 0 && d.end === v.length)) return false;
  return true;
}

function valueAt(text: string, from: number): { value: string; start: number } | undefined {
  let rest = text.slice(from);
  let offset = from;
  // skip filler words ("No.", ":", "#") between the keyword and the value
  for (let k = 0; k < 3; k++) {
    const w = /^[\s:#.°-]*([^\s]+)/.exec(rest);
    if (!w) return undefined;
    if (NOT_VALUE.test(w[1]!.replace(/[.:]$/, ''))) { offset += w[0].length; rest = rest.slice(w[0].length); continue; }
    break;
  }
  const m = TOKEN.exec(rest);
  if (!m) return undefined;
  const value = m[1]!.replace(/[.\-/]+$/, '');
  if (!validId(value)) return undefined;
  return { value, start: offset + m.index + m[0].indexOf(m[1]!) };
}

/** The token of `line` below a keyword span of the line above (same column). */
function valueBelow(line: Line, keywordBoxes: Box[]): { value: string; start: number } | undefined {
  const kx0 = Math.min(...keywordBoxes.map((b) => b.x0)), kx1 = Math.max(...keywordBoxes.map((b) => b.x1));
  let pos = 0;
  for (const w of line.words) {
    const at = line.text.indexOf(w.text, pos);
    pos = at + w.text.length;
    const overlap = Math.min(kx1, w.box.x1) - Math.max(kx0, w.box.x0);
    if (overlap > 0 || Math.abs(w.box.x0 - kx0) < (kx1 - kx0) * 0.5) {
      const m = TOKEN.exec(w.text);
      if (m && validId(m[1]!.replace(/[.\-/]+$/, ''))) return { value: m[1]!.replace(/[.\-/]+$/, ''), start: at + m.index + m[0].indexOf(m[1]!) };
      return undefined;
    }
  }
  return undefined;
}

function findAll(doc: Document): Found[] {
  const out: Found[] = [];
  for (const line of doc.lines) {
    const t = fold(line.text);
    const claimed: Array<[number, number]> = [];
    for (const rule of ID_RULES) {
      rule.re.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = rule.re.exec(t))) {
        const s = m.index, e = m.index + m[0].length;
        if (!m[0].length) { rule.re.lastIndex++; continue; }
        if (claimed.some(([a, b]) => s < b && a < e)) continue;
        claimed.push([s, e]);
        const keyword = line.text.slice(s, e).trim() || '#';
        const same = valueAt(line.text, e);
        if (same) { out.push({ ...same, kind: rule.kind, strength: rule.strength, line, keyword, where: 'same' }); continue; }
        const next = doc.lines[line.index + 1];
        if (!next || next.page !== line.page) continue;
        // the label alone at the end of its line: the value is on the next line, or below in the same column
        const below = valueBelow(next, boxesForSpan(line, s, e));
        if (below) { out.push({ ...below, kind: rule.kind, strength: rule.strength - 0.5, line: next, keyword, where: 'column' }); continue; }
        if (!t.slice(e).trim()) {
          const v = valueAt(next.text, 0);
          if (v) out.push({ ...v, kind: rule.kind, strength: rule.strength - 0.7, line: next, keyword, where: 'next' });
        }
      }
    }
  }
  return out;
}

function located(f: Found): Located<string> {
  const confidence = Math.min(0.9, 0.45 + 0.12 * f.strength + (f.where === 'same' ? 0.05 : 0));
  return {
    value: f.value, confidence: roundConfidence(confidence), text: f.line.text, lineIndex: f.line.index, keyword: f.keyword,
    boxes: boxesForSpan(f.line, f.start, f.start + f.value.length), page: f.line.page,
  };
}

export function findIds(doc: Document): { invoiceNumber?: Located<string>; receiptNumber?: Located<string> } {
  const all = findAll(doc);
  const pick = (kind: 'invoice' | 'receipt') => all.filter((f) => f.kind === kind).sort((a, b) => b.strength - a.strength || a.line.index - b.line.index)[0];
  const out: { invoiceNumber?: Located<string>; receiptNumber?: Located<string> } = {};
  const inv = pick('invoice');
  if (inv) out.invoiceNumber = located(inv);
  const rec = pick('receipt');
  if (rec && (!inv || rec.value !== inv.value)) out.receiptNumber = located(rec);
  return out;
}
