/**
 * Two readers, one answer. A one-page image is read by tesseract (the document the result is built
 * from) and by the second reader (PaddleOCR, ocr/paddle.ts); fields are found in both readings, and
 * per field:
 * - both readings give the same value: two engines with different models read it alike; the
 *   confidence becomes that of either being right, 1 - (1 - a)(1 - b) (at least the higher of the two);
 * - they differ: the value the fitted choice (resolve/combine-model.ts, models/combine.json) finds likelier
 *   right stands (without a model the more confident one, ties keeping the first), held below 0.9, since
 *   one of the two engines read something else; a date read in the other day/month order is settled by
 *   the reading that showed its country more surely;
 * - only one has it: that one, as it is.
 * Line items come from the second reading when its items add up (itemsCheck) and the first's do not,
 * or the first's add up only within the check's tolerance and the second's closer. Otherwise the first's
 * stay, and a name whose words OCR read doubtfully (below NAME_DOUBT) is taken from the second reading's
 * item of the same price on the same row when its words were read NAME_MARGIN more confidently.
 * Values taken from the second reading are mapped to the first document's line they overlap most.
 *
 * Measured before wiring it in (docs/decisions/2026-11-22-paddleocr-second-reader.md): on the 178 SROIE
 * scans totals tesseract 161, PaddleOCR 167, weighed 171; dates 159, 171, 173; hi-confidence precision
 * 98.7 % / 100 % on 88 % / 90 % of them. On the 81 phone photos: totals 68, 73, 73; dates 61, 64, 67.
 * Raising an agreed value to a flat 0.9 instead put two dates both engines misread alike (at 0.67 and
 * 0.31) at 0.9.
 */
import type { Document } from '../document/types.js';
import type { FieldResults, ItemPart, ItemsCheck, LineItem, Located } from '../fields/types.js';
import { closestLine } from './second-look.js';
import { roundConfidence } from '../fields/confidence.js';
import { AMBIGUOUS_ORDER_MAX_CONFIDENCE } from '../resolve/dates.js';
import { same } from '../resolve/arithmetic.js';
import { editDistance } from '../locale/keywords.js';
import { fold } from '../fields/text.js';
import { inferLocale } from '../locale/index.js';
import type { LocaleHints } from '../locale/index.js';
import { tapCombine } from '../resolve/model.js';
import { choiceModel, preferSecond } from '../resolve/combine-model.js';
import type { RankModel } from '../resolve/field-model.js';

/** The readers disagree: the chosen value stays below this. */
export const READERS_DISAGREE_CAP = 0.89;
/** An item name whose words were read with less OCR confidence than this is doubtful... */
export const NAME_DOUBT = 0.6;
/** ...and is read from the second reading when its words were read this much more confidently. */
export const NAME_MARGIN = 0.2;
/** The fields weighed between the two readings. */
export const COMBINED_FIELDS = ['totalAmount', 'date', 'taxAmount'] as const;

type Key = (typeof COMBINED_FIELDS)[number];

function sameValue(a: Located<unknown>, b: Located<unknown>): boolean {
  if (typeof a.value === 'number' && typeof b.value === 'number') return same(a.value, b.value);
  return a.value === b.value;
}

/** Two dates (ISO strings) with the same digits in the other day/month order ("2017-05-12" and "2017-12-05"). */
export function swappedOrder(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const x = /^(\d{4})-(\d{2})-(\d{2})/.exec(a), y = /^(\d{4})-(\d{2})-(\d{2})/.exec(b);
  return !!x && !!y && x[1] === y[1] && x[2] === y[3] && x[3] === y[2] && x[2] !== x[3];
}

/** Both readings have each of these fields, with the same value. */
export function readersAgree(a: FieldResults, b: FieldResults, keys: readonly Key[]): boolean {
  return keys.every((k) => {
    const x = a[k] as Located<unknown> | undefined, y = b[k] as Located<unknown> | undefined;
    return !!x && !!y && sameValue(x, y);
  });
}

