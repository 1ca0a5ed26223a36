/**
 * Server configuration: accounts and their API keys, limits, rate limit and queue. Read from a JSON
 * file (`--config FILE` or env `RECEIPTKIT_CONFIG`) and/or env `RECEIPTKIT_API_KEYS`; nothing is
 * hard-coded. A bad configuration is an INVALID_OPTION error naming the field, before anything starts.
 *
 * RECEIPTKIT_API_KEYS is either JSON (an accounts array, or a whole config object) or a list of
 * `accountId:key` pairs separated by commas, semicolons or whitespace (`acme:k1,acme:k2,beta:k3`).
 * Accounts from the environment are merged into the file's accounts by id. `RECEIPTKIT_DATA_DIR` sets
 * `dataDir` and `RECEIPTKIT_INLINE_VALIDATION` (comma-separated account ids, or `*`) enables inline
 * validation for accounts from the environment. `RECEIPTKIT_CORS_ORIGINS` (comma-separated origins, or
 * `*`) sets `cors.origins` when the file does not.
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import os from 'node:os';
import { z } from 'zod';
import { engineOptionsSchema, parseOrThrow } from '../contract/options.js';
import type { EngineOptions } from '../contract/options.js';
import { ReceiptKitError } from '../errors.js';

const rateLimitSchema = z.strictObject({
  /** Tokens added per second (sustained requests per second per key). */
  perSecond: z.number().positive(),
  /** Bucket size: requests a key may make at once after being idle. */
  burst: z.number().int().min(1),
});

const accountSchema = z.strictObject({
  /** Account id: names the account in logs and (by default) its store file. */
  id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, ".", "_" or "-", 1..64 characters'),
  /** API keys of the account (at least 16 characters each), or `sha256:<hex>` of a key. */
  keys: z.array(z.string().min(16, 'an API key needs at least 16 characters')).min(1),
  /** Inline validation (`/api/validation/v1/receipt-validation/...`) is allowed (default false). */
  inlineValidation: z.boolean().default(false),
  /** The account engine's SQLite store; default `<dataDir>/<id>.db` when `dataDir` is set (and no `storeUrl`). */
  storePath: z.string().min(1).optional(),
  /** The account's PostgreSQL store (default: the server's `storeUrl`). */
  storeUrl: engineOptionsSchema.shape.storeUrl,
  /** The PostgreSQL schema of the account's tables (default: the account id). */
  storeSchema: engineOptionsSchema.shape.storeSchema,
  /** The account's enrichment lists (rows or CSV text), passed to its engine; they replace the stored lists they name at start. */
  enrichment: engineOptionsSchema.shape.enrichment,
  /** Overrides the server's rate limit for this account's keys (`false`: none). */
  rateLimit: z.union([rateLimitSchema, z.literal(false)]).optional(),
});

