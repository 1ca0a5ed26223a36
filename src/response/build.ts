/**
 * Builds the contract's simple and verbose result objects from what the finders located.
 * Only this module knows the response shapes; it reads the Document for geometry and text.
 */
import { randomUUID } from 'node:crypto';
import type { Document } from '../document/types.js';
import { boxToPolygon } from '../document/geometry.js';
import type { FieldResults, FoundNumber, ItemPart, ItemsCheck, LineItem, Located, TaxLine } from '../fields/types.js';
import type {
  DigitalDetectionEntity, DocumentTypeField, HandwritingDetectionEntity, LanguageField, TamperingDetectionEntity,
  HelperNumber, IdEntity, LineItemPart, MissingField, MultiTaxLineItem, SimpleField, SimpleResult, VerboseField, VerboseResult, VerboseSlot, ProductLineItem,
} from '../contract/results.js';
import type { Polygon } from '../document/types.js';
import type { EnrichmentOutput } from '../enrich/index.js';
import type { ReadCode } from '../contract/codes.js';
import type { CodeEntity } from '../contract/results.js';
import type { DocumentTypeFinding, LanguageFinding } from '../contract/extraction.js';

const MISSING: MissingField = Object.freeze({ confidenceLevel: 0 }) as MissingField;

import { clampConfidence } from '../contract/results.js';
export { clampConfidence };

function simpleField<T>(f: Located<T> | undefined): SimpleField<T> | MissingField {
  if (!f || f.value === undefined || f.value === null) return { confidenceLevel: 0 };
  const c = clampConfidence(f.confidence);
  if (c === 0) return { confidenceLevel: 0 };
  return { data: f.value, confidenceLevel: c };
}

/** Root confidence: a weighted mean of the core fields (missing fields count as 0). */
export function rootConfidence(fields: FieldResults): number {
  const weights: Array<[Located<unknown> | undefined, number]> = [
    [fields.totalAmount, 3], [fields.date, 2], [fields.merchantName, 2], [fields.taxAmount, 1], [fields.merchantAddress, 1],
  ];
  let sum = 0, w = 0;
  for (const [f, weight] of weights) { sum += (f ? clampConfidence(f.confidence) : 0) * weight; w += weight; }
  return clampConfidence(sum / w);
}

export function buildSimple(fields: FieldResults): SimpleResult {
  return {
    totalAmount: simpleField(fields.totalAmount),
    taxAmount: simpleField(fields.taxAmount),
    confidenceLevel: rootConfidence(fields),
    date: simpleField(fields.date),
    merchantName: simpleField(fields.merchantName),
    merchantAddress: simpleField(fields.merchantAddress),
    merchantCity: simpleField(fields.merchantCity),
    merchantState: simpleField(fields.merchantState),
    merchantCountryCode: simpleField(fields.merchantCountryCode),
    merchantPostalCode: simpleField(fields.merchantPostalCode),
    merchantTypes: simpleField(fields.merchantTypes),
  };
}

function regionsOf(doc: Document, page: number, boxes: Located<unknown>['boxes']): Polygon[] {
  const p = doc.pages[page] ?? doc.pages[0];
  if (!p) return [];
  return boxes.map((b) => boxToPolygon(b, p));
}

function verboseField<T>(doc: Document, f: Located<T> | undefined, money: boolean): VerboseSlot<T> {
  if (!f || f.value === undefined || f.value === null) return { confidenceLevel: 0 };
  const c = clampConfidence(f.confidence);
  if (c === 0) return { confidenceLevel: 0 };
  const out: VerboseField<T> = { data: f.value, confidenceLevel: c, text: f.text, index: f.lineIndex, keyword: f.keyword || '-', regions: [] };
  if (money && f.currencyCode) out.currencyCode = f.currencyCode;
  else delete out.currencyCode;
  // keep `regions` last, as the contract orders it
  const { regions: _r, ...head } = out;
  return { ...head, regions: regionsOf(doc, f.page, f.boxes) } as VerboseField<T>;
}

function helperNumbers(doc: Document, list: FoundNumber[], withClass: boolean): HelperNumber[] {
  return list.map((n) => {
    const h: HelperNumber = { data: n.value, text: n.text, index: n.lineIndex, regions: regionsOf(doc, n.page, n.boxes) };
    if (withClass) h.classifyResult = n.classifyResult ?? 'number';
    return h;
  });
}

function idEntity(doc: Document, f: Located<string> | undefined): IdEntity | undefined {
  if (!f) return undefined;
  const c = clampConfidence(f.confidence);
  if (c === 0) return undefined;
  return { data: f.value, confidenceLevel: c, keyword: f.keyword || '-', text: f.text, index: f.lineIndex, regions: regionsOf(doc, f.page, f.boxes) };
}

function itemPart<T>(doc: Document, p: ItemPart<T>): LineItemPart<T> {
  return { data: p.value, text: p.text, regions: regionsOf(doc, p.page, p.boxes) };
}

