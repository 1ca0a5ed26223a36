/**
 * Validation (contract section 4): the rule-set schema, every rule section with both outcomes and its
 * reason, name matching, the result shape. Rule evaluation runs on hand-built extractions; a few calls
 * go through the engine (bad rules before any OCR, a text-layer PDF, one OCR'd receipt).
 */
import { describe, it, expect, vi, beforeAll, afterAll, afterEach } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteDb } from '../src/store/sqlite.js';
import { createEngine, validate, closeDefaultEngine, ReceiptKitError, CHECK_NAMES } from '../src/index.js';
import type { Engine, ValidationResult } from '../src/index.js';
import { OcrPool } from '../src/ocr/pool.js';
import { validationRulesSchema, parseWithField, VALIDATION_RESULT_KEYS, validateOptionsSchema } from '../src/contract/validation.js';
import type { ValidationRulesInput } from '../src/contract/validation.js';
import { evaluateRules } from '../src/validate/rules.js';
import type { SimilarMatch } from '../src/validate/rules.js';
import { subjectFromExtraction, fingerprintOf } from '../src/validate/subject.js';
import { matchName, normalizeName, bestMatch, codeKey } from '../src/validate/names.js';
import { extraction, receiptFields, item, loc, RECEIPT_LINES } from './helpers/extraction.js';
import type { ExtractionSpec } from './helpers/extraction.js';

const FIX = path.resolve(__dirname, '../fixtures');

function run(rules: ValidationRulesInput, spec: ExtractionSpec = {}, similar: SimilarMatch[] = []): ValidationResult {
  const parsed = parseWithField(validationRulesSchema, rules, 'validation rules');
  return evaluateRules(subjectFromExtraction(extraction(spec)), parsed, { trackingId: 't-1', similar });
}

function rejects(rules: unknown): ReceiptKitError {
  try {
    parseWithField(validationRulesSchema, rules, 'validation rules');
  } catch (e) {
    expect(e).toBeInstanceOf(ReceiptKitError);
    return e as ReceiptKitError;
  }
  throw new Error(`accepted ${JSON.stringify(rules)}`);
}

describe('rule set schema', () => {
  it('accepts every section', () => {
    const rules = {
      date: { start: '2024-10-01', end: '2024-10-31T23:59:59Z' },
      merchantNames: { allowList: ['A'], blockList: ['B'], list: ['C'], returnFromTheList: true, skip: false },
      productLineItems: { names: ['x'], quantity: { min: 1, max: 5 }, totalPrice: { min: 10 }, skip: false },
      productCodes: { list: ['123'], description: 'SKUs', skip: false },
      balanceOwing: { max: 0, skip: false },
      fraudDetection: { allowSimilarityCheck: true, allowTamperDetection: true, allowDigitalDetection: false },
      additionalExtractionFields: ['modelNumber'],
    };
    expect(parseWithField(validationRulesSchema, rules, 'validation rules')).toEqual(rules);
    expect(parseWithField(validationRulesSchema, {}, 'validation rules')).toEqual({});
  });

  it.each([
    [{ dates: {} }, 'dates', /unknown field dates/],
    [{ merchantNames: { allowlist: ['x'] } }, 'merchantNames.allowlist', /unknown field merchantNames\.allowlist/],
    [{ date: { start: '2024-10-01' } }, 'date.end', /date\.end: is required/],
    [{ date: { start: '01/10/2024', end: '2024-10-31' } }, 'date.start', /ISO 8601/],
    [{ date: { start: '2024-02-30', end: '2024-10-31' } }, 'date.start', /ISO 8601/],
    [{ date: { start: '2024-11-01', end: '2024-10-31' } }, 'date.end', /end must not be before start/],
    [{ merchantNames: { allowList: ['ok', ''] } }, 'merchantNames.allowList.1', /must not be empty/],
    [{ merchantNames: { blockList: 'Shell' } }, 'merchantNames.blockList', /array/],
    [{ productLineItems: { quantity: { min: 5, max: 2 } } }, 'productLineItems.quantity.max', /min must not be greater than max/],
    [{ productLineItems: { totalPrice: {} } }, 'productLineItems.totalPrice', /give min, max or both/],
    [{ productLineItems: { quantity: { min: '2' } } }, 'productLineItems.quantity.min', /number/],
    [{ productCodes: { list: [] } }, 'productCodes.list', /at least one code/],
    [{ balanceOwing: {} }, 'balanceOwing.max', /max is required/],
    [{ balanceOwing: { max: -1 } }, 'balanceOwing.max', /0 or more/],
    [{ fraudDetection: { allowSimilarityCheck: 'yes' } }, 'fraudDetection.allowSimilarityCheck', /boolean/],
    [{ additionalExtractionFields: ['colour'] }, 'additionalExtractionFields.0', /modelNumber/],
  ])('rejects %j naming %s', (rules, field, message) => {
    const e = rejects(rules);
    expect(e.code).toBe('INVALID_OPTION');
    expect(e.status).toBe(400);
    expect(e.field).toBe(field);
    expect(e.message).toMatch(message);
  });

  it('allows a skipped section without its required fields', () => {
    expect(() => parseWithField(validationRulesSchema, { balanceOwing: { skip: true }, productCodes: { skip: true } }, 'r')).not.toThrow();
  });

  it('validation options: extraction options without verbose; subAccountId up to 100', () => {
    expect(() => parseWithField(validateOptionsSchema, { verbose: true }, 'validate options')).toThrow(/unknown field verbose/);
    expect(parseWithField(validateOptionsSchema, { subAccountId: 'x'.repeat(100) }, 'o').subAccountId).toHaveLength(100);
    expect(() => parseWithField(validateOptionsSchema, { subAccountId: 'x'.repeat(101) }, 'o')).toThrow(ReceiptKitError);
    expect(() => parseWithField(validateOptionsSchema, { userId: 'x'.repeat(51) }, 'o')).toThrow(/userId/);
  });
});

