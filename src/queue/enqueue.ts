/**
 * Enqueuing: the folders and files named are listed as `batch` lists them (src/input/files.ts), each
 * file's identity is its path inside the folder given plus the sha256 of its content, and one job is
 * added per identity not queued before, in the listed order. A chunk of files and their jobs commit in
 * one transaction, so a file row never lacks its job; enqueuing the same files again adds nothing.
 */
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { ReceiptKitError } from '../errors.js';
import { extractOptionsSchema, parseOrThrow } from '../contract/options.js';
import type { ExtractOptionsInput } from '../contract/options.js';
import { listInputs, relativeKey } from '../input/files.js';
import type { QueueDb } from './db.js';
import { orderedJobId } from './jobs.js';
import type { JobQueue, JobSettings } from './jobs.js';

/** Extraction options a queued job carries (the ones `batch` takes); per-machine settings are the worker's. */
export type QueuedExtractOptions = Pick<ExtractOptionsInput, 'verbose' | 'extractLineItems' | 'detectFraud' | 'readCodes' | 'extractTime' | 'language' | 'near' | 'ignoreMerchantName'>;
const QUEUED_OPTION_KEYS = ['verbose', 'extractLineItems', 'detectFraud', 'readCodes', 'extractTime', 'language', 'near', 'ignoreMerchantName'] as const;

export interface EnqueueOptions {
  /** Extraction options every job of this call is extracted with (default: the simple result). */
  options?: QueuedExtractOptions;
  /** Tries in all before an unexpected failure makes the job a dead letter (default 3, 1..100). */
  tries?: number;
  /**
   * A job whose worker has not beaten for this long is taken from it and retried, seconds (default 20,
   * 10..3600). A live worker beats four times per window, however long its file takes.
   */
  heartbeatSeconds?: number;
  /** The hard limit on how long one worker may hold a job even while it beats, seconds (default 86400, 5..86400): a job held longer is retried. */
  leaseSeconds?: number;
  /** Back-off before the first retry, seconds, doubled with jitter per try (default 10, 1..3600). */
  retryDelaySeconds?: number;
  /** Called after each chunk (500 files) is committed. */
  onProgress?: (done: number, total: number) => void;
}

export interface QueuedFile {
  /** The file's id in the queue (enqueue order). */
  id: number;
  /** The path as listed (the `file` of its result line). */
  file: string;
  /** Its path inside the folder given, `/` separators. */
  relPath: string;
  sha256: string;
  /** False when this identity was queued before (nothing added). */
  added: boolean;
}

export interface EnqueueSummary {
  /** Images and PDFs listed. */
  listed: number;
  added: number;
  /** Listed files whose identity was queued before. */
  existing: number;
  /** Files in folders skipped as not images or PDFs (by extension). */
  skipped: number;
  /** Files that could not be read (nothing queued for them). */
  unreadable: Array<{ file: string; message: string }>;
  files: QueuedFile[];
}

const CHUNK = 500;
const HASH_CONCURRENCY = 8;

function intIn(name: string, v: number | undefined, dflt: number, min: number, max: number): number {
  if (v === undefined) return dflt;
  if (!Number.isInteger(v) || v < min || v > max) throw new ReceiptKitError('INVALID_OPTION', `${name}: a whole number ${min}..${max}, not ${JSON.stringify(v)}`, { field: name });
  return v;
}

/** The job settings of an enqueue call, checked (INVALID_OPTION naming the option). */
export function jobSettings(o: EnqueueOptions): JobSettings {
  return {
    tries: intIn('tries', o.tries, 3, 1, 100),
    leaseSeconds: intIn('leaseSeconds', o.leaseSeconds, 86_400, 5, 86_400),
    heartbeatSeconds: intIn('heartbeatSeconds', o.heartbeatSeconds, 20, 10, 3600),
    retryDelaySeconds: intIn('retryDelaySeconds', o.retryDelaySeconds, 10, 1, 3600),
  };
}

/** The options stored with the jobs: checked by the extraction schema, only the keys a job carries. */
export function queuedOptions(options: QueuedExtractOptions = {}): string {
  const unknown = Object.keys(options).filter((k) => !(QUEUED_OPTION_KEYS as readonly string[]).includes(k));
  if (unknown.length) throw new ReceiptKitError('INVALID_OPTION', `options: not an option a queued job carries: ${unknown.join(', ')}`, { field: unknown[0]! });
  parseOrThrow(extractOptionsSchema, options, 'options');
  const kept: Record<string, unknown> = {};
  for (const k of QUEUED_OPTION_KEYS) if (options[k] !== undefined) kept[k] = options[k];
  return JSON.stringify(kept);
}

