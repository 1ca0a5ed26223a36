/**
 * The ONNX thread (ocr/onnx.ts OnnxThread): loads models and runs them off the caller's thread, so that
 * onnxruntime-node's synchronous loading and inference do not hold the caller's event loop.
 */
import { parentPort } from 'node:worker_threads';
import { runtime, wholeBuffer } from './onnx.js';
import type { OnnxThreadAnswer, OnnxThreadAsk, OrtSession } from './onnx.js';

const ort = runtime();
const sessions = new Map<number, OrtSession>();
const port = parentPort!;

async function answer(ask: OnnxThreadAsk): Promise<OnnxThreadAnswer> {
  if (ask.op === 'create') {
    const s = await ort.InferenceSession.create(ask.file, ask.options);
    sessions.set(ask.session, s);
    return { id: ask.id, ok: true, inputNames: [...s.inputNames], outputNames: [...s.outputNames] };
  }
  const s = sessions.get(ask.session);
  if (!s) throw new Error(`no ONNX session ${ask.session} in this thread`);
  if (ask.op === 'release') {
    sessions.delete(ask.session);
    await s.release?.();
    return { id: ask.id, ok: true };
  }
  const feeds: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(ask.feeds)) feeds[k] = new ort.Tensor('float32', v.data, [...v.dims]);
  const out = await s.run(feeds);
  const outputs: Record<string, { data: Float32Array; dims: number[] }> = {};
  // each output's array is moved back when it is all of its buffer, else a copy of it is
  for (const [k, v] of Object.entries(out)) outputs[k] = { data: wholeBuffer(v.data).length ? v.data : new Float32Array(v.data), dims: [...v.dims] };
  return { id: ask.id, ok: true, outputs };
}

port.on('message', (ask: OnnxThreadAsk) => {
  answer(ask).then(
    (a) => port.postMessage(a, 'outputs' in a && a.outputs ? Object.values(a.outputs).flatMap((o) => wholeBuffer(o.data)) : []),
    (e: unknown) => port.postMessage({ id: ask.id, ok: false, message: e instanceof Error ? e.message : String(e) } satisfies OnnxThreadAnswer),
  );
});