describe('name matching', () => {
  it('normalises case, accents, punctuation and spacing', () => {
    expect(normalizeName("  Café  Rouge's & Co. ")).toBe('cafe rouges and co');
  });

  it.each([
    ['WAL-MART SUPERCENTER #123', 'Walmart'],
    ['WALMART', 'Wal Mart'],
    ['STARBUCKS C0FFEE', 'Starbucks Coffee'],
    ["MCDONALD'S", 'McDonalds'],
    ['CAFE ROUGE', 'Café Rouge'],
    ['KEDAI MAKAN SERI MURNI SDN BHD', 'Kedai Makan Seri Murni'],
    ['KEDAI MAKAN SERI MURNI', 'Kedai Makan Seri Murni Sdn. Bhd.'],
    ['GREENLEAF GR0CERY', 'Greenleaf Grocery'],
    ['TESC0 EXTRA', 'Tesco'],
    ['BP STATION 42', 'BP'],
  ])('%s matches %s', (candidate, entry) => {
    expect(matchName(candidate, entry, { ignoreLegalForms: true }).matched).toBe(true);
  });

  it.each([
    ['TARGET', 'Walmart'],
    ['IDEA STORE', 'IKEA'],
    ['BPX', 'BP'],
    ['COFFEE', 'Starbucks Coffee'],
    ['SHELLY NAILS', 'Shell Petrol Station'],
  ])('%s does not match %s', (candidate, entry) => {
    expect(matchName(candidate, entry, { ignoreLegalForms: true }).matched).toBe(false);
  });

  it('a one-letter OCR slip in a long name still matches, with its score', () => {
    const m = matchName('OAT MLK 64OZ', 'Oat Milk');
    expect(m.matched).toBe(true);
    expect(m.score).toBeGreaterThanOrEqual(0.8);
    expect(m.score).toBeLessThan(1);
    expect(m.matchedText).toBe('oat mlk');
  });

  it('bestMatch reports the entry as the list spells it', () => {
    expect(bestMatch(['walmart supercenter'], ['Target', 'Wal-Mart Stores'])?.entry).toBe('Wal-Mart Stores');
  });

  it('product codes ignore separators, case, OCR letter-for-digit slips and leading zeros', () => {
    expect(codeKey('abc-12O', false)).toBe(codeKey('ABC 120', false));
    expect(codeKey('0012345', true)).toBe(codeKey('12345', true));
  });
});

