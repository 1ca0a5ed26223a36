#!/usr/bin/env node
/**
 * receiptkit CLI.
 *   receiptkit extract <file...> [--verbose] [--no-line-items] [--no-fraud] [--no-codes] [--language xx] [--near "..."] [--extract-time]
 *   receiptkit batch <dir|files...> --out results.jsonl [--verbose] [--concurrency N] [--shard i/n]
 *   receiptkit serve [--port N] [--host H] [--config FILE] [--store-url URL]
 *   receiptkit enqueue <dir|files...> --queue URL | work --queue URL [--workers N] [--drain]
 *   receiptkit status --queue URL | results --queue URL --out FILE.jsonl     (src/cli/queue.ts)
 */
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { createEngine } from '../engine.js';
import { isReceiptKitError } from '../errors.js';
import type { ExtractOptionsInput } from '../contract/options.js';
import { runBatch } from './batch.js';
import { CLI_OPTIONS, engineOptions, extractionOptions, usageError as fail, wholeNumber } from './args.js';
import { QUEUE_COMMANDS, runQueueCommand } from './queue.js';
import { parseShard } from './shard.js';
import type { Shard } from './shard.js';
import { serve } from '../server/serve.js';

const HELP = `receiptkit: offline receipt and invoice extraction (npm package receiptkit-ocr)

Usage:
  receiptkit extract <file...> [options]        print the result of each file as JSON
  receiptkit batch <dir|files...> --out FILE    one JSON line per file, progress on a terminal
  receiptkit serve [--port N] [--host H] [--config FILE]
                                                the HTTP server (API of the hosted service, a page at /)
  receiptkit enqueue <dir|files...> --queue URL  queue one job per file in a PostgreSQL job queue
  receiptkit work --queue URL [--workers N] [--drain]
                                                extract queued files (run it on any number of machines)
  receiptkit status --queue URL [--json]        pending, running, done, failed and dead counts, rate
  receiptkit results --queue URL --out FILE     the results as batch writes them, in enqueue order
  receiptkit --version | --help

Extraction options:
  --verbose                 verbose result (line items, text, regions, helper arrays)
  --no-line-items           verbose only: skip line items (faster)
  --no-fraud                verbose only: skip the fraud checks (faster; no tampering, digital or handwriting detection)
  --no-codes                skip decoding QR codes and barcodes (and the fiscal facts they give)
  --extract-time            keep the printed time of day in date
  --language CODE           language hint: en, fr, de, id, ms, ... (default: auto)
  --near "city, state, country"  locale hint (date order, decimal comma, currency)
  --ignore-merchant-name N  a name never to return as the merchant
  --workers N               OCR workers (default: from the machine)
  --timeout MS              per-file time limit
  --store FILE              keep scans in this SQLite file (default: in memory, nothing written)
  --store-url URL           keep scans in a PostgreSQL store shared with other processes (postgres://...)
  --store-schema NAME       its schema (default receiptkit)
  --page-budget MS          opt-in wall-clock budget of a page's re-readings (default 0 = none); with
                            one, results depend on how busy the machine is, not only on the file

Batch options:
  --out FILE                JSON Lines output (required): {"file","result"} or {"file","error"}; - for stdout
  --resume                  skip files that already have a result in --out, append the rest
  --progress-every N        without a terminal: a progress line on stderr every N files (default 25)
  --concurrency N           files in flight at once (default: the worker count)
  --quiet                   no progress bar or summary
  --shard i/n               only the i-th of n shards of the files (1 <= i <= n): n machines each run
                            one shard of the same folder; a file's shard is a stable hash of its path
                            inside the folder (see docs/cli.md)

Job queue options (see docs/cli.md: when to use a queue, when --shard):
  --queue URL               the queue's PostgreSQL database (postgres://user:password@host:5432/db)
  --queue-schema NAME       its schema (default receiptkit_queue; pg-boss's jobs in NAME_jobs)
  enqueue: the extraction options above are recorded with each job. A file's identity is its path inside
    the folder given plus the sha256 of its content: enqueuing it again adds nothing. Every worker must
    read the files at the path they were enqueued with (a shared mount).
  --tries N                 tries before an unexpected failure becomes a dead letter (default 3)
  --heartbeat S             a job whose worker stops beating (killed, paused, cut off) for S seconds is
                            taken back and retried (default 20, 10..3600); a live worker keeps it
  --lease S                 hard limit on how long one worker may hold a job even while it beats
                            (default 86400, the most pg-boss allows)
  --retry-delay S           back-off before the first retry (default 10), doubled with jitter per try
  work: --workers N files at once (and OCR workers); scans go to the store of --store-url (default: the
    queue's database, schema receiptkit). One JSON line per job on stdout. A typed error (unreadable,
    too large, timeout, ...) is final; an unexpected one is retried. SIGTERM/SIGINT finish the jobs in
    hand, then exit 0; a second signal exits at once (those jobs are retried after their heartbeat).
  --drain                   exit once the queue has no job left (default: keep waiting for jobs)
  --timeout MS              per-file time limit (a final TIMEOUT)
  --poll MS                 how often an idle worker looks for jobs (default 1000)
  results: --out FILE (- for stdout), lines of the finished files in enqueue order; --wait first waits
    until no file is pending or running. Exit 1 when some failed, are dead or are not finished.

Serve options:
  --port N                  port to listen on (default 8080; 0 picks a free one)
  --host H                  address to listen on (default 127.0.0.1)
  --config FILE             JSON config: accounts and API keys, limits (default: env RECEIPTKIT_CONFIG);
                            or env RECEIPTKIT_API_KEYS="accountId:key,..." (see docs/server.md)
  --store-url URL           PostgreSQL store shared by replicas (default: config storeUrl, env RECEIPTKIT_STORE_URL)
  SIGTERM/SIGINT finish the requests in flight, then exit.

Exit codes: 0 all files extracted, 1 some files failed (or the queue cannot be reached), 2 bad usage.`;

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: CLI_OPTIONS });
  } catch (e) {
    fail((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) { process.stdout.write(HELP + '\n'); return 0; }
  if (values.version) { process.stdout.write(version() + '\n'); return 0; }
  const [command, ...files] = positionals;
  if (!command) { process.stdout.write(HELP + '\n'); return 2; }
  if (command === 'serve') {
    if (files.length > 0) fail(`serve takes no arguments, got '${files[0]}'`);
    let port: number | undefined;
    if (values.port !== undefined) {
      port = Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port takes a port number 0..65535, not '${values.port}'`);
    }
    const { done } = await serve({
      ...(port !== undefined ? { port } : {}),
      ...(values.host ? { host: values.host } : {}),
      ...(values.config ? { configPath: values.config } : {}),
      ...(values['store-url'] ? { storeUrl: values['store-url'] } : {}),
    });
    await done;
    return 0;
  }
  if (QUEUE_COMMANDS.has(command)) return runQueueCommand(command, files, values);
  if (command !== 'extract' && command !== 'batch') fail(`unknown command '${command}'`);
  if (files.length === 0) fail(`${command} needs at least one file`);

  const workers = wholeNumber('workers', values.workers);
  const timeoutMs = wholeNumber('timeout', values.timeout);
  const concurrency = wholeNumber('concurrency', values.concurrency);
  const options: ExtractOptionsInput = { ...extractionOptions(values), ...(timeoutMs ? { timeoutMs } : {}) };

  let shard: Shard | undefined;
  if (values.shard !== undefined) {
    if (command !== 'batch') fail('--shard is a batch option');
    shard = parseShard(values.shard);
    if (!shard) fail(`--shard takes i/n with 1 <= i <= n, not '${values.shard}'`);
  }
  const engine = await createEngine(engineOptions(values));
  try {
    if (command === 'batch') {
      if (!values.out) fail('batch needs --out FILE');
      const summary = await runBatch(engine, files, {
        out: values.out, options, concurrency: concurrency ?? workers ?? 2, quiet: !!values.quiet, shard,
        resume: !!values.resume,
        ...(values['progress-every'] !== undefined ? { progressEvery: wholeNumber('progress-every', values['progress-every']) } : {}),
      });
      return summary.failed > 0 ? 1 : 0;
    }
    let failed = 0;
    for (const file of files) {
      try {
        const result = await engine.extract(file, options);
        process.stdout.write(JSON.stringify(files.length > 1 ? { file, result } : result, null, 2) + '\n');
      } catch (e) {
        failed++;
        const error = isReceiptKitError(e) ? { code: e.code, message: e.message } : { code: 'INTERNAL', message: String((e as Error)?.message ?? e) };
        if (files.length > 1) process.stdout.write(JSON.stringify({ file, error }, null, 2) + '\n');
        process.stderr.write(`receiptkit: ${file}: ${error.code}: ${error.message}\n`);
      }
    }
    return failed > 0 ? 1 : 0;
  } finally {
    await engine.close();
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (e) => {
  process.stderr.write(`receiptkit: ${isReceiptKitError(e) ? `${e.code}: ${e.message}` : (e as Error)?.stack ?? String(e)}\n`);
  process.exitCode = 1;
});
