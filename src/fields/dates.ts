/**
 * Date finders: every date printed in the document (numeric in either order, month names in several
 * languages, compact yyyymmdd), with its evidence: the keyword before it (transaction date, due date,
 * order date, or another kind such as expiry, print or delivery), a time printed beside it, a weekday
 * that agrees or not, the OCR confidence of its digits. `resolve/dates.ts` chooses.
 */
import type { Box, Document, Line } from '../document/types.js';
import type { Locale } from '../locale/index.js';
import { asPrintedWindow, guessDates, inWindow, parseDates, parseTime, plausibleWindow, validDate, weekdayIn } from '../locale/dates.js';
import type { ParsedDate, TimeOfDay } from '../locale/dates.js';
import { repairDigitRuns } from '../locale/numbers.js';
import { chronoDates } from '../locale/chrono.js';
import { boxesForSpan, confidenceForSpan, fold } from './text.js';
import { wordAlternation } from '../locale/languages/index.js';

export type DateKind = 'transaction' | 'order' | 'due' | 'other' | 'none';

export interface DateCandidate {
  date: ParsedDate;
  line: Line;
  kind: DateKind;
  keyword: string;
  /** Where the keyword was: on the same line before the date, or on the line above. */
  keywordAt?: 'same' | 'above';
  time?: TimeOfDay;
  weekday?: 'match' | 'mismatch';
  ocrConfidence: number;
  /** Letters were read as digits to get it. */
  repaired: boolean;
  /** Not printed as read: a lost separator restored (0) or a digit confusion undone (1 + its rank). */
  guess?: number;
}

interface KeywordRule { kind: DateKind; re: RegExp }

/** Ordered: more specific first. Patterns run on folded (upper-case, accent-free) text. */
const DATE_KEYWORDS: KeywordRule[] = [
  { kind: 'due', re: new RegExp(String.raw`\b(?:${wordAlternation('dateDue', { inOrder: true })})\b`) },
  { kind: 'order', re: new RegExp(String.raw`\b(?:${wordAlternation('dateOrder', { inOrder: true })})\b`) },
  { kind: 'other', re: new RegExp(String.raw`\b(?:${wordAlternation('dateOther', { inOrder: true })})\b`) },
  { kind: 'transaction', re: new RegExp(String.raw`\b(?:${wordAlternation('dateTransaction', { inOrder: true })})\b`) },
];

const GENERIC_KEYWORD = new RegExp(String.raw`^(?:${wordAlternation('dateGeneric')})$`);

/** A word between two dates of a period. */
const PERIOD_BETWEEN = new RegExp(String.raw`^\s*(?:-|${wordAlternation('periodWords')})\s`);

const DATE_KEYWORDS_GLOBAL = DATE_KEYWORDS.map((r) => ({ ...r, g: new RegExp(r.re.source, 'g') }));

/** The kind of date a keyword names, from the text before the date. */
function keywordBefore(text: string): { kind: DateKind; keyword: string } | undefined {
  const t = fold(text);
  let best: { kind: DateKind; keyword: string; end: number; len: number } | undefined;
  for (const rule of DATE_KEYWORDS_GLOBAL) {
    const re = rule.g;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(t))) {
      const end = m.index + m[0].length;
      // the keyword closest to the date wins; on a tie the earlier (more specific) rule
      if (!best || end > best.end || (end === best.end && m[0].length > best.len)) best = { kind: rule.kind, keyword: m[0].trim(), end, len: m[0].length };
    }
  }
  if (!best) return undefined;
  // generic words far from the date ("INVOICE" at the start of a long line) say little
  if (GENERIC_KEYWORD.test(best.keyword) && t.length - best.end > 25) return undefined;
  return { kind: best.kind, keyword: best.keyword };
}

/** Is the (valid) date y-m-d on weekday `wd` (0 = Sunday)? */
function onWeekday(y: number, m: number, d: number, wd: number): boolean {
  return validDate(y, m, d) && new Date(Date.UTC(y, m - 1, d)).getUTCDay() === wd;
}

