#!/usr/bin/env node
// Cold start probe, spawned by bench/run.mjs: a fresh process that imports the library, creates an engine
// and extracts one file. Prints one JSON line as soon as the first result exists, then closes the engine.
//
//   node bench/cold.mjs <file> [--engine MODULE] [--opts JSON] [--engine-opts JSON]
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
const file = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
if (!file) {
  console.error('usage: node bench/cold.mjs <file> [--engine MODULE] [--opts JSON] [--engine-opts JSON]');
  process.exit(2);
}
const engineModule = opt('engine') ? pathToFileURL(path.resolve(opt('engine'))).href : pathToFileURL(path.join(here, '../dist/index.js')).href;
const extra = opt('opts') ? JSON.parse(opt('opts')) : {};
const engineOpts = opt('engine-opts') ? JSON.parse(opt('engine-opts')) : {};

const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');
let engine;
try {
  const { createEngine } = await import(engineModule);
  engine = await createEngine(engineOpts);
  const result = await engine.extract(path.resolve(file), { verbose: true, extractLineItems: true, ...extra });
  // performance.now() counts from this process's time origin (about its start).
  out({ ok: true, sinceStartMs: Math.round(performance.now()), maxRssKB: process.resourceUsage().maxRSS, totalAmount: result?.totalAmount?.data ?? null });
} catch (e) {
  out({ ok: false, sinceStartMs: Math.round(performance.now()), maxRssKB: process.resourceUsage().maxRSS, error: e?.code ?? 'EXCEPTION', message: String(e?.message ?? e).slice(0, 300) });
  process.exitCode = 1;
} finally {
  await engine?.close?.().catch(() => {});
}
