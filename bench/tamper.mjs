#!/usr/bin/env node
// Tamper and digital-document benchmark of the built library (dist/), generated at run time from the
// shared corpus into a temporary folder (nothing is written to the repository or the corpus).
//
//   node bench/tamper.mjs [--corpus PATH] [--receipts N] [--datasets a,b] [--modes paste,render]
//                         [--invoices N] [--keep DIR] [--timeout MS] [--json FILE]
//
// Receipts: N receipts (default 60) sampled evenly by file name from the receipt datasets (default sroie and
// indo_receipts_phone, half each). For each, the library reads the original (verbose); the total's digits
// are located by `totalAmount.regions` and changed:
//   paste   the total's box is covered by the same-sized area around another amount printed elsewhere on the
//           same receipt (a different value of about the same text height), pasted unscaled: the receipt
//           now shows that amount as its total;
//   render  the total's box is filled with the paper colour picked next to it and a new amount (the most
//           significant digit changed) is typed over it in DejaVu Sans Mono, in the ink colour picked from
//           the old digits, its ink stretched to the old digits' box;
// and the image is saved as JPEG at the original's quality (estimated from its quantisation table) with
// its chroma subsampling. A third copy is only decoded and re-saved the same way ("resaved"): it is not
// tampered and must not be flagged (a detector that only saw a second JPEG save would flag it).
// Reported: flag rate (`entities.tamperingDetection.isTampered`) on the tampered copies, on the untouched
// originals and on the re-saved copies, per dataset and mode.
//
// Digital: every invoice (digital PDFs and the PNG renders of four of them; a render of a digital PDF is
// counted as digital: it was never paper) against the sampled receipts (scans and phone photos).
// `entities.digitalDetection.isDigital` gives the confusion matrix.
//
// Needs the DejaVu fonts for the render mode (Debian: fonts-dejavu-core) and `npm run build` first.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { rng } from '../test/generators/rng.ts';
import { cliErrors } from './experiment.mjs';

const { fail, int, value } = cliErrors('tamper bench');

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..');

// ---------------------------------------------------------------- arguments
function parseArgs(argv) {
  const a = {
    corpus: path.resolve(repoRoot, '../shared/corpus'), receipts: 60, datasets: ['sroie', 'indo_receipts_phone'],
    modes: ['paste', 'render'], invoices: Infinity, keep: undefined, timeout: 120_000, json: undefined, digital: true,
  };
  const need = (i, name) => value(argv, i, name);
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    switch (k) {
      case '--corpus': a.corpus = path.resolve(need(i, k)); i++; break;
      case '--receipts': a.receipts = int(need(i, k), k, 1); i++; break;
      case '--datasets': a.datasets = need(i, k).split(',').filter(Boolean); i++; break;
      case '--modes': a.modes = need(i, k).split(',').filter(Boolean); i++; break;
      case '--invoices': a.invoices = int(need(i, k), k, 0); i++; break;
      case '--no-digital': a.digital = false; break;
      case '--dev': a.dev = true; break;
      case '--keep': a.keep = path.resolve(need(i, k)); i++; break;
      case '--timeout': a.timeout = int(need(i, k), k, 1); i++; break;
      case '--json': a.json = path.resolve(need(i, k)); i++; break;
      case '-h': case '--help': usage(); process.exit(0); break;
      default: fail(`unknown argument ${k}`);
    }
  }
  for (const m of a.modes) if (!['paste', 'render'].includes(m)) fail(`unknown mode ${m}`);
  return a;
}
function usage() {
  process.stdout.write(`usage: node bench/tamper.mjs [options]
  --corpus PATH      corpus folder (default ../shared/corpus from the repo root)
  --receipts N       receipts sampled from the receipt datasets, split evenly (default 60)
  --datasets A,B     receipt datasets (default sroie,indo_receipts_phone)
  --modes M,N        tamper modes: paste, render (default both)
  --invoices N       invoices for the digital check (default all); --no-digital skips that part
  --dev              sample the receipts the default sample leaves out (the tuning set)
  --keep DIR         keep the generated images (and a manifest) in DIR instead of a temporary folder
  --timeout MS       per-file time limit (default 120000)
  --json FILE        also write the per-file results as JSON
`);
}
const log = (s) => process.stderr.write(s + '\n');
const pct = (k, n) => (n ? `${((100 * k) / n).toFixed(1)} % (${k}/${n})` : '-');

