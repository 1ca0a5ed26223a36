// Differential check of the field finders: every OCR reading recorded by bench/replay-engine.mjs
// (.bench-tmp/ocr-cache: tesseract's whole-page readings at every scale and language, PaddleOCR's page
// readings) made into a Document and run through extractFields of two builds; prints every difference.
// For refactors that must not change behaviour ("identical fields before and after").
//
//   npx tsc -p tsconfig.json --outDir .old-dist    (at the commit before the change; one level below the repo root,
//                                                  so that its ../../models is the repo's)
//   npm run build                                   (the change, into dist/)
//   node bench/fields-diff.mjs --old .old-dist [--new dist] [--cache DIR] [--limit N] [--only total,date] [--show 5]
//
// Compares the whole FieldResults (values, confidences, evidence) as JSON, after dropping any evidence
// entry that starts with "rule:" (the names of the rule that decided, which a refactor adds).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, d) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : d; };
const oldDir = opt('old');
if (!oldDir) { console.error('usage: node bench/fields-diff.mjs --old BUILD_DIR [--new BUILD_DIR] [--cache DIR] [--limit N] [--only k1,k2] [--show N]'); process.exit(2); }
const newDir = path.resolve(opt('new', path.join(here, '../dist')));
const cacheDir = path.resolve(opt('cache', path.join(here, '../.bench-tmp/ocr-cache')));
const limit = Number(opt('limit', '0')) || Infinity;
const only = opt('only')?.split(',');
const show = Number(opt('show', '5'));

async function load(dir) {
  const imp = (p) => import(pathToFileURL(path.join(path.resolve(dir), p)).href);
  // extractFields is in extract/index.js; a build from before that folder (issue 52) has it in fields/index.js
  const extract = fs.existsSync(path.join(path.resolve(dir), 'extract/index.js')) ? 'extract/index.js' : 'fields/index.js';
  const [{ extractFields }, { buildDocument }, { linesFromWords }] = await Promise.all([imp(extract), imp('document/geometry.js'), imp('document/layout.js')]);
  return { extractFields, buildDocument, linesFromWords };
}
const OLD = await load(oldDir);
const NEW = await load(newDir);

/** A Document from one cached reading, or undefined when the entry is not a whole-page reading. */
function documentOf(lib, v) {
  if (v && v.page && Array.isArray(v.page.lines)) return lib.buildDocument([{ ...v.page, index: 0 }]);
  if (v && Array.isArray(v.lines) && typeof v.grouped === 'boolean') {
    const words = v.lines.flat().filter((w) => w && w.box && typeof w.text === 'string');
    if (!words.length) return undefined;
    const w = Math.max(...words.map((x) => x.box.x1)), h = Math.max(...words.map((x) => x.box.y1));
    const lines = v.grouped ? v.lines.filter((l) => l.length).map((l) => lib.linesFromWords(l)).flat() : lib.linesFromWords(words);
    return lib.buildDocument([{ index: 0, source: 'ocr', width: w, height: h, originalWidth: w, originalHeight: h, rotation: 0, lines }]);
  }
  return undefined;
}

const isRule = (e) => typeof e === 'string' && e.startsWith('rule:');
const strip = (k, v) => {
  if (k === 'evidence' && Array.isArray(v)) return v.filter((e) => !isRule(e));
  if (k === 'rule') return undefined;
  return v;
};
/** FieldResults.evidence is a record of lists (field -> terms): drop the rule: entries of each list. */
const dropRules = (k, v) => (k === 'evidence' && v && typeof v === 'object' && !Array.isArray(v)
  ? Object.fromEntries(Object.entries(v).map(([f, l]) => [f, Array.isArray(l) ? l.filter((e) => !isRule(e)) : l]))
  : v);
const ctx = { extractTime: true, extractLineItems: true, now: new Date('2026-11-25T12:00:00Z') };
let docs = 0, same = 0, differ = 0, msOld = 0, msNew = 0;
const byKey = new Map();
const shown = [];
const files = fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).flatMap((d) => fs.readdirSync(path.join(cacheDir, d)).map((f) => path.join(cacheDir, d, f))) : [];
for (const file of files.sort()) {
  if (docs >= limit) break;
  let v;
  try { v = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { continue; }
  const a = documentOf(OLD, v), b = documentOf(NEW, v);
  if (!a || !b) continue;
  docs++;
  // each build's time on every document, the order alternating (the field stage's cost, old against new)
  const first = docs % 2 === 0;
  let ra, rb, t0 = performance.now();
  if (first) ra = OLD.extractFields(a, ctx); else rb = NEW.extractFields(b, ctx);
  let t1 = performance.now();
  if (first) rb = NEW.extractFields(b, ctx); else ra = OLD.extractFields(a, ctx);
  const t2 = performance.now();
  msOld += first ? t1 - t0 : t2 - t1; msNew += first ? t2 - t1 : t1 - t0;
  const keys = [...new Set([...Object.keys(ra), ...Object.keys(rb)])].filter((k) => !only || only.includes(k));
  let bad = false;
  for (const k of keys) {
    const ja = JSON.stringify(dropRules(k, ra[k]), strip), jb = JSON.stringify(dropRules(k, rb[k]), strip);
    if (ja !== jb) {
      bad = true;
      byKey.set(k, (byKey.get(k) ?? 0) + 1);
      if (shown.length < show) shown.push(`${path.basename(file)} ${k}:\n  old ${ja?.slice(0, 600)}\n  new ${jb?.slice(0, 600)}`);
    }
  }
  if (bad) differ++; else same++;
}
console.log(`${docs} documents from ${cacheDir}: ${same} identical, ${differ} differ${byKey.size ? ` (${[...byKey].map(([k, n]) => `${k} ${n}`).join(', ')})` : ''}`);
console.log(`extractFields time: old ${msOld.toFixed(0)} ms, new ${msNew.toFixed(0)} ms (ratio ${(msNew / Math.max(1e-9, msOld)).toFixed(3)}, one run, alternating)`);
for (const s of shown) console.log(s);
process.exitCode = differ ? 1 : 0;
