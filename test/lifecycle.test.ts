/**
 * Whole processes against the built package (dist/, built by `npm test`): after close(), or after the
 * CLI's last file, nothing of the library keeps the process alive, whatever the input did before: a
 * damaged file, close() while an OCR worker is still starting, close() in the middle of a reading.
 * The inputs are made here (a receipt drawn with sharp, and a copy of it with bits flipped).
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { bitFlipped } from './generators/hostile-files.ts';

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist/index.js');
const CLI = path.join(ROOT, 'dist/cli/main.js');
/** After close() resolved (or the CLI printed its last line), the process must be gone within this. */
const EXIT_BOUND_MS = 1500;

interface Run { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; exitAt: number; stderrAt: Map<string, number> }

/**
 * Runs node with `args`; notes when the process exited and when each of `watch` first appeared on its
 * stderr (Date.now(), the clock the child's own marks use). Killed after `timeout` ms (a hang).
 */
function run(args: string[], opts: { timeout?: number; watch?: string[] } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    const stderrAt = new Map<string, number>();
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => {
      stderr += d;
      for (const w of opts.watch ?? []) if (!stderrAt.has(w) && stderr.includes(w)) stderrAt.set(w, Date.now());
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeout ?? 60_000);
    child.on('exit', (status, signal) => {
      const exitAt = Date.now();
      clearTimeout(timer);
      // the pipes may still hold output: read them to their end
      let open = 2;
      const done = () => { if (--open === 0) resolve({ status, signal, stdout, stderr, exitAt, stderrAt }); };
      if (child.stdout.readableEnded) done(); else child.stdout.on('end', done);
      if (child.stderr.readableEnded) done(); else child.stderr.on('end', done);
    });
  });
}

/** The JSON line the child script printed last. */
function report(r: Run): Record<string, any> {
  const line = r.stdout.trim().split('\n').pop() ?? '';
  try { return JSON.parse(line); } catch { throw new Error(`no report (status ${r.status}, signal ${r.signal}): ${r.stdout}\n${r.stderr.slice(-2000)}`); }
}

/** Resources other than the standard streams the child still holds (from process.getActiveResourcesInfo()). */
const HELD = `process.getActiveResourcesInfo().filter((r) => !/^(TTYWrap|PipeWrap|Timeout|TimersList)$/.test(r))`;

