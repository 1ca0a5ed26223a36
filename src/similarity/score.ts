/**
 * The similarity score of two scans: a logistic model over the pair features (features.ts), fitted by
 * scripts/fit-similarity.mjs on copies of corpus receipts made by bench/similarity.mjs (the fit half of
 * the corpus) and stored in models/similarity.json. Classes are weighted equally when fitting (and,
 * among different receipts, those of one dataset three times those across datasets), so the score is
 * the probability of "same receipt" for a pair with even prior odds: above 0.9 the evidence is at
 * least 9:1 for the same receipt.
 *
 * Each measure adds its weight times its value to the log-odds; a measure a side cannot provide adds
 * its "missing" weight instead (e.g. a text-layer PDF has no image measures; a receipt whose total was
 * not read gives no total agreement). `basis` names the strongest evidence, for the validation reason.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PairFeatures } from './features.js';
import { smallestAspectDiff, compareImagesOf, contentFeatures } from './features.js';
import type { SimilaritySignature } from './index.js';

/** One term of the model: a transform of a pair feature. */
export type TermName =
  | 'thumbCorr' | 'thumbHigh' | 'thumbUnread' | 'profileCorr' | 'profileHigh' | 'phashSim' | 'aspectDiff' | 'imageMissing'
  | 'totalSame' | 'totalDiff' | 'dateSame' | 'dateDiff' | 'numberSame' | 'numberDiff' | 'timeSame' | 'timeDiff'
  | 'merchant' | 'amounts' | 'amountsLow' | 'amountsMissing' | 'digits' | 'digitsLow' | 'digitsMissing' | 'text' | 'textLow' | 'textMissing';

export const TERMS: readonly TermName[] = [
  'thumbCorr', 'thumbHigh', 'thumbUnread', 'profileCorr', 'profileHigh', 'phashSim', 'aspectDiff', 'imageMissing',
  'totalSame', 'totalDiff', 'dateSame', 'dateDiff', 'numberSame', 'numberDiff', 'timeSame', 'timeDiff',
  'merchant', 'amounts', 'amountsLow', 'amountsMissing', 'digits', 'digitsLow', 'digitsMissing', 'text', 'textLow', 'textMissing',
];

/**
 * Above these correlations the "High" terms grow: different receipts often correlate at 0.6-0.85 (one
 * template, lines of text), copies of one receipt above 0.9, so the evidence is not linear in r.
 */
export const HIGH_CORRELATION = 0.85;
const high = (v: number | null) => (v === null ? 0 : Math.max(0, v - HIGH_CORRELATION) / (1 - HIGH_CORRELATION));

/** Below these overlaps the "Low" terms grow: little in common, when both sides were read, is evidence of two receipts. */
export const LOW_OVERLAP = { amounts: 0.4, digits: 0.4, text: 0.5 } as const;
const low = (v: number | null, at: number) => (v === null ? 0 : Math.max(0, at - v) / at);

/** The model's inputs for a pair (all 0 when the measure is missing, with the matching *Missing term 1). */
export function termsOf(f: PairFeatures): Record<TermName, number> {
  const img = f.thumbCorr !== null;
  return {
    thumbCorr: img ? f.thumbCorr! : 0,
    thumbHigh: img ? high(f.thumbCorr) : 0,
    // the image has to carry the decision when the OCR could not read a side's text
    thumbUnread: img && f.text === null ? f.thumbCorr! : 0,
    profileCorr: img ? f.profileCorr! : 0,
    profileHigh: img ? high(f.profileCorr) : 0,
    phashSim: img ? 1 - 2 * f.phashDist! : 0, // 1 identical, ~0 unrelated
    aspectDiff: img && f.aspectDiff !== null ? Math.min(f.aspectDiff, 0.7) : 0,
    imageMissing: img ? 0 : 1,
    totalSame: f.total === 1 ? 1 : 0,
    totalDiff: f.total === 0 ? 1 : 0,
    dateSame: f.date === 1 ? 1 : 0,
    dateDiff: f.date === 0 ? 1 : 0,
    numberSame: f.number !== null && f.number > 0 ? f.number : 0,
    numberDiff: f.number === 0 ? 1 : 0,
    timeSame: f.time === 1 ? 1 : 0,
    timeDiff: f.time === 0 ? 1 : 0,
    merchant: f.merchant !== null ? f.merchant - 0.5 : 0,
    amounts: f.amounts ?? 0,
    amountsLow: low(f.amounts, LOW_OVERLAP.amounts),
    amountsMissing: f.amounts === null ? 1 : 0,
    digits: f.digits ?? 0,
    digitsLow: low(f.digits, LOW_OVERLAP.digits),
    digitsMissing: f.digits === null ? 1 : 0,
    text: f.text ?? 0,
    textLow: low(f.text, LOW_OVERLAP.text),
    textMissing: f.text === null ? 1 : 0,
  };
}

