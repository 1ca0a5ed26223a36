/**
 * The candidates the fit script collects (issue 34, src/resolve/model.ts): with a tap registered, every
 * total and currency candidate the resolver weighed is listed with its named features; without one,
 * nothing is listed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { extractFields } from '../../src/extract/index.js';
import { documentFromText } from '../../src/document/geometry.js';
import { candidateTaps, tapCandidates } from '../../src/resolve/model.js';
import type { TappedCandidate } from '../../src/resolve/model.js';

const ctx = { extractTime: false, extractLineItems: false, now: new Date('2024-06-01T00:00:00Z') };
const doc = () => documentFromText(['KEDAI MAKAN SDN BHD', 'SUBTOTAL RM 79.50', 'SST 6% 4.77', 'TOTAL RM 84.27', 'CASH 100.00', 'CHANGE 15.73'].join('\n'));

afterEach(() => { candidateTaps.length = 0; });

describe('candidateTaps', () => {
  it('lists the total\'s and the currency\'s candidates with their features; the answer is the same with or without a tap', () => {
    const seen: Record<string, TappedCandidate[]> = {};
    const without = extractFields(doc(), ctx);
    candidateTaps.push((field, cands) => { seen[field] = [...cands]; });
    const withTap = extractFields(doc(), ctx);
    expect(withTap.totalAmount?.value).toBe(84.27);
    expect(withTap.totalAmount).toEqual(without.totalAmount);
    expect(withTap.currencyCode).toEqual(without.currencyCode);
    const total = seen.total!.find((c) => c.value === 84.27)!;
    expect(total.features).toMatchObject({ printed: 1, 'label-role:total': 1 });
    expect(total.features['label-strength']).toBeGreaterThan(0);
    expect(seen.total!.find((c) => c.value === 100)?.features['labelled-other-role:paid']).toBe(1);
    const myr = seen.currency!.find((c) => c.value === 'MYR')!;
    expect(myr.features['rule-choice']).toBe(1);
  });

  it('builds no list when no tap listens (the run-time path), and one when a tap does', () => {
    let built = 0;
    const list = () => { built++; return [{ value: 1, features: {} }]; };
    tapCandidates('total', list);
    expect(built).toBe(0);
    const got: string[] = [];
    candidateTaps.push((field) => { got.push(field); });
    tapCandidates('total', list);
    expect(built).toBe(1);
    expect(got).toEqual(['total']);
  });
});
