// The codes stage in the engine: a verbose result lists each code (format, text, page, region, fiscal
// payload); a fiscal fact decides the fields it states for simple results too (the code wins over the
// text, with a warning); `readCodes: false` skips the stage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import type { Engine } from '../src/index.js';
import { zatcaTlv, receiptWithCode } from './generators/code-fixtures.ts';

const LINES = (total: string) => ['AL NOOR TRADING CO', 'VAT NO 310122393500003', 'DATE 14/03/2024 22:10', 'Coffee beans 500g       100.00', 'SUBTOTAL                100.00', 'VAT 15%                  15.00', `TOTAL                   ${total}`, 'CASH                    120.00'];
const PAYLOAD = zatcaTlv(['Al Noor Trading Co', '310122393500003', '2024-03-14T22:10:05Z', '115.00', '15.00']);

describe('codes in the engine', () => {
  let engine: Engine;
  const stages: Array<Record<string, number>> = [];
  beforeAll(async () => { engine = await createEngine({ workers: 1, secondReader: false, onStageTimes: (t) => stages.push(t) }); });
  afterAll(async () => { await engine?.close(); });

  it('verbose: entities.codes lists the code with its fiscal payload; agreeing fields rise to 0.99', async () => {
    const { bytes } = await receiptWithCode(PAYLOAD, { module: 4, lines: LINES('115.00') });
    const r = await engine.extract(bytes, { verbose: true, refresh: true, detectFraud: false });
    expect(r.entities.codes).toHaveLength(1);
    expect(Object.keys(r.entities).slice(-1)).toEqual(['codes']); // fraud checks off: nothing after it
    const c = r.entities.codes![0]!;
    expect(Object.keys(c)).toEqual(['data', 'format', 'page', 'regions', 'fiscal']);
    expect(c).toMatchObject({ data: PAYLOAD, format: 'QRCode', page: 1, fiscal: { scheme: 'sa-zatca', countryCode: 'SA', data: { totalAmount: 115, taxAmount: 15, date: '2024-03-14', merchantTaxId: '310122393500003' } } });
    expect(c.regions[0]).toHaveLength(4);
    expect(r.totalAmount).toMatchObject({ data: 115, confidenceLevel: 0.99 });
    expect(r.taxAmount).toMatchObject({ data: 15, confidenceLevel: 0.99 });
    expect(r.date).toMatchObject({ data: '2024-03-14T12:00:00.000Z', confidenceLevel: 0.99 });
    expect(r.merchantTaxId).toMatchObject({ data: '310122393500003', confidenceLevel: 0.99 });
    expect(r.evidence.totalAmount).toContain('rule:fiscal-code');
    expect(stages.at(-1)).toHaveProperty('codes');
  });

  it('simple: a total the text misreads is the code\'s, and a warning names the disagreement', async () => {
    const { bytes } = await receiptWithCode(PAYLOAD, { module: 4, lines: LINES('113.00') });
    const s = await engine.extract(bytes, { refresh: true });
    expect(s.totalAmount).toEqual({ data: 115, confidenceLevel: 0.99 });
    const v = await engine.extract(bytes, { verbose: true, refresh: true, detectFraud: false });
    expect(v.totalAmount.data).toBe(115);
    expect(v.warnings.join('\n')).toMatch(/sa-zatca fiscal code gives totalAmount 115 where the text reads 113/);
  });

  it('readCodes: false skips the stage: no entities.codes, the text decides', async () => {
    const { bytes } = await receiptWithCode(PAYLOAD, { module: 4, lines: LINES('113.00') });
    stages.length = 0;
    const v = await engine.extract(bytes, { verbose: true, refresh: true, detectFraud: false, readCodes: false });
    expect(v.entities).not.toHaveProperty('codes');
    expect(v.totalAmount.data).toBe(113);
    expect(stages.at(-1)).not.toHaveProperty('codes');
    await expect(engine.extract(bytes, { readCodes: 'no' as unknown as boolean })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: expect.stringMatching(/readCodes/) });
  });
});

describe('readCodes where detectFraud is wired', () => {
  it('server parameters, CLI flag, OpenAPI document', async () => {
    const { optionsFrom } = await import('../src/server/params.js');
    expect(optionsFrom({ readCodes: 'false' }, 'multipart', [])).toEqual({ readCodes: false });
    const { extractionOptions } = await import('../src/cli/args.js');
    expect(extractionOptions({ 'no-codes': true })).toMatchObject({ readCodes: false });
    expect(extractionOptions({})).not.toHaveProperty('readCodes');
    const { openApiDocument } = await import('../src/server/openapi.js');
    const { apiRoutes } = await import('../src/server/routes.js');
    const { parseServerConfig } = await import('../src/server/config.js');
    const doc = openApiDocument(apiRoutes(), parseServerConfig({})) as any;
    expect(JSON.stringify(doc.paths)).toMatch(/"readCodes"/);
    expect(doc.components.schemas.CodeEntity.properties.fiscal).toEqual({ $ref: '#/components/schemas/FiscalCode' });
    expect(doc.components.schemas.FiscalCode.properties.scheme.enum).toContain('sa-zatca');
  });
});
