/**
 * Confidence calibration (issue 34, src/resolve/calibration.ts, scripts/fit-calibration.mjs): the map
 * is monotone, flat outside its knots and never crosses 0.9 below the block that earned it; the fit
 * pools adjacent violators, keeps blocks of the minimum size and holds a block under 0.9 unless its
 * share right is at least 0.9 with 95 % certainty; the shipped model is valid and fitted on tune halves;
 * the engine maps the confidences it returns unless `calibrated: false`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { calibrate, calibrateFields, checkModel, defaultCalibration, mapsFor, CALIBRATED_FIELDS } from '../../src/resolve/calibration.js';
import type { CalibrationMap } from '../../src/resolve/calibration.js';
import type { FieldResults } from '../../src/fields/types.js';
import { createEngine } from '../../src/index.js';
// @ts-expect-error: a plain ESM script without types
import { fitMap, wilsonLower } from '../../scripts/fit-calibration.mjs';

const MAP: CalibrationMap = { x: [0.4, 0.8, 0.95], y: [0.6, 0.85, 0.98], hiFrom: 0.85 };

describe('calibrate', () => {
  it('is linear between knots, flat outside them, at most 0.99, and leaves 0 alone', () => {
    expect(calibrate(0.6, MAP)).toBe(0.73); // 0.725, to two decimals
    expect(calibrate(0.7, MAP)).toBe(0.79); // 0.7875
    expect(calibrate(0.1, MAP)).toBe(0.6);
    expect(calibrate(0.99, MAP)).toBe(0.98);
    expect(calibrate(0.5, { x: [0.5], y: [1] })).toBe(0.99);
    expect(calibrate(0, MAP)).toBe(0);
  });
  it('never maps a higher confidence lower', () => {
    let last = 0;
    for (let c = 0.01; c <= 1; c += 0.01) { const v = calibrate(c, MAP); expect(v).toBeGreaterThanOrEqual(last); last = v; }
  });
  it('stays under 0.9 below hiFrom, where the line between two knots would cross it', () => {
    // between 0.8 (0.85) and 0.95 (0.98) the line reaches 0.9 at about 0.858; hiFrom 0.85 allows it from there
    expect(calibrate(0.84, MAP)).toBeLessThan(0.9);
    expect(calibrate(0.9, MAP)).toBeGreaterThanOrEqual(0.9);
    expect(calibrate(0.9, { ...MAP, hiFrom: 0.93 })).toBe(0.89);
    // the line gives 0.8955 at 0.86, which rounds to 0.9: held at 0.89 all the same
    expect(calibrate(0.86, { x: [0.5904, 0.9721], y: [0.6552, 0.9954], hiFrom: 0.9 })).toBe(0.89);
  });
  it('maps the scored fields of a reading and no other, without touching the input', () => {
    const fields = { totalAmount: { value: 12.5, confidence: 0.6, lineIndex: 3 }, paidAmount: { value: 20, confidence: 0.6, lineIndex: 4 } } as unknown as FieldResults;
    const out = calibrateFields(fields, { version: 1, fields: { totalAmount: MAP } });
    expect(out.totalAmount).toEqual({ value: 12.5, confidence: calibrate(0.6, MAP), lineIndex: 3 });
    expect(out.paidAmount!.confidence).toBe(0.6);
    expect(fields.totalAmount!.confidence).toBe(0.6);
  });
});

describe('checkModel', () => {
  it('rejects a model that is not monotone, out of range, or of an unknown field', () => {
    expect(() => checkModel({ version: 1, fields: { date: { x: [0.5, 0.4], y: [0.5, 0.6] } } }, 'm')).toThrow(/x increasing/);
    expect(() => checkModel({ version: 1, fields: { date: { x: [0.4, 0.5], y: [0.7, 0.6] } } }, 'm')).toThrow(/non-decreasing/);
    expect(() => checkModel({ version: 1, fields: { date: { x: [0.4], y: [1.2] } } }, 'm')).toThrow(/\[0, 1\]/);
    expect(() => checkModel({ version: 1, fields: { tipAmount: { x: [0.4], y: [0.5] } } }, 'm')).toThrow(/unknown field/);
    expect(() => checkModel({ version: 2, fields: {} }, 'm')).toThrow(/version 1/);
    // a map that would raise values under 0.9 past it is refused
    expect(() => checkModel({ version: 1, fields: { date: { x: [0.4, 0.9], y: [0.5, 0.95], hiFrom: 0.5 } } }, 'm')).toThrow(/hiFrom/);
  });
  it('a reading of its own: its maps for the fields it names, the default maps for the rest; checked like them', () => {
    const OWN: CalibrationMap = { x: [0.3, 0.9], y: [0.5, 0.97] };
    const DEF: CalibrationMap = { x: [0.4, 0.95], y: [0.6, 0.98], hiFrom: 0.93 };
    const model = checkModel({ version: 1, fields: { totalAmount: DEF, date: DEF }, readings: { cascade: { fields: { totalAmount: OWN } } } }, 'm');
    expect(mapsFor(model, 'cascade').fields).toEqual({ totalAmount: OWN, date: DEF });
    expect(mapsFor(model, 'thorough').fields).toEqual({ totalAmount: DEF, date: DEF });
    expect(mapsFor(model, undefined)).toBe(model);
    expect(() => checkModel({ version: 1, fields: {}, readings: { quick: { fields: {} } } }, 'm')).toThrow(/unknown reading quick/);
    expect(() => checkModel({ version: 1, fields: {}, readings: { cascade: { fields: { date: { x: [0.5, 0.4], y: [0.5, 0.6] } } } } }, 'm')).toThrow(/readings.cascade: date: x increasing/);
  });
  it('the shipped model is valid, covers the total, date, name and currency, and was fitted on tune halves (the total on the training pool)', () => {
    const m = defaultCalibration();
    for (const f of ['totalAmount', 'date', 'merchantName', 'currencyCode'] as const) expect(m.fields[f]?.x.length).toBeGreaterThan(0);
    expect(Object.keys(m.fields).every((k) => (CALIBRATED_FIELDS as readonly string[]).includes(k))).toBe(true);
    const raw = JSON.parse(readFileSync(path.resolve(__dirname, '../../models/calibration.json'), 'utf8'));
    expect(raw.fitted.half).toBe('tune');
    expect(raw.fitted.script).toBe('scripts/fit-calibration.mjs');
    // the total's map was refitted on the training pool's answers, whose precision held out is in the record
    expect(raw.fitted.pool.fields).toEqual(['totalAmount']);
    expect(raw.fitted.pool.files).toBeGreaterThan(1000);
    expect(m.fields.totalAmount).toEqual({ x: raw.fields.totalAmount.x, y: raw.fields.totalAmount.y, hiFrom: raw.fields.totalAmount.hiFrom });
  });
});

describe('fitMap', () => {
  const pairs = (list: Array<[number, number, number]>) => list.flatMap(([confidence, n, right]) => Array.from({ length: n }, (_, i) => ({ confidence, right: i < right })));

  it('pools adjacent violators into blocks whose share right rises, each of the minimum size', () => {
    // 0.3: 15 of 20 right, 0.5: 10 of 20 (a violation, pooled with 0.3), 0.9: 40 of 40
    const m = fitMap(pairs([[0.3, 20, 15], [0.5, 20, 10], [0.9, 40, 40]]), { min: 20, minValues: 20 });
    expect(m.blocks.map((b: { n: number }) => b.n)).toEqual([40, 40]);
    expect(m.x).toEqual([0.4, 0.9]);
    expect(m.y[0]).toBeCloseTo(26 / 42, 4);
    expect(m.y[1]).toBeCloseTo(41 / 42, 4);
    expect(m.hiFrom).toBe(0.9);
  });
  it('merges a block under the minimum size with its closest neighbour', () => {
    const m = fitMap(pairs([[0.3, 30, 15], [0.6, 5, 4], [0.9, 30, 29]]), { min: 20, minValues: 20 });
    expect(m.blocks.every((b: { n: number }) => b.n >= 20)).toBe(true);
    expect(m.blocks.reduce((s: number, b: { n: number }) => s + b.n, 0)).toBe(65);
  });
  it('pools blocks whose mean confidences round to one knot, so that the map it writes is a valid model', () => {
    // the share right rises (10/20, 19/20, 20/20) but the upper two means both round to 0.99
    const m = fitMap(pairs([[0.5, 20, 10], [0.98996, 20, 19], [0.99, 20, 20]]), { min: 20, minValues: 20 });
    expect(m.x).toEqual([0.5, 0.99]);
    expect(m.blocks.map((b: { n: number }) => b.n)).toEqual([20, 40]);
    expect(() => checkModel({ version: 1, fields: { totalAmount: { x: m.x, y: m.y, hiFrom: m.hiFrom } } }, 'm')).not.toThrow();
  });
  it('keeps two blocks when the smaller has half the minimum size, rather than one map for every value', () => {
    const m = fitMap(pairs([[0.4, 18, 12], [0.95, 224, 218]]), { min: 20, minValues: 20 });
    expect(m.blocks.map((b: { n: number }) => b.n)).toEqual([18, 224]);
    expect(calibrate(0.4, m)).toBeLessThan(0.75);
    // under half the minimum, it is merged as before
    expect(fitMap(pairs([[0.4, 9, 6], [0.95, 224, 218]]), { min: 20, minValues: 20 }).blocks.length).toBe(1);
  });
  it('holds a block under 0.9 when its share right is not 0.9 with 95 % certainty', () => {
    expect(wilsonLower(19, 20)).toBeLessThan(0.9);
    expect(wilsonLower(200, 200)).toBeGreaterThan(0.98);
    const m = fitMap(pairs([[0.3, 20, 10], [0.9, 20, 19]]), { min: 20, minValues: 20 });
    expect(m.y[1]).toBe(0.89);
    expect(m.hiFrom).toBeUndefined();
  });
  it('gives no map for a field with too few values', () => {
    expect(fitMap(pairs([[0.5, 5, 3]]), { min: 20, minValues: 20 })).toBeUndefined();
    expect(fitMap(pairs([[0.5, 50, 30], [0.9, 40, 40]]))).toBeUndefined(); // 90 < the default 100
  });
  it('never raises a value from under 0.9 to 0.9 or above', () => {
    // 0.7 and 0.85: all right; the block starts at 0.7, but values under 0.9 stay under it
    const m = fitMap(pairs([[0.3, 60, 30], [0.7, 40, 40], [0.85, 40, 40], [0.97, 100, 100]]));
    expect(m.hiFrom).toBe(0.9);
    expect(calibrate(0.85, m)).toBe(0.89);
    expect(calibrate(0.97, m)).toBeGreaterThan(0.95);
  });
});

describe('the engine', () => {
  it('returns calibrated confidences, and the resolvers\' own with calibrated: false', async () => {
    const pdf = readFileSync(path.resolve(__dirname, '../../fixtures/invoice.pdf'));
    const raw = await createEngine({ workers: 1, calibrated: false });
    const cal = await createEngine({ workers: 1 });
    try {
      const a = await raw.extract(pdf, { verbose: true, incognito: true });
      const b = await cal.extract(pdf, { verbose: true, incognito: true });
      const m = defaultCalibration();
      expect(b.totalAmount.data).toBe(a.totalAmount.data);
      expect(b.totalAmount.confidenceLevel).toBe(calibrate(a.totalAmount.confidenceLevel, m.fields.totalAmount));
      expect(b.date.confidenceLevel).toBe(calibrate(a.date.confidenceLevel, m.fields.date));
    } finally {
      await raw.close();
      await cal.close();
    }
  }, 60_000);
});