describe('date', () => {
  const rules = { date: { start: '2024-03-01', end: '2024-03-31' } };
  it('passes inside the period', () => {
    const r = run(rules);
    expect(r.passedValidations).toEqual(['campaign_date_validated']);
    expect(r.reasons.campaign_date_validated).toBe('date 2024-03-12 is within the campaign period 2024-03-01 to 2024-03-31');
    expect(r.successful).toBe(true);
  });
  it('fails after the end, saying so', () => {
    const r = run({ date: { start: '2024-10-01', end: '2024-10-31' } }, { fields: receiptFields({ date: loc('2024-11-02T12:00:00.000Z') }) });
    expect(r.failedValidations).toEqual(['campaign_date_validated']);
    expect(r.reasons.campaign_date_validated).toBe('date 2024-11-02 is after campaign end 2024-10-31');
    expect(r.successful).toBe(false);
  });
  it('fails before the start', () => {
    const r = run({ date: { start: '2024-04-01T00:00:00Z', end: '2024-04-30T23:59:59Z' } });
    expect(r.reasons.campaign_date_validated).toBe('date 2024-03-12 is before campaign start 2024-04-01');
  });
  it('counts the first and the last day', () => {
    expect(run({ date: { start: '2024-03-12', end: '2024-03-20' } }).successful).toBe(true);
    expect(run({ date: { start: '2024-03-01', end: '2024-03-12T00:00:00+08:00' } }).successful).toBe(true);
  });
  it('fails when no date was read', () => {
    const { date: _d, ...rest } = receiptFields();
    const r = run(rules, { fields: rest });
    expect(r.failedValidations).toEqual(['campaign_date_validated']);
    expect(r.reasons.campaign_date_validated).toMatch(/^no date was read/);
    expect(r.date).toBeNull();
  });
  it('ignores a field the finders gave zero confidence', () => {
    const r = run(rules, { fields: receiptFields({ date: loc('2024-03-12T12:00:00.000Z', 3, 0) }) });
    expect(r.failedValidations).toEqual(['campaign_date_validated']);
  });
});

