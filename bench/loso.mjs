#!/usr/bin/env node
/**
 * Leave-one-source-out scores of the field models: for each source of the training pool (a dataset folder of
 * the pool, scripts/pool/build.mjs), the model is fitted on every other source and scored on that one. This
 * is the number a user's receipts follow; the corpus's own halves are spent (rules were written from both).
 *
 *   node bench/loso.mjs --data ../pool-cache/data-0.jsonl,../pool-cache/data-1.jsonl [--fields total,date,name,currency,tax]
 *                       [--lambda auto|N] [--prior hand-set] [--calibration] [--labels ../pool] [--out FILE]
 *                       [--model linear|boosted [--rounds N --depth N --eta X --min-files N]]
 *                       [--engine [--corpus ../pool] [--shards 2] [--work DIR] [--ranking fitted|default] [--choice-fields date,total] | --held FILE,...] [--combines]
 *                       [--features[-FIELD] a,b] [--no-bias[-FIELD]] [--choice-lambda 1] [--choice-min-rows 20]   (the choice's fit)
 *
 * The data are scripts/fit-fields.mjs --collect lines (one a file: its label, the engine's final answer,
 * and every candidate list the resolver weighed with its features). Per field and held-out source:
 * - `engine`: the engine's final answer right (what a user gets today, whatever ranked it);
 * - `fitted` and `handSet`: the top candidate of the file's lists by the model fitted without this source,
 *   and by the rules' hand-set scores (the currency's: the rule's choice), over all of the file's lists (the
 *   highest score of any reading wins); `reachable`: the right value is among the file's candidates;
 * - the confidence: a Platt scaling of [top score, margin over the first rival] fitted on the held-out
 *   predictions of the *other* sources, applied to this one (so no source calibrates itself): precision at
 *   >= 0.9, share at >= 0.9, and a reliability table over every source's held-out predictions.
 * The penalty: --lambda N (default 1, the corpus fits' cross-validated value for the total and the name), or
 * --lambda auto, chosen for each held-out source by 3-fold cross-validation on the other sources' files (10x
 * the fits).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathToFileURL } from 'node:url';
import { MARGIN_CAP, RIGHT, fitListwise, marginOf, fitSigned, groupsOf, reliability, sigmoid, signOf, topOf, weighByFile, z } from '../scripts/fit-core.mjs';
import { fitMap } from '../scripts/fit-calibration.mjs';
import { fitBoosted, treesScore } from '../scripts/fit-boost.mjs';
import { goldFor, scoreField } from './score.mjs';
import { choiceArgs, choiceOptions, libraryFeatures, losoChoice } from '../scripts/fit-combine.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name, def) => { const i = argv.indexOf(`--${name}`); return i < 0 ? def : argv[i + 1]; };
const GRID = [0.3, 3, 30];
// --model boosted: the trees' settings (--rounds, --depth, --eta, --min-files)
const BOOST = { rounds: Number(opt('rounds', '100')), depth: Number(opt('depth', '3')), eta: Number(opt('eta', '0.1')), minFiles: Number(opt('min-files', '25')) };

/** The collected lines of every --data file (later lines of the same file replace earlier ones). */
export function loadRecords(files) {
  const byFile = new Map();
  for (const f of files) for (const l of fs.readFileSync(f, 'utf8').split('\n')) {
    if (!l.trim()) continue;
    const r = JSON.parse(l);
    byFile.set(`${r.ds}/${r.id}`, r);
  }
  return [...byFile.values()];
}

/** A label file as the collected data hold it (every scored field, null where the label lacks it). */
function goldOf(file) {
  const l = JSON.parse(fs.readFileSync(file, 'utf8'));
  return Object.fromEntries(['totalAmount', 'taxAmount', 'currency', 'merchantName', 'merchantAddress', 'date'].map((k) => [k, l[k] ?? null]));
}

/** Is the engine's final answer for this field right (the fit's rules; the final date is a timestamp)? */
function finalRight(field, r) {
  const v = r.final?.[field]?.[0];
  if (v === undefined || v === null) return 0;
  if (field === 'date') return RIGHT.date(String(v).slice(0, 10), r.gold) ? 1 : 0;
  return RIGHT[field](v, r.gold) ? 1 : 0;
}