function productLineItems(doc: Document, items: LineItem[], enriched: EnrichmentOutput['items'] = []): ProductLineItem[] {
  return items.map((it, i) => {
    // enrichment: the code as the account lists it, and the product category
    const code = enriched[i]?.productCode ?? it.productCode;
    const category = enriched[i]?.category;
    return {
      confidenceLevel: clampConfidence(it.confidence),
      index: it.lineIndex,
      regions: regionsOf(doc, it.page, it.boxes),
      text: it.text,
      data: {
        name: itemPart(doc, it.name),
        quantity: itemPart(doc, it.quantity),
        unitPrice: itemPart(doc, it.unitPrice),
        totalPrice: itemPart(doc, it.totalPrice),
        ...(code ? { productCode: itemPart(doc, code) } : {}),
        ...(category ? { category: itemPart(doc, category) } : {}),
      },
    };
  });
}

function multiTaxLineItems(doc: Document, rows: TaxLine[]): MultiTaxLineItem[] {
  return rows.map((r) => ({
    confidenceLevel: clampConfidence(r.confidence),
    index: r.lineIndex,
    regions: regionsOf(doc, r.page, r.boxes),
    text: r.text,
    data: {
      taxType: r.taxType,
      ...(r.taxRate !== undefined ? { taxRate: r.taxRate } : {}),
      ...(r.netAmount !== undefined ? { netAmount: r.netAmount } : {}),
      taxAmount: r.taxAmount,
      ...(r.grossAmount !== undefined ? { grossAmount: r.grossAmount } : {}),
    },
  }));
}

export interface VerboseExtras {
  targetRotation: number;
  pages: number;
  elapsed: number;
  trackingId?: string;
  warnings: string[];
  /** Known merchant, codes, categories, location (src/enrich). */
  enrichment?: EnrichmentOutput;
  /** Fraud checks (src/fraud), when they ran. */
  tamperingDetection?: TamperingDetectionEntity;
  digitalDetection?: DigitalDetectionEntity;
  handwritingDetection?: HandwritingDetectionEntity;
  /** The codes on the pages (src/codes), when they were read. */
  codes?: ReadCode[];
  /** The kind of document (src/classify) and the language of its text (src/language). */
  documentType?: DocumentTypeFinding;
  language?: LanguageFinding;
}

/** `entities.codes`: each code's text, format, page (1-based), corners and fiscal payload. */
export function codeEntities(codes: readonly ReadCode[]): CodeEntity[] {
  return codes.map((c) => {
    const f = c.fiscal;
    const fiscal = !f ? undefined
      : 'fact' in f ? { scheme: f.fact.scheme, countryCode: f.fact.country, data: { ...f.fact.fields } }
      : { scheme: f.scheme, countryCode: f.country, error: f.error };
    return { data: c.text, format: c.format, page: c.page + 1, regions: [c.polygon.map((p) => ({ ...p })) as Polygon], ...(fiscal ? { fiscal } : {}) };
  });
}

/** `documentType` as the verbose result shows it (a receipt at confidence 0 when it was not classified). */
function documentTypeField(d: DocumentTypeFinding | undefined): DocumentTypeField {
  return d ? { data: d.type, confidenceLevel: clampConfidence(d.confidence) } : { data: 'receipt', confidenceLevel: 0 };
}

/** `language` as the verbose result shows it. */
function languageField(l: LanguageFinding | undefined): LanguageField | MissingField {
  const c = l ? clampConfidence(l.confidence) : 0;
  return l && c > 0 ? { data: l.code, confidenceLevel: c } : { confidenceLevel: 0 };
}

/** `entities.category` and `entities.normalisedMerchant` from the enrichment. */
function enrichmentEntities(doc: Document, e: EnrichmentOutput | undefined): Pick<VerboseResult['entities'], 'category' | 'normalisedMerchant'> {
  const out: Pick<VerboseResult['entities'], 'category' | 'normalisedMerchant'> = {};
  if (e?.category) {
    const c = e.category;
    const line = c.lineIndex >= 0 ? doc.lines[c.lineIndex] : undefined;
    out.category = {
      data: c.value, confidenceLevel: clampConfidence(c.confidence), source: c.source, keyword: c.keyword,
      ...(line ? { text: line.text, index: c.lineIndex, regions: regionsOf(doc, line.page, [line.box]) } : {}),
    };
  }
  if (e?.normalisedMerchant) {
    const m = e.normalisedMerchant;
    out.normalisedMerchant = { ...m, confidenceLevel: clampConfidence(m.confidenceLevel) };
  }
  return out;
}

/**
 * The line-item check as the caller sees it: `itemsSum` is the sum of the items returned, and `matches`
 * is true only when that sum is the expected amount (to the cent). A check made on another set of items
 * (a reading that was later replaced) cannot say "matches" for numbers that do not agree.
 */
export function checkedItems(check: ItemsCheck, items: readonly LineItem[]): ItemsCheck {
  const sum = Math.round(items.reduce((a, it) => a + it.totalPrice.value, 0) * 100) / 100;
  const agrees = check.expected !== undefined && Math.abs(sum - check.expected) < 0.005;
  return { ...check, itemsSum: sum, matches: check.matches && agrees };
}