let dir: string;
let receipt: string;
let flipped: string;
let deeplyFlipped: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'rk-life-'));
  const lines = ['CORNER SHOP', '12 HIGH STREET', 'MILK        2.50', 'BREAD       3.10', 'TOTAL      12.34', 'CASH       20.00', '2024-03-15 12:01'];
  const text = lines.map((t, i) => `<text x="30" y="${70 + i * 50}" font-family="DejaVu Sans Mono" font-size="28" fill="#111">${t}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="520" height="440"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
  receipt = path.join(dir, 'receipt.jpg');
  writeFileSync(receipt, jpeg);
  // most flipped bits only garble pixels (libjpeg reads on): the first seed whose flips break the data
  // (a full decode fails); and the first whose damage only a full decode sees (the input stage's small
  // probe decodes at 1/8 scale, which does not see it: the OCR stage's decode finds it)
  let damaged: Buffer | undefined, deep: Buffer | undefined;
  const fails = (p: Promise<unknown>) => p.then(() => false, () => true);
  for (let seed = 1; seed <= 400 && !(damaged && deep); seed++) {
    const b = bitFlipped(jpeg, { flips: 40, seed });
    if (!await fails(sharp(b, { failOn: 'warning' }).raw().toBuffer())) continue;
    damaged ??= b;
    if (!deep && !await fails(sharp(b, { failOn: 'warning' }).resize({ width: 64, height: 64, fit: 'inside' }).raw().toBuffer())) deep = b;
  }
  flipped = path.join(dir, 'flipped.jpg');
  writeFileSync(flipped, damaged!);
  deeplyFlipped = path.join(dir, 'deeply-flipped.jpg');
  writeFileSync(deeplyFlipped, deep!);
});

/** A module script: createEngine -> extract(file) -> close(), printing the error code, its time, when close() resolved and the handles left. */
function extractThenClose(file: string): string {
  return `import { createEngine } from ${JSON.stringify(DIST)};
      const engine = await createEngine({});
      const t0 = Date.now();
      let code;
      try { await engine.extract(${JSON.stringify(file)}); code = 'extracted'; } catch (e) { code = e.code; }
      const errorMs = Date.now() - t0;
      await engine.close();
      const closedAt = Date.now();
      console.log(JSON.stringify({ code, errorMs, closedAt, held: ${HELD} }));`;
}

describe('the process exits after close()', () => {
  it('is built', () => { expect(existsSync(DIST)).toBe(true); });

  it('createEngine -> extract(bit-flipped JPEG) -> typed error at once -> close(): the process is gone within 1.5 s', async () => {
    const script = extractThenClose(flipped);
    const r = await run(['--input-type=module', '-e', script]);
    const out = report(r);
    expect(out.code).toBe('UNREADABLE_FILE');
    // refused by the input stage before any OCR worker or model starts (it took 1.6-5 s when the OCR stage refused it)
    expect(out.errorMs).toBeLessThan(1000);
    expect(out.held).toEqual([]);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(r.exitAt - out.closedAt).toBeLessThanOrEqual(EXIT_BOUND_MS);
  });

  it('a JPEG damaged where only a full decode sees it: the typed error comes from the OCR stage\'s decode at once (PaddleOCR\'s models, loaded synchronously, wait for the decode), close(), exit', async () => {
    const script = extractThenClose(deeplyFlipped);
    const r = await run(['--input-type=module', '-e', script]);
    const out = report(r);
    expect(out.code).toBe('UNREADABLE_FILE');
    expect(out.errorMs).toBeLessThan(1000); // 1.5-4 s when the models loaded first
    expect(out.held).toEqual([]);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(r.exitAt - out.closedAt).toBeLessThanOrEqual(EXIT_BOUND_MS);
  });

  it('the CLI on a bit-flipped JPEG prints UNREADABLE_FILE, exits 1, and is gone within 1.5 s of that line', async () => {
    const r = await run([CLI, 'extract', flipped], { watch: ['UNREADABLE_FILE'], timeout: 60_000 });
    expect(r.signal).toBeNull(); // not killed: it exited by itself
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/flipped\.jpg: UNREADABLE_FILE: /);
    expect(r.exitAt - r.stderrAt.get('UNREADABLE_FILE')!).toBeLessThanOrEqual(EXIT_BOUND_MS);
  });

  it('close() while the first OCR worker is still starting (the warm-up) resolves, ends the worker, and the process exits', async () => {
    // the first page of a new engine starts its OCR worker ahead (a warm-up); Node announces the thread
    // with the 'worker' event: close() is called right then, while tesseract.js is still loading it
    const script = `import { createEngine } from ${JSON.stringify(DIST)};
      const engine = await createEngine({});
      let closing, callAt, threads = [];
      process.on('worker', (w) => {
        threads.push(w);
        if (!closing) { callAt = Date.now(); closing = engine.close().then(() => Date.now()); }
      });
      const code = await engine.extract(${JSON.stringify(receipt)}).then(() => 'extracted', (e) => e.code);
      const closedAt = await closing;
      console.log(JSON.stringify({ code, closeMs: closedAt - callAt, closedAt, threads: threads.map((t) => t.threadId), held: ${HELD} }));`;
    const r = await run(['--input-type=module', '-e', script]);
    const out = report(r);
    expect(out.threads.length).toBeGreaterThanOrEqual(1); // a worker was starting when close() was called
    expect(out.threads.every((id: number) => id === -1)).toBe(true); // every thread has ended
    expect(out.code).toBe('ENGINE_CLOSED');
    expect(out.closeMs).toBeLessThan(10_000);
    expect(out.held).toEqual([]);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(r.exitAt - out.closedAt).toBeLessThanOrEqual(EXIT_BOUND_MS);
  });

  it('close() in the middle of a reading (tesseract and PaddleOCR at work) ends it, and the process exits', async () => {
    // close() once the OCR worker has read something: the page is then between or inside its readings
    const script = `import { createEngine } from ${JSON.stringify(DIST)};
      const engine = await createEngine({});
      let closing, threads = [], onnx = new Set();
      process.on('worker', (w) => {
        threads.push(w);
        w.on('message', (m) => {
          if (m && typeof m.id === 'number' && typeof m.ok === 'boolean') onnx.add(w); // the ONNX thread's answers (ocr/onnx.ts)
          if (!closing && m && m.action === 'recognize') closing = engine.close().then(() => Date.now());
        });
      });
      const code = await engine.extract(${JSON.stringify(receipt)}, { verbose: true }).then(() => 'extracted', (e) => e.code);
      const closedAt = await (closing ?? engine.close().then(() => Date.now()));
      console.log(JSON.stringify({ code, closedAt, threads: threads.filter((t) => !onnx.has(t)).map((t) => t.threadId), onnx: onnx.size, held: ${HELD} }));`;
    const r = await run(['--input-type=module', '-e', script]);
    const out = report(r);
    expect(out.code).toBe('ENGINE_CLOSED');
    // every thread of the engine ended but the process's ONNX thread, which stays, idle and not holding the process
    // (the runtime's addon loads in one thread only: ocr/onnx.ts OnnxThread)
    expect(out.threads.length).toBeGreaterThan(0);
    expect(out.threads.every((id: number) => id === -1)).toBe(true);
    expect(out.onnx).toBe(1);
    expect(out.held).toEqual([]);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(r.exitAt - out.closedAt).toBeLessThanOrEqual(EXIT_BOUND_MS);
  });

  it('after a page whose script was detected (the script detection\'s own worker), close() ends every thread, and the process exits', async () => {
    const cyrillic = path.join(ROOT, 'fixtures/receipt-bg-cyrillic.png');
    const script = `import { createEngine } from ${JSON.stringify(DIST)};
      const engine = await createEngine({ secondReader: false, rereadBudget: 0, confirmPasses: 0 });
      const threads = [];
      process.on('worker', (w) => threads.push(w));
      const r = await engine.extract(${JSON.stringify(cyrillic)}, { verbose: true });
      await engine.close();
      const closedAt = Date.now();
      console.log(JSON.stringify({ warned: r.warnings.some((w) => w.includes('script detection')), threads: threads.length, ended: threads.filter((t) => t.threadId === -1).length, closedAt, held: ${HELD} }));`;
    const r = await run(['--input-type=module', '-e', script]);
    const out = report(r);
    expect(out.warned).toBe(true);
    expect(out.threads).toBeGreaterThanOrEqual(2); // the reader's worker and the script detection's
    expect(out.ended).toBe(out.threads);
    expect(out.held).toEqual([]);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(r.exitAt - out.closedAt).toBeLessThanOrEqual(EXIT_BOUND_MS);
  });
});

describe('an app that loads onnxruntime-node itself', () => {
  // the runtime's addon loads in one thread of a process only (ocr/onnx.ts OnnxThread): the app's main thread
  // and the library's ONNX thread may both hold it, another thread of the app's own may not
  const scriptFor = (where: 'main' | 'worker') => `import { createEngine } from ${JSON.stringify(DIST)};
      import { Worker } from 'node:worker_threads';
      import { createRequire } from 'node:module';
      const load = ${JSON.stringify(`Promise.all([import('node:module'), import('node:worker_threads')]).then(([m, w]) => { m.createRequire(${JSON.stringify(path.join(ROOT, 'package.json'))})('onnxruntime-node'); w.parentPort.postMessage('loaded'); });`)};
      if (${JSON.stringify(where)} === 'main') createRequire(${JSON.stringify(path.join(ROOT, 'package.json'))})('onnxruntime-node');
      else { const w = new Worker(load, { eval: true }); await new Promise((ok) => w.once('message', ok)); w.unref(); }
      const engine = await createEngine({ workers: 1, confirmPasses: 0 });
      const a = await engine.analyze(${JSON.stringify(path.join(ROOT, 'fixtures/receipt-en-simple.png'))});
      const r = await engine.extract(${JSON.stringify(path.join(ROOT, 'fixtures/receipt-en-simple.png'))}, { verbose: true, refresh: true, incognito: true });
      await engine.close();
      console.log(JSON.stringify({ total: a.fields.totalAmount?.value, evidence: (a.fields.evidence?.totalAmount ?? []).join(' '), warnings: r.warnings }));`;

  it('loaded first in its main thread: the second reader still reads in the library\'s thread', async () => {
    const out = report(await run(['--input-type=module', '-e', scriptFor('main')], { timeout: 120_000 }));
    expect(out.total).toBe(29.05);
    expect(out.evidence).toMatch(/second-reader-(agrees|more-confident|only)/);
    expect(out.warnings.join(' ')).not.toMatch(/second reader/);
  }, 130_000);

  it('loaded first in a worker of its own: tesseract\'s reading stands and the result says why', async () => {
    const out = report(await run(['--input-type=module', '-e', scriptFor('worker')], { timeout: 120_000 }));
    expect(out.total).toBe(29.05);
    expect(out.evidence).not.toMatch(/second-reader/);
    expect(out.warnings.join(' ')).toMatch(/second reader \(PaddleOCR\) not used.*self-register/);
  }, 130_000);
});
