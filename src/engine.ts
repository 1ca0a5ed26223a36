/**
 * The engine wires the stages: input -> pages -> ocr -> document -> fields -> response.
 * It owns the OCR worker pool and the store (scan history, campaigns, usage; later the enrichment
 * data) and is reused across calls.
 */
import { createHash, randomUUID } from 'node:crypto';
import { extractOptionsSchema, engineOptionsSchema, parseOrThrow } from './contract/options.js';
import type { EngineOptions, EngineOptionsInput, ExtractOptions, ExtractOptionsInput } from './contract/options.js';
import type { ExtractResult, SimpleResult, VerboseResult } from './contract/results.js';
import { ReceiptKitError, isReceiptKitError } from './errors.js';
import { loadInput } from './input/index.js';
import type { InputSource, LoadedInput } from './input/types.js';
import { DEFAULT_LIMITS } from './input/types.js';
import { OcrPool } from './ocr/pool.js';
import { findLanguageData, resolveLanguages } from './ocr/languages.js';
import type { Document } from './document/types.js';
import type { FieldResults } from './fields/types.js';
import { PaddleReader } from './ocr/paddle.js';
import { readDocument } from './read/index.js';
import type { DocumentReading } from './read/index.js';
import { scriptWarning } from './read/script.js';
import type { Readers } from './read/readers.js';
import { StageClock } from './read/clock.js';
import { buildSimple, buildVerbose } from './response/build.js';
import type { VerboseExtras } from './response/build.js';
import { readSource } from './input/source.js';
import { endIdlePdfThreads } from './input/pdf-thread.js';
import type {
  UsageQuery, UsageSummary, ValidateOptions, ValidateOptionsInput,
  ValidationResult, ValidationRules, ValidationRulesInput,
} from './contract/validation.js';
import { parseWithField, usageQuerySchema, validateOptionsSchema, validationRulesSchema } from './contract/validation.js';
import { openStore } from './store/open.js';
import type { EndpointKind, Store, StoredResult } from './store/types.js';
import { extractionKey, resultKey } from './store/keys.js';
import { findSimilarReceipts } from './store/similar.js';
import { parseSignature, signatureKeys, signatureOf } from './similarity/index.js';
import type { SimilaritySignature } from './similarity/index.js';
import { evaluateRules } from './validate/rules.js';
import type { SimilarMatch } from './validate/rules.js';
import { fingerprintOf, subjectFromExtraction } from './validate/subject.js';
import type { ValidationSubject } from './validate/subject.js';
import { createCampaigns } from './campaigns/index.js';
import type { Campaigns } from './campaigns/index.js';
import { EngineEnrichment } from './enrich/index.js';
import { detectFraud } from './fraud/index.js';
import { readPageCodes } from './codes/index.js';
import type { CodesReading } from './codes/index.js';
import { applyFiscalFacts } from './resolve/fiscal.js';
import { lookupIp } from './geoip/index.js';
import type { Extraction } from './contract/extraction.js';
import type { Enrichment, EnrichmentOutput } from './enrich/index.js';
import { documentTypeOf } from './classify/index.js';
import { detectLanguage, loadLanguageDetector } from './language/detect.js';
import { secondReadingLanguage } from './language/reread.js';
import { rootConfidence } from './response/build.js';
import { calibrateFields, defaultCalibration, mapsFor } from './resolve/calibration.js';

/** Everything one extraction produced, before it is shaped into a result (used by validation). */
export type { Extraction } from './contract/extraction.js';

export interface Engine {
  /** Extracts the simple (default) or verbose result of contract section 3. */
  extract(input: InputSource, options: ExtractOptionsInput & { verbose: true }): Promise<VerboseResult>;
  extract(input: InputSource, options?: ExtractOptionsInput & { verbose?: false }): Promise<SimpleResult>;
  extract(input: InputSource, options?: ExtractOptionsInput): Promise<ExtractResult>;
  /** The pipeline without the response shaping: document, located fields, metadata. */
  analyze(input: InputSource, options?: ExtractOptionsInput): Promise<Extraction>;
  /**
   * Validates a receipt against an inline rule set (contract section 4). The rules and options are
   * checked before anything is read; nothing is stored (the call is counted in `usage`).
   */
  validate(input: InputSource, rules: ValidationRulesInput, options?: ValidateOptionsInput): Promise<ValidationResult>;
  /** Stored campaigns (contract section 5). */
  readonly campaigns: Campaigns;
  /** The engine's enrichment lists: known merchants, product codes, categories (contract section 5). */
  readonly enrichment: Enrichment;
  /** Calls per sub-account, UTC day and endpoint kind. */
  usage(query?: UsageQuery): Promise<UsageSummary>;
  /** Calls accepted and not yet finished. */
  readonly pending: number;
  readonly closed: boolean;
  /** Terminates the OCR workers and closes the store; later calls reject with ENGINE_CLOSED. Idempotent. */
  close(): Promise<void>;
}

