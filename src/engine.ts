/**
 * The engine wires the stages: input -> pages -> ocr -> document -> fields -> response.
 * It owns the OCR worker pool (and, later, the store and enrichment data) and is reused across calls.
 */
import { randomUUID } from 'node:crypto';
import { extractOptionsSchema, engineOptionsSchema, parseOrThrow } from './contract/options.js';
import type { EngineOptions, EngineOptionsInput, ExtractOptions, ExtractOptionsInput } from './contract/options.js';
import type { ExtractResult, SimpleResult, VerboseResult } from './contract/results.js';
import { ReceiptKitError, isReceiptKitError } from './errors.js';
import { loadInput } from './input/index.js';
import type { InputSource, LoadedInput } from './input/types.js';
import { DEFAULT_LIMITS } from './input/types.js';
import { OcrPool } from './ocr/pool.js';
import { resolveLanguages } from './ocr/languages.js';
import { pageFromText } from './document/layout.js';
import { buildDocument } from './document/geometry.js';
import type { Document } from './document/types.js';
import { extractFields } from './fields/index.js';
import type { FieldResults } from './fields/types.js';
import { buildSimple, buildVerbose } from './response/build.js';

/** Everything one extraction produced, before it is shaped into a result (used by validation). */
export interface Extraction {
  input: LoadedInput;
  document: Document;
  fields: FieldResults;
  targetRotation: number;
  warnings: string[];
  elapsed: number;
  trackingId: string;
}

export interface Engine {
  /** Extracts the simple (default) or verbose result of contract section 3. */
  extract(input: InputSource, options: ExtractOptionsInput & { verbose: true }): Promise<VerboseResult>;
  extract(input: InputSource, options?: ExtractOptionsInput & { verbose?: false }): Promise<SimpleResult>;
  extract(input: InputSource, options?: ExtractOptionsInput): Promise<ExtractResult>;
  /** The pipeline without the response shaping: document, located fields, metadata. */
  analyze(input: InputSource, options?: ExtractOptionsInput): Promise<Extraction>;
  /** Calls accepted and not yet finished. */
  readonly pending: number;
  readonly closed: boolean;
  /** Terminates the OCR workers; later calls reject with ENGINE_CLOSED. Idempotent. */
  close(): Promise<void>;
}

class ReceiptEngine implements Engine {
  private readonly ocr: OcrPool;
  private inFlight = 0;
  private isClosed = false;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(private readonly options: EngineOptions) {
    this.ocr = new OcrPool({ ...(options.workers ? { size: options.workers } : {}), ...(options.langPath ? { langPath: options.langPath } : {}) });
  }

  get pending(): number { return this.inFlight; }
  get closed(): boolean { return this.isClosed; }

  async extract(input: InputSource, options?: ExtractOptionsInput): Promise<any> {
    const opts = parseOrThrow(extractOptionsSchema, options, 'extract options');
    // a simple result has no line items: skip that work
    const x = await this.run(input, opts.verbose ? opts : { ...opts, extractLineItems: false });
    if (!opts.verbose) return buildSimple(x.fields);
    return buildVerbose(x.document, x.fields, {
      targetRotation: x.targetRotation,
      pages: x.input.pageCount,
      elapsed: x.elapsed,
      trackingId: x.trackingId,
      warnings: x.warnings,
    });
  }

  async analyze(input: InputSource, options?: ExtractOptionsInput): Promise<Extraction> {
    return this.run(input, parseOrThrow(extractOptionsSchema, options, 'extract options'));
  }

  private async run(input: InputSource, opts: ExtractOptions): Promise<Extraction> {
    if (this.isClosed) throw new ReceiptKitError('ENGINE_CLOSED', 'the engine is closed');
    const maxQueue = this.options.maxQueue ?? 1000;
    if (this.inFlight >= maxQueue) throw new ReceiptKitError('OVERLOADED', `too many extractions waiting (${this.inFlight}); try again later`);
    this.inFlight++;
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    try {
      const work = this.pipeline(input, opts, controller.signal);
      if (!timeoutMs) return await work;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new ReceiptKitError('TIMEOUT', `extraction took longer than ${timeoutMs} ms`));
        }, timeoutMs);
      });
      work.catch(() => undefined); // the timeout may win; do not leave a rejection unhandled
      return await Promise.race([work, timeout]);
    } finally {
      if (timer) clearTimeout(timer);
      this.inFlight--;
      if (this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  private async pipeline(source: InputSource, opts: ExtractOptions, signal: AbortSignal): Promise<Extraction> {
    const started = performance.now();
    const warnings: string[] = [];
    const limits = { ...DEFAULT_LIMITS, ...(this.options.limits ?? {}) };
    let input: LoadedInput;
    try {
      input = await loadInput(source, {
        limits,
        ...(opts.contentType ? { contentType: opts.contentType } : {}),
        ...(opts.filename ? { filename: opts.filename } : {}),
        signal,
      });
    } catch (e) {
      throw wrapUnexpected(e, 'UNREADABLE_FILE', 'the file could not be read');
    }
    if (input.warnings) warnings.push(...input.warnings);

    const langs = resolveLanguages(opts.language, this.options.langPath);
    warnings.push(...langs.warnings);

    const pages: Parameters<typeof buildDocument>[0] = [];
    let targetRotation = 0;
    for (const page of input.pages) {
      if (signal.aborted) throw new ReceiptKitError('TIMEOUT', 'extraction was aborted');
      if (page.kind === 'text') {
        pages.push(pageFromText(page));
      } else {
        let r;
        try {
          r = await this.ocr.recognize(page, { languages: langs.codes, detectOrientation: true, signal });
        } catch (e) {
          throw wrapUnexpected(e, 'UNREADABLE_FILE', `OCR failed on page ${page.index + 1}`);
        }
        warnings.push(...r.warnings);
        if (page.index === 0 || pages.length === 0) targetRotation = r.rotation;
        pages.push({ ...r.page, index: page.index });
      }
    }
    const document = buildDocument(pages);
    const fields = extractFields(document, {
      extractTime: opts.extractTime,
      extractLineItems: opts.extractLineItems,
      ...(opts.language ? { language: opts.language } : {}),
      ...(opts.near ? { near: opts.near } : {}),
      ...(opts.ignoreMerchantName ? { ignoreMerchantName: opts.ignoreMerchantName } : {}),
    });
    warnings.push(...fields.warnings);
    return {
      input, document, fields, targetRotation,
      warnings: [...new Set(warnings)],
      elapsed: Math.round(performance.now() - started),
      trackingId: randomUUID(),
    };
  }

  /** Resolves when no call is in flight. */
  whenIdle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    await this.ocr.close();
  }
}

function wrapUnexpected(e: unknown, code: 'UNREADABLE_FILE' | 'INTERNAL', message: string): ReceiptKitError {
  if (isReceiptKitError(e)) return e;
  return new ReceiptKitError(code, `${message}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}

/** Creates an engine. Options are checked first; a bad one is an INVALID_OPTION error. */
export async function createEngine(options?: EngineOptionsInput): Promise<Engine> {
  const opts = parseOrThrow(engineOptionsSchema, options, 'engine options');
  return new ReceiptEngine(opts);
}
