// Fiscal payloads (src/codes/fiscal/): each format parses the sample laid out as its specification says,
// rejects a damaged one with a reason, and leaves other codes alone; resolve/fiscal.ts weighs the facts
// into the fields (0.99, the code wins over the text, a warning names the disagreement).
import { describe, expect, it } from 'vitest';
import { FISCAL_FORMATS, parseFiscal } from '../src/codes/fiscal/index.js';
import { validGstin } from '../src/codes/fiscal/in-gst-einvoice.js';
import { validNif } from '../src/codes/fiscal/pt-atcud.js';
import { accessKey } from '../src/codes/fiscal/br-nfe.js';
import { validCnpj } from '../src/codes/fiscal/common.js';
import { applyFiscalFacts, sameTaxId } from '../src/resolve/fiscal.js';
import { extractFields } from '../src/extract/index.js';
import { documentFromText } from '../src/document/geometry.js';
import type { FiscalFact } from '../src/contract/codes.js';
import { fiscalSamples, nfeKey, zatcaTlv } from './generators/code-fixtures.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';

describe('fiscal formats', () => {
  for (const s of fiscalSamples()) {
    it(`${s.scheme}${s.variant ? ` (${s.variant})` : ''}: every field of the sample`, () => {
      const r = parseFiscal({ format: s.format ?? 'QRCode', text: s.text });
      expect(r && 'fact' in r ? r.fact.scheme : r).toBe(s.scheme);
      if (!r || !('fact' in r)) return;
      expect(r.fact.fields).toEqual(s.fields);
    });
  }

  it('at least five formats, each file citing its specification in its header', () => {
    expect(FISCAL_FORMATS.length).toBeGreaterThanOrEqual(5);
    const dir = path.resolve(__dirname, '../src/codes/fiscal');
    const files = ['sa-zatca', 'in-gst-einvoice', 'ru-fns', 'br-nfe', 'pt-atcud', 'es-ticketbai', 'es-verifactu', 'hr-fiskalizacija'];
    for (const f of files) {
      const head = readFileSync(path.join(dir, `${f}.ts`), 'utf8').split('*/')[0]!;
      expect(head, f).toMatch(/Specification/);
      expect(head, f).toMatch(/https?:\/\//);
    }
  });

  it('damaged payloads are recognised and listed with the reason', () => {
    const bad: Array<[string, string, RegExp]> = [
      ['QRCode', zatcaTlv(['Shop', '123', '2024-03-14T10:00:00', '10.00', '1.30']), /VAT number/],
      ['QRCode', zatcaTlv(['Shop', '310122393500003', '2024-02-30T10:00:00', '10.00', '1.30']), /not a date/],
      ['QRCode', 't=20240315T1432&s=12,,5&fn=9960440300123456&i=1&fp=1&n=1', /not an amount/],
      ['QRCode', 'A:123456788*B:999999990*C:PT*D:FS*E:N*F:20240315*G:FS 1*N:1.00*O:5.00', /NIF/],
      ['QRCode', `https://www.nfce.fazenda.sp.gov.br/qrcode?p=${nfeKey().slice(0, 43)}${(Number(nfeKey()[43]) + 1) % 10}|2|1|1|ABC`, /check digit/],
      ['QRCode', 'https://porezna.gov.hr/rn?jir=9cb2e6a6-2a4b-4b8e-9a3f-1b2c3d4e5f60&datv=2024-03-15&izn=1250', /datv/],
      ['QRCode', 'https://batuz.eus/QRTBAI/?id=TBAI-00000006Y-321019-btFpwP8dcLGAF-237&s=B&nf=1&i=4.70&cr=007', /not a date/],
    ];
    for (const [format, text, why] of bad) {
      const r = parseFiscal({ format, text });
      expect(r && 'error' in r ? r.error : r, text).toMatch(why);
    }
  });

  it('other codes are not fiscal: URLs, EAN-13, 44 digits that are no access key, text', () => {
    for (const [format, text] of [['QRCode', 'http://lehr.qr.honestly.de'], ['EAN13', '4006381333931'], ['Code128', '1'.repeat(44)], ['QRCode', 'WIFI:S:shop;T:WPA;P:secret;;'], ['ITF', '0888318276290204070420']]) {
      expect(parseFiscal({ format: format!, text: text! }), text).toBeUndefined();
    }
  });

  it('check digits: GSTIN, NIF, CNPJ, access key', () => {
    expect(validGstin('27AAPFU0939F1ZV')).toBe(true);
    expect(validGstin('27AAPFU0939F1ZW')).toBe(false);
    expect(validNif('123456789')).toBe(true);
    expect(validNif('123456788')).toBe(false);
    expect(validCnpj('11222333000181')).toBe(true);
    expect(validCnpj('11222333000182')).toBe(false);
    expect(accessKey(nfeKey()).cnpj).toBe('11222333000181');
  });
});

const zatca = (fields: FiscalFact['fields']): FiscalFact & { code: { page: number } } => ({ scheme: 'sa-zatca', country: 'SA', fields, code: { page: 0 } });

describe('fiscal facts in the fields', () => {
  const receipt = 'AL NOOR TRADING\nVAT NO 310122393500003\nDATE 14/03/2024\nSUBTOTAL 100.00\nVAT 15% 15.00\nTOTAL 115.00\nCASH 120.00\nCHANGE 5.00';
  const fieldsOf = (text: string) => extractFields(documentFromText(text), { extractTime: false, now: new Date('2024-06-01T00:00:00Z') });

  it('agreeing values keep their line and rise to 0.99, with the code in the evidence', () => {
    const f = fieldsOf(receipt);
    const r = applyFiscalFacts(f, [zatca({ totalAmount: 115, taxAmount: 15, date: '2024-03-14', merchantTaxId: '310122393500003' })], { extractTime: false });
    expect(r.warnings).toEqual([]);
    expect(r.fields.totalAmount).toMatchObject({ value: 115, confidence: 0.99, lineIndex: f.totalAmount!.lineIndex });
    expect(r.fields.taxAmount).toMatchObject({ value: 15, confidence: 0.99 });
    expect(r.fields.date).toMatchObject({ value: '2024-03-14T12:00:00.000Z', confidence: 0.99 });
    expect(r.fields.evidence?.totalAmount?.slice(-2)).toEqual(['fiscal-code:sa-zatca(agrees)', 'rule:fiscal-code']);
    expect(f.totalAmount!.confidence).toBeLessThanOrEqual(0.99); // the input is not changed in place
    expect(r.fields).not.toBe(f);
  });

  it('a disagreeing value: the code wins, located on the line that prints it, and a warning names it', () => {
    // the text adds up to 113 (100 + 13); the code says 115, which the page prints only as the amount paid
    const f = fieldsOf(receipt.replace('VAT 15% 15.00', 'VAT 13.00').replace('TOTAL 115.00', 'TOTAL 113.00').replace('CASH 120.00\nCHANGE 5.00', 'PAID 115.00'));
    expect(f.totalAmount?.value).not.toBe(115);
    const r = applyFiscalFacts(f, [zatca({ totalAmount: 115, date: '2024-03-15' })], { extractTime: false });
    expect(r.fields.totalAmount).toMatchObject({ value: 115, confidence: 0.99, keyword: 'QR' });
    expect(r.fields.totalAmount!.text).toMatch(/115\.00/);
    expect(r.fields.date?.value).toBe('2024-03-15T12:00:00.000Z');
    expect(r.warnings.join('\n')).toMatch(/sa-zatca fiscal code gives totalAmount 115 where the text reads 113/);
    expect(r.warnings.join('\n')).toMatch(/date 2024-03-15T12:00:00.000Z where the text reads 2024-03-14/);
  });

  it('fills missing fields (tax ID, country, currency, and the invoice number and name only when empty); keeps the time with extractTime', () => {
    const f = fieldsOf('SHOP\nTOTAL 20.00');
    const r = applyFiscalFacts(f, [zatca({ totalAmount: 20, date: '2024-03-14', time: '21:05:00', merchantTaxId: '310122393500003', merchantName: 'Legal Name LLC', invoiceNumber: 'INV-7', currencyCode: 'SAR' })], { extractTime: true });
    expect(r.fields.merchantTaxId?.value).toBe('310122393500003');
    expect(r.fields.merchantCountryCode?.value).toBe('SA');
    expect(r.fields.currencyCode?.value).toBe('SAR');
    expect(r.fields.invoiceNumber).toMatchObject({ value: 'INV-7', confidence: 0.9 });
    expect(r.fields.date?.value).toBe('2024-03-14T21:05:00.000Z');
    expect(r.fields.merchantName).toMatchObject({ value: 'Legal Name LLC', confidence: 0.9 }); // no name was read
    const named = fieldsOf(receipt);
    expect(named.merchantName?.value).toBeTruthy();
    const r2 = applyFiscalFacts(named, [zatca({ merchantName: 'Legal Name LLC', invoiceNumber: 'INV-7' })], { extractTime: false });
    expect(r2.fields.merchantName).toEqual(named.merchantName); // the printed name stays
  });

  it('codes that contradict each other decide nothing for that field', () => {
    const f = fieldsOf(receipt);
    const r = applyFiscalFacts(f, [zatca({ totalAmount: 115 }), zatca({ totalAmount: 99 })], { extractTime: false });
    expect(r.fields.totalAmount).toEqual(f.totalAmount);
    expect(r.warnings.join('\n')).toMatch(/disagree on totalAmount/);
  });

  it('no facts: the same fields object', () => {
    const f = fieldsOf(receipt);
    expect(applyFiscalFacts(f, [], { extractTime: false }).fields).toBe(f);
  });

  it('tax IDs match across printed forms and country prefixes, not across different numbers', () => {
    expect(sameTaxId('PT 123456789', '123456789')).toBe(true);
    expect(sameTaxId('11.222.333/0001-81', '11222333000181')).toBe(true);
    expect(sameTaxId('123456789', '923456789')).toBe(false);
    expect(sameTaxId('1123456789', '123456789')).toBe(false);
  });
});