export const serverConfigSchema = z.strictObject({
  port: z.number().int().min(0).max(65535).default(8080),
  host: z.string().min(1).default('127.0.0.1'),
  /** Folder for the accounts' stores (`<dataDir>/<accountId>.db`). */
  dataDir: z.string().min(1).optional(),
  /**
   * A PostgreSQL store shared by every replica (`postgres://user:password@host:5432/db`; env
   * `RECEIPTKIT_STORE_URL`): each account's tables in a schema named after its id. Wins over `dataDir`.
   */
  storeUrl: engineOptionsSchema.shape.storeUrl,
  accounts: z.array(accountSchema).default([]),
  /** Per-key token bucket (default 10/s, burst 20); `false` turns rate limiting off. */
  rateLimit: z.union([rateLimitSchema, z.literal(false)]).default({ perSecond: 10, burst: 20 }),
  /** Engine calls running at once, all accounts together (default: the OCR workers, min(cores, 4)). */
  concurrency: z.number().int().min(1).max(64).optional(),
  /** Engine calls allowed to wait for a slot; past it requests get 503 with Retry-After (default 32). */
  maxQueue: z.number().int().min(0).max(100_000).default(32),
  /** OCR workers per account engine (default: the engine's default). */
  workers: z.number().int().min(1).max(32).optional(),
  /** Time limit of one engine call, its wait in the queue included, ms (504 past it; default 120000). */
  requestTimeoutMs: z.number().int().positive().default(120_000),
  /** Time for a request's headers to arrive, ms (408 past it, checked every quarter of it up to 1 s; default 30000). */
  headersTimeoutMs: z.number().int().positive().default(30_000),
  /** Longest pause in a request body, ms (408 past it; default 15000). */
  bodyIdleTimeoutMs: z.number().int().positive().default(15_000),
  /**
   * Slowest average body rate, bytes per second, once the body has been arriving for
   * `bodyIdleTimeoutMs` (408 below it: a body trickled a byte at a time is cut off; default 1024).
   */
  minBodyBytesPerSecond: z.number().int().min(0).default(1024),
  /** Time for a whole request body to arrive, ms (408 past it; default 300000). */
  bodyTimeoutMs: z.number().int().positive().default(300_000),
  /**
   * Lingering close: after refusing a request whose body was not read (401, 403, 413, ...), the rest of
   * the body is read and discarded for at most this long, ms, and at most the file limit in bytes,
   * before the connection is closed, so a client still sending sees the answer instead of a reset
   * (default 5000; 0 closes at once).
   */
  lingerMs: z.number().int().min(0).default(5_000),
  /** Open connections per client address; past it a new connection gets a 503 and is closed (default 32). */
  maxConnectionsPerAddress: z.number().int().min(1).default(32),
  /**
   * CORS for `/api/` and `/healthz`: origins allowed to call the API from a browser (`https://app.example`,
   * or `*` for any; default none: no CORS headers). Env `RECEIPTKIT_CORS_ORIGINS` (comma-separated).
   */
  cors: z.strictObject({
    origins: z.array(z.string().regex(/^(?:\*|https?:\/\/[^/\s]+)$/, 'an origin is "*" or scheme://host[:port] without a path')).default([]),
    /** How long a browser may cache a preflight answer, seconds (default 600). */
    maxAgeSeconds: z.number().int().min(0).max(86_400).default(600),
  }).prefault({}),
  /** How long shutdown waits for requests in flight before closing their connections, ms. */
  shutdownTimeoutMs: z.number().int().min(0).default(30_000),
  limits: z.strictObject({
    /** Largest uploaded or fetched file, bytes (default 20 MB). */
    maxFileBytes: z.number().int().positive().default(20 * 1024 * 1024),
    /** Largest image, pixels (default: the engine's, 50 MP). */
    maxPixels: z.number().int().positive().optional(),
    /** PDF pages read (default: the engine's, 5). */
    maxPdfPages: z.number().int().min(1).max(1000).optional(),
    /** Non-file multipart fields per request (default 30). */
    maxFields: z.number().int().min(0).max(1000).default(30),
    /** Bytes of one multipart field (default 64 KB; the `validation` JSON lives in one). */
    maxFieldBytes: z.number().int().positive().default(64 * 1024),
    /** JSON body of the URL and campaign endpoints, bytes (default 256 KB). */
    maxJsonBytes: z.number().int().positive().default(256 * 1024),
  }).prefault({}),
  url: z.strictObject({
    /** Time for one URL fetch, redirects included, ms (default 15000). */
    timeoutMs: z.number().int().positive().default(15_000),
    /** Redirects followed at most (default 5). */
    maxRedirects: z.number().int().min(0).max(20).default(5),
  }).prefault({}),
});

export type ServerConfigInput = z.input<typeof serverConfigSchema>;
export type ServerConfig = z.output<typeof serverConfigSchema>;
export type AccountConfig = z.output<typeof accountSchema>;
export type RateLimitConfig = z.output<typeof rateLimitSchema>;

/** An account as the server uses it: its keys hashed, its store path resolved. */
export interface Account {
  id: string;
  inlineValidation: boolean;
  storePath?: string;
  /** PostgreSQL store and schema (instead of storePath). */
  storeUrl?: string;
  storeSchema?: string;
  enrichment?: EngineOptions['enrichment'];
  rateLimit: RateLimitConfig | false;
}

