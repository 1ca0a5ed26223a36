/**
 * Fraud signals (src/fraud): each tampering signal firing on a generated input and staying quiet on the
 * clean version of the same input; digital vs paper; handwriting; the wiring into the verbose result
 * and validation. Generated receipts are rendered here with sharp (DejaVu Sans Mono, needs the DejaVu
 * fonts like scripts/make-fixtures.mjs) with known word boxes, so the pixel checks run without OCR;
 * real OCR runs only on small images (the fixtures and one generated receipt).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import path from 'node:path';
import sharp from 'sharp';
import { createEngine } from '../src/index.js';
import type { Engine, VerboseResult } from '../src/index.js';
import { loadInput } from '../src/input/index.js';
import { buildDocument, lineFromWords } from '../src/document/geometry.js';
import type { Document, Word } from '../src/document/types.js';
import type { FieldResults, Located } from '../src/fields/types.js';
import { detectFraud, bestCopy, COPY, STYLE } from '../src/fraud/index.js';
// @ts-expect-error plain JavaScript module without types
import { rng as rngOf, gauss as gaussOf } from './generators/rng.ts';
import type { FraudReport } from '../src/fraud/index.js';
import { findCopies } from '../src/fraud/copymove.js';
import { checkArithmetic } from '../src/fraud/arithmetic.js';
import { pdfFindings, pdfRevisions, secondsBetween } from '../src/fraud/provenance.js';
import { digitalVerdict } from '../src/fraud/digital.js';
import { detectHandwriting } from '../src/fraud/handwriting.js';
import { documentFromText } from '../src/document/geometry.js';
import { makePdf } from './helpers/pdf.js';

const FIX = path.resolve(__dirname, '../fixtures');

// ---------------------------------------------------------------- generated receipts

// deterministic PRNG and normal deviates shared with bench/tamper.mjs
const rng = rngOf as (seed: number) => () => number;
const gauss = gaussOf as (r: () => number) => number;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

const SIZE = 26, CW = SIZE * 0.6021, PITCH = 40, LEFT = 30, TOP = 50, WIDTH = 620;
const LINES = [
  'KEDAI RUNCIT MAJU JAYA',
  'NO 8 JALAN BUNGA RAYA',
  'DATE 12/03/2024 14:35',
  'GULA PASIR 2KG     5.40',
  'BERAS WANGI 10KG  26.80',
  'MINYAK MASAK       7.90',
  'TEH SERBUK         4.30',
  'SUBTOTAL          44.40',
  'SST 6%             2.66',
  'TOTAL             47.06',
  'CASH              50.00',
  'CHANGE             2.94',
  'THANK YOU COME AGAIN',
];
const HEIGHT = TOP + LINES.length * PITCH + 30;
const TOTAL_LINE = 9;

/** Word boxes of the rendered lines: monospace cells, digits/capitals 0.73 em tall above the baseline. */
function layout(lines = LINES): Array<Array<{ text: string; box: { x0: number; y0: number; x1: number; y1: number } }>> {
  return lines.map((t, i) => {
    const base = TOP + i * PITCH;
    const words: Array<{ text: string; box: { x0: number; y0: number; x1: number; y1: number } }> = [];
    for (const m of t.matchAll(/\S+/g)) {
      words.push({ text: m[0], box: { x0: Math.floor(LEFT + m.index * CW), y0: Math.floor(base - 0.74 * SIZE), x1: Math.ceil(LEFT + (m.index + m[0].length) * CW), y1: Math.ceil(base + 0.02 * SIZE) } });
    }
    return words;
  });
}

/** A Document with the generated geometry (as OCR would give it), confidence 0.9. */
function docOf(lines = LINES): Document {
  const ls = layout(lines).map((ws) => lineFromWords(ws.map((w): Word => ({ text: w.text, box: w.box, confidence: 0.9 }))));
  return buildDocument([{ index: 0, source: 'ocr', width: WIDTH, height: HEIGHT, originalWidth: WIDTH, originalHeight: HEIGHT, rotation: 0, lines: ls }]);
}

function located(value: number, line: number, doc: Document): Located<number> {
  const l = doc.lines[line]!;
  const w = l.words[l.words.length - 1]!;
  return { value, confidence: 0.9, text: l.text, lineIndex: line, keyword: 'TOTAL', boxes: [w.box], page: 0 };
}

