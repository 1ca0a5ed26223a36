// Pure scoring for the benchmark, exactly as ../shared/corpus/SCORING.md describes it.
// No I/O here: bench/run.mjs reads files and calls these; test/bench-score.test.ts checks every rule.

import { createHash } from 'node:crypto';

/** The two halves of every dataset: `tune` (study its failures, tune rules on it) and `check` (only measured). */
export const HALVES = ['tune', 'check'];
/**
 * The half an item belongs to, by a stable hash of its id (sha256, first byte even: tune), so that a
 * file stays in its half whatever else is added to the corpus. A change is kept when the check half
 * does not lose.
 */
export function halfOf(id) {
  return createHash('sha256').update(String(id)).digest()[0] % 2 === 0 ? 'tune' : 'check';
}

/** Fields scored per receipt, in report order. */
export const FIELDS = /** @type {const} */ (['totalAmount', 'taxAmount', 'date', 'merchantName', 'merchantAddress', 'invoiceNumber', 'currencyCode']);
/** Fields that also get an "exact" column. */
export const EXACT_FIELDS = /** @type {const} */ (['merchantName', 'merchantAddress']);
export const AMOUNT_TOLERANCE = 0.005;
export const HI_CONF = 0.9;
export const NAME_SIMILARITY = 0.8;
export const LINE_NAME_SIMILARITY = 0.6;
// Float slack so that e.g. |1.005 - 1.00| (0.00499999... or 0.00500000...1) is inside the tolerance.
const EPS = 1e-9;

/**
 * Accents dropped (Unicode NFD, combining marks removed; đ as D), upper case; every run of characters
 * other than A-Z, 0-9 and `&` becomes one space; trimmed. ASCII text normalises as before.
 * @param {unknown} s
 * @returns {string}
 */
export function normalizeName(s) {
  if (s === undefined || s === null) return '';
  return String(s).normalize('NFD').replace(/\p{M}+/gu, '').replace(/[đĐ]/g, 'D').toUpperCase().replace(/[^A-Z0-9&]+/g, ' ').trim();
}

/**
 * Levenshtein distance (insert, delete, substitute; cost 1 each).
 * @param {string} a
 * @param {string} b
 */
export function levenshtein(a, b) {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = new Array(b.length + 1);
  let cur = new Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const sub = prev[j - 1] + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, sub);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/**
 * 1 - distance / length of the longer string (1 for two empty strings). Compares the strings as given:
 * normalise first with normalizeName when the rule says so.
 * @param {string} a
 * @param {string} b
 */
export function levenshteinSimilarity(a, b) {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  return 1 - levenshtein(a, b) / longer;
}

/** @param {unknown} v */
const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
/** @param {unknown} v @param {unknown} gold */
const amountEq = (v, gold) => isNum(v) && isNum(gold) && Math.abs(/** @type {number} */ (v) - /** @type {number} */ (gold)) <= AMOUNT_TOLERANCE + EPS;

/**
 * Merchant name rule: normalised Levenshtein similarity >= 0.8, or one contains the other and the
 * shorter has >= 4 characters (after normalising).
 * @param {unknown} pred @param {unknown} gold
 */
export function nameMatches(pred, gold) {
  const p = normalizeName(pred), g = normalizeName(gold);
  if (!p || !g) return false;
  if (levenshteinSimilarity(p, g) >= NAME_SIMILARITY - EPS) return true;
  const [short, long] = p.length <= g.length ? [p, g] : [g, p];
  return short.length >= 4 && long.includes(short);
}

/**
 * The gold values of one item: `labels/<id>.json`, with `taxAmount` taken from `lineitems/<id>.json` when
 * the label lacks it, and line items from `lineitems/` (else from the label's own `lineItems`).
 * A key is present only when that field is scored for this item.
 * @param {Record<string, any>} label
 * @param {Record<string, any> | null | undefined} [lineitems]
 */
