#!/usr/bin/env node
// Fuzz run of the built library (dist/) in ONE process: thousands of hostile inputs through one engine.
//
//   node bench/fuzz.mjs [--n 5000] [--seed 1] [--timeout MS] [--json FILE] [--sample 50]
//
// Inputs (deterministic for a seed), drawn from fixtures/ (shrunk so OCR stays cheap) and from inputs
// generated here: truncated, bit-flipped, byte runs overwritten, chunks duplicated or cut out,
// mislabelled (a content type / file name of another format), magic numbers swapped, huge declared
// dimensions (PNG IHDR, JPEG SOF, GIF, BMP), empty, random bytes, text/HTML/SVG/ZIP, hostile PDFs
// (huge /Count, /Length past the end, deep nesting, xref loops, broken streams, many pages, garbage).
// Every input goes through `engine.extract` (simple results, line items on). Checked: the process
// does not crash; every error is a ReceiptKitError (typed) - anything else is listed as UNTYPED;
// RSS is sampled every --sample inputs. Printed (and written to --json): inputs, time, results,
// error codes histogram, untyped errors, RSS start/median/max/end, slowest inputs.
//
// Needs `npm run build` first. Nothing is written to the repository unless --json names a file there.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { rng } from '../test/generators/rng.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

const args = process.argv.slice(2);
const flag = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : def;
};
const N = Number(flag('n', 5000));
const SEED = Number(flag('seed', 1));
const TIMEOUT = Number(flag('timeout', 30000));
const SAMPLE = Number(flag('sample', 50));
const JSON_OUT = flag('json', '');
// --dump 1875,1247 --dump-dir DIR: write those inputs (as the run would make them) to DIR and stop, to replay one
const DUMP = flag('dump', '') ? new Set(flag('dump', '').split(',').map(Number)) : null;
const DUMP_DIR = flag('dump-dir', '.');

const { createEngine, isReceiptKitError } = await import(pathToFileURL(path.join(root, 'dist', 'index.js')).href);

// ------------------------------------------------------------------------------ seeds

function crc32(buf) {
  let c = ~0;
  for (const b of buf) { c ^= b; for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1)); }
  return ~c >>> 0;
}
function pngChunk(type, data) {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function pngDeclaring(width, height, colourType = 2) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width >>> 0, 0); ihdr.writeUInt32BE(height >>> 0, 4);
  ihdr[8] = 8; ihdr[9] = colourType;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(Buffer.alloc(4096))), pngChunk('IEND', Buffer.alloc(0))]);
}
/** A JPEG whose SOF0 declares width x height (the rest from a real small JPEG). */
function jpegDeclaring(jpeg, width, height) {
  const b = Buffer.from(jpeg);
  for (let i = 2; i + 9 < b.length;) {
    if (b[i] !== 0xff) { i++; continue; }
    const m = b[i + 1];
    if (m >= 0xc0 && m <= 0xc2) { b.writeUInt16BE(height & 0xffff, i + 5); b.writeUInt16BE(width & 0xffff, i + 7); return b; }
    if (m === 0xd8 || m === 0x01 || (m >= 0xd0 && m <= 0xd7)) { i += 2; continue; }
    i += 2 + b.readUInt16BE(i + 2);
  }
  return b;
}
function gifDeclaring(width, height) {
  const b = Buffer.from('GIF89a\0\0\0\0\x80\0\0\0\0\0\xff\xff\xff,\0\0\0\0\0\0\0\0\0\x02\x02D\x01\0;', 'latin1');
  b.writeUInt16LE(width & 0xffff, 6); b.writeUInt16LE(height & 0xffff, 8);
  b.writeUInt16LE(width & 0xffff, 22); b.writeUInt16LE(height & 0xffff, 24);
  return b;
}
function bmpDeclaring(width, height) {
  const b = Buffer.alloc(54 + 64);
  b.write('BM', 0, 'latin1'); b.writeUInt32LE(b.length, 2); b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14); b.writeInt32LE(width, 18); b.writeInt32LE(height, 22);
  b.writeUInt16LE(1, 26); b.writeUInt16LE(24, 28);
  return b;
}