// ---------------------------------------------------------------- JPEG quality
/** Luminance quantisation table (natural order) from the first DQT with table id 0, or undefined. */
export function lumaTable(b) {
  const ZZ = [0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63];
  let i = 2;
  while (i + 4 < b.length) {
    if (b[i] !== 0xff) { i++; continue; }
    const m = b[i + 1];
    if (m === 0xd8 || m === 0x01 || m === 0xff || (m >= 0xd0 && m <= 0xd7)) { i += m === 0xff ? 1 : 2; continue; }
    if (m === 0xda || m === 0xd9) break;
    const len = b.readUInt16BE(i + 2);
    if (m === 0xdb) {
      let j = i + 4;
      while (j < i + 2 + len) {
        const pq = b[j] >> 4, tq = b[j] & 15;
        j++;
        const t = new Array(64);
        for (let k = 0; k < 64; k++) t[ZZ[k]] = pq ? b.readUInt16BE(j + 2 * k) : b[j + k];
        j += pq ? 128 : 64;
        if (tq === 0) return t;
      }
    }
    i += 2 + len;
  }
  return undefined;
}
const STD_LUMA = [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99];
/** The IJG quality (1..100) whose scaled standard table is closest to `t`. */
export function ijgQuality(t) {
  let best = 90, bestD = Infinity;
  for (let q = 1; q <= 100; q++) {
    const s = q < 50 ? 5000 / q : 200 - 2 * q;
    let d = 0;
    for (let k = 0; k < 64; k++) d += Math.abs(Math.max(1, Math.min(255, Math.floor((STD_LUMA[k] * s + 50) / 100))) - t[k]);
    if (d < bestD) { bestD = d; best = q; }
  }
  return best;
}

// ---------------------------------------------------------------- generation
const boxOf = (poly) => ({
  x0: Math.min(...poly.map((p) => p.x)), y0: Math.min(...poly.map((p) => p.y)),
  x1: Math.max(...poly.map((p) => p.x)), y1: Math.max(...poly.map((p) => p.y)),
});
const MONEYISH = /^[^\d]*\d[\d.,]*\d[^\d]*$|^\d$/;

/** The total's numeric word box (the rightmost region of the total), or undefined. */
function totalBox(res) {
  const t = res.totalAmount;
  if (!t || !('data' in t) || !t.regions?.length) return undefined;
  const boxes = t.regions.map(boxOf).sort((a, b) => a.x1 - b.x1);
  const b = boxes[boxes.length - 1];
  if (b.x1 - b.x0 < 4 || b.y1 - b.y0 < 4) return undefined;
  return b;
}