export function goldFor(label, lineitems) {
  /** @type {Record<string, any>} */
  const gold = {};
  for (const f of FIELDS) if (label && label[f] !== undefined && label[f] !== null) gold[f] = label[f];
  // the label names it `currency` (ISO 4217); the result `currencyCode`
  if (label && typeof label.currency === 'string' && label.currency.trim()) gold.currencyCode = label.currency.trim();
  if (gold.taxAmount === undefined && lineitems && isNum(lineitems.taxAmount)) gold.taxAmount = lineitems.taxAmount;
  const items = lineitems && Array.isArray(lineitems.lineItems) ? lineitems.lineItems
    : label && Array.isArray(label.lineItems) ? label.lineItems : undefined;
  if (items) gold.lineItems = items;
  return gold;
}

/**
 * What the result says for a field: `{ value, confidence }`; value undefined when the field is absent,
 * has no `data`, or has confidence 0 (all count as "no prediction").
 * invoiceNumber reads `entities.invoiceNumber`, else `entities.receiptNumber`; currencyCode reads the
 * root `currencyCode` (its label key is `currency`).
 * @param {string} field
 * @param {Record<string, any> | null | undefined} result verbose extraction result (null after an error)
 * @returns {{ value: any, confidence: number }}
 */
export function predictionFor(field, result) {
  if (!result) return { value: undefined, confidence: 0 };
  /** @param {any} f */
  const read = (f) => {
    if (!f || typeof f !== 'object' || !('data' in f) || f.data === null || f.data === undefined) return undefined;
    const c = isNum(f.confidenceLevel) ? f.confidenceLevel : 0;
    if (c <= 0) return undefined;
    return { value: f.data, confidence: c };
  };
  let got;
  if (field === 'invoiceNumber') got = read(result.entities?.invoiceNumber) ?? read(result.entities?.receiptNumber);
  else got = read(result[field]);
  return got ?? { value: undefined, confidence: 0 };
}

/**
 * Scores one field of one item.
 * @param {string} field one of FIELDS
 * @param {Record<string, any> | null | undefined} result verbose result, or null when the extraction failed
 * @param {Record<string, any>} gold from goldFor()
 * @param {{ error?: boolean }} [opts] error: the extraction threw (always wrong)
 * @returns {null | { field: string, gold: any, value: any, confidence: number, correct: boolean, exact?: boolean, hiConf: boolean }}
 *   null when the item's label does not have the field (not scored)
 */
export function scoreField(field, result, gold, opts = {}) {
  const g = gold?.[field];
  if (g === undefined || g === null) return null;
  const error = Boolean(opts.error) || !result;
  const { value, confidence } = error ? { value: undefined, confidence: 0 } : predictionFor(field, result);
  let correct = false;
  /** @type {boolean | undefined} */
  let exact;
  const has = value !== undefined;
  switch (field) {
    case 'totalAmount':
      correct = has && amountEq(value, g);
      break;
    case 'taxAmount':
      // A label of 0 is also met by an absent tax (but not by an error).
      correct = has ? amountEq(value, g) : (!error && isNum(g) && Math.abs(g) <= EPS);
      break;
    case 'date':
      correct = has && typeof value === 'string' && value.slice(0, 10) === String(g);
      break;
    case 'merchantName':
      correct = has && nameMatches(value, g);
      exact = has && normalizeName(value) !== '' && normalizeName(value) === normalizeName(g);
      break;
    case 'merchantAddress': {
      const p = normalizeName(value), n = normalizeName(g);
      correct = has && p !== '' && levenshteinSimilarity(p, n) >= NAME_SIMILARITY - EPS;
      exact = has && p !== '' && p === n;
      break;
    }
    case 'currencyCode':
      correct = has && typeof value === 'string' && value.trim().toUpperCase() === String(g).toUpperCase();
      break;
    case 'invoiceNumber': {
      const squash = (/** @type {unknown} */ s) => normalizeName(s).replace(/ /g, '');
      correct = has && squash(value) !== '' && squash(value) === squash(g);
      break;
    }
    default:
      throw new Error(`scoreField: unknown field ${field}`);
  }
  /** @type {{ field: string, gold: any, value: any, confidence: number, correct: boolean, exact?: boolean, hiConf: boolean }} */
  const out = { field, gold: g, value, confidence, correct, hiConf: has && confidence >= HI_CONF - EPS };
  if (exact !== undefined) out.exact = exact;
  return out;
}

