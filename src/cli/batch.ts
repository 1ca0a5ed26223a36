/** Batch mode: many files through one engine, JSON Lines out, progress on a terminal, summary at the end. */
import { createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Engine } from '../engine.js';
import type { ExtractOptionsInput } from '../contract/options.js';
import { isReceiptKitError } from '../errors.js';
import { selectShard } from './shard.js';
import type { Shard } from './shard.js';

export interface BatchOptions {
  out: string;
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
  ok: number;
  failed: number;
  errorsByCode: Record<string, number>;
  elapsedMs: number;
  medianMs: number;
}

/** Expands directories (recursively, skipping dot-files) into a sorted file list; files are kept as given. */
export async function listInputs(args: string[]): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string): Promise<void> {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) out.push(p);
    }
  }
  for (const a of args) {
    let st;
    try { st = await fs.stat(a); } catch { out.push(a); continue; } // reported as an error line later
    if (st.isDirectory()) await walk(a); else out.push(a);
  }
  return out;
}

function formatDuration(s: number): string {
  if (!Number.isFinite(s)) return '--';
  if (s < 60) return `${Math.round(s)}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** Runs the batch; never throws for a bad file (it becomes an error line). */
export async function runBatch(engine: Engine, args: string[], opts: BatchOptions): Promise<BatchSummary> {
  const files = selectShard(await listInputs(args), args, opts.shard);
  const stream = opts.progressStream ?? process.stderr;
  const tty = !opts.quiet && !!stream.isTTY;
  const out = createWriteStream(opts.out, { flags: 'w' });
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
      if (!out.write(line + '\n')) await new Promise<void>((r) => out.once('drain', () => r()));
      draw();
    }
  };
  draw();
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, files.length || 1)) }, worker));
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));

  durations.sort((a, b) => a - b);
  const summary: BatchSummary = {
    total: files.length, ok, failed, errorsByCode,
    elapsedMs: Math.round(performance.now() - started),
    medianMs: durations.length ? Math.round(durations[Math.floor(durations.length / 2)]!) : 0,
  };
  if (!opts.quiet) {
    if (tty) stream.write('\n');
    const codes = Object.entries(errorsByCode).map(([c, n]) => `${c} ${n}`).join(', ');
    stream.write(`${summary.total} files: ${ok} extracted, ${failed} failed${codes ? ` (${codes})` : ''} in ${formatDuration(summary.elapsedMs / 1000)}, median ${summary.medianMs} ms/file -> ${opts.out}\n`);
  }
  return summary;
}
