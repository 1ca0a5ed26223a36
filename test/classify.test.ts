/**
 * Document type (src/classify) and language (src/language) on text: the real field finders read
 * hand-written pages, the classifier and the detector decide. No OCR here; test/doctype-images.test.ts
 * runs generated images through the engine.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { extractFields } from '../src/extract/index.js';
import { documentTypeOf, classifyDocument } from '../src/classify/index.js';
import type { ClassifyInput } from '../src/classify/index.js';
import { detectLanguage, languageWords, loadLanguageDetector } from '../src/language/detect.js';
import { secondReadingLanguage, REREAD_MIN_CONFIDENCE } from '../src/language/reread.js';
import { doc, extraction, RECEIPT_LINES } from './helpers/extraction.js';
import { subjectFromExtraction } from '../src/validate/subject.js';
import { evaluateRules } from '../src/validate/rules.js';
import { CHECK_NAMES, parseWithField, validationRulesSchema } from '../src/contract/validation.js';

const NOW = new Date('2025-01-15T12:00:00Z');
const kind = (lines: string[], source: 'ocr' | 'pdf-text' = 'ocr') => {
  const d = doc(lines, source);
  return documentTypeOf(d, extractFields(d, { extractTime: false, extractLineItems: true, now: NOW }));
};

const INVOICE = [
  'Brightline Consulting Ltd', '14 Harbour Road, Bristol BS1 5TT', 'INVOICE',
  'Invoice number: INV-2024-0193', 'Invoice date: 03/09/2024', 'Due date: 03/10/2024',
  'Bill to: Northwind Traders, 2 Market St, Leeds', 'Description Qty Unit price Amount',
  'Strategy workshop 2 450.00 900.00', 'Travel expenses 1 120.00 120.00', 'Subtotal 1,020.00',
  'VAT 20% 204.00', 'Total due GBP 1,224.00', 'Payment terms: 30 days', 'IBAN GB29 NWBK 6016 1331 9268 19',
];
const STATEMENT = [
  'Northern Rock Bank', 'ACCOUNT STATEMENT', 'Account number 12345678', 'Statement period 01.03.2024 - 31.03.2024',
  'Date Description Debit Credit Balance', 'Opening balance 1,204.50', '02.03 CARD PAYMENT SUPERMARKET 54.20 1,150.30',
  '05.03 SALARY ACME LTD 2,100.00 3,250.30', '09.03 DIRECT DEBIT ELECTRICITY 80.00 3,170.30', 'Closing balance 3,170.30',
];
const LETTER = [
  'Northfield Housing Association', '12 Mill Lane, Leeds LS1 4AB', 'Ms. Jane Doe', '4 Park Road', 'Bristol BS8 1QU', '3.9.2024',
  'Re: Your application', 'Dear Ms. Doe,',
  'We are writing to inform you about the upcoming changes to our service and the new schedule',
  'which will take effect from the first of next month for every tenant of the estate.',
  'Please do not hesitate to contact us if you have any questions about these changes.',
  'Our team has been working hard to improve the experience for everyone living here.',
  'Yours sincerely,', 'A. Walker',
];
const CHAT = [
  '15:42', 'Anna', 'Hey, are you coming tonight? 10:02', 'Running 10 minutes late, sorry! 10:05',
  'Did you see the game yesterday? 10:07', 'Sure, see you at 7 10:09', 'lol that is hilarious 10:12', 'Message',
];
const WEB = [
  'https://www.cityguide.com/articles', 'City Guide Home About Blog Contact News Login',
  'The committee will review all applications received before the deadline of the spring',
  'This article explains the history of the old town and its famous bridge over the river',
  'Sign up for our newsletter to receive weekly updates and stories from around the city',
  'Read more about how we protect your privacy and your data when you visit our pages',
  '© 2021 Example Media · Blog · Contact · Products',
];

describe('document type from text', () => {
  it('a till receipt is a receipt, with its evidence', () => {
    const r = kind(RECEIPT_LINES);
    expect(r.type).toBe('receipt');
    expect(r.confidence).toBeGreaterThan(0.7);
    expect(r.evidence.some((e) => e.startsWith('total-keyword'))).toBe(true);
  });

  it('an invoice (bill to, due date, payment terms, IBAN) is an invoice; the same lines from a PDF text layer too', () => {
    expect(kind(INVOICE).type).toBe('invoice');
    expect(kind(INVOICE, 'pdf-text').type).toBe('invoice');
  });

  it('a receipt headed "TAX INVOICE" stays a receipt (the heading alone does not make an invoice)', () => {
    expect(kind(['TAX INVOICE', ...RECEIPT_LINES]).type).toBe('receipt');
  });

  it('a bank statement, a letter, a chat and a web page are other', () => {
    for (const [name, lines] of Object.entries({ STATEMENT, LETTER, CHAT, WEB })) {
      const r = kind(lines);
      expect(r.type, `${name}: ${r.evidence.join(' ')}`).toBe('other');
    }
  });

  it('text that shows nothing either way (OCR noise) is other, and says so', () => {
    const r = kind(['ETRE SEE HE Sa A [LA', 'i oo B I DE N', '= EE - B oo RE I - = BN', 'oo og, at LE = RT = he', 'Gi a BE — ET EE I']);
    expect(r).toMatchObject({ type: 'other', evidence: ['no-cues'] });
  });

  it('a page with almost no text is other, with high confidence', () => {
    const r = kind(['~', 'a']);
    expect(r.type).toBe('other');
    expect(r.confidence).toBeGreaterThan(0.9);
    expect(r.evidence[0]).toMatch(/^no-text/);
  });

  it('commerce evidence outweighs a short paragraph on a receipt', () => {
    const lines = [...RECEIPT_LINES, 'Goods sold are not returnable but may be exchanged within seven days of purchase'];
    expect(kind(lines).type).toBe('receipt');
  });

  it('costs well under a millisecond per page once warm', () => {
    const d = doc(INVOICE);
    const f = extractFields(d, { extractTime: false, extractLineItems: true, now: NOW });
    documentTypeOf(d, f);
    const t0 = performance.now();
    for (let i = 0; i < 200; i++) documentTypeOf(d, f);
    expect((performance.now() - t0) / 200).toBeLessThan(2);
  });

  it('classifyDocument takes a summary: fields without a total and prose lines make other', () => {
    const x: ClassifyInput = {
      lines: LETTER, textLayer: false,
      fields: { lineAmounts: 0, lineItems: 0, tax: false, subtotal: false, paid: false, payment: false, date: true, dueDate: false, invoiceNumber: false, receiptNumber: false },
    };
    expect(classifyDocument(x).type).toBe('other');
    expect(classifyDocument({ ...x, lines: RECEIPT_LINES, fields: { ...x.fields, totalKeyword: 'TOTAL', lineAmounts: 8, lineItems: 3, tax: true } }).type).toBe('receipt');
  });
});

describe('language of the text', () => {
  beforeAll(async () => { expect(await loadLanguageDetector()).toBe(true); });

  it('reads words, not prices, codes or web addresses', () => {
    expect(languageWords('TOTAL 12.50 www.shop.com INV-0042 Terima kasih')).toEqual(['TOTAL', 'Terima', 'kasih']);
  });

  it('tells the languages of receipts apart', () => {
    const cases: Array<[string, string]> = [
      ['en', 'Thank you for shopping with us. Total amount paid by card, change due, please keep your receipt'],
      ['de', 'Vielen Dank für Ihren Einkauf. Summe bar gegeben Rückgeld. Bitte bewahren Sie den Beleg auf'],
      ['fr', 'Merci de votre visite. Total à payer, espèces rendu monnaie. Conservez votre ticket de caisse'],
      ['vi', 'Cảm ơn quý khách. Tổng cộng tiền mặt tiền thừa trả lại. Hẹn gặp lại quý khách'],
      ['es', 'Gracias por su compra. Importe total pagado con tarjeta, cambio entregado. Conserve su ticket'],
    ];
    for (const [code, text] of cases) expect(detectLanguage(text)?.code, text).toBe(code);
  });

  it('Malay and Indonesian: the country or Indonesian-only words decide', () => {
    const text = 'Terima kasih atas kunjungan anda, sila datang lagi. Jumlah barang dibeli';
    expect(detectLanguage(text, 'MY')?.code).toBe('ms');
    expect(detectLanguage(text, 'ID')?.code).toBe('id');
    expect(detectLanguage('Terima kasih atas kunjungan anda. Total belanja tunai kembalian harga kasir')?.code).toBe('id');
  });

  it('too little text gives no language; more text gives more confidence', () => {
    expect(detectLanguage('12.50 9.99 TOTAL')).toBeUndefined();
    const short = detectLanguage('Vielen Dank Summe');
    const long = detectLanguage('Vielen Dank für Ihren Einkauf. Summe bar gegeben Rückgeld. Bitte bewahren Sie den Beleg auf, wir freuen uns auf Ihren nächsten Besuch in unserer Filiale');
    expect(long!.confidence).toBeGreaterThan(short?.confidence ?? 0);
    expect(long!.evidence[0]).toMatch(/^eld:de\(/);
  });
});

describe('second reading in the detected language', () => {
  const sure = { code: 'de', confidence: 0.9, evidence: [] };
  const installed = (c: string) => ['eng', 'deu', 'ind'].includes(c);

  it('reads again in an installed language that was not used, when the call gave no hint', () => {
    expect(secondReadingLanguage({ used: ['eng'], detected: sure, installed })).toBe('deu');
    expect(secondReadingLanguage({ hint: 'auto', used: ['eng'], detected: { code: 'id', confidence: 0.8, evidence: [] }, installed })).toBe('ind');
  });

  it('not with a hint, not when unsure, not when already used, not when the data is missing', () => {
    expect(secondReadingLanguage({ hint: 'en', used: ['eng'], detected: sure, installed })).toBeUndefined();
    expect(secondReadingLanguage({ used: ['eng'], detected: { ...sure, confidence: REREAD_MIN_CONFIDENCE - 0.01 }, installed })).toBeUndefined();
    expect(secondReadingLanguage({ used: ['deu'], detected: sure, installed })).toBeUndefined();
    expect(secondReadingLanguage({ used: ['eng'], detected: { code: 'fr', confidence: 0.9, evidence: [] }, installed })).toBeUndefined();
    expect(secondReadingLanguage({ used: ['eng'], installed })).toBeUndefined();
  });
});

describe('documentType rule (document_type_validated)', () => {
  const subject = (type?: 'receipt' | 'invoice' | 'other') => {
    const s = subjectFromExtraction(extraction());
    delete s.documentType;
    if (type) s.documentType = { type, confidence: 0.9, evidence: ['prose(-4)'] };
    return s;
  };
  const run = (type: 'receipt' | 'invoice' | 'other' | undefined, rule: object) =>
    evaluateRules(subject(type), parseWithField(validationRulesSchema, { documentType: rule }, 'rules'), { trackingId: 't', similar: [] });

  it('other fails unless allowOther; receipts pass; invoices pass unless allowInvoice is false', () => {
    expect(run('other', {}).failedValidations).toEqual(['document_type_validated']);
    expect(run('other', {}).reasons.document_type_validated).toMatch(/not a receipt or an invoice .*prose/);
    expect(run('other', { allowOther: true }).successful).toBe(true);
    expect(run('receipt', {}).passedValidations).toEqual(['document_type_validated']);
    expect(run('invoice', {}).successful).toBe(true);
    expect(run('invoice', { allowInvoice: false }).failedValidations).toEqual(['document_type_validated']);
    expect(run('other', { skip: true }).passedValidations).toEqual([]);
  });

  it('a stored subject without a document type fails with a reason', () => {
    expect(run(undefined, {}).reasons.document_type_validated).toMatch(/not known/);
  });

  it('the schema names an unknown field of the section', () => {
    expect(() => parseWithField(validationRulesSchema, { documentType: { allowOthers: true } }, 'rules')).toThrow(/documentType\.allowOthers/);
    expect(CHECK_NAMES).toContain('document_type_validated');
  });
});
