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
