/**
 * PDFs are read in PDF threads (src/input/pdf-thread.ts): pdf.js's own unhandled rejections on broken
 * files stay there, a file is stopped by the caller's signal even mid-parse, and threads are reused.
 */
import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadInput } from '../src/input/index.js';
import { isReceiptKitError, ReceiptKitError } from '../src/errors.js';
import { workerExecArgv } from '../src/input/pdf-thread.js';

const ROOT = path.resolve(__dirname, '..');
// found by bench/fuzz.mjs (seed 1, input 1875: the generated 'pdf-kids-loop' PDF, a chunk duplicated,
// bits flipped): pdf.js opens it, then a page dictionary it prefetched fails to parse and nothing of
// pdf.js's handles that rejection ("FormatError: Invalid number: P")
const STRAY_REJECTION_PDF = Buffer.from('JVBERi0xLjQKMSAwIG9iago8PCAvVHlwZSAvQ2F0YWxvZyAvUGFnZXMgMiAwIFIgPj4KZW5kb2JqCjIgMCBvYmoKPDwgL1R5cGUgL1BhZ2VzIC9LaWRzIFsyIDAgUiA0IDAgUl0gL0NvdW50IDIgPj4KZW5kb3JqSjMgMCBvYmoKPDwgL1R5cGUgL0ZvbnQgL1NlYnR5cGUgL1R5cGUxIC9CYXNlRm9udCAvSGVsdmV0aWNhID4+CmVuRG8iago0IDAgb2JqCjw8IC9UeXBlIC1QYWdlcyAvUGFyZW50IDIgMCBSIC9LaWRzIFsyIDAgUl0gL0NvdW50IDEgPj4KZW5gb2JqCnhyZWYKMCA1CjAwMDAwMDAwMDAgNjU1MzUAZiAKMDAwMDAwMDAwOSAwMDAwMCBuIAowMDAwMDAwMDU4IDAwMDAwIG4gCjAwMDAwMDAxMjEgMDAxMDAgbiAKMDAwMDAwMDE5MSAwMDAwMCBuIAp0cmFpbGVyCnw8IC9baXplIDUgL1Jvb3QgMSAwIFIgPj4Kc3RhcnR4cmVmCjI2MgolJUVPRgowMDAwMDAxMjEgMDAwMDAgbiAKMDAwMDAwMDE5MSAwMDAwMCBuIAp0cmFpbGVyCjw8IC9TaXplIDUgL1Jvb3QgMSAwIFIgPj4Kc3RhcnR4cmVmCjI2MgolJUVPRgo=', 'base64');

/** Runs a script with node in a child process (dist/ build), returning its stdout. */
function node(script: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
}

