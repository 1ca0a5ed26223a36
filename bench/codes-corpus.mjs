// Codes in the corpus: every image of ../shared/corpus (or the folder given) read by the library's codes
// stage (src/codes: the pixels the engine shares, zxing-wasm, the fiscal formats), and again by an
// exhaustive pass (every zxing format, full and half size, denoising) that finds what the stage leaves.
// The receipts either pass finds a code on are listed with what each found; the stage's time per page
// (median, p95; no OCR: the page's decode is included here, which the engine shares) is reported.
// Writes bench/reports/codes-corpus-<stamp>.json and .md. Run `npx tsc -p tsconfig.json` first.
//   node bench/codes-corpus.mjs [corpusDir]
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { readBarcodes } from 'zxing-wasm/reader';
import { loadInput } from '../dist/input/index.js';
import { readPageCodes, prepareDecoder } from '../dist/codes/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(process.argv[2] ?? path.join(here, '../../shared/corpus'));
await prepareDecoder();

async function exhaustive(file) {
  const found = new Map();
  const meta = await sharp(file).metadata();
  for (const scale of [1, 0.5]) {
    const { data, info } = await sharp(file, { limitInputPixels: false }).rotate().resize({ width: Math.round(meta.width * scale) }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const r = await readBarcodes({ data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height }, { formats: [], tryHarder: true, tryDenoise: true, maxNumberOfSymbols: 20 });
    for (const x of r) found.set(`${x.format}:${x.text}`, { format: x.format, text: x.text });
  }
  return [...found.values()];
}

const rows = [];
const times = [];
for (const set of readdirSync(root).sort()) {
  let files;
  try { files = readdirSync(path.join(root, set, 'images')).sort(); } catch { continue; }
  for (const f of files) {
    if (!/\.(jpe?g|png|webp|pdf)$/i.test(f)) continue;
    const file = path.join(root, set, 'images', f);
    let stage = [], ms = null, error;
    try {
      const input = await loadInput(readFileSync(file));
      const t0 = performance.now();
      const r = await readPageCodes(input);
      ms = performance.now() - t0;
      stage = r.codes.map((c) => ({ format: c.format, text: c.text, ...(c.fiscal ? { fiscal: 'fact' in c.fiscal ? c.fiscal.fact : c.fiscal } : {}) }));
      if (input.pages.some((p) => p.kind === 'raster')) times.push({ set, ms, codes: stage.length });
    } catch (e) { error = String(e?.message ?? e); }
    const extra = /\.pdf$/i.test(f) ? [] : (await exhaustive(file)).filter((x) => !stage.some((s) => s.format === x.format && s.text === x.text));
    if (stage.length || extra.length || error) {
      rows.push({ set, file: f, decoded: stage, onlyExhaustive: extra, ...(error ? { error } : {}) });
      console.log(set, f, stage.map((s) => `${s.format} ${JSON.stringify(s.text.slice(0, 60))}${s.fiscal ? ' fiscal:' + (s.fiscal.scheme) : ''}`).join(' | '), extra.length ? `(exhaustive only: ${extra.map((x) => x.format + ' ' + JSON.stringify(x.text.slice(0, 40))).join(', ')})` : '', error ?? '');
    }
  }
}
const q = (a, p) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : null; };
const bySet = {};
for (const t of times) (bySet[t.set] ??= []).push(t);
const speed = Object.fromEntries(Object.entries(bySet).map(([s, ts]) => {
  const none = ts.filter((t) => !t.codes).map((t) => t.ms);
  return [s, { pages: ts.length, withoutCodes: none.length, p50WithoutCodesMs: Math.round(q(none, 0.5) ?? 0), p95WithoutCodesMs: Math.round(q(none, 0.95) ?? 0) }];
}));
const summary = {
  corpus: root, images: times.length,
  receiptsWithCodes: rows.filter((r) => r.decoded.length || r.onlyExhaustive.length).length,
  decodedByStage: rows.filter((r) => r.decoded.length).length,
  fiscalFacts: rows.filter((r) => r.decoded.some((d) => d.fiscal && !d.fiscal.error)).length,
  speed,
};
console.log(JSON.stringify(summary, null, 1));
mkdirSync(path.join(here, 'reports'), { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19) + 'Z';
writeFileSync(path.join(here, 'reports', `codes-corpus-${stamp}.json`), JSON.stringify({ summary, rows }, null, 1));
const md = [`# Codes in the corpus (${stamp})`, '', `${summary.receiptsWithCodes} of ${summary.images} images show a code either pass decodes; the codes stage decodes ${summary.decodedByStage}; fiscal payloads: ${summary.fiscalFacts}.`, '',
  '| set | file | decoded by the codes stage | found only by the exhaustive pass |', '|---|---|---|---|',
  ...rows.map((r) => `| ${r.set} | ${r.file} | ${r.decoded.map((d) => `${d.format} \`${d.text.slice(0, 50).replace(/\|/g, '\\|')}\``).join('<br>') || '-'} | ${r.onlyExhaustive.map((d) => `${d.format} \`${d.text.slice(0, 50).replace(/\|/g, '\\|')}\``).join('<br>') || '-'} |`),
  '', '| set | image pages | without codes | stage p50 ms | p95 ms |', '|---|---|---|---|---|',
  ...Object.entries(speed).map(([s, v]) => `| ${s} | ${v.pages} | ${v.withoutCodes} | ${v.p50WithoutCodesMs} | ${v.p95WithoutCodesMs} |`)].join('\n');
writeFileSync(path.join(here, 'reports', `codes-corpus-${stamp}.md`), md + '\n');
