/**
 * The tesseract.js worker pool: the only code that talks to tesseract. Workers are created lazily up to
 * `size`, reused across calls, replaced when they fail, and never keep the process alive while idle
 * (their threads are unref'd between jobs). Language data comes from local folders only.
 */
import os from 'node:os';
import { createWorker, OEM } from 'tesseract.js';
import type { Worker as TesseractWorker } from 'tesseract.js';
import { ReceiptKitError } from '../errors.js';
import type { RasterPage } from '../input/types.js';
import type { Line, Page, Word } from '../document/types.js';
import { lineFromWords } from '../document/geometry.js';
import { findLanguageData } from './languages.js';
import { prepareForOcr } from './preprocess.js';

export type Rotation = 0 | 90 | 180 | 270;

export interface OcrPoolOptions {
  /** Workers at most (default: defaultPoolSize()). */
  size?: number;
  /** Extra folder with traineddata. */
  langPath?: string;
}

export interface OcrResult {
  page: Omit<Page, 'lineIndices'> & { lines: Array<Omit<Line, 'index' | 'page'>> };
  rotation: Rotation;
  /** How sure the orientation is (0..1). */
  orientationConfidence: number;
  ms: number;
  warnings: string[];
}

export interface RecognizeOptions {
  languages?: string[];
  detectOrientation?: boolean;
  signal?: AbortSignal;
}

/**
 * One worker per core beyond the first, at least one, at most four. On the 2-vCPU machine this was
 * built on, two workers gave no more throughput than one (STACK-NOTES), so the default there is 1.
 */
export function defaultPoolSize(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(cores - 1, 4));
}

/** Below this mean word confidence the other orientations are tried. */
const ORIENTATION_RETRY_BELOW = 0.72;

interface Slot {
  worker: TesseractWorker;
  langs: string;
  busy: boolean;
  thread?: { ref(): void; unref(): void };
}

interface Job { run: (slot: Slot) => Promise<void> }

interface TessWord { text: string; confidence: number; bbox: { x0: number; y0: number; x1: number; y1: number } }
interface TessLine { text: string; confidence: number; words: TessWord[] }
interface TessBlock { paragraphs: Array<{ lines: TessLine[] }> }

export class OcrPool {
  readonly size: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private creating = 0;
  private closed = false;
  private readonly langPath: string | undefined;

  constructor(opts: OcrPoolOptions = {}) {
    this.size = opts.size ?? defaultPoolSize();
    this.langPath = opts.langPath;
  }

  /** Jobs waiting or running. */
  get pending(): number { return this.queue.length + this.slots.filter((s) => s.busy).length; }
  /** Workers created so far. */
  get workers(): number { return this.slots.length; }

  /** OCRs one page: upright detection, scaling, recognition, boxes mapped back to original pixels. */
  async recognize(page: RasterPage, opts: RecognizeOptions = {}): Promise<OcrResult> {
    if (this.closed) throw new ReceiptKitError('ENGINE_CLOSED', 'the OCR pool is closed');
    const started = performance.now();
    const langs = (opts.languages?.length ? opts.languages : ['eng']).filter((c) => findLanguageData(c, this.langPath));
    const warnings: string[] = [];
    if (!langs.length) langs.push('eng');
    let best = await this.recognizeAt(page, 0, langs, opts.signal);
    let orientationConfidence = best.quality;
    if (opts.detectOrientation !== false && best.quality < ORIENTATION_RETRY_BELOW) {
      for (const r of [90, 270, 180] as const) {
        if (opts.signal?.aborted) break;
        const alt = await this.recognizeAt(page, r, langs, opts.signal);
        if (alt.quality > best.quality + 0.05) best = alt;
      }
      orientationConfidence = best.quality;
    }
    return { page: best.page, rotation: best.rotation, orientationConfidence, ms: Math.round(performance.now() - started), warnings };
  }

  private async recognizeAt(page: RasterPage, rotation: Rotation, langs: string[], signal?: AbortSignal): Promise<{ page: OcrResult['page']; rotation: Rotation; quality: number }> {
    const prep = await prepareForOcr(page, rotation);
    if (signal?.aborted) throw new ReceiptKitError('TIMEOUT', 'OCR was aborted');
    const blocks = await this.run(langs, async (w) => {
      const r = await w.recognize(prep.png, {}, { blocks: true, text: false });
      return (r.data as unknown as { blocks: TessBlock[] | null }).blocks ?? [];
    });
    const inv = 1 / prep.scale;
    const lines: Array<Omit<Line, 'index' | 'page'>> = [];
    let confSum = 0, confN = 0;
    for (const b of blocks) for (const p of b.paragraphs) for (const l of p.lines) {
      const words: Word[] = [];
      for (const w of l.words) {
        const text = w.text.trim();
        if (!text) continue;
        words.push({ text, confidence: Math.max(0, Math.min(1, w.confidence / 100)), box: { x0: w.bbox.x0 * inv, y0: w.bbox.y0 * inv, x1: w.bbox.x1 * inv, y1: w.bbox.y1 * inv } });
        if (/[A-Za-z0-9]{2,}/.test(text)) { confSum += w.confidence / 100; confN++; }
      }
      if (words.length) lines.push(lineFromWords(words));
    }
    const quality = confN ? confSum / confN : 0;
    return {
      rotation,
      quality: quality * Math.min(1, confN / 8), // a handful of words is weak evidence of orientation
      page: {
        index: 0, source: 'ocr', width: prep.width, height: prep.height,
        originalWidth: page.width, originalHeight: page.height, rotation, lines,
      },
    };
  }

