/**
 * The tesseract.js worker pool: the only code that talks to tesseract.
 *
 * - It is a PageReader and a LineReader (reader.ts): it reads grey images it is given, whole or in
 *   regions. What to read and how to weigh it (the orientation search of a whole page, line re-reads) is
 *   the reading strategy's, in read/ (read/whole-page.ts).
 * - Workers are created lazily, up to `size`, and reused; each call takes one worker, and waiting calls
 *   are served first come, first served.
 * - Language data comes from local folders only (see languages.ts): every worker reads from one private
 *   folder under the OS temp directory holding symlinks to the installed traineddata files, so that one
 *   worker can load languages that live in different packages (tesseract.js takes a single `langPath`).
 *   `cacheMethod: 'none'` keeps tesseract.js from writing traineddata into the working directory; its
 *   worker script and WebAssembly core are loaded from node_modules. No network is ever attempted.
 * - A worker whose call fails, whose thread dies, or that is interrupted by an abort is terminated and
 *   replaced on the next page, never reused.
 * - Idle workers do not keep the process alive (their threads are unref'd between pages), nor does a
 *   worker still starting that no page waits for (a warm-up).
 * - `close()` ends every thread: idle and busy workers, and workers still starting (tesseract.js keeps
 *   a starting worker's thread to itself, and leaves it running when a language fails to load: the
 *   pool finds it through Node's 'worker' event, see `withNewThread`).
 *
 * Measurements behind the choices: bench/OCR.md.
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import type { Worker as NodeWorker } from 'node:worker_threads';
import sharp from 'sharp';
import { createWorker, OEM } from 'tesseract.js';
import type { Worker as TesseractWorker } from 'tesseract.js';
import { ReceiptKitError } from '../errors.js';
import type { RasterPage } from '../input/types.js';
import type { Box } from '../document/types.js';
import { findLanguageData, resolveLanguages } from './languages.js';
import type { ResolvedLanguages } from './languages.js';
import { DEFAULT_SCALING, cropGray, encodePgm, firstChannel, loadWorkingImage } from './preprocess.js';
import type { GrayImage, OcrScaling, WorkingImage } from './preprocess.js';
import type { LineReader, PageReader, PageReading, ReadOptions, ReadWord, RegionReadOptions } from './reader.js';

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

/**
 * Calls (pages, line re-reads) a worker serves before it is retired: its WebAssembly memory grows to
 * the largest page it has read and never shrinks. About 150-300 pages; a new worker starts in 1-2 s.
 */
export const WORKER_MAX_CALLS = 1000;

/**
 * Workers by default: one per core (`os.availableParallelism()`), at most four (each holds 70-100 MB).
 * Measured with bench/ocr-pool-size.mjs on the 2-vCPU machine this was built on (12 corpus pages,
 * all submitted at once, orientation on): 2 workers gave 2.05x the pages per second of one, 3 workers
 * 1.88x. The main thread's share (decoding, orientation geometry) is small next to OCR, so no core is
 * held back for it. A single page always runs on one worker, so more workers never slow one call down.
 */
export function defaultPoolSize(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(cores, 4));
}

/** Recognize parameters passed on every call (set per call, restored after it by tesseract.js). */
function recognizeParams(psm: number): Record<string, string> {
  return { tessedit_pageseg_mode: String(psm), debug_file: '/dev/null' };
}

/** ... and a scaled line at most this wide. */
const REREAD_MAX_WIDTH = 5000;

/** Init-time config: silences tesseract's diagnostics (they would go to stderr). */
const INIT_CONFIG = { debug_file: '/dev/null' } as const;

interface Slot {
  id: number;
  worker: TesseractWorker;
  thread: { ref(): void; unref(): void; on(ev: string, fn: (...a: unknown[]) => void): void } | undefined;
  /** `+`-joined tesseract codes currently initialised. */
  langs: string;
  busy: boolean;
  dead: boolean;
  /** A tesseract call on it failed: it is replaced, not reused. */
  failed: boolean;
  /** Calls it has served (pages, line re-reads); at WORKER_MAX_CALLS it is retired. */
  calls: number;
  /** Rejects the call in flight on this worker (set while one runs). */
  interrupt?: (e: unknown) => void;
}