/** Fields that agree with LINES (items 44.40 + SST 2.66 = 47.06; 50.00 - 2.94 = 47.06). */
function fieldsOf(doc: Document, over: Partial<FieldResults> = {}): FieldResults {
  return {
    amounts: [], lineAmounts: [], numbers: [], warnings: [],
    totalAmount: located(47.06, 9, doc), subtotalAmount: located(44.4, 7, doc), taxAmount: located(2.66, 8, doc), paidAmount: located(50, 10, doc),
    lineAmounts: [11].map((i) => ({ value: 2.94, text: '2.94', lineIndex: i, page: 0, boxes: [doc.lines[i]!.words.at(-1)!.box] })),
    ...over,
  };
}

/** The receipt as a clean render (RGB raw): black text on white, anti-aliased. */
async function renderClean(lines = LINES): Promise<{ data: Buffer; width: number; height: number }> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><rect width="100%" height="100%" fill="#ffffff"/>` +
    lines.map((t, i) => `<text x="${LEFT}" y="${TOP + i * PITCH}" font-family="DejaVu Sans Mono" font-size="${SIZE}" fill="#000000" xml:space="preserve">${esc(t)}</text>`).join('') + '</svg>';
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The render as a photo of thermal paper: print blurred and uneven (ink density varies along strokes),
 * paper tinted with a lighting gradient, sensor noise in every channel, a few specks, JPEG q92.
 */
async function photoOf(raw: { data: Buffer; width: number; height: number }, seed = 1): Promise<Buffer> {
  const blurred = await sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 3 } }).blur(0.9).raw().toBuffer();
  const r = rng(seed);
  const out = Buffer.alloc(blurred.length);
  const density = new Float32Array(raw.width * raw.height);
  for (let i = 0; i < density.length; i++) density[i] = 0.75 + 0.25 * r();
  for (let y = 0; y < raw.height; y++) {
    for (let x = 0; x < raw.width; x++) {
      const i = y * raw.width + x;
      const ink = 1 - blurred[i * 3]! / 255; // 0 paper .. 1 ink
      const light = 0.86 + 0.1 * (x / raw.width) + 0.04 * (y / raw.height);
      const paper = [236 * light, 232 * light, 222 * light];
      const inkRgb = [58, 60, 78];
      for (let c = 0; c < 3; c++) {
        const v = paper[c]! + (inkRgb[c]! - paper[c]!) * ink * density[i]! + gauss(r) * 2.6;
        out[i * 3 + c] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
  }
  for (let k = 0; k < 40; k++) {
    const x = Math.floor(r() * raw.width), y = Math.floor(r() * raw.height);
    for (const o of [0, 1, raw.width]) for (let c = 0; c < 3; c++) if ((y * raw.width + x + o) * 3 + c < out.length) out[(y * raw.width + x + o) * 3 + c] = 90;
  }
  return sharp(out, { raw: { width: raw.width, height: raw.height, channels: 3 } }).jpeg({ quality: 92, chromaSubsampling: '4:2:0' }).toBuffer();
}

async function decode(jpeg: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
const jpegOf = (img: { data: Buffer; width: number; height: number }) =>
  sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).jpeg({ quality: 92, chromaSubsampling: '4:2:0' }).toBuffer();

/** Copies the rectangle (x, y, w, h) of `img` to (tx, ty). */
function pasteRect(img: { data: Buffer; width: number; height: number }, x: number, y: number, w: number, h: number, tx: number, ty: number) {
  const out = Buffer.from(img.data);
  for (let j = 0; j < h; j++) img.data.copy(out, ((ty + j) * img.width + tx) * 3, ((y + j) * img.width + x) * 3, ((y + j) * img.width + x + w) * 3);
  return { ...img, data: out };
}

async function check(jpeg: Buffer, doc = docOf(), fields = fieldsOf(doc)): Promise<FraudReport> {
  return detectFraud(await loadInput(jpeg), doc, fields);
}
const fired = (r: FraudReport) => r.tamperingDetection.details.map((d) => d.signal);

// ---------------------------------------------------------------- tests

let clean: { data: Buffer; width: number; height: number };
let photo: Buffer;
beforeAll(async () => {
  clean = await renderClean();
  photo = await photoOf(clean);
});

describe('tampering: pixels', () => {
  it('the clean photo of the receipt raises no pixel signal and is not tampered', async () => {
    const r = await check(photo);
    expect(fired(r)).toEqual([]);
    expect(r.tamperingDetection).toEqual({ isTampered: false, tamperedScore: 0, details: [] });
    expect(r.digitalDetection.isDigital).toBe(false);
  });

  it('copy-move: the total covered with the area of another amount is flagged, with both places', async () => {
    const img = await decode(photo);
    const words = layout();
    const src = words[4]!.at(-1)!.box, dst = words[TOTAL_LINE]!.at(-1)!.box; // 26.80 over 47.06
    const pad = 5;
    const w = dst.x1 - dst.x0 + 2 * pad, h = dst.y1 - dst.y0 + 2 * pad;
    const pasted = await jpegOf(pasteRect(img, src.x1 + pad - w, src.y0 - pad, w, h, dst.x0 - pad, dst.y0 - pad));
    const r = await check(pasted);
    expect(fired(r)).toContain('copy-move');
    expect(r.tamperingDetection.isTampered).toBe(true);
    const d = r.tamperingDetection.details.find((x) => x.signal === 'copy-move')!;
    expect(d.regions).toHaveLength(2);
    const ys = d.regions!.map((p) => p[0].y).sort((a, b) => a - b);
    expect(ys[0]).toBeLessThan(src.y1); // one copy on the 26.80 line...
    expect(ys[1]).toBeGreaterThan(dst.y0 - 2 * pad); // ...the other on the total's line
  });

  it('copy-move: printed repeats of the same digits are not copies; exact copies are', () => {
    // two noisy prints of the same block pattern at 100 px: different noise, no copy; then an exact copy
    const W = 300, H = 60, r = rng(3);
    const g = new Uint8Array(W * H).fill(230);
    const glyph = (ox: number, noise: number) => {
      for (let y = 10; y < 40; y++) for (let x = 0; x < 20; x++) {
        const ink = (x > 3 && x < 8) || (y > 20 && y < 25) || ((x + y) % 11 < 3);
        g[y * W + ox + x] = Math.max(0, Math.min(255, Math.round((ink ? 60 : 230) + noise * gauss(r))));
      }
    };
    glyph(20, 5); glyph(120, 5);
    const regions = [{ x0: 10, y0: 5, x1: 50, y1: 45 }, { x0: 110, y0: 5, x1: 150, y1: 45 }, { x0: 210, y0: 5, x1: 250, y1: 45 }];
    const natural = findCopies(g, W, H, regions, { maxDiff: COPY.maxDiff, minMatches: 3 });
    expect(bestCopy(natural, 30)).toBeUndefined();
    for (let y = 0; y < H; y++) for (let x = 0; x < 40; x++) g[y * W + 210 + x] = g[y * W + 10 + x]!;
    const copied = findCopies(g, W, H, regions, { maxDiff: COPY.maxDiff, minMatches: 3 });
    const c = bestCopy(copied, 30)!;
    expect(c).toBeDefined();
    expect(Math.abs(c.dx)).toBe(200);
    expect(c.dy).toBe(0);
    expect(c.meanDiff).toBeLessThan(0.5);
  });

  it('style: new digits typed over a filled box are flagged', async () => {
    const img = await decode(photo);
    const dst = layout()[TOTAL_LINE]!.at(-1)!.box;
    const pad = 4;
    const x0 = dst.x0 - pad, y0 = dst.y0 - pad, w = dst.x1 - dst.x0 + 2 * pad, h = dst.y1 - dst.y0 + 2 * pad;
    // the paper colour picked next to the box, the ink colour picked from the darkest digits (what an editor's eyedropper gives)
    const at = (x: number, y: number) => [0, 1, 2].map((c) => img.data[(y * img.width + x) * 3 + c]!);
    const paper = at(x0 - 3, y0 + 2);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="rgb(${paper.join(',')})"/>` +
      `<text x="${w - pad}" y="${h - pad}" text-anchor="end" font-family="DejaVu Sans Mono" font-size="${SIZE}" fill="rgb(40,40,52)">97.06</text></svg>`;
    const patch = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
    const out = Buffer.from(img.data);
    for (let j = 0; j < h; j++) patch.copy(out, ((y0 + j) * img.width + x0) * 3, j * w * 3, (j + 1) * w * 3);
    const typed = await jpegOf({ ...img, data: out });
    const r = await check(typed);
    expect(fired(r)).toContain('style-outlier');
    const d = r.tamperingDetection.details.find((x) => x.signal === 'style-outlier')!;
    expect(d.text).toBe('47.06'); // the word at the total's place (OCR would read the new digits)
    expect(d.score).toBeGreaterThanOrEqual(0.5);
    expect(STYLE.fire).toBeGreaterThan(0);
  });

  it('size: one digit of the total pasted larger than the others is flagged', async () => {
    const img = await decode(photo);
    const dst = layout()[TOTAL_LINE]!.at(-1)!.box;
    // the first digit of the total, cut from the render and enlarged 2x in height (bottom-aligned, same cell)
    const cell = { x: Math.round(dst.x0) - 1, y: Math.round(dst.y0) - 2, w: Math.round(CW) + 1, h: Math.round(dst.y1 - dst.y0) + 3 };
    const digit = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
      .extract({ left: cell.x, top: cell.y, width: cell.w, height: cell.h }).resize({ width: Math.round(cell.w * 1.2), height: Math.round(cell.h * 2), fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
    const out = Buffer.from(img.data);
    const ty = cell.y + cell.h - digit.info.height;
    for (let j = 0; j < digit.info.height; j++) digit.data.copy(out, ((ty + j) * img.width + cell.x) * 3, j * digit.info.width * 3, (j + 1) * digit.info.width * 3);
    const doc = docOf();
    // OCR would box the word around the taller digit
    const w = doc.lines[TOTAL_LINE]!.words.at(-1)!;
    w.box = { ...w.box, y0: ty };
    const jp = await jpegOf({ ...img, data: out });
    const r = await detectFraud(await loadInput(jp), doc, fieldsOf(doc));
    expect(fired(r)).toContain('size-outlier');
    expect(r.tamperingDetection.details.find((x) => x.signal === 'size-outlier')!.reason).toMatch(/taller/);
  });
});

