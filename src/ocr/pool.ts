/**
 * Tesseract as a reader: a PageReader and a LineReader (reader.ts) over a set of tesseract.js workers
 * (workers.ts: their lifecycle, languages and limits). It reads the grey images it is given, whole or in
 * regions, and nothing else: what to read and how to weigh it (the orientation search of a whole page,
 * line re-reads of a page) is the reading strategy's, in read/ (read/whole-page.ts).
 *
 * It also keeps the working image of each page per scaling (`working`), decoded once per page object
 * (preprocess.ts), so the passes of one extraction share it.
 *
 * Measurements behind the choices: bench/OCR.md.
 */
import sharp from 'sharp';
import { ReceiptKitError } from '../errors.js';
import type { RasterPage } from '../input/types.js';
import type { Box } from '../document/types.js';
import { resolveLanguages } from './languages.js';
import type { ResolvedLanguages } from './languages.js';
import { DEFAULT_SCALING, cropGray, encodePgm, faintInkCopy, firstChannel, loadWorkingImage } from './preprocess.js';
import type { GrayImage, OcrScaling, WorkingImage } from './preprocess.js';
import type { LineReader, PageReader, PageReading, ReadOptions, ReadWord, RegionReadOptions } from './reader.js';
import { TesseractWorkers, WORKER_MAX_CALLS, defaultPoolSize } from './workers.js';
import type { Recognize } from './workers.js';
import { OSD_DATA, scriptDetectionInstalled, toScriptDetection } from './script.js';
import type { ScriptDetection } from './script.js';

export { WORKER_MAX_CALLS, defaultPoolSize, withNewThread } from './workers.js';

export interface OcrPoolOptions {
  /** Workers at most (default: defaultPoolSize()). */
  size?: number;
  /** Extra folder searched first for `<code>.traineddata(.gz)`. */
  langPath?: string;
  /** Languages used when a call names none (default English). */
  defaultLanguages?: string[];
  /** Image scaling policy (default DEFAULT_SCALING). */
  scaling?: Partial<OcrScaling>;
  /** Tesseract page segmentation mode (default 6, one uniform block: keeps receipt price columns). */
  psm?: number;
  /** Calls a worker serves before it is retired and replaced when next needed (default WORKER_MAX_CALLS). */
  maxCallsPerWorker?: number;
}

/** Recognize parameters passed on every call (set per call, restored after it by tesseract.js). */
function recognizeParams(psm: number): Record<string, string> {
  return { tessedit_pageseg_mode: String(psm), debug_file: '/dev/null' };
}

/** readRegions gives a worker of its own to every this many regions (a region or two are not worth a second worker's start). */
const MIN_REGIONS_PER_WORKER = 2;

/** `items` in at most `parts` contiguous runs of nearly equal length, in order. */
export function shareOut<T>(items: readonly T[], parts: number): T[][] {
  const n = Math.max(1, Math.min(parts, items.length));
  const runs: T[][] = [];
  for (let i = 0, start = 0; i < n; i++) {
    const end = start + Math.floor(items.length / n) + (i < items.length % n ? 1 : 0);
    runs.push(items.slice(start, end));
    start = end;
  }
  return runs;
}

/** A line read again (readRegions, 'line' mode) is scaled to at most this width. */
const REREAD_MAX_WIDTH = 5000;

/** A word as tesseract returns it (confidence 0..100), and as the pool keeps it (0..1). */
export interface TessWord { text: string; confidence: number; bbox: Box }
interface TessBlock { paragraphs: Array<{ lines: Array<{ words: TessWord[] }> }> }

function abortError(): ReceiptKitError {
  return new ReceiptKitError('TIMEOUT', 'OCR was aborted');
}
function closedError(): ReceiptKitError {
  return new ReceiptKitError('ENGINE_CLOSED', 'the OCR pool is closed');
}

export class OcrPool implements PageReader, LineReader {
  readonly name = 'tesseract';
  readonly size: number;
  private readonly langPath: string | undefined;
  private readonly defaultLanguages: string[] | undefined;
  /** The pool's scaling policy (OcrPoolOptions.scaling over DEFAULT_SCALING): the working image of a whole-page reading. */
  readonly scaling: OcrScaling;
  private readonly workCache = new WeakMap<object, Map<string, Promise<WorkingImage>>>();
  private readonly faintPages = new WeakSet<object>();
  private readonly psm: number;
  private readonly threads: TesseractWorkers;
  /** The one legacy-engine worker of script detection (detectScript), made on first use. */
  private osd: TesseractWorkers | undefined;
  private readonly maxCalls: number;
  private inFlight = 0;

