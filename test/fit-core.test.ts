// The fitting core's confidence margin (scripts/fit-core.mjs marginOf) is the margin the library reads
// (src/resolve/field-model.ts modelConfidence): a map fitted on one and applied with the other would move.
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { MARGIN_CAP, NO_RIVAL_MARGIN as FIT_NO_RIVAL, marginOf } from '../scripts/fit-core.mjs';
import { NO_RIVAL_MARGIN, modelConfidence } from '../src/resolve/field-model.js';

describe('the confidence margin, fitted and applied', () => {
  // with a = 0, b = 1, c = 0 the library's confidence is sigmoid(margin): its margin read back
  const libraryMargin = (top: number, rival: number | undefined) => {
    const p = modelConfidence({ weights: {}, confidence: { a: 0, b: 1, c: 0, marginCap: MARGIN_CAP } }, top, rival)!;
    return Math.log(p / (1 - p));
  };

  it('a top without a rival: the same margin in both', () => {
    expect(FIT_NO_RIVAL).toBe(NO_RIVAL_MARGIN);
    expect(marginOf({ zt: 2 })).toBeCloseTo(libraryMargin(2, undefined), 9);
  });

  it('a top with a rival: its lead, capped at the same cap', () => {
    for (const [zt, zr] of [[3, 1], [1.5, 1.4], [9, -4], [0, 0]] as const) {
      expect(marginOf({ zt, zr })).toBeCloseTo(libraryMargin(zt, zr), 9);
    }
    expect(marginOf({ zt: 9, zr: -4 })).toBe(MARGIN_CAP);
  });
});