export function combineReadings(doc: Document, fields: FieldResults, secondDoc: Document, second: FieldResults, tag = 'second-reader', opts: CombineOptions = {}): FieldResults {
  let out: FieldResults = fields;
  const note = (k: string, terms: string[]) => ({ ...out.evidence, [k]: terms });
  const [dateA, dateB] = inOneOrder(fields, second);
  const choice = opts.choice ?? choiceModel;
  // each reading's words' mean confidence: counted only when a model or a tap asks (not on every weighing)
  let counted: readonly [number, number] | undefined;
  const readings = (): readonly [number, number] => (counted ??= [readingConfidence(doc), readingConfidence(secondDoc)]);
  const paper = !!doc.pages[0]?.paper;
  const all = opts.readings ?? [];
  const support = (k: Key, x: Located<unknown> | undefined): number => (x ? all.filter((r) => r[k] && sameValue(r[k] as Located<unknown>, x)).length : 0);
  for (const k of opts.fields ?? COMBINED_FIELDS) {
    // the taxes after the totals: each weighed again against the combined total when its reading chose another
    const [F, S] = k === 'taxAmount' ? taxesAtTotal(doc, fields, secondDoc, second, out.totalAmount?.value, opts.taxAt) : [fields, second];
    if (F !== fields) out = withTax(out, F.taxAmount, F.evidence?.taxAmount, F.taxWeighedAt);
    const a = (k === 'date' ? dateA : F[k]) as Located<unknown> | undefined;
    const b = (k === 'date' ? dateB : S[k]) as Located<unknown> | undefined;
    const answer = (x: Located<unknown> | undefined, terms: readonly string[] | undefined, reading: number) => (x ? { value: x.value, confidence: x.confidence, terms: terms ?? [], reading } : undefined);
    const page = { paper, ...(all.length ? { support: [support(k, a), support(k, b)] as const } : {}) };
    const tap = (chosen: 'first' | 'second' | 'both') => opts.tap !== false && tapCombine(() => ({ tag, field: k, ...(a ? { first: answer(a, F.evidence?.[k], readings()[0]) } : {}), ...(b ? { second: answer(b, S.evidence?.[k], readings()[1]) } : {}), chosen, ...page }));
    if (!b) { if (a) tap('first'); continue; }
    if (a && sameValue(a, b)) {
      tap('both');
      const confidence = roundConfidence(Math.max(a.confidence, b.confidence, 1 - (1 - a.confidence) * (1 - b.confidence)));
      out = { ...out, [k]: { ...a, confidence }, evidence: note(k, [...(F.evidence?.[k] ?? []), `${tag}-agrees`]) };
      continue;
    }
    // the same date read in the other day/month order: the reading whose page showed its country more surely decides
    const orderTie = k === 'date' && !!a && swappedOrder(a.value, b.value);
    const firstOrder = orderTie && (fields.country?.confidence ?? 0) >= (second.country?.confidence ?? 0);
    const model = orderTie ? undefined : choice(k);
    const firstStands = !!a && (orderTie ? firstOrder : !preferSecond(model, tag, { confidence: a.confidence, terms: F.evidence?.[k] ?? [], reading: model ? readings()[0] : undefined }, { confidence: b.confidence, terms: S.evidence?.[k] ?? [], reading: model ? readings()[1] : undefined }, page));
    if (a && firstStands) {
      tap('first');
      out = { ...out, [k]: { ...a, confidence: roundConfidence(Math.min(a.confidence, READERS_DISAGREE_CAP)) }, evidence: note(k, [...(F.evidence?.[k] ?? []), orderTie ? `${tag}-order-by-country` : `${tag}-differs`]) };
      continue;
    }
    const lineIndex = mapLine(doc, secondDoc, b.lineIndex);
    if (lineIndex < 0) { tap('first'); continue; }
    tap('second');
    const confidence = a ? roundConfidence(Math.min(b.confidence, READERS_DISAGREE_CAP)) : b.confidence;
    out = { ...out, [k as Key]: { ...b, lineIndex, confidence }, evidence: note(k, [...(S.evidence?.[k] ?? []), a ? `${tag}-more-confident` : `${tag}-only`]) };
  }
  if (opts.fields) return out; // only the fields asked for
  out = currencyFromSecond(doc, out, secondDoc, second, tag, opts.hints ?? {});
  out = combineNames(doc, out, secondDoc, second, tag);
  // items: the second reading's when they add up and the first's do not, or add up only within the
  // check's tolerance where the second's add up closer (a digit misread by one cent)
  if (second.lineItems?.length && second.itemsCheck?.matches && (!fields.itemsCheck?.matches || sumGap(second.itemsCheck) < sumGap(fields.itemsCheck) - 0.001)) {
    const items = second.lineItems.map((it) => mapItem(doc, secondDoc, it));
    out = { ...out, lineItems: items, itemsCheck: second.itemsCheck, evidence: note('lineItems', [`${tag}-items-add-up`]) };
  } else if (fields.lineItems?.length && second.lineItems?.length) {
    // the first reading's items stay; a name it read doubtfully is read from the second reading's item of
    // the same price on the same row when that one was read clearly better
    let renamed = 0;
    const items = fields.lineItems.map((it) => {
      const mine = nameConfidence(doc, it.name);
      if (mine >= NAME_DOUBT) return it;
      const other = second.lineItems!.find((o) => same(o.totalPrice.value, it.totalPrice.value) && mapLine(doc, secondDoc, o.name.lineIndex) === it.name.lineIndex);
      if (!other || nameConfidence(secondDoc, other.name) < mine + NAME_MARGIN) return it;
      renamed++;
      return { ...it, name: { ...other.name, lineIndex: it.name.lineIndex } };
    });
    if (renamed) out = { ...out, lineItems: items, evidence: note('lineItems', [...(fields.evidence?.lineItems ?? []), `${tag}-names:${renamed}`]) };
  }
  return out;
}

