/**
 * Result shapes of contract section 3. Key order is part of the contract: the builders in
 * src/response/ create objects in exactly the order the types list them.
 */
import type { Polygon } from '../document/types.js';
import type { GeoLocation } from '../geoip/index.js';
import type { NormalisedMerchant } from './merchants.js';

export type { GeoLocation } from '../geoip/index.js';

/**
 * A field that was not found: no `data` key at run time. `data?: undefined` lets strict TypeScript narrow
 * a field with `if (r.totalAmount.data !== undefined)`.
 */
/** Confidence as the contract wants it: within [0, 0.99], two decimals. */
export function clampConfidence(c: number): number {
  if (!Number.isFinite(c) || c <= 0) return 0;
  return Math.round(Math.min(0.99, c) * 100) / 100;
}

export interface MissingField { data?: undefined; confidenceLevel: 0 }
export interface SimpleField<T> { data: T; confidenceLevel: number }

export interface SimpleResult {
  totalAmount: SimpleField<number> | MissingField;
  taxAmount: SimpleField<number> | MissingField;
  confidenceLevel: number;
  date: SimpleField<string> | MissingField;
  merchantName: SimpleField<string> | MissingField;
  merchantAddress: SimpleField<string> | MissingField;
  merchantCity: SimpleField<string> | MissingField;
  merchantState: SimpleField<string> | MissingField;
  merchantCountryCode: SimpleField<string> | MissingField;
  merchantPostalCode: SimpleField<string> | MissingField;
  merchantTypes: SimpleField<string[]> | MissingField;
}

export const SIMPLE_KEYS = [
  'totalAmount', 'taxAmount', 'confidenceLevel', 'date', 'merchantName', 'merchantAddress', 'merchantCity',
  'merchantState', 'merchantCountryCode', 'merchantPostalCode', 'merchantTypes',
] as const;

/** A located field in the verbose shape: keys in this order. */
export interface VerboseField<T> {
  data: T;
  confidenceLevel: number;
  text: string;
  index: number;
  keyword: string;
  currencyCode?: string;
  regions: Polygon[];
}
export type VerboseSlot<T> = VerboseField<T> | MissingField;

export interface HelperNumber { data: number; text: string; index: number; regions: Polygon[]; classifyResult?: string }

export interface LineItemPart<T> { data: T; text: string; regions: Polygon[] }
export interface ProductLineItem {
  confidenceLevel: number;
  index: number;
  regions: Polygon[];
  text: string;
  data: {
    name: LineItemPart<string>;
    quantity: LineItemPart<number>;
    unitPrice: LineItemPart<number>;
    totalPrice: LineItemPart<number>;
    productCode?: LineItemPart<string>;
    category?: LineItemPart<string>;
  };
}

export interface MultiTaxLineItem {
  confidenceLevel: number;
  index: number;
  regions: Polygon[];
  text: string;
  data: { taxType: string; taxRate?: number; netAmount?: number; taxAmount: number; grossAmount?: number };
}

/** Beyond: how the items add up (sum, what it was compared with, whether it agrees). */
export interface LineItemsCheck { itemsSum: number; against: string; expected?: number; matches: boolean }

export interface IdEntity { data: string; confidenceLevel: number; keyword: string; text: string; index: number; regions: Polygon[] }

/**
 * `entities.category`: the merchant-level category. `source` says where it came from: the matched
 * known merchant's own category, or keywords (then `text`, `index` and `regions` are the line the
 * keyword was read on, when it was read on one).
 */
export interface CategoryEntity {
  data: string;
  confidenceLevel: number;
  source: 'knownMerchant' | 'keywords';
  keyword: string;
  text?: string;
  index?: number;
  regions?: Polygon[];
}

/** `entities.normalisedMerchant`: the known merchant (enrichment list) the receipt resolved to (shape in contract/merchants.ts, matched by src/enrich/merchants.ts). */
export type NormalisedMerchantEntity = NormalisedMerchant;

/** One tampering signal that fired (the signals are listed in src/fraud/index.ts and docs/fraud.md). */
export interface TamperSignalEntity { signal: string; score: number; reason: string; text?: string; regions?: Polygon[] }
export interface TamperingDetectionEntity { isTampered: boolean; tamperedScore: number; details: TamperSignalEntity[] }
/** `details`: the evidence that counted (`pdf-text-layer`, `flat-background`, `exact-glyph-repeats`, ...). */
export interface DigitalDetectionEntity { isDigital: boolean; digitalScore: number; details: string[] }
/**
 * Beyond: the kind of document (issue 24): `receipt`, `invoice`, or `other` for pages that are not
 * commercial documents (pictures, chat or web-page screenshots, letters, bank statements). What
 * decided is in `evidence.documentType`.
 */
export interface DocumentTypeField { data: 'receipt' | 'invoice' | 'other'; confidenceLevel: number }
/** Beyond: the language of the text (ISO 639-1, `en`, `de`, `id`, `vi`...), read from the text itself; evidence in `evidence.language`. */
export interface LanguageField { data: string; confidenceLevel: number }
/** Beyond the hosted API. */
export interface HandwritingDetectionEntity { isHandwritten: boolean; handwrittenScore: number }

