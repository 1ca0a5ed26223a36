/** The reading stage's context and result (read/index.ts readDocument). */
import type { Document } from '../document/types.js';
import type { FieldContext, FieldResults } from '../fields/types.js';
import type { StageClock } from './clock.js';
import type { PageScript } from './script.js';
import type { CascadeModel } from './cascade.js';

export interface ReadContext {
  fields: FieldContext;
  /** tesseract codes of the call's languages. */
  languages: string[];
  langPath?: string | undefined;
  reading?: 'fast' | 'thorough' | 'cascade' | undefined;
  /** With `reading: 'cascade'`: where the reading stops (read/cascade.ts); absent: the installed lines (models/cascade.json). */
  cascade?: CascadeModel | undefined;
  confirmPasses?: number | undefined;
  /** Wall-clock budget of a page's reading in ms (read/budget.ts; 0 = none). */
  pageBudgetMs?: number | undefined;
  /** Whole-page re-readings a page may have (read/budget.ts). */
  rereadBudget?: number | undefined;
  signal: AbortSignal;
  clock?: StageClock;
}

export interface DocumentReading {
  document: Document;
  fields: FieldResults;
  /** Clockwise degrees the first page was turned to read upright. */
  rotation: number;
  warnings: string[];
  /**
   * The script of a page the data it was read with cannot read (read/script.ts), found after the first
   * readings (its re-readings with that data then stopped, unless the page named a Latin-script country:
   * latinCountry), or why the detection failed.
   */
  script?: { found: PageScript } | { error: string } | undefined;
}

