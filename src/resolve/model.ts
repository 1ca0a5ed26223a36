/**
 * The candidates the resolver weighs, for fitting (issue 34): each field's rule list records what its
 * terms found about a candidate as named features, and `candidateTaps` hands every candidate of every
 * field, with its features, to the listeners scripts/fit-fields.mjs registers. Nothing is registered at
 * run time, and then nothing is listed: the candidates are only built when a listener wants them.
 */
import type { FieldResults } from '../fields/types.js';

/** One candidate the resolver weighed: its value and its features. */
export interface TappedCandidate { value: string | number; features: Record<string, number>; /** The rank score the resolver used, if any (for comparing). */ score?: number }
export type CandidateTap = (field: string, candidates: readonly TappedCandidate[]) => void;
export const candidateTaps: CandidateTap[] = [];

/** Tells the taps (the fit script) what candidates a field weighed; `list` runs only when a tap listens. */
export function tapCandidates(field: string, list: () => readonly TappedCandidate[]): void {
  if (!candidateTaps.length) return;
  const candidates = list();
  for (const t of candidateTaps) t(field, candidates);
}

/** One reading's answer to a field where two readings are weighed (read/combine.ts): its value, confidence, evidence terms and its reading's mean word confidence. */
export interface TappedAnswer { value: unknown; confidence: number; terms: readonly string[]; reading?: number }
/**
 * Two readings weighed for one field: what each answered (absent: it read none), which one stood, whether the
 * page is a photo whose paper was found, and how many of the page's whole-page readings gave each answer's value.
 */
export interface TappedCombine { tag: string; field: string; first?: TappedAnswer; second?: TappedAnswer; chosen: 'first' | 'second' | 'both'; paper?: boolean; support?: readonly [number, number] }
export type CombineTap = (c: TappedCombine) => void;
/** Listeners to each weighing of two readings (scripts/fit-fields.mjs records them: a learned choice between readings is fitted from them). */
export const combineTaps: CombineTap[] = [];

/** Tells the taps how two readings' answers to a field were weighed; `make` runs only when a tap listens. */
export function tapCombine(make: () => TappedCombine): void {
  if (!combineTaps.length) return;
  const c = make();
  for (const t of combineTaps) t(c);
}

/**
 * One reading's fields as a cascade would stop on them (read/index.ts): `tesseract` the first reading's alone,
 * `paddleocr` the second reader's alone, `both` the two weighed as the reading would end with nothing read again.
 */
export interface TappedReading { stage: 'tesseract' | 'paddleocr' | 'both'; fields: FieldResults }
export type ReadingTap = (r: TappedReading) => void;
/** Listeners to the fields of the first readings (bench/cascade.mjs measures where a cascade could stop). */
export const readingTaps: ReadingTap[] = [];

/** Tells the taps a stage's fields; `make` runs only when a tap listens. */
export function tapReading(stage: TappedReading['stage'], make: () => TappedReading['fields']): void {
  if (!readingTaps.length) return;
  const fields = make();
  for (const t of readingTaps) t({ stage, fields });
}