/** sha256 of a file's content, streamed. */
export function sha256OfFile(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file).on('error', reject).on('data', (c) => hash.update(c)).on('end', () => resolve(hash.digest('hex')));
  });
}

interface Listed { file: string; relPath: string; absPath: string; sha256: string }

/** Hashes files a few at a time, order kept; unreadable ones are reported, not listed. */
async function identities(files: readonly string[], args: readonly string[], unreadable: EnqueueSummary['unreadable']): Promise<Listed[]> {
  const out: Array<Listed | undefined> = new Array(files.length);
  let next = 0;
  const hasher = async () => {
    while (next < files.length) {
      const i = next++;
      const file = files[i]!;
      try {
        out[i] = { file, relPath: relativeKey(file, args), absPath: path.resolve(file), sha256: await sha256OfFile(file) };
      } catch (e) {
        unreadable.push({ file, message: `cannot read the file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` });
      }
    }
  };
  await Promise.all(Array.from({ length: HASH_CONCURRENCY }, hasher));
  return out.filter((l): l is Listed => l !== undefined);
}

/** Inserts one chunk's file rows and the jobs of the new ones, in one transaction; ids in listed order. */
async function insertChunk(db: QueueDb, jobs: JobQueue, chunk: readonly Listed[], optionsJson: string, settings: JobSettings): Promise<QueuedFile[]> {
  const jobIds = chunk.map(() => orderedJobId());
  return db.transaction(async (tx) => {
    const r = await db.query<{ ord: string; id: string; added: boolean; job_id: string | null }>(`
      WITH input AS (
        SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::uuid[]) WITH ORDINALITY AS t(rel_path, sha256, file, abs_path, job_id, ord)
      ), ins AS (
        INSERT INTO $Q.files (rel_path, sha256, file, abs_path, options_json, job_id)
        SELECT rel_path, sha256, file, abs_path, $6, job_id FROM input ORDER BY ord
        ON CONFLICT (rel_path, sha256) DO NOTHING
        RETURNING id, rel_path, sha256, job_id
      )
      SELECT i.ord, coalesce(ins.id, f.id) AS id, ins.id IS NOT NULL AS added, ins.job_id
      FROM input i LEFT JOIN ins ON ins.rel_path = i.rel_path AND ins.sha256 = i.sha256
        LEFT JOIN $Q.files f ON f.rel_path = i.rel_path AND f.sha256 = i.sha256
      ORDER BY i.ord`,
    [chunk.map((c) => c.relPath), chunk.map((c) => c.sha256), chunk.map((c) => c.file), chunk.map((c) => c.absPath), jobIds, optionsJson], tx);
    await jobs.insert(r.rows.filter((row) => row.added).map((row) => ({ id: Number(row.id), jobId: row.job_id! })), settings, tx);
    return r.rows.map((row) => {
      const c = chunk[Number(row.ord) - 1]!;
      return { id: Number(row.id), file: c.file, relPath: c.relPath, sha256: c.sha256, added: row.added };
    });
  });
}

/** Lists, hashes and enqueues; one job per identity not queued before. */
export async function enqueueFiles(db: QueueDb, jobs: JobQueue, args: readonly string[], o: EnqueueOptions = {}): Promise<EnqueueSummary> {
  const settings = jobSettings(o);
  const optionsJson = queuedOptions(o.options);
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string' || !a)) {
    throw new ReceiptKitError('INVALID_INPUT', 'enqueue takes file and folder paths', { field: 'input' });
  }
  const listed = await listInputs([...args]);
  const unreadable: EnqueueSummary['unreadable'] = [];
  const seen = new Set<string>();
  const files: QueuedFile[] = [];
  for (let i = 0; i < listed.files.length; i += CHUNK) {
    const ids = await identities(listed.files.slice(i, i + CHUNK), args, unreadable);
    // one identity once, the first time it is listed
    const chunk = ids.filter((l) => { const k = `${l.relPath}\u0000${l.sha256}`; if (seen.has(k)) return false; seen.add(k); return true; });
    if (chunk.length) files.push(...await insertChunk(db, jobs, chunk, optionsJson, settings));
    o.onProgress?.(Math.min(i + CHUNK, listed.files.length), listed.files.length);
  }
  const added = files.filter((f) => f.added).length;
  return { listed: listed.files.length, added, existing: files.length - added, skipped: listed.skipped, unreadable, files };
}