  /** Runs a job on a worker with the given languages (FIFO). */
  private run<T>(langs: string[], fn: (w: TesseractWorker) => Promise<T>): Promise<T> {
    const key = langs.join('+');
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        run: async (slot) => {
          try {
            if (slot.langs !== key) {
              await slot.worker.reinitialize(key, OEM.LSTM_ONLY, await this.workerOptions(langs));
              await slot.worker.setParameters({ tessedit_pageseg_mode: '6' as never, preserve_interword_spaces: '1' });
              slot.langs = key;
            }
            resolve(await fn(slot.worker));
          } catch (e) {
            reject(this.closed
              ? new ReceiptKitError('ENGINE_CLOSED', 'the OCR pool was closed')
              : new ReceiptKitError('UNREADABLE_FILE', `OCR failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e }));
            throw e; // the slot is replaced
          }
        },
      });
      this.pump(key, langs);
    });
  }

  private async workerOptions(langs: string[]): Promise<Record<string, unknown>> {
    const data = findLanguageData(langs[0]!, this.langPath);
    if (!data) throw new ReceiptKitError('INVALID_OPTION', `no OCR data for ${langs[0]}`);
    // all languages of one worker must come from one folder: use the first that has them all
    const dirs = langs.map((c) => findLanguageData(c, this.langPath));
    const dir = dirs.every((d) => d && d.dir === data.dir) ? data.dir : data.dir;
    return { langPath: dir, gzip: data.gzip, cacheMethod: 'none' };
  }

  private pump(key: string, langs: string[]): void {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.busy && s.langs === key) ?? this.slots.find((s) => !s.busy);
      if (!slot) {
        if (this.slots.length + this.creating < this.size) {
          this.creating++;
          this.spawn(langs).then((s) => { this.creating--; this.slots.push(s); this.pump(key, langs); }, (e) => {
            this.creating--;
            const job = this.queue.shift();
            if (job) job.run({ busy: true, langs: '', worker: { recognize: () => Promise.reject(e) } as never }).catch(() => undefined);
            this.pump(key, langs);
          });
        }
        return;
      }
      const job = this.queue.shift()!;
      const s = slot;
      s.busy = true;
      s.thread?.ref();
      job.run(s).then(() => {
        s.busy = false;
        s.thread?.unref();
        this.pump(key, langs);
      }, () => {
        // a worker that threw is not trusted again
        this.slots.splice(this.slots.indexOf(s), 1);
        s.worker.terminate().catch(() => undefined);
        this.pump(key, langs);
      });
    }
  }

  private async spawn(langs: string[]): Promise<Slot> {
    if (this.closed) throw new ReceiptKitError('ENGINE_CLOSED', 'the OCR pool is closed');
    const key = langs.join('+');
    const opts = await this.workerOptions(langs);
    let slot: Slot | undefined;
    const worker = await createWorker(key, OEM.LSTM_ONLY, {
      ...opts,
      errorHandler: () => { /* job promises reject on their own; never throw from the message handler */ },
    } as never);
    await worker.setParameters({ tessedit_pageseg_mode: '6' as never, preserve_interword_spaces: '1' });
    const thread = (worker as unknown as { worker?: { ref(): void; unref(): void } }).worker;
    slot = { worker, langs: key, busy: false, ...(thread ? { thread } : {}) };
    thread?.unref();
    if (this.closed) { await worker.terminate().catch(() => undefined); throw new ReceiptKitError('ENGINE_CLOSED', 'the OCR pool is closed'); }
    return slot;
  }

  /** Terminates every worker; waiting jobs fail with ENGINE_CLOSED. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      job.run({ busy: true, langs: '', worker: { recognize: () => Promise.reject(new Error('closed')), reinitialize: () => Promise.reject(new Error('closed')) } as never }).catch(() => undefined);
    }
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate().catch(() => undefined)));
  }
}