  constructor(opts: OcrPoolOptions = {}) {
    const size = opts.size ?? defaultPoolSize();
    if (!Number.isInteger(size) || size < 1) throw new ReceiptKitError('INVALID_OPTION', 'size must be a positive integer', { field: 'size' });
    const psm = opts.psm ?? 6;
    if (!Number.isInteger(psm) || psm < 0 || psm > 13) throw new ReceiptKitError('INVALID_OPTION', 'psm must be 0..13', { field: 'psm' });
    this.size = size;
    this.psm = psm;
    this.langPath = opts.langPath;
    this.defaultLanguages = opts.defaultLanguages;
    this.scaling = { ...DEFAULT_SCALING, ...(opts.scaling ?? {}) };
    this.maxCalls = opts.maxCallsPerWorker ?? WORKER_MAX_CALLS;
    this.threads = new TesseractWorkers(size, opts.langPath, this.maxCalls);
  }

  /** Reading calls accepted and not yet settled (waiting for a worker or running). */
  get pending(): number { return this.inFlight; }
  /** Workers alive now. */
  get workers(): number { return this.threads.alive; }
  /** Workers created since the pool was made (replacements included). */
  get workersCreated(): number { return this.threads.createdCount; }
  get isClosed(): boolean { return this.threads.isClosed; }

  /**
   * The working image of a page under a scaling, decoded once per page object: the first reading, line
   * re-readings and confirming passes of one extraction share it (the photo treatment alone costs
   * ~250 ms a page). Held weakly by the page's image buffer, so it goes when the input does. A page
   * marked faint (markFaint) gets its faint-ink copy (preprocess.ts faintInkCopy) in every later one.
   */
  working(page: RasterPage, scaling: OcrScaling, enhance: boolean): Promise<WorkingImage> {
    const faint = this.faintPages.has(page.image);
    const key = `${scaling.maxLongSide}/${scaling.minLongSide}/${scaling.maxUpscale}/${enhance ? 1 : 0}/${faint ? 1 : 0}`;
    let byKey = this.workCache.get(page.image);
    if (!byKey) { byKey = new Map(); this.workCache.set(page.image, byKey); }
    let p = byKey.get(key);
    if (!p) {
      const map = byKey;
      p = loadWorkingImage(page, scaling, enhance).then(async (w) => (faint ? (await faintInkCopy(w)) ?? w : w));
      map.set(key, p);
      p.catch(() => map.delete(key));
    }
    return p;
  }

  /** Every later working image of this page is its faint-ink copy: the plain one read as next to no words and the copy read more. */
  markFaint(page: RasterPage): void { this.faintPages.add(page.image); }
  /** The page was marked faint (markFaint). */
  isFaint(page: RasterPage): boolean { return this.faintPages.has(page.image); }

  /** The tesseract codes of language hints (default: the pool's `defaultLanguages`, else English), and why a hint was dropped. */
  languages(hints?: string[]): ResolvedLanguages {
    return resolveLanguages(hints ?? this.defaultLanguages, this.langPath);
  }

  /**
   * Starts a worker when the pool has none (running or starting), so the first page does not wait for
   * its start (1-2 s: the WASM module and the language data load in the worker's own thread, in
   * parallel with what the caller does meanwhile). A failure is left to the page that needs a worker.
   */
  warm(languages?: string[]): void {
    let codes: string[];
    try {
      codes = this.languages(languages).codes;
    } catch {
      return; // languages that are not installed: the page's own call reports it
    }
    this.threads.warm(codes);
  }

  /** PageReader: an upright grey image read as one block (the pool's page segmentation mode). */
  async readPage(img: GrayImage, opts: ReadOptions = {}): Promise<PageReading> {
    if (this.isClosed) throw closedError();
    if (opts.signal?.aborted) throw abortError();
    this.inFlight++;
    try {
      const langs = this.languages(opts.languages);
      return await this.threads.withWorker(langs.codes, opts.signal, async (recognize) => {
        const lines = await this.ocr(recognize, img);
        return { lines: lines.map((l) => l.map((w) => ({ text: w.text, confidence: w.confidence, box: w.bbox }))), grouped: true };
      });
    } finally {
      this.inFlight--;
    }
  }

  /**
   * LineReader: regions of an upright grey image read again. 'line' regions are read in single-line mode,
   * each scaled so that the line is each of `heights` pixels tall (default REREAD_HEIGHTS' middle, 48),
   * normalised: independent second opinions on a field's text; a line too small or too long gives fewer
   * (or no) readings. 'block' regions are read as cropped, as a block.
   * The regions are shared out, in order, over up to `size` workers at once (contiguous runs, the answer in
   * the regions' order): each region's reading is its own, whichever worker reads it, so the result is the
   * same with one worker or four, and a page's second looks take a fraction of the time on several cores.
   */
  async readRegions(img: GrayImage, regions: readonly Box[], opts: RegionReadOptions = {}): Promise<ReadWord[][][]> {
    if (this.isClosed) throw closedError();
    if (opts.signal?.aborted) throw abortError();
    this.inFlight++;
    try {
      const langs = this.languages(opts.languages);
      const heights = opts.heights ?? [48];
      const runs = shareOut(regions, Math.min(this.size, Math.ceil(regions.length / MIN_REGIONS_PER_WORKER)));
      const done = await Promise.all(runs.map((run) => this.threads.withWorker(langs.codes, opts.signal, async (recognize) => {
        const all: ReadWord[][][] = [];
        for (const box of run) all.push(await this.readRegion(recognize, img, box, opts.mode, heights));
        return all;
      })));
      return done.flat();
    } finally {
      this.inFlight--;
    }
  }

