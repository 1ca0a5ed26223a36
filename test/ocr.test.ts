/**
 * The OCR stage with real tesseract workers, on small receipts drawn here with sharp from SVG text
 * (needs the DejaVu fonts, Debian package fonts-dejavu-core).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Worker as NodeWorker } from 'node:worker_threads';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { OcrPool, defaultPoolSize, shareOut, withNewThread } from '../src/ocr/pool.js';
import type { OcrResult } from '../src/read/whole-page.js';
import { readWholePage, rereadLines } from '../src/read/whole-page.js';
import { resolveLanguages, toTesseractCode, findLanguageData, availableLanguages, countryLanguage } from '../src/ocr/languages.js';
import { textDirection, readingQuality } from '../src/ocr/orientation.js';
import { encodePgm, rotateGray, cropGray, ocrScale, loadWorkingImage, paperLevel, inkGrey, PHOTO_MIN_LONG_SIDE } from '../src/ocr/preprocess.js';
import { boxToPolygon } from '../src/document/geometry.js';
import type { Box, Polygon, Word } from '../src/document/types.js';
import { ReceiptKitError } from '../src/errors.js';
import type { RasterPage } from '../src/input/types.js';

const W = 600, H = 400, SIZE = 30, X0 = 40;
const ADVANCE = 0.602 * SIZE; // DejaVu Sans Mono advance width
const LINES: Array<[string, number]> = [['GROCERY MART', 60], ['MILK 2.50', 120], ['BREAD 3.10', 170], ['TOTAL 12.34', 240], ['CASH 20.00', 290], ['CHANGE 7.66', 340]];

/** Where a word of a drawn line is, upright frame (cap height ~0.73 em above the baseline). */
function drawnBox(line: string, word: string): Box {
  const [text, baseline] = LINES.find(([t]) => t === line)!;
  const i = text.indexOf(word);
  return { x0: X0 + i * ADVANCE, y0: baseline - 0.73 * SIZE, x1: X0 + (i + word.length) * ADVANCE, y1: baseline };
}

