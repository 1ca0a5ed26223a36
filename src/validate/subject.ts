/**
 * What validation reads from an extraction: plain values (no geometry), the line items, the OCR lines
 * and the few file facts the fraud checks use. It is small and JSON-safe, so the store keeps it with
 * each scan and a later validation of the same file re-runs the rules without OCR (`refresh`).
 */
import type { DocumentTypeFinding, Extraction } from '../contract/extraction.js';
import type { Located } from '../fields/types.js';
import type { ImageMetadata } from '../input/types.js';
import type { DigitalDetection, TamperingDetection, ValidationResult } from '../contract/validation.js';
import { clampConfidence } from '../contract/results.js';
import { codeKey, normalizeName, ocrSkeleton } from './names.js';

export interface SubjectLineItem {
  name: string;
  quantity: number | null;
  unitPrice: number | null;
  totalPrice: number | null;
  productCode: string | null;
}

/** The merchant and date values, as the validation result reports them. */
type ReportedFields = Pick<ValidationResult, 'date' | 'merchantName' | 'merchantAddress' | 'merchantCity' | 'merchantPostalCode' | 'merchantState' | 'merchantCountryCode'>;

export interface ValidationSubject extends ReportedFields {
  /** Format version of this snapshot (stored). */
  version: 1;
  totalAmount: number | null;
  subtotalAmount: number | null;
  taxAmount: number | null;
  paidAmount: number | null;
  receiptNumber: string | null;
  invoiceNumber: string | null;
  paymentType: string | null;
  currencyCode: string | null;
  lineItems: SubjectLineItem[];
  /** OCR text lines, in reading order. */
  lines: string[];
  /** Amounts printed at the end of a line: line index and value. */
  lineAmounts: Array<{ line: number; value: number }>;
  targetRotation: number;
  mediaType: string;
  /** Some page was read from a PDF text layer (a digital document). */
  textLayer: boolean;
  metadata: ImageMetadata;
  tamperingDetection?: TamperingDetection;
  digitalDetection?: DigitalDetection;
  /** The kind of document (src/classify); absent on subjects stored before it existed. */
  documentType?: DocumentTypeFinding;
}

/** A located value the result would report (confidence above 0), else null. */
function value<T>(f: Located<T> | undefined): T | null {
  if (!f || f.value === undefined || f.value === null) return null;
  if (typeof f.value === 'number' && !Number.isFinite(f.value)) return null;
  return clampConfidence(f.confidence) > 0 ? f.value : null;
}

const finite = (n: number | undefined): number | null => (typeof n === 'number' && Number.isFinite(n) ? n : null);

export function subjectFromExtraction(x: Extraction): ValidationSubject {
  const f = x.fields;
  const s: ValidationSubject = {
    version: 1,
    totalAmount: value(f.totalAmount),
    subtotalAmount: value(f.subtotalAmount),
    taxAmount: value(f.taxAmount),
    paidAmount: value(f.paidAmount),
    date: value(f.date),
    merchantName: value(f.merchantName),
    merchantAddress: value(f.merchantAddress),
    merchantCity: value(f.merchantCity),
    merchantPostalCode: value(f.merchantPostalCode),
    merchantState: value(f.merchantState),
    merchantCountryCode: value(f.merchantCountryCode),
    receiptNumber: value(f.receiptNumber),
    invoiceNumber: value(f.invoiceNumber),
    paymentType: value(f.paymentType),
    currencyCode: value(f.currencyCode),
    lineItems: (f.lineItems ?? []).map((i) => ({
      name: i.name.value,
      quantity: finite(i.quantity?.value),
      unitPrice: finite(i.unitPrice?.value),
      totalPrice: finite(i.totalPrice?.value),
      productCode: i.productCode?.value || null,
    })),
    lines: x.document.lines.map((l) => l.text),
    lineAmounts: f.lineAmounts.filter((a) => Number.isFinite(a.value)).map((a) => ({ line: a.lineIndex, value: a.value })),
    targetRotation: x.targetRotation,
    mediaType: x.input.mediaType,
    textLayer: x.document.pages.some((p) => p.source === 'pdf-text'),
    metadata: x.input.metadata ?? {},
  };
  if (x.tamperingDetection) s.tamperingDetection = x.tamperingDetection;
  if (x.digitalDetection) s.digitalDetection = x.digitalDetection;
  if (x.documentType) s.documentType = x.documentType;
  return s;
}

/**
 * The content fingerprint of a receipt: normalised merchant, day, total (2 decimals) and receipt (or
 * invoice) number. Two scans with the same fingerprint are very likely the same purchase, whatever the
 * photo. Null unless merchant, date and total were all read.
 */
export function fingerprintOf(s: Pick<ValidationSubject, 'merchantName' | 'date' | 'totalAmount' | 'receiptNumber' | 'invoiceNumber'>): string | null {
  if (!s.merchantName || !s.date || s.totalAmount === null) return null;
  const merchant = ocrSkeleton(normalizeName(s.merchantName).replace(/ /g, ''));
  if (!merchant) return null;
  const number = codeKey(s.receiptNumber ?? s.invoiceNumber ?? '', false);
  return `${merchant}|${s.date.slice(0, 10)}|${s.totalAmount.toFixed(2)}|${number}`;
}