export const hashKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** Parses and checks a configuration object; INVALID_OPTION naming the field when it is wrong. */
export function parseServerConfig(input: unknown): ServerConfig {
  const config = parseOrThrow(serverConfigSchema, input, 'server config');
  const ids = new Set<string>();
  const keys = new Set<string>();
  config.accounts.forEach((a, i) => {
    if (ids.has(a.id)) throw new ReceiptKitError('INVALID_OPTION', `server config: accounts.${i}.id: duplicate account id ${a.id}`, { field: `accounts.${i}.id` });
    ids.add(a.id);
    for (const k of a.keys) {
      const h = keyHash(k);
      if (keys.has(h)) throw new ReceiptKitError('INVALID_OPTION', `server config: accounts.${i}.keys: a key is listed twice`, { field: `accounts.${i}.keys` });
      keys.add(h);
    }
  });
  return config;
}

/** A configured key (plain or `sha256:<hex>`) as the hash it is looked up by. */
export function keyHash(configured: string): string {
  const m = /^sha256:([0-9a-f]{64})$/i.exec(configured);
  return m ? m[1]!.toLowerCase() : hashKey(configured);
}

/** The accounts of a configuration with their keys hashed and store paths resolved. */
export function accountsOf(config: ServerConfig): { byKeyHash: Map<string, Account>; accounts: Account[] } {
  const byKeyHash = new Map<string, Account>();
  const accounts: Account[] = [];
  for (const a of config.accounts) {
    const storeUrl = a.storePath === undefined ? a.storeUrl ?? config.storeUrl : undefined;
    const storePath = a.storePath ?? (config.dataDir && !storeUrl ? path.join(config.dataDir, `${a.id}.db`) : undefined);
    const account: Account = {
      id: a.id,
      inlineValidation: a.inlineValidation,
      ...(storePath ? { storePath } : {}),
      ...(storeUrl ? { storeUrl, storeSchema: a.storeSchema ?? a.id } : {}),
      ...(a.enrichment !== undefined ? { enrichment: a.enrichment } : {}),
      rateLimit: a.rateLimit ?? config.rateLimit,
    };
    accounts.push(account);
    for (const k of a.keys) byKeyHash.set(keyHash(k), account);
  }
  return { byKeyHash, accounts };
}

/** Parses `RECEIPTKIT_API_KEYS` into accounts (see the module comment for the format). */
export function accountsFromEnv(value: string, inlineValidation?: string): { accounts: unknown[]; rest?: Record<string, unknown> } {
  const text = value.trim();
  if (text === '') return { accounts: [] };
  if (text.startsWith('[') || text.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new ReceiptKitError('INVALID_OPTION', `RECEIPTKIT_API_KEYS: not valid JSON (${(e as Error).message})`, { field: 'RECEIPTKIT_API_KEYS' });
    }
    if (Array.isArray(parsed)) return { accounts: parsed };
    const { accounts, ...rest } = parsed as { accounts?: unknown };
    return { accounts: Array.isArray(accounts) ? accounts : [], rest };
  }
  const enabled = new Set((inlineValidation ?? '').split(/[\s,;]+/).filter(Boolean));
  const byId = new Map<string, { id: string; keys: string[]; inlineValidation: boolean }>();
  for (const pair of text.split(/[\s,;]+/).filter(Boolean)) {
    const at = pair.indexOf(':');
    if (at <= 0 || at === pair.length - 1) {
      throw new ReceiptKitError('INVALID_OPTION', 'RECEIPTKIT_API_KEYS: expected accountId:key pairs separated by commas (e.g. "acme:KEY1,beta:KEY2") or JSON', { field: 'RECEIPTKIT_API_KEYS' });
    }
    const id = pair.slice(0, at);
    const key = pair.slice(at + 1);
    const account = byId.get(id) ?? { id, keys: [], inlineValidation: enabled.has('*') || enabled.has(id) };
    account.keys.push(key);
    byId.set(id, account);
  }
  return { accounts: [...byId.values()] };
}

