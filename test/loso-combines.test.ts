// bench/loso.mjs --combines: the choice between two readings scored per held-out source.
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs bench module without types
import { losoCombines } from '../bench/loso.mjs';

const rec = (ds: string, id: string, gold: number, a: [number, number], b: [number, number], chosen: string) => ({
  ds, id, gold: { totalAmount: gold }, combines: [{ tag: 'second-reader', field: 'totalAmount', a: [...a, ['label:TOTAL']], b: [...b, ['label:TOTAL', 'arithmetic:items']], chosen }],
});

describe('losoCombines', () => {
  it('counts the weighings where exactly one reading is right, and how often the rule and the fitted choice took it', () => {
    const records = [
      // the second reading right and more confident: the rule takes it
      ...Array.from({ length: 6 }, (_, i) => rec('x', `x${i}`, 10, [18, 0.4], [10, 0.9], 'second')),
      // the first right and more confident: the rule keeps it
      ...Array.from({ length: 6 }, (_, i) => rec('y', `y${i}`, 10, [10, 0.9], [16, 0.3], 'first')),
      // the first more confident but wrong: the rule is wrong
      rec('y', 'y-wrong', 10, [19, 0.8], [10, 0.7], 'first'),
      // both wrong, and both alike: not a decision
      rec('y', 'y-none', 10, [11, 0.8], [12, 0.7], 'first'),
      { ds: 'y', id: 'y-both', gold: { totalAmount: 10 }, combines: [{ tag: 'second-reader', field: 'totalAmount', a: [10, 0.9, []], b: [10, 0.9, []], chosen: 'both' }] },
    ];
    const res = losoCombines(records, 'total');
    expect(res.decisions).toBe(13);
    expect(res.perSource.x).toMatchObject({ decisions: 6, rule: 6 });
    expect(res.perSource.y).toMatchObject({ decisions: 7, rule: 6 });
    // fitted on x alone (the second always right) it takes the second reading on y: right once of 7
    expect(res.perSource.y.learned).toBe(1);
    // a field no other source weighed: nothing to fit on
    expect(losoCombines(records.filter((r) => r.ds === 'y'), 'total').perSource.y.learned).toBeNull();
  });
});
