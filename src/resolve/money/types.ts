/**
 * The shapes the money rules share: the candidate values of the total and the context every rule reads
 * (facts, tolerance, derivations, values). What they choose (ChosenAmount, MoneyResolution) is in
 * fields/amounts.ts, beside the candidates, where the line-item finder reads it too.
 */
import type { MoneyCandidate, MoneyFacts } from '../../fields/amounts.js';
import type { Derivation } from '../arithmetic.js';
import type { EvidenceTerm } from '../../fields/confidence.js';

export interface MoneyOptions { wholeCurrency: boolean; lineCount: number }

/** One value the total may have, with every printed or repaired occurrence of it. */
export interface ValueCandidate {
  value: number;
  /** Printed occurrences with this exact reading. */
  printed: MoneyCandidate[];
  /** Occurrences where an OCR-repaired reading gives this value. */
  repairedFrom: MoneyCandidate[];
  score: number;
  terms: EvidenceTerm[];
  support: Derivation[];
  keyword: string;
  source?: MoneyCandidate;
  /** What the total's terms found about the value, by feature name (the model's input). */
  features?: Record<string, number>;
  /** Score added by each total term that changed it, in the order they ran. */
  gains?: Array<[string, number]>;
}

/** A rounding line applied to a total (printed, or derived when `pre` is absent): the rounded value. */
export interface RoundingApplied { pre?: MoneyCandidate; value: number; printedAfter: boolean; repaired: boolean }

/** What every money rule reads: the facts, the tolerance, the arithmetic's derivations and the candidate values. */
export interface MoneyContext {
  facts: MoneyFacts;
  opts: MoneyOptions;
  /** Half a cent, or half a unit for whole currencies. */
  tol: number;
  eq: (a: number, b: number) => boolean;
  /** The candidates with one of these roles, in reading order. */
  by: (...roles: string[]) => MoneyCandidate[];
  /** Below this a rounding line is a rounding (0.1, or 100 for whole currencies). */
  smallRounding: number;
  roundingCands: MoneyCandidate[];
  /** Rounding-labelled amounts too large to be a rounding: rounded totals. */
  roundingAsTotal: MoneyCandidate[];
  derived: Derivation[];
  roundingApplied: RoundingApplied[];
  /** The key of a value: equal within the tolerance = same key. */
  keyOf: (v: number) => string;
  derivedByKey: Map<string, Derivation[]>;
  derivedAt: (v: number) => Derivation[];
  /** Lines a money-like value is printed on, by key. */
  printedLines: Map<string, Set<number>>;
  /** Keys of the amounts labelled as paid. */
  paidKeys: Set<string>;
  /** Amounts labelled total, rounded total or balance. */
  totalLabelled: MoneyCandidate[];
  /** The total's candidate values, by key, in the order they were found. */
  values: Map<string, ValueCandidate>;
  /** The largest printed money amount that is not a payment, change, balance, points, deposit, info or quantity. */
  maxOther: number;
  /** The keys of the printed money amounts that are not a payment, change or the like, largest first (one per value). */
  rivalKeys: string[];
  /** The median height of the page's lines, pixels (0 when there are none). */
  medianLineHeight: number;
  /** Totals labelled as final (after rounding or discount), readable. */
  finalTotals: MoneyCandidate[];
}
