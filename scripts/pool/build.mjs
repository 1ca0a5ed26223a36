#!/usr/bin/env node
/**
 * The training pool: public labelled receipts gathered from their source repositories into a folder
 * outside this repository, in the corpus's layout (`<source>/images/<id>.<ext>`, `<source>/labels/<id>.json`,
 * `<source>/manifest.json`), so that bench/run.mjs, bench/replay-engine.mjs and scripts/fit-fields.mjs read it
 * as they read ../shared/corpus. Images are never committed; `scripts/pool/manifest.jsonl` is (one receipt a
 * line: source, id, repository, commit, path, sha256, label, how the label was derived).
 *
 *   node scripts/pool/build.mjs --discover     # read the sources, write scripts/pool/manifest.jsonl
 *   node scripts/pool/build.mjs                # build ../pool from the manifest (sha256 checked)
 *   node scripts/pool/build.mjs --out DIR --mirrors DIR --corpus DIR --never DIR
 *
 * Sources are local copies (bare git directories) of public repositories, `<mirrors>/<owner>+<name>/repo`
 * (what the search tool's `fetch` writes; default /work/.mirror); a receipt the shared corpus also holds takes
 * the corpus's hand-checked label, and its bytes from the corpus when the copy lacks them. A receipt listed in
 * `../shared/training/never-train-on.sha256` or `never-train-on.sources.tsv` (by sha256, by repository and
 * path, by dataset id or file stem) never enters the pool, and neither does a second copy of a receipt
 * (same sha256).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { labelFields, mcocrLabel, sroieLabel, wildreceiptLabel, isoDate } from './labels.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
const opt = (name, def) => { const i = argv.indexOf(`--${name}`); return i < 0 ? def : argv[i + 1]; };
const MIRRORS = path.resolve(opt('mirrors', '/work/.mirror'));
const OUT = path.resolve(opt('out', path.join(repo, '..', 'pool')));
const CORPUS = path.resolve(opt('corpus', path.join(repo, '..', 'shared', 'corpus')));
const NEVER = path.resolve(opt('never', path.join(repo, '..', 'shared', 'training')));
const MANIFEST = path.resolve(opt('manifest', path.join(repo, 'scripts', 'pool', 'manifest.jsonl')));

const gitDir = (name) => path.join(MIRRORS, name.replace('/', '+'), 'repo');
const git = (name, args, enc) => execFileSync('git', ['--git-dir', gitDir(name), ...args], { encoding: enc, maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
const blob = (name, commit, p) => git(name, ['cat-file', 'blob', `${commit}:${p}`]);
const lsTree = (name, commit, dir) => git(name, ['ls-tree', '-r', '--name-only', commit, '--', dir], 'utf8').split('\n').filter(Boolean);
const sha256 = (buf) => crypto.createHash('sha256').update(buf).digest('hex');
const stem = (p) => path.basename(p).replace(/\.[^.]+$/, '');

/** The receipts that must never be used: sha256, `repo\tpath`, dataset ids and file stems. */
export function loadNever(dir) {
  const shas = new Set(fs.readFileSync(path.join(dir, 'never-train-on.sha256'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => /^[0-9a-f]{64}$/.test(l)));
  const paths = new Set(), ids = new Set();
  for (const line of fs.readFileSync(path.join(dir, 'never-train-on.sources.tsv'), 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#') || line.startsWith('repo\t')) continue;
    const [r, p, id] = line.split('\t');
    paths.add(`${r}\t${p}`);
    if (id?.trim()) ids.add(id.trim());
    if (p) ids.add(stem(p));
  }
  return { shas, paths, ids };
}

/** Why a receipt may not enter the pool, or undefined when it may. */
export function neverReason(never, { repo: r, path: p, sha256: h, datasetId }) {
  if (never.shas.has(h)) return 'sha256 listed';
  if (never.paths.has(`${r}\t${p}`)) return 'source path listed';
  if (datasetId && never.ids.has(datasetId)) return 'dataset id listed';
  if (never.ids.has(stem(p))) return 'file name listed';
  return undefined;
}

/** The shared corpus's items by sha256: dataset, id, label fields, and where its bytes are. */
function corpusBySha() {
  const map = new Map();
  if (!fs.existsSync(CORPUS)) return map;
  for (const ds of fs.readdirSync(CORPUS)) {
    const mf = path.join(CORPUS, ds, 'manifest.json');
    if (!fs.existsSync(mf)) continue;
    for (const it of JSON.parse(fs.readFileSync(mf, 'utf8')).items) {
      const label = JSON.parse(fs.readFileSync(path.join(CORPUS, ds, it.label), 'utf8'));
      map.set(it.sha256, { dataset: ds, id: it.id, label: labelFields(label), image: it.image, source: it.source });
    }
  }
  return map;
}

// ---- sources: each yields { source, id, repo, commit, path, datasetId?, label, notes } (bytes read later)

const SROIE = { repo: 'zzzDavid/ICDAR-2019-SROIE', commit: '19fd80069130dc94286bf64851616130f46ea586' };
/** SROIE 2019 train: data/img/NNN.jpg renamed in sorted order of the SROIE ids (the ids from another copy's file names). */
function* sroie() {
  const ids = lsTree('asmae-ba/Intelligent-Invoice-extraction-system', 'HEAD', 'SROIE2019/train/box').map(stem).sort();
  for (const p of lsTree(SROIE.repo, SROIE.commit, 'data/img')) {
    const n = Number(stem(p));
    const key = JSON.parse(blob(SROIE.repo, SROIE.commit, `data/key/${stem(p)}.json`).toString('utf8'));
    // the source's transcript, to tell a label before a rounding line (labels.mjs totalBeforeRounding)
    let box;
    try { box = blob(SROIE.repo, SROIE.commit, `data/box/${stem(p)}.csv`).toString('utf8'); } catch { box = undefined; }
    const { label, notes } = sroieLabel(key, box);
    yield { source: 'sroie', id: ids[n] ?? `sroie${stem(p)}`, datasetId: ids[n], ...SROIE, path: p, label, notes: ['label: data/key/' + stem(p) + '.json', ...notes] };
  }
}

const MCOCR = { repo: 'johnPa02/ocr_receipts', commit: 'e9e791aff0c00a9eac298bd6f8db82615a9492e2' };
/** MC-OCR 2021 train (Vietnamese phone photos): data/train_images with data/mcocr_train_df.csv. */
function* mcocr() {
  const rows = parseCsv(blob(MCOCR.repo, MCOCR.commit, 'data/mcocr_train_df.csv').toString('utf8'));
  for (const row of rows) {
    const p = `data/train_images/${row.img_id}`;
    const { label, notes } = mcocrLabel(row);
    yield { source: 'mcocr', id: stem(p).replace(/^mcocr_public_/, 'mc'), datasetId: stem(p), ...MCOCR, path: p, label, notes: [`label: data/mcocr_train_df.csv row ${row.img_id}`, ...notes] };
  }
}

const WILD = { repo: 'jenashauryasikt/SD_internship', commit: '5ba211ec23f54e6694e776a50da071e633e64577' };
/** WildReceipt test split (photos and scans from many countries): wildreceipt_test.txt word boxes. */
function* wildreceipt() {
  const text = blob(WILD.repo, WILD.commit, 'wildreceipt/wildreceipt_test.txt').toString('utf8');
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const tab = line.indexOf('\t');
    const file = line.slice(0, tab);
    const { label, notes } = wildreceiptLabel(JSON.parse(line.slice(tab + 1)));
    const p = `wildreceipt/${file}`;
    yield { source: 'wildreceipt', id: `wr-${stem(p).slice(0, 16)}`, ...WILD, path: p, label, notes: [`label: wildreceipt/wildreceipt_test.txt line ${file}`, ...notes] };
  }
}

const SOFTMATIC = { repo: 'softmatic/vision-data', commit: '9062febd225986dc567777015f11d3db3a363086' };
/** German scans: labels from the file names the set's author chose (merchant_DDMMYYYY_items_cents); no name (a token, not the print). */
function* softmatic() {
  for (const p of lsTree(SOFTMATIC.repo, SOFTMATIC.commit, '2D/Receipts')) {
    const m = /^([a-z]+)_(\d{2})(\d{2})(\d{4})_(\d+)_(\d{5})(_B)?\.jpe?g$/i.exec(path.basename(p));
    if (!m || m[7]) continue;
    const date = isoDate(Number(m[4]), Number(m[3]), Number(m[2]));
    const label = { totalAmount: Number(m[6]) / 100, currency: 'EUR', ...(date ? { date } : {}) };
    yield { source: 'softmatic_de', id: stem(p), ...SOFTMATIC, path: p, label, notes: ['label: file name (merchant_DDMMYYYY_items_cents)', 'currency: EUR (German stores)'] };
  }
}

/** Receipts only the shared corpus labels (Indonesian photos, invoices): the corpus's items as they are. */
function* corpusOnly(corpus, datasets) {
  for (const c of corpus.values()) {
    if (!datasets[c.dataset]) continue;
    yield { source: datasets[c.dataset], id: c.id, repo: c.source.repo, commit: c.source.commit, path: c.source.image, label: c.label, notes: [`label: shared corpus ${c.dataset}/labels/${c.id}.json`], corpusImage: path.join(CORPUS, c.dataset, c.image) };
  }
}

/** RFC 4180 CSV to objects (quoted fields with commas, quotes and newlines). */
export function parseCsv(text) {
  const rows = []; let row = [], field = '', q = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (q) { if (ch === '"') { if (text[i + 1] === '"') { field += '"'; i++; } else q = false; } else field += ch; }
    else if (ch === '"') q = true;
    else if (ch === ',') { row.push(field); field = ''; }
    else if (ch === '\n' || ch === '\r') { if (ch === '\r' && text[i + 1] === '\n') i++; row.push(field); rows.push(row); row = []; field = ''; }
    else field += ch;
  }
  if (field || row.length) { row.push(field); rows.push(row); }
  const [head, ...rest] = rows;
  return rest.filter((r) => r.length === head.length).map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]])));
}

