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

/**
 * What the date's resolver knew of the chosen value that later stages decide by (resolve/dates.ts
 * chooseDate), carried on the value so that no stage reads it back from the evidence strings.
 */
export interface DateMarks {
  /** A numeric date that both day/month orders allow (settled by the locale or guessed): another reading's date may be it swapped. */
  orderOpen?: true;
  /** Its day/month order was guessed and no printing settles it: it stays at or below AMBIGUOUS_ORDER_MAX_CONFIDENCE. */
  orderUnsettled?: true;
  /** Every printing of it needed a misread digit undone (a digit guess). */
  digitGuess?: true;
}

/** The transaction date, with what later stages decide by. */
export interface LocatedDate extends Located<string> { marks?: DateMarks }

/** The merchant name; `companyForm`: the chosen line reads a company form ("SDN BHD", "GmbH"). */
export interface LocatedName extends Located<string> { companyForm?: true }

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

/** One part of a line item (name, quantity, prices, code) with where it was read. */
export interface ItemPart<T> {
  value: T;
  text: string;
  lineIndex: number;
  page: number;
  boxes: Box[];
}

/** A product line item (contract section 3, `entities.productLineItems`). */
export interface LineItem {
  name: ItemPart<string>;
  quantity: ItemPart<number>;
  unitPrice: ItemPart<number>;
  totalPrice: ItemPart<number>;
  productCode?: ItemPart<string>;
  /** Calibrated confidence in [0, 0.99]. */
  confidence: number;
  /** Joined text of the item's lines. */
  text: string;
  /** Index of the item's first line in Document.lines, and all its lines. */
  lineIndex: number;
  lineIndices: number[];
  page: number;
  /** Boxes of the item's lines. */
  boxes: Box[];
}

/** One row of a tax summary (contract section 3, `entities.multiTaxLineItems`). */
export interface TaxLine {
  taxType: string;
  /** Fraction: 0.06 for 6 %. */
  taxRate?: number;
  netAmount?: number;
  taxAmount: number;
  grossAmount?: number;
  confidence: number;
  text: string;
  lineIndex: number;
  page: number;
  boxes: Box[];
}

/** How the items add up against the subtotal / total (reported in the verbose result). */
export interface ItemsCheck {
  /** Sum of the items' total prices. */
  itemsSum: number;
  /** What they were compared with ('subtotal', 'total', 'total-tax', ...), or 'none'. */
  against: string;
  expected?: number;
  matches: boolean;
}

export interface FieldResults {
  /** Product line items (empty when not extracted). */
  lineItems?: LineItem[];
  /** Tax summary rows. */
  taxLines?: TaxLine[];
  itemsCheck?: ItemsCheck;
  totalAmount?: Located<number>;
  taxAmount?: Located<number>;
  subtotalAmount?: Located<number>;
  paidAmount?: Located<number>;
  discountAmount?: Located<number>;
  tipAmount?: Located<number>;
  roundingAmount?: Located<number>;
  /** ISO 8601, `YYYY-MM-DDT12:00:00.000Z` unless a time was printed and `extractTime`. */
  date?: LocatedDate;
  dueDate?: Located<string>;
  merchantName?: LocatedName;
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
  /** The country the document looks to be from (locale inference), when any, and how sure. */
  country?: { code: string; confidence: number };
  /** The day/month order numeric dates were read in (the locale's: the country's, or a stated prior). */
  dayFirst?: boolean;
  /** Warnings for the caller (e.g. unknown language hint). */
  warnings: string[];
  /** Why each field was chosen (evidence terms with their log-odds), for debugging and the bench. */
  evidence?: Record<string, string[]>;
  /**
   * The total the tax's rules were run with (they take the tax from it: "total less net", the tax line
   * consistent with it): a later stage that replaces the total leaves it, and the readings' combining
   * weighs the tax again (read/combine.ts taxesAtTotal). Absent: no total.
   */
  taxWeighedAt?: number;
}

/** What the finders know besides the document. */
export interface FieldContext {
  /** `language` option as given ('en', 'fr', ...) or undefined for auto. */
  language?: string;
  /** `near` option: "city, state, country". */
  near?: string;
  /** The country (ISO 3166 alpha-2) of the caller's `ipAddress` (src/geoip), weighed as `near` is when `near` names no country. */
  callerCountry?: string;
  extractTime: boolean;
  /** Name never to return as the merchant. */
  ignoreMerchantName?: string;
  /** Find product line items and tax lines (default true). */
  extractLineItems?: boolean;
  /** "Now" for plausibility of dates (defaults to the current time). */
  now?: Date;
  /** Rank every field's candidates by the weights fitted in models/fields.json or by the rules' hand-set scores; omitted, each field by its default (field-model.ts FITTED_BY_DEFAULT). */
  ranking?: 'fitted' | 'hand-set';
}