describe('merchantNames', () => {
  it('passes on an allow-list match and returns the name as read', () => {
    const r = run({ merchantNames: { allowList: ['Kedai Makan Seri Murni', 'Other'] } });
    expect(r.passedValidations).toEqual(['merchant_name_validated']);
    expect(r.reasons.merchant_name_validated).toBe('merchant "KEDAI MAKAN SERI MURNI SDN BHD" matches allow-list entry "Kedai Makan Seri Murni"');
    expect(r.merchantName).toBe('KEDAI MAKAN SERI MURNI SDN BHD');
  });
  it('returnFromTheList returns the list spelling', () => {
    const r = run({ merchantNames: { allowList: ['Kedai Makan Seri Murni'], returnFromTheList: true } });
    expect(r.merchantName).toBe('Kedai Makan Seri Murni');
  });
  it('accepts the legacy list as an allow list', () => {
    const r = run({ merchantNames: { list: ['kedai makan seri-murni'], returnFromTheList: true } });
    expect(r.successful).toBe(true);
    expect(r.merchantName).toBe('kedai makan seri-murni');
  });
  it('tolerates OCR noise in the merchant name', () => {
    const r = run({ merchantNames: { allowList: ['Kedai Makan Seri Murni'] } }, { fields: receiptFields({ merchantName: loc('KEDAI MAKAN SER1 MURNl SDN BHD') }) });
    expect(r.successful).toBe(true);
  });
  it('fails when not on the allow list, naming the closest entry', () => {
    const r = run({ merchantNames: { allowList: ['Kedai Makan Sri Melaka', 'Walmart'] } });
    expect(r.failedValidations).toEqual(['merchant_name_validated']);
    expect(r.reasons.merchant_name_validated).toMatch(/^merchant "KEDAI MAKAN SERI MURNI SDN BHD" is not on the allow list \(closest entry "Kedai Makan Sri Melaka", similarity 0\.\d\d\)$/);
  });
  it('a block-list hit wins over an allow-list hit', () => {
    const r = run({ merchantNames: { allowList: ['Kedai Makan Seri Murni'], blockList: ['KEDAI MAKAN SERI MURNI'] } });
    expect(r.failedValidations).toEqual(['merchant_name_validated']);
    expect(r.reasons.merchant_name_validated).toBe('merchant "KEDAI MAKAN SERI MURNI SDN BHD" matches block-list entry "KEDAI MAKAN SERI MURNI"');
  });
  it('a block-list entry printed in the header fails even when the merchant was read as something else', () => {
    const lines = ['SHELL', 'PETROL STATION 42', ...RECEIPT_LINES.slice(3)];
    const r = run({ merchantNames: { allowList: ['Petrol Station 42'], blockList: ['Shell'] } }, { lines, fields: receiptFields({ merchantName: loc('PETROL STATION 42', 1) }) });
    expect(r.failedValidations).toEqual(['merchant_name_validated']);
    expect(r.reasons.merchant_name_validated).toBe('block-list entry "Shell" appears on the receipt ("SHELL")');
  });
  it('passes a block list that does not match', () => {
    const r = run({ merchantNames: { blockList: ['Shell', 'Petronas'] } });
    expect(r.reasons.merchant_name_validated).toBe('merchant "KEDAI MAKAN SERI MURNI SDN BHD" is not on the block list');
    expect(r.successful).toBe(true);
  });
  it('finds an allow-list entry in the header when the merchant name was misread', () => {
    const r = run({ merchantNames: { allowList: ['Kedai Makan Seri Murni'], returnFromTheList: true } }, { fields: receiptFields({ merchantName: loc('TAMAN BUNGA') }) });
    expect(r.successful).toBe(true);
    expect(r.reasons.merchant_name_validated).toMatch(/^allow-list entry "Kedai Makan Seri Murni" appears on the receipt \("KEDAI MAKAN SERI MURNI SDN BHD"\) although the merchant was read as "TAMAN BUNGA"$/);
    expect(r.merchantName).toBe('Kedai Makan Seri Murni');
  });
  it('fails without a merchant name and without the entry on the receipt', () => {
    const { merchantName: _m, ...rest } = receiptFields();
    const r = run({ merchantNames: { allowList: ['Walmart'] } }, { fields: rest });
    expect(r.reasons.merchant_name_validated).toBe('no merchant name was read and no allow-list entry appears on the receipt');
    expect(r.merchantName).toBeNull();
  });
  it('skip adds no check', () => {
    const r = run({ merchantNames: { skip: true, allowList: ['Walmart'] } });
    expect(r.passedValidations).toEqual([]);
    expect(r.failedValidations).toEqual([]);
    expect(r.reasons).toEqual({});
  });
});

describe('productLineItems', () => {
  it('matches names fuzzily and reports the matched items', () => {
    const r = run({ productLineItems: { names: ['Teh Tarik', 'roti-canai'] } });
    expect(r.passedValidations).toEqual(['product_line_items_validated']);
    expect(r.matchedProductLineItems.map((i) => i.name)).toEqual(['TEH TARIK', 'ROTI CANAI']);
    expect(r.reasons.product_line_items_validated).toBe('2 line items matching "Teh Tarik", "roti-canai": quantity 5, total price 10.40');
    expect(r.productLineItems).toHaveLength(3);
    expect(Object.keys(r.productLineItems[0]!)).toEqual(['name', 'unitPrice', 'totalPrice', 'quantity']);
  });
  it('fails when no item matches', () => {
    const r = run({ productLineItems: { names: ['Milo Ais'] } });
    expect(r.failedValidations).toEqual(['product_line_items_validated']);
    expect(r.reasons.product_line_items_validated).toMatch(/^no line item matches "Milo Ais"/);
    expect(r.matchedProductLineItems).toEqual([]);
  });
  it('checks the quantity range on the matching items', () => {
    expect(run({ productLineItems: { names: ['nasi lemak'], quantity: { min: 2, max: 2 } } }).successful).toBe(true);
    const low = run({ productLineItems: { names: ['nasi lemak'], quantity: { min: 3 } } });
    expect(low.reasons.product_line_items_validated).toBe('quantity 2 is below the minimum 3 (1 line item matching "nasi lemak")');
    const high = run({ productLineItems: { quantity: { max: 6 } } });
    expect(high.reasons.product_line_items_validated).toBe('quantity 7 is above the maximum 6 (all 3 line items)');
  });
  it('checks the total price range', () => {
    expect(run({ productLineItems: { totalPrice: { min: 27.4, max: 27.4 } } }).successful).toBe(true);
    const r = run({ productLineItems: { names: ['teh tarik'], totalPrice: { min: 10 } } });
    expect(r.reasons.product_line_items_validated).toBe('total price 5.60 is below the minimum 10.00 (1 line item matching "teh tarik")');
    expect(r.successful).toBe(false);
  });
  it('fails when the receipt has no line items', () => {
    const r = run({ productLineItems: {} }, { fields: receiptFields({ lineItems: [] }) });
    expect(r.reasons.product_line_items_validated).toBe('no product line items were read from the receipt');
  });
  it('skip adds no check', () => {
    expect(run({ productLineItems: { skip: true, names: ['nothing'] } }).failedValidations).toEqual([]);
  });
  it('additionalExtractionFields adds modelNumber to line items', () => {
    const fields = receiptFields({ lineItems: [item('SONY WH-1000XM4 HEADPHONES', 1, 299, 299), item('COFFEE BEANS 12OZ', 1, 13.99, 13.99), item('CABLE', 1, 5, 5, 'SKU-991')] });
    const r = run({ additionalExtractionFields: ['modelNumber'] }, { fields });
    expect(r.productLineItems.map((i) => i.modelNumber)).toEqual(['WH-1000XM4', null, 'SKU-991']);
    expect(run({}, { fields }).productLineItems[0]).not.toHaveProperty('modelNumber');
  });
});