describe('bounded work', () => {
  it('a 25 MP noise image with 200 digit words: copy search capped, done in seconds, nothing found', async () => {
    const W = 5000, H = 5000, r = rng(11);
    const noise = Buffer.alloc(W * H);
    for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(r() * 256);
    const jpeg = await sharp(noise, { raw: { width: W, height: H, channels: 1 } }).jpeg({ quality: 90 }).toBuffer();
    const lines = Array.from({ length: 50 }, (_, i) => lineFromWords(Array.from({ length: 4 }, (_, k): Word => ({
      text: `${1000 + i * 4 + k}.00`, confidence: 0.9, box: { x0: 100 + k * 1200, y0: 80 + i * 98, x1: 500 + k * 1200, y1: 140 + i * 98 },
    }))));
    const doc = buildDocument([{ index: 0, source: 'ocr', width: W, height: H, originalWidth: W, originalHeight: H, rotation: 0, lines }]);
    const fields: FieldResults = { amounts: [], lineAmounts: [], numbers: [], warnings: [] };
    const started = Date.now();
    const debug: NonNullable<Parameters<typeof detectFraud>[3]>['debug'] = {};
    const rep = await detectFraud(await loadInput(jpeg), doc, fields, { debug });
    const ms = Date.now() - started;
    expect(debug.image!.copies!.stride).toBeGreaterThan(1); // 4.8 M positions: indexed on a coarser grid
    expect(debug.image!.copies!.blocks).toBeLessThanOrEqual(400_000);
    expect(fired(rep)).not.toContain('copy-move');
    expect(ms).toBeLessThan(30_000);
  }, 120_000);
});

