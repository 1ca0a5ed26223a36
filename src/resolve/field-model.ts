/**
 * Fitted ranking of a field's candidates (issue 34). Each named term of a field's rule list records what
 * it found about a candidate as a feature (1 = present, or a measure such as the label's place);
 * scripts/fit-fields.mjs fits one weight per feature on the tune halves of the corpus and writes
 * models/fields.json: a conditional logit (within one candidate list, the right candidate's share of
 * exp(score) is maximised), with sign constraints where a term's direction is known and an L2 penalty on
 * the distance from the rules' hand-set numbers (the data move them as far as they earn; the penalty is
 * chosen by cross-validation on the tune halves). A candidate's rank is the sum of its features' weights.
 * It is used with the engine option `ranking: 'fitted'`, and by default for the fields of FITTED_BY_DEFAULT
 * (the name); the others rank by their hand-set scores by default (the fitted ranking was not better on
 * the whole corpus's final totals, nor different on its dates; the tax's chooses as its rules do on every
 * labelled tax, and rules the tune halves never saw decide, such as several tax rows summed, get no
 * weight; docs/decisions/2026-11-28-fitted-ranking-*.md). The terms'
 * log-odds give the confidence either way (resolve/money/total.ts chooseTotal, resolve/name.ts).
 */
import { installedModel } from './installed.js';

/**
 * A node of a fitted tree (scripts/fit-boost.mjs): `[feature, threshold, left, right]` (a candidate whose
 * feature, 0 when it lacks it, is at most the threshold goes to the node at index `left`) or `[value]`, a leaf.
 */
export type TreeNode = [string, number, number, number] | [number];

/**
 * The confidence of the model's top candidate, where the fit gave one (scripts/fit-fields.mjs --confidence
 * model): a logistic map of its score and its margin over the first rival (capped at `marginCap`; 5 without a
 * rival), fitted on out-of-fold tops (with --folds source, each source's tops scored by a model fitted without it).
 */
export interface ModelConfidence { a: number; b: number; c: number; marginCap: number }
/** One field's fitted model: a weight per feature, optionally boosted trees whose leaves add to the score and a confidence map. */
export interface RankModel { weights: Record<string, number>; trees?: TreeNode[][]; confidence?: ModelConfidence }

/** The margin given a top candidate without a rival (as the fit's out-of-fold tops are). */
export const NO_RIVAL_MARGIN = 5;

/** The model's confidence in its top candidate, or undefined when the model has no confidence map. */
export function modelConfidence(m: RankModel, topScore: number, rivalScore: number | undefined): number | undefined {
  const k = m.confidence;
  if (!k) return undefined;
  const margin = Math.min(k.marginCap, rivalScore === undefined ? NO_RIVAL_MARGIN : topScore - rivalScore);
  return 1 / (1 + Math.exp(-(k.a * topScore + k.b * margin + k.c)));
}

export interface FieldModels { version: 1; fields: Record<string, RankModel>; fitted?: unknown }

/** The fields the library ranks by a fitted model when models/fields.json has one. */
export const RANKED_FIELDS = ['total', 'name', 'date', 'tax'] as const;
export type RankedField = (typeof RANKED_FIELDS)[number];

/**
 * The fields ranked by their fitted model when the caller does not choose (engine option `ranking`
 * omitted): those whose fitted ranking measured no worse on either half of any set of the whole corpus
 * and better on the whole (docs/decisions/2026-11-28-fitted-ranking-*.md). The name: tune halves +6 names, check halves +2.
 * Not the total (the fitted one lost final totals), nor the date or the tax (the fitted ones changed none).
 */
export const FITTED_BY_DEFAULT: ReadonlySet<RankedField> = new Set(['name']);

/** The model to rank a field by under the caller's `ranking` choice (omitted: FITTED_BY_DEFAULT), if installed. */
export function rankingModel(field: RankedField, ranking: 'fitted' | 'hand-set' | undefined): RankModel | undefined {
  const fitted = ranking === 'fitted' || (ranking === undefined && FITTED_BY_DEFAULT.has(field));
  return fitted ? fieldModel(field) : undefined;
}

/** A candidate's fitted score: the sum of its features' weights (features the model does not know add nothing), plus its trees' leaves. */
export function modelScore(m: RankModel, features: Readonly<Record<string, number>>): number {
  let s = 0;
  for (const [k, v] of Object.entries(features)) {
    const w = m.weights[k];
    if (w !== undefined && Number.isFinite(v)) s += w * v;
  }
  for (const tree of m.trees ?? []) {
    let n = tree[0]!;
    while (n.length === 4) {
      const v = features[n[0]];
      n = tree[(v !== undefined && Number.isFinite(v) ? v : 0) <= n[1] ? n[2] : n[3]]!;
    }
    s += n[0];
  }
  return s;
}

/** A tree checked: every node a leaf with a finite value or a split whose children are later nodes (so a walk ends). */
function checkTree(field: string, tree: unknown): void {
  if (!Array.isArray(tree) || !tree.length) throw new Error(`models/fields.json: ${field} has an empty tree`);
  tree.forEach((n: unknown, i) => {
    const ok = Array.isArray(n) && ((n.length === 1 && Number.isFinite(n[0])) || (n.length === 4 && typeof n[0] === 'string' && Number.isFinite(n[1])
      && Number.isInteger(n[2]) && Number.isInteger(n[3]) && n[2] > i && n[3] > i && n[2] < tree.length && n[3] < tree.length));
    if (!ok) throw new Error(`models/fields.json: ${field} has a malformed tree node at ${i}`);
  });
}

/** A model file checked: every weight a finite number. Throws on a malformed file (a packaging fault, not a user's). */
export function checkFieldModels(m: unknown): FieldModels {
  const o = m as FieldModels;
  if (!o || o.version !== 1 || typeof o.fields !== 'object' || o.fields === null) throw new Error('models/fields.json: not a version 1 field model');
  for (const [field, fm] of Object.entries(o.fields)) {
    if (!fm || typeof fm.weights !== 'object') throw new Error(`models/fields.json: ${field} has no weights`);
    for (const [k, w] of Object.entries(fm.weights)) if (typeof w !== 'number' || !Number.isFinite(w)) throw new Error(`models/fields.json: ${field}.${k} is not a number`);
    if (fm.confidence !== undefined && !(['a', 'b', 'c', 'marginCap'] as const).every((k) => typeof fm.confidence?.[k] === 'number' && Number.isFinite(fm.confidence[k]))) {
      throw new Error(`models/fields.json: ${field}.confidence is not {a, b, c, marginCap}`);
    }
    if (fm.trees !== undefined) {
      if (!Array.isArray(fm.trees)) throw new Error(`models/fields.json: ${field}.trees is not a list`);
      for (const t of fm.trees) checkTree(field, t);
    }
  }
  return o;
}

const installedFields = installedModel('fields.json', (m) => checkFieldModels(m));

/** The installed model of a field (models/fields.json, read once), or undefined when there is none. */
export function fieldModel(field: RankedField): RankModel | undefined {
  return installedFields()?.fields[field];
}