describe('productCodes', () => {
  const withCodes = receiptFields({ lineItems: [item('SHAMPOO 400ML', 1, 12.9, 12.9, '9556001234567'), item('SOAP', 2, 3, 6, 'ABC-100')] });
  it('passes on a line-item code, with the description in the reason', () => {
    const r = run({ productCodes: { list: ['ABC100', '111'], description: 'participating soaps' } }, { fields: withCodes });
    expect(r.passedValidations).toEqual(['product_codes_validated']);
    expect(r.reasons.product_codes_validated).toBe('product code ABC100 (participating soaps) found on the receipt');
    expect(r.productCodes).toEqual(['9556001234567', 'ABC-100']);
  });
  it('finds a code printed in the text, OCR slips included', () => {
    const lines = [...RECEIPT_LINES, 'ITEM 0O955600123 SHAMPOO'];
    const r = run({ productCodes: { list: ['955600123'] } }, { lines });
    expect(r.successful).toBe(true);
    expect(r.productCodes).toEqual(['955600123']);
  });
  it('never reads a code inside a money amount, nor a short code from the text', () => {
    const r = run({ productCodes: { list: ['2905', '12'] } });
    expect(r.failedValidations).toEqual(['product_codes_validated']);
    expect(r.reasons.product_codes_validated).toBe('none of the 2 campaign product codes was found on the receipt');
  });
  it('fails listing the codes that were read', () => {
    const r = run({ productCodes: { list: ['XYZ-9'], description: 'promo SKUs' } }, { fields: withCodes });
    expect(r.reasons.product_codes_validated).toBe('none of the 1 campaign product code (promo SKUs) was found on the receipt; codes read: 9556001234567, ABC-100');
  });
  it('skip adds no check', () => {
    expect(run({ productCodes: { skip: true } }).reasons).toEqual({});
  });
});

