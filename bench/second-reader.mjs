#!/usr/bin/env node
// The second reader alone, against tesseract's answers in a bench report, and the rule that weighs them.
//
//   node bench/second-reader.mjs --dataset sroie --report bench/reports/<tesseract-only run>.json
//        [--corpus PATH] [--every K] [--limit N] [--dump DIR] [--dist DIR]
//
// Reads each image of the dataset (EXIF-upright, grey, as is) with PaddleReader (src/ocr/paddle.ts) and
// keeps the words in --dump (default .bench-tmp/second-reader/<dataset>; kept files are reused), finds
// the fields in that reading as the engine does (document/layout + fields), and scores them per
// SCORING.md beside the report's values (a report of a run whose answers are tesseract's alone). Prints
// per field: right by the second reader, right by the report, and what weighing the two gives, with
// hi-confidence precision and share, for the margin the second value needs (m) and two ways of raising an
// agreed value (a flat 0.9, or 1 - (1 - a)(1 - b)). Results in bench/OCR.md.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { BENCH_DIR, corpusDir, parseFlags } from './experiment.mjs';
import { goldFor, scoreItem } from './score.mjs';

const flags = parseFlags();
const ds = flags.dataset ?? 'sroie';
const corpus = path.join(corpusDir(flags), ds);
const dist = path.resolve(flags.dist ?? path.join(BENCH_DIR, '../dist'));
if (!flags.report) { process.stderr.write('second-reader: --report <bench report of a tesseract-only run> is needed\n'); process.exit(2); }
const dump = path.resolve(flags.dump ?? path.join(BENCH_DIR, '../.bench-tmp/second-reader', ds));
fs.mkdirSync(dump, { recursive: true });
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
const { PaddleReader } = await load('ocr/paddle.js');
const { linesFromWords } = await load('document/layout.js');
const { buildDocument } = await load('document/geometry.js');
const { extractFields } = await load('extract/index.js');
const { buildVerbose } = await load('response/build.js');

const every = Number(flags.every ?? 1);
const files = fs.readdirSync(path.join(corpus, 'images')).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort()
  .filter((_, i) => i % every === 0).slice(0, flags.limit ? Number(flags.limit) : undefined);
const reader = new PaddleReader();
const times = [];
for (const [i, f] of files.entries()) {
  const out = path.join(dump, f.replace(/\.\w+$/, '.json'));
  if (fs.existsSync(out)) continue;
  const { data, info } = await sharp(path.join(corpus, 'images', f)).rotate().grayscale().raw().toBuffer({ resolveWithObject: true });
  const t0 = performance.now();
  const words = await reader.read({ gray: data, width: info.width, height: info.height });
  times.push(performance.now() - t0);
  fs.writeFileSync(out, JSON.stringify({ width: info.width, height: info.height, words }));
  process.stderr.write(`\r${i + 1}/${files.length} ${f}   `);
}
await reader.close();
times.sort((a, b) => a - b);
if (times.length) console.log(`read ${times.length} pages, median ${Math.round(times[times.length >> 1])} ms`);

const report = JSON.parse(fs.readFileSync(flags.report, 'utf8')).datasets[ds];
const first = new Map(report.items.map((i) => [i.id, i]));
const rows = [];
for (const f of files) {
  const id = f.replace(/\.\w+$/, '');
  const t = first.get(id);
  if (!t) continue;
  const d = JSON.parse(fs.readFileSync(path.join(dump, id + '.json'), 'utf8'));
  const doc = buildDocument([{ index: 0, source: 'ocr', width: d.width, height: d.height, originalWidth: d.width, originalHeight: d.height, rotation: 0, lines: linesFromWords(d.words) }]);
  const fields = extractFields(doc, { extractTime: false, extractLineItems: true });
  const result = buildVerbose(doc, fields, { targetRotation: 0, pages: 1, elapsed: 0, trackingId: '-', warnings: [] });
  const li = path.join(corpus, 'lineitems', id + '.json');
  const gold = goldFor(JSON.parse(fs.readFileSync(path.join(corpus, 'labels', id + '.json'), 'utf8')), fs.existsSync(li) ? JSON.parse(fs.readFileSync(li, 'utf8')) : null);
  const s = scoreItem(result, gold, {});
  const row = { id, items: s.lineItems ? { second: s.lineItems.found, first: t.lineItems?.found, gold: s.lineItems.gold } : undefined };
  for (const [k, sf] of Object.entries(s.fields)) row[k] = { p: sf.value, pc: sf.confidence, pok: sf.correct, t: t.pred?.[k], tc: t.conf?.[k] ?? 0, tok: !!t.ok?.[k] };
  rows.push(row);
}

const same = (a, b) => a !== undefined && b !== undefined && (typeof a === 'number' ? Math.abs(a - b) < 0.005 : String(a).slice(0, 10) === String(b).slice(0, 10));
const rules = {
  'first (report)': (r) => ({ ok: r.tok, c: r.tc }),
  'second reader': (r) => ({ ok: r.pok, c: r.pc }),
};
for (const m of [-0.1, 0, 0.05, 0.1]) for (const raise of ['0.9', 'either']) {
  rules[`weighed m=${m} agree:${raise}`] = (r) => {
    if (same(r.p, r.t)) return { ok: r.pok || r.tok, c: raise === '0.9' ? Math.max(r.pc, r.tc, 0.9) : Math.max(r.pc, r.tc, 1 - (1 - r.pc) * (1 - r.tc)) };
    if (r.p === undefined) return { ok: r.tok, c: r.tc };
    if (r.t === undefined) return { ok: r.pok, c: r.pc };
    return r.pc > r.tc + m ? { ok: r.pok, c: Math.min(r.pc, 0.89) } : { ok: r.tok, c: Math.min(r.tc, 0.89) };
  };
}
for (const field of ['totalAmount', 'date', 'taxAmount', 'merchantName']) {
  console.log(`\n${field}`);
  for (const [name, rule] of Object.entries(rules)) {
    let n = 0, ok = 0, hn = 0, hok = 0;
    for (const row of rows) {
      const r = row[field];
      if (!r) continue;
      const o = rule(r);
      n++; if (o.ok) ok++;
      if (o.c >= 0.9) { hn++; if (o.ok) hok++; }
    }
    if (n) console.log(`  ${name.padEnd(30)} ${String(ok).padStart(4)}/${n} ${(100 * ok / n).toFixed(1).padStart(5)} %   hi-conf ${hok}/${hn} = ${hn ? (100 * hok / hn).toFixed(1) : '-'} % on ${(100 * hn / n).toFixed(1)} %`);
  }
}
const it = rows.filter((r) => r.items);
if (it.length) console.log(`\nline items found (of ${it.reduce((s, r) => s + r.items.gold, 0)} labelled): second reader ${it.reduce((s, r) => s + r.items.second, 0)}, report ${it.reduce((s, r) => s + (r.items.first ?? 0), 0)}`);
