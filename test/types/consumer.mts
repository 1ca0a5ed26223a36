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

// extract is typed by its options: verbose for `verbose: true`, simple for none or `verbose: false`.
export async function typedByOptions(file: string): Promise<void> {
  const v = await extract(file, { verbose: true, extractLineItems: false });
  const items: unknown[] | undefined = v.entities.productLineItems;
  const s = await extract(file, { verbose: false });
  // @ts-expect-error a simple result has no line items
  void s.entities;
  const plain = await extract(file);
  // @ts-expect-error nor has the result without options
  void plain.trackingId;
  const flag: boolean = Math.random() > 0.5;
  const either = await extract(file, { verbose: flag });
  // @ts-expect-error a verbose flag known only at run time gives either shape
  const sure: VerboseResult = either;
  void items; void sure;
}

// The job queue: an app enqueues its own files and awaits their lines (receiptkit-ocr/queue, src/queue).
import { openQueue } from 'receiptkit-ocr/queue';
import type { ResultLine, QueueStatus, WorkSummary } from 'receiptkit-ocr/queue';

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

// The HTTP server (receiptkit-ocr/server, src/server): started from code, then closed.
import { startServer, loadServerConfig } from 'receiptkit-ocr/server';
import type { ReceiptServer } from 'receiptkit-ocr/server';

export async function served(configPath: string): Promise<string> {
  const server: ReceiptServer = await startServer({ config: loadServerConfig({ configPath }) });
  try {
    return server.url;
  } finally {
    await server.close();
  }
}