/**
 * The country of the caller's `ipAddress` (src/geoip), which the locale weighs as it weighs `near`
 * (issue 50: a currency nothing on the page settles is taken from the caller's place, below 0.9); none with
 * `near` (the caller named the place), a private or unknown address, or without the optional GeoIP
 * package (then a warning: simple results never needed it, and verbose ones fail on their location).
 */
function callerCountry(opts: Pick<ExtractOptions, 'ipAddress' | 'near'>): { country?: string; warning?: string } {
  if (!opts.ipAddress || opts.near) return {};
  try {
    const code = lookupIp(opts.ipAddress).location?.country?.iso_code;
    return code ? { country: code } : {};
  } catch (e) {
    if (isReceiptKitError(e) && e.code === 'FEATURE_DISABLED') return { warning: `ipAddress: not used for the currency and the country (${e.message})` };
    throw e;
  }
}

/** What a call knows before OCR: its refresh keys, the content hash and a stored answer, if any. */
interface ScanStart {
  kind: EndpointKind;
  opts: ExtractOptions;
  started: number;
  resultKey: string;
  extractionKey: string;
  /** sha256 of the input bytes; absent with `refresh: true` (nothing is looked up). */
  contentHash?: string;
  /** A stored scan of the same bytes with the same result-affecting options (simple/verbose). */
  stored?: StoredResult;
}

const VALIDATION_KINDS: readonly EndpointKind[] = ['validation', 'campaign-validation'];
const publicSimilar = (m: SimilarMatch[]) => m.map(({ basis: _b, ...r }) => r);

class ReceiptEngine implements Engine {
  private readonly ocr: OcrPool;
  /** PaddleOCR (ocr/paddle.ts): the primary reader of the fast reading, the second of the thorough one. */
  private readonly paddle: PaddleReader | undefined;
  private inFlight = 0;
  private isClosed = false;
  /** The extractions in flight: close() aborts them (their PDF threads end, their OCR stops). */
  private readonly running = new Set<AbortController>();
  private readonly idleWaiters: Array<() => void> = [];
  readonly campaigns: Campaigns;
  readonly enrichment: EngineEnrichment;

  /** `store` is open already and `enrichment` initialised (createEngine): a bad store fails before any worker exists. */
  constructor(private readonly options: EngineOptions, private readonly store: Store, enrichment: EngineEnrichment) {
    this.enrichment = enrichment;
    this.campaigns = createCampaigns({
      store: () => this.openStore(),
      validate: (rules, input, opts, campaignId) => this.validateWith(rules, input, opts, campaignId),
    });
    this.ocr = new OcrPool({
      ...(options.workers ? { size: options.workers } : {}),
      ...(options.langPath ? { langPath: options.langPath } : {}),
    });
    this.paddle = options.secondReader === false ? undefined : new PaddleReader(options.readerThreads ? { threads: options.readerThreads } : {});
  }


  /** The readers the reading stage takes (read/readers.ts). */
  private readers(): Readers { return { tesseract: this.ocr, paddle: this.paddle }; }

  get pending(): number { return this.inFlight; }
  get closed(): boolean { return this.isClosed; }

