// The detectFraud extract option: verbose results run the fraud checks unless it is false; the stored
// result of a call without them never answers a call that wants them.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import type { Engine } from '../src/index.js';

const FIX = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
const INVOICE = path.join(FIX, 'invoice.pdf');

describe('detectFraud', () => {
  let engine: Engine;
  const stages: Array<Record<string, number>> = [];
  beforeAll(async () => { engine = await createEngine({ workers: 1, onStageTimes: (t) => stages.push(t) }); });
  afterAll(async () => { await engine?.close(); });

  it('false leaves the three detections out of a verbose result and skips the fraud stage', async () => {
    stages.length = 0;
    const r = await engine.extract(INVOICE, { verbose: true, detectFraud: false, refresh: true });
    expect(r.totalAmount.data).toBeGreaterThan(0);
    expect(r.entities).toBeDefined();
    expect(r.entities).not.toHaveProperty('tamperingDetection');
    expect(r.entities).not.toHaveProperty('digitalDetection');
    expect(r.entities).not.toHaveProperty('handwritingDetection');
    expect(stages.at(-1)).not.toHaveProperty('fraud');
  });

  it('a verbose result runs them by default, and is not answered from the stored result without them', async () => {
    await engine.extract(INVOICE, { verbose: true, detectFraud: false });
    stages.length = 0;
    const r = await engine.extract(INVOICE, { verbose: true });
    expect(r.entities.digitalDetection).toMatchObject({ isDigital: expect.any(Boolean) });
    expect(r.entities.tamperingDetection).toMatchObject({ isTampered: expect.any(Boolean) });
    expect(stages.at(-1)).toHaveProperty('fraud');
  });

  it('is refused when it is not a boolean', async () => {
    await expect(engine.extract(INVOICE, { verbose: true, detectFraud: 'no' as unknown as boolean })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: expect.stringMatching(/detectFraud/) });
  });
});