describe('balanceOwing', () => {
  it('paid in full passes', () => {
    const r = run({ balanceOwing: { max: 0 } });
    expect(r.reasons.balance_owing_validated).toBe('balance owing 0.00 is within the maximum 0.00 (total 29.05, paid 50.00)');
    expect(r.balanceAmount).toBe(0);
  });
  it('a part payment over the maximum fails', () => {
    const r = run({ balanceOwing: { max: 5 } }, { fields: receiptFields({ paidAmount: loc(20, 10) }) });
    expect(r.failedValidations).toEqual(['balance_owing_validated']);
    expect(r.reasons.balance_owing_validated).toBe('balance owing 9.05 is over the maximum 5.00 (total 29.05, paid 20.00)');
    expect(r.balanceAmount).toBe(9.05);
  });
  it('a printed balance-due line decides', () => {
    const lines = [...RECEIPT_LINES.slice(0, 10), 'DEPOSIT 10.00', 'BALANCE DUE 19.05'];
    const fields = receiptFields({ paidAmount: loc(10, 10), lineAmounts: [{ value: 19.05, text: '19.05', lineIndex: 11, page: 0, boxes: [] }] });
    const r = run({ balanceOwing: { max: 0 } }, { lines, fields });
    expect(r.reasons.balance_owing_validated).toBe('balance owing 19.05 is over the maximum 0.00 (printed on the line "BALANCE DUE 19.05")');
    expect(run({ balanceOwing: { max: 20 } }, { lines, fields }).successful).toBe(true);
  });
  it('a payment method without a paid amount counts as paid', () => {
    const { paidAmount: _p, ...rest } = receiptFields({ paymentType: loc('visa') });
    expect(run({ balanceOwing: { max: 0 } }, { fields: rest }).reasons.balance_owing_validated).toBe('balance owing 0.00 is within the maximum 0.00 (total 29.05 paid by visa)');
  });
  it('fails when the balance cannot be determined', () => {
    const { paidAmount: _p, paymentType: _t, ...rest } = receiptFields();
    const r = run({ balanceOwing: { max: 100 } }, { fields: rest });
    expect(r.reasons.balance_owing_validated).toBe('the balance owing could not be determined: no paid amount, payment or balance line was read');
    expect(r.balanceAmount).toBeNull();
  });
  it('skip adds no check', () => {
    expect(run({ balanceOwing: { skip: true } }).reasons).toEqual({});
  });
});

describe('fraudDetection', () => {
  it('unique: passes without similar receipts', () => {
    const r = run({ fraudDetection: { allowSimilarityCheck: true } });
    expect(r.passedValidations).toEqual(['fraud_detection_unique_receipt_validated']);
    expect(r.reasons.fraud_detection_unique_receipt_validated).toBe('no earlier receipt is a likely duplicate (the same file, or a similarity above 0.9 from the image, merchant, date, time, total, number, amounts and text)');
  });
  it('unique: fails on a likely duplicate, naming it; the result lists similar receipts without internals', () => {
    const similar: SimilarMatch[] = [{ referenceId: 'r-9', userId: 'u-1', trackingId: 'abc', similarityScore: 1, basis: 'same file' }];
    const r = run({ fraudDetection: { allowSimilarityCheck: true } }, {}, similar);
    expect(r.failedValidations).toEqual(['fraud_detection_unique_receipt_validated']);
    expect(r.reasons.fraud_detection_unique_receipt_validated).toBe('likely duplicate of receipt abc (user u-1, reference r-9): same file (similarity 1.00)');
    expect(r.similarReceipts).toEqual([{ referenceId: 'r-9', userId: 'u-1', trackingId: 'abc', similarityScore: 1 }]);
    expect(Object.keys(r.similarReceipts[0]!)).toEqual(['referenceId', 'userId', 'trackingId', 'similarityScore']);
  });
  it('unique: a score at or below 0.9 is listed but not a duplicate', () => {
    const r = run({ fraudDetection: { allowSimilarityCheck: true } }, {}, [{ trackingId: 'x', similarityScore: 0.9, basis: 'near' }]);
    expect(r.successful).toBe(true);
    expect(r.reasons.fraud_detection_unique_receipt_validated).toMatch(/; the closest, receipt x, scores 0\.90: near$/);
    expect(r.similarReceipts).toHaveLength(1);
  });
  it('not tampered: uses a detector output when there is one', () => {
    const bad = run({ fraudDetection: { allowTamperDetection: true } }, { tamperingDetection: { isTampered: true, tamperedScore: 0.87 } });
    expect(bad.reasons.fraud_detection_not_tampered_validated).toBe('tampering detected (score 0.87)');
    expect(bad.successful).toBe(false);
    const good = run({ fraudDetection: { allowTamperDetection: true } }, { tamperingDetection: { isTampered: false, tamperedScore: 0.1 } });
    expect(good.reasons.fraud_detection_not_tampered_validated).toBe('no tampering detected (score 0.10)');
  });
  it('not tampered: editing software in the metadata fails; otherwise passes saying no signal is available', () => {
    const edited = run({ fraudDetection: { allowTamperDetection: true } }, { metadata: { software: 'Adobe Photoshop 25.0 (Macintosh)' } });
    expect(edited.reasons.fraud_detection_not_tampered_validated).toBe('the file was saved by image-editing software (software: "Adobe Photoshop 25.0 (Macintosh)")');
    const plain = run({ fraudDetection: { allowTamperDetection: true } }, { metadata: { make: 'Apple', software: '17.4' } });
    expect(plain.successful).toBe(true);
    expect(plain.reasons.fraud_detection_not_tampered_validated).toMatch(/^no tampering signal available/);
  });
  it('not digital: a detector output, a text-layer PDF, a photo', () => {
    expect(run({ fraudDetection: { allowDigitalDetection: true } }, { digitalDetection: { isDigital: true, digitalScore: 0.95 } }).reasons.fraud_detection_not_digital_validated)
      .toBe('the receipt is a digital document, not a photo or scan of paper (score 0.95)');
    const pdf = run({ fraudDetection: { allowDigitalDetection: true } }, { textLayer: true });
    expect(pdf.failedValidations).toEqual(['fraud_detection_not_digital_validated']);
    expect(pdf.reasons.fraud_detection_not_digital_validated).toBe('the file is a PDF with a text layer: a digital document, not a photo or scan of paper');
    const photo = run({ fraudDetection: { allowDigitalDetection: true } }, { mediaType: 'image/jpeg' });
    expect(photo.reasons.fraud_detection_not_digital_validated).toBe('no digital-document signal: the file is an image (image/jpeg) and there is no digital detector output for this scan');
  });
  it('false or absent switches add no check', () => {
    expect(run({ fraudDetection: { allowSimilarityCheck: false, allowTamperDetection: false } }, { textLayer: true }).reasons).toEqual({});
  });
});

