/**
 * A PDF thread (see pdf-thread.ts): reads the files it is sent with `readPdf`, one at a time, and
 * answers each with the pages or a typed error. pdf.js's own stray rejections stay in this thread.
 */
import { parentPort } from 'node:worker_threads';
import { ReceiptKitError } from '../errors.js';
import { readPdf } from './pdf.js';
import type { PdfThreadAnswer, PdfThreadJob } from './pdf-thread.js';

// pdf.js rejections that no promise of its own handles (broken files): this thread's, not the process's
process.on('unhandledRejection', () => undefined);

parentPort?.on('message', (job: PdfThreadJob) => {
  void (async () => {
    let answer: PdfThreadAnswer;
    try {
      const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
      answer = { ok: true, result: await readPdf(bytes, job.limits, undefined, { images: job.images }) };
    } catch (e) {
      answer = e instanceof ReceiptKitError
        ? { ok: false, code: e.code, message: e.message }
        : { ok: false, code: 'UNREADABLE_FILE', message: `the PDF could not be parsed: ${(e as Error)?.message ?? String(e)}` };
    }
    parentPort!.postMessage(answer);
  })();
});