  extract(input: InputSource, options: ExtractOptionsInput & { verbose: true }): Promise<VerboseResult>;
  extract(input: InputSource, options?: ExtractOptionsInput & { verbose?: false }): Promise<SimpleResult>;
  extract(input: InputSource, options?: ExtractOptionsInput): Promise<ExtractResult>;
  async extract(input: InputSource, options?: ExtractOptionsInput): Promise<ExtractResult> {
    const opts = parseOrThrow(extractOptionsSchema, options, 'extract options');
    const scan = await this.beginScan(input, opts, opts.verbose ? 'verbose' : 'simple');
    if (scan.stored) return this.reuseScan(scan);
    // a simple result has no line items: skip that work
    const clock = new StageClock();
    const x = await this.run(input, opts.verbose ? opts : { ...opts, extractLineItems: false }, { fraud: opts.verbose && opts.detectFraud, clock });
    const enriched = await clock.time('enrichment', () => this.enrich(x, opts));
    // merchantTypes come from the enrichment's categories (account list or built-in)
    const fields = { ...x.fields, merchantTypes: enriched.merchantTypes };
    if (!opts.verbose) return this.keepScan(scan, x, buildSimple(fields), clock);
    return this.keepScan(scan, x, buildVerbose(x.document, fields, {
      targetRotation: x.targetRotation,
      pages: x.input.pageCount,
      elapsed: x.elapsed,
      trackingId: x.trackingId,
      warnings: [...new Set([...x.warnings, ...enriched.warnings])],
      enrichment: enriched,
      ...(x.codes ? { codes: x.codes } : {}),
      ...fraudOf(x),
      ...(x.documentType ? { documentType: x.documentType } : {}),
      ...(x.language ? { language: x.language } : {}),
    }), clock);
  }

  /** Known merchant, codes, categories and location for one extraction; a failure of its own is a warning. */
  private async enrich(x: Extraction, opts: ExtractOptions): Promise<EnrichmentOutput> {
    try {
      return await this.enrichment.enrich(x.document, x.fields, { near: opts.near, ipAddress: opts.ipAddress, verbose: opts.verbose });
    } catch (e) {
      if (isReceiptKitError(e) && e.code !== 'INTERNAL') throw e;
      return { items: [], warnings: [`enrichment failed: ${e instanceof Error ? e.message : String(e)}`] };
    }
  }

  async analyze(input: InputSource, options?: ExtractOptionsInput): Promise<Extraction> {
    return this.run(input, parseOrThrow(extractOptionsSchema, options, 'extract options'), { fraud: true });
  }