/** The fields whose evidence verbose results show. */
const EVIDENCE_FIELDS = ['totalAmount', 'taxAmount', 'date', 'merchantName', 'merchantAddress', 'locale'] as const;

/**
 * What decided each field: its evidence terms in the order they were weighed, the rule that decided
 * (`rule:<name>`, see resolve/ and fields/merchant/) and what the readings made of it (`second-reader-agrees`).
 */
function evidenceOf(fields: FieldResults, extras?: Pick<VerboseExtras, 'documentType' | 'language'>): VerboseResult['evidence'] {
  const ev = fields.evidence ?? {};
  const out: VerboseResult['evidence'] = Object.fromEntries(EVIDENCE_FIELDS.filter((k) => ev[k]?.length).map((k) => [k, [...ev[k]!]]));
  if (extras?.documentType?.evidence.length) out.documentType = [...extras.documentType.evidence];
  if (extras?.language?.evidence.length) out.language = [...extras.language.evidence];
  return out;
}

export function buildVerbose(doc: Document, fields: FieldResults, extras: VerboseExtras): VerboseResult {
  const items = productLineItems(doc, fields.lineItems ?? [], extras.enrichment?.items);
  const entities: VerboseResult['entities'] = { productLineItems: items, multiTaxLineItems: multiTaxLineItems(doc, fields.taxLines ?? []) };
  if (fields.itemsCheck) entities.lineItemsCheck = checkedItems(fields.itemsCheck, fields.lineItems ?? []);
  const inv = idEntity(doc, fields.invoiceNumber);
  if (inv) entities.invoiceNumber = inv;
  const rec = idEntity(doc, fields.receiptNumber);
  if (rec) entities.receiptNumber = rec;
  Object.assign(entities, enrichmentEntities(doc, extras.enrichment));
  // the codes before the fraud detections, which come last
  if (extras.codes) entities.codes = codeEntities(extras.codes);
  if (extras.tamperingDetection) entities.tamperingDetection = extras.tamperingDetection;
  if (extras.digitalDetection) entities.digitalDetection = extras.digitalDetection;
  if (extras.handwritingDetection) entities.handwritingDetection = extras.handwritingDetection;
  const itemsCount: VerboseSlot<number> = items.length
    ? { data: items.reduce((s, i) => s + (Number.isFinite(i.data.quantity.data) ? i.data.quantity.data : 1), 0), confidenceLevel: clampConfidence(Math.min(...items.map((i) => i.confidenceLevel))), text: '', index: items[0]!.index, keyword: '-', regions: [] }
    : MISSING;
  const lineRegions = doc.lines.map((l) => { const p = doc.pages[l.page]!; return boxToPolygon(l.box, p); });
  return {
    totalAmount: verboseField(doc, fields.totalAmount, true),
    taxAmount: verboseField(doc, fields.taxAmount, true),
    confidenceLevel: rootConfidence(fields),
    date: verboseField(doc, fields.date, false),
    merchantName: verboseField(doc, fields.merchantName, false),
    merchantAddress: verboseField(doc, fields.merchantAddress, false),
    merchantCity: verboseField(doc, fields.merchantCity, false),
    merchantState: verboseField(doc, fields.merchantState, false),
    merchantCountryCode: verboseField(doc, fields.merchantCountryCode, false),
    merchantPostalCode: verboseField(doc, fields.merchantPostalCode, false),
    merchantTypes: verboseField(doc, fields.merchantTypes, false),
    paidAmount: verboseField(doc, fields.paidAmount, true),
    discountAmount: verboseField(doc, fields.discountAmount, true),
    subtotalAmount: verboseField(doc, fields.subtotalAmount, true),
    tipAmount: verboseField(doc, fields.tipAmount, true),
    roundingAmount: verboseField(doc, fields.roundingAmount, true),
    dueDate: verboseField(doc, fields.dueDate, false),
    paymentType: verboseField(doc, fields.paymentType, false),
    cardLast4: verboseField(doc, fields.cardLast4, false),
    merchantPhoneNumber: verboseField(doc, fields.merchantPhoneNumber, false),
    merchantTaxId: verboseField(doc, fields.merchantTaxId, false),
    merchantWebsite: verboseField(doc, fields.merchantWebsite, false),
    currencyCode: verboseField(doc, fields.currencyCode, false),
    itemsCount,
    documentType: documentTypeField(extras.documentType),
    language: languageField(extras.language),
    text: { text: doc.text, regions: lineRegions },
    amounts: helperNumbers(doc, fields.amounts, false),
    lineAmounts: helperNumbers(doc, fields.lineAmounts, false),
    numbers: helperNumbers(doc, fields.numbers, true),
    entities,
    similarReceipts: [],
    ...(extras.enrichment?.location ? { location: extras.enrichment.location } : {}),
    pages: extras.pages,
    targetRotation: extras.targetRotation,
    warnings: extras.warnings,
    evidence: evidenceOf(fields, extras),
    trackingId: extras.trackingId ?? randomUUID(),
    elapsed: extras.elapsed,
  };
}