/** The date is a numeric date that both day/month orders allow (resolve/dates.ts orderTerms). */
const orderOpen = (f: FieldResults): boolean => !!f.date?.marks?.orderOpen;

/** An ISO date with its day and month swapped ("2017-12-05..." -> "2017-05-12..."), when that is a date. */
function swapDayMonth(iso: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(.*)$/.exec(iso);
  return m && Number(m[3]) <= 12 ? `${m[1]}-${m[3]}-${m[2]}${m[4]}` : undefined;
}

/**
 * The two readings' dates in one day/month order: a reading that read its page's country less surely
 * (and so read "12/05/2017" in the other order) has its date, when both orders allow it, read in the
 * order of the surer one (a PaddleOCR reading without the "ABN" line read an Australian date
 * month-first), also when the surer reading read no date (PaddleOCR ran "NEW YORK, NEW YORK 10012"
 * together and read "3/1/2018" day-first; tesseract read the address, not the date). The dates are
 * then weighed as usual.
 */
export function inOneOrder(first: FieldResults, second: FieldResults): [Located<string> | undefined, Located<string> | undefined] {
  const a = first.date, b = second.date;
  if ((!a && !b) || first.dayFirst === undefined || second.dayFirst === undefined || first.dayFirst === second.dayFirst) return [a, b];
  const ca = first.country?.confidence ?? 0, cb = second.country?.confidence ?? 0;
  if (ca === cb) return [a, b];
  const [sure, other, otherFields] = ca > cb ? [a, b, second] : [b, a, first];
  if (!other) return [a, b];
  const swapped = orderOpen(otherFields) ? swapDayMonth(other.value) : undefined;
  if (!swapped || swapped === other.value) return [a, b];
  const turned = { ...other, value: swapped };
  return sure === a ? [a, turned] : [turned, b];
}

