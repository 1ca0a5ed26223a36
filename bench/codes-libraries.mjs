// zxing-wasm against jsqr, the two QR decoders on the registry, on the same pixels (RGBA at the codes
// stage's working size): fiscal QR codes printed onto corpus photos and generated receipts (decode rate,
// median ms), and corpus pages without codes (median ms: the cost every page pays). jsqr reads QR codes
// only; zxing-wasm is asked for QR codes only here, and also for the stage's full format list.
//   node bench/codes-libraries.mjs [corpusDir] [--photos N]
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import jsQR from 'jsqr';
import { readBarcodes } from 'zxing-wasm/reader';
import { prepareDecoder, CODE_FORMATS } from '../dist/codes/index.js';
import { workScale } from '../dist/codes/decode.js';
import { fiscalSamples, receiptWithCode, photoWithCode } from './code-fixtures.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values, positionals } = parseArgs({ allowPositionals: true, options: { photos: { type: 'string', default: '6' } } });
const root = path.resolve(positionals[0] ?? path.join(here, '../../shared/corpus'));
await prepareDecoder();

async function rgba(bytes) {
  const m = await sharp(bytes).rotate().metadata();
  const w = m.autoOrient?.width ?? m.width, h = m.autoOrient?.height ?? m.height;
  const s = workScale(w, h);
  const { data, info } = await sharp(bytes).rotate().resize({ width: Math.round(w * s), height: Math.round(h * s), fit: 'fill' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}
const DECODERS = {
  'jsqr': (img) => { const r = jsQR(img.data, img.width, img.height, { inversionAttempts: 'dontInvert' }); return r ? [r.data] : []; },
  'zxing-wasm (QR only)': async (img) => (await readBarcodes(img, { formats: ['QRCode'], tryHarder: true, tryInvert: false })).map((r) => r.text),
  'zxing-wasm (stage formats)': async (img) => (await readBarcodes(img, { formats: [...CODE_FORMATS], tryHarder: true, tryInvert: false })).map((r) => r.text),
};
const res = Object.fromEntries(Object.keys(DECODERS).map((k) => [k, { withCode: { tried: 0, decoded: 0, ms: [] }, withoutCode: { ms: [] } }]));
async function run(img, expected) {
  for (const [k, dec] of Object.entries(DECODERS)) {
    const t0 = performance.now();
    const texts = await dec(img);
    const ms = performance.now() - t0;
    const slot = expected ? res[k].withCode : res[k].withoutCode;
    slot.ms.push(ms);
    if (expected) { slot.tried++; if (texts.includes(expected)) slot.decoded++; }
  }
}

const samples = fiscalSamples().filter((s) => !s.format);
let n = 0;
for (const s of samples) for (const g of [{ module: 3, blur: 0.8, tilt: 3 }, { module: 4, blur: 1.2, tilt: 6 }, { module: 2, blur: 0, tilt: 0 }]) {
  await run(await rgba((await receiptWithCode(s.text, g)).bytes), s.text);
}
for (const set of readdirSync(root).sort()) {
  let files;
  try { files = readdirSync(path.join(root, set, 'images')).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort(); } catch { continue; }
  const step = Math.max(1, Math.floor(files.length / Number(values.photos)));
  for (const f of files.filter((_, i) => i % step === 0).slice(0, Number(values.photos))) {
    const photo = readFileSync(path.join(root, set, 'images', f));
    await run(await rgba(photo), null);
    const s = samples[n++ % samples.length];
    const { bytes, fits } = await photoWithCode(photo, s.text, { module: 3, blur: 0.6, tilt: 4, x: 0.2, y: 0.5 });
    if (fits) await run(await rgba(bytes), s.text);
  }
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? Math.round(s[Math.floor(s.length / 2)] * 10) / 10 : null; };
const summary = Object.fromEntries(Object.entries(res).map(([k, v]) => [k, {
  decoded: `${v.withCode.decoded}/${v.withCode.tried}`, medianMsWithCode: med(v.withCode.ms), medianMsWithoutCode: med(v.withoutCode.ms), pagesWithoutCode: v.withoutCode.ms.length,
}]));
console.log(JSON.stringify(summary, null, 1));
mkdirSync(path.join(here, 'reports'), { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19) + 'Z';
writeFileSync(path.join(here, 'reports', `codes-libraries-${stamp}.json`), JSON.stringify({ corpus: root, summary }, null, 1));
