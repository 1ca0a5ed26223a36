/**
 * Where the reading of a one-page image stops (issue 51 item 2): once a stage's core fields (total, date,
 * merchant name, currency) are each at or above that stage's stop line, nothing more is read for them. The
 * lines (models/cascade.json, fitted by scripts/fit-cascade.mjs on the pool's recorded readings) are the
 * lowest confidences from which a stage's answers were right at least 99 % of the time on held-out sources.
 *
 * - `tesseract`: the first reading alone is sure: the second reader does not read the page;
 * - `both`: of the two readings weighed, a sure total is not read again (its second look, the confirming passes),
 *   nor a sure date (its second look); with both sure, no alternate readings either. The re-readings are of
 *   the total and the date, so the name and the currency do not decide this stop.
 */
import { installedModel } from '../resolve/installed.js';
import type { FieldResults } from '../fields/types.js';

/** The fields whose confidence decides a stop, as FieldResults names them. */
export const CASCADE_FIELDS = ['totalAmount', 'date', 'merchantName', 'currencyCode'] as const;
type CascadeField = (typeof CASCADE_FIELDS)[number];
/** The record keys scripts/fit-cascade.mjs writes the lines under. */
const KEYS: Record<CascadeField, string> = { totalAmount: 'total', date: 'date', merchantName: 'name', currencyCode: 'currency' };

export type CascadeStage = 'tesseract' | 'both';
/** One stage's stop lines: a confidence per core field (absent or null: the stage never stops). */
export type StopLines = Partial<Record<string, number | null>>;
export interface CascadeModel { version: 1; stages: Partial<Record<CascadeStage, StopLines>> }

/** True when the field is found at or above its line. */
export function sureOf(fields: FieldResults, k: CascadeField, lines: StopLines | undefined): boolean {
  const line = lines?.[KEYS[k]];
  const f = fields[k];
  return typeof line === 'number' && !!f && f.confidence >= line;
}

/** True when each core field of `fields` is found at or above its line. */
export function stopsAt(fields: FieldResults, lines: StopLines | undefined): boolean {
  return CASCADE_FIELDS.every((k) => sureOf(fields, k, lines));
}

/** True when a stage can stop at all: each core field has a line (a null line, none held 99 %, never stops). */
export function canStop(lines: StopLines | undefined): boolean {
  return !!lines && CASCADE_FIELDS.every((k) => typeof lines[KEYS[k]] === 'number');
}

/** A model file checked: version 1, each line a number in [0, 1] or null. Throws on a malformed file. */
export function checkCascadeModel(m: unknown): CascadeModel {
  const o = m as CascadeModel;
  if (!o || o.version !== 1 || typeof o.stages !== 'object' || o.stages === null) throw new Error('models/cascade.json: not a version 1 cascade model');
  for (const [stage, lines] of Object.entries(o.stages)) {
    if (stage !== 'tesseract' && stage !== 'both') throw new Error(`models/cascade.json: unknown stage ${stage}`);
    for (const [k, v] of Object.entries(lines ?? {})) {
      if (v !== null && !(typeof v === 'number' && v >= 0 && v <= 1)) throw new Error(`models/cascade.json: ${stage}.${k} is not a confidence`);
    }
  }
  return o;
}

/** The installed stop lines (models/cascade.json, read once), or undefined when there are none. */
export const cascadeModel: () => CascadeModel | undefined = installedModel('cascade.json', checkCascadeModel);