interface Waiter {
  langs: string;
  resolve: (slot: Slot) => void;
  reject: (e: unknown) => void;
  onAbort?: () => void;
  signal?: AbortSignal;
}

/** A worker being started: its thread (known a tick after the start began) and how to fail the start. */
interface Starting {
  thread: Promise<NodeWorker | undefined>;
  /** The thread, once known. */
  known?: NodeWorker | undefined;
  fail(e: unknown): void;
}

/**
 * Runs `start`, which creates one worker thread synchronously (tesseract.js's createWorker does, before
 * its first await), and finds that thread: Node announces every new thread with the process's 'worker'
 * event on the next tick; the thread created by `start` is the newest (highest threadId) of those
 * announced before a tick queued after `start` returned. Undefined when `start` created none.
 */
export function withNewThread<T>(start: () => T): { value: T; thread: Promise<NodeWorker | undefined> } {
  const seen: NodeWorker[] = [];
  const onWorker = (w: NodeWorker): void => { seen.push(w); };
  process.on('worker', onWorker);
  let value: T;
  try {
    value = start();
  } catch (e) {
    process.off('worker', onWorker);
    throw e;
  }
  const thread = new Promise<NodeWorker | undefined>((resolve) => process.nextTick(() => {
    process.off('worker', onWorker);
    resolve(seen.reduce<NodeWorker | undefined>((a, w) => (!a || w.threadId > a.threadId ? w : a), undefined));
  }));
  return { value, thread };
}

/** Ends a thread and waits for it to be gone (nothing when there is none or it has ended). */
async function endThread(thread: NodeWorker | undefined): Promise<void> {
  if (!thread) return;
  try { await thread.terminate(); } catch { /* already gone */ }
}

/** A word as tesseract returns it (confidence 0..100), and as the pool keeps it (0..1). */
export interface TessWord { text: string; confidence: number; bbox: Box }
interface TessBlock { paragraphs: Array<{ lines: Array<{ words: TessWord[] }> }> }

/** Temp folders of live pools, removed at exit if a pool was never closed. */
const liveFolders = new Set<string>();
let exitHookInstalled = false;
const FOLDER_PREFIX = 'receiptkit-tessdata-';
function removeFolder(dir: string): void {
  try { fs.rmSync(dir, { recursive: true, force: true }); } catch { /* best effort */ }
  liveFolders.delete(dir);
}

/**
 * Removes language folders left by processes that were killed before their exit hook ran (the folder
 * name carries the creating process id). Only folders of this user whose process is gone are touched.
 */
function sweepStaleFolders(): void {
  const tmp = os.tmpdir();
  let names: string[] = [];
  try { names = fs.readdirSync(tmp); } catch { return; }
  for (const name of names) {
    const m = new RegExp(`^${FOLDER_PREFIX}(\\d+)-`).exec(name);
    if (!m || Number(m[1]) === process.pid) continue;
    try {
      process.kill(Number(m[1]), 0);
      continue; // still running
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ESRCH') continue; // alive but not ours to signal
    }
    const dir = path.join(tmp, name);
    try {
      const st = fs.lstatSync(dir);
      if (!st.isDirectory() || (typeof process.getuid === 'function' && st.uid !== process.getuid())) continue;
      fs.rmSync(dir, { recursive: true, force: true });
    } catch { /* raced with another process, or not ours */ }
  }
}

function abortError(): ReceiptKitError {
  return new ReceiptKitError('TIMEOUT', 'OCR was aborted');
}
function closedError(): ReceiptKitError {
  return new ReceiptKitError('ENGINE_CLOSED', 'the OCR pool is closed');
}
function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

let slotIds = 0;

