/**
 * The document-type stage: what the reading found (Document and fields) -> the classifier's input ->
 * `receipt`, `invoice` or `other` (document-type.ts). Pure and cheap; the engine calls it once per
 * extraction.
 */
import type { Document } from '../document/types.js';
import type { FieldResults } from '../fields/types.js';
import { classifyDocument } from './document-type.js';
import type { ClassifyInput, DocumentTypeResult } from './document-type.js';

export { classifyDocument, COMMERCE_MARGIN, INVOICE_MIN } from './document-type.js';
export type { ClassifyInput, DocumentKind, DocumentTypeResult } from './document-type.js';

const found = (f: { value?: unknown; confidence: number } | undefined): boolean => !!f && f.value !== undefined && f.value !== null && f.confidence > 0;

/** The classifier's input from a Document and its fields. */
export function classifyInputOf(doc: Document, fields: FieldResults): ClassifyInput {
  const page = doc.pages[0];
  const lines = page ? page.lineIndices.map((i) => doc.lines[i]!).filter(Boolean) : [];
  let x0 = Infinity, x1 = -Infinity;
  for (const l of lines) { x0 = Math.min(x0, l.box.x0); x1 = Math.max(x1, l.box.x1); }
  const total = found(fields.totalAmount) ? fields.totalAmount : undefined;
  return {
    lines: doc.lines.map((l) => l.text),
    textLayer: doc.pages.some((p) => p.source === 'pdf-text'),
    ...(page && page.width > 0 && page.height > 0 ? { pageWidth: page.width, pageHeight: page.height } : {}),
    ...(page && lines.length && page.width > 0 ? { lineSpread: Math.max(0, Math.min(1, (x1 - x0) / page.width)) } : {}),
    fields: {
      totalKeyword: total ? total.keyword || '-' : undefined,
      lineAmounts: fields.lineAmounts.length,
      lineItems: fields.lineItems?.length ?? 0,
      tax: found(fields.taxAmount),
      subtotal: found(fields.subtotalAmount),
      paid: found(fields.paidAmount),
      payment: found(fields.paymentType),
      date: found(fields.date),
      dueDate: found(fields.dueDate),
      invoiceNumber: found(fields.invoiceNumber),
      receiptNumber: found(fields.receiptNumber),
    },
  };
}

/** The kind of document the reading shows. */
export function documentTypeOf(doc: Document, fields: FieldResults): DocumentTypeResult {
  return classifyDocument(classifyInputOf(doc, fields));
}