  /** `fraud`: also run the fraud checks (tampering, digital, handwriting; src/fraud/). */
  private async run(input: InputSource, opts: ExtractOptions, stages: { fraud?: boolean; clock?: StageClock } = {}): Promise<Extraction> {
    if (this.isClosed) throw new ReceiptKitError('ENGINE_CLOSED', 'the engine is closed');
    const maxQueue = this.options.maxQueue ?? 1000;
    if (this.inFlight >= maxQueue) throw new ReceiptKitError('OVERLOADED', `too many extractions waiting (${this.inFlight}); try again later`);
    this.inFlight++;
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs;
    const controller = new AbortController();
    this.running.add(controller);
    let timer: NodeJS.Timeout | undefined;
    // the call ends when its work does, or at once when it is stopped: by its time limit (TIMEOUT) or by
    // close() (ENGINE_CLOSED); the stages see the same signal and stop what they do
    const stopped = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    stopped.catch(() => undefined);
    try {
      const work = this.pipeline(input, opts, controller.signal, !!stages.fraud, stages.clock);
      work.catch(() => undefined); // a stop may win; do not leave a rejection unhandled
      if (timeoutMs) {
        timer = setTimeout(() => controller.abort(new ReceiptKitError('TIMEOUT', `extraction took longer than ${timeoutMs} ms`)), timeoutMs);
      }
      return await Promise.race([work, stopped]);
    } finally {
      if (timer) clearTimeout(timer);
      this.running.delete(controller);
      this.inFlight--;
      if (this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  private async pipeline(source: InputSource, opts: ExtractOptions, signal: AbortSignal, fraud = false, clock = new StageClock()): Promise<Extraction> {
    const started = performance.now();
    const warnings: string[] = [];
    const t0 = performance.now();
    const limits = { ...DEFAULT_LIMITS, ...(this.options.limits ?? {}) };
    let input: LoadedInput;
    try {
      input = await loadInput(source, {
        limits,
        ...(opts.contentType ? { contentType: opts.contentType } : {}),
        ...(opts.filename ? { filename: opts.filename } : {}),
        signal,
        pdfImages: this.options.pdfImageText !== false,
      });
    } catch (e) {
      throw wrapUnexpected(e, 'UNREADABLE_FILE', 'the file could not be read');
    }
    if (input.warnings) warnings.push(...input.warnings);
    clock.add('input', performance.now() - t0);

    const langs = resolveLanguages(opts.language, this.options.langPath);
    warnings.push(...langs.warnings);
    const caller = callerCountry(opts);
    if (caller.warning) warnings.push(caller.warning);
    const fieldContext = {
      extractTime: opts.extractTime,
      extractLineItems: opts.extractLineItems,
      ...(opts.language ? { language: opts.language } : {}),
      ...(opts.near ? { near: opts.near } : {}),
      ...(caller.country ? { callerCountry: caller.country } : {}),
      ...(opts.ignoreMerchantName ? { ignoreMerchantName: opts.ignoreMerchantName } : {}),
      ...(this.options.ranking ? { ranking: this.options.ranking } : {}),
    };

    // the language is shown in verbose results and decides a second reading; its n-grams load while the page is read
    const wantLanguage = !!opts.verbose || !!this.options.languageReread;
    const detector = wantLanguage ? loadLanguageDetector() : undefined;
    const readWith = (languages: string[]) => readDocument(input, this.readers(), { fields: fieldContext, languages, langPath: this.options.langPath, reading: this.options.reading, confirmPasses: this.options.confirmPasses, pageBudgetMs: this.options.pageBudgetMs, rereadBudget: this.options.rereadBudget, signal, clock });
    let read = await readWith(langs.codes);
    const inScript = await this.readInScript(read, opts, langs.codes, readWith, signal);
    read = inScript.read;
    await detector;
    let language = wantLanguage ? detectLanguage(read.document.text, read.fields.country?.code) : undefined;
    const again = this.options.languageReread && !inScript.reread
      ? secondReadingLanguage({ hint: opts.language, used: langs.codes, detected: language, installed: (c) => !!findLanguageData(c, this.options.langPath) })
      : undefined;
    if (again && !signal.aborted) {
      const second = await readWith(resolveLanguages(again, this.options.langPath).codes);
      // the reading whose core fields are surer is kept
      if (rootConfidence(second.fields) > rootConfidence(read.fields)) {
        read = { ...second, warnings: [...second.warnings, `read again in ${again}, the language of the text`] };
        language = detectLanguage(read.document.text, read.fields.country?.code) ?? language;
      }
    }
    warnings.push(...read.warnings);
    const codes = opts.readCodes ? await this.codes(input, signal, warnings, clock) : undefined;
    // fiscal facts (codes/fiscal/) decide the fields they state; each disagreement with the text is a warning
    const resolved = codes ? applyFiscalFacts(read.fields, codes.facts, { extractTime: opts.extractTime }) : { fields: read.fields, warnings: [] };
    warnings.push(...resolved.warnings);
    const fields = this.options.calibrated === false ? resolved.fields : calibrateFields(resolved.fields, mapsFor(defaultCalibration(), this.options.reading));
    const x = await this.finish(input, read.document, fields, read.rotation, warnings, started, signal, fraud, clock);
    x.documentType = documentTypeOf(read.document, fields);
    if (language) x.language = language;
    return codes ? { ...x, codes: codes.codes } : x;
  }

  /**
   * A page in a script the data it was read with cannot read (read/script.ts; issue 50 item 3; found by the
   * reading after its first readings, which then stopped: issue 51 item 3): named in a
   * warning with the package that reads it, and read again with that data when it is installed and the call
   * named no language (the reading whose core fields are no less sure is kept: the first one's text is
   * noise). Not in the fast reading (its words are PaddleOCR's, whose confidences the condition was not
   * measured on). A detection that fails leaves the reading as it is, with a warning.
   */
  private async readInScript(read: DocumentReading, opts: ExtractOptions, used: readonly string[], readWith: (languages: string[]) => Promise<DocumentReading>, signal: AbortSignal): Promise<{ read: DocumentReading; reread: boolean }> {
    const note = (r: DocumentReading, warning: string) => ({ ...r, warnings: [...r.warnings, warning] });
    const script = read.script;
    if (!script || signal.aborted) return { read, reread: false };
    if ('error' in script) return { read: note(read, `the page's script was not detected: ${script.error}`), reread: false };
    const ps = script.found;
    const code = ps.languages.find((c) => findLanguageData(c, this.options.langPath));
    if (!code) return { read: note(read, scriptWarning(ps, { missing: true })), reread: false };
    if (opts.language && opts.language.trim().toLowerCase() !== 'auto') return { read: note(read, scriptWarning(ps, { hinted: used.join('+') })), reread: false };
    const languages = resolveLanguages(code, this.options.langPath).codes;
    let second: DocumentReading;
    try {
      second = await readWith(languages);
    } catch (e) {
      if (signal.aborted) throw e;
      return { read: note(read, scriptWarning(ps, { read: languages.join('+'), error: e instanceof Error ? e.message : String(e) })), reread: true };
    }
    const kept = rootConfidence(second.fields) >= rootConfidence(read.fields);
    return { read: note(kept ? second : read, scriptWarning(ps, { read: languages.join('+'), kept })), reread: true };
  }

  /** The codes on the pages and their fiscal facts (src/codes/); a failure of their own is a warning. */
  private async codes(input: LoadedInput, signal: AbortSignal, warnings: string[], clock: StageClock): Promise<CodesReading | undefined> {
    if (signal.aborted) return undefined;
    try {
      const r = await clock.time('codes', () => readPageCodes(input, { signal }));
      warnings.push(...r.warnings);
      return r;
    } catch (e) {
      warnings.push(`codes could not be read: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }

  /** The fraud checks (when asked for) and the extraction's record. */
  private async finish(input: LoadedInput, document: Document, fields: FieldResults, targetRotation: number, warnings: string[], started: number, signal: AbortSignal, fraud: boolean, clock: StageClock): Promise<Extraction> {
    let report: Awaited<ReturnType<typeof detectFraud>> | undefined;
    if (fraud && !signal.aborted) {
      try {
        report = await clock.time('fraud', () => detectFraud(input, document, fields, { signal }));
      } catch (e) {
        warnings.push(`fraud checks failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return {
      input, document, fields, targetRotation,
      warnings: [...new Set(warnings)],
      elapsed: Math.round(performance.now() - started),
      trackingId: randomUUID(),
      ...(report ?? {}),
    };
  }

  /** Resolves when no call is in flight. */
  whenIdle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Ends everything the engine started: extractions in flight are aborted (ENGINE_CLOSED; a PDF thread
   * reading for one is ended), OCR workers (running, idle or still starting) and the PaddleOCR sessions
   * end, idle PDF threads end, and the store closes. Once it resolves, nothing of the engine keeps the
   * process alive.
   */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const c of this.running) c.abort(new ReceiptKitError('ENGINE_CLOSED', 'the engine was closed during the extraction'));
    try {
      await Promise.all([this.ocr.close(), this.paddle?.close()]);
      await endIdlePdfThreads(); // after the aborted extractions let go of their PDF threads
    } finally {
      await this.store.close();
    }
  }

  // ---- store, validation, campaigns, usage ----

  /** The open store (ENGINE_CLOSED once the engine is closed). */
  openStore(): Store {
    if (this.isClosed || !this.store.open) throw new ReceiptKitError('ENGINE_CLOSED', 'the engine is closed');
    return this.store;
  }

  async validate(input: InputSource, rules: ValidationRulesInput, options?: ValidateOptionsInput): Promise<ValidationResult> {
    // the rule set is checked before anything is read
    const parsed = parseWithField(validationRulesSchema, rules, 'validation rules');
    return this.validateWith(parsed, input, options, undefined);
  }

  async usage(query?: UsageQuery): Promise<UsageSummary> {
    const q = parseWithField(usageQuerySchema, query, 'usage query');
    return this.openStore().usage(q);
  }

  /** Inline (campaignId undefined) or campaign validation with a parsed rule set. */
  private async validateWith(rules: ValidationRules, input: InputSource, options: ValidateOptionsInput | undefined, campaignId: string | undefined): Promise<ValidationResult> {
    const vopts: ValidateOptions = parseWithField(validateOptionsSchema, options, 'validate options');
    const opts: ExtractOptions = { ...vopts, verbose: false };
    const kind: EndpointKind = campaignId !== undefined ? 'campaign-validation' : 'validation';
    const scan = await this.beginScan(input, opts, kind);
    // the same bytes read with the same extraction options before: re-run the rules without OCR (unless
    // the rules ask for fraud checks the stored reading did not run)
    const fraud = !!(rules.fraudDetection?.allowTamperDetection || rules.fraudDetection?.allowDigitalDetection);
    const stored = scan.contentHash && !opts.refresh ? await this.openStore().findSubject(scan.contentHash, scan.extractionKey) : undefined;
    const typed = !rules.documentType || rules.documentType.skip || !!stored?.subject.documentType;
    const reused = stored && typed && (!fraud || (stored.subject.tamperingDetection && stored.subject.digitalDetection)) ? stored : undefined;
    let subject: ValidationSubject;
    let contentHash: string;
    let x: Extraction | undefined;
    if (reused) {
      subject = reused.subject;
      contentHash = scan.contentHash!;
    } else {
      x = await this.run(input, opts, { fraud });
      subject = subjectFromExtraction(x);
      contentHash = x.input.sha256;
    }
    const trackingId = x?.trackingId ?? randomUUID();
    const fingerprint = fingerprintOf(subject);
    // the similarity signature: computed from a fresh extraction, else the one stored with the subject
    const signature = x ? await signatureOf(x, subject) : parseSignature(reused?.similarityJson);
    const store = this.openStore();
    const similar = await findSimilarReceipts(store, {
      contentHash, fingerprint, perceptualHash: reused?.perceptualHash ?? null, signature,
      containerId: opts.containerId, referenceId: opts.referenceId, kinds: VALIDATION_KINDS,
    });
    const result = evaluateRules(subject, rules, {
      trackingId, similar, ...(opts.containerId !== undefined ? { similarityScope: `in container ${JSON.stringify(opts.containerId)}` } : {}),
    });
    if (kind === 'campaign-validation' && !opts.incognito) {
      await this.openStore().recordScan({
        ...this.scanMeta(scan, campaignId), trackingId, contentHash, fingerprint, subject, result,
        ...similarityColumns(signature, reused?.perceptualHash ?? null),
      });
    } else {
      await store.countUsage(kind, opts.subAccountId);
    }
    return result;
  }

  /** Before OCR: refresh keys, and unless `refresh`, the content hash and any stored answer. */
  private async beginScan(input: InputSource, opts: ExtractOptions, kind: EndpointKind): Promise<ScanStart> {
    const store = this.openStore();
    const keyOpts = {
      extractTime: opts.extractTime,
      extractLineItems: kind === 'simple' ? false : opts.extractLineItems,
      language: opts.language, near: opts.near, ignoreMerchantName: opts.ignoreMerchantName, ipAddress: opts.ipAddress,
      callerCountry: callerCountry(opts).country,
      detectFraud: opts.detectFraud,
      readCodes: opts.readCodes,
      enrichment: await this.enrichment.resultKey(),
    };
    const scan: ScanStart = { kind, opts, started: performance.now(), resultKey: resultKey(kind, keyOpts), extractionKey: extractionKey(keyOpts) };
    if (opts.refresh) return scan;
    let bytes: Buffer;
    try {
      bytes = (await readSource(input, this.options.limits?.maxFileBytes ?? DEFAULT_LIMITS.maxFileBytes)).bytes;
    } catch (e) {
      throw wrapUnexpected(e, 'UNREADABLE_FILE', 'the file could not be read');
    }
    scan.contentHash = createHash('sha256').update(bytes).digest('hex');
    if (kind === 'simple' || kind === 'verbose') {
      const stored = await store.findResult(scan.contentHash, scan.resultKey);
      if (stored) scan.stored = stored;
    }
    return scan;
  }

  private scanMeta(scan: ScanStart, campaignId?: string) {
    const o = scan.opts;
    return {
      endpoint: scan.kind, resultKey: scan.resultKey, extractionKey: scan.extractionKey,
      userId: o.userId, referenceId: o.referenceId, containerId: o.containerId, subAccountId: o.subAccountId, campaignId,
    };
  }

  private similarFor(scan: ScanStart, contentHash: string, fingerprint: string | null, perceptual: string | null, signature: SimilaritySignature | null): Promise<SimilarMatch[]> {
    return findSimilarReceipts(this.openStore(), {
      contentHash, fingerprint, perceptualHash: perceptual, signature, containerId: scan.opts.containerId, referenceId: scan.opts.referenceId,
    });
  }

  /** After a fresh extraction: similar receipts (verbose), then the scan stored unless incognito. */
  private async keepScan<R extends ExtractResult>(scan: ScanStart, x: Extraction, result: R, clock?: StageClock): Promise<R> {
    const subject = subjectFromExtraction(x);
    const fingerprint = fingerprintOf(subject);
    // the similarity signature is needed to look for similar receipts (verbose) and to be found later (stored)
    const t0 = performance.now();
    const signature = scan.kind === 'verbose' || !scan.opts.incognito ? await signatureOf(x, subject) : null;
    clock?.add('similarity', performance.now() - t0);
    if (clock && this.options.onStageTimes) {
      try { this.options.onStageTimes({ ...clock.times }); } catch { /* an observer's failure is not the extraction's */ }
    }
    if (scan.kind === 'verbose') (result as VerboseResult).similarReceipts = publicSimilar(await this.similarFor(scan, x.input.sha256, fingerprint, null, signature));
    if (scan.opts.incognito) {
      await this.openStore().countUsage(scan.kind, scan.opts.subAccountId);
      return result;
    }
    await this.openStore().recordScan({
      ...this.scanMeta(scan), trackingId: x.trackingId, contentHash: x.input.sha256, fingerprint, subject, result,
      ...similarityColumns(signature, null),
    });
    return result;
  }

  /** The stored result for the same bytes and options: no OCR. A verbose one gets this call's trackingId, elapsed and similar receipts. */
  private async reuseScan(scan: ScanStart): Promise<ExtractResult> {
    const stored = scan.stored!;
    const contentHash = scan.contentHash!;
    const trackingId = randomUUID();
    const fingerprint = fingerprintOf(stored.subject);
    const signature = parseSignature(stored.similarityJson);
    let result = stored.result as ExtractResult;
    if (scan.kind === 'verbose') {
      const similar = publicSimilar(await this.similarFor(scan, contentHash, fingerprint, stored.perceptualHash, signature));
      result = { ...(result as VerboseResult), similarReceipts: similar, trackingId, elapsed: Math.max(1, Math.round(performance.now() - scan.started)) };
    }
    if (scan.opts.incognito) await this.openStore().countUsage(scan.kind, scan.opts.subAccountId);
    else {
      await this.openStore().recordScan({
        ...this.scanMeta(scan), trackingId, contentHash, fingerprint, subject: stored.subject, result,
        ...similarityColumns(signature, stored.perceptualHash),
      });
    }
    return result;
  }
}

/** What the store keeps of a similarity signature: the signature, its lookup keys, and its image hash in perceptual_hash. */
function similarityColumns(signature: SimilaritySignature | null, storedHash: string | null) {
  const image = signature?.image;
  return {
    perceptualHash: image ? image.ink?.phash ?? image.text?.phash ?? null : storedHash,
    similarity: signature ? { signature, keys: signatureKeys(signature) } : null,
  };
}

/** The fraud entities of an extraction, for the verbose result. */
function fraudOf(x: Extraction): Pick<VerboseExtras, 'tamperingDetection' | 'digitalDetection' | 'handwritingDetection'> {
  const t = x.tamperingDetection, d = x.digitalDetection, h = x.handwritingDetection;
  return {
    ...(t ? { tamperingDetection: { isTampered: t.isTampered, tamperedScore: t.tamperedScore, details: Array.isArray(t.details) ? t.details : [] } } : {}),
    ...(d ? { digitalDetection: { isDigital: d.isDigital, digitalScore: d.digitalScore, details: Array.isArray(d.details) ? d.details : [] } } : {}),
    ...(h ? { handwritingDetection: { isHandwritten: h.isHandwritten, handwrittenScore: h.handwrittenScore } } : {}),
  };
}

function wrapUnexpected(e: unknown, code: 'UNREADABLE_FILE' | 'INTERNAL', message: string): ReceiptKitError {
  if (isReceiptKitError(e)) return e;
  return new ReceiptKitError(code, `${message}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}

/** Creates an engine. Options are checked first; a bad one is an INVALID_OPTION error. */
export async function createEngine(options?: EngineOptionsInput): Promise<Engine> {
  const opts = parseOrThrow(engineOptionsSchema, options, 'engine options');
  // the store first: a bad store fails before any worker exists
  const store = await openStore(opts);
  try {
    // enrichment lists given as options are checked (and stored) before any worker exists too
    let engine: ReceiptEngine | undefined;
    const enrichment = new EngineEnrichment(() => (engine ? engine.openStore() : store), opts.enrichment);
    await enrichment.init();
    engine = new ReceiptEngine(opts, store, enrichment);
    return engine;
  } catch (e) {
    await store.close();
    throw e;
  }
}