export interface CombineOptions {
  /** Only these of COMBINED_FIELDS are weighed (no name, no items); default: all of them, the name and the items. */
  fields?: readonly Key[];
  /** A reading's tax weighed against another total (extract/index.ts taxAtTotal); without it each reading's tax stays as read. */
  taxAt?: TaxAt;
  /** The caller's `near` and `language` options, for the currency counted on both readings. */
  hints?: LocaleHints;
  /** The fitted choice between two differing values of a field; default: the installed one (resolve/combine-model.ts). */
  choice?: (field: Key) => RankModel | undefined;
  /** Every whole-page reading of the page so far, each as it read (not combined): the readers' agreement on a value. */
  readings?: readonly FieldResults[];
  /** False: a provisional weighing (the cascade's), not told to the taps (resolve/model.ts tapCombine). */
  tap?: boolean;
}

/** A document's tax and its evidence, its tax rules run with `total` (undefined: none is found). */
export type TaxAt = (doc: Document, total: number) => { tax: Located<number>; evidence: string[] } | undefined;

/**
 * The two readings with their taxes weighed against the combined total `total`: a reading whose tax
 * was weighed against another total (or none; FieldResults.taxWeighedAt: a second look or a confirming
 * pass may have replaced the total since) has its tax found again with this one (`taxAt`). The tax
 * rules take the tax from the total ("total less net", the tax consistent with it), so a tax a reading
 * derived from its misread total is not kept ("$43 67" read as 43.00 gave 43.00 - 41.10).
 */
function taxesAtTotal(doc: Document, fields: FieldResults, secondDoc: Document, second: FieldResults, total: number | undefined, taxAt: TaxAt | undefined): [FieldResults, FieldResults] {
  if (!taxAt || total === undefined) return [fields, second];
  return [taxWeighedAgain(doc, fields, total, taxAt), taxWeighedAgain(secondDoc, second, total, taxAt)];
}

/**
 * A reading's fields with its tax found again at `total` by `taxAt` when it was weighed against another
 * total (FieldResults.taxWeighedAt): no tax when its rules find none at that total; unchanged when
 * `total` is undefined. Also the thorough reading's last step (a page no second reading was combined with).
 */
export function taxWeighedAgain(doc: Document, f: FieldResults, total: number | undefined, taxAt: TaxAt): FieldResults {
  if (total === undefined || f.taxWeighedAt === total) return f;
  const r = taxAt(doc, total);
  return withTax(f, r?.tax, r?.evidence, total);
}

/** `f` with its tax, the tax's evidence and the total it was weighed at replaced (each left out when undefined). */
function withTax(f: FieldResults, tax: Located<number> | undefined, terms: string[] | undefined, weighedAt: number | undefined): FieldResults {
  const { taxAmount: _tax, taxWeighedAt: _at, ...rest } = f;
  const { taxAmount: _terms, ...evidence } = f.evidence ?? {};
  return { ...rest, ...(tax ? { taxAmount: tax } : {}), ...(weighedAt !== undefined ? { taxWeighedAt: weighedAt } : {}), evidence: { ...evidence, ...(terms ? { taxAmount: terms } : {}) } };
}

/** Letters and digits only, upper case: "Harvard Gardens" and PaddleOCR's "HarvardGardens" are one name. */
const squashName = (s: string): string => fold(s).replace(/[^A-Z0-9&]/g, '');

/** Two readings of one name: one holds the other (4 characters at least), or they differ in at most a fifth of their letters. */
export function sameName(a: string, b: string): boolean {
  const x = squashName(a), y = squashName(b);
  if (!x || !y) return false;
  const [s, t] = x.length <= y.length ? [x, y] : [y, x];
  if (s.length >= 4 && t.includes(s)) return true;
  const cap = Math.floor(t.length / 5);
  return editDistance(x, y, cap + 1) <= cap;
}

/** A first reading's name below this confidence is weak: a clearly more confident other name may replace it... */
export const NAME_WEAK = 0.5;
/** ...when it is at least this much more confident. */
export const NAME_REPLACE_MARGIN = 0.15;
/** A second reading this sure of its name replaces a less confident first one whatever that one's confidence. */
export const NAME_SURE = 0.95;