describe('result', () => {
  const all: ValidationRulesInput = {
    date: { start: '2024-03-01', end: '2024-03-31' },
    merchantNames: { allowList: ['Walmart'] },
    productLineItems: { names: ['teh tarik'] },
    productCodes: { list: ['R000123'] },
    balanceOwing: { max: 0 },
    documentType: {},
    fraudDetection: { allowSimilarityCheck: true, allowTamperDetection: true, allowDigitalDetection: true },
  };

  it('has the contract keys in order, checks in contract order, a reason for each', () => {
    const r = run(all);
    expect(Object.keys(r)).toEqual([...VALIDATION_RESULT_KEYS]);
    expect([...r.passedValidations, ...r.failedValidations].sort((a, b) => CHECK_NAMES.indexOf(a) - CHECK_NAMES.indexOf(b))).toEqual([...CHECK_NAMES]);
    expect(r.failedValidations).toEqual(['merchant_name_validated']);
    expect(Object.keys(r.reasons)).toEqual([...CHECK_NAMES]);
    expect(r.successful).toBe(false);
    expect(r).toMatchObject({
      date: '2024-03-12T12:00:00.000Z', merchantCity: 'SERI KEMBANGAN', merchantPostalCode: '43300', merchantState: 'SELANGOR',
      merchantCountryCode: 'MY', totalAmount: 29.05, receiptNumber: 'R000123', invoiceNumber: null, balanceAmount: 0,
      trackingId: 't-1', targetRotation: 0, similarReceipts: [], productCodes: ['R000123'],
    });
  });

  it('no rules: no checks, successful', () => {
    const r = run({});
    expect(r).toMatchObject({ successful: true, passedValidations: [], failedValidations: [], reasons: {} });
  });

  it('the fingerprint needs merchant, date and total and ignores spelling noise', () => {
    const a = fingerprintOf(subjectFromExtraction(extraction()));
    const b = fingerprintOf(subjectFromExtraction(extraction({ fields: receiptFields({ merchantName: loc('Kedai Makan Seri-Murni Sdn. Bhd.') }) })));
    expect(a).toBe('kedalmakanserlmumlsdnbhd|2024-03-12|29.05|R000123');
    expect(b).toBe(a);
    const { totalAmount: _t, ...noTotal } = receiptFields();
    expect(fingerprintOf(subjectFromExtraction(extraction({ fields: noTotal })))).toBeNull();
  });
});