/**
 * Flattens `entities.productLineItems` of a verbose result (or an array of such items, or of plain
 * `{ name, totalPrice }` objects) to `[{ name, totalPrice }]`.
 * @param {any} resultOrItems
 * @returns {{ name: string, totalPrice: number | undefined }[]}
 */
export function flattenLineItems(resultOrItems) {
  const arr = Array.isArray(resultOrItems) ? resultOrItems : resultOrItems?.entities?.productLineItems;
  if (!Array.isArray(arr)) return [];
  /** @param {any} v */
  const unwrap = (v) => (v && typeof v === 'object' && 'data' in v ? v.data : v);
  return arr.map((it) => {
    const d = it && typeof it === 'object' && it.data && typeof it.data === 'object' ? it.data : it;
    const name = unwrap(d?.name);
    const total = unwrap(d?.totalPrice);
    return { name: name === undefined || name === null ? '' : String(name), totalPrice: isNum(total) ? total : undefined };
  });
}

/**
 * Line items of one receipt. A gold item is found when an unused predicted item has totalPrice within
 * 0.005 and a normalised name similarity >= 0.6. Greedy: gold items in order, each takes the unused
 * qualifying prediction with the highest name similarity (the first one on ties).
 * @param {any} predicted verbose result, its productLineItems array, or plain `{ name, totalPrice }` items
 * @param {{ name: string, totalPrice: number }[]} goldItems
 * @returns {{ gold: number, predicted: number, found: number, allExact: boolean, matches: [number, number][] }}
 *   matches: [goldIndex, predictedIndex] pairs
 */
export function scoreLineItems(predicted, goldItems) {
  const preds = flattenLineItems(predicted);
  const used = new Array(preds.length).fill(false);
  const predNames = preds.map((p) => normalizeName(p.name));
  /** @type {[number, number][]} */
  const matches = [];
  goldItems.forEach((gi, gIdx) => {
    const gName = normalizeName(gi.name);
    let best = -1, bestSim = -1;
    preds.forEach((p, pIdx) => {
      if (used[pIdx] || !amountEq(p.totalPrice, gi.totalPrice)) return;
      const sim = levenshteinSimilarity(predNames[pIdx], gName);
      if (sim >= LINE_NAME_SIMILARITY - EPS && sim > bestSim) { best = pIdx; bestSim = sim; }
    });
    if (best >= 0) { used[best] = true; matches.push([gIdx, best]); }
  });
  const found = matches.length;
  return { gold: goldItems.length, predicted: preds.length, found, allExact: found === goldItems.length && preds.length === goldItems.length, matches };
}

/**
 * Scores one extraction against its gold values.
 * @param {Record<string, any> | null} result verbose result, or null on error
 * @param {Record<string, any>} gold from goldFor()
 * @param {{ error?: boolean }} [opts]
 */
export function scoreItem(result, gold, opts = {}) {
  const error = Boolean(opts.error) || !result;
  /** @type {Record<string, NonNullable<ReturnType<typeof scoreField>>>} */
  const fields = {};
  for (const f of FIELDS) {
    const s = scoreField(f, error ? null : result, gold, { error });
    if (s) fields[f] = s;
  }
  const lineItems = Array.isArray(gold.lineItems) ? scoreLineItems(error ? [] : result, gold.lineItems) : null;
  return { fields, lineItems };
}

/**
 * Nearest-rank percentile of a list of numbers (p in 0..100); null for an empty list.
 * @param {number[]} values @param {number} p
 */
export function percentile(values, p) {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * s.length));
  return s[Math.min(rank, s.length) - 1];
}

