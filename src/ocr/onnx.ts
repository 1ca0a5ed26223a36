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

/** An output tensor (float32 for both PaddleOCR models). */
export interface OnnxTensor { readonly data: Float32Array; readonly dims: readonly number[] }
/** An input tensor, opaque outside this module. */
export interface OnnxInput { readonly __onnxInput: true }
/** A loaded model. */
export interface OnnxSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, OnnxInput>): Promise<Record<string, OnnxTensor>>;
  release(): Promise<void>;
}

interface Ort {
  InferenceSession: { create(path: string, opts?: Record<string, unknown>): Promise<OnnxSession & { release?(): Promise<void> }> };
  Tensor: new (type: 'float32', data: Float32Array, dims: number[]) => unknown;
}

const require = createRequire(import.meta.url);
let ort: Ort | undefined;

/** The runtime module, loaded on first use (throws when it is not installed or does not load on this platform). */
function runtime(): Ort {
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

/**
 * Loads a model file for CPU inference. `threads`: intra-op threads (default DEFAULT_READER_THREADS).
 * `arena`: onnxruntime's own CPU memory arena, which keeps the memory of one run for the next. The
 * detector wants it: its feature maps are large and change size with every page, and freed back to
 * the C allocator they fragment its heap (10 SROIE scans in one engine: peak RSS 662 MB without it,
 * 495 MB with it on the detector, the same time; on the recogniser as well, no lower). No memory pattern:
 * every page and strip has a new input size.
 */
export async function createOnnxSession(modelFile: string, opts: { threads?: number; arena?: boolean } = {}): Promise<OnnxSession> {
  const s = await runtime().InferenceSession.create(modelFile, {
    intraOpNumThreads: opts.threads ?? DEFAULT_READER_THREADS, interOpNumThreads: 1, graphOptimizationLevel: 'all',
    executionProviders: ['cpu'], enableCpuMemArena: !!opts.arena, enableMemPattern: false,
  });
  return {
    inputNames: s.inputNames, outputNames: s.outputNames,
    run: (feeds) => s.run(feeds),
    release: async () => { await s.release?.(); },
  };
}

/** A float32 input tensor of the given shape. */
export function floatInput(data: Float32Array, dims: number[]): OnnxInput {
  return new (runtime().Tensor)('float32', data, dims) as OnnxInput;
}