describe('tampering: metadata and PDF structure', () => {
  it('editing software in the EXIF data fires; a camera does not', async () => {
    const edited = await sharp(photo).withExif({ IFD0: { Software: 'Adobe Photoshop 25.0 (Windows)' } }).jpeg({ quality: 92 }).toBuffer();
    const r = await check(edited);
    expect(fired(r)).toContain('editing-software');
    expect(r.tamperingDetection.isTampered).toBe(true);
    const camera = await sharp(photo).withExif({ IFD0: { Make: 'Google', Model: 'Pixel 7', Software: 'HDR+ 1.0.540104767zd' } }).jpeg({ quality: 92 }).toBuffer();
    const c = await check(camera);
    expect(fired(c)).toEqual([]);
    expect(c.digitalDetection.details).toContain('camera-exif');
  });

  it('a modification date long after the capture date fires (weak: not tampered on its own)', async () => {
    const later = await sharp(photo).withExif({ IFD0: { DateTime: '2024:03:20 09:00:00' }, IFD2: { DateTimeOriginal: '2024:03:12 14:36:10' } }).jpeg({ quality: 92 }).toBuffer();
    const r = await check(later);
    expect(fired(r)).toEqual(['metadata-dates']);
    expect(r.tamperingDetection.isTampered).toBe(false);
    expect(r.tamperingDetection.details[0]!.reason).toMatch(/8 days after/);
    const same = await sharp(photo).withExif({ IFD0: { DateTime: '2024:03:12 14:36:10' }, IFD2: { DateTimeOriginal: '2024:03:12 14:36:10' } }).jpeg({ quality: 92 }).toBuffer();
    expect(fired(await check(same))).toEqual([]);
    expect(secondsBetween('2024-03-12T14:36:10', '2024-03-12T14:38:10')).toBe(120);
  });

  it('a PDF with an incremental update and a new producer fires both PDF signals; the original PDF none', async () => {
    const pdf = makePdf([{ lines: [{ text: 'INVOICE 42 TOTAL 100.00 EUR', x: 40, y: 60, size: 12 }] }], { info: { Producer: 'LibreOffice 7.6', CreationDate: 'D:20240131120000Z' } });
    const plain = await loadInput(pdf);
    const doc = documentFromText('INVOICE 42 TOTAL 100.00 EUR');
    doc.pages[0]!.source = 'pdf-text';
    const fields: FieldResults = { amounts: [], lineAmounts: [], numbers: [], warnings: [] };
    const before = await detectFraud(plain, doc, fields);
    expect(fired(before)).toEqual([]);
    expect(pdfRevisions(pdf)).toMatchObject({ revisions: 1, producers: ['LibreOffice 7.6'] });
    const updated = appendInfoUpdate(pdf, { Producer: 'PDFelement 10', CreationDate: 'D:20240131120000Z', ModDate: 'D:20240215093000Z' });
    const input = await loadInput(updated); // pdf.js reads the updated file
    expect(input.metadata.producer).toBe('PDFelement 10');
    const after = await detectFraud(input, doc, fields);
    expect(fired(after)).toEqual(expect.arrayContaining(['pdf-incremental-update', 'pdf-producer-changed', 'pdf-editor', 'metadata-dates']));
    expect(after.tamperingDetection.isTampered).toBe(true);
    expect(after.digitalDetection).toMatchObject({ isDigital: true, details: ['pdf-text-layer'] });
  });
});