const hasGold = { total: (g) => typeof g.totalAmount === 'number', tax: (g) => typeof g.taxAmount === 'number', currency: (g) => typeof g.currency === 'string', name: (g) => typeof g.merchantName === 'string', date: (g) => typeof g.date === 'string' };
/** The rules' own ranking of a candidate: its hand-set score, or for the currency the rule's choice. */
const handScore = (c) => (typeof c.s === 'number' ? c.s : c.f?.['rule-choice'] ? 1 : 0);

function fit(groups, names, signs, lam) {
  // --prior hand-set: penalised toward the rules' own numbers (as models/fields.json was fitted), default toward 0
  return fitListwise(groups, names, signs, lam, opt('prior', 'none')).beta;
}

function chooseLambda(groups, names, signs) {
  if (opt('lambda', '1') !== 'auto') return Number(opt('lambda', '1'));
  const files = [...new Set(groups.map((g) => g.file))].sort();
  const fold = new Map(files.map((f, i) => [f, i % 3]));
  let best = GRID[0], bestTop = -1;
  for (const lam of GRID) {
    let right = 0, all = 0;
    for (let k = 0; k < 3; k++) {
      const beta = fit(groups.filter((g) => fold.get(g.file) !== k), names, signs, lam);
      for (const g of groups.filter((g) => fold.get(g.file) === k)) { all += 1 / g.weightDiv; right += topOf(g, (c) => z(beta, names, c.f)).top.y / g.weightDiv; }
    }
    if (right / all >= bestTop - 1e-12) { best = lam; bestTop = right / all; }
  }
  return best;
}

/** One file's top over all its lists: the candidate with the highest score in any list, and the first rival's score. */
function fileTop(gs, score) {
  let best;
  for (const g of gs) {
    const t = topOf(g, score);
    if (!best || t.zt > best.zt) best = t;
  }
  return best;
}

function losoField(field, records) {
  const groups = groupsOf(records, field);
  weighByFile(groups);
  const names = [...new Set(groups.flatMap((g) => g.cands.flatMap((c) => Object.keys(c.f))))].sort();
  const signs = names.map((n) => signOf(field, n));
  const sources = [...new Set(records.map((r) => r.ds))].sort();
  const preds = [];
  const perSource = {};
  for (const S of sources) {
    const train = groups.filter((g) => g.ds !== S);
    const test = groups.filter((g) => g.ds === S);
    const labelled = records.filter((r) => r.ds === S && hasGold[field](r.gold));
    if (!labelled.length) continue;
    const lam = train.length ? chooseLambda(train, names, signs) : GRID[0];
    const beta = train.length ? fit(train, names, signs, lam) : new Float64Array(names.length + 1);
    // --model boosted: trees fitted on top of the linear model
    const linear = (c) => z(beta, names, c.f);
    const boost = opt('model', 'linear') === 'boosted' && train.length ? fitBoosted(train, names, { ...BOOST, base: linear }) : undefined;
    const score = boost ? (c) => linear(c) + treesScore(boost.trees, c.f) : linear;
    const byFile = new Map();
    for (const g of test) { if (!byFile.has(g.file)) byFile.set(g.file, []); byFile.get(g.file).push(g); }
    let fitted = 0, hand = 0, reach = 0, engine = 0;
    for (const r of labelled) {
      engine += finalRight(field, r);
      const gs = byFile.get(`${r.ds}/${r.id}`) ?? [];
      if (!gs.length) { preds.push({ ds: S, zt: -Infinity, zr: undefined, y: 0, none: true }); continue; }
      const t = fileTop(gs, score);
      const h = fileTop(gs, handScore);
      fitted += t.top.y; hand += h.top.y;
      reach += gs.some((g) => g.cands.some((c) => c.y)) ? 1 : 0;
      preds.push({ ds: S, zt: t.zt, zr: t.zr, y: t.top.y });
    }
    const n = labelled.length;
    perSource[S] = { files: n, lambda: lam, engine: +(engine / n).toFixed(4), fitted: +(fitted / n).toFixed(4), handSet: +(hand / n).toFixed(4), reachable: +(reach / n).toFixed(4) };
  }
  // the confidence of each source's predictions: a Platt scaling fitted on the other sources' held-out predictions
  const rowsOf = (ps) => ps.filter((p) => !p.none).map((p) => ({ x: [1, p.zt, marginOf(p)], y: p.y, w: 1 }));
  const pairs = [];
  for (const S of Object.keys(perSource)) {
    const cb = fitSigned(rowsOf(preds.filter((p) => p.ds !== S)), ['score', 'margin'], [1, 1], 1e-3).beta;
    const mine = preds.filter((p) => p.ds === S).map((p) => ({ conf: p.none ? 0 : sigmoid(cb[1] * p.zt + cb[2] * marginOf(p) + cb[0]), y: p.y }));
    const hi = mine.filter((p) => p.conf >= 0.9);
    perSource[S].hiConfPrecision = hi.length ? +(hi.filter((p) => p.y).length / hi.length).toFixed(4) : null;
    perSource[S].hiConfShare = +(hi.length / mine.length).toFixed(4);
    pairs.push(...mine);
  }
  // the calibration the library would install: fitted on every source's held-out predictions
  const cb = fitSigned(rowsOf(preds), ['score', 'margin'], [1, 1], 1e-3).beta;
  return { perSource, reliability: reliability(pairs), calibration: { a: +cb[1].toFixed(4), b: +cb[2].toFixed(4), c: +cb[0].toFixed(4), marginCap: MARGIN_CAP }, features: names.length };
}

