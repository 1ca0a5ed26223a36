/**
 * Reading a queue: its counts and rate (`receiptkit status`), its result lines in enqueue order
 * (`receiptkit results`, in the shape `batch` writes), and waiting for files to be final.
 */
import type { Writable } from 'node:stream';
import { ReceiptKitError } from '../errors.js';
import type { QueueDb } from './db.js';
import type { JobQueue } from './jobs.js';

export interface QueueStatus {
  /** Files queued in all. */
  total: number;
  /** Waiting for a worker (new, or waiting for a retry). */
  pending: number;
  /** Held by a worker now (leased). */
  running: number;
  /**
   * Of `running`: held by workers that no longer beat (killed, paused, cut off from the database):
   * silent for more than half the job's heartbeat window; taken back once the window has passed.
   */
  stale: number;
  /** Those jobs, longest silent first (at most 20). */
  staleJobs: StaleHeld[];
  /** Of `pending`: waiting for a retry (back-off after a failure, or a lease that ended). */
  retrying: number;
  done: number;
  /** Final with a typed error (kept with it). */
  failed: number;
  /** Dead letters: unexpected failures on every try. */
  dead: number;
  /** Files finished in the last minute, per second. */
  ratePerSecond: number;
  /** Files finished per second since the first was started. */
  overallRatePerSecond: number;
  /** Seconds left at the last minute's rate (null when nothing finished in it). */
  etaSeconds: number | null;
}

/** A job held by a worker that no longer beats. */
export interface StaleHeld {
  /** The file's id in the queue. */
  id: number;
  file: string;
  /** The worker that took it (host:pid). */
  worker: string | null;
  /** Seconds since its last heartbeat. */
  silentSeconds: number;
  /** It is taken back once `silentSeconds` passes this. */
  heartbeatSeconds: number;
}

/** One line of `results`: what `batch` writes for the file. */
export type ResultLine = { file: string; result: unknown } | { file: string; error: { code: string; message: string } };

/** The stale jobs with their files and workers. */
async function staleHeld(db: QueueDb, jobs: JobQueue): Promise<StaleHeld[]> {
  const stale = await jobs.stale(20);
  if (!stale.length) return [];
  const r = await db.query<{ id: string; file: string; worker: string | null }>('SELECT id, file, worker FROM $Q.files WHERE id = ANY($1::bigint[])', [stale.map((j) => j.id)]);
  const byId = new Map(r.rows.map((row) => [Number(row.id), row]));
  return stale.map((j) => ({ id: j.id, file: byId.get(j.id)?.file ?? '', worker: byId.get(j.id)?.worker ?? null, silentSeconds: j.silentSeconds, heartbeatSeconds: j.heartbeatSeconds }));
}

export async function queueStatus(db: QueueDb, jobs: JobQueue): Promise<QueueStatus> {
  const [states, rates, counts, staleJobs] = await Promise.all([
    db.query<{ state: string; n: number }>('SELECT state, count(*)::int AS n FROM $Q.files GROUP BY state'),
    db.query<{ recent: number; finished: number; span: number | null }>(`SELECT
      count(*) FILTER (WHERE finished_at > now() - interval '60 seconds')::int AS recent,
      count(finished_at)::int AS finished,
      extract(epoch FROM max(finished_at) - min(started_at))::float8 AS span FROM $Q.files`),
    jobs.counts(),
    staleHeld(db, jobs),
  ]);
  const by = Object.fromEntries(states.rows.map((r) => [r.state, r.n])) as Record<string, number>;
  const queued = by.queued ?? 0;
  const { recent, finished, span } = rates.rows[0]!;
  const ratePerSecond = recent / 60;
  const running = Math.min(counts.active, queued);
  return {
    total: queued + (by.done ?? 0) + (by.failed ?? 0) + (by.dead ?? 0),
    pending: queued - running, running, stale: Math.min(counts.stale, running), staleJobs, retrying: Math.min(counts.retry, queued - running),
    done: by.done ?? 0, failed: by.failed ?? 0, dead: by.dead ?? 0,
    ratePerSecond: round2(ratePerSecond),
    overallRatePerSecond: span && span > 0 ? round2(finished / span) : 0,
    etaSeconds: ratePerSecond > 0 ? Math.round(queued / ratePerSecond) : queued === 0 ? 0 : null,
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

interface FinalRow { id: string; file: string; state: string; result_json: string | null; error_json: string | null }

/** The JSON text of a file's line (the result's own JSON text kept byte for byte). */
function lineText(row: FinalRow): string {
  return row.state === 'done'
    ? `{"file":${JSON.stringify(row.file)},"result":${row.result_json}}`
    : `{"file":${JSON.stringify(row.file)},"error":${row.error_json}}`;
}

/** The result lines of the final files (of `ids` when given), in enqueue order, 1000 rows a query. */
export async function* resultLines(db: QueueDb, ids?: readonly number[]): AsyncGenerator<string> {
  let after = 0;
  for (;;) {
    const r = await db.query<FinalRow>(`SELECT id, file, state, result_json, error_json FROM $Q.files
      WHERE id > $1 AND state <> 'queued' ${ids ? 'AND id = ANY($2::bigint[])' : ''} ORDER BY id LIMIT 1000`, ids ? [after, ids] : [after]);
    for (const row of r.rows) yield lineText(row);
    if (r.rows.length < 1000) return;
    after = Number(r.rows.at(-1)!.id);
  }
}

export interface ExportSummary { written: number; failed: number; dead: number; unfinished: number }

/** Writes the result lines (JSON Lines) to a stream; counts what it wrote and what is not final yet. */
export async function writeResults(db: QueueDb, out: Writable): Promise<ExportSummary> {
  let written = 0;
  for await (const line of resultLines(db)) {
    if (!out.write(line + '\n')) await new Promise<void>((r) => { out.once('drain', () => r()); out.once('error', () => r()); });
    written++;
  }
  const r = await db.query<{ failed: number; dead: number; unfinished: number }>(`SELECT count(*) FILTER (WHERE state = 'failed')::int AS failed,
    count(*) FILTER (WHERE state = 'dead')::int AS dead, count(*) FILTER (WHERE state = 'queued')::int AS unfinished FROM $Q.files`);
  return { written, ...r.rows[0]! };
}

export interface WaitOptions {
  /** How often to look, ms (default 1000). */
  pollMs?: number;
  /** Give up after this long (TIMEOUT), ms; default: wait as long as it takes. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Resolves with the lines of `ids` (all files when absent) once none of them is still queued. */
export async function waitForFiles(db: QueueDb, ids: readonly number[] | undefined, o: WaitOptions = {}): Promise<ResultLine[]> {
  const started = Date.now();
  const pollMs = o.pollMs ?? 1000;
  for (;;) {
    const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM $Q.files WHERE state = 'queued' ${ids ? 'AND id = ANY($1::bigint[])' : ''}`, ids ? [ids] : []);
    if (r.rows[0]!.n === 0) break;
    if (o.signal?.aborted) throw new ReceiptKitError('TIMEOUT', 'waiting for queued files: aborted');
    if (o.timeoutMs !== undefined && Date.now() - started > o.timeoutMs) {
      throw new ReceiptKitError('TIMEOUT', `waiting for queued files: ${r.rows[0]!.n} not final after ${o.timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const lines: ResultLine[] = [];
  for await (const text of resultLines(db, ids)) lines.push(JSON.parse(text) as ResultLine);
  return lines;
}
