/**
 * Confidence from evidence: every cue adds log-odds, the sum goes through a logistic function. Kept in
 * one place so that every field speaks the same language: 0.9 means "right at least 97 % of the time"
 * on the benchmark (bench/reliability.mjs checks it), below that it is a ranking. The finders here and the
 * resolvers of resolve/ both speak it, so it sits in the lower of the two folders.
 */

export interface EvidenceTerm {
  /** Short name, shown in the evidence list (e.g. `paid-change`). */
  name: string;
  /** Log-odds contributed. */
  weight: number;
}

/** Logistic of the summed log-odds, clamped to [0.01, 0.99] and rounded to two decimals. */
export function confidenceFrom(base: number, terms: readonly EvidenceTerm[]): number {
  const logit = base + terms.reduce((s, t) => s + t.weight, 0);
  return roundConfidence(1 / (1 + Math.exp(-logit)));
}

/** Two decimals in [0.01, 0.99], the way the contract reports it. */
export function roundConfidence(c: number): number {
  if (!Number.isFinite(c)) return 0.01;
  return Math.min(0.99, Math.max(0.01, Math.round(c * 100) / 100));
}

