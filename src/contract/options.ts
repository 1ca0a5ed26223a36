import { z } from 'zod';
import { ReceiptKitError } from '../errors.js';

const id50 = z.string().min(1).max(50);

/** Extraction options (contract section 2). Unknown keys are rejected so typos surface. */
export const extractOptionsSchema = z.strictObject({
  verbose: z.boolean().default(false),
  extractLineItems: z.boolean().default(true),
  extractTime: z.boolean().default(false),
  language: z.string().min(1).max(20).optional(),
  near: z.string().max(200).optional(),
  ipAddress: z.string().max(100).optional(),
  ignoreMerchantName: z.string().max(200).optional(),
  refresh: z.boolean().default(false),
  incognito: z.boolean().default(false),
  userId: id50.optional(),
  containerId: id50.optional(),
  referenceId: id50.optional(),
  subAccountId: z.string().min(1).max(100).optional(),
  /** Hint for the encoded form / raw bytes: the claimed media type (the bytes decide). */
  contentType: z.string().max(200).optional(),
  /** Name of the file, for reports. */
  filename: z.string().max(1000).optional(),
  /** Abort the extraction (a TIMEOUT error is raised). */
  timeoutMs: z.number().int().positive().max(10 * 60_000).optional(),
});

export type ExtractOptionsInput = z.input<typeof extractOptionsSchema>;
export type ExtractOptions = z.output<typeof extractOptionsSchema>;

/** Engine options. */
export const engineOptionsSchema = z.strictObject({
  /** OCR workers (default: from the machine, see README). */
  workers: z.number().int().min(1).max(32).optional(),
  /** Folder with extra `<lang>.traineddata[.gz]` files. */
  langPath: z.string().min(1).optional(),
  /** Where the SQLite store lives (later issues). */
  storePath: z.string().min(1).optional(),
  enrichment: z.unknown().optional(),
  limits: z.strictObject({
    maxFileBytes: z.number().int().positive().optional(),
    maxPixels: z.number().int().positive().optional(),
    maxPdfPages: z.number().int().min(1).max(1000).optional(),
    maxPdfMillis: z.number().int().positive().optional(),
  }).optional(),
  /** Largest number of extractions waiting for OCR before OVERLOADED (default 1000). */
  maxQueue: z.number().int().min(1).optional(),
  /** Default per-call timeout in ms (default none). */
  timeoutMs: z.number().int().positive().optional(),
});

export type EngineOptionsInput = z.input<typeof engineOptionsSchema>;
export type EngineOptions = z.output<typeof engineOptionsSchema>;

/** Parses with a zod schema; a failure becomes INVALID_OPTION naming the first bad field and why. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = issue.path.length ? issue.path.map(String).join('.') : (issue.code === 'unrecognized_keys' ? (issue as { keys?: string[] }).keys?.join(', ') ?? what : what);
  const message = issue.code === 'unrecognized_keys'
    ? `${what}: unknown option ${field}`
    : `${what}: ${field}: ${issue.message}`;
  throw new ReceiptKitError('INVALID_OPTION', message, { field });
}
