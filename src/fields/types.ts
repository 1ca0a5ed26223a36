import type { Box } from '../document/types.js';

/** A value found in the document, with the evidence the verbose result and confidence read from. */
export interface Located<T> {
  value: T;
  /** Calibrated confidence in [0, 0.99]. */
  confidence: number;
  /** OCR text the value was read from (usually the whole line). */
  text: string;
  /** Index of that line in Document.lines. */
  lineIndex: number;
  /** Word that anchored it (e.g. 'TOTAL', 'GST'), '-' when none. */
  keyword: string;
  /** Boxes (upright frame) of the words the value came from. */
  boxes: Box[];
  /** Page index. */
  page: number;
  /** ISO 4217 code, money fields only. */
  currencyCode?: string;
}

/** One entry of the verbose helper arrays `amounts`, `lineAmounts`, `numbers`. */
export interface FoundNumber {
  value: number;
  text: string;
  lineIndex: number;
  page: number;
  boxes: Box[];
  /** numbers[] only: what the number looks like (money, date, phone, quantity, id, percent, postcode, ...). */
  classifyResult?: string;
}

export interface FieldResults {
  totalAmount?: Located<number>;
  taxAmount?: Located<number>;
  subtotalAmount?: Located<number>;
  paidAmount?: Located<number>;
  discountAmount?: Located<number>;
  tipAmount?: Located<number>;
  roundingAmount?: Located<number>;
  /** ISO 8601, `YYYY-MM-DDT12:00:00.000Z` unless a time was printed and `extractTime`. */
  date?: Located<string>;
  dueDate?: Located<string>;
  merchantName?: Located<string>;
  merchantAddress?: Located<string>;
  merchantCity?: Located<string>;
  merchantState?: Located<string>;
  merchantCountryCode?: Located<string>;
  merchantPostalCode?: Located<string>;
  merchantTypes?: Located<string[]>;
  merchantPhoneNumber?: Located<string>;
  merchantTaxId?: Located<string>;
  merchantWebsite?: Located<string>;
  paymentType?: Located<string>;
  cardLast4?: Located<string>;
  invoiceNumber?: Located<string>;
  receiptNumber?: Located<string>;
  currencyCode?: Located<string>;
  amounts: FoundNumber[];
  lineAmounts: FoundNumber[];
  numbers: FoundNumber[];
  /** Warnings for the caller (e.g. unknown language hint). */
  warnings: string[];
  /** Why each field was chosen (evidence terms with their log-odds), for debugging and the bench. */
  evidence?: Record<string, string[]>;
}

/** What the finders know besides the document. */
export interface FieldContext {
  /** `language` option as given ('en', 'fr', ...) or undefined for auto. */
  language?: string;
  /** `near` option: "city, state, country". */
  near?: string;
  extractTime: boolean;
  /** Name never to return as the merchant. */
  ignoreMerchantName?: string;
  /** "Now" for plausibility of dates (defaults to the current time). */
  now?: Date;
}