function bytesOf(item) {
  try { return blob(item.repo, item.commit, item.path); }
  catch (e) { if (item.corpusImage && fs.existsSync(item.corpusImage)) return fs.readFileSync(item.corpusImage); throw e; }
}

function discover() {
  const never = loadNever(NEVER);
  const corpus = corpusBySha();
  const seen = new Set(), out = [], skipped = {};
  const skip = (why) => { skipped[why] = (skipped[why] ?? 0) + 1; };
  const sources = [sroie(), mcocr(), wildreceipt(), softmatic(), corpusOnly(corpus, { indo_receipts_phone: 'indo', invoices: 'invoice2data' })];
  for (const gen of sources) {
    for (const item of gen) {
      let buf;
      try { buf = bytesOf(item); } catch { skip(`${item.source}: bytes not reachable`); continue; }
      if (buf.length < 200) { skip(`${item.source}: a pointer, not an image`); continue; }
      const h = sha256(buf);
      const why = neverReason(never, { ...item, sha256: h });
      if (why) { skip(`${item.source}: never-train-on (${why})`); continue; }
      if (seen.has(h)) { skip(`${item.source}: second copy`); continue; }
      seen.add(h);
      const c = corpus.get(h);
      const label = c ? c.label : labelFields(item.label);
      const notes = c ? [`label: shared corpus ${c.dataset}/labels/${c.id}.json (hand-checked; the source's own derivation was: ${item.notes.slice(1).join('; ')})`] : item.notes;
      if (label.totalAmount === undefined && label.date === undefined && label.merchantName === undefined) { skip(`${item.source}: no total, date or name labelled`); continue; }
      out.push({ source: item.source, id: item.id, repo: item.repo, commit: item.commit, path: item.path, sha256: h, bytes: buf.length, ext: path.extname(item.path).toLowerCase() || '.jpg', ...(c ? { corpus: `${c.dataset}/${c.id}` } : {}), label, notes });
    }
  }
  fs.writeFileSync(MANIFEST, out.map((o) => JSON.stringify(o)).join('\n') + '\n');
  const by = {};
  for (const o of out) by[o.source] = (by[o.source] ?? 0) + 1;
  console.log(JSON.stringify({ written: MANIFEST, receipts: out.length, bySource: by, skipped }, null, 2));
}