/** A minimal PDF from object bodies (object 1 is the catalog); `xref: false` leaves the table out. */
function pdfOf(objects, { xref = true, trailerExtra = '' } = {}) {
  let out = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((o, i) => { offsets.push(Buffer.byteLength(out, 'latin1')); out += `${i + 1} 0 obj\n${o}\nendobj\n`; });
  const start = Buffer.byteLength(out, 'latin1');
  if (xref) {
    out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
    for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  }
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${start}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
const textStream = (text) => { const s = `BT /F1 12 Tf 40 780 Td (${text}) Tj ET`; return `<< /Length ${s.length} >>\nstream\n${s}\nendstream`; };
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

function hostilePdfs() {
  const page = (contents, extra = '') => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contents} ${extra}>>`;
  const nest = (d) => '['.repeat(d) + ']'.repeat(d);
  return {
    'pdf-text': pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [4 0 R] /Count 1 >>', FONT, page('5 0 R'), textStream('SHOP LTD   TOTAL 12.50   2024-01-31')]),
    'pdf-huge-count': pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [4 0 R] /Count 2000000000 >>', FONT, page('5 0 R'), textStream('TOTAL 1.00')]),
    'pdf-length-past-end': pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [4 0 R] /Count 1 >>', FONT, page('5 0 R'), '<< /Length 999999999 >>\nstream\nBT /F1 12 Tf (x) Tj ET\nendstream']),
    'pdf-deep-nesting': pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [4 0 R] /Count 1 >>', FONT, page('5 0 R', `/Junk ${nest(5000)}`), textStream('TOTAL 2.00')]),
    'pdf-kids-loop': pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [2 0 R 4 0 R] /Count 2 >>', FONT, '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>']),
    'pdf-self-ref': pdfOf(['<< /Type /Catalog /Pages 1 0 R >>']),
    'pdf-no-xref': pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [4 0 R] /Count 1 >>', FONT, page('5 0 R'), textStream('TOTAL 3.00')], { xref: false }),
    'pdf-prev-loop': pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [4 0 R] /Count 1 >>', FONT, page('5 0 R'), textStream('TOTAL 4.00')], { trailerExtra: '/Prev 9 ' }),
    'pdf-bad-flate': pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [4 0 R] /Count 1 >>', FONT, page('5 0 R'), '<< /Length 20 /Filter /FlateDecode >>\nstream\nnot deflate at all!!\nendstream']),
    'pdf-many-pages': pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${Array.from({ length: 300 }, () => '4 0 R').join(' ')}] /Count 300 >>`, FONT, page('5 0 R'), textStream('TOTAL 5.00')]),
    'pdf-huge-mediabox': pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [4 0 R] /Count 1 >>', FONT, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400000 14400000] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>', textStream('TOTAL 6.00')]),
    'pdf-huge-image': pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [4 0 R] /Count 1 >>', FONT, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /I 6 0 R >> >> /Contents 5 0 R >>', (() => { const s = 'q 595 0 0 842 0 0 cm /I Do Q'; return `<< /Length ${s.length} >>\nstream\n${s}\nendstream`; })(), '<< /Type /XObject /Subtype /Image /Width 60000 /Height 60000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 10 >>\nstream\n0123456789\nendstream']),
    'pdf-header-only': Buffer.from('%PDF-1.7\n%%EOF\n'),
    'pdf-js': pdfOf(['<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >>', '<< /Type /Pages /Kids [4 0 R] /Count 1 >>', FONT, page('5 0 R'), textStream('TOTAL 7.00')]),
  };
}

