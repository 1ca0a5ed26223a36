import net from 'node:net';
import { z } from 'zod';
import { ReceiptKitError } from '../errors.js';

const id50 = z.string().min(1).max(50);
/** An enrichment list: CSV text or bytes, or rows (each row is checked by src/enrich/schema.ts). */
const enrichmentList = z.union([z.string(), z.instanceof(Uint8Array), z.array(z.record(z.string(), z.unknown()))], { message: 'must be CSV text or an array of rows' });

/** Extraction options (contract section 2). Unknown keys are rejected so typos surface. */
export const extractOptionsSchema = z.strictObject({
  verbose: z.boolean().default(false),
  extractLineItems: z.boolean().default(true),
  /**
   * Verbose only: the fraud checks (tamperingDetection, digitalDetection, handwritingDetection). False
   * skips that work (about a tenth of a scan's time) and leaves the three out of the result. Validation
   * runs them whenever its rules ask (fraudDetection.allowTamperDetection / allowDigitalDetection).
   */
  detectFraud: z.boolean().default(true),
  /**
   * Decode the QR codes and barcodes on image pages (src/codes/) and read the fiscal payloads among them,
   * which decide the total, tax, date and seller's tax ID they state. False skips that work; verbose
   * results then have no `entities.codes`.
   */
  readCodes: z.boolean().default(true),
  extractTime: z.boolean().default(false),
  language: z.string().min(1).max(20).optional(),
  near: z.string().max(200).optional(),
  /** The end user's IP address: verbose results get a root `location` (offline GeoIP, src/geoip). */
  ipAddress: z.string().max(100).optional().refine((v) => v === undefined || net.isIP(v.trim()) !== 0, { message: 'is not an IPv4 or IPv6 address' }),
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
  /** OCR workers (default: from the machine, see docs/api.md). */
  workers: z.number().int().min(1).max(32).optional(),
  /** Folder with extra `<lang>.traineddata[.gz]` files. */
  langPath: z.string().min(1).optional(),
  /** Where the SQLite store lives (default: an in-memory store). */
  storePath: z.string().min(1).optional(),
  /**
   * A PostgreSQL store instead (`postgres://user:password@host:5432/database`), shared by every
   * process and machine that opens it (server replicas, batch workers). Not with `storePath`.
   */
  storeUrl: z.string().regex(/^postgres(ql)?:\/\//i, 'a postgres:// or postgresql:// URL').optional(),
  /** The PostgreSQL schema of this engine's tables (default `receiptkit`; one per account). */
  storeSchema: z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,62}$/, 'letters, digits, "_", "." or "-", starting with a letter or "_", 1..63 characters').optional(),
  /**
   * Enrichment lists (src/enrich): each CSV text/bytes or an array of rows, checked when the engine
   * is created; a list given here replaces the stored list of its kind.
   */
  enrichment: z.strictObject({
    merchants: enrichmentList.optional(),
    productCodes: enrichmentList.optional(),
    categories: enrichmentList.optional(),
    /** Use the built-in category list for a level the account's categories leave out (default true). */
    defaultCategories: z.boolean().optional(),
  }).optional(),
  limits: z.strictObject({
    maxFileBytes: z.number().int().positive().optional(),
    maxPixels: z.number().int().positive().optional(),
    maxPdfPages: z.number().int().min(1).max(1000).optional(),
    maxPdfMillis: z.number().int().positive().optional(),
  }).optional(),
  /**
   * Whole-page confirming OCR passes (at other resolutions) for a photo or scan whose total is
   * uncertain: a pass total more confident by 0.05 replaces it, agreement raises it to 0.9. 0 turns
   * them off (faster), at most 2 (default 2).
   */
  confirmPasses: z.number().int().min(0).max(2).optional(),
  /**
   * Opt-in wall-clock budget in ms of a page's reading (src/read/budget.ts). The first readings always
   * run; a re-reading (another language, the plain image, second looks, confirming passes) starts only
   * while the page's time so far plus its expected cost stays within it, and the result warns of the ones
   * it stopped. Load-dependent: on a busy machine it stops more of them, so the answer can depend on the
   * load. Default 0 = none (answers then depend only on the file and the options; re-readings are bounded
   * by the count `rereadBudget`; a deadline is `timeoutMs`).
   */
  pageBudgetMs: z.number().int().min(0).max(600_000).optional(),
  /**
   * How many whole-page re-readings a page may have (a few lines read again count as a quarter of one);
   * counted, not timed, so the answer does not depend on the machine (src/read/budget.ts). Default 5.
   */
  rereadBudget: z.number().min(0).max(20).optional(),
  /**
   * Read one-page images a second time with PaddleOCR (PP-OCRv4, ONNX, in process; src/ocr/paddle.ts)
   * and weigh both readings' total, date, tax and items (src/read/combine.ts). Default true; false
   * reads with tesseract alone (faster, less accurate). Without the runtime installed it is skipped with
   * a warning.
   */
  secondReader: z.boolean().optional(),
  /**
   * Read a page again with the OCR data of the language detected on its text (issue 24), when the call
   * gave no `language`, the detection is sure and that data is installed but was not used; the reading
   * whose fields are surer is kept (src/language/reread.ts). Default false: it doubles the reading time
   * of those pages and gained no field on the German scans of the corpus (docs/decisions/2026-11-26-language-reread-off.md).
   */
  languageReread: z.boolean().optional(),
  /**
   * How a one-page image is read. 'thorough' (default): tesseract and PaddleOCR both read the whole
   * page, with alternate readings of photos, second looks and confirming passes. 'fast' (experimental):
   * PaddleOCR reads the page, tesseract reads the header band and the total's, date's and tax's lines
   * again, and the whole page only when no total or date was found (src/read/fast.ts); measured less
   * accurate so far (bench/OCR.md). Without PaddleOCR (secondReader false, or its runtime missing)
   * pages are read the thorough way. 'cascade': the thorough reading that stops where the core fields are
   * sure (src/read/cascade.ts, models/cascade.json): PaddleOCR reads a page only where tesseract's first
   * reading is not sure of its total, date, merchant name and currency, and nothing is read again where the
   * two readings weighed are; its totals' confidences are calibrated on its own answers (models/calibration.json
   * `readings.cascade`).
   */
  reading: z.enum(['fast', 'thorough', 'cascade']).optional(),
  /**
   * Threads PaddleOCR's runtime (onnxruntime) uses within one reading (default 1: its recogniser reads
   * one small strip at a time, and tesseract reads alongside it). Readings of one engine run one at a time.
   */
  readerThreads: z.number().int().min(1).max(16).optional(),
  /** Called after each extraction with the wall time of its stages in ms (input, readers, re-reads, fields, fraud, similarity). */
  onStageTimes: z.custom<(times: Record<string, number>) => void>((v) => v === undefined || typeof v === 'function', { message: 'must be a function' }).optional(),
  /**
   * OCR the pictures painted on PDF pages that have a text layer (a logo, an issuer block embedded as
   * an image: their text is not in the text layer) and add their words to the page: the largest 3 of a
   * page, 4 of a document. Default true; false reads such pages from the text layer alone (faster).
   */
  pdfImageText: z.boolean().optional(),
  /**
   * Field confidences mapped by the calibration fitted on the corpus (models/calibration.json,
   * src/resolve/calibration.ts), so that values given 0.8 are right about 8 times in 10. Default true;
   * false returns the resolvers' own confidences (what scripts/fit-calibration.mjs refits from).
   */
  calibrated: z.boolean().optional(),
  /**
   * How the candidates of the total, the date, the tax and the merchant's name are ranked: 'fitted' by the
   * weights fitted on the corpus's tune halves (models/fields.json, src/resolve/field-model.ts), 'hand-set'
   * by the rules' own scores (the tax: its rules' order). Omitted, each field by what measured better on the
   * whole corpus (docs/decisions/2026-11-28-fitted-ranking-*.md): the name fitted (no name lost on either half of any set, more
   * right on both), the total, the date and the tax hand-set (the fitted total lost final totals; the fitted
   * date and tax changed none).
   */
  ranking: z.enum(['fitted', 'hand-set']).optional(),
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
  const unknownKeys = issue.code === 'unrecognized_keys' ? (issue as { keys?: string[] }).keys ?? [] : [];
  const field = issue.code === 'unrecognized_keys'
    ? (unknownKeys.length ? unknownKeys.map((k) => [...issue.path.map(String), k].join('.')).join(', ') : issue.path.map(String).join('.') || what)
    : issue.path.length ? issue.path.map(String).join('.') : what;
  const message = issue.code === 'unrecognized_keys'
    ? `${what}: unknown option ${field}`
    : `${what}: ${field}: ${issue.message}`;
  throw new ReceiptKitError('INVALID_OPTION', message, { field });
}
