/**
 * The choice between two readings' answers to a field (read/combine.ts), fitted on the training pool
 * (issue 49): where two readings of one page give different values, a logistic model of which one is
 * right, on named features of the two answers (their confidences, which pair of readings, and the
 * evidence terms each has). scripts/fit-combine.mjs fits it from the weighings scripts/fit-fields.mjs
 * records (`combines`), on the weighings where exactly one of the two values is right, and writes
 * models/combine.json; bench/loso.mjs --combines scores the same fit held out per source.
 * Without the file the more confident answer stands (the rule the model replaced).
 */
import { installedModel } from './installed.js';
import { modelScore } from './field-model.js';
import type { RankModel } from './field-model.js';

/** One reading's answer as the choice sees it: its confidence, its evidence terms, and the mean OCR confidence of its reading's words. */
export interface ChoiceAnswer { confidence: number; terms: readonly string[]; reading?: number | undefined }

/**
 * What the choice knows of the page: a photo whose paper was found in it (document Page.paper), and the readers'
 * agreement: of the page's whole-page readings (both readers, its own-language, alternate and confirming readings),
 * how many gave the first answer's value and how many the second's.
 */
export interface ChoicePage { paper?: boolean | undefined; support?: readonly [number, number] | undefined }

/** The fitted choice: per field (totalAmount, date, taxAmount), weights of the features below; `bias` is the intercept. */
export interface ChoiceModels { version: 1; fields: Record<string, RankModel>; fitted?: unknown }

/** An evidence term's name without its details ("label:TOTAL(0.9)" -> "label", "score=7.21" -> "score"). */
export const termName = (t: string): string => t.replace(/[:(=@].*$/, '');

/**
 * The features of one weighing, positive toward the second answer: the confidence difference and each
 * confidence, the pair of readings (`tag:<tag>`), each reading's mean word confidence and their difference
 * (how well each reader read this page), whether the page is a photo whose paper was found, how many more of
 * the page's readings gave the second value than the first (`support-difference`) and how many besides its own
 * reading gave each (`second-support`, `first-support`), and per
 * evidence term whether only the second answer has it (+1), only the first (-1) or both or neither (0).
 * The fit script computes them with this function.
 */
export function choiceFeatures(tag: string, first: ChoiceAnswer, second: ChoiceAnswer, page: ChoicePage = {}): Record<string, number> {
  const f: Record<string, number> = {
    bias: 1,
    'confidence-difference': second.confidence - first.confidence,
    'first-confidence': first.confidence,
    'second-confidence': second.confidence,
    [`tag:${tag}`]: 1,
  };
  if (first.reading !== undefined && second.reading !== undefined) {
    f['first-reading'] = first.reading;
    f['second-reading'] = second.reading;
    f['reading-difference'] = second.reading - first.reading;
  }
  if (page.paper) f['paper-found'] = 1;
  if (page.support && page.support[1] !== page.support[0]) f['support-difference'] = page.support[1] - page.support[0];
  // each answer's support apart from its own reading: for the second reader's weighing, how many of tesseract's
  // readings also read PaddleOCR's value (the other reader agreeing) against tesseract's own repeats
  if (page.support && page.support[1] > 1) f['second-support'] = page.support[1] - 1;
  if (page.support && page.support[0] > 1) f['first-support'] = page.support[0] - 1;
  const a = new Set(first.terms.map(termName)), b = new Set(second.terms.map(termName));
  for (const t of new Set([...a, ...b])) {
    const d = (b.has(t) ? 1 : 0) - (a.has(t) ? 1 : 0);
    if (d) f[`term:${t}`] = d;
  }
  return f;
}

/** The second answer is the likelier right one: the model's log-odds above 0, or without a model the second more confident. */
export function preferSecond(model: RankModel | undefined, tag: string, first: ChoiceAnswer, second: ChoiceAnswer, page: ChoicePage = {}): boolean {
  if (!model) return second.confidence > first.confidence;
  return modelScore(model, choiceFeatures(tag, first, second, page)) > 0;
}

/** A model file checked: every weight a finite number. Throws on a malformed file (a packaging fault, not a user's). */
export function checkChoiceModels(m: unknown): ChoiceModels {
  const o = m as ChoiceModels;
  if (!o || o.version !== 1 || typeof o.fields !== 'object' || o.fields === null) throw new Error('models/combine.json: not a version 1 choice model');
  for (const [field, fm] of Object.entries(o.fields)) {
    if (!fm || typeof fm.weights !== 'object' || fm.weights === null) throw new Error(`models/combine.json: ${field} has no weights`);
    for (const [k, w] of Object.entries(fm.weights)) if (typeof w !== 'number' || !Number.isFinite(w)) throw new Error(`models/combine.json: ${field}.${k} is not a number`);
  }
  return o;
}

const installedChoices = installedModel('combine.json', (m) => checkChoiceModels(m));

/** The installed choice for a field (models/combine.json, read once), or undefined when there is none. */
export function choiceModel(field: string): RankModel | undefined {
  return installedChoices()?.fields[field];
}
