/**
 * End to end with real OCR on the generated fixtures (fixtures/, made by scripts/make-fixtures.mjs).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createEngine, ReceiptKitError } from '../src/index.js';
import type { Engine, SimpleResult, VerboseResult } from '../src/index.js';
import { SIMPLE_KEYS } from '../src/contract/results.js';

const FIX = path.resolve(__dirname, '../fixtures');
const expected = (name: string) => JSON.parse(readFileSync(path.join(FIX, `${name}.expected.json`), 'utf8'));
const norm = (s: string) => s.toUpperCase().replace(/[^A-Z0-9&]+/g, ' ').trim();

let engine: Engine;
beforeAll(async () => { engine = await createEngine({ workers: 1 }); });
afterAll(async () => { await engine?.close(); });

describe('simple result', () => {
  it('reads the English receipt: shape, key order, total, date, merchant', async () => {
    const exp = expected('receipt-en-simple');
    const r = await engine.extract(path.join(FIX, 'receipt-en-simple.png')) as SimpleResult;
    expect(Object.keys(r)).toEqual([...SIMPLE_KEYS]);
    expect(r.totalAmount).toMatchObject({ data: exp.totalAmount });
    expect('data' in r.date && r.date.data.slice(0, 10)).toBe(exp.date);
    expect('data' in r.merchantName && norm(r.merchantName.data)).toContain(norm(exp.merchantName).split(' ')[0]);
    for (const k of SIMPLE_KEYS) {
      if (k === 'confidenceLevel') { expect(r[k]).toBeGreaterThan(0); expect(r[k]).toBeLessThanOrEqual(0.99); continue; }
      const f = r[k] as { data?: unknown; confidenceLevel: number };
      expect(f.confidenceLevel).toBeGreaterThanOrEqual(0);
      expect(f.confidenceLevel).toBeLessThanOrEqual(0.99);
      if (f.confidenceLevel === 0) expect(f).toEqual({ confidenceLevel: 0 });
      else expect(f.data).not.toBeNull();
    }
  });
});

describe('verbose result', () => {
  it('carries located fields with text, index, keyword, regions inside the image', async () => {
    const r = await engine.extract(path.join(FIX, 'receipt-en-simple.png'), { verbose: true }) as VerboseResult;
    const total = r.totalAmount;
    if (!('data' in total)) throw new Error('no total');
    expect(Object.keys(total)).toEqual(['data', 'confidenceLevel', 'text', 'index', 'keyword', 'currencyCode', 'regions']);
    expect(total.currencyCode).toBe('MYR');
    expect(r.text.text.split('\n')[total.index]).toBe(total.text);
    expect(total.regions.length).toBeGreaterThan(0);
    const meta = await import('sharp').then((s) => s.default(path.join(FIX, 'receipt-en-simple.png')).metadata());
    for (const poly of total.regions) {
      expect(poly).toHaveLength(4);
      for (const p of poly) {
        expect(p.x).toBeGreaterThanOrEqual(0); expect(p.x).toBeLessThanOrEqual(meta.width!);
        expect(p.y).toBeGreaterThanOrEqual(0); expect(p.y).toBeLessThanOrEqual(meta.height!);
      }
    }
    expect(r.text.regions).toHaveLength(r.text.text.split('\n').length);
    expect(r.amounts.some((a) => Math.abs(a.data - total.data) < 0.005)).toBe(true);
    expect(r.numbers.every((n) => typeof n.classifyResult === 'string')).toBe(true);
    expect(r.trackingId).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.elapsed).toBeGreaterThan(0);
    expect(r.pages).toBe(1);
    expect(r.targetRotation).toBe(0);
  });

  it('gives every scan its own trackingId', async () => {
    const a = await engine.extract(path.join(FIX, 'receipt-us.jpg'), { verbose: true });
    const b = await engine.extract(path.join(FIX, 'receipt-us.jpg'), { verbose: true });
    expect(a.trackingId).not.toBe(b.trackingId);
    const exp = expected('receipt-us');
    expect(a.totalAmount).toMatchObject({ data: exp.totalAmount });
    expect('data' in a.date && a.date.data.slice(0, 10)).toBe(exp.date); // month-first US date
  });

  it('turns a sideways photo upright and reports targetRotation', async () => {
    const exp = expected('receipt-id-rotated');
    const r = await engine.extract(path.join(FIX, 'receipt-id-rotated.jpg'), { verbose: true }) as VerboseResult;
    expect([90, 270]).toContain(r.targetRotation);
    expect(r.totalAmount).toMatchObject({ data: exp.totalAmount });
  });

  it('keeps the printed time with extractTime', async () => {
    const r = await engine.extract(path.join(FIX, 'receipt-en-simple.png'), { extractTime: true }) as SimpleResult;
    expect('data' in r.date && r.date.data).toMatch(/^\d{4}-\d\d-\d\dT(?!12:00:00)\d\d:\d\d/);
  });
});

describe('PDF', () => {
  it('reads a digital invoice from its text layer, fast', async () => {
    const exp = expected('invoice');
    const t0 = performance.now();
    const r = await engine.extract(path.join(FIX, 'invoice.pdf'), { verbose: true }) as VerboseResult;
    const ms = performance.now() - t0;
    expect(r.totalAmount).toMatchObject({ data: exp.totalAmount });
    expect('data' in r.date && r.date.data.slice(0, 10)).toBe(exp.date);
    expect(r.entities.invoiceNumber?.data.replace(/\s/g, '')).toBe(String(exp.invoiceNumber).replace(/\s/g, ''));
    expect(ms).toBeLessThan(3000);
  });

  it('renders and OCRs a scanned PDF page', async () => {
    const exp = expected('invoice-scanned');
    const r = await engine.extract(path.join(FIX, 'invoice-scanned.pdf')) as SimpleResult;
    expect(r.totalAmount).toMatchObject({ data: exp.totalAmount });
  });
});

describe('engine', () => {
  it('rejects unknown and malformed options before doing any work', async () => {
    await expect(engine.extract(Buffer.alloc(0), { verbos: true } as never)).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'verbos' });
    await expect(engine.extract(Buffer.alloc(0), { userId: 'x'.repeat(51) })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'userId' });
    await expect(createEngine({ workers: 0 })).rejects.toBeInstanceOf(ReceiptKitError);
  });

  it('refuses work after close', async () => {
    const e = await createEngine({ workers: 1 });
    await e.close();
    await e.close(); // idempotent
    await expect(e.extract(path.join(FIX, 'receipt-us.jpg'))).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
  });

  it('times out with a TIMEOUT error', async () => {
    await expect(engine.extract(path.join(FIX, 'receipt-en-simple.png'), { timeoutMs: 1, refresh: true })).rejects.toMatchObject({ code: 'TIMEOUT' });
  });
});
