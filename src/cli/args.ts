/**
 * The CLI's option values: usage errors (exit 2), whole numbers, and the extraction and engine options
 * the commands share.
 */
import type { EngineOptionsInput, ExtractOptionsInput } from '../contract/options.js';

/**
 * The flags every command parses (each command checks the ones it takes); each is documented once in
 * docs/cli.md (test/docs.test.ts).
 */
export const CLI_OPTIONS = {
  verbose: { type: 'boolean' },
  'line-items': { type: 'boolean' },
  'no-line-items': { type: 'boolean' },
  'no-fraud': { type: 'boolean' },
  'no-codes': { type: 'boolean' },
  'extract-time': { type: 'boolean' },
  language: { type: 'string' },
  near: { type: 'string' },
  'ignore-merchant-name': { type: 'string' },
  workers: { type: 'string' },
  timeout: { type: 'string' },
  out: { type: 'string', short: 'o' },
  concurrency: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  resume: { type: 'boolean' },
  'progress-every': { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  config: { type: 'string' },
  store: { type: 'string' },
  'store-url': { type: 'string' },
  'store-schema': { type: 'string' },
  shard: { type: 'string' },
  'page-budget': { type: 'string' },
  queue: { type: 'string' },
  'queue-schema': { type: 'string' },
  tries: { type: 'string' },
  lease: { type: 'string' },
  heartbeat: { type: 'string' },
  'retry-delay': { type: 'string' },
  drain: { type: 'boolean' },
  poll: { type: 'string' },
  wait: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** parseArgs values of the CLI (every option is a string or a boolean). */
export type CliValues = Record<string, string | boolean | undefined>;

/** A usage error: one line and a hint on stderr, exit code 2. */
export function usageError(message: string): never {
  process.stderr.write(`receiptkit: ${message}\nTry 'receiptkit --help'.\n`);
  process.exit(2);
}

export const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** A whole number >= `min` (default 1) from an option, or undefined when absent; a usage error otherwise. */
export function wholeNumber(name: string, v: string | boolean | undefined, min = 1): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isInteger(n) || n < min) usageError(`--${name} takes a whole number >= ${min}, not '${String(v)}'`);
  return n;
}

/** The extraction options of --verbose, --no-line-items, --no-fraud, --no-codes, --extract-time, --language, --near, --ignore-merchant-name. */
export function extractionOptions(values: CliValues): ExtractOptionsInput {
  return {
    verbose: !!values.verbose,
    extractLineItems: !values['no-line-items'],
    ...(values['no-fraud'] ? { detectFraud: false } : {}),
    ...(values['no-codes'] ? { readCodes: false } : {}),
    extractTime: !!values['extract-time'],
    ...(str(values.language) ? { language: str(values.language) } : {}),
    ...(str(values.near) ? { near: str(values.near) } : {}),
    ...(str(values['ignore-merchant-name']) ? { ignoreMerchantName: str(values['ignore-merchant-name']) } : {}),
  };
}

/** The engine options of --workers, --store, --store-url, --store-schema, --page-budget. */
export function engineOptions(values: CliValues, defaults: { storeUrl?: string } = {}): EngineOptionsInput {
  const workers = wholeNumber('workers', values.workers);
  const pageBudgetMs = wholeNumber('page-budget', values['page-budget'], 0);
  const storeUrl = str(values['store-url']) ?? (str(values.store) ? undefined : defaults.storeUrl);
  return {
    ...(workers ? { workers } : {}),
    ...(str(values.store) ? { storePath: str(values.store) } : {}),
    ...(storeUrl ? { storeUrl } : {}),
    ...(str(values['store-schema']) ? { storeSchema: str(values['store-schema']) } : {}),
    ...(pageBudgetMs !== undefined ? { pageBudgetMs } : {}),
  };
}