async function seeds() {
  const s = {};
  // fixtures, shrunk so that the inputs that still decode are cheap to OCR
  for (const f of ['receipt-en-simple.png', 'receipt-eu.png', 'receipt-us.jpg', 'receipt-id-rotated.jpg']) {
    const img = sharp(fs.readFileSync(path.join(root, 'fixtures', f))).resize({ width: 240, withoutEnlargement: true });
    s[`${f}:jpeg`] = await img.clone().jpeg({ quality: 70 }).toBuffer();
    s[`${f}:png`] = await img.clone().png().toBuffer();
  }
  s['invoice.pdf'] = fs.readFileSync(path.join(root, 'fixtures', 'invoice.pdf'));
  // generated images of every format the library takes
  const base = sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 250, g: 250, b: 245 } } });
  s['gen.png'] = await base.clone().png().toBuffer();
  s['gen.jpeg'] = await base.clone().jpeg().toBuffer();
  s['gen.webp'] = await base.clone().webp().toBuffer();
  s['gen.tiff'] = await base.clone().tiff().toBuffer();
  s['gen.gif'] = await base.clone().gif().toBuffer();
  s['gen-1px.png'] = await sharp({ create: { width: 1, height: 1, channels: 3, background: { r: 0, g: 0, b: 0 } } }).png().toBuffer();
  s['gen-strip.png'] = await sharp({ create: { width: 4000, height: 2, channels: 3, background: { r: 255, g: 255, b: 255 } } }).png().toBuffer();
  Object.assign(s, hostilePdfs());
  s['huge-png'] = pngDeclaring(100000, 100000);
  s['huge-png-1x'] = pngDeclaring(1, 4000000000);
  s['huge-jpeg'] = jpegDeclaring(s['gen.jpeg'], 65000, 65000);
  s['huge-gif'] = gifDeclaring(65535, 65535);
  s['huge-bmp'] = bmpDeclaring(200000, 200000);
  s['text'] = Buffer.from('TOTAL 12.50\nthank you\n'.repeat(20));
  s['html'] = Buffer.from('<!doctype html><html><body><img src=x onerror=alert(1)>TOTAL 1.00</body></html>');
  s['svg'] = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><text y="20">TOTAL 1</text></svg>');
  s['zip'] = Buffer.from('504b0304140000000000000000000000000000000000000000000000', 'hex');
  return s;
}

// ------------------------------------------------------------------------------ mutations

const TYPES = [['image/png', 'a.png'], ['image/jpeg', 'a.jpg'], ['application/pdf', 'a.pdf'], ['image/webp', 'a.webp'], ['image/tiff', 'a.tif'], ['text/plain', 'a.txt'], ['image/heic', 'a.heic'], ['application/octet-stream', 'a.bin']];
const MAGIC = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('%PDF-1.4\n'), Buffer.from('RIFF\0\0\0\0WEBP'), Buffer.from('II*\0'), Buffer.from('GIF89a'), Buffer.from('BM')];

function mutate(r, seedsByName, names) {
  const pick = (a) => a[Math.floor(r() * a.length)];
  const name = pick(names);
  let b = Buffer.from(seedsByName[name]);
  const ops = [];
  let hints = {};
  const rounds = 1 + Math.floor(r() * 3);
  for (let k = 0; k < rounds; k++) {
    const op = pick(['none', 'truncate', 'flip', 'flip', 'run', 'dup', 'cut', 'mislabel', 'magic', 'empty', 'random', 'tail']);
    ops.push(op);
    if (op === 'truncate' && b.length > 1) b = b.subarray(0, Math.floor(r() * b.length));
    else if (op === 'flip') { const n = 1 + Math.floor(r() * 40); for (let i = 0; i < n && b.length; i++) b[Math.floor(r() * b.length)] ^= 1 << Math.floor(r() * 8); }
    else if (op === 'run' && b.length) { const at = Math.floor(r() * b.length); const len = Math.min(b.length - at, 1 + Math.floor(r() * 256)); b.fill(pick([0, 0xff, 0x41, Math.floor(r() * 256)]), at, at + len); }
    else if (op === 'dup' && b.length) { const at = Math.floor(r() * b.length); const len = Math.min(b.length - at, 1 + Math.floor(r() * 4096)); b = Buffer.concat([b.subarray(0, at + len), b.subarray(at, at + len), b.subarray(at + len)]); }
    else if (op === 'cut' && b.length) { const at = Math.floor(r() * b.length); const len = Math.floor(r() * 4096); b = Buffer.concat([b.subarray(0, at), b.subarray(at + len)]); }
    else if (op === 'mislabel') { const [contentType, filename] = pick(TYPES); hints = { contentType, filename }; }
    else if (op === 'magic') { const m = pick(MAGIC); b = Buffer.concat([m, b.subarray(Math.min(b.length, m.length))]); }
    else if (op === 'empty') b = Buffer.alloc(0);
    else if (op === 'random') { b = Buffer.alloc(Math.floor(r() * 20000)); for (let i = 0; i < b.length; i++) b[i] = Math.floor(r() * 256); }
    else if (op === 'tail') b = Buffer.concat([b, Buffer.alloc(Math.floor(r() * 100000), pick([0, 0x20, 0x30]))]);
  }
  return { name, ops: ops.join('+'), bytes: b, hints };
}

