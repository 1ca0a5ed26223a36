#!/usr/bin/env node
// documentType and language over the corpus and the generated non-receipts (issue 24, parts 3-4).
//   node bench/doctype.mjs [--engine MODULE] [--corpus PATH] [--dataset a,b] [--generated N] [--no-corpus] [--out FILE]
// Runs the engine's reading (analyze; its own documentType, and the language detected on its text) on every corpus file and on
// N images of each kind from test/generators/doctype-images.ts (default 14: 70 non-receipts + 14 receipt
// screenshots). `--engine bench/replay-engine.mjs` replays recorded OCR for the corpus (the generated
// images are read live the first time). Writes bench/reports/doctype-<time>.json: per set and half
// (score.mjs halfOf) the share classified as expected, the languages found, the time the two steps took
// (from the evidence-free timing below) and every miss with its evidence.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { halfOf } from './score.mjs';
import { doctypeImages } from '../test/generators/doctype-images.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const corpus = path.resolve(opt('--corpus', path.join(here, '../../shared/corpus')));
const perKind = Number(opt('--generated', '14'));
const engineUrl = pathToFileURL(path.resolve(opt('--engine', path.join(here, '../dist/index.js')))).href;
const { createEngine } = await import(engineUrl);
const { classifyDocument, classifyInputOf } = await import(pathToFileURL(path.join(here, '../dist/classify/index.js')).href);
const { detectLanguage, loadLanguageDetector } = await import(pathToFileURL(path.join(here, '../dist/language/detect.js')).href);

/**
 * One page: the engine's reading (analyze: the verbose pipeline without enrichment), its documentType,
 * and the two steps timed again on that reading.
 */
async function one(engine, file) {
  const x = await engine.analyze(file, { refresh: true, incognito: true });
  const t0 = performance.now();
  const c = classifyDocument(classifyInputOf(x.document, x.fields));
  const t1 = performance.now();
  const l = detectLanguage(x.document.text, x.fields.country?.code);
  const t2 = performance.now();
  return {
    documentType: x.documentType?.type ?? c.type, confidence: x.documentType?.confidence ?? c.confidence, evidence: x.documentType?.evidence ?? c.evidence,
    language: l?.code ?? null, languageConfidence: l?.confidence ?? 0, languageEvidence: l?.evidence ?? [],
    digital: x.digitalDetection ?? null, classifyMs: t1 - t0, languageMs: t2 - t1,
  };
}

function summarise(rows) {
  const groups = {};
  for (const r of rows) {
    const g = (groups[r.group] ??= { n: 0, ok: 0, halves: {}, languages: {}, types: {} });
    g.n++; if (r.ok) g.ok++;
    const h = (g.halves[r.half] ??= { n: 0, ok: 0 }); h.n++; if (r.ok) h.ok++;
    g.languages[r.language ?? '-'] = (g.languages[r.language ?? '-'] ?? 0) + 1;
    g.types[r.documentType] = (g.types[r.documentType] ?? 0) + 1;
  }
  return groups;
}

async function main() {
  await loadLanguageDetector();
  const engine = await createEngine({});
  const rows = [];
  const log = (s) => process.stderr.write(`${s}\n`);
  if (perKind > 0) {
    for (const im of await doctypeImages({ perKind })) {
      const r = await one(engine, im.bytes);
      // generated pages: even seeds tuned the rules, odd ones check them
      rows.push({ group: `generated:${im.kind}`, id: im.name, half: Number(im.name.match(/-(\d+)/)[1]) % 2 ? 'check' : 'tune', expect: im.expect, lang: im.lang, ...r, ok: r.documentType === im.expect });
      log(`${im.name} ${r.documentType} ${r.confidence} ${r.language ?? '-'}`);
    }
  }
  if (!args.includes('--no-corpus') && fs.existsSync(corpus)) {
    const only = opt('--dataset', '').split(',').filter(Boolean);
    const sets = fs.readdirSync(corpus).filter((d) => fs.existsSync(path.join(corpus, d, 'images')) && (!only.length || only.includes(d))).sort();
    for (const ds of sets) {
      for (const f of fs.readdirSync(path.join(corpus, ds, 'images')).sort()) {
        const id = f.replace(/\.[^.]+$/, '');
        const expect = ds === 'invoices' ? 'invoice' : 'receipt';
        const r = await one(engine, path.join(corpus, ds, 'images', f));
        rows.push({ group: ds, id, half: halfOf(id), expect, ...r, ok: r.documentType === expect });
        log(`${ds}/${id} ${r.documentType} ${r.confidence} ${r.language ?? '-'}`);
      }
    }
  }
  await engine.close();
  const ms = (k) => { const v = rows.map((r) => r[k]).sort((a, b) => a - b); return { median: v[v.length >> 1], p95: v[Math.floor(v.length * 0.95)], max: v.at(-1) }; };
  const report = { createdAt: new Date().toISOString(), engine: engineUrl, summary: summarise(rows), cost: { classifyMs: ms('classifyMs'), languageMs: ms('languageMs') }, misses: rows.filter((r) => !r.ok), rows };
  const out = opt('--out', path.join(here, 'reports', `doctype-${report.createdAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}.json`));
  fs.writeFileSync(out, JSON.stringify(report, null, 1));
  for (const [g, s] of Object.entries(report.summary)) {
    console.log(`${g.padEnd(30)} ${s.ok}/${s.n}  ${Object.entries(s.halves).map(([h, v]) => `${h} ${v.ok}/${v.n}`).join('  ')}  types ${JSON.stringify(s.types)}  languages ${JSON.stringify(s.languages)}`);
  }
  console.log('cost (ms per page)', JSON.stringify(report.cost));
  console.log('report:', out);
}

await main();
