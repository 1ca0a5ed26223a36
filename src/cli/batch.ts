/**
 * Batch mode: many files through one engine, JSON Lines out (a file, or stdout for `-`), progress on a
 * terminal (a bar) or elsewhere (a line every N files), summary at the end. `resume` skips the files that
 * already have a result in the output and appends.
 */
import { createWriteStream, promises as fs } from 'node:fs';
import type { Writable } from 'node:stream';
import type { Engine } from '../engine.js';
import type { ExtractOptionsInput } from '../contract/options.js';
import { ReceiptKitError, isReceiptKitError } from '../errors.js';
import { listInputs } from '../input/files.js';
import { selectShard } from './shard.js';
import type { Shard } from './shard.js';

export { INPUT_EXTENSIONS, listInputs } from '../input/files.js';

export interface BatchOptions {
  /** The JSON Lines output file; `-` writes to stdout. */
  out: string;
  /** Skip the files that already have a result line in `out` and append to it (default false: `out` is rewritten). */
  resume?: boolean;
  /** Without a terminal: a progress line every this many files (default 25; 0: none). */
  progressEvery?: number;
  /** Where `out: '-'` writes (default process.stdout). */
  stdout?: Writable;
  options: ExtractOptionsInput;
  concurrency: number;
  quiet?: boolean;
  /** Where progress and the summary go (default stderr). */
  progressStream?: NodeJS.WriteStream;
  /** Only this shard's files (`--shard i/n`, src/cli/shard.ts). */
  shard?: Shard | undefined;
}

export interface BatchSummary {
  total: number;
  /** Files skipped because the output already had their result (resume). */
  resumed: number;
  /** Files in folders skipped as not images or PDFs (by extension). */
  skipped: number;
  ok: number;
  failed: number;
  errorsByCode: Record<string, number>;
  elapsedMs: number;
  medianMs: number;
}

/** The files that already have a result line in a JSON Lines output (a cut last line is ignored). */
async function doneIn(file: string): Promise<{ done: Set<string>; endsWithNewline: boolean }> {
  let text: string;
  try { text = await fs.readFile(file, 'utf8'); } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { done: new Set(), endsWithNewline: true };
    throw new ReceiptKitError('INVALID_OPTION', `--resume: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { field: 'out' });
  }
  const done = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const row = JSON.parse(line) as { file?: unknown; result?: unknown };
      if (typeof row.file === 'string' && row.result !== undefined) done.add(row.file);
    } catch { /* a line cut by an interrupted run */ }
  }
  return { done, endsWithNewline: text.length === 0 || text.endsWith('\n') };
}

/** Opens the output; a clean INVALID_OPTION naming the file when it cannot be written. */
async function openOut(file: string, append: boolean): Promise<Writable> {
  let handle;
  try {
    handle = await fs.open(file, append ? 'a' : 'w');
  } catch (e) {
    throw new ReceiptKitError('INVALID_OPTION', `cannot write the output file ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { field: 'out' });
  }
  // the stream owns the FileHandle (an fd number alone would let the handle be closed by the GC)
  return createWriteStream(file, { fd: handle, flags: append ? 'a' : 'w' });
}

