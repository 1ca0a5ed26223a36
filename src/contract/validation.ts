/**
 * Validation (contract section 4): the rule set schema (inline `validation` bodies and campaign
 * settings share it), the validation options, and the result shape. Key order is part of the contract:
 * the result builder in src/validate/rules.ts creates objects in exactly the order the types list them.
 */
import { z } from 'zod';
import { ReceiptKitError } from '../errors.js';
import { extractOptionsSchema } from './options.js';

/** Check names, in the order checks are reported. */
export const CHECK_NAMES = [
  'campaign_date_validated',
  'merchant_name_validated',
  'product_line_items_validated',
  'product_codes_validated',
  'balance_owing_validated',
  'document_type_validated',
  'fraud_detection_unique_receipt_validated',
  'fraud_detection_not_tampered_validated',
  'fraud_detection_not_digital_validated',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** True for `YYYY-MM-DD` or an ISO 8601 date-time, with a real calendar date and time of day. */
export function isIsoDate(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d > days) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return false;
  return true;
}

const isoDate = z.string().max(40).refine(isIsoDate, { message: 'must be an ISO 8601 date (YYYY-MM-DD or a date-time such as 2024-10-31T23:59:59Z)' });
const name = z.string().trim().min(1, { message: 'must not be empty' }).max(200);
const names = z.array(name).max(1000);
const amount = z.number().finite();

/** `{ min?, max? }`, at least one given, min <= max. */
const range = z.strictObject({ min: amount.optional(), max: amount.optional() })
  .refine((r) => r.min !== undefined || r.max !== undefined, { message: 'give min, max or both' })
  .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, { message: 'min must not be greater than max', path: ['max'] });

const dateSection = z.strictObject({ start: isoDate, end: isoDate })
  .refine((d) => d.start.slice(0, 10) <= d.end.slice(0, 10), { message: 'end must not be before start', path: ['end'] });

const merchantSection = z.strictObject({
  skip: z.boolean().optional(),
  allowList: names.optional(),
  blockList: names.optional(),
  /** Legacy spelling of `allowList`. */
  list: names.optional(),
  returnFromTheList: z.boolean().optional(),
});

const productLineItemsSection = z.strictObject({
  skip: z.boolean().optional(),
  names: names.optional(),
  quantity: range.optional(),
  totalPrice: range.optional(),
});

const productCodesSection = z.strictObject({
  skip: z.boolean().optional(),
  list: z.array(z.string().trim().min(1, { message: 'must not be empty' }).max(100)).max(10_000).optional(),
  description: z.string().max(500).optional(),
}).refine((p) => p.skip === true || (p.list?.length ?? 0) > 0, { message: 'list is required (at least one code) unless skip is true', path: ['list'] });

const balanceOwingSection = z.strictObject({
  skip: z.boolean().optional(),
  max: amount.min(0, { message: 'must be 0 or more' }).optional(),
}).refine((b) => b.skip === true || b.max !== undefined, { message: 'max is required unless skip is true', path: ['max'] });

/**
 * Beyond: which kinds of document pass (issue 24). Receipts always pass; invoices pass unless
 * `allowInvoice` is false; `other` (pictures, screenshots of chats or web pages, letters, bank
 * statements) fails unless `allowOther` is true.
 */
const documentTypeSection = z.strictObject({
  skip: z.boolean().optional(),
  allowInvoice: z.boolean().optional(),
  allowOther: z.boolean().optional(),
});

const fraudSection = z.strictObject({
  allowSimilarityCheck: z.boolean().optional(),
  allowTamperDetection: z.boolean().optional(),
  allowDigitalDetection: z.boolean().optional(),
});

/** The rule set (inline validation body and campaign settings). Every section is optional. */
export const validationRulesSchema = z.strictObject({
  date: dateSection.optional(),
  merchantNames: merchantSection.optional(),
  productLineItems: productLineItemsSection.optional(),
  productCodes: productCodesSection.optional(),
  balanceOwing: balanceOwingSection.optional(),
  documentType: documentTypeSection.optional(),
  fraudDetection: fraudSection.optional(),
  /** Extra line-item fields in the result: `modelNumber`. */
  additionalExtractionFields: z.array(z.enum(['modelNumber'])).max(10).optional(),
});

export type ValidationRulesInput = z.input<typeof validationRulesSchema>;
export type ValidationRules = z.output<typeof validationRulesSchema>;

/**
 * Validation options: the extraction options of contract section 2 except `verbose` (a validation
 * result has one shape). `subAccountId` may be up to 100 characters here.
 */
