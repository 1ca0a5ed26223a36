/**
 * The job-queue commands (src/queue):
 *   receiptkit enqueue <dir|files...> --queue URL     one job per file identity not queued before
 *   receiptkit work --queue URL [--workers N] [--drain]
 *   receiptkit status --queue URL [--json]
 *   receiptkit results --queue URL --out FILE.jsonl|- [--wait]
 */
import { createWriteStream, promises as fs } from 'node:fs';
import type { Writable } from 'node:stream';
import { createEngine } from '../engine.js';
import { ReceiptKitError } from '../errors.js';
import { isPostgresUrl } from '../store/pg.js';
import { openQueue } from '../queue/index.js';
import type { JobEvent, QueueStatus, ReceiptQueue, WorkSummary } from '../queue/index.js';
import type { CliValues } from './args.js';
import { engineOptions, extractionOptions, str, usageError, wholeNumber } from './args.js';

export const QUEUE_COMMANDS: ReadonlySet<string> = new Set(['enqueue', 'work', 'status', 'results']);

/** Runs a queue command; resolves with the exit code. */
export async function runQueueCommand(command: string, args: string[], values: CliValues): Promise<number> {
  const url = str(values.queue);
  if (!url) usageError(`${command} needs --queue postgres://...`);
  if (!isPostgresUrl(url)) usageError(`--queue takes a postgres:// or postgresql:// URL`);
  if (command !== 'enqueue' && args.length > 0) usageError(`${command} takes no file arguments, got '${args[0]}'`);
  if (command === 'enqueue' && args.length === 0) usageError('enqueue needs at least one file or folder');
  if (command === 'results' && !str(values.out)) usageError('results needs --out FILE (or - for stdout)');
  const workers = wholeNumber('workers', values.workers);
  const queue = await openQueue(url, {
    ...(str(values['queue-schema']) ? { schema: str(values['queue-schema']) } : {}),
    poolSize: (workers ?? 1) + 3,
  });
  try {
    if (command === 'enqueue') return await enqueue(queue, args, values);
    if (command === 'work') return await work(queue, url, values);
    if (command === 'status') return await status(queue, values);
    return await results(queue, values);
  } finally {
    await queue.close();
  }
}

async function enqueue(queue: ReceiptQueue, args: string[], values: CliValues): Promise<number> {
  const options = extractionOptions(values);
  const tries = wholeNumber('tries', values.tries);
  const leaseSeconds = wholeNumber('lease', values.lease);
  const heartbeatSeconds = wholeNumber('heartbeat', values.heartbeat);
  const retryDelaySeconds = wholeNumber('retry-delay', values['retry-delay']);
  const s = await queue.enqueue(args, {
    options, ...(tries ? { tries } : {}), ...(leaseSeconds ? { leaseSeconds } : {}), ...(heartbeatSeconds ? { heartbeatSeconds } : {}),
    ...(retryDelaySeconds ? { retryDelaySeconds } : {}),
  });
  for (const u of s.unreadable) process.stderr.write(`receiptkit: ${u.file}: ${u.message} (not queued)\n`);
  if (!values.quiet) {
    const extra = [
      ...(s.skipped ? [`${s.skipped} skipped (not an image or PDF)`] : []),
      ...(s.unreadable.length ? [`${s.unreadable.length} unreadable`] : []),
    ].join(', ');
    process.stderr.write(`${s.listed} files: ${s.added} queued, ${s.existing} already in the queue${extra ? `; ${extra}` : ''} -> ${queue.location}\n`);
  }
  return s.unreadable.length ? 1 : 0;
}

