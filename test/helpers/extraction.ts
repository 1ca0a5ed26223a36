/**
 * Hand-built extractions for validation tests: no OCR, no field finders, exactly the values a test
 * wants to evaluate.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Extraction } from '../../src/engine.js';
import type { Document } from '../../src/document/types.js';
import type { FieldResults, ItemPart, LineItem, Located } from '../../src/fields/types.js';
import type { ImageMetadata, MediaType } from '../../src/input/types.js';
import type { DigitalDetection, TamperingDetection } from '../../src/contract/validation.js';

export function loc<T>(value: T, lineIndex = 0, confidence = 0.9): Located<T> {
  return { value, confidence, text: String(value), lineIndex, keyword: '-', boxes: [], page: 0 };
}

function part<T>(value: T): ItemPart<T> {
  return { value, text: String(value), lineIndex: 0, page: 0, boxes: [] };
}

export function item(name: string, quantity: number, unitPrice: number, totalPrice: number, productCode?: string): LineItem {
  return {
    name: part(name), quantity: part(quantity), unitPrice: part(unitPrice), totalPrice: part(totalPrice),
    ...(productCode ? { productCode: part(productCode) } : {}),
    confidence: 0.8, text: name, lineIndex: 0, lineIndices: [0], page: 0, boxes: [],
  };
}

import { documentTypeOf } from '../../src/classify/index.js';

export function doc(lines: string[], source: 'ocr' | 'pdf-text' = 'ocr'): Document {
  const ls = lines.map((text, index) => ({
    index, page: 0, text, words: [], box: { x0: 0, y0: index * 20, x1: 300, y1: index * 20 + 18 }, confidence: 0.9,
  }));
  return {
    pages: [{ index: 0, source, width: 300, height: 20 * lines.length + 20, originalWidth: 300, originalHeight: 20 * lines.length + 20, rotation: 0, lineIndices: ls.map((l) => l.index) }],
    lines: ls,
    text: lines.join('\n'),
  };
}

export interface ExtractionSpec {
  fields?: Partial<FieldResults>;
  lines?: string[];
  mediaType?: MediaType;
  textLayer?: boolean;
  metadata?: ImageMetadata;
  tamperingDetection?: TamperingDetection;
  digitalDetection?: DigitalDetection;
  targetRotation?: number;
  bytes?: Buffer;
}

/** A typical receipt: KEDAI MAKAN SERI MURNI, 2024-03-12, total 29.05 paid 50 cash, three items. */
export const RECEIPT_LINES = [
  'KEDAI MAKAN SERI MURNI SDN BHD',
  'NO 12, JALAN MAWAR 3, TAMAN BUNGA',
  '43300 SERI KEMBANGAN, SELANGOR',
  'RECEIPT R000123   12/03/2024 14:35',
  '2 NASI LEMAK AYAM 8.50 17.00',
  '2 TEH TARIK 2.80 5.60',
  '3 ROTI CANAI 1.60 4.80',
  'SUBTOTAL 27.40',
  'SST 6% 1.64',
  'TOTAL 29.05',
  'CASH 50.00',
  'CHANGE 20.95',
];

export function receiptFields(over: Partial<FieldResults> = {}): Partial<FieldResults> {
  return {
    totalAmount: loc(29.05, 9),
    subtotalAmount: loc(27.4, 7),
    taxAmount: loc(1.64, 8),
    paidAmount: loc(50, 10),
    date: loc('2024-03-12T12:00:00.000Z', 3),
    merchantName: loc('KEDAI MAKAN SERI MURNI SDN BHD', 0),
    merchantAddress: loc('NO 12, JALAN MAWAR 3, TAMAN BUNGA, 43300 SERI KEMBANGAN, SELANGOR', 1),
    merchantCity: loc('SERI KEMBANGAN', 2),
    merchantPostalCode: loc('43300', 2),
    merchantState: loc('SELANGOR', 2),
    merchantCountryCode: loc('MY', 2),
    receiptNumber: loc('R000123', 3),
    paymentType: loc('cash', 10),
    lineItems: [
      item('NASI LEMAK AYAM', 2, 8.5, 17),
      item('TEH TARIK', 2, 2.8, 5.6),
      item('ROTI CANAI', 3, 1.6, 4.8),
    ],
    ...over,
  };
}

export function extraction(spec: ExtractionSpec = {}): Extraction {
  const lines = spec.lines ?? RECEIPT_LINES;
  const bytes = spec.bytes ?? Buffer.from(lines.join('\n'));
  const fields: FieldResults = { amounts: [], lineAmounts: [], numbers: [], warnings: [], ...(spec.fields ?? receiptFields()) };
  const mediaType = spec.mediaType ?? (spec.textLayer ? 'application/pdf' : 'image/png');
  const x: Extraction = {
    input: {
      mediaType, bytes, sha256: createHash('sha256').update(bytes).digest('hex'),
      pages: [], pageCount: 1, metadata: spec.metadata ?? {},
    },
    document: doc(lines, spec.textLayer ? 'pdf-text' : 'ocr'),
    fields,
    targetRotation: spec.targetRotation ?? 0,
    warnings: [],
    elapsed: 5,
    trackingId: randomUUID(),
  };
  if (spec.tamperingDetection) x.tamperingDetection = spec.tamperingDetection;
  if (spec.digitalDetection) x.digitalDetection = spec.digitalDetection;
  // the kind of document, as the engine classifies every extraction
  x.documentType = documentTypeOf(x.document, x.fields);
  return x;
}