export const validateOptionsSchema = extractOptionsSchema.omit({ verbose: true });
export type ValidateOptionsInput = z.input<typeof validateOptionsSchema>;
export type ValidateOptions = z.output<typeof validateOptionsSchema>;

/** Campaign id: caller-chosen, 1..50 characters. */
export const campaignIdSchema = z.string().min(1, { message: 'must be 1 to 50 characters' }).max(50, { message: 'must be 1 to 50 characters' });

/**
 * Parses with a zod schema; a failure is INVALID_OPTION naming the field (dotted path, e.g.
 * `date.end` or `merchantNames.allowList.2`, unknown keys included) and the reason.
 */
export function parseWithField<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys?: string[] }).keys ?? [];
    const field = [...path, keys[0] ?? ''].filter(Boolean).join('.') || what;
    throw new ReceiptKitError('INVALID_OPTION', `${what}: unknown field ${keys.map((k) => [...path, k].join('.')).join(', ')}`, { field });
  }
  const field = path.length ? path.join('.') : what;
  let message = issue.message;
  if (issue.code === 'invalid_type' && valueAt(value, issue.path) === undefined) message = 'is required';
  throw new ReceiptKitError('INVALID_OPTION', `${what}: ${field}: ${message}`, { field });
}

function valueAt(value: unknown, path: PropertyKey[]): unknown {
  let v = value;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** A product line item as the validation result reports it. */
export interface ValidationLineItem {
  name: string;
  unitPrice: number | null;
  totalPrice: number | null;
  quantity: number | null;
  /** Only with `additionalExtractionFields: ["modelNumber"]`; null when none was read. */
  modelNumber?: string | null;
}

export interface SimilarReceipt {
  referenceId?: string;
  userId?: string;
  trackingId: string;
  /** 0..1; above 0.9 is a likely duplicate. */
  similarityScore: number;
}

/**
 * The validation result (contract section 4), keys in this order. Values that were not read are
 * `null` (the key is always present).
 */
export interface ValidationResult {
  successful: boolean;
  passedValidations: CheckName[];
  failedValidations: CheckName[];
  /** Why each check that ran passed or failed, as a sentence. */
  reasons: Partial<Record<CheckName, string>>;
  productLineItems: ValidationLineItem[];
  matchedProductLineItems: ValidationLineItem[];
  date: string | null;
  merchantName: string | null;
  merchantAddress: string | null;
  merchantCity: string | null;
  merchantPostalCode: string | null;
  merchantState: string | null;
  merchantCountryCode: string | null;
  productCodes: string[];
  balanceAmount: number | null;
  totalAmount: number | null;
  receiptNumber: string | null;
  invoiceNumber: string | null;
  trackingId: string;
  targetRotation: number;
  similarReceipts: SimilarReceipt[];
}

export const VALIDATION_RESULT_KEYS = [
  'successful', 'passedValidations', 'failedValidations', 'reasons', 'productLineItems', 'matchedProductLineItems',
  'date', 'merchantName', 'merchantAddress', 'merchantCity', 'merchantPostalCode', 'merchantState', 'merchantCountryCode',
  'productCodes', 'balanceAmount', 'totalAmount', 'receiptNumber', 'invoiceNumber', 'trackingId', 'targetRotation',
  'similarReceipts',
] as const;

/** A tamper detector's output (contract section 3, `entities.tamperingDetection`). */
export interface TamperingDetection { isTampered: boolean; tamperedScore: number; details?: unknown }
/** A digital-document detector's output (contract section 3, `entities.digitalDetection`). */
export interface DigitalDetection { isDigital: boolean; digitalScore: number; details?: unknown }

/** Usage summary (engine.usage()): counts per endpoint kind per UTC day. */
export const usageQuerySchema = z.strictObject({
  subAccountId: z.string().min(1).max(100).optional(),
  from: z.string().refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && isIsoDate(s), { message: 'must be a day YYYY-MM-DD' }).optional(),
  to: z.string().refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && isIsoDate(s), { message: 'must be a day YYYY-MM-DD' }).optional(),
}).refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'to must not be before from', path: ['to'] });
export type UsageQuery = z.input<typeof usageQuerySchema>;

export interface UsageCounts { simple: number; verbose: number; validation: number; campaignValidation: number; total: number }
export interface UsageDay extends UsageCounts {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** null for calls made without a subAccountId. */
  subAccountId: string | null;
}
export interface UsageSummary {
  subAccountId: string | null;
  from: string | null;
  to: string | null;
  /** One row per sub-account and day with any call, ordered by day then sub-account. */
  days: UsageDay[];
  totals: UsageCounts;
}
