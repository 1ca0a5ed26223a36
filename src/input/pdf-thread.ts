/**
 * PDFs are parsed and rendered in worker threads (src/input/pdf-worker.ts), not in the caller's:
 *
 * - pdf.js leaves some rejections of its own unhandled on broken files (found by bench/fuzz.mjs: a
 *   page dictionary it prefetches fails after the document has opened). In the caller's thread that is
 *   an `unhandledRejection` of the user's process, which Node turns into a crash by default; in a PDF
 *   thread it is caught by that thread's own handler and the file still gets its answer.
 * - A file on which pdf.js works synchronously for long cannot be interrupted by a timer in the same
 *   thread; a PDF thread is terminated when the time budget or the caller's signal says so.
 * - The thread's JavaScript heap is capped (PDF_THREAD_HEAP_MB): a file that would exhaust it ends
 *   that thread (UNREADABLE_FILE), not the process; and a file whose reading grows the process's memory
 *   by over PDF_THREAD_MEMORY_MB (decoded images and streams live outside that heap) ends it too
 *   (FILE_TOO_LARGE).
 *
 * At most PDF_THREADS threads run at once (further PDFs wait their turn); an idle thread is ended
 * after PDF_THREAD_IDLE_MS and every thread after PDF_THREAD_JOBS files, so memory held by pdf.js
 * caches does not build up over a long run. Idle threads do not keep the process alive.
 */
import { Worker } from 'node:worker_threads';
import { builtWorkerScript, workerExecArgv } from './worker-script.js';
import { ReceiptKitError, type ErrorCode, ERROR_STATUS } from '../errors.js';
import type { InputLimits, InputPage } from './types.js';
import type { LoadedPdf } from './types.js';

export { workerExecArgv };

/** PDF threads running at once. */
export const PDF_THREADS = 2;
/** An idle PDF thread is ended after this long. */
export const PDF_THREAD_IDLE_MS = 30_000;
/** A PDF thread is replaced after reading this many files. */
export const PDF_THREAD_JOBS = 200;
/** Cap of a PDF thread's JavaScript heap (old generation), MB. */
export const PDF_THREAD_HEAP_MB = 768;
/** Time a PDF thread is given past the budget to report its own TIMEOUT before it is terminated. */
const GRACE_MS = 1500;
/**
 * Memory a PDF thread may add to the process while it reads one file, MB: past it the thread is ended
 * and the file is FILE_TOO_LARGE. The thread's heap cap (PDF_THREAD_HEAP_MB) does not count pdf.js's
 * decoded streams and images (ArrayBuffers, outside the heap), so the process's resident memory is
 * watched instead, from the main thread. A legit 600 dpi A4 scan (two pages of 4960x7016 JPEG) grew it by
 * ~520 MB; what the structure check (pdf-structure.ts) cannot judge is stopped here. The growth counts
 * everything the process does meanwhile (another extraction's OCR too): a bound, not an exact share.
 */
export const PDF_THREAD_MEMORY_MB = 768;
/** How often the memory is looked at while a thread reads, ms. */
const MEMORY_WATCH_MS = 50;

/** The message a PDF thread answers with. */
export type PdfThreadAnswer =
  | { ok: true; result: LoadedPdf }
  | { ok: false; code: string; message: string };

/** What the caller's thread sends. */
export interface PdfThreadJob { bytes: Uint8Array; limits: InputLimits; images: boolean }

/** The built worker script (input/pdf-worker.js), or undefined when PDFs must be read in the caller's thread. */
function workerScript(): URL | undefined {
  return builtWorkerScript(import.meta.url, 'input/pdf-worker.js');
}

interface Slot { worker: Worker; jobs: number; idleTimer?: NodeJS.Timeout }

class PdfThreads {
  private readonly idle: Slot[] = [];
  private readonly ending = new Set<Promise<void>>();
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private script: URL | undefined | null = null;

  /** The worker script, or undefined when PDFs must be read in the caller's thread. */
  scriptUrl(): URL | undefined {
    if (this.script === null) this.script = workerScript();
    return this.script;
  }

  async run(job: PdfThreadJob, deadlineMs: number, signal?: AbortSignal): Promise<LoadedPdf> {
    await this.turn(signal);
    let slot: Slot | undefined;
    let answer: PdfThreadAnswer;
    try {
      slot = this.take();
      answer = await this.ask(slot, job, deadlineMs, signal);
    } catch (e) {
      // a thread that crashed, ran out of time or was stopped is not reused; one that answered with an error is
      if (slot) { void this.end(slot); slot = undefined; }
      throw e;
    } finally {
      if (slot) this.release(slot);
      this.running--;
      this.waiting.shift()?.();
    }
    if (!answer.ok) throw new ReceiptKitError(errorCode(answer.code), answer.message);
    return revive(answer.result);
  }

