#!/usr/bin/env node
// Which pages the paper finder (src/ocr/paper.ts) would cut to their paper, per dataset: the count, and
// per page the rule that declined it or the frame it found. Runs the built library (dist/) on the images
// only (no OCR), so it takes seconds: the check that scans stay untouched.
//
//   npm run build && node bench/paper-crops.mjs [--corpus PATH] [--dataset a,b] [--verbose] [--all] [--sheet FILE.png]
//
// Pages the library does not look at (preprocess.ts lookForPaper: long side up to PAPER_MIN_LONG_SIDE)
// count as 'small'; --all looks for the paper in them too. --sheet draws a contact sheet of the cropped
// pages (the photo with the frame outlined) for a look.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { BENCH_DIR, corpusDir, parseFlags } from './experiment.mjs';

const flags = parseFlags();
const corpus = corpusDir(flags);
const paper = await import(pathToFileURL(path.join(BENCH_DIR, '../dist/ocr/paper.js')).href);
const { lookForPaper } = await import(pathToFileURL(path.join(BENCH_DIR, '../dist/ocr/preprocess.js')).href);
const datasets = flags.dataset ? flags.dataset.split(',') : fs.readdirSync(corpus).filter((d) => fs.existsSync(path.join(corpus, d, 'images'))).sort();
const sheet = [];
const summary = [];
for (const ds of datasets) {
  const dir = path.join(corpus, ds, 'images');
  const files = fs.readdirSync(dir).filter((f) => /\.(jpe?g|png|webp)$/i.test(f)).sort();
  const found = [], declined = {};
  let ms = 0;
  for (const f of files) {
    const bytes = fs.readFileSync(path.join(dir, f));
    const meta = await sharp(bytes).metadata();
    const turned = (meta.orientation ?? 1) >= 5;
    const page = { kind: 'raster', index: 0, image: bytes, width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height, exifOrientation: meta.orientation ?? 1 };
    if (flags.all !== 'true' && !lookForPaper(page, page.width, page.height)) {
      declined.small = (declined.small ?? 0) + 1;
      continue;
    }
    const t0 = performance.now();
    const copy = await paper.paperAnalysisCopy(page);
    const finding = paper.findPaper(copy);
    ms += performance.now() - t0;
    const m = finding.measures;
    const desc = m ? `${finding.candidate ?? ''} coverage ${m.coverage.toFixed(2)} rect ${m.rectangularity.toFixed(2)} contrast ${m.contrast}/${m.paperLevel} sides ${m.sidesSeen} gain ${m.cropGain.toFixed(2)} angle ${m.rect.angle.toFixed(1)}` : '';
    if (finding.frame) {
      found.push(f);
      if (flags.verbose) console.log(`  ${ds}/${f}: CROP (${finding.candidate}) ${desc}`);
      if (flags.sheet) sheet.push({ ds, f, copy, frame: finding.frame });
    } else {
      declined[finding.declined] = (declined[finding.declined] ?? 0) + 1;
      if (flags.verbose) console.log(`  ${ds}/${f}: declined by ${finding.declined} ${desc}`);
    }
  }
  const looked = files.length - (declined.small ?? 0);
  summary.push({ ds, files: files.length, cropped: found.length, declined, msPerPage: looked ? Math.round(ms / looked) : null });
  console.log(`${ds}: ${found.length} of ${files.length} pages cropped${found.length ? ` (${found.join(' ')})` : ''}; declined by ${Object.entries(declined).map(([k, v]) => `${k} ${v}`).join(', ') || '-'}${looked ? `; ${Math.round(ms / looked)} ms a page looked at` : ''}`);
}
if (flags.sheet && sheet.length) {
  const W = 240, H = 320, cols = 8;
  const tiles = [];
  for (const { copy, frame } of sheet) {
    const corners = paper.rectCorners(frame).map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${copy.width}" height="${copy.height}"><polygon points="${corners}" fill="none" stroke="#ff0000" stroke-width="3"/></svg>`);
    const img = await sharp(Buffer.from(copy.data), { raw: { width: copy.width, height: copy.height, channels: copy.channels } }).composite([{ input: svg }]).png().toBuffer();
    tiles.push(await sharp(img).resize(W, H, { fit: 'contain', background: '#000' }).png().toBuffer());
  }
  const rows = Math.ceil(tiles.length / cols);
  await sharp({ create: { width: W * Math.min(cols, tiles.length), height: H * rows, channels: 3, background: '#000' } })
    .composite(tiles.map((t, i) => ({ input: t, left: (i % cols) * W, top: Math.floor(i / cols) * H }))).png().toFile(flags.sheet);
  console.log(`sheet: ${flags.sheet}`);
}
if (flags.out) fs.writeFileSync(flags.out, JSON.stringify(summary, null, 1));