describe('through the engine', () => {
  let dir: string;
  let engine: Engine;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'rk-validate-'));
    engine = await createEngine({ workers: 1, storePath: path.join(dir, 'store.db') });
  });
  afterAll(async () => { await engine?.close(); await closeDefaultEngine(); });
  afterEach(() => { vi.restoreAllMocks(); });

  it('rejects a bad rule set before reading the input or running OCR', async () => {
    const ocr = vi.spyOn(OcrPool.prototype, 'readPage');
    const missing = path.join(dir, 'no-such-file.png');
    await expect(engine.validate(missing, { date: { start: '2024-01-01' } } as never)).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'date.end' });
    await expect(engine.validate(path.join(FIX, 'receipt-en-simple.png'), { merchantNames: { allowList: 'x' } } as never)).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'merchantNames.allowList' });
    await expect(engine.validate(path.join(FIX, 'receipt-en-simple.png'), {}, { verbose: true } as never)).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'verbose' });
    await expect(validate(missing, { fraudDetection: { allowTamperDetection: 1 } } as never)).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'fraudDetection.allowTamperDetection' });
    expect(ocr).not.toHaveBeenCalled();
    // with good rules the same missing file is an input error: the rules really were checked first
    await expect(engine.validate(missing, {})).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('validates a text-layer PDF invoice (no OCR): digital, and stores nothing', async () => {
    const ocr = vi.spyOn(OcrPool.prototype, 'readPage');
    const exp = JSON.parse(readFileSync(path.join(FIX, 'invoice.expected.json'), 'utf8'));
    const r = await engine.validate(path.join(FIX, 'invoice.pdf'), {
      date: { start: '2024-04-01', end: '2024-04-30' },
      merchantNames: { allowList: ['Nordlicht Design'], returnFromTheList: true },
      fraudDetection: { allowDigitalDetection: true },
    }, { subAccountId: 'acme' });
    expect(ocr).not.toHaveBeenCalled();
    expect(r.passedValidations).toEqual(['campaign_date_validated', 'merchant_name_validated']);
    expect(r.failedValidations).toEqual(['fraud_detection_not_digital_validated']);
    expect(r.merchantName).toBe('Nordlicht Design');
    expect(r.totalAmount).toBe(exp.totalAmount);
    expect(r.invoiceNumber).toBe(exp.invoiceNumber);
    const db = new SqliteDb(path.join(dir, 'store.db'), { readOnly: true });
    try {
      expect(db.get('SELECT count(*) AS n FROM scans')).toEqual({ n: 0 });
    } finally { db.close(); }
    const usage = await engine.usage({ subAccountId: 'acme' });
    expect(usage.totals).toMatchObject({ validation: 1, total: 1 });
  });

  it('validates an OCR\'d receipt with rules from its expected values', async () => {
    const exp = JSON.parse(readFileSync(path.join(FIX, 'receipt-en-simple.expected.json'), 'utf8'));
    const rules: ValidationRulesInput = {
      date: { start: exp.date, end: exp.date },
      merchantNames: { allowList: [exp.merchantName.toLowerCase()], blockList: ['Starbucks'] },
      productLineItems: { names: [exp.lineItems[1].name], quantity: { min: exp.lineItems[1].quantity } },
      balanceOwing: { max: 0 },
      fraudDetection: { allowSimilarityCheck: true, allowTamperDetection: true, allowDigitalDetection: true },
    };
    const r = await engine.validate(path.join(FIX, 'receipt-en-simple.png'), rules);
    // the fixture is rendered from text (born digital): the digital detector (src/fraud) says so
    expect(r.failedValidations, JSON.stringify(r.reasons)).toEqual(['fraud_detection_not_digital_validated']);
    expect(r.reasons.fraud_detection_not_digital_validated).toMatch(/^the receipt is a digital document/);
    expect(r.reasons.fraud_detection_not_tampered_validated).toMatch(/^no tampering detected/);
    expect(r.successful).toBe(false);
    expect(r.totalAmount).toBe(exp.totalAmount);
    expect(r.matchedProductLineItems.map((i) => i.name)).toEqual([exp.lineItems[1].name]);
    expect(r.trackingId).toMatch(/^[0-9a-f-]{36}$/);
    const outside = await engine.validate(path.join(FIX, 'receipt-en-simple.png'), { date: { start: '2020-01-01', end: '2020-12-31' } });
    expect(outside.reasons.campaign_date_validated).toBe(`date ${exp.date} is after campaign end 2020-12-31`);
  });
});