export class OcrPool implements PageReader, LineReader {
  readonly name = 'tesseract';
  readonly size: number;
  private readonly langPath: string | undefined;
  private readonly defaultLanguages: string[] | undefined;
  /** The pool's scaling policy (OcrPoolOptions.scaling over DEFAULT_SCALING): the working image of a whole-page reading. */
  readonly scaling: OcrScaling;
  private readonly workCache = new WeakMap<object, Map<string, Promise<WorkingImage>>>();
  private readonly psm: number;
  private readonly slots: Slot[] = [];
  private readonly waiters: Waiter[] = [];
  /** Workers being started, and the starts themselves (settled once the worker joined or its thread ended). */
  private readonly starting = new Set<Starting>();
  private readonly spawning = new Set<Promise<unknown>>();
  /** Threads being ended (a discarded worker), awaited by close(). */
  private readonly ending = new Set<Promise<void>>();
  private creating = 0;
  private created = 0;
  private inFlight = 0;
  private closed = false;
  private folder: string | undefined;
  private readonly linked = new Set<string>();
  private readonly maxCalls: number;

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
  }

  /** Reading calls accepted and not yet settled (waiting for a worker or running). */
  get pending(): number { return this.inFlight; }
  /** Workers alive now. */
  get workers(): number { return this.slots.length; }
  /** Workers created since the pool was made (replacements included). */
  get workersCreated(): number { return this.created; }
  get isClosed(): boolean { return this.closed; }

  /**
   * The working image of a page under a scaling, decoded once per page object: the first reading, line
   * re-readings and confirming passes of one extraction share it (the photo treatment alone costs
   * ~250 ms a page). Held weakly by the page's image buffer, so it goes when the input does.
   */
  working(page: RasterPage, scaling: OcrScaling, enhance: boolean): Promise<WorkingImage> {
    const key = `${scaling.maxLongSide}/${scaling.minLongSide}/${scaling.maxUpscale}/${enhance ? 1 : 0}`;
    let byKey = this.workCache.get(page.image);
    if (!byKey) { byKey = new Map(); this.workCache.set(page.image, byKey); }
    let p = byKey.get(key);
    if (!p) {
      const map = byKey;
      p = loadWorkingImage(page, scaling, enhance);
      map.set(key, p);
      p.catch(() => map.delete(key));
    }
    return p;
  }

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
    if (this.closed || this.slots.length || this.creating) return;
    let codes: string[];
    try {
      codes = resolveLanguages(languages ?? this.defaultLanguages, this.langPath).codes;
    } catch {
      return; // languages that are not installed: the page's own call reports it
    }
    this.grow(codes, () => undefined);
  }

  /** PageReader: an upright grey image read as one block (the pool's page segmentation mode). */
  async readPage(img: GrayImage, opts: ReadOptions = {}): Promise<PageReading> {
    if (this.closed) throw closedError();
    if (opts.signal?.aborted) throw abortError();
    this.inFlight++;
    try {
      const langs = resolveLanguages(opts.languages ?? this.defaultLanguages, this.langPath);
      const slot = await this.acquire(langs.codes, opts.signal);
      try {
        await this.useLanguages(slot, langs.codes, opts.signal);
        const lines = await this.ocr(slot, img, opts.signal);
        return { lines: lines.map((l) => l.map((w) => ({ text: w.text, confidence: w.confidence, box: w.bbox }))), grouped: true };
      } finally {
        if (slot.failed) this.discard(slot);
        this.release(slot);
      }
    } finally {
      this.inFlight--;
    }
  }

  /**
   * LineReader: regions of an upright grey image read again on one worker. 'line' regions are read in
   * single-line mode, each scaled so that the line is each of `heights` pixels tall (default
   * REREAD_HEIGHTS' middle, 48), normalised: independent second opinions on a field's text; a line too
   * small or too long gives fewer (or no) readings. 'block' regions are read as cropped, as a block.
   */
  async readRegions(img: GrayImage, regions: readonly Box[], opts: RegionReadOptions = {}): Promise<ReadWord[][][]> {
    if (this.closed) throw closedError();
    if (opts.signal?.aborted) throw abortError();
    this.inFlight++;
    try {
      const langs = resolveLanguages(opts.languages ?? this.defaultLanguages, this.langPath);
      const heights = opts.heights ?? [48];
      const slot = await this.acquire(langs.codes, opts.signal);
      const all: ReadWord[][][] = [];
      try {
        await this.useLanguages(slot, langs.codes, opts.signal);
        for (const box of regions) {
          const out: ReadWord[][] = [];
          all.push(out);
          if (opts.mode === 'block') {
            const left = Math.max(0, Math.round(box.x0)), top = Math.max(0, Math.round(box.y0));
            if (box.x1 - left < 8 || box.y1 - top < 8) continue;
            const crop = cropGray(img, left, top, box.x1 - left, box.y1 - top);
            const words = (await this.ocr(slot, crop, opts.signal)).flat();
            out.push(words.map((w) => ({ text: w.text, confidence: w.confidence, box: { x0: left + w.bbox.x0, y0: top + w.bbox.y0, x1: left + w.bbox.x1, y1: top + w.bbox.y1 } })));
            continue;
          }
          const lineH = box.y1 - box.y0;
          if (!(lineH >= 6)) continue;
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
            const words = (await this.ocr(slot, firstChannel(data, info), opts.signal, 7)).flat();
            out.push(words.map((w) => ({
              text: w.text, confidence: w.confidence,
              box: { x0: left + w.bbox.x0 / k, y0: top + w.bbox.y0 / k, x1: left + w.bbox.x1 / k, y1: top + w.bbox.y1 / k },
            })));
          }
        }
      } finally {
        if (slot.failed) this.discard(slot);
        this.release(slot);
      }
      return all;
    } finally {
      this.inFlight--;
    }
  }

  /**
   * Terminates every worker, those still starting included, and resolves once their threads have ended;
   * waiting and running calls reject with ENGINE_CLOSED. Idempotent.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.waiters.splice(0)) {
      if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
      w.reject(closedError());
    }
    for (const s of this.starting) s.fail(closedError());
    const slots = this.slots.splice(0);
    await Promise.all([
      ...slots.map((s) => this.kill(s, closedError())),
      ...[...this.starting].map(async (s) => endThread(await s.thread)),
      ...[...this.spawning].map((p) => p.catch(() => undefined)),
      ...this.ending,
    ]);
    // a start that settled just before close() hands its worker over to be ended after it
    while (this.ending.size) await Promise.all([...this.ending]);
    // the language folder goes last: a starting worker may still have been reading from it
    if (this.folder) removeFolder(this.folder);
  }

  // ---- OCR passes -------------------------------------------------------------------------------

  private async ocr(slot: Slot, img: GrayImage, signal?: AbortSignal, psm = this.psm): Promise<TessWord[][]> {
    const result = await this.call(slot, signal, () =>
      slot.worker.recognize(encodePgm(img), recognizeParams(psm) as never, { blocks: true, text: false }));
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

  /**
   * Runs one tesseract call on a slot. Settles when the call does, or rejects at once when the signal
   * aborts (the worker is then killed: it cannot be stopped mid-page) or the slot dies.
   */
  private call<T>(slot: Slot, signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
    if (slot.dead) return Promise.reject(this.closed ? closedError() : new ReceiptKitError('INTERNAL', 'OCR worker stopped'));
    if (signal?.aborted) return Promise.reject(abortError());
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const finish = (): void => {
        done = true;
        slot.interrupt = undefined;
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        if (done) return;
        finish();
        reject(abortError());
        this.discard(slot);
      };
      slot.interrupt = (e) => { if (!done) { finish(); reject(e); } };
      signal?.addEventListener('abort', onAbort, { once: true });
      fn().then(
        (v) => { if (!done) { finish(); resolve(v); } },
        (e: unknown) => {
          if (done) return;
          finish();
          slot.failed = true;
          reject(new ReceiptKitError('UNREADABLE_FILE', `OCR failed: ${message(e)}`, { cause: e }));
        },
      );
    });
  }

  // ---- workers ----------------------------------------------------------------------------------

  /** Waits (FIFO) for an idle worker; creates one when below `size`. */
  private acquire(codes: string[], signal?: AbortSignal): Promise<Slot> {
    if (this.closed) return Promise.reject(closedError());
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = { langs: codes.join('+'), resolve, reject };
      if (signal) {
        waiter.signal = signal;
        waiter.onAbort = () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) { this.waiters.splice(i, 1); reject(abortError()); }
          void this.refStarting();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.waiters.push(waiter);
      this.dispatch();
    });
  }

  private dispatch(): void {
    this.serve();
    void this.refStarting();
  }

  /**
   * Workers still starting keep the process alive only while a page waits for a worker: a warm-up that
   * no page needed yet does not hold a process that has nothing else to do.
   */
  private async refStarting(): Promise<void> {
    const wanted = this.waiters.length > 0 && !this.closed;
    for (const s of this.starting) {
      const thread = await s.thread;
      if (!this.starting.has(s)) continue; // started (the pool refs it per page) or ended meanwhile
      if (wanted) thread?.ref(); else thread?.unref();
    }
  }

  private serve(): void {
    while (this.waiters.length && !this.closed) {
      const head = this.waiters[0]!;
      const idle = this.slots.filter((s) => !s.busy && !s.dead);
      const slot = idle.find((s) => s.langs === head.langs) ?? idle[0];
      if (slot) {
        this.waiters.shift();
        if (head.onAbort) head.signal?.removeEventListener('abort', head.onAbort);
        slot.busy = true;
        slot.thread?.ref();
        head.resolve(slot);
        continue;
      }
      if (this.slots.length + this.creating < this.size) {
        this.grow(head.langs.split('+'), (e) => {
          // the page that asked for this worker fails; later ones get their own attempt
          const i = this.waiters.indexOf(head);
          if (i >= 0) {
            this.waiters.splice(i, 1);
            if (head.onAbort) head.signal?.removeEventListener('abort', head.onAbort);
            head.reject(e);
          }
        });
      }
      return;
    }
  }

  /**
   * Starts one more worker for `codes`: once up it joins the pool and waiting pages are served; when it
   * cannot start, `onError` hears why (then waiting pages are served as before).
   */
  private grow(codes: string[], onError: (e: unknown) => void): void {
    this.creating++;
    this.spawn(codes).then(
      (s) => {
        this.creating--;
        if (this.closed) { this.ended(this.kill(s, closedError())); return; }
        this.slots.push(s);
        this.dispatch();
      },
      (e: unknown) => {
        this.creating--;
        onError(e);
        this.dispatch();
      },
    );
  }

  private release(slot: Slot): void {
    slot.busy = false;
    if (slot.dead) return;
    // a worker's WebAssembly memory only grows (to the largest page it has read): retired now and then,
    // a long run's memory stays that of recent pages
    if (++slot.calls >= this.maxCalls) { this.discard(slot, new ReceiptKitError('INTERNAL', 'OCR worker retired')); return; }
    slot.thread?.unref();
    this.dispatch();
  }

  /** Takes a worker out of service (it failed, its thread died, or it was interrupted). */
  private discard(slot: Slot, cause?: unknown): void {
    if (slot.dead) return;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    this.ended(this.kill(slot, cause ?? new ReceiptKitError('INTERNAL', 'OCR worker was replaced')));
    this.dispatch();
  }

  /** Keeps a worker's end in `ending` until its thread is gone (close() waits for it). */
  private ended(end: Promise<void>): void {
    this.ending.add(end);
    void end.finally(() => this.ending.delete(end));
  }

  /** Takes a worker's call down with `reason` and ends its thread (resolves once the thread is gone). */
  private async kill(slot: Slot, reason: unknown): Promise<void> {
    slot.dead = true;
    slot.interrupt?.(reason);
    try { await slot.worker.terminate(); } catch { /* already gone */ }
    // tesseract.js's terminate() does not wait for the thread's end: the pool does
    await endThread(slot.thread as NodeWorker | undefined);
  }

  /** Starts one worker for `codes` (see `start`); close() waits for every start to settle. */
  private spawn(codes: string[]): Promise<Slot> {
    const p = this.start(codes);
    this.spawning.add(p);
    void p.then(() => this.spawning.delete(p), () => this.spawning.delete(p));
    return p;
  }

  private async start(codes: string[]): Promise<Slot> {
    if (this.closed) throw closedError();
    const langPath = this.linkLanguages(codes);
    let slot: Slot | undefined;
    const starting: Starting = { thread: Promise.resolve(undefined), fail: () => undefined };
    // tesseract.js reports a failed language load only through errorHandler (createWorker then never
    // settles, and its thread lives on), and later job failures through both errorHandler and the job's promise.
    const errorHandler = (e: unknown): void => {
      if (slot) return;
      // after rejecting a failed initialisation tesseract.js's thread still answers that job (a progress and
      // a resolve its own listener cannot match: a TypeError thrown in the process): nothing more is heard
      starting.known?.removeAllListeners('message');
      starting.fail(new ReceiptKitError('INTERNAL', `OCR worker could not start: ${message(e)}`, { cause: e }));
    };
    let worker: TesseractWorker;
    this.starting.add(starting);
    try {
      worker = await new Promise<TesseractWorker>((resolve, reject) => {
        const timer = setTimeout(() => reject(new ReceiptKitError('INTERNAL', 'OCR worker did not start within 60 s')), 60_000);
        timer.unref();
        starting.fail = (e) => { clearTimeout(timer); reject(e); };
        const { value, thread } = withNewThread(() => createWorker(codes.join('+'), OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none', errorHandler }, INIT_CONFIG as never));
        starting.thread = thread;
        void thread.then((t) => { starting.known = t; });
        void this.refStarting();
        value.then((w) => { clearTimeout(timer); resolve(w); }, (e: unknown) => {
          clearTimeout(timer);
          reject(new ReceiptKitError('INTERNAL', `OCR worker could not start: ${message(e)}`, { cause: e }));
        });
      });
    } catch (e) {
      // a start that failed or was given up (close, timeout): its thread is ended, not left running
      await endThread(await starting.thread);
      throw e;
    } finally {
      this.starting.delete(starting);
    }
    this.created++;
    const thread = (worker as unknown as { worker?: Slot['thread'] }).worker;
    slot = { id: ++slotIds, worker, thread, langs: codes.join('+'), busy: false, dead: false, failed: false, calls: 0 };
    const s = slot;
    if (this.closed) {
      await this.kill(s, closedError());
      throw closedError();
    }
    thread?.on('error', (e: unknown) => this.discard(s, new ReceiptKitError('INTERNAL', `OCR worker crashed: ${message(e)}`, { cause: e })));
    thread?.on('exit', () => { if (!s.dead) this.discard(s, new ReceiptKitError('INTERNAL', 'OCR worker exited')); });
    thread?.unref();
    return slot;
  }

  /** Switches a worker to other languages (loads the missing ones from the pool's folder). */
  private async useLanguages(slot: Slot, codes: string[], signal?: AbortSignal): Promise<void> {
    const key = codes.join('+');
    if (slot.langs === key) return;
    this.linkLanguages(codes);
    await this.call(slot, signal, () => slot.worker.reinitialize(key, OEM.LSTM_ONLY, INIT_CONFIG as never));
    slot.langs = key;
  }

  /**
   * The pool's private language folder (created on first use), with `<code>.traineddata.gz` symlinks
   * (copies where symlinks are not allowed) to the installed files. tesseract.js recognises gzip data
   * by its magic bytes, so an uncompressed file behind a `.gz` name loads too.
   */
  private linkLanguages(codes: string[]): string {
    if (!this.folder) {
      if (!exitHookInstalled) {
        exitHookInstalled = true;
        sweepStaleFolders();
        process.once('exit', () => { for (const d of [...liveFolders]) removeFolder(d); });
      }
      this.folder = fs.mkdtempSync(path.join(os.tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));
      liveFolders.add(this.folder);
    }
    for (const code of codes) {
      if (this.linked.has(code)) continue;
      const data = findLanguageData(code, this.langPath);
      if (!data) throw new ReceiptKitError('INVALID_OPTION', `OCR data for ${code} is not installed`, { field: 'languages' });
      const target = path.join(this.folder, `${code}.traineddata.gz`);
      try { fs.rmSync(target, { force: true }); } catch { /* ignore */ }
      try { fs.symlinkSync(data.file, target); } catch { fs.copyFileSync(data.file, target); }
      this.linked.add(code);
    }
    return this.folder;
  }
}
