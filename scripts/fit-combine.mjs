#!/usr/bin/env node
/**
 * Fits the choice between two readings (src/resolve/combine-model.ts) from the weighings the pool's
 * recordings hold (scripts/fit-fields.mjs --collect writes `combines`), and writes models/combine.json:
 *
 *   node scripts/fit-combine.mjs --data rec-0.jsonl,rec-1.jsonl [--labels POOL] [--fields date,total] [--lambda 1] [--min-rows 20]
 *     [--features[-FIELD] a,b] [--no-bias[-FIELD]] [--out models/combine.json]
 *
 * A row is one weighing of two different values of a field where exactly one is right (by the pool's
 * labels; --labels POOL reads them as the pool holds them now); a date read in the other day/month order
 * is left out (the page's country settles those, not the model). Its features are the library's own
 * (dist choiceFeatures); a feature non-zero in fewer than --min-rows rows is left out. The fit is the
 * project's logistic fit (scripts/fit-core.mjs fitSigned: Newton steps, L2 penalty --lambda, no sign
 * held). bench/loso.mjs --combines scores the same fit per held-out source (losoChoice here).
 * The default fields are the date and the total: held out per source (bench/loso.mjs --combines and --engine)
 * each fit is right on as many weighings as the rule or more on every source. The total's became so with the
 * answers' own support features (`second-support`, `first-support`: how many of tesseract's readings also read
 * PaddleOCR's value, against tesseract's repeats of its own); before them SROIE lost a weighing at every penalty
 * tried. The tax's weighings come from one source only (WildReceipt), so no fit of them can be scored on a
 * source it did not see, and the tax keeps the rule. `--fields tax` fits it too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RIGHT, fitSigned } from './fit-core.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The record field and the library's result key of each field the readings are weighed on. */
export const CHOICE_FIELDS = { total: 'totalAmount', date: 'date', tax: 'taxAmount' };
const HAS_GOLD = { total: (g) => typeof g.totalAmount === 'number', date: (g) => typeof g.date === 'string', tax: (g) => typeof g.taxAmount === 'number' };

/** Two ISO dates with the same digits in the other day/month order (read/combine.ts swappedOrder). */
const swapped = (a, b) => {
  const x = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(a)), y = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(b));
  return !!x && !!y && x[1] === y[1] && x[2] === y[3] && x[3] === y[2] && x[2] !== x[3];
};

/**
 * The weighings of `field` ('total', 'date', 'tax') where exactly one value is right: per row the source,
 * the features (`features(tag, first, second)`, the library's choiceFeatures), what the rule chose, and
 * whether the second is the right one.
 */
export function choiceRows(records, field, features) {
  const key = CHOICE_FIELDS[field];
  const right = (v, r) => v !== null && v !== undefined && RIGHT[field](field === 'date' ? String(v).slice(0, 10) : v, r.gold);
  const rows = [];
  for (const r of records) {
    if (!HAS_GOLD[field](r.gold)) continue;
    for (const c of r.combines ?? []) {
      if (c.field !== key || c.chosen === 'both' || !c.a || !c.b) continue;
      if (field === 'date' && swapped(c.a[0], c.b[0])) continue;
      const ra = right(c.a[0], r), rb = right(c.b[0], r);
      if (ra === rb) continue;
      const f = features(c.tag, { confidence: c.a[1], terms: c.a[2], reading: c.a[3] }, { confidence: c.b[1], terms: c.b[2], reading: c.b[3] }, { paper: !!c.paper, ...(c.support ? { support: c.support } : {}) });
      rows.push({ ds: r.ds, tag: c.tag, f, chosen: c.chosen, second: rb });
    }
  }
  return rows;
}

/** The logistic choice fitted on `rows`: { weights } with `bias` the intercept (undefined when there are no rows). */
export function fitChoice(rows, { lambda = 1, minRows = 20, features, bias = true } = {}) {
  if (!rows.length) return undefined;
  const seen = new Map();
  for (const x of rows) for (const [k, v] of Object.entries(x.f)) if (k !== 'bias' && v) seen.set(k, (seen.get(k) ?? 0) + 1);
  const allowed = features ? new Set(features) : undefined;
  const names = [...seen].filter(([k, n]) => n >= minRows && (!allowed || allowed.has(k))).map(([k]) => k).sort();
  // without the intercept its column is 0 on every row, so its weight stays 0
  const vector = (f) => Float64Array.from([bias ? 1 : 0, ...names.map((n) => f[n] ?? 0)]);
  const { beta } = fitSigned(rows.map((x) => ({ x: vector(x.f), y: x.second ? 1 : 0, w: 1 })), names, names.map(() => 0), lambda);
  const round = (v) => Math.round(v * 1e4) / 1e4;
  return { weights: Object.fromEntries([...(bias ? [['bias', round(beta[0])]] : []), ...names.map((n, k) => [n, round(beta[k + 1])])]) };
}

/** A fitted choice's log-odds for the second value (as resolve/field-model.ts modelScore adds them). */
export const choiceScore = (m, f) => Object.entries(f).reduce((s, [k, v]) => s + (m.weights[k] ?? 0) * v, 0);

