#!/usr/bin/env node
// Accuracy, confidence and speed benchmark of the built library (dist/) on the shared corpus.
// Scoring rules: ../shared/corpus/SCORING.md (implemented in bench/score.mjs). Usage: bench/README.md.
//
//   node bench/run.mjs [--corpus PATH] [--dataset NAME]... [--limit N] [--id ID]... [--out FILE]
//                      [--cold N] [--timeout MS] [--opts JSON] [--engine-opts JSON] [--engine MODULE] [--reports DIR] [--no-save]
//
// Results table on stdout, progress on stderr. The report goes to bench/reports/<timestamp>.json and
// bench/reports/latest.json; the change against the previous latest.json is printed at the end.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { spawn, execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FIELDS, EXACT_FIELDS, HALVES, goldFor, halfOf, scoreItem, summarize, flattenLineItems } from './score.mjs';
import { cliErrors } from './experiment.mjs';

const { fail, int, value } = cliErrors('bench');

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..');
const REPORT_VERSION = 1;
const IMAGE_EXT = /\.(jpe?g|png|pdf|webp|tiff?|heic|heif|gif|bmp)$/i;

// ---------------------------------------------------------------- arguments
function parseArgs(argv) {
  const a = { corpus: path.resolve(repoRoot, '../shared/corpus'), datasets: [], ids: [], half: undefined, limit: undefined, out: undefined, cold: 3, timeout: 180_000, opts: {}, engineOpts: {}, engine: undefined, save: true, reports: path.join(here, 'reports') };
  const need = (i, name) => value(argv, i, name);
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    switch (k) {
      case '--corpus': a.corpus = path.resolve(need(i, k)); i++; break;
      case '--dataset': a.datasets.push(...need(i, k).split(',').filter(Boolean)); i++; break;
      case '--id': a.ids.push(...need(i, k).split(',').filter(Boolean)); i++; break;
      case '--half': a.half = need(i, k); if (!HALVES.includes(a.half)) fail('--half must be tune or check'); i++; break;
      case '--limit': a.limit = int(need(i, k), k, 1); i++; break;
      case '--out': a.out = path.resolve(need(i, k)); i++; break;
      case '--cold': a.cold = int(need(i, k), k, 0); i++; break;
      case '--timeout': a.timeout = int(need(i, k), k, 1); i++; break;
      case '--opts': try { a.opts = JSON.parse(need(i, k)); } catch { fail('--opts must be a JSON object'); } i++; break;
      case '--engine-opts': try { a.engineOpts = JSON.parse(need(i, k)); } catch { fail('--engine-opts must be a JSON object'); } i++; break;
      case '--engine': a.engine = path.resolve(need(i, k)); i++; break;
      case '--reports': a.reports = path.resolve(need(i, k)); i++; break;
      case '--no-save': a.save = false; break;
      case '-h': case '--help': usage(); process.exit(0); break;
      default: fail(`unknown argument ${k}`);
    }
  }
  return a;
}
function usage() {
  process.stdout.write(`usage: node bench/run.mjs [options]
  --corpus PATH     corpus folder (default ../shared/corpus from the repo root)
  --dataset NAME    dataset to run; repeatable or comma-separated (default: every folder with images/ and labels/)
  --half H          only the tune or the check half of each dataset (stable hash of the id; see halfOf)
  --limit N         only the first N files (sorted by name) of each dataset
  --id ID           only these item ids; repeatable or comma-separated
  --out FILE        also write the JSON report to FILE
  --cold N          cold-start runs per dataset, median reported (default 3; 0 skips)
  --timeout MS      per-file time limit (default 180000)
  --opts JSON       extra extraction options, e.g. '{"language":"en"}'
  --engine MODULE   module exporting createEngine (default dist/index.js)
  --reports DIR     report folder (default bench/reports)
  --no-save         do not write the report folder (still compares with its latest.json)
`);
}