describe('PDF producers', () => {
  it('different producers in a file saved once are a weak mismatch; across revisions a change', () => {
    const once = Buffer.from('%PDF-1.4\n1 0 obj << /Producer (iText 2.0.8) >> endobj\n<x:xmpmeta><pdf:Producer>Adobe PDF Library 9.9</pdf:Producer></x:xmpmeta>\nstartxref\n9\n%%EOF\n', 'latin1');
    expect(pdfFindings(once).findings.map((f) => f.signal)).toEqual(['pdf-producer-mismatch']);
    const twice = Buffer.concat([once, Buffer.from('2 0 obj << /Producer (PDFelement) >> endobj\nstartxref\n99\n%%EOF\n', 'latin1')]);
    expect(pdfFindings(twice).findings.map((f) => f.signal)).toEqual(['pdf-incremental-update', 'pdf-producer-changed']);
    const linearized = Buffer.from('%PDF-1.4\n1 0 obj << /Linearized 1 >> endobj\nstartxref\n0\n%%EOF\n2 0 obj << /Producer (Word) >> endobj\nstartxref\n9\n%%EOF\n', 'latin1');
    expect(pdfFindings(linearized).findings).toEqual([]);
  });
});

/** Appends an incremental update replacing the Info dictionary (new object, xref section, trailer with /Prev). */
function appendInfoUpdate(pdf: Buffer, info: Record<string, string>): Buffer {
  const s = pdf.toString('latin1');
  const prev = Number(/startxref\s+(\d+)/g.exec(s.slice(s.lastIndexOf('startxref')))![1]);
  const size = Number(/\/Size\s+(\d+)/.exec(s)![1]);
  const root = /\/Root\s+(\d+\s+\d+\s+R)/.exec(s)![1];
  const num = size;
  const obj = `${num} 0 obj\n<< ${Object.entries(info).map(([k, v]) => `/${k} (${v})`).join(' ')} >>\nendobj\n`;
  const objOffset = pdf.length;
  const xrefOffset = objOffset + Buffer.byteLength(obj, 'latin1');
  const tail = `xref\n${num} 1\n${String(objOffset).padStart(10, '0')} 00000 n \ntrailer\n<< /Size ${num + 1} /Root ${root} /Info ${num} 0 R /Prev ${prev} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.concat([pdf, Buffer.from(obj + tail, 'latin1')]);
}

describe('tampering: arithmetic', () => {
  const doc = docOf();
  it('holds on the generated receipt (items, subtotal + tax, paid - change)', () => {
    const a = checkArithmetic({ ...fieldsOf(doc), itemsCheck: { itemsSum: 44.4, against: 'subtotal', expected: 44.4, matches: true }, lineItems: [] }, doc);
    expect(a.relations.map((r) => [r.name, r.holds])).toEqual([['subtotal-sum', true], ['paid-change', true]]);
    expect(a.failing).toBe(0);
  });
  it('a total that is not subtotal + tax nor paid - change fires (weak alone), and adds to pixel evidence', async () => {
    const f = fieldsOf(doc, { totalAmount: located(97.06, 9, doc) });
    const a = checkArithmetic(f, doc);
    expect(a.relations.every((r) => !r.holds)).toBe(true);
    const r = await check(photo, doc, f);
    expect(fired(r)).toEqual(['arithmetic']);
    expect(r.tamperingDetection.details[0]!.reason).toMatch(/44\.4 with 2\.66 never makes the total 97\.06/);
    expect(r.tamperingDetection.isTampered).toBe(false);
  });
});

describe('digital', () => {
  it('a clean render is digital (flat background, exact glyph repeats); its photo is not', async () => {
    const png = await sharp(clean.data, { raw: { width: clean.width, height: clean.height, channels: 3 } }).png().toBuffer();
    const d = (await check(png)).digitalDetection;
    expect(d.isDigital).toBe(true);
    expect(d.details).toEqual(expect.arrayContaining(['flat-background', 'exact-glyph-repeats']));
    const p = (await check(photo)).digitalDetection;
    expect(p.isDigital).toBe(false);
    expect(p.digitalScore).toBeLessThan(0.5);
  });
  it('the verdict: a text layer is digital; a camera EXIF pulls the score down', () => {
    expect(digitalVerdict({ textLayer: true })).toEqual({ isDigital: true, digitalScore: 0.97, details: ['pdf-text-layer'] });
    const bg = { flatShare: 0.9, specksPerMp: 0, modeShare: 0.9, midtoneShare: 0.2 };
    expect(digitalVerdict({ textLayer: false, background: bg, exactRepeatRate: 0.02 }).isDigital).toBe(true);
    expect(digitalVerdict({ textLayer: false, background: bg, exactRepeatRate: 0.02, camera: 'Apple iPhone 13' }).digitalScore).toBeLessThan(0.9);
    expect(digitalVerdict({ textLayer: false, background: { ...bg, specksPerMp: 40 }, exactRepeatRate: 0 }).isDigital).toBe(false);
  });
});

describe('handwriting', () => {
  it('printed generated text is not handwritten', async () => {
    const r = await check(photo);
    expect(r.handwritingDetection.isHandwritten).toBe(false);
    expect(r.handwritingDetection.handwrittenScore).toBeLessThan(0.3);
  });
  it('a PDF text layer scores 0', () => {
    const d = documentFromText('TOTAL 12.50');
    d.pages[0]!.source = 'pdf-text';
    expect(detectHandwriting(d)).toMatchObject({ isHandwritten: false, handwrittenScore: 0 });
  });
});

/**
 * "Handwriting" for the tests: each character drawn on its own, with random size (0.75-1.35), rotation
 * (+-12 degrees), baseline (+-5 px plus a drifting line), stroke weight and spacing, in blue ink on
 * cream paper. Not real handwriting (none is available offline); it has the irregularity the detector
 * measures.
 */
async function handwritten(seed = 7): Promise<Buffer> {
  const r = rng(seed);
  const lines = ['Kedai Runcit Ali', '12/03/2024', 'Gula 2kg 5.40', 'Beras 10kg 26.00', 'Minyak 3.90', 'Jumlah 35.30', 'Terima kasih'];
  const parts: string[] = [];
  lines.forEach((line, li) => {
    let x = 30 + r() * 20, drift = 0;
    const base = 60 + li * 60;
    for (const ch of line) {
      if (ch === ' ') { x += 14 + r() * 14; continue; }
      const size = 26 * (0.75 + r() * 0.6), rot = (r() - 0.5) * 24;
      drift += (r() - 0.5) * 4;
      const y = base + drift + (r() - 0.5) * 10;
      parts.push(`<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" font-family="DejaVu Serif" font-style="italic" font-size="${size.toFixed(1)}" transform="rotate(${rot.toFixed(1)} ${x.toFixed(1)} ${y.toFixed(1)})" fill="#1a237e" stroke="#1a237e" stroke-width="${(0.3 + r() * 1.4).toFixed(2)}">${esc(ch)}</text>`);
      x += size * (0.45 + r() * 0.35);
    }
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="700" height="${60 + lines.length * 60}"><rect width="100%" height="100%" fill="#fbfaf4"/>${parts.join('')}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