  /** One region of readRegions on one worker: its readings (one per height in 'line' mode). */
  private async readRegion(recognize: Recognize, img: GrayImage, box: Box, mode: RegionReadOptions['mode'], heights: readonly number[]): Promise<ReadWord[][]> {
    const out: ReadWord[][] = [];
    if (mode === 'block') {
      const left = Math.max(0, Math.round(box.x0)), top = Math.max(0, Math.round(box.y0));
      if (box.x1 - left < 8 || box.y1 - top < 8) return out;
      const crop = cropGray(img, left, top, box.x1 - left, box.y1 - top);
      const words = (await this.ocr(recognize, crop)).flat();
      out.push(words.map((w) => ({ text: w.text, confidence: w.confidence, box: { x0: left + w.bbox.x0, y0: top + w.bbox.y0, x1: left + w.bbox.x1, y1: top + w.bbox.y1 } })));
      return out;
    }
    const lineH = box.y1 - box.y0;
    if (!(lineH >= 6)) return out;
    const margin = lineH * 0.35;
    const left = Math.max(0, Math.round(box.x0 - margin)), top = Math.max(0, Math.round(box.y0 - margin));
    const crop = cropGray(img, left, top, box.x1 - box.x0 + 2 * margin, lineH + 2 * margin);
    for (const target of heights) {
      const k = target / lineH;
      const width = Math.round(crop.width * k), height = Math.round(crop.height * k);
      if (width < 8 || height < 8 || width > REREAD_MAX_WIDTH) continue;
      const { data, info } = await sharp(crop.gray, { raw: { width: crop.width, height: crop.height, channels: 1 } })
        .resize({ width, height, fit: 'fill', kernel: k > 1 ? 'cubic' : 'lanczos3' })
        .normalise()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const words = (await this.ocr(recognize, firstChannel(data, info), 7)).flat();
      out.push(words.map((w) => ({
        text: w.text, confidence: w.confidence,
        box: { x0: left + w.bbox.x0 / k, y0: top + w.bbox.y0 / k, x1: left + w.bbox.x1 / k, y1: top + w.bbox.y1 / k },
      })));
    }
    return out;
  }

  /**
   * The script of an upright grey page image by tesseract's orientation and script detection (ocr/script.ts),
   * on a legacy-engine worker of its own: one, started on the first call (with the OSD data; about 0.3 s)
   * and ended with the others. Undefined when the OSD data is not installed or OSD finds no script.
   */
  async detectScript(img: GrayImage, opts: { signal?: AbortSignal } = {}): Promise<ScriptDetection | undefined> {
    if (this.isClosed) throw closedError();
    if (opts.signal?.aborted) throw abortError();
    if (!scriptDetectionInstalled(this.langPath)) return undefined;
    this.osd ??= new TesseractWorkers(1, this.langPath, this.maxCalls, 'legacy');
    this.inFlight++;
    try {
      return await this.osd.withWorker([OSD_DATA], opts.signal, async (_recognize, detect) => toScriptDetection((await detect(encodePgm(img))).data));
    } finally {
      this.inFlight--;
    }
  }

  /**
   * Terminates every worker, those still starting included (the script detection's too), and resolves
   * once their threads have ended; waiting and running calls reject with ENGINE_CLOSED. Idempotent.
   */
  async close(): Promise<void> {
    await Promise.all([this.threads.close(), this.osd?.close()]);
  }

  private async ocr(recognize: Recognize, img: GrayImage, psm = this.psm): Promise<TessWord[][]> {
    const result = await recognize(encodePgm(img), recognizeParams(psm), { blocks: true, text: false });
    const blocks = (result.data as unknown as { blocks: TessBlock[] | null }).blocks ?? [];
    const lines: TessWord[][] = [];
    for (const b of blocks) for (const p of b.paragraphs) for (const l of p.lines) {
      const words = l.words
        .filter((w) => w.text.trim().length > 0)
        .map((w) => ({ text: w.text.trim(), confidence: Math.max(0, Math.min(1, w.confidence / 100)), bbox: w.bbox }));
      if (words.length) lines.push(words);
    }
    return lines;
  }
}