function formatDuration(s: number): string {
  if (!Number.isFinite(s)) return '--';
  if (s < 60) return `${Math.round(s)}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** Runs the batch; never throws for a bad file (it becomes an error line). */
export async function runBatch(engine: Engine, args: string[], opts: BatchOptions): Promise<BatchSummary> {
  const listed = await listInputs(args);
  const mine = selectShard(listed.files, args, opts.shard);
  const stream = opts.progressStream ?? process.stderr;
  const tty = !opts.quiet && !!stream.isTTY;
  const every = opts.quiet || tty ? 0 : opts.progressEvery ?? 25;
  const toStdout = opts.out === '-';
  let files = mine;
  let resumed = 0;
  let out: Writable;
  if (toStdout) {
    out = opts.stdout ?? process.stdout;
  } else {
    const previous = opts.resume ? await doneIn(opts.out) : undefined;
    if (previous) {
      files = files.filter((f) => !previous.done.has(f));
      resumed = mine.length - files.length;
    }
    out = await openOut(opts.out, !!opts.resume);
    if (previous && !previous.endsWithNewline) out.write('\n');
  }
  let outError: Error | undefined;
  out.on('error', (e) => { outError ??= e; });
  const started = performance.now();
  const durations: number[] = [];
  const errorsByCode: Record<string, number> = {};
  let done = 0, ok = 0, failed = 0, next = 0;

  const draw = (): void => {
    if (!tty) return;
    const elapsed = (performance.now() - started) / 1000;
    const rate = done / Math.max(elapsed, 1e-3);
    const eta = rate > 0 ? (files.length - done) / rate : Infinity;
    const width = 28;
    const filled = files.length ? Math.round((done / files.length) * width) : width;
    stream.write(`\r[${'='.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${files.length} ${rate.toFixed(2)} files/s ETA ${formatDuration(eta)} ${failed ? `(${failed} failed) ` : ''}`);
  };

  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const file = files[next++]!;
      const t0 = performance.now();
      let line: string;
      try {
        const result = await engine.extract(file, opts.options);
        ok++;
        line = JSON.stringify({ file, result });
      } catch (e) {
        failed++;
        const error = isReceiptKitError(e) ? { code: e.code, message: e.message } : { code: 'INTERNAL', message: String((e as Error)?.message ?? e) };
        errorsByCode[error.code] = (errorsByCode[error.code] ?? 0) + 1;
        line = JSON.stringify({ file, error });
      }
      durations.push(performance.now() - t0);
      done++;
      if (outError) throw new ReceiptKitError('INVALID_OPTION', `cannot write the output ${opts.out} (${(outError as NodeJS.ErrnoException).code ?? outError.message})`, { field: 'out' });
      if (!out.write(line + '\n')) await new Promise<void>((r) => { out.once('drain', () => r()); out.once('error', () => r()); });
      draw();
      if (every > 0 && (done % every === 0 || done === files.length)) {
        const elapsed = (performance.now() - started) / 1000;
        const rate = done / Math.max(elapsed, 1e-3);
        stream.write(`receiptkit batch: ${done}/${files.length} files${failed ? ` (${failed} failed)` : ''}, ${rate.toFixed(2)} files/s, ETA ${formatDuration((files.length - done) / Math.max(rate, 1e-9))}\n`);
      }
    }
  };
  draw();
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, files.length || 1)) }, worker));
  if (toStdout) await new Promise<void>((resolve) => { if (out.write('')) resolve(); else out.once('drain', () => resolve()); });
  else await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  if (outError) throw new ReceiptKitError('INVALID_OPTION', `cannot write the output ${opts.out} (${(outError as NodeJS.ErrnoException).code ?? outError.message})`, { field: 'out' });

  durations.sort((a, b) => a - b);
  const summary: BatchSummary = {
    total: files.length, resumed, skipped: listed.skipped, ok, failed, errorsByCode,
    elapsedMs: Math.round(performance.now() - started),
    medianMs: durations.length ? Math.round(durations[Math.floor(durations.length / 2)]!) : 0,
  };
  if (!opts.quiet) {
    if (tty) stream.write('\n');
    const codes = Object.entries(errorsByCode).map(([c, n]) => `${c} ${n}`).join(', ');
    const extra = [
      ...(resumed ? [`${resumed} already done (resume)`] : []),
      ...(listed.skipped ? [`${listed.skipped} skipped (not an image or PDF)`] : []),
    ].join(', ');
    stream.write(`${summary.total} files: ${ok} extracted, ${failed} failed${codes ? ` (${codes})` : ''}${extra ? `; ${extra}` : ''} in ${formatDuration(summary.elapsedMs / 1000)}, median ${summary.medianMs} ms/file -> ${toStdout ? 'stdout' : opts.out}\n`);
  }
  return summary;
}