describe('PDF threads', () => {
  it('pdf.js reading the fuzz-found file in the caller\'s thread leaves an unhandled rejection (why the thread exists)', () => {
    const out = node(`
      let n = 0; process.on('unhandledRejection', () => { n++; });
      const { readPdf } = await import('./dist/input/pdf.js');
      const { DEFAULT_LIMITS } = await import('./dist/input/types.js');
      await readPdf(Buffer.from('${STRAY_REJECTION_PDF.toString('base64')}', 'base64'), DEFAULT_LIMITS).catch(() => {});
      await new Promise((r) => setTimeout(r, 300));
      console.log('unhandled=' + n);`);
    expect(out).toMatch(/unhandled=[1-9]/);
  });

  it('through loadInput the same file leaves no unhandled rejection in the process', () => {
    // a child process: Node's default for an unhandled rejection is to end the process with an error
    const out = node(`
      let n = 0; process.on('unhandledRejection', () => { n++; });
      const { loadInput } = await import('./dist/input/index.js');
      let what;
      try { const r = await loadInput(Buffer.from('${STRAY_REJECTION_PDF.toString('base64')}', 'base64')); what = 'pages=' + r.pages.length; }
      catch (e) { what = 'error=' + e.code; }
      await new Promise((r) => setTimeout(r, 300));
      console.log(what + ' unhandled=' + n);`);
    // pdf.js opens it as one page without a text layer (the in-thread reading gives the same)
    expect(out).toMatch(/^pages=1 unhandled=0$/m);
  });

  it('a process started with --input-type and -e (flags a thread from a file refuses) reads PDFs in threads', () => {
    const out = node(`
      const { loadInput } = await import('./dist/input/index.js');
      const r = await loadInput('fixtures/invoice.pdf');
      console.log('kind=' + r.pages[0].kind);`);
    expect(out).toMatch(/^kind=text$/m);
  });

  it('close() of an engine ends the idle PDF thread, and one reading a file for an extraction in flight', () => {
    const out = node(`
      const { createEngine } = await import('./dist/index.js');
      const threads = [];
      process.on('worker', (w) => threads.push(w));
      const a = await createEngine({});
      await a.extract('fixtures/invoice.pdf'); // its thread is idle now
      const idle = threads.length;
      await a.close();
      const b = await createEngine({});
      let code;
      const p = b.extract('fixtures/invoice-scanned.pdf', { refresh: true }).then(() => 'extracted', (e) => e.code);
      // close while the thread reads the scan (or, on a fast machine, just after: it is idle then)
      await new Promise((r) => { process.once('worker', () => setTimeout(r, 100)); });
      await b.close();
      code = await p;
      console.log(JSON.stringify({ idle, code, threads: threads.map((t) => t.threadId) }));`);
    const r = JSON.parse(out.trim().split('\n').pop()!);
    expect(r.idle).toBeGreaterThanOrEqual(1);
    expect(r.code).toBe('ENGINE_CLOSED');
    expect(r.threads.length).toBeGreaterThanOrEqual(2);
    expect(r.threads.every((id: number) => id === -1)).toBe(true); // Node sets -1 once a thread has exited
  });

  it('workerExecArgv keeps the other flags', () => {
    expect(workerExecArgv(['--input-type=module', '-e', 'code', '--max-old-space-size=4096', '--eval', 'x', '--trace-warnings', '-p', 'y', '--input-type', 'commonjs']))
      .toEqual(['--max-old-space-size=4096', '--trace-warnings']);
  });

  it('in this process too: typed result or error, and the next PDF is read', async () => {
    const first = await loadInput(STRAY_REJECTION_PDF).then((r) => r.pages.length, (e: unknown) => e);
    if (typeof first !== 'number') expect(isReceiptKitError(first)).toBe(true);
    const good = await loadInput(readFileSync(path.join(ROOT, 'fixtures', 'invoice.pdf')));
    expect(good.pages[0]!.kind).toBe('text');
    expect(good.pages[0]!.kind === 'text' && good.pages[0]!.words.map((w) => w.text).join(' ')).toMatch(/total/i);
  });

  it('page images come back as Buffers', async () => {
    const scan = await loadInput(readFileSync(path.join(ROOT, 'fixtures', 'invoice-scanned.pdf')));
    const page = scan.pages[0]!;
    expect(page.kind).toBe('raster');
    if (page.kind === 'raster') {
      expect(Buffer.isBuffer(page.image)).toBe(true);
      expect(page.image.subarray(1, 4).toString('latin1')).toBe('PNG');
    }
  });

  it('the caller\'s signal stops a PDF mid-read with its own reason', async () => {
    const many = Buffer.from(readFileSync(path.join(ROOT, 'fixtures', 'invoice-scanned.pdf')));
    const controller = new AbortController();
    const reason = new ReceiptKitError('TIMEOUT', 'the caller gave up');
    const t0 = performance.now();
    const p = loadInput(many, { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    await expect(p).rejects.toBe(reason);
    expect(performance.now() - t0).toBeLessThan(2000);
    // and the threads still work afterwards
    const again = await loadInput(readFileSync(path.join(ROOT, 'fixtures', 'invoice.pdf')));
    expect(again.pages.length).toBe(1);
  });
});
