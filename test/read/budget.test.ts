import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_BUDGET_MS, DEFAULT_REREAD_BUDGET, NOISE_TOTAL_BELOW, PageBudget, REREAD_COST, readsAsNoise } from '../../src/read/budget.js';

/** A clock the test moves by hand. */
function clock(start = 1000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => { t += ms; } };
}

describe('PageBudget: wall clock', () => {
  it('lets a whole-page re-reading start while the time so far plus the first reading\'s cost fits', () => {
    const c = clock();
    const b = new PageBudget({ ms: 6000, readings: Infinity }, c.now);
    c.advance(1500);
    b.firstReading(1500);
    expect(b.allows('plain-reading', 'whole')).toBe(true); // 1500 + 1500 <= 6000
    c.advance(1500);
    expect(b.allows('pass-reading:1600', 'whole')).toBe(true); // 3000 + 1500
    c.advance(1600);
    expect(b.allows('pass-reading:2400', 'whole')).toBe(false); // 4600 + 1500 > 6000
    expect(b.skipped).toEqual(['pass-reading:2400']);
  });

  it('still lets a cheap line re-reading in where a whole page no longer fits', () => {
    const c = clock();
    const b = new PageBudget({ ms: 6000, readings: Infinity }, c.now);
    b.firstReading(3000);
    c.advance(5000);
    expect(b.allows('read:vie', 'whole')).toBe(false);
    expect(b.allows('lines', 'lines')).toBe(true); // 5000 + 0.25 * 3000
  });

  it('with no wall-clock budget (0) does not look at the time', () => {
    const c = clock();
    const b = new PageBudget({ ms: 0, readings: Infinity }, c.now);
    b.firstReading(50_000);
    c.advance(100_000);
    expect(b.allows('plain-reading', 'whole')).toBe(true);
    expect(b.warning()).toBeUndefined();
  });
});

describe('PageBudget: counted re-readings', () => {
  it('stops after the counted whole-page readings whatever the time, lines counting a quarter', () => {
    const c = clock();
    const b = new PageBudget({ ms: 0, readings: 2 }, c.now);
    expect(b.allows('read:vie', 'whole')).toBe(true);
    expect(b.allows('lines', 'lines')).toBe(true);
    expect(b.allows('plain-reading', 'whole')).toBe(false); // 1.25 + 1 > 2
    expect(b.allows('lines', 'lines')).toBe(true); // 1.5
    expect(b.allows('lines', 'lines')).toBe(true); // 1.75
    expect(b.allows('lines', 'lines')).toBe(true); // 2
    expect(b.allows('lines', 'lines')).toBe(false);
    expect(b.skipped).toEqual(['plain-reading', 'lines']);
    expect(REREAD_COST.lines).toBeLessThan(REREAD_COST.whole);
  });

  it('a budget of 0 re-readings lets none run', () => {
    const b = new PageBudget({ ms: 0, readings: 0 });
    expect(b.allows('lines', 'lines')).toBe(false);
    expect(b.allows('pass-reading:1600', 'whole')).toBe(false);
  });

  it('warns once per stopped re-reading, with the time and the count spent', () => {
    const c = clock();
    const b = new PageBudget({ ms: 1000, readings: 3 }, c.now);
    b.firstReading(900);
    c.advance(900);
    expect(b.allows('lines', 'lines')).toBe(false);
    expect(b.allows('lines', 'lines')).toBe(false);
    expect(b.allows('plain-reading', 'whole')).toBe(false);
    expect(b.warning()).toBe("the page's reading budget was spent (900 ms of 1000, 0 of 3 re-readings): not read again (lines, plain-reading)");
  });

  it('defaults to both limits', () => {
    const b = new PageBudget();
    expect(b.limits).toEqual({ ms: DEFAULT_PAGE_BUDGET_MS, readings: DEFAULT_REREAD_BUDGET });
  });

  it('by default counts re-readings and never looks at the clock (the answer must not depend on the load)', () => {
    const c = clock();
    const b = new PageBudget({}, c.now);
    b.firstReading(30_000);
    c.advance(120_000); // a very slow page on a very busy machine
    expect(DEFAULT_PAGE_BUDGET_MS).toBe(0);
    expect(b.allows('plain-reading', 'whole')).toBe(true);
    expect(b.allows('pass-readings', 'whole', false, 2)).toBe(true);
    expect(b.allows('lines', 'lines')).toBe(true);
    expect(b.warning()).toBeUndefined();
  });
});

describe('a page read as noise', () => {
  it('is one where neither reader found a date nor a total at NOISE_TOTAL_BELOW', () => {
    expect(readsAsNoise({}, {})).toBe(true);
    expect(readsAsNoise({ totalAmount: { confidence: 0.21 } }, {})).toBe(true);
    expect(readsAsNoise({ totalAmount: { confidence: NOISE_TOTAL_BELOW } }, {})).toBe(false);
    expect(readsAsNoise({}, { totalAmount: { confidence: 0.35 } })).toBe(false);
    expect(readsAsNoise({}, { date: { value: '2020-08-11' } })).toBe(false);
    expect(readsAsNoise({ date: { value: '2020-08-11' } }, {})).toBe(false);
  });

  it('once stopped, no re-reading runs, and the warning gives the reason', () => {
    const b = new PageBudget({ ms: 0, readings: Infinity });
    expect(b.allows('read:vie', 'whole')).toBe(true);
    b.stop('both readers read the page as noise (no date, no total)');
    expect(b.allows('lines', 'lines')).toBe(false);
    expect(b.allows('plain-reading', 'whole')).toBe(false);
    expect(b.warning()).toBe('both readers read the page as noise (no date, no total): not read again (lines, plain-reading)');
  });
});

describe('an untimed re-reading', () => {
  it('is held to the count but not to the clock', () => {
    const c = clock();
    const b = new PageBudget({ ms: 1000, readings: 1 }, c.now);
    b.firstReading(5000);
    c.advance(5000);
    expect(b.allows('plain-reading', 'whole')).toBe(false); // the clock is past its budget
    expect(b.allows('read:vie', 'whole', true)).toBe(true); // the page's own language still reads
    expect(b.allows('read:tha', 'whole', true)).toBe(false); // but the count holds
  });
});

describe('re-readings that count only as a set', () => {
  it('are admitted together or not at all, by count and by clock', () => {
    const b = new PageBudget({ ms: 0, readings: 3 });
    expect(b.allows('read:vie', 'whole')).toBe(true);
    expect(b.allows('lines', 'lines')).toBe(true); // 1.25 spent
    expect(b.allows('pass-readings', 'whole', false, 2)).toBe(false); // 3.25 > 3: neither pass, though one would fit
    expect(b.allows('plain-reading', 'whole')).toBe(true); // the one that fits still runs
    const c = clock();
    const t = new PageBudget({ ms: 6000, readings: Infinity }, c.now);
    t.firstReading(2000);
    c.advance(2500);
    expect(t.allows('pass-readings', 'whole', false, 2)).toBe(false); // 2500 + 2 x 2000 > 6000
    expect(t.allows('pass-readings', 'whole', false, 1)).toBe(true);
  });
});