export interface LoadConfigOptions {
  /** A JSON config file (default: env RECEIPTKIT_CONFIG). */
  configPath?: string;
  env?: NodeJS.ProcessEnv;
  /** Values that win over the file and environment (e.g. CLI flags). */
  overrides?: Partial<Pick<ServerConfigInput, 'port' | 'host' | 'storeUrl'>>;
}

/** Reads the configuration from a file and the environment, as the `serve` command does. */
export function loadServerConfig(opts: LoadConfigOptions = {}): ServerConfig {
  const env = opts.env ?? process.env;
  const file = opts.configPath ?? env.RECEIPTKIT_CONFIG;
  let base: Record<string, unknown> = {};
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new ReceiptKitError('INVALID_OPTION', `cannot read the config file ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { field: 'config' });
    }
    try {
      base = JSON.parse(text) as Record<string, unknown>;
    } catch (e) {
      throw new ReceiptKitError('INVALID_OPTION', `the config file ${file} is not valid JSON (${(e as Error).message})`, { field: 'config' });
    }
    if (!base || typeof base !== 'object' || Array.isArray(base)) throw new ReceiptKitError('INVALID_OPTION', `the config file ${file} must hold a JSON object`, { field: 'config' });
    // relative paths in the file are relative to the file
    const dir = path.dirname(path.resolve(file));
    if (typeof base.dataDir === 'string') base.dataDir = path.resolve(dir, base.dataDir);
    if (Array.isArray(base.accounts)) {
      base.accounts = base.accounts.map((a: unknown) => (a && typeof a === 'object' && typeof (a as { storePath?: unknown }).storePath === 'string'
        ? { ...a, storePath: path.resolve(dir, (a as { storePath: string }).storePath) } : a));
    }
  }
  const merged: Record<string, unknown> = { ...base };
  if (env.RECEIPTKIT_API_KEYS) {
    const fromEnv = accountsFromEnv(env.RECEIPTKIT_API_KEYS, env.RECEIPTKIT_INLINE_VALIDATION);
    Object.assign(merged, fromEnv.rest ?? {}, base); // the file wins over settings in the env JSON
    const accounts = [...(Array.isArray(base.accounts) ? base.accounts : [])] as Array<Record<string, unknown>>;
    for (const a of fromEnv.accounts as Array<Record<string, unknown>>) {
      const same = accounts.findIndex((b) => b && a && b.id === a.id);
      if (same >= 0) {
        const prev = accounts[same]!;
        accounts[same] = { ...prev, keys: [...(Array.isArray(prev.keys) ? prev.keys : []), ...(Array.isArray(a.keys) ? a.keys : [])] };
      } else accounts.push(a);
    }
    merged.accounts = accounts;
  }
  if (env.RECEIPTKIT_CORS_ORIGINS && merged.cors === undefined) {
    merged.cors = { origins: env.RECEIPTKIT_CORS_ORIGINS.split(/[\s,;]+/).filter(Boolean) };
  }
  if (env.RECEIPTKIT_DATA_DIR && merged.dataDir === undefined) merged.dataDir = path.resolve(env.RECEIPTKIT_DATA_DIR);
  if (env.RECEIPTKIT_STORE_URL && merged.storeUrl === undefined) merged.storeUrl = env.RECEIPTKIT_STORE_URL;
  for (const [k, v] of Object.entries(opts.overrides ?? {})) if (v !== undefined) merged[k] = v;
  const config = parseServerConfig(merged);
  if (config.accounts.length === 0) {
    throw new ReceiptKitError('INVALID_OPTION', 'no accounts configured: give --config FILE (or RECEIPTKIT_CONFIG) with "accounts", or RECEIPTKIT_API_KEYS="accountId:key,..."', { field: 'accounts' });
  }
  return config;
}

/** Engine calls at once by default: one per OCR worker, like the engine's pool. */
export function defaultConcurrency(workers?: number): number {
  if (workers) return workers;
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(cores, 4));
}
