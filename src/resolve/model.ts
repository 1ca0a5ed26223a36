/**
 * The fitted field models (models/fields.json, written by scripts/fit-fields.mjs): per field, a weight
 * for each named feature of a candidate (the terms of the field's rule list), fitted as a regularised
 * logistic regression on the tune halves of the corpus, and a calibration (Platt scaling on the top
 * candidate's log-odds and its margin over the first rival) that makes the chosen value's confidence
 * the share of such values that were right. The rules find the features; the numbers are the model's.
 *
 * `candidateTaps`: listeners the fit script registers to collect every candidate the resolver weighed,
 * with its features (nothing is registered at run time).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface FieldModel {
  bias: number;
  weights: Record<string, number>;
  /** confidence = logistic(a * logOdds + b * margin + c), margin = top's log-odds - first rival's (capped). */
  calibration: { a: number; b: number; c: number; marginCap: number };
}

export interface FieldsFile {
  version: 1;
  fields: Record<string, FieldModel>;
  fitted?: unknown;
}

/** One candidate the resolver weighed: its value and its features. */
export interface TappedCandidate { value: string | number; features: Record<string, number>; /** The rank score the resolver used, if any (for comparing). */ score?: number }
export type CandidateTap = (field: string, candidates: readonly TappedCandidate[]) => void;
export const candidateTaps: CandidateTap[] = [];

/** Tells the taps (the fit script) what candidates a field weighed. */
export function tapCandidates(field: string, candidates: readonly TappedCandidate[]): void {
  for (const t of candidateTaps) t(field, candidates);
}

let loaded: FieldsFile | undefined;

/** The models in models/fields.json (read once). */
export function fieldsFile(): FieldsFile {
  if (!loaded) {
    const file = fileURLToPath(new URL('../../models/fields.json', import.meta.url));
    const m = JSON.parse(readFileSync(file, 'utf8')) as FieldsFile;
    if (m.version !== 1 || typeof m.fields !== 'object') throw new Error(`${file}: not a fields model`);
    loaded = m;
  }
  return loaded;
}

/** The model of one field; throws when the file has none (run scripts/fit-fields.mjs). */
export function fieldModel(field: string): FieldModel {
  const m = fieldsFile().fields[field];
  if (!m) throw new Error(`models/fields.json has no model for ${field} (run node scripts/fit-fields.mjs)`);
  return m;
}

/** The candidate's log-odds of being right: bias plus the weighted features (unknown features weigh 0). */
export function logOdds(m: FieldModel, features: Record<string, number>): number {
  let z = m.bias;
  for (const [k, v] of Object.entries(features)) z += (m.weights[k] ?? 0) * v;
  return z;
}

/** What each feature added to the log-odds, largest first (the evidence of a choice). */
export function contributions(m: FieldModel, features: Record<string, number>): Array<[string, number]> {
  return Object.entries(features)
    .map(([k, v]): [string, number] => [k, Math.round((m.weights[k] ?? 0) * v * 100) / 100])
    .filter(([, c]) => c !== 0)
    .sort((a, b) => b[1] - a[1]);
}

/** The calibrated probability that the top candidate is right, from its log-odds and its margin over the first rival. */
export function calibrated(m: FieldModel, top: number, rival: number | undefined): number {
  const { a, b, c, marginCap } = m.calibration;
  const margin = rival === undefined ? marginCap : Math.min(marginCap, top - rival);
  return 1 / (1 + Math.exp(-(a * top + b * margin + c)));
}
