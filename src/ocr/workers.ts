/**
 * The tesseract.js workers of an OcrPool (pool.ts): their lifecycle, apart from what they are asked to read.
 *
 * - Workers are created lazily, up to `size`, and reused; each call takes one worker (`withWorker`), and
 *   waiting calls are served first come, first served, preferring a worker that has the call's languages.
 * - Language data comes from local folders only (see languages.ts): every worker reads from one private
 *   folder under the OS temp directory holding symlinks to the installed traineddata files, so that one
 *   worker can load languages that live in different packages (tesseract.js takes a single `langPath`).
 *   `cacheMethod: 'none'` keeps tesseract.js from writing traineddata into the working directory; its
 *   worker script and WebAssembly core are loaded from node_modules. No network is ever attempted.
 * - Workers run the LSTM engine (the readers), or the legacy engine with tesseract.js-core's legacy cores
 *   (`engine: 'legacy'`): what tesseract's orientation and script detection needs (ocr/script.ts).
 * - A worker whose call fails, whose thread dies, or that is interrupted by an abort is terminated and
 *   replaced on the next call, never reused; a worker is retired after `maxCallsPerWorker` calls.
 * - Idle workers do not keep the process alive (their threads are unref'd between calls), nor does a
 *   worker still starting that no call waits for (a warm-up).
 * - `close()` ends every thread: idle and busy workers, and workers still starting (tesseract.js keeps
 *   a starting worker's thread to itself, and leaves it running when a language fails to load: the
 *   workers are found through Node's 'worker' event, see `withNewThread`).
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import type { Worker as NodeWorker } from 'node:worker_threads';
import { createWorker, OEM } from 'tesseract.js';
import type { Worker as TesseractWorker } from 'tesseract.js';
import { ReceiptKitError } from '../errors.js';
import { findLanguageData } from './languages.js';

/**
 * Calls (pages, line re-reads) a worker serves before it is retired: its WebAssembly memory grows to
 * the largest page it has read and never shrinks. About 150-300 pages; a new worker starts in 1-2 s.
 */
export const WORKER_MAX_CALLS = 1000;

/**
 * Workers by default: one per core (`os.availableParallelism()`), at most four (each holds 70-100 MB).
 * Measured (docs/decisions/2026-11-21-ocr-pool-size.md) on the 2-vCPU machine this was built on (12 corpus pages,
 * all submitted at once, orientation on): 2 workers gave 2.05x the pages per second of one, 3 workers
 * 1.88x. The main thread's share (decoding, orientation geometry) is small next to OCR, so no core is
 * held back for it. A single page always runs on one worker, so more workers never slow one call down.
 */
export function defaultPoolSize(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(cores, 4));
}

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

/** One tesseract recognition on the worker a call holds (rejects at once on abort or when the worker dies). */
export type Recognize = (image: Buffer, params: Record<string, string>, output: Record<string, boolean>) => Promise<{ data: unknown }>;
/** Tesseract's orientation and script detection (OSD) on the worker a call holds: legacy-engine workers only. */
export type DetectOs = (image: Buffer) => Promise<{ data: unknown }>;

/**
 * The tesseract engine a set of workers runs: 'lstm' (the readers: LSTM-only cores and data, small) or
 * 'legacy' (the legacy cores of tesseract.js-core and the legacy engine, which orientation and script
 * detection needs: ocr/script.ts).
 */
export type TesseractEngine = 'lstm' | 'legacy';

let slotIds = 0;

export class TesseractWorkers {
  readonly size: number;
  private readonly langPath: string | undefined;
  private readonly maxCalls: number;
  private readonly slots: Slot[] = [];
  private readonly waiters: Waiter[] = [];
  /** Workers being started, and the starts themselves (settled once the worker joined or its thread ended). */
  private readonly starting = new Set<Starting>();
  private readonly spawning = new Set<Promise<unknown>>();
  /** Threads being ended (a discarded worker), awaited by close(). */
  private readonly ending = new Set<Promise<void>>();
  private creating = 0;
  private created = 0;
  private closed = false;
  private folder: string | undefined;
  private readonly linked = new Set<string>();
  private readonly legacy: boolean;

  constructor(size: number, langPath: string | undefined, maxCallsPerWorker = WORKER_MAX_CALLS, engine: TesseractEngine = 'lstm') {
    this.size = size;
    this.langPath = langPath;
    this.maxCalls = maxCallsPerWorker;
    this.legacy = engine === 'legacy';
  }

  /** The engine mode the workers are started and re-initialised with. */
  private get oem(): OEM { return this.legacy ? OEM.TESSERACT_ONLY : OEM.LSTM_ONLY; }

  /** Workers alive now. */
  get alive(): number { return this.slots.length; }
  /** Workers created since the start (replacements included). */
  get createdCount(): number { return this.created; }
  get isClosed(): boolean { return this.closed; }

  /** Starts a worker for `codes` when there is none (running or starting); a failure is left to the call that needs one. */
  warm(codes: string[]): void {
    if (this.closed || this.slots.length || this.creating) return;
    this.grow(codes, () => undefined);
  }

  /**
   * Runs `use` on one worker with `codes` loaded, waiting (FIFO) for one to be free. A worker whose call
   * failed is replaced afterwards; an abort rejects at once with TIMEOUT.
   */
  async withWorker<T>(codes: string[], signal: AbortSignal | undefined, use: (recognize: Recognize, detect: DetectOs) => Promise<T>): Promise<T> {
    const slot = await this.acquire(codes, signal);
    try {
      await this.useLanguages(slot, codes, signal);
      return await use(
        (image, params, output) => this.call(slot, signal, () => slot.worker.recognize(image, params as never, output as never) as Promise<{ data: unknown }>),
        (image) => this.call(slot, signal, () => slot.worker.detect(image) as Promise<{ data: unknown }>),
      );
    } finally {
      if (slot.failed) this.discard(slot);
      this.release(slot);
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
        const { value, thread } = withNewThread(() => createWorker(codes.join('+'), this.oem, { langPath, gzip: true, cacheMethod: 'none', errorHandler, ...(this.legacy ? { legacyCore: true, legacyLang: true } : {}) }, INIT_CONFIG as never));
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
    await this.call(slot, signal, () => slot.worker.reinitialize(key, this.oem, INIT_CONFIG as never));
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