// ---------------------------------------------------------------- helpers
const log = (s) => process.stderr.write(s + '\n');
const readJson = (p) => JSON.parse(fs.readFileSync(p, 'utf8'));
const pct = (x) => (x === null || x === undefined ? '-' : `${(x * 100).toFixed(1)}%`);
const secs = (ms) => (ms === null || ms === undefined ? '-' : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 1000).toFixed(2)} s`);
const mb = (kb) => Math.round(kb / 1024);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : null; };
function fmtDuration(ms) {
  const s = Math.round(ms / 1000);
  return s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m` : s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}
function table(rows, align) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows.map((r, ri) => {
    const line = r.map((cell, c) => (align[c] === 'r' ? String(cell).padStart(widths[c]) : String(cell).padEnd(widths[c]))).join('  ');
    return ri === 0 ? `${line.trimEnd()}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line.trimEnd();
  }).join('\n');
}
function gitInfo() {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
    return { commit, srcDirty: dirty };
  } catch {
    return { commit: null, srcDirty: null };
  }
}
function withTimeout(promise, ms) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => { timer = setTimeout(() => reject(Object.assign(new Error(`no result after ${ms} ms`), { code: 'BENCH_TIMEOUT' })), ms); }),
  ]);
}

// ---------------------------------------------------------------- corpus
function discoverDatasets(corpus) {
  if (!fs.existsSync(corpus)) fail(`corpus not found: ${corpus} (use --corpus PATH)`);
  return fs.readdirSync(corpus, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(corpus, d.name, 'images')) && fs.existsSync(path.join(corpus, d.name, 'labels')))
    .map((d) => d.name).sort();
}
function loadItems(corpus, ds, { limit, ids, half }) {
  const dir = path.join(corpus, ds);
  let files = fs.readdirSync(path.join(dir, 'images')).filter((f) => IMAGE_EXT.test(f)).sort();
  if (ids.length) files = files.filter((f) => ids.includes(f.replace(/\.[^.]+$/, '')));
  if (half) files = files.filter((f) => halfOf(f.replace(/\.[^.]+$/, '')) === half);
  const items = [];
  for (const f of files) {
    const id = f.replace(/\.[^.]+$/, '');
    const labelPath = path.join(dir, 'labels', `${id}.json`);
    if (!fs.existsSync(labelPath)) { log(`bench: ${ds}/${f}: no labels/${id}.json, skipped`); continue; }
    const liPath = path.join(dir, 'lineitems', `${id}.json`);
    const gold = goldFor(readJson(labelPath), fs.existsSync(liPath) ? readJson(liPath) : null);
    items.push({ id, file: path.join(dir, 'images', f), gold });
    if (limit && items.length >= limit) break;
  }
  return items;
}

// ---------------------------------------------------------------- cold start
function coldRun(file, args) {
  return new Promise((resolve) => {
    const childArgs = [path.join(here, 'cold.mjs'), file, '--opts', JSON.stringify(args.opts)];
    if (args.engine) childArgs.push('--engine', args.engine);
    if (Object.keys(args.engineOpts ?? {}).length) childArgs.push('--engine-opts', JSON.stringify(args.engineOpts));
    const t0 = performance.now();
    const child = spawn(process.execPath, childArgs, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let buf = '', err = '', done = false, firstMs = null, info = null;
    const finish = (extra) => {
      if (done) return;
      done = true;
      clearTimeout(limit);
      resolve({ ms: firstMs, ...info, ...extra, ...(err && !info?.ok ? { stderr: err.slice(-500) } : {}) });
    };
    const limit = setTimeout(() => { child.kill('SIGKILL'); finish({ ok: false, error: 'BENCH_TIMEOUT' }); }, args.timeout + 60_000);
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0 && firstMs === null) {
        firstMs = Math.round(performance.now() - t0);
        try { info = JSON.parse(buf.slice(0, nl)); } catch { info = { ok: false, error: 'BAD_OUTPUT' }; }
        // The time to first result is taken; give the child a moment to close its engine and exit.
        setTimeout(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); }, 20_000).unref();
      }
    });
    child.stderr.on('data', (d) => { err += d; if (err.length > 4000) err = err.slice(-4000); });
    child.on('exit', () => finish(firstMs === null ? { ok: false, error: 'NO_RESULT' } : {}));
    child.on('error', (e) => finish({ ok: false, error: 'SPAWN_FAILED', message: String(e.message) }));
  });
}
async function coldStart(file, args) {
  const runs = [];
  for (let i = 0; i < args.cold; i++) {
    log(`  cold start ${i + 1}/${args.cold} on ${path.basename(file)} ...`);
    runs.push(await coldRun(file, args));
  }
  const ok = runs.filter((r) => r.ok && r.ms !== null);
  const rss = ok.filter((r) => r.maxRssKB).map((r) => mb(r.maxRssKB));
  return {
    file: path.basename(file),
    runs: runs.map((r) => ({ ms: r.ms, ok: Boolean(r.ok), ...(r.error ? { error: r.error } : {}), ...(r.maxRssKB ? { peakRssMB: mb(r.maxRssKB) } : {}) })),
    medianMs: ok.length ? median(ok.map((r) => r.ms)) : null,
    peakRssMB: rss.length ? Math.max(...rss) : null,
  };
}

// ---------------------------------------------------------------- per-item record (what the report keeps)
function itemRecord(it, result, error, ms) {
  const scored = scoreItem(error ? null : result, it.gold, { error: Boolean(error) });
  const rec = { id: it.id, half: halfOf(it.id), ms: Math.round(ms), error: error ? error.code : null };
  if (error) rec.message = error.message.slice(0, 200);
  // the clockwise turn the page was read at, when not upright (a sideways reading of an upright page loses every field)
  if (!error && result?.targetRotation) rec.rotation = result.targetRotation;
  rec.pred = {}; rec.conf = {}; rec.ok = {};
  for (const [f, s] of Object.entries(scored.fields)) {
    if (s.value !== undefined) rec.pred[f] = s.value;
    rec.conf[f] = s.confidence;
    rec.ok[f] = s.correct;
    if (s.exact !== undefined) (rec.exact ??= {})[f] = s.exact;
    if (!s.correct) (rec.gold ??= {})[f] = s.gold;
  }
  if (scored.lineItems) {
    const li = scored.lineItems;
    rec.lineItems = { gold: li.gold, pred: li.predicted, found: li.found, allExact: li.allExact, items: error ? [] : flattenLineItems(result).map((p) => [p.name, p.totalPrice ?? null]) };
  }
  // What summarize() needs, kept out of the JSON (see toReportItem).
  rec._fields = scored.fields;
  rec._lineItems = scored.lineItems;
  return rec;
}
const forSummary = (rec) => ({ error: rec.error, ms: rec.ms, fields: rec._fields, lineItems: rec._lineItems });
const toReportItem = ({ _fields, _lineItems, ...rest }) => rest;

// ---------------------------------------------------------------- output
function printDataset(name, s, info) {
  const out = [];
  out.push(`\n== ${name}  (${s.n} files${info.limit ? `, --limit ${info.limit}` : ''})`);
  const rows = [['field', 'n', 'accuracy', 'exact', 'hi-conf prec', 'hi-conf share']];
  for (const f of FIELDS) {
    const r = s.fields[f];
    if (!r) continue;
    rows.push([f, r.n, `${pct(r.accuracy)} (${r.correct})`, EXACT_FIELDS.includes(f) ? `${pct(r.exactRate)} (${r.exact})` : '', r.hiConfN ? `${pct(r.hiConfPrecision)} (${r.hiConfCorrect}/${r.hiConfN})` : '-', pct(r.hiConfShare)]);
  }
  out.push(table(rows, ['l', 'r', 'r', 'r', 'r', 'r']));
  if (info.halves) {
    const hrows = [['field', ...HALVES.flatMap((h) => [`${h} acc`, `${h} hi-conf prec`])]];
    for (const f of FIELDS) {
      if (!s.fields[f]) continue;
      hrows.push([f, ...HALVES.flatMap((h) => {
        const r = info.halves[h]?.fields[f];
        return r ? [`${pct(r.accuracy)} (${r.correct}/${r.n})`, r.hiConfN ? `${pct(r.hiConfPrecision)} (${r.hiConfCorrect}/${r.hiConfN})` : '-'] : ['-', '-'];
      })]);
    }
    out.push('by half (tune: study and tune on it; check: keep a change when it does not lose):');
    out.push(table(hrows, ['l', 'r', 'r', 'r', 'r']).replace(/^/gm, '  '));
  }
  if (s.lineItems) {
    const l = s.lineItems;
    out.push(`line items: ${l.receipts} receipts, gold ${l.gold}, predicted ${l.predicted}, found ${l.found}: precision ${pct(l.precision)}, recall ${pct(l.recall)}, F1 ${pct(l.f1)}; all-exact receipts ${l.allExact}/${l.receipts}`);
  }
  const codes = Object.entries(s.errorCodes).map(([c, n]) => `${c} ${n}`).join(', ');
  out.push(`errors: ${s.errors}${codes ? ` (${codes})` : ''}`);
  const cold = info.cold;
  out.push(`speed (warm engine): p50 ${secs(s.speed.p50)}, p95 ${secs(s.speed.p95)}, max ${secs(s.speed.max)}` +
    (cold ? `; cold start ${secs(cold.medianMs)} (median of ${cold.runs.length}, ${cold.file})` : '; cold start not measured') +
    `; peak RSS bench ${info.peakRssMB} MB` + (cold?.peakRssMB ? `, cold child ${cold.peakRssMB} MB` : ''));
  process.stdout.write(out.join('\n') + '\n');
}

function compare(prev, cur) {
  const out = [];
  const when = prev.createdAt ?? '?';
  out.push(`\n== change vs previous report (${when}, commit ${prev.git?.commit ?? '?'}${prev.git?.srcDirty ? '+dirty' : ''})`);
  let any = false;
  for (const [ds, c] of Object.entries(cur.datasets)) {
    const p = prev.datasets?.[ds];
    if (!p) { out.push(`${ds}: not in the previous report`); continue; }
    any = true;
    const prevItems = new Map((p.items ?? []).map((it) => [it.id, it]));
    const common = c.items.filter((it) => prevItems.has(it.id));
    const sameSet = common.length === c.items.length && common.length === prevItems.size;
    out.push(`${ds}: ${sameSet ? `same ${common.length} items` : `compared on the ${common.length} items in both runs (previous ${prevItems.size}, now ${c.items.length})`}`);
    const rows = [['field', 'before', 'now', 'delta', 'fixed', 'broke']];
    for (const f of FIELDS) {
      const both = common.filter((it) => f in (it.ok ?? {}) && f in (prevItems.get(it.id).ok ?? {}));
      if (!both.length) continue;
      const before = both.filter((it) => prevItems.get(it.id).ok[f]).length / both.length;
      const now = both.filter((it) => it.ok[f]).length / both.length;
      const fixed = both.filter((it) => it.ok[f] && !prevItems.get(it.id).ok[f]).map((it) => it.id);
      const broke = both.filter((it) => !it.ok[f] && prevItems.get(it.id).ok[f]).map((it) => it.id);
      const list = (xs) => (xs.length ? `${xs.length}: ${xs.slice(0, 6).join(' ')}${xs.length > 6 ? ' ...' : ''}` : '0');
      rows.push([f, pct(before), pct(now), `${now - before >= 0 ? '+' : ''}${((now - before) * 100).toFixed(1)} pp`, list(fixed), list(broke)]);
    }
    const liBoth = common.filter((it) => it.lineItems && prevItems.get(it.id).lineItems);
    if (liBoth.length) {
      const f1 = (get) => {
        const g = liBoth.reduce((a, it) => a + get(it).gold, 0), pr = liBoth.reduce((a, it) => a + get(it).pred, 0), fd = liBoth.reduce((a, it) => a + get(it).found, 0);
        const P = pr ? fd / pr : 0, R = g ? fd / g : 0;
        return P + R ? (2 * P * R) / (P + R) : 0;
      };
      const before = f1((it) => prevItems.get(it.id).lineItems), now = f1((it) => it.lineItems);
      rows.push(['line-item F1', pct(before), pct(now), `${now - before >= 0 ? '+' : ''}${((now - before) * 100).toFixed(1)} pp`, '', '']);
    }
    if (rows.length > 1) out.push(table(rows, ['l', 'r', 'r', 'r', 'l', 'l']).replace(/^/gm, '  '));
    const p50a = p.summary?.speed?.p50, p50b = c.summary.speed.p50;
    if (p50a && p50b) out.push(`  p50 ${secs(p50a)} -> ${secs(p50b)} (${p50b >= p50a ? '+' : ''}${(((p50b - p50a) / p50a) * 100).toFixed(0)}%)` +
      (p.cold?.medianMs && c.cold?.medianMs ? `; cold start ${secs(p.cold.medianMs)} -> ${secs(c.cold.medianMs)}` : ''));
    const ea = p.summary?.errors ?? 0, eb = c.summary.errors;
    if (ea !== eb) out.push(`  errors ${ea} -> ${eb}`);
  }
  if (!any) out.push('no dataset in common');
  process.stdout.write(out.join('\n') + '\n');
}

/** Pretty JSON with one line per item, so reports stay small and diff well. */
function stringifyReport(report) {
  const lines = [];
  const copy = { ...report, datasets: {} };
  for (const [ds, d] of Object.entries(report.datasets)) {
    copy.datasets[ds] = { ...d, items: d.items.map((it) => { lines.push(JSON.stringify(it)); return `@@ITEM${lines.length - 1}@@`; }) };
  }
  return JSON.stringify(copy, null, 2).replace(/"@@ITEM(\d+)@@"/g, (_, k) => lines[Number(k)]) + '\n';
}
function writeAtomic(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

// ---------------------------------------------------------------- main
async function warmUp(engine, opts) {
  // A tiny generated receipt, so that the first timed file does not pay for worker start and model load.
  const t0 = performance.now();
  try {
    const { default: sharp } = await import('sharp');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="160"><rect width="100%" height="100%" fill="white"/>` +
      `<text x="20" y="60" font-family="DejaVu Sans Mono, monospace" font-size="26">WARM UP SHOP</text>` +
      `<text x="20" y="110" font-family="DejaVu Sans Mono, monospace" font-size="26">TOTAL       1.00</text></svg>`;
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    await engine.extract(png, { verbose: true, extractLineItems: true, ...opts });
  } catch (e) {
    log(`bench: warm-up extraction failed (${e?.code ?? e?.message ?? e}); continuing`);
  }
  return Math.round(performance.now() - t0);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const all = discoverDatasets(args.corpus);
  const datasets = args.datasets.length ? args.datasets : all;
  for (const d of datasets) if (!all.includes(d)) fail(`no dataset ${d} in ${args.corpus} (have: ${all.join(', ') || 'none'})`);
  const work = datasets.map((ds) => ({ ds, items: loadItems(args.corpus, ds, args) }));
  const total = work.reduce((a, w) => a + w.items.length, 0);
  if (!total) fail('nothing to run');

  const engineUrl = args.engine ? pathToFileURL(args.engine).href : pathToFileURL(path.join(repoRoot, 'dist/index.js')).href;
  let lib;
  try { lib = await import(engineUrl); } catch (e) {
    fail(`cannot import ${fileURLToPath(engineUrl)}: ${e.message}${args.engine ? '' : '\n  build the library first: npm run build'}`);
  }
  const extractOpts = { verbose: true, extractLineItems: true, refresh: true, incognito: true, timeoutMs: args.timeout, ...args.opts };
  const { timeoutMs: _drop, ...coldOpts } = extractOpts;
  const t0 = performance.now();
  const engine = await lib.createEngine(args.engineOpts);
  const engineCreateMs = Math.round(performance.now() - t0);
  const warmupMs = await warmUp(engine, { ...args.opts });
  log(`bench: engine ready in ${engineCreateMs} ms, warm-up ${warmupMs} ms; ${total} files in ${datasets.join(', ')}`);

  const report = {
    version: REPORT_VERSION,
    createdAt: new Date().toISOString(),
    git: gitInfo(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}, ${os.cpus().length} cpu (${os.cpus()[0]?.model ?? '?'})`,
    corpus: args.corpus,
    args: { datasets, half: args.half ?? null, limit: args.limit ?? null, ids: args.ids.length ? args.ids : null, cold: args.cold, timeoutMs: args.timeout, opts: extractOpts, engineOpts: args.engineOpts, engine: args.engine ?? 'dist/index.js' },
    engine: { createMs: engineCreateMs, warmupMs },
    datasets: {},
  };

  let doneAll = 0;
  const runStart = performance.now();
  const tty = process.stderr.isTTY;
  for (const { ds, items } of work) {
    const recs = [];
    const dsStart = performance.now();
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      const t = performance.now();
      let result = null, error = null;
      try {
        result = await withTimeout(Promise.resolve().then(() => engine.extract(it.file, extractOpts)), args.timeout + 5_000);
      } catch (e) {
        error = { code: e?.code ?? 'EXCEPTION', message: String(e?.message ?? e) };
      }
      const ms = performance.now() - t;
      recs.push(itemRecord(it, result, error, ms));
      doneAll++;
      const elapsed = performance.now() - runStart;
      const eta = (elapsed / doneAll) * (total - doneAll);
      const okTotal = recs.filter((r) => r.ok.totalAmount).length;
      const msg = `[${ds}] ${i + 1}/${items.length} ${it.id} ${secs(ms)}${error ? ` ERROR ${error.code}` : ''}  total ok ${okTotal}/${recs.filter((r) => 'totalAmount' in r.ok).length}  ETA ${fmtDuration(eta)}`;
      if (tty) process.stderr.write(`\r\x1b[K${msg}`); else log(msg);
    }
    if (tty) process.stderr.write('\n');
    const summary = summarize(recs.map(forSummary));
    const halves = Object.fromEntries(HALVES.map((h) => [h, recs.filter((r) => r.half === h)]).filter(([, rs]) => rs.length).map(([h, rs]) => [h, summarize(rs.map(forSummary))]));
    summary.halves = Object.fromEntries(Object.entries(halves).map(([h, hs]) => [h, { n: hs.n, fields: hs.fields, lineItems: hs.lineItems }]));
    const cold = args.cold > 0 && items.length ? await coldStart(items[0].file, { ...args, opts: coldOpts }) : null;
    const peakRssMB = mb(process.resourceUsage().maxRSS);
    summary.speed.peakRssMB = peakRssMB;
    report.datasets[ds] = { files: items.length, wallMs: Math.round(performance.now() - dsStart), summary, cold, items: recs.map(toReportItem) };
    printDataset(ds, summary, { limit: args.limit, cold, peakRssMB, halves });
  }
  await engine.close?.();
  report.peakRssMB = mb(process.resourceUsage().maxRSS);
  report.wallMs = Math.round(performance.now() - runStart);

  const reportsDir = args.reports;
  const latest = path.join(reportsDir, 'latest.json');
  let prev = null;
  try { if (fs.existsSync(latest)) prev = readJson(latest); } catch (e) { log(`bench: cannot read ${latest}: ${e.message}`); }
  const text = stringifyReport(report);
  const saved = [];
  if (args.save) {
    const stamp = report.createdAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
    writeAtomic(path.join(reportsDir, `${stamp}.json`), text);
    writeAtomic(latest, text);
    saved.push(path.join(reportsDir, `${stamp}.json`), latest);
  }
  if (args.out) { writeAtomic(args.out, text); saved.push(args.out); }
  if (prev?.datasets) compare(prev, report);
  else process.stdout.write('\n(no previous report to compare with)\n');
  if (saved.length) log(`bench: report written to ${saved.join(', ')} (${(text.length / 1024).toFixed(0)} KB)`);
}

await main();
// Do not let a stray handle keep a finished run alive.
setTimeout(() => process.exit(process.exitCode ?? 0), 5_000).unref();