/**
 * Beyond: what a fiscal code states (src/codes/fiscal/), in the fields' own forms: amounts as numbers,
 * `date` `YYYY-MM-DD` and `time` `HH:MM:SS` as the receipt prints them.
 */
export interface FiscalCodeData {
  totalAmount?: number;
  taxAmount?: number;
  date?: string;
  time?: string;
  merchantTaxId?: string;
  merchantName?: string;
  invoiceNumber?: string;
  currencyCode?: string;
}

/**
 * Beyond: a fiscal payload a code carries. `scheme` names its format (`sa-zatca`, `in-gst-einvoice`,
 * `ru-fns`, `br-nfe`, `pt-atcud`, `es-ticketbai`, `es-verifactu`, `hr-fiskalizacija`); a payload that
 * could not be read has `error` instead of `data`, and changes nothing.
 */
export interface FiscalCodeEntity {
  scheme: string;
  countryCode: string;
  data?: FiscalCodeData;
  error?: string;
}

/**
 * Beyond: a QR code or barcode on the page. `data`: the decoded text; `format`: `QRCode`, `EAN13`,
 * `EAN8`, `UPCA`, `UPCE`, `Code128`, `Code39` or `ITF`; `page`: 1 for the first page; `regions`: one polygon, the
 * symbol's corners in pixels of that page's original image.
 */
export interface CodeEntity {
  data: string;
  format: string;
  page: number;
  regions: Polygon[];
  fiscal?: FiscalCodeEntity;
}

export interface Entities {
  productLineItems: ProductLineItem[];
  multiTaxLineItems: MultiTaxLineItem[];
  invoiceNumber?: IdEntity;
  receiptNumber?: IdEntity;
  lineItemsCheck?: LineItemsCheck;
  category?: CategoryEntity;
  normalisedMerchant?: NormalisedMerchantEntity;
  /** Beyond: the codes on the pages (absent with `readCodes: false`). */
  codes?: CodeEntity[];
  tamperingDetection?: TamperingDetectionEntity;
  digitalDetection?: DigitalDetectionEntity;
  handwritingDetection?: HandwritingDetectionEntity;
}

export interface VerboseResult {
  totalAmount: VerboseSlot<number>;
  taxAmount: VerboseSlot<number>;
  confidenceLevel: number;
  date: VerboseSlot<string>;
  merchantName: VerboseSlot<string>;
  merchantAddress: VerboseSlot<string>;
  merchantCity: VerboseSlot<string>;
  merchantState: VerboseSlot<string>;
  merchantCountryCode: VerboseSlot<string>;
  merchantPostalCode: VerboseSlot<string>;
  merchantTypes: VerboseSlot<string[]>;
  paidAmount: VerboseSlot<number>;
  discountAmount: VerboseSlot<number>;
  subtotalAmount: VerboseSlot<number>;
  tipAmount: VerboseSlot<number>;
  roundingAmount: VerboseSlot<number>;
  dueDate: VerboseSlot<string>;
  paymentType: VerboseSlot<string>;
  cardLast4: VerboseSlot<string>;
  merchantPhoneNumber: VerboseSlot<string>;
  merchantTaxId: VerboseSlot<string>;
  merchantWebsite: VerboseSlot<string>;
  currencyCode: VerboseSlot<string>;
  itemsCount: VerboseSlot<number>;
  /** Beyond: receipt, invoice or other (see DocumentTypeField). */
  documentType: DocumentTypeField;
  /** Beyond: the language of the text; `{ confidenceLevel: 0 }` when there is too little text to tell. */
  language: LanguageField | MissingField;
  text: { text: string; regions: Polygon[] };
  amounts: HelperNumber[];
  lineAmounts: HelperNumber[];
  numbers: HelperNumber[];
  entities: Entities;
  similarReceipts: Array<{ referenceId?: string; userId?: string; trackingId: string; similarityScore: number }>;
  /** Only with a public `ipAddress` the GeoIP data knows (src/geoip). */
  location?: GeoLocation;
  pages: number;
  targetRotation: number;
  warnings: string[];
  /**
   * What decided totalAmount, taxAmount, date, merchantName, merchantAddress and the locale: evidence
   * terms as weighed (`keyword:TOTAL(1.8)`, `paid-change(2.5)`), the rule that decided (`rule:<name>`)
   * and what the second reading made of it (`second-reader-agrees`); for `documentType` the rules that
   * counted (`total-keyword(2.5)`, `prose(-4.2)`), for `language` the detector's scores. For debugging and audits; the
   * terms may change between versions.
   */
  evidence: Partial<Record<'totalAmount' | 'taxAmount' | 'date' | 'merchantName' | 'merchantAddress' | 'locale' | 'documentType' | 'language', string[]>>;
  trackingId: string;
  elapsed: number;
}

export type ExtractResult = SimpleResult | VerboseResult;