/** Candidate source amounts for the paste mode: single-word amounts on other lines, other values. */
function pasteSources(res, target) {
  const seen = new Set();
  const out = [];
  const th = target.y1 - target.y0, tw = target.x1 - target.x0;
  for (const n of [...(res.lineAmounts ?? []), ...(res.amounts ?? [])]) {
    if (n.index === res.totalAmount.index || n.regions?.length !== 1) continue;
    if (Math.abs(n.data - res.totalAmount.data) < 0.005) continue;
    const b = boxOf(n.regions[0]);
    const key = `${b.x0},${b.y0}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const h = b.y1 - b.y0, w = b.x1 - b.x0;
    if (!MONEYISH.test(n.text.trim().split(/\s+/).pop() ?? '')) continue;
    if (Math.abs(h - th) > 0.2 * th || w < 0.6 * tw) continue;
    if (b.y1 > target.y0 - 2 && b.y0 < target.y1 + 2 && b.x1 > target.x0 && b.x0 < target.x1) continue; // overlaps
    out.push({ box: b, text: n.text, value: n.data, score: Math.abs(h - th) / th + Math.abs(w - tw) / tw });
  }
  return out.sort((a, b) => a.score - b.score);
}

/** Raw RGB of an image as displayed (EXIF orientation applied). */
async function decode(bytes) {
  const { data, info } = await sharp(bytes).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Encodes raw RGB like the original: JPEG at its estimated quality and subsampling, or PNG. */
async function encodeLike(img, orig) {
  const s = sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
  if (orig.format === 'jpeg') return s.jpeg({ quality: orig.quality, chromaSubsampling: orig.subsampling }).toBuffer();
  return s.png().toBuffer();
}

async function describe(bytes) {
  const m = await sharp(bytes).metadata();
  const t = m.format === 'jpeg' ? lumaTable(bytes) : undefined;
  return { format: m.format, quality: t ? ijgQuality(t) : 92, subsampling: m.chromaSubsampling === '4:4:4' ? '4:4:4' : '4:2:0' };
}

const clampBox = (b, w, h) => ({ x0: Math.max(0, Math.round(b.x0)), y0: Math.max(0, Math.round(b.y0)), x1: Math.min(w, Math.round(b.x1)), y1: Math.min(h, Math.round(b.y1)) });
const pad = (b, p) => ({ x0: b.x0 - p, y0: b.y0 - p, x1: b.x1 + p, y1: b.y1 + p });

/** Paste: the padded target box is covered by the same-sized area right-aligned on a source amount. */
function paste(img, target, src) {
  const p = Math.max(2, Math.round(0.15 * (target.y1 - target.y0)));
  const T = clampBox(pad(target, p), img.width, img.height);
  const w = T.x1 - T.x0, h = T.y1 - T.y0;
  const sx = Math.round(src.box.x1 + p - w), sy = Math.round((src.box.y0 + src.box.y1) / 2 - (target.y0 + target.y1) / 2 + T.y0);
  if (sx < 0 || sy < 0 || sx + w > img.width || sy + h > img.height) return undefined;
  if (sx < T.x1 && sx + w > T.x0 && sy < T.y1 && sy + h > T.y0) return undefined; // source overlaps the target
  const out = Buffer.from(img.data);
  for (let y = 0; y < h; y++) {
    img.data.copy(out, ((T.y0 + y) * img.width + T.x0) * 3, ((sy + y) * img.width + sx) * 3, ((sy + y) * img.width + sx + w) * 3);
  }
  return { ...img, data: out, rect: T, from: { x: sx, y: sy } };
}

/** A new amount text: the most significant digit raised by 1..7 (never to 0), other characters kept. */
function changedAmount(text, r) {
  const i = text.search(/\d/);
  if (i < 0) return undefined;
  const d = Number(text[i]);
  let nd = (d + 1 + Math.floor(r() * 7)) % 10;
  if (nd === 0) nd = 1 + (d % 9);
  if (nd === d) nd = (d % 9) + 1;
  return text.slice(0, i) + String(nd) + text.slice(i + 1);
}

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Render: fill the padded box with the paper colour, type the new digits fitted to the old box. */
async function render(img, target, text) {
  const p = Math.max(2, Math.round(0.15 * (target.y1 - target.y0)));
  const T = clampBox(pad(target, p), img.width, img.height);
  const w = T.x1 - T.x0, h = T.y1 - T.y0;
  // paper: median of a ring 2..5 px outside the padded box; ink: mean of the darkest 15 % inside the box
  const ring = [], inside = [];
  const lum = (o) => 0.299 * img.data[o] + 0.587 * img.data[o + 1] + 0.114 * img.data[o + 2];
  for (let y = Math.max(0, T.y0 - 5); y < Math.min(img.height, T.y1 + 5); y++) {
    for (let x = Math.max(0, T.x0 - 5); x < Math.min(img.width, T.x1 + 5); x++) {
      const o = (y * img.width + x) * 3;
      const inBox = x >= T.x0 && x < T.x1 && y >= T.y0 && y < T.y1;
      if (inBox) inside.push(o);
      else if (x < T.x0 - 1 || x >= T.x1 + 1 || y < T.y0 - 1 || y >= T.y1 + 1) ring.push(o);
    }
  }
  const med = (os, c) => { const v = os.map((o) => img.data[o + c]).sort((a, b) => a - b); return v[v.length >> 1] ?? 255; };
  const paper = [0, 1, 2].map((c) => med(ring, c));
  inside.sort((a, b) => lum(a) - lum(b));
  const dark = inside.slice(0, Math.max(1, Math.round(inside.length * 0.15)));
  const ink = [0, 1, 2].map((c) => Math.round(dark.reduce((s, o) => s + img.data[o + c], 0) / dark.length));
  // the new digits, typed in DejaVu Sans Mono at the old digits' height (digits are 0.729 em tall), cut to
  // their ink and stretched to the old box (as a free transform would), over the filled box
  const digitH = target.y1 - target.y0, tw = target.x1 - target.x0;
  const size = digitH / 0.729;
  const hex = (c) => '#' + c.map((v) => v.toString(16).padStart(2, '0')).join('');
  const tsvg = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(size * 0.62 * text.length + size)}" height="${Math.ceil(size * 1.4)}">` +
    `<text x="${(size / 2).toFixed(1)}" y="${size.toFixed(1)}" font-family="DejaVu Sans Mono" font-size="${size.toFixed(2)}" fill="${hex(ink)}">${esc(text)}</text></svg>`;
  const glyphs = await sharp(await sharp(Buffer.from(tsvg)).png().toBuffer()).trim({ background: { r: 0, g: 0, b: 0, alpha: 0 } }).toBuffer();
  const fitted = await sharp(glyphs).resize({ width: Math.max(1, tw), height: Math.max(1, digitH), fit: 'fill' }).png().toBuffer();
  const patch = await sharp({ create: { width: w, height: h, channels: 3, background: { r: paper[0], g: paper[1], b: paper[2] } } })
    .composite([{ input: fitted, left: Math.round(target.x0 - T.x0), top: Math.round(target.y0 - T.y0) }])
    .removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const out = Buffer.from(img.data);
  for (let y = 0; y < h; y++) patch.data.copy(out, ((T.y0 + y) * img.width + T.x0) * 3, y * w * 3, (y + 1) * w * 3);
  return { ...img, data: out, rect: T, text };
}

// ---------------------------------------------------------------- run
function listImages(dir) {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /\.(jpe?g|png|pdf|webp|tiff?|heic|gif)$/i.test(f)).sort() : [];
}
/** `n` names spread evenly over the sorted list. */
function spread(names, n) {
  if (n >= names.length) return names;
  return Array.from({ length: n }, (_, i) => names[Math.floor(((i + 0.5) * names.length) / n)]);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(args.corpus)) fail(`corpus not found at ${args.corpus} (use --corpus PATH)`);
  const lib = await import(pathToFileURL(path.join(repoRoot, 'dist/index.js')).href).catch((e) => fail(`cannot import dist/index.js (npm run build first): ${e.message}`));
  const work = args.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'receiptkit-tamper-'));
  fs.mkdirSync(work, { recursive: true });
  const engine = await lib.createEngine({ workers: 1 });
  const opts = { verbose: true, extractLineItems: true, refresh: true, incognito: true, timeoutMs: args.timeout };
  const rows = [];
  const started = Date.now();
  const run = async (file, bytes) => {
    const t0 = Date.now();
    try {
      const res = await engine.extract(bytes ?? file, opts);
      return { res, ms: Date.now() - t0 };
    } catch (e) {
      return { error: `${e.code ?? 'ERROR'}: ${e.message}`, ms: Date.now() - t0 };
    }
  };
  const summary = (r) => {
    const e = r.res?.entities ?? {};
    return {
      error: r.error, ms: r.ms,
      tampered: e.tamperingDetection?.isTampered ?? null, tamperedScore: e.tamperingDetection?.tamperedScore ?? null,
      tamperDetails: e.tamperingDetection?.details ?? null,
      digital: e.digitalDetection?.isDigital ?? null, digitalScore: e.digitalDetection?.digitalScore ?? null,
      total: r.res && 'data' in r.res.totalAmount ? r.res.totalAmount.data : null,
    };
  };
  try {
    // ---- receipts: originals, re-saved copies, tampered copies
    const perSet = Math.ceil(args.receipts / args.datasets.length);
    for (const ds of args.datasets) {
      const dir = path.join(args.corpus, ds, 'images');
      const all = listImages(dir);
      const benchSample = spread(all, perSet);
      // --dev: the same number of receipts from the files the default sample leaves out (for tuning)
      const names = args.dev ? spread(all.filter((n) => !benchSample.includes(n)), perSet) : benchSample;
      if (!names.length) log(`no images in ${dir}`);
      for (const [k, name] of names.entries()) {
        const file = path.join(dir, name);
        const bytes = fs.readFileSync(file);
        const id = name.replace(/\.[^.]+$/, '');
        const r = rng([...id].reduce((s, c) => (s * 31 + c.charCodeAt(0)) >>> 0, 7));
        const orig = await run(file);
        rows.push({ dataset: ds, id, kind: 'untouched', ...summary(orig) });
        log(`[${ds} ${k + 1}/${names.length}] ${id} untouched: ${fmt(rows.at(-1))}`);
        if (!orig.res) continue;
        const how = await describe(bytes);
        const img = await decode(bytes);
        const resaved = await encodeLike(img, how);
        const rs = await run(file, resaved);
        rows.push({ dataset: ds, id, kind: 'resaved', ...summary(rs) });
        if (args.keep) fs.writeFileSync(path.join(work, `${id}.resaved.jpg`), resaved);
        const target = orig.res.targetRotation === 0 ? totalBox(orig.res) : undefined;
        if (!target) {
          for (const mode of args.modes) rows.push({ dataset: ds, id, kind: mode, skipped: orig.res.targetRotation ? 'rotated' : 'no total region' });
          log(`  no usable total region (rotation ${orig.res.targetRotation})`);
          continue;
        }
        for (const mode of args.modes) {
          let edited;
          if (mode === 'paste') {
            for (const src of pasteSources(orig.res, target)) { edited = paste(img, target, src); if (edited) { edited.source = src.text; break; } }
          } else {
            const old = orig.res.totalAmount.text.trim().split(/\s+/).pop();
            const text = changedAmount(/\d/.test(old) ? old : String(orig.res.totalAmount.data), r);
            edited = text ? await render(img, target, text) : undefined;
          }
          if (!edited) { rows.push({ dataset: ds, id, kind: mode, skipped: 'no source amount of the same size' }); log(`  ${mode}: skipped`); continue; }
          const out = await encodeLike(edited, how);
          const outName = `${id}.${mode}.${how.format === 'jpeg' ? 'jpg' : 'png'}`;
          fs.writeFileSync(path.join(work, outName), out);
          const tr = await run(path.join(work, outName));
          rows.push({ dataset: ds, id, kind: mode, rect: edited.rect, text: edited.text ?? edited.source, ...summary(tr) });
          log(`  ${mode}: ${fmt(rows.at(-1))}`);
        }
      }
    }
    // ---- digital: invoices vs the receipts already read
    if (args.digital) {
      const dir = path.join(args.corpus, 'invoices', 'images');
      const names = listImages(dir).slice(0, args.invoices === Infinity ? undefined : args.invoices);
      for (const name of names) {
        const r = await run(path.join(dir, name));
        rows.push({ dataset: 'invoices', id: name, kind: 'invoice', ...summary(r) });
        log(`[invoices] ${name}: digital ${rows.at(-1).digital} (${rows.at(-1).digitalScore}) tampered ${rows.at(-1).tampered}`);
      }
    }
  } finally {
    await engine.close();
    if (!args.keep) fs.rmSync(work, { recursive: true, force: true });
  }
  report(rows, args, Date.now() - started);
  if (args.json) fs.writeFileSync(args.json, JSON.stringify(rows, null, 1));
  if (args.keep) fs.writeFileSync(path.join(args.keep, "manifest.json"), JSON.stringify(rows, null, 1));
}