export interface SimilarityModel {
  version: 1;
  bias: number;
  weights: Partial<Record<TermName, number>>;
  /** How it was fitted (script, data, cross-validated rates). */
  fitted?: unknown;
}

let loaded: SimilarityModel | undefined;

/** The model in models/similarity.json (read once). */
export function defaultModel(): SimilarityModel {
  if (!loaded) {
    const file = fileURLToPath(new URL('../../models/similarity.json', import.meta.url));
    const m = JSON.parse(readFileSync(file, 'utf8')) as SimilarityModel;
    if (m.version !== 1 || typeof m.bias !== 'number' || typeof m.weights !== 'object') throw new Error(`${file}: not a similarity model`);
    loaded = m;
  }
  return loaded;
}

export function logOdds(terms: Record<TermName, number>, model: SimilarityModel): number {
  let z = model.bias;
  for (const t of TERMS) z += (model.weights[t] ?? 0) * terms[t];
  return z;
}

export interface PairScore {
  /** 0..0.99, rounded to 3 decimals; above 0.9 is a likely duplicate (1 is kept for the same file). */
  score: number;
  /** What agreed, for the reason sentence. */
  basis: string;
  features: PairFeatures;
}

export const MAX_MODEL_SCORE = 0.99;

/**
 * The score of a pair. With `floor`, a pair that cannot reach it even with perfectly matching images
 * (an exact bound from the content and the cheap image measures) is not aligned: null is returned.
 */
export function scorePair(a: SimilaritySignature, b: SimilaritySignature, model?: SimilarityModel): PairScore;
export function scorePair(a: SimilaritySignature, b: SimilaritySignature, model: SimilarityModel | undefined, floor: number): PairScore | null;
export function scorePair(a: SimilaritySignature, b: SimilaritySignature, model: SimilarityModel = defaultModel(), floor?: number): PairScore | null {
  const content = contentFeatures(a.content, b.content);
  if (floor !== undefined) {
    // the image terms at their best: each correlation or hash term adds at most |weight|
    const aspect = smallestAspectDiff(a.image, b.image);
    let bound = logOdds(termsOf({ thumbCorr: null, profileCorr: null, phashDist: null, aspectDiff: null, ...content }), model);
    if (aspect !== null) {
      bound = logOdds(termsOf({ thumbCorr: 0, profileCorr: 0, phashDist: 0.5, aspectDiff: aspect, ...content }), model);
      for (const t of ['thumbCorr', 'thumbHigh', 'thumbUnread', 'profileCorr', 'profileHigh', 'phashSim'] as const) bound += Math.abs(model.weights[t] ?? 0);
    }
    if (1 / (1 + Math.exp(-bound)) < floor) return null;
  }
  const features: PairFeatures = { ...compareImagesOf(a.image, b.image), ...content };
  const z = logOdds(termsOf(features), model);
  const p = 1 / (1 + Math.exp(-z));
  return { score: Math.min(MAX_MODEL_SCORE, Math.round(p * 1000) / 1000), basis: describe(features), features };
}

/** A short account of what agreed and what did not. */
export function describe(f: PairFeatures): string {
  const same: string[] = [], differ: string[] = [];
  const pair = (v: number | null, name: string) => { if (v === 1) same.push(name); else if (v === 0) differ.push(name); };
  pair(f.merchant === null ? null : f.merchant >= 0.8 ? 1 : 0, 'merchant');
  pair(f.date, 'date');
  pair(f.time, 'time');
  pair(f.total, 'total');
  pair(f.number === null ? null : f.number > 0 ? 1 : 0, 'receipt number');
  const parts: string[] = [];
  if (same.length) parts.push(`same ${same.join(', ')}`);
  if (differ.length) parts.push(`different ${differ.join(', ')}`);
  const pctOf = (v: number | null) => (v === null ? null : `${Math.round(v * 100)} %`);
  const shared = [
    f.amounts !== null ? `${pctOf(f.amounts)} of the amounts` : '',
    f.text !== null ? `${pctOf(f.text)} of the text` : '',
  ].filter(Boolean);
  if (shared.length) parts.push(`${shared.join(' and ')} in common`);
  if (f.thumbCorr !== null) parts.push(`image correlation ${f.thumbCorr.toFixed(2)}`);
  return parts.join('; ') || 'no comparable values';
}
