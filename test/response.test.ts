/**
 * Result shapes (contract section 3) built from hand-made field results: key order, missing fields,
 * confidence bounds, regions in original-image pixels for rotated pages. No OCR.
 */
import { describe, it, expect } from 'vitest';
import { buildSimple, buildVerbose, clampConfidence, rootConfidence } from '../src/response/build.js';
import { SIMPLE_KEYS } from '../src/contract/results.js';
import { boxToPolygon, buildDocument, documentFromText, lineFromWords } from '../src/document/geometry.js';
import type { FieldResults } from '../src/fields/types.js';

const empty = (): FieldResults => ({ amounts: [], lineAmounts: [], numbers: [], warnings: [] });

describe('simple result', () => {
  it('has exactly the contract keys in order, missing fields as { confidenceLevel: 0 }', () => {
    const r = buildSimple(empty());
    expect(Object.keys(r)).toEqual([...SIMPLE_KEYS]);
    expect(r.totalAmount).toEqual({ confidenceLevel: 0 });
    expect(r.confidenceLevel).toBe(0);
    expect(JSON.stringify(r)).not.toContain('null');
  });

  it('puts data before confidenceLevel and clamps confidence to 0.99', () => {
    const doc = documentFromText('TOTAL 12.30');
    const line = doc.lines[0]!;
    const f = empty();
    f.totalAmount = { value: 12.3, confidence: 1.4, text: line.text, lineIndex: 0, keyword: 'TOTAL', boxes: [line.box], page: 0, currencyCode: 'USD' };
    const r = buildSimple(f);
    expect(Object.keys(r.totalAmount)).toEqual(['data', 'confidenceLevel']);
    expect(r.totalAmount).toEqual({ data: 12.3, confidenceLevel: 0.99 });
    expect(r.confidenceLevel).toBeGreaterThan(0);
    expect(r.confidenceLevel).toBeLessThan(0.99);
  });

  it('treats a zero-confidence finding as not found', () => {
    const f = empty();
    f.merchantName = { value: 'X', confidence: 0, text: 'X', lineIndex: 0, keyword: '-', boxes: [], page: 0 };
    expect(buildSimple(f).merchantName).toEqual({ confidenceLevel: 0 });
  });

  it('aggregates the root confidence from the core fields', () => {
    const f = empty();
    const base = { text: '', lineIndex: 0, keyword: '-', boxes: [], page: 0 };
    f.totalAmount = { ...base, value: 1, confidence: 0.9 };
    const one = rootConfidence(f);
    f.date = { ...base, value: '2024-01-01T12:00:00.000Z', confidence: 0.9 };
    expect(rootConfidence(f)).toBeGreaterThan(one);
    expect(clampConfidence(Number.NaN)).toBe(0);
    expect(clampConfidence(-1)).toBe(0);
  });
});

describe('verbose result', () => {
  it('orders located fields as data, confidenceLevel, text, index, keyword, currencyCode, regions', () => {
    const doc = documentFromText('SHOP\nTOTAL 12.30');
    const line = doc.lines[1]!;
    const f = empty();
    f.totalAmount = { value: 12.3, confidence: 0.8, text: line.text, lineIndex: 1, keyword: 'TOTAL', boxes: [line.words[1]!.box], page: 0, currencyCode: 'USD' };
    f.date = { value: '2024-01-01T12:00:00.000Z', confidence: 0.7, text: 'x', lineIndex: 0, keyword: '', boxes: [], page: 0, currencyCode: 'USD' };
    const r = buildVerbose(doc, f, { targetRotation: 0, pages: 1, elapsed: 5, warnings: [] });
    expect(Object.keys(r.totalAmount)).toEqual(['data', 'confidenceLevel', 'text', 'index', 'keyword', 'currencyCode', 'regions']);
    // currencyCode only on money fields; an empty keyword becomes "-"
    expect(Object.keys(r.date)).toEqual(['data', 'confidenceLevel', 'text', 'index', 'keyword', 'regions']);
    expect((r.date as { keyword: string }).keyword).toBe('-');
    expect(r.text.text).toBe('SHOP\nTOTAL 12.30');
    expect(r.text.regions).toHaveLength(2);
    expect(r.entities.productLineItems).toEqual([]);
    expect(r.itemsCount).toEqual({ confidenceLevel: 0 });
    expect(Object.keys(r).slice(0, SIMPLE_KEYS.length)).toEqual([...SIMPLE_KEYS]);
    expect(Object.keys(r).slice(-2)).toEqual(['trackingId', 'elapsed']);
  });

  it('maps upright boxes back to original pixels for every rotation', () => {
    const box = { x0: 10, y0: 20, x1: 30, y1: 25 };
    // original 100 wide, 200 tall; turned 90° clockwise it reads upright as 200 x 100
    const p90 = boxToPolygon(box, { rotation: 90, originalWidth: 100, originalHeight: 200 });
    expect(p90).toEqual([{ x: 20, y: 190 }, { x: 20, y: 170 }, { x: 25, y: 170 }, { x: 25, y: 190 }]);
    const p180 = boxToPolygon(box, { rotation: 180, originalWidth: 100, originalHeight: 200 });
    expect(p180[0]).toEqual({ x: 90, y: 180 });
    const p270 = boxToPolygon(box, { rotation: 270, originalWidth: 100, originalHeight: 200 });
    expect(p270[0]).toEqual({ x: 80, y: 10 });
    for (const p of [...p90, ...p180, ...p270]) {
      expect(p.x).toBeGreaterThanOrEqual(0); expect(p.x).toBeLessThanOrEqual(100);
      expect(p.y).toBeGreaterThanOrEqual(0); expect(p.y).toBeLessThanOrEqual(200);
    }
  });

  it('takes regions from the page the value was found on', () => {
    const w = (text: string, x: number) => ({ text, confidence: 0.9, box: { x0: x, y0: 0, x1: x + 10, y1: 10 } });
    const doc = buildDocument([
      { index: 0, source: 'ocr', width: 100, height: 100, originalWidth: 100, originalHeight: 100, rotation: 0, lines: [lineFromWords([w('A', 0)])] },
      { index: 1, source: 'ocr', width: 100, height: 50, originalWidth: 50, originalHeight: 100, rotation: 90, lines: [lineFromWords([w('TOTAL', 0), w('5.00', 50)])] },
    ]);
    const f = empty();
    const line = doc.lines[1]!;
    f.totalAmount = { value: 5, confidence: 0.9, text: line.text, lineIndex: 1, keyword: 'TOTAL', boxes: [line.words[1]!.box], page: 1 };
    const r = buildVerbose(doc, f, { targetRotation: 0, pages: 2, elapsed: 1, warnings: [] });
    expect((r.totalAmount as { regions: unknown }).regions).toEqual([[{ x: 0, y: 50 }, { x: 0, y: 40 }, { x: 10, y: 40 }, { x: 10, y: 50 }]]);
  });
});
