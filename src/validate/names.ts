/**
 * Fuzzy name matching for merchant and product lists, tolerant of case, spacing, punctuation, accents
 * and the usual OCR confusions, and explainable: every match has a score in [0, 1] and the text it
 * matched.
 *
 * Both sides are normalised (accents folded, lower case, `&` -> `and`, apostrophes dropped, other
 * punctuation -> space), then mapped to an OCR "skeleton" (0->o, 1/i/|->l, 5->s, 8->b, rn->m, vv->w)
 * and compared without spaces, so `WAL-MART`, `Wal Mart` and `WALMRT` all meet `Walmart`. A list entry
 * matches when it is similar enough to the whole name or to a run of its words (`Walmart` in `WALMART
 * SUPERCENTER #123`). Similarity is 1 - edit distance / length; entries of up to 4 characters must
 * match exactly (after the skeleton), longer ones need 0.8 (one edit in 5, two in 10).
 *
 * (fuse.js was measured for this and not used, docs/decisions/2026-11-25-dependencies-not-used.md: the names read from the
 * 178 SROIE receipts against the labelled names of all of them. This matcher: 91.4 % of correctly read
 * names match their own label, 0.05 % of pairs of different merchants match. fuse.js at its default
 * threshold 0.4: 98.8 % and 2.2 %; at 0.1 on normalised names: 96.3 % and 0.73 %, i.e. 15x the false
 * matches. A false match passes a receipt from a merchant that is not on the campaign's list, and the
 * odds grow with the list's length, so false matches cost more than misses here (the validator also
 * tries the receipt's header lines, which recovers misses of the chosen name). fuse.js also cannot say
 * which words matched, which the reasons need.)
 */

/** Lower case, accents folded, punctuation to spaces, single spaces. */
export function normalizeName(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Maps characters OCR confuses to one representative (compare skeletons, never show them). */
export function ocrSkeleton(s: string): string {
  return s
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')
    .replace(/[0]/g, 'o')
    .replace(/[1i|!]/g, 'l')
    .replace(/5/g, 's')
    .replace(/8/g, 'b');
}

/** Words that name a company's legal form, ignored when matching merchant names. */
export const LEGAL_FORMS = new Set([
  'sdn', 'bhd', 'berhad', 'ltd', 'limited', 'inc', 'incorporated', 'llc', 'llp', 'plc', 'gmbh', 'ag', 'kg', 'sa', 'sas', 'sarl',
  'srl', 'spa', 'bv', 'nv', 'pty', 'pte', 'co', 'corp', 'corporation', 'company', 'tbk', 'pt', 'cv', 'ab', 'as', 'oy', 'kk',
]);

function stripLegalForms(words: string[]): string[] {
  const kept = words.filter((w) => !LEGAL_FORMS.has(w));
  return kept.length ? kept : words;
}

/** Levenshtein distance, stopping early (returning > max) once it cannot be <= max. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (cur[j]! < rowMin) rowMin = cur[j]!;
    }
    if (rowMin > max) return max + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/** Smallest similarity a match needs for an entry of this (skeleton, no spaces) length. */
export function requiredSimilarity(length: number): number {
  return length <= 4 ? 1 : 0.8 - 1e-9;
}

export interface NameMatch {
  /** The list entry, as the list spells it. */
  entry: string;
  /** The words of the candidate that matched it. */
  matchedText: string;
  /** Similarity in [0, 1], two decimals. */
  score: number;
  matched: boolean;
}

export interface MatchOptions {
  /** Ignore legal forms (Sdn Bhd, Ltd, GmbH, ...) on both sides: for merchant names. */
  ignoreLegalForms?: boolean;
}

interface Prepared { words: string[]; compact: string }

function prepare(s: string, opts: MatchOptions): Prepared {
  let words = normalizeName(s).split(' ').filter(Boolean);
  if (opts.ignoreLegalForms) words = stripLegalForms(words);
  return { words, compact: ocrSkeleton(words.join('')) };
}

/** How well `entry` matches `candidate` (or a run of its words). */
export function matchName(candidate: string, entry: string, opts: MatchOptions = {}): NameMatch {
  const e = prepare(entry, opts);
  const c = prepare(candidate, opts);
  const none: NameMatch = { entry, matchedText: '', score: 0, matched: false };
  if (!e.compact || !c.compact) return none;
  const need = requiredSimilarity(e.compact.length);
  // edits allowed for a window to still reach `need`, for early exits
  const maxEdits = Math.floor(e.compact.length * (1 - need) + 1e-9) + Math.ceil(e.compact.length * 0.5);
  let best = none;
  const consider = (text: string, words: string[]) => {
    const w = ocrSkeleton(words.join(''));
    if (!w) return;
    const d = editDistance(w, e.compact, maxEdits);
    if (d > maxEdits) return;
    const score = 1 - d / Math.max(w.length, e.compact.length);
    if (score > best.score) best = { entry, matchedText: text, score: Math.round(score * 100) / 100, matched: score >= need };
  };
  const n = c.words.length;
  const m = e.words.length;
  consider(c.words.join(' '), c.words);
  for (let size = Math.max(1, m - 1); size <= Math.min(n - 1, m + 2); size++) {
    for (let i = 0; i + size <= n; i++) {
      if (best.score === 1) return best;
      const words = c.words.slice(i, i + size);
      consider(words.join(' '), words);
    }
  }
  return best;
}

/** The best match of any entry against any of the candidates (first candidate wins ties). */
export function bestMatch(candidates: string[], entries: string[], opts: MatchOptions = {}): (NameMatch & { candidate: string }) | undefined {
  let best: (NameMatch & { candidate: string }) | undefined;
  for (const candidate of candidates) {
    if (!candidate) continue;
    for (const entry of entries) {
      const m = matchName(candidate, entry, opts);
      if (!best || m.score > best.score || (m.matched && !best.matched)) best = { ...m, candidate };
      if (best.matched && best.score === 1) return best;
    }
  }
  return best;
}

/**
 * Product codes compare on letters and digits only, upper case, with the letters OCR reads for digits
 * mapped to them (O/Q/D->0, I/L->1, S->5, B->8, Z->2) on both sides; numeric codes also ignore
 * leading zeros (UPC-A inside EAN-13).
 */
export function codeKey(s: string, numeric: boolean): string {
  let k = s.normalize('NFKD').toUpperCase().replace(/[^A-Z0-9]/g, '')
    .replace(/[OQD]/g, '0').replace(/[IL]/g, '1').replace(/S/g, '5').replace(/B/g, '8').replace(/Z/g, '2');
  if (numeric) k = k.replace(/^0+(?=\d)/, '');
  return k;
}
