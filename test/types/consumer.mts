// A strict ESM consumer of the published types (self-reference by package name, so through "exports").
import { extract, createEngine, isReceiptKitError } from 'receiptkit-ocr';
import type { SimpleResult, VerboseResult } from 'receiptkit-ocr';

export async function total(file: string): Promise<number | undefined> {
  const r: SimpleResult = await extract(file);
  if (r.totalAmount.data !== undefined) {
    const n: number = r.totalAmount.data;
    return n;
  }
  // @ts-expect-error a missing field has no number in data
  const bad: number = r.totalAmount.data;
  void bad;
  return undefined;
}

export async function verboseDate(file: string): Promise<string | undefined> {
  const engine = await createEngine();
  try {
    const v: VerboseResult = await engine.extract(file, { verbose: true });
    return v.date.data !== undefined ? v.date.data.slice(0, 10) : undefined;
  } catch (e) {
    if (isReceiptKitError(e)) return e.code;
    throw e;
  } finally {
    await engine.close();
  }
}

// The job queue: an app enqueues its own files and awaits their lines (src/queue).
import { openQueue } from 'receiptkit-ocr';
import type { ResultLine, QueueStatus, WorkSummary } from 'receiptkit-ocr';

export async function queued(url: string, files: string[]): Promise<number[]> {
  const queue = await openQueue(url, { schema: 'app_queue' });
  try {
    const summary = await queue.enqueue(files, { options: { verbose: true }, tries: 3, leaseSeconds: 300 });
    const engine = await createEngine({ workers: 1 });
    const worked: WorkSummary = await queue.work(engine, { concurrency: 1, drain: true });
    await engine.close();
    const status: QueueStatus = await queue.status();
    const lines: ResultLine[] = await queue.wait(summary.files.map((f) => f.id), { pollMs: 500 });
    return [worked.done, status.done, ...lines.map((l) => ('result' in l ? 1 : 0))];
  } finally {
    await queue.close();
  }
}