  /** Waits until fewer than PDF_THREADS files are being read (or the signal aborts). */
  private async turn(signal?: AbortSignal): Promise<void> {
    while (this.running >= PDF_THREADS) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const i = this.waiting.indexOf(go);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(abortError(signal!, 'waiting for a PDF thread'));
        };
        const go = () => { signal?.removeEventListener('abort', onAbort); resolve(); };
        if (signal?.aborted) { onAbort(); return; }
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(go);
      });
    }
    this.running++;
  }

  private take(): Slot {
    const slot = this.idle.pop();
    if (slot) {
      clearTimeout(slot.idleTimer);
      slot.worker.ref();
      return slot;
    }
    const worker = new Worker(this.scriptUrl()!, { execArgv: workerExecArgv(), resourceLimits: { maxOldGenerationSizeMb: PDF_THREAD_HEAP_MB }, stdout: false, stderr: false });
    return { worker, jobs: 0 };
  }

  private release(slot: Slot): void {
    if (slot.jobs >= PDF_THREAD_JOBS) { void this.end(slot); return; }
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => {
      const i = this.idle.indexOf(slot);
      if (i >= 0) this.idle.splice(i, 1);
      void this.end(slot);
    }, PDF_THREAD_IDLE_MS);
    slot.idleTimer.unref();
    this.idle.push(slot);
  }

  /**
   * Ends the idle threads (an engine's close()) and resolves once they, and the threads being ended
   * (a stopped or failed file's), are gone. Threads reading a file are left to it.
   */
  async endIdle(): Promise<void> {
    for (const slot of this.idle.splice(0)) void this.end(slot);
    while (this.ending.size) await Promise.all([...this.ending]);
  }

  private end(slot: Slot): Promise<void> {
    clearTimeout(slot.idleTimer);
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => undefined); // a late error of a thread being ended is not the caller's
    const gone = slot.worker.terminate().then(() => undefined, () => undefined);
    this.ending.add(gone);
    void gone.finally(() => this.ending.delete(gone));
    return gone;
  }

  /** Sends one file to a thread and waits for its answer, the deadline, the signal or the thread's end. */
  private ask(slot: Slot, job: PdfThreadJob, deadlineMs: number, signal?: AbortSignal): Promise<PdfThreadAnswer> {
    slot.jobs++;
    const { worker } = slot;
    return new Promise<PdfThreadAnswer>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const before = process.memoryUsage.rss();
      const allowedMb = job.limits.maxPdfMemoryMb ?? PDF_THREAD_MEMORY_MB;
      const watch = setInterval(() => {
        const grown = process.memoryUsage.rss() - before;
        if (grown <= allowedMb * 1024 * 1024) return;
        done();
        reject(new ReceiptKitError('FILE_TOO_LARGE', `reading the PDF took over ${allowedMb} MB of memory (${Math.round(grown / (1024 * 1024))} MB)`));
      }, MEMORY_WATCH_MS);
      watch.unref();
      const done = () => {
        clearInterval(watch);
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
      };
      const onMessage = (answer: PdfThreadAnswer) => { done(); resolve(answer); };
      const onError = (e: Error) => {
        done();
        const oom = (e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
        reject(new ReceiptKitError('UNREADABLE_FILE', oom
          ? `the PDF needs more memory than a PDF thread is given (${PDF_THREAD_HEAP_MB} MB heap)`
          : `the PDF could not be parsed: ${e?.message ?? e}`, { cause: e }));
      };
      const onExit = (code: number) => { done(); reject(new ReceiptKitError('UNREADABLE_FILE', `the PDF thread ended (exit code ${code}) while reading the file`)); };
      const onAbort = () => { done(); reject(abortError(signal!, 'reading the PDF')); };
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      if (signal?.aborted) { onAbort(); return; }
      signal?.addEventListener('abort', onAbort, { once: true });
      timer = setTimeout(() => { done(); reject(new ReceiptKitError('TIMEOUT', `reading the PDF took over ${deadlineMs} ms`)); }, deadlineMs + GRACE_MS);
      // the bytes are copied into a buffer of their own and that one is moved, not copied again
      const bytes = Uint8Array.prototype.slice.call(job.bytes);
      worker.postMessage({ ...job, bytes }, [bytes.buffer]);
    });
  }
}


function abortError(signal: AbortSignal, what: string): ReceiptKitError {
  const reason: unknown = signal.reason;
  return reason instanceof ReceiptKitError ? reason : new ReceiptKitError('TIMEOUT', `${what} was aborted`);
}

function errorCode(code: string): ErrorCode {
  return Object.hasOwn(ERROR_STATUS, code) ? code as ErrorCode : 'UNREADABLE_FILE';
}

/** Buffers arrive from the thread as plain Uint8Arrays: views of them as Buffers again. */
function revive(result: LoadedPdf): LoadedPdf {
  const buf = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  const pages: InputPage[] = result.pages.map((p) => p.kind === 'raster'
    ? { ...p, image: buf(p.image) }
    : { ...p, ...(p.images ? { images: p.images.map((im) => ({ ...im, image: buf(im.image) })) } : {}) });
  return { ...result, pages };
}

const threads = new PdfThreads();

/**
 * Ends the PDF threads that are idle (they are shared by the engines of the process; an idle one does
 * not keep the process alive, but holds its memory): an engine's close() leaves none behind.
 */
export function endIdlePdfThreads(): Promise<void> {
  return threads.endIdle();
}

/**
 * Reads a PDF in a PDF thread (see the module comment); `inThread` reads it here when the built
 * worker script is absent (the TypeScript sources run without a build).
 */
export async function readPdfIsolated(
  bytes: Buffer, limits: InputLimits, signal: AbortSignal | undefined, opts: { images?: boolean },
  how: { deadlineMs: number; inThread: (bytes: Buffer, limits: InputLimits, signal?: AbortSignal, opts?: { images?: boolean }) => Promise<LoadedPdf> },
): Promise<LoadedPdf> {
  if (!threads.scriptUrl()) return how.inThread(bytes, limits, signal, opts);
  return threads.run({ bytes, limits, images: opts.images === true }, how.deadlineMs, signal);
}