/** Every date in the document with its evidence. */
export function findDateCandidates(doc: Document, locale: Locale, now: Date): DateCandidate[] {
  const maxYear = now.getUTCFullYear() + 1;
  const out: DateCandidate[] = [];
  // document-level day/month order: unambiguous numeric dates vote
  let dayFirst = locale.dayFirst;
  const perLine = doc.lines.map((line) => {
    const { text, repairs } = repairDigitRuns(line.text);
    return { line, text, repairs, dates: parseDates(text, dayFirst, maxYear) as Array<ParsedDate & { rank?: number }> };
  });
  let dm = 0, md = 0;
  for (const p of perLine) for (const d of p.dates) {
    if (d.form !== 'numeric' || d.y < 2000 || d.y > maxYear) continue;
    if (d.orders === 'dm') dm++;
    if (d.orders === 'md') md++;
  }
  // a settled country needs more than one odd date to change its order
  const settled = locale.countryConfidence >= 0.8;
  if (md > dm && dayFirst && (!settled || md >= 2)) dayFirst = false;
  else if (dm > md && !dayFirst && (!settled || dm >= 2)) dayFirst = true;
  if (dayFirst !== locale.dayFirst) {
    for (const p of perLine) p.dates = parseDates(p.text, dayFirst, maxYear);
  }
  // dates an OCR slip hid (a digit misread into an impossible or implausible date, a lost separator)
  const window = plausibleWindow(now);
  const printedWindow = asPrintedWindow(window);
  const overlap = (a: ParsedDate, b: ParsedDate) => a.start < b.end && b.start < a.end;
  // a two-digit year ahead of today is of the last century when the weekday printed beside it says so ("FRI 23-10-92")
  for (const p of perLine) {
    p.dates = p.dates.map((d) => {
      if (!d.shortYear || d.y <= maxYear) return d;
      const wd = weekdayIn(p.text.slice(0, d.start) + ' ' + p.text.slice(d.end));
      return wd !== undefined && onWeekday(d.y - 100, d.m, d.d, wd) ? { ...d, y: d.y - 100 } : d;
    });
  }
  for (const p of perLine) {
    const guesses = guessDates(p.text, dayFirst, window).filter((g) => !p.dates.some((d) => overlap(d, g) && (inWindow(d, printedWindow) || d.y < 2000)));
    // an implausible reading (a future or very old year) gives way to the guesses made from it
    if (guesses.length) p.dates = [...p.dates.filter((d) => !guesses.some((g) => overlap(d, g))), ...guesses];
  }

  // no date in the library's own patterns: month names in the document's language through chrono-node
  if (!perLine.some((p) => p.dates.length) && locale.language) {
    for (const p of perLine) p.dates = chronoDates(p.text, locale.language, now);
  }

  perLine.forEach((p, li) => {
    if (!p.dates.length) return;
    const line = p.line;
    for (const d of p.dates) {
      if (d.y > maxYear) continue;
      const wd = weekdayIn(line.text.slice(0, d.start) + ' ' + line.text.slice(d.end));
      let weekday: DateCandidate['weekday'];
      if (wd !== undefined && validDate(d.y, d.m, d.d)) weekday = onWeekday(d.y, d.m, d.d, wd) ? 'match' : 'mismatch';
      // a date of the last century only when the weekday printed beside it is that date's ("FRI 23-10-92")
      if (d.y < 2000 && weekday !== 'match') continue;
      let kw = keywordBefore(line.text.slice(0, d.start));
      let keywordAt: DateCandidate['keywordAt'] = kw ? 'same' : undefined;
      if (!kw && li > 0 && doc.lines[li - 1]!.page === line.page) {
        const above = perLine[li - 1]!;
        // a label above the value (invoice header tables): the label in the same column, when the line above holds no date itself
        const k = above.dates.length ? undefined : columnKeyword(above.line, boxesForSpan(line, d.start, d.end));
        if (k) { kw = k; keywordAt = 'above'; }
      }
      // "from X to Y": the words after the date can also mark it
      const after = fold(line.text.slice(d.end, d.end + 6));
      if (!kw && PERIOD_BETWEEN.test(after) && p.dates.length > 1) kw = { kind: 'other', keyword: 'period' };
      const t = parseTime(p.text.slice(d.end)) ?? parseTime(p.text.slice(0, d.start)) ?? (li + 1 < perLine.length ? timeAlone(perLine[li + 1]!.text) : undefined);
      out.push({
        date: d, line, kind: kw?.kind ?? 'none', keyword: kw?.keyword ?? '-',
        ...(keywordAt && kw ? { keywordAt } : {}),
        ...(t ? { time: { h: t.h, m: t.m, s: t.s } } : {}),
        ...(weekday ? { weekday } : {}),
        ocrConfidence: confidenceForSpan(line, d.start, d.end),
        repaired: !!d.slip || p.repairs.some((r) => r.start < d.end && r.end > d.start),
        ...(d.rank !== undefined ? { guess: d.rank } : {}),
      });
    }
  });
  return out;
}

/** Every date keyword of a line with its span. */
function keywordSpans(text: string): Array<{ kind: DateKind; keyword: string; start: number; end: number }> {
  const t = fold(text);
  const out: Array<{ kind: DateKind; keyword: string; start: number; end: number }> = [];
  for (const rule of DATE_KEYWORDS_GLOBAL) {
    const re = rule.g;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(t))) {
      if (out.some((o) => o.start < m!.index + m![0].length && m!.index < o.end)) continue;
      out.push({ kind: rule.kind, keyword: m[0].trim(), start: m.index, end: m.index + m[0].length });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * The label on the line above that heads the column of a value: the keyword whose box overlaps the
 * value horizontally (or, for a lone label ending its line, that label).
 */
function columnKeyword(above: Line, valueBoxes: Box[]): { kind: DateKind; keyword: string } | undefined {
  const spans = keywordSpans(above.text);
  if (!spans.length) return undefined;
  const vx0 = Math.min(...valueBoxes.map((b) => b.x0)), vx1 = Math.max(...valueBoxes.map((b) => b.x1));
  let best: { kind: DateKind; keyword: string; d: number } | undefined;
  for (const sp of spans) {
    const bs = boxesForSpan(above, sp.start, sp.end);
    const kx0 = Math.min(...bs.map((b) => b.x0)), kx1 = Math.max(...bs.map((b) => b.x1));
    const overlap = Math.min(kx1, vx1) - Math.max(kx0, vx0);
    const d = overlap > 0 ? 0 : Math.min(Math.abs(kx0 - vx0), Math.abs(kx1 - vx1));
    if (!best || d < best.d) best = { kind: sp.kind, keyword: sp.keyword, d };
  }
  const width = Math.max(1, vx1 - vx0);
  if (best && best.d <= width) return { kind: best.kind, keyword: best.keyword };
  // a short label line ("Date:") above a value
  const words = above.text.trim().split(/\s+/).length;
  const last = spans[spans.length - 1]!;
  if (words <= 3 && fold(above.text).slice(last.end).replace(/[^A-Z0-9]/g, '').length === 0) return { kind: last.kind, keyword: last.keyword };
  return undefined;
}

/** A time printed on a line of its own (or with a short label) just below a date. */
function timeAlone(text: string): ReturnType<typeof parseTime> {
  if ((text.match(/\p{L}/gu) ?? []).length > 12) return undefined;
  return parseTime(text);
}