/** The collected field names and the bench's. */
const BENCH_FIELD = { total: 'totalAmount', tax: 'taxAmount', date: 'date', name: 'merchantName', address: 'merchantAddress', currency: 'currencyCode' };

/** Each labelled file's final answer for a field: its (raw) confidence and whether the bench scores it right. */
function finalPairs(records, field) {
  const bf = BENCH_FIELD[field];
  const out = [];
  for (const r of records) {
    const gold = goldFor({ ...r.gold, currency: r.gold.currency ?? undefined });
    const [data, conf] = r.final?.[field] ?? [undefined, 0];
    const scored = scoreField(bf, { [bf]: data === undefined || data === null ? undefined : { data, confidenceLevel: conf } }, gold);
    if (scored) out.push({ ds: r.ds, confidence: scored.confidence, right: scored.correct });
  }
  return out;
}

/**
 * The confidence map (models/calibration.json, src/resolve/calibration.ts) leave-one-source-out: for each
 * source, the map fitted (scripts/fit-calibration.mjs fitMap) on the other sources' final answers, applied to
 * this one's; beside it, the installed map (`installed`, a function of the raw confidence). The data must
 * hold the resolvers' own confidences (collected with --engine-opts '{"calibrated":false}').
 */
export function losoCalibration(records, field, installed) {
  const pairs = finalPairs(records, field);
  const given = pairs.filter((p) => p.confidence > 0);
  const perSource = {};
  const held = [], today = [];
  for (const S of [...new Set(pairs.map((p) => p.ds))].sort()) {
    const mine = pairs.filter((p) => p.ds === S);
    const map = fitMap(given.filter((p) => p.ds !== S));
    const stat = (conf) => {
      const xs = mine.filter((p) => p.confidence > 0).map((p) => ({ conf: conf(p.confidence), y: p.right }));
      const hi = xs.filter((p) => p.conf >= 0.9);
      return { xs, precision: hi.length ? +(hi.filter((p) => p.y).length / hi.length).toFixed(4) : null, share: +(hi.length / mine.length).toFixed(4) };
    };
    const a = stat((c) => calibrateBy(c, map)), b = stat(installed);
    held.push(...a.xs); today.push(...b.xs);
    perSource[S] = { files: mine.length, right: +(mine.filter((p) => p.right).length / mine.length).toFixed(4), heldOut: { precision: a.precision, share: a.share }, installed: { precision: b.precision, share: b.share } };
  }
  return { perSource, reliability: { heldOut: reliability(held), installed: reliability(today) }, map: fitMap(given) };
}

