/**
 * The ONNX runtime behind the second reader (ocr/paddle.ts): how it is loaded and how sessions are
 * created and run, in one place.
 *
 * The runtime is `onnxruntime-node` pinned at 1.17.0, chosen by measurement (docs/decisions/2026-11-25-onnxruntime-node-1.17.md):
 * - 1.18 and later run an install script that, on Linux x64, downloads CUDA libraries from outside the npm
 *   registry (fails offline unless the user's own npm is told to skip it); 1.17.0 has no install script;
 * - 1.17.0 weighs 98 MB installed (CPU builds for Linux/macOS/Windows x64 and arm64) against 288 MB for 1.30;
 * - on 10 SROIE pages (det + rec, 2 threads, one interleaved run) it read the same text as 1.30 on 10 of 10
 *   pages in the same total time (56.2 s against 55.5 s; median per-page ratio 1.13 on a busy machine);
 * - onnxruntime-web 1.30 (WebAssembly, one build for every platform) read the same text but 3.2x slower
 *   (median per-page ratio; first load 9.3 s against 1.0 s) and installs 148 MB.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { builtWorkerScript, workerExecArgv } from '../input/worker-script.js';

/** An output tensor (float32 for both PaddleOCR models). */
export interface OnnxTensor { readonly data: Float32Array; readonly dims: readonly number[] }
/** An input tensor, opaque outside this module. */
export interface OnnxInput { readonly __onnxInput: true; readonly data: Float32Array; readonly dims: readonly number[] }
/** A loaded model. */
export interface OnnxSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /** Runs the model; the feeds' arrays may be moved to the thread that runs it: the caller does not use them after. */
  run(feeds: Record<string, OnnxInput>): Promise<Record<string, OnnxTensor>>;
  release(): Promise<void>;
}

/** A session as the runtime makes it (its inputs are the runtime's own tensors). */
export interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, unknown>): Promise<Record<string, OnnxTensor>>;
  release?(): Promise<void>;
}
/** What this module uses of onnxruntime-node. */
export interface Ort {
  InferenceSession: { create(path: string, opts?: Record<string, unknown>): Promise<OrtSession> };
  Tensor: new (type: 'float32', data: Float32Array, dims: number[]) => unknown;
}

const require = createRequire(import.meta.url);
let ort: Ort | undefined;

/** The runtime module, loaded on first use in the thread that asks (throws when it is not installed or does not load on this platform). */
export function runtime(): Ort {
  ort ??= require('onnxruntime-node') as Ort;
  return ort;
}

/**
 * onnxruntime's intra-op threads by default. One, by measurement: the recogniser reads one small strip
 * at a time, which two threads share badly (docs/decisions/2026-11-26-paddle-threads-and-batching.md: 30.3 s CPU against 20.0 s for the
 * same text on 12 pages), and the thorough reading runs tesseract alongside on the other core (bench/
 * speed.mjs, 20 SROIE scans in one run: p50 3.46 s with 2 threads, 2.79 s with 1, the same fields).
 */
export const DEFAULT_READER_THREADS = 1;

/** What a session is created with. */
export interface OnnxSessionOptions {
  /** Intra-op threads (default DEFAULT_READER_THREADS). */
  threads?: number | undefined;
  /**
   * onnxruntime's own CPU memory arena, which keeps the memory of one run for the next. The detector wants
   * it: its feature maps are large and change size with every page, and freed back to the C allocator they
   * fragment its heap (10 SROIE scans in one engine: peak RSS 662 MB without it, 495 MB with it on the
   * detector, the same time; on the recogniser as well, no lower). No memory pattern: every page and strip
   * has a new input size.
   */
  arena?: boolean;
  /** The thread that loads and runs the model (openOnnxThread); without one, the caller's thread. */
  thread?: OnnxThread | undefined;
}

function sessionOptions(opts: OnnxSessionOptions): Record<string, unknown> {
  return {
    intraOpNumThreads: opts.threads ?? DEFAULT_READER_THREADS, interOpNumThreads: 1, graphOptimizationLevel: 'all',
    executionProviders: ['cpu'], enableCpuMemArena: !!opts.arena, enableMemPattern: false,
  };
}

/** Loads a model file for CPU inference, in `opts.thread` when given (the same answers either way). */
export async function createOnnxSession(modelFile: string, opts: OnnxSessionOptions = {}): Promise<OnnxSession> {
  if (opts.thread) return opts.thread.session(modelFile, sessionOptions(opts));
  const s = await runtime().InferenceSession.create(modelFile, sessionOptions(opts));
  const Tensor = runtime().Tensor;
  return {
    inputNames: s.inputNames, outputNames: s.outputNames,
    run: (feeds) => s.run(Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, new Tensor('float32', v.data, [...v.dims])]))),
    release: async () => { await s.release?.(); },
  };
}