// ---------------------------------------------------------------- real OCR (small images)

let engine: Engine;
describe('through the engine (real OCR)', () => {
  beforeAll(async () => { engine = await createEngine({ workers: 1 }); });
  afterAll(async () => { await engine?.close(); });

  it('verbose results carry the three detections after the other entities; the fixture is clean and digital', async () => {
    const r = await engine.extract(path.join(FIX, 'receipt-en-simple.png'), { verbose: true, incognito: true }) as VerboseResult;
    const keys = Object.keys(r.entities);
    expect(keys.slice(-3)).toEqual(['tamperingDetection', 'digitalDetection', 'handwritingDetection']);
    expect(r.entities.tamperingDetection).toEqual({ isTampered: false, tamperedScore: 0, details: [] });
    expect(r.entities.digitalDetection).toMatchObject({ isDigital: true });
    expect(r.entities.handwritingDetection).toMatchObject({ isHandwritten: false });
  });

  it('the text-layer invoice is digital and not tampered (extract and analyze)', async () => {
    const r = await engine.extract(path.join(FIX, 'invoice.pdf'), { verbose: true, incognito: true }) as VerboseResult;
    expect(r.entities.digitalDetection).toEqual({ isDigital: true, digitalScore: 0.97, details: ['pdf-text-layer'] });
    expect(r.entities.tamperingDetection?.isTampered).toBe(false);
    const x = await engine.analyze(path.join(FIX, 'invoice.pdf'));
    expect(x.digitalDetection?.isDigital).toBe(true);
  });

  it('handwriting: generated text with jittered glyphs is called handwritten; the printed fixture is not', async () => {
    const r = await engine.extract(await handwritten(), { verbose: true, incognito: true }) as VerboseResult;
    expect(r.entities.handwritingDetection?.isHandwritten).toBe(true);
    expect(r.entities.handwritingDetection!.handwrittenScore).toBeGreaterThanOrEqual(0.5);
    const x = await engine.analyze(path.join(FIX, 'receipt-us.jpg'));
    expect(x.handwritingDetection).toMatchObject({ isHandwritten: false });
    expect(x.handwritingDetection!.handwrittenScore).toBeLessThan(0.3);
  });

  it('validation fails a pasted total with the signal in the reason, and passes the clean photo', async () => {
    const img = await decode(photo);
    const words = layout();
    const src = words[4]!.at(-1)!.box, dst = words[TOTAL_LINE]!.at(-1)!.box;
    const pad = 5, w = dst.x1 - dst.x0 + 2 * pad, h = dst.y1 - dst.y0 + 2 * pad;
    const pasted = await jpegOf(pasteRect(img, src.x1 + pad - w, src.y0 - pad, w, h, dst.x0 - pad, dst.y0 - pad));
    const rules = { fraudDetection: { allowTamperDetection: true, allowDigitalDetection: true } };
    const bad = await engine.validate(pasted, rules);
    expect(bad.failedValidations).toContain('fraud_detection_not_tampered_validated');
    expect(bad.reasons.fraud_detection_not_tampered_validated).toMatch(/^tampering detected \(score 0\.\d\d\): copy-move/);
    expect(bad.passedValidations).toContain('fraud_detection_not_digital_validated');
    const good = await engine.validate(photo, rules);
    expect(good.passedValidations).toEqual(expect.arrayContaining(['fraud_detection_not_tampered_validated', 'fraud_detection_not_digital_validated']));
  });
});