let calibrateFn;
/** The library's own mapping (dist/resolve/calibration.js calibrate), so that the bench applies a map as the engine does. */
async function loadCalibrate() {
  const mod = await import(pathToFileURL(path.join(process.env.RK_DIST ? path.dirname(process.env.RK_DIST) : path.join(repo, 'dist'), 'resolve', 'calibration.js')).href);
  calibrateFn = mod.calibrate;
  return mod;
}
const calibrateBy = (c, map) => (map ? calibrateFn(c, map) : c);

/** Reliability groups of at least `min` values whose right share is more than 5 points from their mean confidence. */
export function offGroups(table, min = 30) {
  return table.filter((b) => b.n >= min && Math.abs(b.right - b.meanConfidence) > 0.05);
}

/**
 * --engine: the engine itself leave-one-source-out. For each source, the field models are fitted on every
 * other source (scripts/fit-fields.mjs --train all --prior hand-set, penalty --lambda, default 1), and the
 * choice between readings too (scripts/fit-combine.mjs, for the fields of --choice-fields, default the date and the total), into a copy of the build (`dist` copied, `models`
 * linked but for fields.json and combine.json), and that source's files are extracted
 * by it (`ranking: 'fitted'`, or with --ranking default the build's default ranking; the readings
 * replayed from RK_OCR_CACHE, --shards processes). Returns the
 * held-out records: the engine's final answers as a user would get them from a model that never saw the
 * source, beside the recorded records' (the build's default).
 */
