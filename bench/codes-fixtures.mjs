// Decode rate of the codes stage on fiscal codes printed onto receipts, by format and by distortion:
//  - generated receipts (test/generators/code-fixtures.ts), the test grid and harder cases (2 px modules, 8 deg);
//  - corpus photos (../shared/corpus by default, or the folder given) with the code printed on a label,
//    blurred and tilted with the photo (`--photos N` per set, default 12). Module size and blur are
//    given in pixels of the decoder's image (the stage scales a page to a 2000 px long side): a thermal
//    printer's 0.375-0.5 mm module on a receipt photographed or scanned at 8-12 px/mm is 3-6 px there.
// A code counts as decoded when its fiscal payload parses to every expected field. Writes
// bench/reports/codes-fixtures-<stamp>.json and .md. Run `npx tsc -p tsconfig.json` first.
//   node bench/codes-fixtures.mjs [corpusDir] [--photos N]
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadInput } from '../dist/input/index.js';
import { readPageCodes } from '../dist/codes/index.js';
import { workScale } from '../dist/codes/decode.js';
import sharp from 'sharp';
import { fiscalSamples, receiptWithCode, photoWithCode } from '../test/generators/code-fixtures.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values, positionals } = parseArgs({ allowPositionals: true, options: { photos: { type: 'string', default: '12' } } });
const root = path.resolve(positionals[0] ?? path.join(here, '../../shared/corpus'));
const perSet = Number(values.photos);

const RECEIPT_GRID = [];
for (const module of [2, 3, 4]) for (const blur of [0, 0.8, 1.5]) for (const tilt of [0, 3, 8]) RECEIPT_GRID.push({ module, blur, tilt });
const PHOTO_GRID = [{ module: 4, blur: 0, tilt: 0 }, { module: 3, blur: 0.7, tilt: 4 }, { module: 3, blur: 1.2, tilt: -7 }, { module: 4, blur: 1, tilt: 8 }, { module: 2, blur: 0.5, tilt: 2 }];

const samples = fiscalSamples();
const tally = {};
function count(kind, key, ok) { const t = ((tally[kind] ??= {})[key] ??= { tried: 0, decoded: 0 }); t.tried++; if (ok) t.decoded++; }
async function check(bytes, s) {
  const r = await readPageCodes(await loadInput(bytes));
  const f = r.facts[0];
  return !!f && f.scheme === s.scheme && Object.entries(s.fields).every(([k, v]) => f.fields[k] === v) && Object.keys(f.fields).length === Object.keys(s.fields).length;
}
const name = (s) => s.scheme + (s.variant ? `/${s.variant}` : '');

for (const s of samples) {
  for (const g of RECEIPT_GRID) {
    const ok = await check((await receiptWithCode(s.text, { format: s.format ?? 'QRCode', ...g })).bytes, s);
    const testGrid = g.module >= 3 && g.blur <= 1.5 && Math.abs(g.tilt) <= (s.format ? 0 : 6);
    for (const k of ['all', `module ${g.module}px`, `blur ${g.blur}`, `tilt ${g.tilt}deg`]) count(`receipts by distortion`, k, ok);
    count('receipts by format', name(s), ok);
    if (testGrid) count('receipts, realistic (modules >= 3 px; QR tilt <= 6, 1-D straight)', name(s), ok);
  }
}
console.log(JSON.stringify(tally, null, 1));

let photos = [];
for (const set of readdirSync(root).sort()) {
  let files;
  try { files = readdirSync(path.join(root, set, 'images')).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort(); } catch { continue; }
  const step = Math.max(1, Math.floor(files.length / perSet));
  photos.push(...files.filter((_, i) => i % step === 0).slice(0, perSet).map((f) => ({ set, file: path.join(root, set, 'images', f) })));
}
let i = 0;
for (const p of photos) {
  const photo = readFileSync(p.file);
  const meta = await sharp(photo).metadata();
  const scale = workScale(meta.autoOrient?.width ?? meta.width, meta.autoOrient?.height ?? meta.height);
  for (const g of PHOTO_GRID) {
    const s = samples[i++ % samples.length];
    if (s.format) continue; // the photos carry QR codes
    // in the photo's own pixels: the decoder's module size and blur over its scale
    const { bytes, fits } = await photoWithCode(photo, s.text, { ...g, module: Math.max(1, Math.round(g.module / scale)), blur: g.blur / scale, x: 0.1 + (i % 5) * 0.1, y: 0.45 + (i % 3) * 0.1 });
    if (!fits) continue;
    const ok = await check(bytes, s);
    for (const k of ['all', p.set]) count('corpus photos with a printed QR code, by set', k, ok);
    count('corpus photos, by distortion (module and blur in px of the decoder\'s image)', `module ${g.module}px blur ${g.blur} tilt ${g.tilt}deg`, ok);
    if (g.module >= 3) count('corpus photos, modules >= 3 px, by set', p.set, ok);
    count('corpus photos, by format', name(s), ok);
  }
}
console.log(JSON.stringify(tally, null, 1));
mkdirSync(path.join(here, 'reports'), { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19) + 'Z';
writeFileSync(path.join(here, 'reports', `codes-fixtures-${stamp}.json`), JSON.stringify({ corpus: root, photosPerSet: perSet, tally }, null, 1));
const md = [`# Fiscal codes decoded (${stamp})`, ''];
for (const [kind, rows] of Object.entries(tally)) {
  md.push(`## ${kind}`, '', '| case | decoded | tried | rate |', '|---|---|---|---|');
  for (const [k, t] of Object.entries(rows)) md.push(`| ${k} | ${t.decoded} | ${t.tried} | ${(100 * t.decoded / t.tried).toFixed(1)} % |`);
  md.push('');
}
writeFileSync(path.join(here, 'reports', `codes-fixtures-${stamp}.md`), md.join('\n'));