async function receiptPng(): Promise<Buffer> {
  const text = LINES.map(([t, y]) => `<text x="${X0}" y="${y}" font-family="DejaVu Sans Mono" font-size="${SIZE}" fill="#111">${t}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function rasterPage(png: Buffer, turn: 0 | 90 | 180 | 270 = 0, exifOrientation = 1): Promise<RasterPage> {
  const image = turn ? await sharp(png).rotate(turn).png().toBuffer() : png;
  const m = await sharp(image).metadata();
  const swapped = exifOrientation >= 5;
  return { kind: 'raster', index: 0, image, width: swapped ? m.height! : m.width!, height: swapped ? m.width! : m.height!, exifOrientation };
}

function findWord(r: OcrResult, text: string): Word | undefined {
  return r.page.lines.flatMap((l) => l.words).find((w) => w.text === text);
}

function polygonBounds(p: Polygon): Box {
  const xs = p.map((q) => q.x), ys = p.map((q) => q.y);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** Where an upright-frame box lands in an image made by turning the upright one `turn` degrees clockwise. */
function turnedBox(b: Box, turn: 0 | 90 | 180 | 270): Box {
  const corners = [[b.x0, b.y0], [b.x1, b.y1]].map(([x, y]) => {
    switch (turn) {
      case 0: return [x!, y!];
      case 90: return [H - y!, x!];
      case 180: return [W - x!, H - y!];
      case 270: return [y!, W - x!];
    }
  });
  const xs = corners.map((c) => c[0]!), ys = corners.map((c) => c[1]!);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

function expectNear(actual: Box, expected: Box, tol = 12): void {
  for (const k of ['x0', 'y0', 'x1', 'y1'] as const) expect(Math.abs(actual[k] - expected[k]), `${k}: ${actual[k]} vs ${expected[k]}`).toBeLessThanOrEqual(tol);
}

let png: Buffer;
let pool: OcrPool;
let staleFolder: string;
const cwdBefore = readdirSync(process.cwd());

beforeAll(async () => {
  // a language folder left by a killed process (its pid is gone): the first pool of this process sweeps it
  const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
  staleFolder = path.join(os.tmpdir(), `receiptkit-tessdata-${deadPid}-test`);
  mkdirSync(staleFolder, { recursive: true });
  png = await receiptPng();
  pool = new OcrPool({ size: 1 });
});
afterAll(async () => { await pool?.close(); });

describe('languages', () => {
  it('maps hints to tesseract codes', () => {
    expect(toTesseractCode('en')).toBe('eng');
    expect(toTesseractCode('EN-us')).toBe('eng');
    expect(toTesseractCode('eng')).toBe('eng');
    expect(toTesseractCode('fr')).toBe('fra');
    expect(toTesseractCode('de')).toBe('deu');
    expect(toTesseractCode('es')).toBe('spa');
    expect(toTesseractCode('id')).toBe('ind');
    expect(toTesseractCode('in')).toBe('ind');
    expect(toTesseractCode('ms')).toBe('msa');
    expect(toTesseractCode('jp')).toBe('jpn');
    expect(toTesseractCode('ja')).toBe('jpn');
    expect(toTesseractCode('zh')).toBe('chi_sim');
    expect(toTesseractCode('zh_TW')).toBe('chi_tra');
    expect(toTesseractCode('he')).toBe('heb');
    expect(toTesseractCode('iw')).toBe('heb');
    expect(toTesseractCode('th')).toBe('tha');
    expect(toTesseractCode('ar')).toBe('ara');
    expect(toTesseractCode('not a language')).toBeUndefined();
  });

  it('finds installed data offline (best_int folder) and lists it', () => {
    const eng = findLanguageData('eng')!;
    expect(eng.source).toBe('package');
    expect(eng.dir).toMatch(/4\.0\.0_best_int$/);
    expect(existsSync(eng.file)).toBe(true);
    expect(findLanguageData('tha')).toBeUndefined();
    expect(availableLanguages()).toEqual(expect.arrayContaining(['eng', 'fra', 'deu', 'ind']));
    expect(availableLanguages()).not.toContain('osd');
  });

  it("names a country's own language only when its data is installed", () => {
    expect(countryLanguage('ID')).toBe('ind');
    expect(countryLanguage('fr')).toBe('fra');
    expect(countryLanguage('TH')).toBeUndefined(); // not a Latin script: not an alternate reading
    expect(countryLanguage('PT')).toBeUndefined(); // por is not installed here
    expect(countryLanguage('US')).toBeUndefined();
    expect(countryLanguage('ID', '/nonexistent')).toBe('ind'); // an extra folder adds to the installed data
  });

  it('resolves hints, warns about unknown or missing ones and falls back to English', () => {
    expect(resolveLanguages(undefined)).toEqual({ codes: ['eng'], warnings: [] });
    expect(resolveLanguages('auto')).toEqual({ codes: ['eng'], warnings: [] });
    expect(resolveLanguages('fr')).toEqual({ codes: ['fra'], warnings: [] });
    expect(resolveLanguages(['in', 'en'])).toEqual({ codes: ['ind', 'eng'], warnings: [] });
    expect(resolveLanguages('de+fr').codes).toEqual(['deu', 'fra']);
    const th = resolveLanguages('th');
    expect(th.codes).toEqual(['eng']);
    expect(th.warnings.join(' ')).toMatch(/tha.*not installed.*English/);
    const mixed = resolveLanguages(['xx-unknown', 'fr']);
    expect(mixed.codes).toEqual(['fra']);
    expect(mixed.warnings).toHaveLength(1);
  });
});

describe('preprocessing and orientation helpers (no OCR)', () => {
  it('rotates, crops and encodes grey rasters exactly', () => {
    const img = { gray: Buffer.from([1, 2, 3, 4, 5, 6]), width: 3, height: 2 };
    expect([...rotateGray(img, 90).gray]).toEqual([4, 1, 5, 2, 6, 3]);
    expect([...rotateGray(img, 180).gray]).toEqual([6, 5, 4, 3, 2, 1]);
    expect([...rotateGray(img, 270).gray]).toEqual([3, 6, 2, 5, 1, 4]);
    expect([...cropGray(img, 1, 0, 2, 2).gray]).toEqual([2, 3, 5, 6]);
    const pgm = encodePgm(img);
    expect(pgm.subarray(0, 2).toString()).toBe('P5');
    expect(pgm.indexOf('\n3 2\n255\n')).toBeGreaterThan(500); // pixels start after tesseract.js's EXIF sniffing window
    expect(ocrScale(4000, 3000)).toBeCloseTo(0.5);
    expect(ocrScale(400, 700)).toBe(1);
  });

  it('tells horizontal from vertical text geometrically', async () => {
    const { data, info } = await sharp(png).grayscale().raw().toBuffer({ resolveWithObject: true });
    const img = { gray: data, width: info.width, height: info.height };
    const upright = textDirection(img);
    expect(upright.vertical).toBe(false);
    expect(upright.score).toBeGreaterThan(0.3);
    expect(textDirection(rotateGray(img, 90)).vertical).toBe(true);
    expect(textDirection(rotateGray(img, 180)).vertical).toBe(false);
  });

  it('tells photographed (grey) paper from a scan, and enlarges and equalises only the photo', async () => {
    expect(paperLevel({ gray: Buffer.alloc(100 * 100, 255), width: 100, height: 100 })).toBe(255);
    expect(paperLevel({ gray: Buffer.alloc(100 * 100, 200), width: 100, height: 100 })).toBe(200);
    const scan = await rasterPage(png);
    const plain = await loadWorkingImage(scan);
    expect(plain).toMatchObject({ photo: false, width: W, height: H, scale: 1, paperLevel: 255 });
    // the same receipt photographed: grey paper, uneven light
    const { data } = await sharp(png).removeAlpha().grayscale().raw().toBuffer({ resolveWithObject: true });
    const photoPx = Buffer.alloc(W * H);
    for (let i = 0; i < photoPx.length; i++) photoPx[i] = Math.round(170 + (data[i]! / 255) * 40 + 10 * ((i % W) / W)); // faded ink on grey paper
    const photoPng = await sharp(photoPx, { raw: { width: W, height: H, channels: 1 } }).png().toBuffer();
    const photo = await loadWorkingImage(await rasterPage(photoPng));
    expect(photo.photo).toBe(true);
    expect(photo.paperLevel).toBeLessThan(236);
    expect(Math.max(photo.width, photo.height)).toBe(PHOTO_MIN_LONG_SIDE);
    expect(photo.scale).toBeCloseTo(PHOTO_MIN_LONG_SIDE / W, 3);
    // equalised: ink and paper pulled apart
    const spread = (g: Buffer) => { const v = [...g].sort((a, b) => a - b); return v[Math.floor(v.length * 0.995)]! - v[Math.floor(v.length * 0.005)]!; };
    expect(spread(photoPx)).toBeLessThan(60);
    expect(spread(photo.gray)).toBeGreaterThan(spread(photoPx) * 1.25);
    const off = await loadWorkingImage(await rasterPage(photoPng), undefined, false);
    expect(off).toMatchObject({ photo: false, width: W, height: H });
  });

  it('enlarges a small white page only when its text is small, and never a fixed-size pass or a render', async () => {
    const page = async (size: number) => {
      const text = ['GROCERY MART', 'MILK 2.50', 'BREAD 3.10', 'TOTAL 12.34'].map((t, i) => `<text x="10" y="${20 + i * size * 1.6}" font-family="DejaVu Sans Mono" font-size="${size}" fill="#111">${t}</text>`).join('');
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
      return rasterPage(await sharp(Buffer.from(svg)).png().toBuffer());
    };
    const small = await loadWorkingImage(await page(9));
    expect(small.photo).toBe(false);
    expect(Math.max(small.width, small.height)).toBe(PHOTO_MIN_LONG_SIDE);
    expect(small.scale).toBeCloseTo(PHOTO_MIN_LONG_SIDE / 400, 2);
    // the same page with large text is read as it is
    expect(await loadWorkingImage(await page(28))).toMatchObject({ width: 300, height: 400, scale: 1 });
    // a pass at a fixed size keeps its size; a PDF render is never enlarged this way
    expect((await loadWorkingImage(await page(9), { maxLongSide: 600, minLongSide: 600, maxUpscale: 2 })).height).toBe(600);
    expect(await loadWorkingImage({ ...(await page(9)), renderScale: 1 })).toMatchObject({ width: 300, height: 400 });
  });

  it('greys coloured ink dark, and keeps grey, white, dark and bright colour at their luminance', async () => {
    const px: Array<[number, number, number]> = [
      [0, 0, 0], [255, 255, 255], [128, 128, 128], // black, white, grey
      [255, 153, 0], [0, 200, 255], // orange and cyan text: luminance about 160
      [200, 30, 30], // red text: darker still
      [255, 240, 0], [250, 240, 200], [200, 225, 245], // highlighter yellow, pale paper, a light blue band
    ];
    const rgb = Buffer.from(px.flat());
    const info = { width: px.length, height: 1, channels: 3 };
    const bw = await sharp(rgb, { raw: info }).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
    const luma = { gray: bw.data.subarray(0, px.length), width: px.length, height: 1 };
    const lumaBefore = [...luma.gray];
    const { gray, width, height } = inkGrey(rgb, info, luma);
    expect([width, height]).toEqual([px.length, 1]);
    expect([...gray.subarray(0, 3)]).toEqual(lumaBefore.slice(0, 3));
    expect(lumaBefore[3]).toBeGreaterThan(140); // what binarisation would take for paper
    expect(gray[3]).toBe(0);
    expect(gray[4]).toBe(0);
    expect(gray[5]).toBe(Math.min(lumaBefore[5]!, 255 - 170));
    expect([...gray.subarray(6)]).toEqual(lumaBefore.slice(6));
    expect([...luma.gray]).toEqual(lumaBefore); // the luminance raster is not written to
    // a page without coloured ink is the luminance raster itself, not a copy
    const grey = { gray: Buffer.from([0, 128, 255]), width: 3, height: 1 };
    expect(inkGrey(Buffer.from([0, 0, 0, 128, 128, 128, 255, 255, 255]), { width: 3, height: 1, channels: 3 }, grey)).toBe(grey);
  });

  it('scores a reading by its letter-and-digit words', () => {
    expect(readingQuality([{ text: 'TOTAL', confidence: 0.9 }, { text: '—', confidence: 0.1 }]).confidence).toBeCloseTo(0.9);
    expect(readingQuality([]).confidence).toBe(0);
  });
});

describe('OcrPool', () => {
  it('defaults to one worker per spare core (at least 1, at most 4)', () => {
    expect(defaultPoolSize()).toBeGreaterThanOrEqual(1);
    expect(defaultPoolSize()).toBeLessThanOrEqual(4);
  });

  it('reads orange text on white (luminance 166, which binarisation would drop)', async () => {
    const lines = [['AWS Data Transfer', '#ff9900'], ['Charges 0.01', '#000000'], ['Amazon Glacier', '#ff9900'], ['Charges 2.22', '#000000']];
    const text = lines.map(([t, c], i) => `<text x="40" y="${60 + i * 50}" font-family="DejaVu Sans" font-size="28" fill="${c}">${t}</text>`).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
    const r = await readWholePage(pool, await rasterPage(await sharp(Buffer.from(svg)).png().toBuffer()), { detectOrientation: false });
    const read = r.page.lines.map((l) => l.text);
    expect(read).toEqual(expect.arrayContaining(['AWS Data Transfer', 'Amazon Glacier', 'Charges 2.22']));
  });

  it('reads an upright receipt with words where they were drawn, reusing one worker', async () => {
    const r = await readWholePage(pool, await rasterPage(png));
    const text = r.page.lines.map((l) => l.text).join('\n');
    expect(text).toContain('TOTAL 12.34');
    expect(text).toContain('CHANGE 7.66');
    expect(r.rotation).toBe(0);
    expect(r.orientationConfidence).toBeGreaterThan(0.5);
    expect(r.page).toMatchObject({ index: 0, source: 'ocr', width: W, height: H, originalWidth: W, originalHeight: H, rotation: 0 });
    const total = findWord(r, '12.34')!;
    expect(total.confidence).toBeGreaterThan(0.5);
    expect(total.confidence).toBeLessThanOrEqual(1);
    expectNear(total.box, drawnBox('TOTAL 12.34', '12.34'));
    const line = r.page.lines.find((l) => l.text.startsWith('TOTAL'))!;
    expect(line.words.map((w) => w.text)).toEqual(['TOTAL', '12.34']);
    expect(line.confidence).toBeGreaterThan(0.5);
    // second call: same worker
    const again = await readWholePage(pool, await rasterPage(png), { detectOrientation: false });
    expect(again.rotation).toBe(0);
    expect(again.orientationConfidence).toBe(0);
    expect(pool.workersCreated).toBe(1);
    expect(pool.workers).toBe(1);
    expect(pool.pending).toBe(0);
  });

  it('reads a region of a known page only, its words in the whole page\'s upright frame (also on a turned page)', async () => {
    for (const turn of [0, 90] as const) {
      const page = await rasterPage(png, turn);
      const rotation = ((360 - turn) % 360) as 0 | 90 | 180 | 270;
      // the lower half of the upright page: TOTAL, CASH and CHANGE, not the name or the items
      const r = await readWholePage(pool, page, { rotation, region: { x0: 0, y0: 200, x1: W, y1: H } });
      const text = r.page.lines.map((l) => l.text).join('\n');
      expect(text).toContain('TOTAL 12.34');
      expect(text).toContain('CHANGE 7.66');
      expect(text).not.toContain('GROCERY');
      expect(text).not.toContain('MILK');
      expect(r.page).toMatchObject({ width: W, height: H, rotation });
      expectNear(findWord(r, '12.34')!.box, drawnBox('TOTAL 12.34', '12.34'));
    }
  });

  it('reads one line again at several text heights, boxes in the upright frame (also on a turned page)', async () => {
    for (const turn of [0, 90] as const) {
      const page = await rasterPage(png, turn);
      const r = await readWholePage(pool, page);
      const line = r.page.lines.find((l) => l.text.startsWith('TOTAL'))!;
      const [reads, other] = await rereadLines(pool, page, r.rotation, [line.box, r.page.lines[0]!.box], [36, 48, 64]);
      expect(reads).toHaveLength(3);
      expect(other!.map((ws) => ws.map((w) => w.text).join(' '))).toEqual(['GROCERY MART', 'GROCERY MART', 'GROCERY MART']);
      for (const words of reads) {
        expect(words.map((w) => w.text).join(' ')).toBe('TOTAL 12.34');
        expectNear(words[1]!.box, drawnBox('TOTAL 12.34', '12.34'));
      }
    }
    // a line too small to read again gives nothing
    expect(await rereadLines(pool, await rasterPage(png), 0, [{ x0: 10, y0: 10, x1: 50, y1: 12 }], [48])).toEqual([[]]);
    expect(pool.pending).toBe(0);
  });

  it('reads lines again on two workers at once, with the same words in the same order as on one', async () => {
    const page = await rasterPage(png);
    const r = await readWholePage(pool, page, { detectOrientation: false });
    const boxes = r.page.lines.map((l) => l.box);
    expect(boxes.length).toBeGreaterThanOrEqual(5);
    const one = await rereadLines(pool, page, 0, boxes, [36, 48]);
    const two = new OcrPool({ size: 2 });
    try {
      const both = await rereadLines(two, page, 0, boxes, [36, 48]);
      expect(two.workersCreated).toBe(2); // the lines were shared out
      expect(both).toEqual(one);
      expect(both.map((reads) => reads[1]!.map((w) => w.text).join(' '))).toEqual(r.page.lines.map((l) => l.text));
    } finally {
      await two.close();
    }
  });

  it('shares regions out in contiguous runs, in order', () => {
    expect(shareOut([1, 2, 3, 4, 5], 2)).toEqual([[1, 2, 3], [4, 5]]);
    expect(shareOut([1, 2, 3], 4)).toEqual([[1], [2], [3]]);
    expect(shareOut([], 2)).toEqual([[]]);
    expect(shareOut([1, 2], 1)).toEqual([[1, 2]]);
  });

  for (const turn of [90, 180] as const) {
    it(`finds a page turned ${turn}° and maps boxes back to the original pixels`, async () => {
      const r = await readWholePage(pool, await rasterPage(png, turn));
      const back = ((360 - turn) % 360) as 0 | 90 | 180 | 270;
      expect(r.rotation).toBe(back);
      expect(r.page.rotation).toBe(back);
      expect(r.page.lines.map((l) => l.text).join('\n')).toContain('TOTAL 12.34');
      expect([r.page.width, r.page.height]).toEqual([W, H]);
      expect([r.page.originalWidth, r.page.originalHeight]).toEqual(turn === 180 ? [W, H] : [H, W]);
      const word = findWord(r, '12.34')!;
      expectNear(word.box, drawnBox('TOTAL 12.34', '12.34'));
      expectNear(polygonBounds(boxToPolygon(word.box, r.page)), turnedBox(drawnBox('TOTAL 12.34', '12.34'), turn));
      expect(pool.workersCreated).toBe(1);
    });
  }

  it('applies the EXIF orientation before anything else', async () => {
    // pixels stored turned 90° clockwise with EXIF 8 ("rotate 270° clockwise to display"): displays upright
    const stored = await sharp(png).rotate(90).withMetadata({ orientation: 8 }).jpeg({ quality: 95 }).toBuffer();
    const page: RasterPage = { kind: 'raster', index: 0, image: stored, width: W, height: H, exifOrientation: 8 };
    const r = await readWholePage(pool, page);
    expect(r.rotation).toBe(0);
    expect(r.page.lines.map((l) => l.text).join('\n')).toContain('TOTAL 12.34');
    expectNear(findWord(r, '12.34')!.box, drawnBox('TOTAL 12.34', '12.34'));
  });

  it('switches languages on the same worker and warns about an unavailable one', async () => {
    const fr = await readWholePage(pool, await rasterPage(png), { languages: ['fr'], detectOrientation: false });
    expect(fr.warnings).toEqual([]);
    expect(fr.page.lines.map((l) => l.text).join('\n')).toMatch(/TOTAL 12[.,]34/);
    const th = await readWholePage(pool, await rasterPage(png), { languages: ['th'], detectOrientation: false });
    expect(th.warnings.join(' ')).toMatch(/tha/);
    expect(th.page.lines.map((l) => l.text).join('\n')).toContain('TOTAL 12.34');
    expect(pool.workersCreated).toBe(1);
  });

  it('warm() starts one worker ahead of the first page, once, and the page uses it', async () => {
    const p = new OcrPool({ size: 2 });
    try {
      p.warm();
      p.warm(); // already starting: no second worker
      const t0 = performance.now();
      while (p.workers === 0 && performance.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 20));
      expect(p.workers).toBe(1);
      expect(p.workersCreated).toBe(1);
      p.warm(); // one is there: nothing new
      const r = await readWholePage(p, await rasterPage(png), { detectOrientation: false });
      expect(r.page.lines.map((l) => l.text).join('\n')).toContain('TOTAL');
      expect(p.workersCreated).toBe(1);
    } finally {
      await p.close();
    }
    p.warm(); // closed: no worker
    expect(p.workers).toBe(0);
  });

  it('close() while a worker is starting (a warm-up) ends its thread before it resolves', async () => {
    const threads: NodeWorker[] = [];
    const onWorker = (w: NodeWorker) => threads.push(w);
    process.on('worker', onWorker);
    try {
      const p = new OcrPool({ size: 1 });
      p.warm();
      await new Promise((r) => setImmediate(r)); // the thread exists (announced on the next tick)
      expect(threads).toHaveLength(1);
      expect(threads[0]!.threadId).toBeGreaterThan(0);
      await p.close();
      expect(threads[0]!.threadId).toBe(-1); // Node sets -1 once a thread has exited
      expect(p.workers).toBe(0);
    } finally {
      process.off('worker', onWorker);
    }
  });

  it('a worker whose language data fails to load is reported and its thread ended (tesseract.js leaves it running)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-badlang-'));
    writeFileSync(path.join(dir, 'eng.traineddata'), Buffer.from('this is not traineddata'.repeat(100)));
    const threads: NodeWorker[] = [];
    const onWorker = (w: NodeWorker) => threads.push(w);
    process.on('worker', onWorker);
    const p = new OcrPool({ size: 1, langPath: dir });
    try {
      const err = await readWholePage(p, await rasterPage(png), { detectOrientation: false }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ReceiptKitError);
      expect((err as ReceiptKitError).message).toMatch(/could not start/);
      expect(threads.length).toBeGreaterThanOrEqual(1);
      for (const t of threads) expect(t.threadId).toBe(-1);
    } finally {
      process.off('worker', onWorker);
      await p.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('withNewThread finds the thread a start created, not one created before it', async () => {
    const before = new NodeWorker('setTimeout(() => {}, 50)', { eval: true });
    const { value, thread } = withNewThread(() => new NodeWorker('setTimeout(() => {}, 50)', { eval: true }));
    expect(await thread).toBe(value);
    expect((await thread)!.threadId).toBeGreaterThan(before.threadId);
    expect(await withNewThread(() => 1).thread).toBeUndefined();
    await Promise.all([before.terminate(), value.terminate()]);
  });

  it('retires a worker after maxCallsPerWorker calls and starts a new one for the next page', async () => {
    const p = new OcrPool({ size: 1, maxCallsPerWorker: 2 });
    try {
      const page = await rasterPage(png);
      await readWholePage(p, page, { detectOrientation: false });
      expect(p.workersCreated).toBe(1);
      await readWholePage(p, page, { detectOrientation: false });
      expect(p.workers).toBe(0); // retired after its second call
      const r = await readWholePage(p, page, { detectOrientation: false });
      expect(r.page.lines.map((l) => l.text).join('\n')).toContain('TOTAL');
      expect(p.workersCreated).toBe(2);
    } finally {
      await p.close();
    }
  });

  it('replaces a worker whose call failed', async () => {
    const p = new OcrPool({ size: 1 });
    try {
      await readWholePage(p, await rasterPage(png), { detectOrientation: false });
      const slot = (p as unknown as { threads: { slots: Array<{ worker: { recognize: () => Promise<never> } }> } }).threads.slots[0]!;
      slot.worker.recognize = () => Promise.reject(new Error('boom'));
      await expect(readWholePage(p, await rasterPage(png), { detectOrientation: false })).rejects.toMatchObject({ code: 'UNREADABLE_FILE' });
      expect(p.workers).toBe(0);
      const r = await readWholePage(p, await rasterPage(png), { detectOrientation: false });
      expect(r.page.lines.length).toBeGreaterThan(3);
      expect(p.workersCreated).toBe(2);
    } finally {
      await p.close();
    }
  });

  it('rejects aborted calls with TIMEOUT and bad images with UNREADABLE_FILE', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(readWholePage(pool, await rasterPage(png), { signal: ac.signal })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const junk: RasterPage = { kind: 'raster', index: 0, image: Buffer.from('not an image'), width: 10, height: 10, exifOrientation: 1 };
    await expect(readWholePage(pool, junk)).rejects.toMatchObject({ code: 'UNREADABLE_FILE' });
    expect(pool.workers).toBe(1);
  });

  it('close() is idempotent, removes its language folder, and later calls reject with ENGINE_CLOSED', async () => {
    const p = new OcrPool({ size: 1 });
    await readWholePage(p, await rasterPage(png), { detectOrientation: false });
    const page = await rasterPage(png);
    const running = readWholePage(p, page).catch((e: unknown) => e);
    const waiting = readWholePage(p, page).catch((e: unknown) => e);
    // close while the first call is inside tesseract and the second waits for the worker
    const slots = (p as unknown as { threads: { slots: Array<{ busy: boolean }> } }).threads.slots;
    for (let i = 0; i < 400 && !(slots.some((s) => s.busy) && p.pending === 2); i++) await new Promise((r) => setTimeout(r, 5));
    expect(slots.some((s) => s.busy)).toBe(true);
    expect(p.pending).toBe(2);
    const folder = (p as unknown as { threads: { folder: string } }).threads.folder;
    expect(existsSync(folder)).toBe(true);
    await p.close();
    await p.close();
    expect(existsSync(folder)).toBe(false);
    for (const e of [await running, await waiting]) expect(e).toMatchObject({ code: 'ENGINE_CLOSED' });
    expect(p.pending).toBe(0);
    expect(p.workers).toBe(0);
    const err = await readWholePage(p, await rasterPage(png)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReceiptKitError);
    expect((err as ReceiptKitError).code).toBe('ENGINE_CLOSED');
  });

  it('sweeps language folders left behind by dead processes', () => {
    expect(existsSync(staleFolder)).toBe(false);
  });

  it('writes nothing into the working directory', () => {
    expect(readdirSync(process.cwd()).filter((f) => !cwdBefore.includes(f))).toEqual([]);
  });
});
