#!/usr/bin/env node
// Speed against native tesseract, in one run over the same files, with the engine's time by stage.
//
//   npm run build && node bench/speed.mjs [--sample sroie:20,indo_receipts_phone:20] [--corpus PATH]
//        [--compare JSON] [--compare-dist DIR] [--engine-opts JSON] [--cold N] [--no-native] [--baseline REPORT] [--out FILE]
//
// Per file, in turn (so load on this shared machine falls on all alike): native tesseract (Debian's
// tesseract-ocr, `tesseract IMG stdout --psm 6 -l eng`, OMP_THREAD_LIMIT=1: a yardstick only, never used
// by the library), then the engine (default options, one worker; `--engine-opts` adds options), then,
// with `--compare JSON`, a second engine with those options (e.g. '{"reading":"thorough"}'), the order of
// the engines alternating from file to file; `--compare-dist DIR` makes the second engine another build
// of the library (e.g. the code before a change: `npx tsc -p tsconfig.json --outDir .old-dist` at that
// commit), with `--compare` options or none. Every extraction is verbose with line items, refresh and
// incognito (as bench/run.mjs), and is scored per SCORING.md (bench/score.mjs), so accuracy and speed
// come from the same run. `--baseline REPORT` (a bench/run.mjs report) lists, per field, the files
// this run got right that the report got wrong (fixed) and the other way (broken).
//
// Prints per dataset and engine: p50 / p95 wall time and the ratio to native tesseract's p50 / p95, the
// median time of each stage (input, orientation, each reader, header and line re-reads, fields, fraud,
// similarity; from the engine's onStageTimes hook), fields right and right at >= 0.9. Then cold start
// (a new `node bench/cold.mjs` process to its first result on the first file, median of --cold runs,
// default 3) and peak RSS (this process; the cold child's). Needs `tesseract` on the PATH unless
// --no-native (apt-get install tesseract-ocr).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, corpusDir, parseFlags, spreadSample } from './experiment.mjs';
import { FIELDS, HI_CONF, goldFor, percentile, scoreItem } from './score.mjs';

const flags = parseFlags();
const corpus = corpusDir(flags);
const sample = spreadSample(corpus, flags.sample ?? 'sroie:20,indo_receipts_phone:20');
const native = flags['no-native'] !== 'true';
const coldRuns = Number(flags.cold ?? 3);
const configs = [{ name: 'engine', opts: JSON.parse(flags['engine-opts'] ?? '{}'), dist: path.join(BENCH_DIR, '../dist') }];
// --compare-dist DIR: the second engine is another build (e.g. the code before a change, built into .old-dist)
if (flags.compare || flags['compare-dist']) configs.push({ name: 'compare', opts: JSON.parse(flags.compare ?? '{}'), dist: path.resolve(flags['compare-dist'] ?? path.join(BENCH_DIR, '../dist')) });

const stageLog = new Map();
const engines = [];
for (const c of configs) {
  const { createEngine } = await import(pathToFileURL(path.join(c.dist, 'index.js')).href);
  const log = [];
  stageLog.set(c.name, log);
  const engine = await createEngine({ workers: 1, ...c.opts, onStageTimes: (t) => log.push(t) });
  // warm: load the readers on a first file, not timed
  await engine.extract(sample[0].file, { verbose: true, extractLineItems: true, refresh: true, incognito: true });
  log.length = 0;
  engines.push({ ...c, engine });
}

const readJson = (f) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : undefined);
const rows = [];
for (const [k, item] of sample.entries()) {
  const row = { ds: item.ds, id: item.id, times: {}, stages: {}, scores: {} };
  if (native) {
    const t0 = performance.now();
    execFileSync('tesseract', [item.file, 'stdout', '--psm', '6', '-l', 'eng'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['ignore', 'pipe', 'ignore'] });
    row.times.native = performance.now() - t0;
  }
  const label = readJson(path.join(corpus, item.ds, 'labels', `${item.id}.json`));
  const gold = goldFor(label, readJson(path.join(corpus, item.ds, 'lineitems', `${item.id}.json`)));
  const order = k % 2 ? [...engines].reverse() : engines;
  for (const e of order) {
    const log = stageLog.get(e.name);
    const t0 = performance.now();
    let result = null;
    try {
      result = await e.engine.extract(item.file, { verbose: true, extractLineItems: true, refresh: true, incognito: true });
    } catch (err) {
      row.error = err?.code ?? String(err);
    }
    row.times[e.name] = performance.now() - t0;
    row.stages[e.name] = log.pop() ?? {};
    row.scores[e.name] = scoreItem(result, gold, { error: !result });
  }
  rows.push(row);
  process.stderr.write(`\r${k + 1}/${sample.length} ${item.ds}/${item.id}   `);
}
process.stderr.write('\n');
for (const e of engines) await e.engine.close();
const peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);

