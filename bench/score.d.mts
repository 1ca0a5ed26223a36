// Types for bench/score.mjs (so test/bench-score.test.ts type-checks under strict TypeScript).
export type Field = 'totalAmount' | 'taxAmount' | 'date' | 'merchantName' | 'merchantAddress' | 'invoiceNumber';
export declare const FIELDS: readonly Field[];
export declare const HALVES: readonly ['tune', 'check'];
export declare function halfOf(id: string): 'tune' | 'check';
export declare const EXACT_FIELDS: readonly Field[];
export declare const AMOUNT_TOLERANCE: number;
export declare const HI_CONF: number;
export declare const NAME_SIMILARITY: number;
export declare const LINE_NAME_SIMILARITY: number;

export interface FieldScore {
  field: string;
  gold: unknown;
  value: unknown;
  confidence: number;
  correct: boolean;
  exact?: boolean;
  hiConf: boolean;
}
export interface LineItemScore {
  gold: number;
  predicted: number;
  found: number;
  allExact: boolean;
  matches: [number, number][];
}
export interface GoldLineItem { name: string; totalPrice: number; quantity?: number; unitPrice?: number | null }
export type Gold = Partial<Record<Field, unknown>> & { lineItems?: GoldLineItem[] };

export declare function normalizeName(s: unknown): string;
export declare function levenshtein(a: string, b: string): number;
export declare function levenshteinSimilarity(a: string, b: string): number;
export declare function nameMatches(pred: unknown, gold: unknown): boolean;
export declare function goldFor(label: Record<string, unknown>, lineitems?: Record<string, unknown> | null): Gold;
export declare function predictionFor(field: string, result: unknown): { value: unknown; confidence: number };
export declare function scoreField(field: Field, result: unknown, gold: Gold, opts?: { error?: boolean }): FieldScore | null;
export declare function flattenLineItems(resultOrItems: unknown): { name: string; totalPrice: number | undefined }[];
export declare function scoreLineItems(predicted: unknown, goldItems: GoldLineItem[]): LineItemScore;
export declare function scoreItem(result: unknown, gold: Gold, opts?: { error?: boolean }): { fields: Partial<Record<Field, FieldScore>>; lineItems: LineItemScore | null };
export declare function percentile(values: number[], p: number): number | null;

export interface FieldSummary {
  n: number;
  correct: number;
  accuracy: number | null;
  exact?: number;
  exactRate?: number | null;
  hiConfN: number;
  hiConfCorrect: number;
  hiConfPrecision: number | null;
  hiConfShare: number | null;
}
export interface Summary {
  n: number;
  errors: number;
  errorCodes: Record<string, number>;
  fields: Partial<Record<Field, FieldSummary>>;
  lineItems: null | { receipts: number; gold: number; predicted: number; found: number; precision: number; recall: number; f1: number; allExact: number; allExactShare: number | null };
  speed: { p50: number | null; p95: number | null; mean: number | null; max: number | null };
}
export declare function summarize(items: {
  error?: string | null;
  ms?: number;
  fields: Partial<Record<Field, { correct: boolean; exact?: boolean; hiConf: boolean }>>;
  lineItems?: { gold: number; predicted: number; found: number; allExact: boolean } | null;
}[]): Summary;

/** Confidence groups of the reliability table: [from, to). */
export declare const CONFIDENCE_GROUPS: ReadonlyArray<[number, number]>;
export interface ReliabilityGroup { from: number; to: number; n: number; right: number; meanConfidence: number | null }
/** Per confidence group, the values of one field given in these report items. */
export declare function reliabilityGroups(
  items: ReadonlyArray<{ ok?: Record<string, boolean>; pred?: Record<string, unknown>; conf?: Record<string, number> }>,
  field: string,
): ReliabilityGroup[];
