/**
 * Number conventions: parsing a printed number under the document's conventions (decimal comma or
 * point, thousands grouping with `.`, `,`, `'` or spaces, whole currencies such as rupiah), after
 * validating that the text really is a number, and repairing the usual OCR confusions in digit runs.
 */

import { MONTHS } from './lexicon.js';

export interface NumberConventions {
  /** Decimal comma (`12,50`); undefined when unknown. */
  decimalComma?: boolean;
  /** Whole currency units: a separator before exactly three digits is grouping (`43.000`). */
  wholeCurrency?: boolean;
}

export interface ParsedNumber {
  value: number;
  /** Digits after the decimal separator (0 when none). */
  decimals: number;
  /** Thousands grouping was present. */
  grouped: boolean;
  /** The reading needed a guess the conventions did not settle (e.g. `1.234` with unknown conventions). */
  ambiguous: boolean;
}

const GROUP_SEP = /[.,'’\u00a0\u202f ]/;

/**
 * Parses a printed number: `1.234,56`, `1,234.56`, `1 234,56`, `3 038,14`, `1'234.50`, `43.000`
 * (whole currency), `12,50` (decimal comma), `31. 60` (OCR space after the point). Returns undefined
 * unless the text is digits and separators in a valid arrangement (so `0A19`, `1.2.3` or `12,3456` fail).
 */
export function parseNumber(raw: string, conv: NumberConventions = {}): ParsedNumber | undefined {
  let s = raw.trim().replace(/[\u00a0\u202f]/g, ' ');
  // a space right after a separator is OCR noise ("31. 60", "40, 900")
  s = s.replace(/([.,])\s+(?=\d)/g, '$1');
  if (!/^\d[\d.,'’ ]*$/.test(s) || !/\d$/.test(s)) return undefined;
  // split on separators, remembering each one
  const parts = s.split(/[.,'’ ]/);
  const seps = s.match(/[.,'’ ]/g) ?? [];
  if (parts.some((p) => p === '')) return undefined; // doubled separators
  if (!seps.length) return { value: Number(s), decimals: 0, grouped: false, ambiguous: false };
  const last = parts[parts.length - 1]!;
  const lastSep = seps[seps.length - 1]!;
  const groupsValid = (groups: string[]) => groups.length > 0 && groups[0]!.length >= 1 && groups[0]!.length <= 3 && groups.slice(1).every((g) => g.length === 3);
  const build = (intDigits: string, frac: string, grouped: boolean, ambiguous = false): ParsedNumber | undefined => {
    const v = Number(`${intDigits}${frac ? '.' + frac : ''}`);
    return Number.isFinite(v) ? { value: v, decimals: frac.length, grouped, ambiguous } : undefined;
  };

  if (seps.length === 1) {
    const [a, b] = parts as [string, string];
    if (lastSep === ' ') {
      // "3 038": only grouping
      return b.length === 3 && a.length <= 3 ? build(a + b, '', true) : undefined;
    }
    if (lastSep === "'" || lastSep === '’') return b.length === 3 && a.length <= 3 ? build(a + b, '', true) : undefined;
    if (b.length === 3) {
      if (a.length > 3 || a === '0') {
        // 1234.567 or 0,125: not grouping; a 3-decimal number
        return conv.wholeCurrency ? undefined : build(a, b, false, true);
      }
      if (conv.wholeCurrency) return build(a + b, '', true);
      // is this separator the decimal one under the conventions?
      const sepIsDecimal = conv.decimalComma === undefined ? undefined : (lastSep === ',') === conv.decimalComma;
      if (sepIsDecimal === true) return build(a, b, false);
      if (sepIsDecimal === undefined && lastSep === '.') return build(a, b, false, true);
      return build(a + b, '', true, sepIsDecimal === undefined);
    }
    if (b.length <= 2 || (b.length > 3 && !conv.wholeCurrency && b.length <= 4)) {
      // decimal part (1-2 digits normally; 4 decimals appear on unit prices)
      return build(a, b, false, b.length > 2);
    }
    return undefined;
  }

  // several separators: the last one may be the decimal separator
  const distinct = new Set(seps.map((c) => (c === '’' ? "'" : c)));
  if (distinct.size === 1 && lastSep !== ' ') {
    // 1.234.567 (grouping) or OCR 1.234.56
    if (groupsValid(parts)) return build(parts.join(''), '', true);
    return undefined;
  }
  // mixed: everything before the last separator must be grouping
  const intGroups = parts.slice(0, -1);
  const groupSeps = new Set(seps.slice(0, -1).map((c) => (c === '’' ? "'" : c)));
  if (groupSeps.size !== 1 || groupSeps.has(lastSep)) {
    if (!(groupSeps.size === 1 && lastSep === ' ')) return undefined;
  }
  if (lastSep === ' ') {
    // "1 234 567": spaces only as grouping (handled above); "1.234 567" is junk
    return undefined;
  }
  if (!groupsValid(intGroups)) return undefined;
  if (last.length === 3) {
    // 1,234.567: grouping then 3 decimals is only plausible as all grouping with mixed separators (1 234.567 no)
    return conv.wholeCurrency ? undefined : build(intGroups.join(''), last, true, true);
  }
  if (last.length > 2) return undefined;
  return build(intGroups.join(''), last, true);
}

/** OCR look-alikes of digits, used only inside runs that are already mostly digits. */
const DIGIT_LOOKALIKE: Record<string, string> = { O: '0', o: '0', Q: '0', D: '0', U: '0', l: '1', I: '1', '|': '1', i: '1', '!': '1', ']': '1', S: '5', s: '5', B: '8', Z: '2', z: '2', g: '9', q: '9', G: '6', b: '6', A: '4', T: '7' };

/**
 * Replaces digit look-alikes (O->0, l/I->1, S->5, B->8, ...) inside runs of text that are mostly digits
 * and separators, keeping the string length (so offsets still point at the original text).
 * A run is repaired only when it has at least two real digits and more digits than look-alikes.
 */
export function repairDigitRuns(text: string): { text: string; repairs: Array<{ start: number; end: number }> } {
  const repairs: Array<{ start: number; end: number }> = [];
  const out = text.replace(/[0-9OoQDUlI|i!\]SsBZzgqGbAT][0-9OoQDUlI|i!\]SsBZzgqGbAT.,]*[0-9OoQDUlI|i!\]SsBZzgqGbAT]/g, (run, offset: number) => {
    const real = (run.match(/\d/g) ?? []).length;
    const look = (run.match(/[^\d.,]/g) ?? []).length;
    if (!look || real < 2 || look > real) return run;
    // the run must stand alone (not part of a word) to be a number
    const before = text[offset - 1] ?? ' ';
    const after = text[offset + run.length] ?? ' ';
    if (/\p{L}/u.test(before) || /\p{L}/u.test(after)) return run;
    // a date with its month name between the digits ("16AUG2015"): the letters are the month, not digits
    const letters = /\d([A-Za-z]{3,})\d/.exec(run);
    if (letters && MONTHS[letters[1]!.toLowerCase()] !== undefined) return run;
    // a look-alike letter at the edge next to a letter-like context is more likely a word
    if (!/\d/.test(run[0]!) && !/\d/.test(run[run.length - 1]!) && look > 1) return run;
    // a trailing single letter after a complete amount is usually a tax code ("9.90S"), not a digit
    if (/[.,]\d{2}[A-Za-z]$/.test(run)) return run;
    // bars and brackets at the edges are table rules, not ones
    const lead = run.length - run.replace(/^[|!\]]+/, '').length;
    const trail = run.length - run.replace(/[|!\]]+$/, '').length;
    const core = run.slice(lead, run.length - trail);
    if (!/[^\d.,]/.test(core)) return run;
    repairs.push({ start: offset + lead, end: offset + run.length - trail });
    return run.slice(0, lead) + core.replace(/[^\d.,]/g, (c) => DIGIT_LOOKALIKE[c] ?? c) + run.slice(run.length - trail);
  });
  return { text: out, repairs };
}

/** Rounds to cents without binary noise. */
export function cents(v: number): number {
  return Math.round(v * 100) / 100;
}

/** Plain digit variants of an amount string under single-digit OCR confusions (8<->6/3/0/9, 5<->6, 1<->7, ...). */
const CONFUSED_DIGIT_PAIRS = ['08', '06', '09', '17', '14', '27', '38', '39', '35', '56', '58', '68', '89', '03', '59'];
const DIGIT_CONFUSIONS: Record<string, string[]> = (() => {
  const m: Record<string, string[]> = {};
  for (const [a, b] of CONFUSED_DIGIT_PAIRS.map((p) => [p[0]!, p[1]!] as const)) { (m[a] ??= []).push(b); (m[b] ??= []).push(a); }
  return m;
})();

/** Values reachable from `digits` (a number's digits with its decimal point) by one confused digit. */
export function confusedVariants(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const alts = DIGIT_CONFUSIONS[text[i]!];
    if (!alts) continue;
    for (const a of alts) {
      const v = Number(text.slice(0, i) + a + text.slice(i + 1));
      if (Number.isFinite(v)) out.push(v);
    }
  }
  return out;
}

export { GROUP_SEP };