/**
 * Per source: the weighings, how many the rule (what the recording chose) got right, how many the more
 * confident value is, and how many the choice fitted on every other source gets right (null where no other
 * source has such a weighing).
 */
export function losoChoice(records, field, features, opts = {}) {
  const rows = choiceRows(records, field, features);
  const perSource = {};
  for (const S of [...new Set(rows.map((x) => x.ds))].sort()) {
    const test = rows.filter((x) => x.ds === S);
    const m = fitChoice(rows.filter((x) => x.ds !== S), opts);
    perSource[S] = {
      decisions: test.length,
      rule: test.filter((x) => (x.chosen === 'second') === x.second).length,
      // the choice without a model: the more confident value (what the recording chose is the installed fit's
      // choice, fitted on every source: not a held-out baseline)
      confident: test.filter((x) => ((x.f['confidence-difference'] ?? 0) > 0) === x.second).length,
      learned: m ? test.filter((x) => (choiceScore(m, x.f) > 0) === x.second).length : null,
    };
  }
  return { decisions: rows.length, perSource };
}

/**
 * A field's fit options from the command line, as fitChoice takes them: --features a,b (only these features,
 * each still seen in --min-rows weighings) and --no-bias (no intercept), or per field --features-total a,b and
 * --no-bias-total (the field's own win).
 */
export function choiceOptions(argv, field) {
  const list = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1].split(',').filter(Boolean) : undefined; };
  const features = list(`--features-${field}`) ?? list('--features');
  const noBias = argv.includes(`--no-bias-${field}`) || argv.includes('--no-bias');
  return { ...(features ? { features } : {}), ...(noBias ? { bias: false } : {}) };
}

/** The command-line arguments choiceOptions reads, to hand on to another run of this script. */
export const choiceArgs = (argv) => argv.flatMap((a, i) => (/^--features(?:-\w+)?$/.test(a) ? [a, argv[i + 1]] : /^--no-bias(?:-\w+)?$/.test(a) ? [a] : []));

/** The library's feature function from a build (RK_DIST's folder, or dist/). */
export async function libraryFeatures() {
  const dist = process.env.RK_DIST ? path.dirname(path.resolve(process.env.RK_DIST)) : path.join(repo, 'dist');
  return (await import(pathToFileURL(path.join(dist, 'resolve', 'combine-model.js')).href)).choiceFeatures;
}

/** The collected lines of every file, the later line of a receipt replacing an earlier one. */
function load(files, labels) {
  const byFile = new Map();
  for (const f of files) for (const l of fs.readFileSync(f, 'utf8').split('\n')) {
    if (!l.trim()) continue;
    const r = JSON.parse(l);
    if (labels) {
      const g = JSON.parse(fs.readFileSync(path.join(labels, r.ds, 'labels', `${r.id}.json`), 'utf8'));
      r.gold = { totalAmount: g.totalAmount ?? null, taxAmount: g.taxAmount ?? null, date: g.date ?? null };
    }
    byFile.set(`${r.ds}/${r.id}`, r);
  }
  return [...byFile.values()];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const opt = (name, def) => { const i = argv.indexOf(`--${name}`); return i < 0 ? def : argv[i + 1]; };
  const files = opt('data', '').split(',').filter(Boolean);
  if (!files.length) { console.error('usage: node scripts/fit-combine.mjs --data FILE[,FILE...] [--labels POOL] [--lambda 1] [--min-rows 20] [--out models/combine.json]'); process.exit(2); }
  const records = load(files.map((f) => path.resolve(f)), opt('labels', '') ? path.resolve(opt('labels')) : undefined);
  const features = await libraryFeatures();
  const settings = { lambda: Number(opt('lambda', '1')), minRows: Number(opt('min-rows', '20')) };
  const model = { version: 1, fields: {}, fitted: { script: 'scripts/fit-combine.mjs', date: new Date().toISOString().slice(0, 10), ...settings, files: records.length, rows: {} } };
  for (const field of opt('fields', 'date,total').split(',').filter(Boolean)) {
    const key = CHOICE_FIELDS[field];
    if (!key) { console.error(`unknown field ${field}: one of ${Object.keys(CHOICE_FIELDS).join(', ')}`); process.exit(2); }
    const rows = choiceRows(records, field, features);
    const own = choiceOptions(argv, field);
    const m = fitChoice(rows, { ...settings, ...own });
    model.fitted.rows[key] = rows.length;
    if (Object.keys(own).length) (model.fitted.options ??= {})[key] = own;
    if (m) model.fields[key] = m;
    const right = m ? rows.filter((x) => (choiceScore(m, x.f) > 0) === x.second).length : 0;
    console.log(`${key}: ${rows.length} weighings with one value right; the rule ${rows.filter((x) => (x.chosen === 'second') === x.second).length}, the fit ${right} (in sample)`);
  }
  const out = path.resolve(opt('out', path.join(repo, 'models', 'combine.json')));
  fs.writeFileSync(out, `${JSON.stringify(model, null, 1)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), out) || out}`);
}