/** @param {number} a @param {number} b */
const ratio = (a, b) => (b > 0 ? a / b : null);

/**
 * Aggregates per-item results of one dataset.
 * @param {{ error?: string | null, ms?: number, fields: Record<string, { correct: boolean, exact?: boolean, hiConf: boolean }>, lineItems?: { gold: number, predicted: number, found: number, allExact: boolean } | null }[]} items
 */
export function summarize(items) {
  /** @type {Record<string, { n: number, correct: number, accuracy: number | null, exact?: number, exactRate?: number | null, hiConfN: number, hiConfCorrect: number, hiConfPrecision: number | null, hiConfShare: number | null }>} */
  const fields = {};
  for (const f of FIELDS) {
    const scored = items.map((it) => it.fields?.[f]).filter(Boolean);
    if (!scored.length) continue;
    const n = scored.length;
    const correct = scored.filter((s) => s.correct).length;
    const hi = scored.filter((s) => s.hiConf);
    const hiCorrect = hi.filter((s) => s.correct).length;
    /** @type {typeof fields[string]} */
    const row = { n, correct, accuracy: ratio(correct, n), hiConfN: hi.length, hiConfCorrect: hiCorrect, hiConfPrecision: ratio(hiCorrect, hi.length), hiConfShare: ratio(hi.length, n) };
    if (/** @type {readonly string[]} */ (EXACT_FIELDS).includes(f)) {
      row.exact = scored.filter((s) => s.exact).length;
      row.exactRate = ratio(row.exact, n);
    }
    fields[f] = row;
  }
  const li = items.map((it) => it.lineItems).filter((x) => x !== null && x !== undefined);
  let lineItems = null;
  if (li.length) {
    const gold = li.reduce((a, x) => a + x.gold, 0);
    const predicted = li.reduce((a, x) => a + x.predicted, 0);
    const found = li.reduce((a, x) => a + x.found, 0);
    const precision = ratio(found, predicted) ?? 0;
    const recall = ratio(found, gold) ?? 0;
    const allExact = li.filter((x) => x.allExact).length;
    lineItems = { receipts: li.length, gold, predicted, found, precision, recall, f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0, allExact, allExactShare: ratio(allExact, li.length) };
  }
  /** @type {Record<string, number>} */
  const errorCodes = {};
  for (const it of items) if (it.error) errorCodes[it.error] = (errorCodes[it.error] ?? 0) + 1;
  const ms = items.map((it) => it.ms).filter(isNum).map((x) => /** @type {number} */ (x));
  return {
    n: items.length,
    errors: items.filter((it) => it.error).length,
    errorCodes,
    fields,
    lineItems,
    speed: { p50: percentile(ms, 50), p95: percentile(ms, 95), mean: ms.length ? ms.reduce((a, b) => a + b, 0) / ms.length : null, max: ms.length ? Math.max(...ms) : null },
  };
}

/** Confidence groups of the reliability table (bench/reliability.mjs): [from, to); the last holds 1. */
export const CONFIDENCE_GROUPS = [[0, 0.5], [0.5, 0.7], [0.7, 0.8], [0.8, 0.9], [0.9, 0.95], [0.95, 1.0001]];

/**
 * Per confidence group, the values of one field given in these report items (a prediction made and
 * scored): how many, how many right, and their mean confidence (null for an empty group).
 */
export function reliabilityGroups(items, field) {
  const given = items.filter((it) => field in (it.ok ?? {}) && it.pred?.[field] !== undefined && it.pred?.[field] !== null)
    .map((it) => ({ conf: it.conf?.[field] ?? 0, ok: !!it.ok[field] }));
  return CONFIDENCE_GROUPS.map(([from, to]) => {
    const g = given.filter((v) => v.conf >= from && v.conf < to);
    return { from, to: Math.min(to, 1), n: g.length, right: g.filter((v) => v.ok).length, meanConfidence: g.length ? g.reduce((s, v) => s + v.conf, 0) / g.length : null };
  });
}