/** A float32 input tensor of the given shape. */
export function floatInput(data: Float32Array, dims: number[]): OnnxInput {
  return { __onnxInput: true, data, dims };
}

/** What the caller's thread asks the ONNX thread (ocr/onnx-worker.ts). */
export type OnnxThreadAsk =
  | { op: 'create'; id: number; session: number; file: string; options: Record<string, unknown> }
  | { op: 'run'; id: number; session: number; feeds: Record<string, { data: Float32Array; dims: readonly number[] }> }
  | { op: 'release'; id: number; session: number };
/** What it answers. */
export type OnnxThreadAnswer =
  | { id: number; ok: true; inputNames?: string[]; outputNames?: string[]; outputs?: Record<string, { data: Float32Array; dims: number[] }> }
  | { id: number; ok: false; message: string };

/**
 * The worker thread that loads ONNX models and runs them, one request at a time (issue 51 item 5):
 * onnxruntime-node 1.17 loads a model and runs it synchronously on the thread that asks (measured: a
 * PaddleOCR reading of one SROIE scan held the event loop 824 of its 870 ms), so in the caller's thread it
 * stalls everything else the process does meanwhile: the server's answers (a 503 waited 424 ms p50 under
 * load), another extraction's field stage. One per process (openOnnxThread), for the life of the process: the
 * runtime's native addon loads in one thread only (a second thread gets "Module did not self-register"),
 * so the thread is never ended, only left idle, and holds the process open only while a request is in
 * flight. A thread that dies fails the requests in flight and every later one (the engine then warns that
 * the second reader was not used).
 */
export class OnnxThread {
  private readonly worker: Worker;
  private next = 1;
  private readonly pending = new Map<number, { resolve: (a: OnnxThreadAnswer & { ok: true }) => void; reject: (e: Error) => void }>();
  private dead: Error | undefined;

  constructor(script: URL) {
    this.worker = new Worker(script, { execArgv: workerExecArgv(), stdout: false, stderr: false });
    this.worker.unref();
    this.worker.on('message', (a: OnnxThreadAnswer) => {
      const p = this.pending.get(a.id);
      if (!p) return;
      this.pending.delete(a.id);
      if (!this.pending.size) this.worker.unref();
      if (a.ok) p.resolve(a); else p.reject(new Error(a.message));
    });
    const fail = (e: Error) => {
      this.dead ??= e;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    this.worker.on('error', (e) => fail(e instanceof Error ? e : new Error(String(e))));
    this.worker.on('exit', (code) => fail(new Error(`the ONNX thread ended (exit code ${code})`)));
  }

  private ask(ask: OnnxThreadAsk extends infer A ? A extends OnnxThreadAsk ? Omit<A, 'id'> : never : never, transfer: ArrayBuffer[] = []): Promise<OnnxThreadAnswer & { ok: true }> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ ...ask, id }, transfer);
    });
  }

  /** A model loaded in this thread. */
  async session(file: string, options: Record<string, unknown>): Promise<OnnxSession> {
    const session = this.next++;
    const made = await this.ask({ op: 'create', session, file, options });
    return {
      inputNames: made.inputNames ?? [], outputNames: made.outputNames ?? [],
      run: async (feeds) => {
        // the inputs' arrays are moved to the thread, not copied (OnnxSession.run), and the outputs' moved back
        const plain = Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, { data: v.data, dims: v.dims }]));
        return (await this.ask({ op: 'run', session, feeds: plain }, Object.values(plain).flatMap((v) => wholeBuffer(v.data)))).outputs ?? {};
      },
      release: async () => { if (!this.dead) await this.ask({ op: 'release', session }); },
    };
  }
}

/** The array's buffer when the array is all of it (so it can be moved to another thread), else nothing (it is copied). */
export function wholeBuffer(a: Float32Array): ArrayBuffer[] {
  return a.byteOffset === 0 && a.byteLength === a.buffer.byteLength && a.buffer instanceof ArrayBuffer ? [a.buffer] : [];
}

let shared: OnnxThread | null | undefined;

/** The process's ONNX thread, started on the first call; undefined when its built script is not found (models then run in the caller's thread). */
export function openOnnxThread(): OnnxThread | undefined {
  if (shared === undefined) {
    const script = builtWorkerScript(import.meta.url, 'ocr/onnx-worker.js');
    shared = script ? new OnnxThread(script) : null;
  }
  return shared ?? undefined;
}