function build() {
  const never = loadNever(NEVER);
  const items = fs.readFileSync(MANIFEST, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const corpus = corpusBySha();
  const bySource = new Map();
  let written = 0, present = 0;
  for (const it of items) {
    if (neverReason(never, it)) throw new Error(`pool manifest holds a never-train-on receipt: ${it.repo} ${it.path}`);
    const dir = path.join(OUT, it.source);
    const image = `images/${it.id}${it.ext}`;
    const file = path.join(dir, image);
    if (fs.existsSync(file) && sha256(fs.readFileSync(file)) === it.sha256) present++;
    else {
      const c = corpus.get(it.sha256);
      const buf = bytesOf({ ...it, corpusImage: c ? path.join(CORPUS, c.dataset, c.image) : undefined });
      if (sha256(buf) !== it.sha256) throw new Error(`sha256 differs from the manifest: ${it.repo}@${it.commit} ${it.path}`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, buf);
      written++;
    }
    fs.mkdirSync(path.join(dir, 'labels'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'labels', `${it.id}.json`), JSON.stringify(it.label, null, 2) + '\n');
    if (!bySource.has(it.source)) bySource.set(it.source, []);
    bySource.get(it.source).push({ id: it.id, image, label: `labels/${it.id}.json`, sha256: it.sha256, bytes: it.bytes, source: { repo: it.repo, commit: it.commit, path: it.path }, ...(it.corpus ? { corpus: it.corpus } : {}), notes: it.notes });
  }
  for (const [source, list] of bySource) {
    fs.writeFileSync(path.join(OUT, source, 'manifest.json'), JSON.stringify({ dataset: source, count: list.length, items: list }, null, 1) + '\n');
  }
  console.log(JSON.stringify({ pool: OUT, receipts: items.length, written, present, sources: Object.fromEntries([...bySource].map(([s, l]) => [s, l.length])) }));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (argv.includes('--discover')) discover(); else build();
}