// ------------------------------------------------------------------------------ run

const rss = () => Math.round(process.memoryUsage().rss / 1048576);
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.floor(s.length / 2)] : 0; };

const seedsByName = await seeds();
const names = Object.keys(seedsByName);
const r = rng(SEED);
if (DUMP) {
  for (let i = 0; i <= Math.max(...DUMP); i++) {
    const input = i % 8 === 0 ? { name: names[(i / 8) % names.length], ops: 'seed', bytes: seedsByName[names[(i / 8) % names.length]], hints: {} } : mutate(r, seedsByName, names);
    if (!DUMP.has(i)) continue;
    const file = path.join(DUMP_DIR, `fuzz-${SEED}-${i}.bin`);
    fs.writeFileSync(file, input.bytes);
    console.log(JSON.stringify({ i, file, name: input.name, ops: input.ops, bytes: input.bytes.length, hints: input.hints }));
  }
  process.exit(0);
}
// cheap OCR: small pictures only (larger ones are refused with FILE_TOO_LARGE, a typed error), no
// confirming passes, two PDF pages; the second reader (PaddleOCR) stays on so its sessions are exercised
const engine = await createEngine({ workers: 1, timeoutMs: TIMEOUT, confirmPasses: 0, limits: { maxPixels: Number(flag('max-pixels', 300_000)), maxPdfPages: 2 } });
let crashed = null;
let current = null; // the input being extracted, named when something escapes
process.on('uncaughtException', (e) => { crashed = String(e?.stack ?? e); console.error('UNCAUGHT during', JSON.stringify(current), crashed); });
process.on('unhandledRejection', (e) => { crashed = String(e?.stack ?? e); console.error('UNHANDLED during', JSON.stringify(current), String(e?.name), String(e?.message), crashed); });

const codes = {};
const untyped = [];
const slow = [];
const rssSamples = [rss()];
const rssStart = rssSamples[0];
let ok = 0;
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  // one in eight inputs is an unmutated seed, so the seeds themselves (hostile PDFs, huge dimensions) are covered
  const input = i % 8 === 0 ? { name: names[(i / 8) % names.length], ops: 'seed', bytes: seedsByName[names[(i / 8) % names.length]], hints: {} } : mutate(r, seedsByName, names);
  const t = performance.now();
  current = { i, name: input.name, ops: input.ops, bytes: input.bytes.length };
  try {
    await engine.extract(input.bytes, { ...input.hints });
    ok++;
  } catch (e) {
    if (isReceiptKitError(e)) codes[e.code] = (codes[e.code] ?? 0) + 1;
    else { codes.UNTYPED = (codes.UNTYPED ?? 0) + 1; untyped.push({ i, name: input.name, ops: input.ops, error: String(e?.stack ?? e).slice(0, 400) }); }
  }
  const ms = performance.now() - t;
  slow.push({ i, ms: Math.round(ms), name: input.name, ops: input.ops, bytes: input.bytes.length });
  slow.sort((a, b) => b.ms - a.ms);
  slow.length = Math.min(slow.length, 8);
  if ((i + 1) % SAMPLE === 0) {
    rssSamples.push(rss());
    console.error(`[fuzz] ${i + 1}/${N} ${Math.round((performance.now() - t0) / 1000)} s rss ${rssSamples.at(-1)} MB ok ${ok} ${JSON.stringify(codes)}`);
  }
}
const seconds = Math.round((performance.now() - t0) / 100) / 10;
await engine.close();
const report = {
  inputs: N, seed: SEED, seconds, ok, errors: codes, untyped: untyped.slice(0, 20), untypedCount: untyped.length, crashed,
  rssMB: { start: rssStart, median: median(rssSamples), max: Math.max(...rssSamples), end: rssSamples.at(-1), samples: rssSamples.length },
  rssSecondHalfVsFirstHalfMedian: [median(rssSamples.slice(0, rssSamples.length >> 1)), median(rssSamples.slice(rssSamples.length >> 1))],
  slowest: slow,
};
console.log(JSON.stringify(report, null, 2));
if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify({ ...report, rssSamples }, null, 2));
process.exit(crashed || untyped.length ? 1 : 0);
