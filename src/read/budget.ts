/**
 * What a page's re-readings may cost. The first readings (tesseract and PaddleOCR on the whole page)
 * always run; every re-reading after them (another language, another image, second looks, confirming
 * passes) starts only while it fits both limits:
 *
 * - `readings`: how many whole-page readings' worth of re-reading the page may have (a few lines read
 *   again count as a share of one, REREAD_COST). Counted, not timed, so the same page gets the same answer
 *   on a fast machine and on a busy one.
 * - `ms`: off by default. An opt-in wall-clock limit (engine option `pageBudgetMs`): a re-reading starts
 *   only while the time so far plus what the first reading of this page cost (scaled by REREAD_COST)
 *   stays within it. The answer then depends on the machine's load (measured at 8000 ms: 40 of 509 corpus
 *   answers changed at load 9), so the default reading does not use it; a caller's deadline is `timeoutMs`.
 *
 * A re-reading a limit stops is named, and the result says so in a warning. So are all of a page in a script
 * the data used cannot read (read/index.ts).
 */

/**
 * Default wall-clock budget of one page's reading in ms (engine option `pageBudgetMs`): 0 = none, so that
 * an answer depends on the file and the options only, never on the machine's load.
 */
export const DEFAULT_PAGE_BUDGET_MS = 0;
/** Default count of whole-page re-readings a page may have (engine option `rereadBudget`). */
export const DEFAULT_REREAD_BUDGET = 5;

/** Expected cost of a re-reading, in whole-page readings. */
export const REREAD_COST: Readonly<Record<'whole' | 'lines', number>> = {
  /** The whole page again (another language, the plain image, a pass at another scale). */
  whole: 1,
  /** A few lines again at several heights (the date, the items). */
  lines: 0.25,
};

/** A total read below this confidence by both readers, with no date by either, is a page read as noise. */
export const NOISE_TOTAL_BELOW = 0.3;

/** What readsAsNoise looks at of a reading's fields. */
export interface NoiseSignals {
  totalAmount?: { confidence: number } | undefined;
  date?: unknown;
}

/**
 * Both readers read the page as noise: neither found a date, and neither a total at NOISE_TOTAL_BELOW
 * (a photo of something else, or too blurred to read). Re-reading such a page (measured on the corpus:
 * 8 pages, the re-readings gave none of them a right total or date) only costs time.
 */
export function readsAsNoise(first: NoiseSignals, second: NoiseSignals): boolean {
  return [first, second].every((f) => !f.date && !((f.totalAmount?.confidence ?? 0) >= NOISE_TOTAL_BELOW));
}

export interface BudgetLimits {
  /** Wall-clock ms (0 = none). */
  ms: number;
  /** Whole-page re-readings (Infinity = none). */
  readings: number;
}

export class PageBudget {
  private readonly started: number;
  private readonly now: () => number;
  /** Cost of the first whole-page reading in ms (the unit of the expected times). */
  private firstMs = 0;
  /** Re-readings spent so far, in whole-page readings. */
  private used = 0;
  /** Why the page is not read again at all, when it is not (e.g. it reads as noise). */
  private stopped: string | undefined;
  /** The re-readings a limit stopped, in order. */
  readonly skipped: string[] = [];
  readonly limits: BudgetLimits;

  constructor(limits: Partial<BudgetLimits> = {}, now: () => number = () => performance.now()) {
    this.limits = { ms: limits.ms ?? DEFAULT_PAGE_BUDGET_MS, readings: limits.readings ?? DEFAULT_REREAD_BUDGET };
    this.now = now;
    this.started = now();
  }

  /** Stops every re-reading from here on, for this reason. */
  stop(reason: string): void { this.stopped = reason; }

  /** Time the page has taken so far. */
  spent(): number { return this.now() - this.started; }

  /** Records what the first whole-page reading cost. */
  firstReading(ms: number): void { this.firstMs = Math.max(this.firstMs, ms); }

  /**
   * Whether a re-reading of this kind still fits; when it does, it is counted as spent, and when it does
   * not, it is recorded as skipped under `name`. `untimed`: only the count applies (a reading that is
   * part of reading the page at all, as the page's own language for a script the first model cannot
   * spell, is not given up to a busy machine). `times`: that many re-readings of the kind, admitted
   * together or not at all (readings that only count as a set).
   */
  allows(name: string, kind: keyof typeof REREAD_COST, untimed = false, times = 1): boolean {
    if (this.stopped) { this.skipped.push(name); return false; }
    const cost = REREAD_COST[kind] * times;
    const counted = this.used + cost <= this.limits.readings + 1e-9;
    const timed = untimed || !(this.limits.ms > 0) || this.spent() + cost * this.firstMs <= this.limits.ms;
    if (counted && timed) { this.used += cost; return true; }
    this.skipped.push(name);
    return false;
  }

  /** The warning for the re-readings that were stopped, if any. */
  warning(): string | undefined {
    if (!this.skipped.length) return undefined;
    const why = this.stopped ?? `the page's reading budget was spent (${Math.round(this.spent())} ms of ${this.limits.ms || 'unlimited'}, ${this.used} of ${this.limits.readings} re-readings)`;
    return `${why}: not read again (${[...new Set(this.skipped)].join(', ')})`;
  }
}