async function engineLoso(records) {
  const { spawn } = await import('node:child_process');
  const work = path.resolve(opt('work', path.join(repo, '.bench-tmp', 'loso-engine')));
  const pool = path.resolve(opt('corpus', path.join(repo, '..', 'pool')));
  const shards = Number(opt('shards', '2'));
  const dist = process.env.RK_DIST ? path.dirname(path.resolve(process.env.RK_DIST)) : path.join(repo, 'dist');
  const run = (args, env = {}) => new Promise((resolve, reject) => {
    const p = spawn(process.execPath, args, { cwd: repo, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    p.stdout.on('data', () => {});
    p.stderr.on('data', (d) => { err = (err + d).slice(-2000); });
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${args.slice(0, 2).join(' ')} exited ${code}: ${err}`))));
  });
  const held = [];
  for (const S of [...new Set(records.map((r) => r.ds))].sort()) {
    const b = path.join(work, S);
    const t0 = Date.now();
    fs.rmSync(b, { recursive: true, force: true });
    fs.mkdirSync(path.join(b, 'models'), { recursive: true });
    fs.cpSync(dist, path.join(b, 'dist'), { recursive: true });
    for (const e of fs.readdirSync(path.join(repo, 'models'))) if (e !== 'fields.json' && e !== 'combine.json') fs.symlinkSync(path.join(repo, 'models', e), path.join(b, 'models', e));
    fs.symlinkSync(path.join(repo, 'node_modules'), path.join(b, 'node_modules'));
    fs.copyFileSync(path.join(repo, 'package.json'), path.join(b, 'package.json'));
    const lines = (f) => `${records.filter(f).map((r) => JSON.stringify(r)).join('\n')}\n`;
    fs.writeFileSync(path.join(b, 'train.jsonl'), lines((r) => r.ds !== S));
    fs.writeFileSync(path.join(b, 'files.jsonl'), lines((r) => r.ds === S));
    await run(['scripts/fit-fields.mjs', '--data', path.join(b, 'train.jsonl'), '--train', 'all', '--fields', opt('fit-fields', 'total,name,date,tax'), '--prior', 'hand-set', '--lambda', opt('lambda', '1'), '--model', opt('model', 'linear'), '--rounds', String(BOOST.rounds), '--depth', String(BOOST.depth), '--eta', String(BOOST.eta), '--min-files', String(BOOST.minFiles), ...(opt('confidence') ? ['--confidence', opt('confidence')] : []), ...(opt('folds') ? ['--folds', opt('folds')] : []), '--out', path.join(b, 'models', 'fields.json')]);
    // the choice between readings fitted without the source too (scripts/fit-combine.mjs, the build's features)
    await run(['scripts/fit-combine.mjs', '--data', path.join(b, 'train.jsonl'), '--fields', opt('choice-fields', 'date,total'), ...choiceArgs(argv), '--out', path.join(b, 'models', 'combine.json')], { RK_DIST: path.join(b, 'dist', 'index.js') });
    const outs = Array.from({ length: shards }, (_, k) => path.join(b, `held-${k}.jsonl`));
    await Promise.all(outs.map((o, k) => run(['scripts/fit-fields.mjs', '--collect', '--corpus', pool, '--dataset', S, '--same-files', path.join(b, 'files.jsonl'), '--engine-opts', JSON.stringify({ calibrated: false, ...(opt('ranking', 'fitted') === 'fitted' ? { ranking: 'fitted' } : {}) }), '--shard', `${k}/${shards}`, '--data', o, '--dry-run'], { RK_DIST: path.join(b, 'dist', 'index.js') })));
    const mine = loadRecords(outs);
    held.push(...mine);
    console.log(`${S}: fitted without it, ${mine.length} files extracted (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  return held;
}

/** Per source and field, the share right of the final answers of two sets of records of the same files. */
function engineTable(before, after, fields) {
  const byKey = new Map(before.map((r) => [`${r.ds}/${r.id}`, r]));
  const table = {};
  for (const field of fields) {
    table[field] = {};
    for (const S of [...new Set(after.map((r) => r.ds))].sort()) {
      const rs = after.filter((r) => r.ds === S && hasGold[field](r.gold) && byKey.has(`${r.ds}/${r.id}`));
      if (!rs.length) continue;
      const a = rs.reduce((n, r) => n + finalRight(field, byKey.get(`${r.ds}/${r.id}`)), 0), b = rs.reduce((n, r) => n + finalRight(field, r), 0);
      table[field][S] = { files: rs.length, default: +(a / rs.length).toFixed(4), fittedHeldOut: +(b / rs.length).toFixed(4) };
    }
  }
  return table;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = (opt('data', '') || '').split(',').filter(Boolean);
  if (!files.length) { console.error('usage: node bench/loso.mjs --data FILE[,FILE...] [--fields total,date,name,currency,tax]'); process.exit(2); }
  // --labels POOL: the labels as the pool holds them now (a label derivation fixed after the data were collected)
  const relabel = (r) => (opt('labels', '') ? { ...r, gold: goldOf(path.join(opt('labels'), r.ds, 'labels', `${r.id}.json`)) } : r);
  const records = loadRecords(files).map(relabel);
  const fields = opt('fields', 'total,date,name,currency,tax').split(',').filter(Boolean);
  const report = { date: new Date().toISOString(), files: records.length, sources: {}, fields: {} };
  if (argv.includes('--engine')) {
    // the engine's own answers held out; --calibration below then reads these (the held-out confidences)
    const held = (opt('held', '') ? loadRecords(opt('held').split(',')) : await engineLoso(records)).map(relabel);
    report.engine = engineTable(records, held, fields);
    for (const [field, t] of Object.entries(report.engine)) {
      console.log(`\n== engine ${field}, final answers right: the build's default / fitted without the source`);
      for (const [S, v] of Object.entries(t)) console.log(`| ${S} | ${v.files} | ${(100 * v.default).toFixed(1)} | ${(100 * v.fittedHeldOut).toFixed(1)} |`);
    }
    records.splice(0, records.length, ...held);
  }
  for (const r of records) report.sources[r.ds] = (report.sources[r.ds] ?? 0) + 1;
  console.log(`leave-one-source-out on ${records.length} files: ${Object.entries(report.sources).map(([s, n]) => `${s} ${n}`).join(', ')}`);
  for (const field of fields) {
    const t0 = Date.now();
    const res = losoField(field, records);
    report.fields[field] = res;
    console.log(`\n== ${field} (${res.features} features, ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    console.log('| source | files | engine today | fitted (held out) | hand-set | right among candidates | precision >= 0.9 | share >= 0.9 |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const [s, v] of Object.entries(res.perSource)) console.log(`| ${s} | ${v.files} | ${(100 * v.engine).toFixed(1)} | ${(100 * v.fitted).toFixed(1)} | ${(100 * v.handSet).toFixed(1)} | ${(100 * v.reachable).toFixed(1)} | ${v.hiConfPrecision === null ? '-' : (100 * v.hiConfPrecision).toFixed(1)} | ${(100 * v.hiConfShare).toFixed(1)} |`);
    console.log('reliability (held-out):', res.reliability.filter((b) => b.n).map((b) => `${b.group}: n ${b.n} conf ${b.meanConfidence} right ${b.right}`).join(' | '));
    const off = offGroups(res.reliability);
    console.log(`groups of >= 30 more than 5 points off: ${off.length ? off.map((b) => b.group).join(', ') : 'none'}`);
  }
  if (argv.includes('--combines')) {
    report.combines = {};
    const features = await libraryFeatures();
    for (const field of ['total', 'date', 'tax']) {
      const res = losoChoice(records, field, features, { lambda: Number(opt('choice-lambda', '1')), minRows: Number(opt('choice-min-rows', '20')), ...choiceOptions(argv, field) });
      report.combines[field] = res;
      console.log(`\n== the choice between two readings, ${field}: ${res.decisions} weighings where one reading is right and the other not; right: the recording's choice (the installed fit, in sample) / the more confident value / a logistic choice fitted without the source`);
      for (const [S, v] of Object.entries(res.perSource)) console.log(`| ${S} | ${v.decisions} | ${v.rule} | ${v.confident} | ${v.learned ?? '-'} |`);
    }
  }
  if (argv.includes('--calibration')) {
    const mod = await loadCalibrate();
    const installedModel = JSON.parse(fs.readFileSync(path.join(repo, 'models', 'calibration.json'), 'utf8'));
    report.calibration = {};
    const maps = {};
    for (const field of Object.keys(BENCH_FIELD)) {
      const m = installedModel.fields[BENCH_FIELD[field]];
      const res = losoCalibration(records, field, (c) => mod.calibrate(c, m));
      report.calibration[field] = res;
      if (res.map) maps[BENCH_FIELD[field]] = { x: res.map.x, y: res.map.y, ...(res.map.hiFrom !== undefined ? { hiFrom: res.map.hiFrom } : {}) };
      console.log(`\n== confidence of the final ${field}: precision / share at >= 0.9, map fitted without the source vs the installed map`);
      console.log('| source | files | right | held-out map | installed map |');
      console.log('|---|---|---|---|---|');
      const pc = (v) => (v === null ? '-' : (100 * v).toFixed(1));
      for (const [src, v] of Object.entries(res.perSource)) console.log(`| ${src} | ${v.files} | ${pc(v.right)} | ${pc(v.heldOut.precision)} / ${pc(v.heldOut.share)} | ${pc(v.installed.precision)} / ${pc(v.installed.share)} |`);
      for (const k of ['heldOut', 'installed']) {
        const off = offGroups(res.reliability[k]);
        console.log(`reliability (${k}):`, res.reliability[k].filter((b) => b.n).map((b) => `${b.group}: n ${b.n} conf ${b.meanConfidence} right ${b.right}`).join(' | '), `; off by > 5 points (n >= 30): ${off.map((b) => b.group).join(', ') || 'none'}`);
      }
    }
    const calOut = opt('write-calibration', '');
    if (calOut) {
      const model = { version: 1, fields: maps, fitted: { script: 'bench/loso.mjs --calibration', date: new Date().toISOString().slice(0, 10), data: 'the training pool (scripts/pool), final answers with the resolvers\' own confidences', files: records.length, sources: report.sources } };
      fs.writeFileSync(path.resolve(calOut), `${JSON.stringify(model, null, 1)}\n`);
      console.log(`wrote ${calOut}`);
    }
  }
  const out = opt('out', '');
  if (out) { fs.writeFileSync(path.resolve(out), `${JSON.stringify(report, null, 1)}\n`); console.log(`\nwritten ${path.relative(repo, path.resolve(out)) || out}`); }
}