/**
 * The merchant's name. Tesseract's name stands unless it is weak, because its reading keeps the spaces
 * between words and its confidences were calibrated on the corpus; PaddleOCR reads a logo or a large name
 * tesseract turned to noise, and is taken then:
 * - the same name in both readings (spaces aside, or one holding the other): the first reading's, as it is,
 *   unless only the second reads its company form: then the second's spelling at the first's confidence;
 * - different names: the second's when the first is weak (below NAME_WEAK) and the second NAME_REPLACE_MARGIN
 *   more confident, or the second is NAME_SURE; held below 0.9 either way, as is a name only the second has.
 * Measured on the whole corpus: taking the more confident name outright lost 12 SROIE names it had (a
 * glued spelling, a policy line, a second company on the page) for 4 it gained.
 */
function combineNames(doc: Document, fields: FieldResults, secondDoc: Document, second: FieldResults, tag: string): FieldResults {
  const a = fields.merchantName, b = second.merchantName;
  if (!b) return fields;
  const note = (terms: string[]) => ({ ...fields.evidence, merchantName: terms });
  // a company's legal name ("TRI SHAAS SDN BHD") is not given up for a bare brand the page also shows (the mall's "MYDIN")
  const legal = (r: FieldResults) => !!r.merchantName?.companyForm;
  if (a && sameName(a.value, b.value)) {
    // one name, spelt better by the second reading where only it reads the company form ("GARDENIA BAK FRI ks 1KL) SON BUD")
    const lineIndex = legal(second) && !legal(fields) ? mapLine(doc, secondDoc, b.lineIndex) : -1;
    const name = lineIndex < 0 ? a : { ...b, lineIndex, confidence: a.confidence };
    return { ...fields, merchantName: name, evidence: note([...(fields.evidence?.merchantName ?? []), lineIndex < 0 ? `${tag}-agrees` : `${tag}-agrees-spelt-as-company`]) };
  }
  const replace = !a || (a.confidence < NAME_WEAK && b.confidence >= a.confidence + NAME_REPLACE_MARGIN)
    || (b.confidence >= NAME_SURE && b.confidence > a.confidence && (legal(second) || !legal(fields)));
  if (a && !replace) {
    return { ...fields, merchantName: { ...a, confidence: roundConfidence(Math.min(a.confidence, READERS_DISAGREE_CAP)) }, evidence: note([...(fields.evidence?.merchantName ?? []), `${tag}-differs`]) };
  }
  const lineIndex = mapLine(doc, secondDoc, b.lineIndex);
  if (lineIndex < 0) return fields;
  const confidence = roundConfidence(Math.min(b.confidence, READERS_DISAGREE_CAP));
  return { ...fields, merchantName: { ...b, lineIndex, confidence }, evidence: note([...(second.evidence?.merchantName ?? []), a ? `${tag}-more-confident` : `${tag}-only`]) };
}

/** Mean OCR confidence of the words an item part was read from (0 when none are found). */
function nameConfidence(doc: Document, part: ItemPart<string>): number {
  const line = doc.lines[part.lineIndex];
  if (!line || !part.boxes.length) return 0;
  const inside = line.words.filter((w) => part.boxes.some((b) => Math.min(b.x1, w.box.x1) - Math.max(b.x0, w.box.x0) > 0.5 * (w.box.x1 - w.box.x0)));
  return inside.length ? inside.reduce((s, w) => s + w.confidence, 0) / inside.length : 0;
}

/** How far the items' sum is from what it was checked against (Infinity when it does not match). */
function sumGap(c: ItemsCheck | undefined): number {
  return c?.matches && c.expected !== undefined ? Math.abs(c.itemsSum - c.expected) : Infinity;
}