const baseline = flags.baseline ? JSON.parse(fs.readFileSync(flags.baseline, 'utf8')) : undefined;
const fmt = (v) => (v === null || v === undefined ? '-' : Math.round(v).toString());
const report = { createdAt: new Date().toISOString(), sample: flags.sample ?? 'sroie:20,indo_receipts_phone:20', configs, peakRssMB, datasets: {} };
for (const ds of [...new Set(rows.map((r) => r.ds))]) {
  const mine = rows.filter((r) => r.ds === ds);
  const out = { files: mine.length };
  console.log(`\n## ${ds} (${mine.length} files)`);
  const nat = mine.map((r) => r.times.native).filter((v) => v !== undefined);
  const n50 = percentile(nat, 50), n95 = percentile(nat, 95);
  if (nat.length) console.log(`native tesseract: p50 ${fmt(n50)} ms, p95 ${fmt(n95)} ms`);
  out.native = { p50: n50, p95: n95 };
  for (const e of engines) {
    const t = mine.map((r) => r.times[e.name]);
    const p50 = percentile(t, 50), p95 = percentile(t, 95), max = Math.max(...t);
    const stages = {};
    for (const name of [...new Set(mine.flatMap((r) => Object.keys(r.stages[e.name] ?? {})))].sort()) {
      // a stage a file did not run counts as 0 ms for it
      stages[name] = percentile(mine.map((r) => r.stages[e.name]?.[name] ?? 0), 50);
    }
    const right = {};
    for (const f of FIELDS) {
      const s = mine.map((r) => r.scores[e.name].fields[f]).filter(Boolean);
      if (!s.length) continue;
      const hi = s.filter((x) => x.confidence >= HI_CONF);
      right[f] = { n: s.length, correct: s.filter((x) => x.correct).length, hi: hi.length, hiCorrect: hi.filter((x) => x.correct).length };
    }
    const ratio = (a, b) => (a && b ? Math.round((a / b) * 100) / 100 : null);
    out[e.name] = { opts: e.opts, p50, p95, max, ratioP50: ratio(p50, n50), ratioP95: ratio(p95, n95), stages, fields: right };
    console.log(`${e.name} ${JSON.stringify(e.opts)}${e.dist ? ` (${path.relative(process.cwd(), e.dist) || '.'})` : ''}: p50 ${fmt(p50)} ms (x${ratio(p50, n50) ?? '-'}), p95 ${fmt(p95)} ms (x${ratio(p95, n95) ?? '-'}), max ${fmt(max)} ms`);
    console.log(`  stages (median ms): ${Object.entries(stages).map(([k2, v]) => `${k2} ${fmt(v)}`).join(', ')}`);
    console.log(`  fields right (hi-conf right/count): ${Object.entries(right).map(([f, r]) => `${f} ${r.correct}/${r.n} (${r.hiCorrect}/${r.hi})`).join(', ')}`);
    const wrongHi = mine.flatMap((r) => Object.values(r.scores[e.name].fields).filter((x) => x.confidence >= HI_CONF && !x.correct).map((x) => `${r.id}:${x.field}=${JSON.stringify(x.value)}@${x.confidence}`));
    if (wrongHi.length) console.log(`  wrong at >= ${HI_CONF}: ${wrongHi.join(' ')}`);
    const before = new Map((baseline?.datasets?.[ds]?.items ?? []).map((it) => [it.id, it]));
    if (before.size) {
      const moved = [];
      for (const f of Object.keys(right)) {
        const fixed = [], broken = [];
        for (const r of mine) {
          const was = before.get(r.id)?.ok?.[f], now = r.scores[e.name].fields[f]?.correct;
          if (was === undefined || now === undefined) continue;
          if (now && !was) fixed.push(r.id); else if (was && !now) broken.push(`${r.id}(${JSON.stringify(r.scores[e.name].fields[f].value)} vs ${JSON.stringify(before.get(r.id).pred?.[f])})`);
        }
        if (fixed.length || broken.length) moved.push(`${f}: +${fixed.length} -${broken.length}${broken.length ? ' broken ' + broken.join(' ') : ''}`);
      }
      console.log(`  against the baseline: ${moved.length ? moved.join('; ') : 'no field moved'}`);
    }
  }
  report.datasets[ds] = out;
}

if (coldRuns > 0) {
  const cold = [];
  for (let i = 0; i < coldRuns; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [path.join(BENCH_DIR, 'cold.mjs'), sample[0].file, ...(flags['engine-opts'] ? ['--engine-opts', flags['engine-opts']] : [])], { encoding: 'utf8' });
    const line = JSON.parse(r.stdout.trim().split('\n').pop() || '{}');
    cold.push({ wallMs: performance.now() - t0, sinceStartMs: line.sinceStartMs, rssMB: Math.round((line.maxRssKB ?? 0) / 1024), ok: line.ok });
  }
  report.cold = { runs: cold, p50WallMs: percentile(cold.map((c) => c.wallMs), 50), p50RssMB: percentile(cold.map((c) => c.rssMB), 50) };
  console.log(`\ncold start (new process to first result, ${sample[0].ds}/${sample[0].id}): median ${fmt(report.cold.p50WallMs)} ms, peak RSS ${report.cold.p50RssMB} MB (runs: ${cold.map((c) => fmt(c.wallMs)).join(', ')})`);
}
console.log(`peak RSS of this process: ${peakRssMB} MB (${engines.length} engine${engines.length > 1 ? 's' : ''})`);
if (flags.out) fs.writeFileSync(flags.out, JSON.stringify({ ...report, rows }, null, 1));
