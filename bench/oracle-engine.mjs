// A fake engine for checking the benchmark itself (no OCR): it answers every file of a corpus dataset
// with that file's own label, shaped like a verbose result. `node bench/run.mjs --engine bench/oracle-engine.mjs`
// must score 100 % on every field and line items; anything else is a bug in the bench, not in the library.
// A file outside a corpus layout (e.g. the warm-up buffer) gets an empty result.
import fs from 'node:fs';
import path from 'node:path';

const field = (data, confidenceLevel = 0.95) => (data === undefined || data === null ? { confidenceLevel: 0 } : { data, confidenceLevel });

export async function createEngine() {
  let closed = false, n = 0;
  return {
    async extract(input) {
      if (closed) throw Object.assign(new Error('engine closed'), { code: 'ENGINE_CLOSED' });
      let label = {}, li = null;
      if (typeof input === 'string') {
        const dir = path.dirname(path.dirname(input));
        const id = path.basename(input).replace(/\.[^.]+$/, '');
        const lp = path.join(dir, 'labels', `${id}.json`), lip = path.join(dir, 'lineitems', `${id}.json`);
        if (fs.existsSync(lp)) label = JSON.parse(fs.readFileSync(lp, 'utf8'));
        if (fs.existsSync(lip)) li = JSON.parse(fs.readFileSync(lip, 'utf8'));
      }
      const items = li?.lineItems ?? label.lineItems ?? [];
      // BENCH_ORACLE_NOISE=1 (for checking the report comparison): every third file gets a wrong total.
      if (process.env.BENCH_ORACLE_NOISE && typeof label.totalAmount === 'number' && (n++ % 3 === 0)) label.totalAmount += 1;
      return {
        totalAmount: field(label.totalAmount),
        taxAmount: field(label.taxAmount ?? li?.taxAmount),
        confidenceLevel: 0.95,
        date: field(label.date ? `${label.date}T12:00:00.000Z` : undefined),
        merchantName: field(label.merchantName),
        merchantAddress: field(label.merchantAddress),
        currencyCode: field(label.currency),
        entities: {
          invoiceNumber: label.invoiceNumber ? { data: label.invoiceNumber, confidenceLevel: 0.95 } : undefined,
          productLineItems: items.map((it) => ({ confidenceLevel: 0.9, data: { name: { data: it.name }, quantity: { data: it.quantity }, unitPrice: { data: it.unitPrice }, totalPrice: { data: it.totalPrice } } })),
        },
      };
    },
    async close() { closed = true; },
  };
}