function fmt(row) {
  if (row.error) return `error ${row.error}`;
  const d = Array.isArray(row.tamperDetails) ? row.tamperDetails.map((x) => (typeof x === 'string' ? x : x.signal)).join(',') : '';
  return `tampered=${row.tampered} (${row.tamperedScore}) ${d} digital=${row.digital} (${row.digitalScore}) ${row.ms} ms`;
}

function report(rows, args, ms) {
  const out = [];
  out.push(`# receiptkit tamper / digital benchmark`, '', `corpus ${args.corpus}; ${args.receipts} receipts from ${args.datasets.join(', ')}; modes ${args.modes.join(', ')}; ${(ms / 1000).toFixed(0)} s`, '');
  out.push('## Tampering (isTampered)', '', '| set | dataset | flagged | skipped | errors |', '|---|---|---|---|---|');
  const kinds = ['untouched', 'resaved', ...args.modes];
  for (const kind of kinds) {
    for (const ds of [...args.datasets, 'all']) {
      const rs = rows.filter((r) => r.kind === kind && (ds === 'all' || r.dataset === ds));
      const done = rs.filter((r) => !r.skipped && !r.error);
      out.push(`| ${kind} | ${ds} | ${pct(done.filter((r) => r.tampered).length, done.length)} | ${rs.filter((r) => r.skipped).length} | ${rs.filter((r) => r.error).length} |`);
    }
  }
  const tamperedRows = rows.filter((r) => args.modes.includes(r.kind) && !r.skipped && !r.error);
  const untouched = rows.filter((r) => r.kind === 'untouched' && !r.error);
  out.push('', `tampered flagged: ${pct(tamperedRows.filter((r) => r.tampered).length, tamperedRows.length)} (target >= 80 %)`);
  out.push(`untouched flagged: ${pct(untouched.filter((r) => r.tampered).length, untouched.length)} (target <= 5 %)`);
  const signals = new Map();
  for (const r of rows.filter((x) => !x.skipped && !x.error && Array.isArray(x.tamperDetails))) {
    for (const d of r.tamperDetails) {
      const name = typeof d === 'string' ? d : d.signal;
      const key = `${name}|${args.modes.includes(r.kind) ? 'tampered' : r.kind}`;
      signals.set(key, (signals.get(key) ?? 0) + 1);
    }
  }
  if (signals.size) {
    out.push('', 'signals fired (count per set):');
    for (const [k, n] of [...signals].sort()) out.push(`- ${k.replace('|', ' on ')}: ${n}`);
  }
  const missed = tamperedRows.filter((r) => !r.tampered).map((r) => `${r.id}.${r.kind}`);
  if (missed.length) out.push('', `missed: ${missed.join(' ')}`);
  const falses = untouched.filter((r) => r.tampered).map((r) => `${r.dataset}/${r.id}`);
  if (falses.length) out.push(`false flags: ${falses.join(' ')}`);
  if (args.digital) {
    const inv = rows.filter((r) => r.kind === 'invoice' && !r.error);
    out.push('', '## Digital (isDigital)', '', '| truth \\ predicted | digital | not digital | errors |', '|---|---|---|---|');
    out.push(`| digital (invoices: PDFs and renders) | ${inv.filter((r) => r.digital).length} | ${inv.filter((r) => !r.digital).length} | ${rows.filter((r) => r.kind === 'invoice' && r.error).length} |`);
    for (const ds of args.datasets) {
      const rs = untouched.filter((r) => r.dataset === ds);
      out.push(`| paper (${ds}) | ${rs.filter((r) => r.digital).length} | ${rs.filter((r) => !r.digital).length} | ${rows.filter((r) => r.kind === 'untouched' && r.dataset === ds && r.error).length} |`);
    }
    const tp = inv.filter((r) => r.digital).length, fp = untouched.filter((r) => r.digital).length;
    out.push('', `digital recall ${pct(tp, inv.length)}; receipts called digital ${pct(fp, untouched.length)}`);
  }
  process.stdout.write(out.join('\n') + '\n');
}

export { paste, render, pasteSources, totalBox, changedAmount, decode, encodeLike, describe, spread, listImages };

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main().catch((e) => { log(e.stack ?? String(e)); process.exit(1); });