/** One JSON line per job on stdout; SIGTERM/SIGINT finish the jobs in hand, a second signal exits at once. */
async function work(queue: ReceiptQueue, url: string, values: CliValues): Promise<number> {
  const workers = wholeNumber('workers', values.workers) ?? 1;
  const timeoutMs = wholeNumber('timeout', values.timeout);
  const pollMs = wholeNumber('poll', values.poll);
  const log = (l: Record<string, unknown>) => { if (!values.quiet) process.stdout.write(JSON.stringify({ time: new Date().toISOString(), ...l }) + '\n'); };
  const stop = new AbortController();
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) process.exit(signal === 'SIGINT' ? 130 : 143); // jobs in hand are retried once their heartbeat window passes
    log({ msg: 'signal', signal, note: 'finishing the jobs in hand' });
    stop.abort();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  let summary: WorkSummary;
  const engine = await createEngine(engineOptions(values, { storeUrl: url })).catch((e) => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    throw e;
  });
  try {
    log({ msg: 'working', queue: queue.location, workers, pid: process.pid });
    summary = await queue.work(engine, {
      concurrency: workers, drain: !!values.drain, signal: stop.signal,
      ...(timeoutMs ? { timeoutMs } : {}), ...(pollMs ? { pollMs } : {}),
      onJob: (e: JobEvent) => log({ msg: 'job', ...e }),
      onError: (e: unknown) => log({ msg: 'queue-error', error: (e as Error).message }),
    });
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    await engine.close();
  }
  log({ msg: 'stopped', ...summary });
  if (!values.quiet) {
    process.stderr.write(`receiptkit work: ${summary.done} extracted, ${summary.failed} failed, ${summary.errors} unexpected errors (retried), ${summary.dead} dead letters recorded` +
      `${summary.abandoned ? `, ${summary.abandoned} abandoned (taken by another worker after missed heartbeats)` : ''}` +
      ` in ${(summary.elapsedMs / 1000).toFixed(1)} s (${summary.stoppedBy === 'drained' ? 'queue drained' : 'stopped by a signal'})\n`);
  }
  return 0;
}

/** 45s, 12m, 19h45m. */
function formatEta(seconds: number | null): string {
  if (seconds === null) return '--';
  if (seconds < 120) return `${seconds}s`;
  const m = Math.round(seconds / 60);
  return m < 120 ? `${m}m` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

function formatStatus(s: QueueStatus): string {
  const eta = formatEta(s.etaSeconds);
  const stale = s.staleJobs.map((j) => `  ${j.file} (id ${j.id}): held by ${j.worker ?? '?'}, no heartbeat for ${j.silentSeconds} s (taken back after ${j.heartbeatSeconds} s)\n`).join('');
  return `${s.total} files: ${s.pending} pending${s.retrying ? ` (${s.retrying} waiting to retry)` : ''}, ${s.running} running` +
    `${s.stale ? ` (${s.stale} held by workers that no longer beat)` : ''}, ${s.done} done, ${s.failed} failed, ${s.dead} dead\n` +
    `rate: ${s.ratePerSecond} files/s over the last minute, ${s.overallRatePerSecond} files/s since the start; ETA ${eta}\n${stale}`;
}

async function status(queue: ReceiptQueue, values: CliValues): Promise<number> {
  const s = await queue.status();
  process.stdout.write(values.json ? JSON.stringify(s) + '\n' : formatStatus(s));
  return 0;
}

async function openOut(file: string): Promise<Writable> {
  if (file === '-') return process.stdout;
  try {
    return createWriteStream(file, { fd: await fs.open(file, 'w') });
  } catch (e) {
    throw new ReceiptKitError('INVALID_OPTION', `cannot write the output file ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { field: 'out' });
  }
}

async function results(queue: ReceiptQueue, values: CliValues): Promise<number> {
  if (values.wait) await queue.wait(undefined, { ...(wholeNumber('poll', values.poll) ? { pollMs: wholeNumber('poll', values.poll) } : {}) });
  const file = str(values.out)!;
  const out = await openOut(file);
  const s = await queue.writeResults(out);
  if (file !== '-') await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  if (!values.quiet) {
    process.stderr.write(`${s.written} result lines (${s.failed} failed, ${s.dead} dead)${s.unfinished ? `; ${s.unfinished} files not finished yet` : ''} -> ${file === '-' ? 'stdout' : file}\n`);
  }
  return s.failed + s.dead + s.unfinished > 0 ? 1 : 0;
}
