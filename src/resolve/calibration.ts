/**
 * Confidence that means what it says (issue 34). The resolvers' confidences come from hand-set
 * log-odds, and the whole-corpus bench showed them under-confident: names given 0.33 were right 73 % of
 * the time, totals given 0.88 right 96 %. Each field's final confidence is therefore mapped by a
 * monotone function fitted on the tune halves of the corpus (scripts/fit-calibration.mjs: isotonic
 * regression of "the value is right" on the resolver's confidence, pooled over every set, in blocks of
 * at least 20 values), and checked on the check halves (bench/reliability.mjs).
 *
 * The map is piecewise linear between its knots (a block's mean confidence, the block's share right
 * with one right and one wrong added) and flat outside them, so a higher confidence never maps lower.
 * A value is put at 0.9 or above only from the lowest confidence of a block whose share right is at
 * least 0.9 with 95 % certainty (Wilson bound), and never from below 0.9: the map lowers values that
 * accepted unchecked would fail too often and raises low ones toward their share right, but it never
 * adds values to those a user accepts at 0.9.
 * Stored in models/calibration.json with the fit's date and data; `calibrated: false` (engine option)
 * returns the resolvers' own confidences, which is what a refit reads.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FieldResults, Located } from '../fields/types.js';
import { roundConfidence } from '../fields/confidence.js';

/** The fields whose confidence is mapped: those the bench scores (bench/score.mjs FIELDS). */
export const CALIBRATED_FIELDS = ['totalAmount', 'taxAmount', 'date', 'merchantName', 'merchantAddress', 'invoiceNumber', 'currencyCode'] as const;
export type CalibratedField = (typeof CALIBRATED_FIELDS)[number];

/**
 * One field's map: knots with increasing x and non-decreasing y, in [0, 1]; `hiFrom`, the lowest
 * confidence of the first block mapped to 0.9 or above (below it the map stays under 0.9, where the line
 * between two knots would cross it).
 */
export interface CalibrationMap { x: number[]; y: number[]; hiFrom?: number }

/** The ways of reading a page (the engine's `reading` option) a model may have maps of its own for. */
const READINGS = ['thorough', 'cascade', 'fast'] as const;
type Reading = (typeof READINGS)[number];

export interface CalibrationModel {
  version: 1;
  fields: Partial<Record<CalibratedField, CalibrationMap>>;
  /**
   * The maps of a reading other than the default, fitted on that reading's own answers (a reading that stops
   * earlier gives lower raw confidences for the same rightness: read/cascade.ts). A reading not named here, or a
   * field its entry lacks, takes `fields`.
   */
  readings?: Partial<Record<Reading, { fields: Partial<Record<CalibratedField, CalibrationMap>>; fitted?: unknown }>>;
  /** How it was fitted (script, report, half, counts). */
  fitted?: unknown;
}

/** The confidence from which a user may accept values unchecked. */
const HI = 0.9;

/** The confidence `c` mapped by `m`: linear between knots, flat outside them, at most 0.99. */
export function calibrate(c: number, m: CalibrationMap | undefined): number {
  if (!m || !m.x.length || !(c > 0)) return c;
  const { x, y } = m;
  let v: number;
  if (c <= x[0]!) v = y[0]!;
  else if (c >= x[x.length - 1]!) v = y[y.length - 1]!;
  else {
    let i = 1;
    while (x[i]! < c) i++;
    const t = (c - x[i - 1]!) / (x[i]! - x[i - 1]!);
    v = y[i - 1]! + t * (y[i]! - y[i - 1]!);
  }
  const out = roundConfidence(v); // within [0.01, 0.99]
  // after rounding: 0.8955 rounds to 0.9 (a wrong SROIE total at 0.86 did)
  return out >= HI && m.hiFrom !== undefined && c < m.hiFrom ? HI - 0.01 : out;
}

/** The fields with their confidences mapped (a field missing from the model keeps its own). */
export function calibrateFields(fields: FieldResults, model: CalibrationModel): FieldResults {
  const out: FieldResults = { ...fields };
  for (const k of CALIBRATED_FIELDS) {
    const f = fields[k] as Located<unknown> | undefined;
    const m = model.fields[k];
    if (!f || !m) continue;
    (out as unknown as Record<string, Located<unknown>>)[k] = { ...f, confidence: calibrate(f.confidence, m) };
  }
  return out;
}

/** Checks a model read from a file: knots in [0, 1], x increasing, y non-decreasing. */
export function checkModel(m: unknown, where: string): CalibrationModel {
  const bad = (why: string): never => { throw new Error(`${where}: not a calibration model (${why})`); };
  const model = m as CalibrationModel;
  if (!model || model.version !== 1 || typeof model.fields !== 'object' || model.fields === null) bad('version 1 with fields');
  checkMaps(model.fields, bad);
  if (model.readings !== undefined) {
    if (typeof model.readings !== 'object' || model.readings === null) bad('readings is an object');
    for (const [reading, r] of Object.entries(model.readings)) {
      if (!(READINGS as readonly string[]).includes(reading)) bad(`unknown reading ${reading}`);
      if (!r || typeof r.fields !== 'object' || r.fields === null) bad(`readings.${reading} with fields`);
      checkMaps(r!.fields, (why) => bad(`readings.${reading}: ${why}`));
    }
  }
  return model;
}

/** The model's maps for one way of reading a page (CalibrationModel.readings), the default's where it has none. */
export function mapsFor(model: CalibrationModel, reading: Reading | undefined): CalibrationModel {
  const own = reading ? model.readings?.[reading] : undefined;
  return own ? { version: 1, fields: { ...model.fields, ...own.fields } } : model;
}

function checkMaps(fields: Partial<Record<CalibratedField, CalibrationMap>>, bad: (why: string) => never): void {
  for (const [k, map] of Object.entries(fields)) {
    if (!(CALIBRATED_FIELDS as readonly string[]).includes(k)) bad(`unknown field ${k}`);
    const { x, y, hiFrom } = map as CalibrationMap;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length || !x.length) bad(`${k}: x and y of one length`);
    if (hiFrom !== undefined && !(hiFrom >= HI && hiFrom <= 1)) bad(`${k}: hiFrom in [0.9, 1]`);
    for (let i = 0; i < x.length; i++) {
      if (!(x[i]! >= 0 && x[i]! <= 1 && y[i]! >= 0 && y[i]! <= 1)) bad(`${k}: knots in [0, 1]`);
      if (i && !(x[i]! > x[i - 1]! && y[i]! >= y[i - 1]!)) bad(`${k}: x increasing, y non-decreasing`);
    }
  }
}

let loaded: CalibrationModel | undefined;

/** The model in models/calibration.json (read once). */
export function defaultCalibration(): CalibrationModel {
  if (!loaded) {
    const file = fileURLToPath(new URL('../../models/calibration.json', import.meta.url));
    loaded = checkModel(JSON.parse(readFileSync(file, 'utf8')), file);
  }
  return loaded;
}