/**
 * The document's currency weighed between the two readings: the second's when the first read none (no
 * currency or country cue in its text), at its own confidence. When they differ, the second's replaces
 * the first's only when it is the more confident and the page's cues counted on both readings' text
 * together (inferLocale) give it too: a page the first reader made noise of ("Rs" and "£" from smudges)
 * whose second reading prints "TOTAL EURO" and "TVA". A Singapore page whose second reading lost the
 * address and kept only "$", or a Vietnamese one where it misread a "USD", keeps the first's. The second
 * reading's currency is held below 0.9; the first's only when the second's was sure too.
 */
function currencyFromSecond(doc: Document, fields: FieldResults, secondDoc: Document, second: FieldResults, tag: string, hints: LocaleHints): FieldResults {
  const a = fields.currencyCode, b = second.currencyCode;
  if (!b || (a && a.value === b.value)) return fields;
  const lineIndex = mapLine(doc, secondDoc, b.lineIndex);
  const code = lineIndex >= 0 ? { ...b, lineIndex } : { ...b, lineIndex: 0, text: doc.lines[0]?.text ?? '', boxes: [] };
  if (!a) return { ...fields, currencyCode: code, evidence: { ...fields.evidence, currencyCode: [`${tag}-only`] } };
  // inferLocale reads only a document's text: both readings' texts as one
  if (b.confidence > a.confidence && inferLocale({ text: `${doc.text}\n${secondDoc.text}` } as Document, hints).currency === b.value) {
    return { ...fields, currencyCode: { ...code, confidence: roundConfidence(Math.min(b.confidence, READERS_DISAGREE_CAP)) }, evidence: { ...fields.evidence, currencyCode: [...(second.evidence?.currencyCode ?? []), `${tag}-by-both-readings`] } };
  }
  const confidence = b.confidence >= 0.9 ? roundConfidence(Math.min(a.confidence, READERS_DISAGREE_CAP)) : a.confidence;
  return { ...fields, currencyCode: { ...a, confidence }, evidence: { ...fields.evidence, currencyCode: [...(fields.evidence?.currencyCode ?? []), `${tag}-differs`] } };
}

/** The mean OCR confidence of a reading's words (0 when it has none). */
function readingConfidence(doc: Document): number {
  let n = 0, sum = 0;
  for (const line of doc.lines) for (const w of line.words) { n++; sum += w.confidence; }
  return n ? Math.round((sum / n) * 1000) / 1000 : 0;
}

/** The first document's line overlapping line `i` of the second reading most (-1 when none). */
function mapLine(doc: Document, secondDoc: Document, i: number): number {
  const line = secondDoc.lines[i];
  return line ? closestLine(doc, line) : -1;
}

function mapItem(doc: Document, secondDoc: Document, it: LineItem): LineItem {
  const part = <T>(p: ItemPart<T>): ItemPart<T> => ({ ...p, lineIndex: Math.max(0, mapLine(doc, secondDoc, p.lineIndex)) });
  const lineIndices = [...new Set(it.lineIndices.map((i) => mapLine(doc, secondDoc, i)).filter((i) => i >= 0))];
  return {
    ...it,
    name: part(it.name), quantity: part(it.quantity), unitPrice: part(it.unitPrice), totalPrice: part(it.totalPrice),
    ...(it.productCode ? { productCode: part(it.productCode) } : {}),
    lineIndex: lineIndices[0] ?? Math.max(0, mapLine(doc, secondDoc, it.lineIndex)),
    lineIndices,
  };
}

/**
 * A date whose day/month order nothing on the page settled stays below 0.9 whatever the other readings
 * say: a second reader, a re-read line or a confirming pass agree on the digits ("04/07/2018"), not on
 * which is the month (measured: a US receipt's 04/07/2018 read day-first, 0.38, raised to 0.91 by agreement).
 */
export function capUnsettledOrder(fields: FieldResults): FieldResults {
  const d = fields.date;
  if (!d || d.confidence <= AMBIGUOUS_ORDER_MAX_CONFIDENCE || !d.marks?.orderUnsettled) return fields;
  return { ...fields, date: { ...d, confidence: AMBIGUOUS_ORDER_MAX_CONFIDENCE } };
}
