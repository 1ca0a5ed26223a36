/**
 * Finding the paper in a photo (src/ocr/paper.ts) on images drawn here with sharp: a white sheet with
 * dark text-like bars, tilted, on a noisy coloured table; a full-page scan; a sheet on a tablecloth whose
 * light checks touch it. No corpus files, no fonts. And the page's pixels decoded once (page-pixels.ts).
 */
import { describe, it, expect } from 'vitest';
import sharp from 'sharp';
import {
  PAPER_RULES, closeMask, convexHull, cropGain, decodeFrame, fillHoles, findPaper, foldAngle, largestRegion,
  minAreaRectangle, openMask, otsuThreshold, paperAnalysisCopy, paperContrast, paperFrame, paperFrameOf, rectCorners,
} from '../src/ocr/paper.js';
import type { PaperMeasures } from '../src/ocr/paper.js';
import { DEFAULT_SCALING, PAPER_MAX_LONG_SIDE, PAPER_MIN_LONG_SIDE, loadWorkingImage, lookForPaper, paperScale, paperScaling } from '../src/ocr/preprocess.js';
import { SHRINK_ON_LOAD_MAX_SCALE, decodeWhole, pagePixels } from '../src/ocr/page-pixels.js';
import { boxToPolygon, toOriginalPoint } from '../src/document/geometry.js';
import type { RasterPage } from '../src/input/types.js';
import { rng } from './generators/rng.ts';

/** A receipt: white sheet with rows of dark bars (lines of print), as PNG. */
async function sheet(width: number, height: number, shade = 250): Promise<Buffer> {
  const bars: string[] = [];
  for (let y = 40, k = 0; y < height - 40; y += 34, k++) {
    bars.push(`<rect x="30" y="${y}" width="${Math.round((width - 60) * (0.45 + 0.4 * ((k * 37) % 10) / 10))}" height="14" fill="#202020"/>`);
    if (k % 3 === 0) bars.push(`<rect x="${width - 150}" y="${y}" width="110" height="14" fill="#202020"/>`);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="rgb(${shade},${shade},${shade - 4})"/>${bars.join('')}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A table: noise around a colour (or checks of a colour and a light base), RGB raw. */
function table(width: number, height: number, seed: number, kind: 'noise' | 'checks' = 'noise'): Buffer {
  const r = rng(seed);
  const px = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
    const i = (y * width + x) * 3;
    const n = (r() - 0.5) * 60;
    let c: [number, number, number];
    if (kind === 'checks') {
      const light = (Math.floor(x / 60) + Math.floor(y / 60)) % 2 === 0;
      c = light ? [228, 226, 218] : [40, 110, 60];
    } else c = [130, 85, 50];
    px[i] = Math.max(0, Math.min(255, c[0] + n));
    px[i + 1] = Math.max(0, Math.min(255, c[1] + n));
    px[i + 2] = Math.max(0, Math.min(255, c[2] + n));
  }
  return px;
}

interface Photo { page: RasterPage; centre: [number, number]; size: [number, number] }

/** A photo (JPEG) of a sheet of `size` turned `angle` degrees clockwise, centred at `centre`, on a table. */
async function photo(opts: { width: number; height: number; size: [number, number]; angle: number; centre: [number, number]; kind?: 'noise' | 'checks'; orientation?: number }): Promise<Photo> {
  const { width, height, size, angle, centre } = opts;
  const turned = await sharp(await sheet(size[0], size[1])).ensureAlpha().rotate(angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } }).png().toBuffer({ resolveWithObject: true });
  const left = Math.round(centre[0] - turned.info.width / 2), top = Math.round(centre[1] - turned.info.height / 2);
  let img = sharp(table(width, height, 7, opts.kind), { raw: { width, height, channels: 3 } }).composite([{ input: turned.data, left, top }]);
  let stored = await img.jpeg({ quality: 90 }).toBuffer();
  if (opts.orientation === 6) {
    // stored sideways, displayed upright: the camera's way
    img = sharp(stored).rotate(270).withMetadata({ orientation: 6 });
    stored = await img.jpeg({ quality: 90 }).toBuffer();
  }
  return { page: { kind: 'raster', index: 0, image: stored, width, height, exifOrientation: opts.orientation ?? 1 }, centre, size };
}

describe('findPaper on drawn photos', () => {
  for (const angle of [6, -4]) {
    it(`finds a sheet turned ${angle}° on a noisy table: its centre, size and angle`, async () => {
      const p = await photo({ width: 1200, height: 1600, size: [500, 900], angle, centre: [560, 820] });
      const frame = await paperFrameOf(p.page, 1200, 1600);
      expect(frame).toBeDefined();
      expect(Math.abs(frame!.angle - angle)).toBeLessThan(1);
      expect(Math.abs(frame!.cx - p.centre[0])).toBeLessThan(0.02 * 1200);
      expect(Math.abs(frame!.cy - p.centre[1])).toBeLessThan(0.02 * 1600);
      // the frame is the sheet and a small margin
      expect(frame!.width).toBeGreaterThan(p.size[0] * 0.98);
      expect(frame!.width).toBeLessThan(p.size[0] * 1.1);
      expect(frame!.height).toBeGreaterThan(p.size[1] * 0.98);
      expect(frame!.height).toBeLessThan(p.size[1] * 1.1);
    });
  }

  it('crops a nearly straight sheet without turning it (the box around it)', async () => {
    const p = await photo({ width: 1200, height: 1600, size: [500, 900], angle: 0.4, centre: [600, 800] });
    const copy = await paperAnalysisCopy(p.page);
    const found = findPaper(copy);
    expect(found.frame).toBeDefined();
    const frame = paperFrame(found.frame!, 1200 / copy.width, 1200, 1600);
    expect(frame.angle).toBe(0);
    expect(frame.cx - frame.width / 2).toBeLessThanOrEqual(350);
    expect(frame.cx + frame.width / 2).toBeGreaterThanOrEqual(850);
    expect(frame.cy - frame.height / 2).toBeLessThanOrEqual(350);
    expect(frame.cy + frame.height / 2).toBeGreaterThanOrEqual(1250);
  });

  it('leaves a full-page scan alone (the paper fills it)', async () => {
    const page = await sheet(850, 1100);
    const jpeg = await sharp(page).jpeg().toBuffer();
    const copy = await paperAnalysisCopy({ kind: 'raster', index: 0, image: jpeg, width: 850, height: 1100, exifOrientation: 1 });
    const found = findPaper(copy);
    expect(found.frame).toBeUndefined();
    expect(found.declined).toBe('coverage-max');
  });

  it('leaves a sheet on a table of about its own brightness alone', async () => {
    const width = 900, height = 1200;
    const grey = Buffer.alloc(width * height * 3);
    const r = rng(3);
    for (let i = 0; i < grey.length; i++) grey[i] = 238 + Math.round((r() - 0.5) * 10);
    const jpeg = await sharp(grey, { raw: { width, height, channels: 3 } }).composite([{ input: await sheet(400, 700), left: 250, top: 250 }]).jpeg().toBuffer();
    const found = findPaper(await paperAnalysisCopy({ kind: 'raster', index: 0, image: jpeg, width, height, exifOrientation: 1 }));
    expect(found.frame).toBeUndefined();
  });

  it('sheds a tablecloth\'s light checks that touch the sheet', async () => {
    const p = await photo({ width: 1200, height: 1600, size: [520, 900], angle: 3, centre: [600, 800], kind: 'checks' });
    const found = findPaper(await paperAnalysisCopy(p.page));
    expect(found.frame).toBeDefined();
    // the frame holds the sheet and at most a check's width more on a side, not the cloth around it
    const s = 640 / 1600, r = found.measures!.rect;
    expect(Math.abs(r.cx - 600 * s)).toBeLessThan(0.03 * 640);
    expect(r.width / s).toBeGreaterThan(520 * 0.98);
    expect(r.width / s).toBeLessThan(520 + 2 * 60 + 20);
    expect(r.height / s).toBeGreaterThan(900 * 0.98);
    expect(r.height / s).toBeLessThan(900 + 2 * 60 + 20);
  });
});

describe('the working image of a photo with paper', () => {
  it('is the straightened sheet, and boxes map back to the photo through the frame', async () => {
    const p = await photo({ width: 1800, height: 2400, size: [750, 1350], angle: 5, centre: [840, 1230], orientation: 6 });
    const work = await loadWorkingImage(p.page);
    expect(work.paper).toBeDefined();
    expect(work.originalWidth).toBe(work.paper!.width);
    expect(work.originalHeight).toBe(work.paper!.height);
    // the sheet's print, straightened, makes rows of ink: a row profile with deep contrast
    const rowInk: number[] = Array.from({ length: work.height }, (_, y) => {
      let dark = 0;
      for (let x = 0; x < work.width; x++) if (work.gray[y * work.width + x]! < 128) dark++;
      return dark / work.width;
    });
    // (the margin's strips of table are dark in every row: about 6 % of the width)
    const inkRows = rowInk.filter((v) => v > 0.3).length, clearRows = rowInk.filter((v) => v < 0.12).length;
    expect(inkRows).toBeGreaterThan(work.height * 0.2);
    expect(clearRows).toBeGreaterThan(work.height * 0.3);
    // the centre of the frame is the centre of the sheet in the photo
    const page = { rotation: 0 as const, originalWidth: 1800, originalHeight: 2400, paper: work.paper };
    const c = toOriginalPoint({ x: work.paper!.width / 2, y: work.paper!.height / 2 }, page);
    expect(Math.abs(c.x - 840)).toBeLessThan(35);
    expect(Math.abs(c.y - 1230)).toBeLessThan(45);
    // a box along the sheet's top edge comes back turned like the sheet: its right end lower than its left
    const poly = boxToPolygon({ x0: 20, y0: 20, x1: work.paper!.width - 20, y1: 40 }, page);
    const drop = poly[1].y - poly[0].y, run = poly[1].x - poly[0].x;
    expect((Math.atan2(drop, run) * 180) / Math.PI).toBeCloseTo(work.paper!.angle, 0);
  });

  it('straightening makes the print level (row profile sharper than the same crop unturned)', async () => {
    const p = await photo({ width: 1200, height: 1600, size: [500, 900], angle: 7, centre: [600, 800] });
    const frame = (await paperFrameOf(p.page, 1200, 1600))!;
    const sharpness = async (angle: number) => {
      const { data, info } = await decodeFrame(p.page, { ...frame, angle }, 0.5);
      const rows: number[] = [];
      for (let y = 0; y < info.height; y++) {
        let s = 0;
        for (let x = 0; x < info.width; x++) s += data[(y * info.width + x) * info.channels]!;
        rows.push(s / info.width);
      }
      const mean = rows.reduce((a, b) => a + b, 0) / rows.length;
      return rows.reduce((a, b) => a + (b - mean) ** 2, 0) / rows.length; // variance of the row means
    };
    expect(await sharpness(frame.angle)).toBeGreaterThan(2 * (await sharpness(0)));
  });

  it('a paper frame is read at most PAPER_MAX_LONG_SIDE long unless the whole photo gave it more; passes in proportion; full-resolution re-reads as they are', async () => {
    expect(paperScaling(DEFAULT_SCALING).maxLongSide).toBe(PAPER_MAX_LONG_SIDE);
    // a pass at a fixed size keeps its proportion to the first reading: 2800 for a page, 1960 for a paper
    expect(paperScaling({ maxLongSide: 2800, minLongSide: 2800, maxUpscale: 2 })).toEqual({ maxLongSide: 1960, minLongSide: 1960, maxUpscale: 2 });
    const reread = { maxLongSide: 4000, minLongSide: 0, maxUpscale: 1 };
    expect(paperScaling(reread)).toEqual(reread);
    // a sheet small in a large photo: enlarged to PAPER_MAX_LONG_SIDE (its scale in the whole photo was 2000/3200)
    const big = await photo({ width: 2400, height: 3200, size: [1000, 1800], angle: 3, centre: [1200, 1600] });
    const work = await loadWorkingImage(big.page);
    expect(work.paper).toBeDefined();
    expect(Math.max(work.width, work.height)).toBeLessThanOrEqual(PAPER_MAX_LONG_SIDE);
    expect(Math.max(work.width, work.height)).toBeGreaterThan(PAPER_MAX_LONG_SIDE - 2);
    // a paper that fills most of its photo keeps the photo's scale: no fewer pixels than read whole
    expect(paperScale({ width: 2000, height: 2900 }, 2400, 3200, DEFAULT_SCALING)).toBeCloseTo(2000 / 3200, 6);
    expect(paperScale({ width: 1000, height: 1900 }, 2400, 3200, DEFAULT_SCALING)).toBeCloseTo(PAPER_MAX_LONG_SIDE / 1900, 6);
  });

  it('a large scan keeps its whole image', async () => {
    const jpeg = await sharp(await sheet(1700, 2300)).jpeg().toBuffer();
    const page: RasterPage = { kind: 'raster', index: 0, image: jpeg, width: 1700, height: 2300, exifOrientation: 1 };
    expect(lookForPaper(page, 1700, 2300)).toBe(true);
    const work = await loadWorkingImage(page);
    expect(work.paper).toBeUndefined();
    expect([work.originalWidth, work.originalHeight]).toEqual([1700, 2300]);
  });

  it('a rendered PDF page is never cut to a paper', async () => {
    const p = await photo({ width: 1800, height: 2400, size: [750, 1350], angle: 5, centre: [840, 1230] });
    expect((await loadWorkingImage({ ...p.page, image: Buffer.from(p.page.image) })).paper).toBeDefined();
    const work = await loadWorkingImage({ ...p.page, image: Buffer.from(p.page.image), renderScale: 300 / 72 });
    expect(work.paper).toBeUndefined();
  });

  it('a photo no larger than reading needs (long side up to PAPER_MIN_LONG_SIDE) is read whole', async () => {
    const p = await photo({ width: 1200, height: PAPER_MIN_LONG_SIDE, size: [500, 1000], angle: 5, centre: [600, 1000] });
    expect(await paperFrameOf({ ...p.page, image: Buffer.from(p.page.image) }, 1200, PAPER_MIN_LONG_SIDE)).toBeDefined(); // there is a paper
    expect(lookForPaper(p.page, 1200, PAPER_MIN_LONG_SIDE)).toBe(false);
    const work = await loadWorkingImage(p.page);
    expect(work.paper).toBeUndefined();
    expect([work.originalWidth, work.originalHeight]).toEqual([1200, PAPER_MIN_LONG_SIDE]);
  });
});

describe('paper geometry and rules', () => {
  const measures = (over: Partial<PaperMeasures>): PaperMeasures => ({
    coverage: 0.4, rectangularity: 0.95, contrast: 100, paperLevel: 220, cropGain: 0.5, sidesSeen: 4, shrunk: false, outlineSides: 4, rect: { cx: 0, cy: 0, width: 1, height: 1, angle: 0 }, ...over,
  });
  const rule = (name: string) => PAPER_RULES.find((r) => r.name === name)!;

  it('each rule passes a typical photo and fails its own counter-example', () => {
    for (const r of PAPER_RULES) expect(r.test(measures({}))).toBe(true);
    expect(rule('coverage-min').test(measures({ coverage: 0.03 }))).toBe(false);
    expect(rule('coverage-max').test(measures({ coverage: 0.97 }))).toBe(false);
    expect(rule('rectangular').test(measures({ rectangularity: 0.6 }))).toBe(false);
    expect(rule('contrast').test(measures({ contrast: 20 }))).toBe(false);
    expect(rule('crop-gain').test(measures({ cropGain: 0.05 }))).toBe(false);
    expect(rule('outline').test(measures({ sidesSeen: 2 }))).toBe(false);
    expect(rule('whole-outline').test(measures({ shrunk: true, sidesSeen: 3, outlineSides: 4 }))).toBe(false);
    expect(rule('whole-outline').test(measures({ shrunk: true, sidesSeen: 4, outlineSides: 3 }))).toBe(false);
    expect(rule('whole-outline').test(measures({ shrunk: false, sidesSeen: 3 }))).toBe(true);
  });

  it('minAreaRectangle recovers a turned rectangle from its corners', () => {
    const corners = rectCorners({ cx: 100, cy: 200, width: 80, height: 150, angle: 12 });
    const r = minAreaRectangle(convexHull(corners.map(([x, y]) => [x, y] as [number, number])));
    expect(r.angle).toBeCloseTo(12, 5);
    expect(r.width).toBeCloseTo(80, 5);
    expect(r.height).toBeCloseTo(150, 5);
    expect(r.cx).toBeCloseTo(100, 5);
    expect(r.cy).toBeCloseTo(200, 5);
  });

  it('foldAngle keeps the angle within [-45, 45) and swaps the sides on a quarter turn', () => {
    expect(foldAngle({ cx: 0, cy: 0, width: 10, height: 20, angle: 80 })).toEqual({ cx: 0, cy: 0, width: 20, height: 10, angle: -10 });
    expect(foldAngle({ cx: 0, cy: 0, width: 10, height: 20, angle: -170 })).toMatchObject({ width: 10, height: 20, angle: 10 });
  });

  it('otsuThreshold separates two populations', () => {
    const v = new Uint8Array(1000);
    for (let i = 0; i < 1000; i++) v[i] = i < 400 ? 40 + (i % 20) : 200 + (i % 30);
    const t = otsuThreshold(v);
    expect(t).toBeGreaterThanOrEqual(59);
    expect(t).toBeLessThan(200);
  });

  it('closing fills a thin dark gap, opening sheds a thin bright bump, fillHoles fills an enclosed hole', () => {
    const w = 20, h = 20;
    const block = new Uint8Array(w * h);
    for (let y = 4; y < 16; y++) for (let x = 4; x < 16; x++) block[y * w + x] = 1;
    const gap = Uint8Array.from(block);
    for (let y = 4; y < 16; y++) gap[y * w + 10] = 0;
    expect(closeMask(gap, w, h, 1)[8 * w + 10]).toBe(1);
    const bump = Uint8Array.from(block);
    for (let x = 16; x < 19; x++) bump[10 * w + x] = 1;
    const opened = openMask(bump, w, h, 2);
    expect(opened[10 * w + 17]).toBe(0);
    expect(opened[10 * w + 10]).toBe(1);
    const ring = Uint8Array.from(block);
    for (let y = 8; y < 12; y++) for (let x = 8; x < 12; x++) ring[y * w + x] = 0;
    const filled = fillHoles(ring, w, h);
    expect(filled.area).toBe(144);
    expect(largestRegion(ring, w, h).area).toBe(144 - 16);
  });

  it('paperContrast takes the least contrasted side, and counts only the sides whose band lies in the image', () => {
    const w = 100, h = 100;
    const paper = new Uint8Array(w * h).fill(30); // a dark table
    const region = new Uint8Array(w * h);
    for (let y = 20; y < 80; y++) for (let x = 30; x < 70; x++) { paper[y * w + x] = 220; region[y * w + x] = 1; }
    const rect = { cx: 50, cy: 50, width: 40, height: 60, angle: 0 };
    expect(paperContrast(paper, region, rect, w, h, 5)).toEqual({ contrast: 190, paperLevel: 220, sidesSeen: 4 });
    // the paper runs on below, in shadow: that side is paper-like
    for (let y = 80; y < 100; y++) for (let x = 30; x < 70; x++) paper[y * w + x] = 170;
    expect(paperContrast(paper, region, rect, w, h, 5).contrast).toBe(50);
    // a rectangle at the image's top edge: its top side is not seen
    const top = new Uint8Array(w * h);
    for (let y = 0; y < 60; y++) for (let x = 30; x < 70; x++) top[y * w + x] = 1;
    expect(paperContrast(paper, top, { cx: 50, cy: 30, width: 40, height: 60, angle: 0 }, w, h, 5).sidesSeen).toBe(3);
  });

  it('cropGain is the share of the image outside the frame', () => {
    expect(cropGain({ cx: 50, cy: 50, width: 50, height: 100, angle: 0 }, 100, 100)).toBeCloseTo(0.5, 1);
    expect(cropGain({ cx: 50, cy: 50, width: 200, height: 200, angle: 0 }, 100, 100)).toBe(0);
  });

  it('toOriginalPoint goes through the paper frame after undoing a quarter turn', () => {
    const paper = { imageWidth: 1000, imageHeight: 2000, cx: 400, cy: 900, width: 300, height: 600, angle: 90 - 90 };
    // a frame turned 90° to read upright: upright (x, y) came from frame (y, H - x)
    const p = toOriginalPoint({ x: 600, y: 0 }, { rotation: 90, originalWidth: 1000, originalHeight: 2000, paper });
    // frame point (0, 0): the frame's top-left, at the centre minus half its size
    expect(p).toEqual({ x: 250, y: 600 });
  });
});

describe('page pixels: one full-resolution decode per page', () => {
  it('scales above shrink-on-load come from one shared decode, with the pixels a direct decode gives', async () => {
    const p = await photo({ width: 1200, height: 1600, size: [500, 900], angle: 5, centre: [560, 820] });
    const size = { width: 1200, height: 1600 };
    const full = await pagePixels(p.page, size, undefined, 1);
    expect(await pagePixels(p.page, size, undefined, 1)).toBe(full); // the same buffer, not decoded again
    const shared = await pagePixels(p.page, size, undefined, 0.75);
    const direct = await decodeWhole(p.page, size, 0.75);
    expect([shared.info.width, shared.info.height]).toEqual([900, 1200]);
    expect(Buffer.compare(shared.data, direct.data)).toBe(0);
    // a paper frame's too
    const frame = (await paperFrameOf(p.page, 1200, 1600))!;
    const fullFrame = await pagePixels(p.page, size, frame, 1);
    expect(await pagePixels(p.page, size, frame, 1)).toBe(fullFrame);
    expect([fullFrame.info.width, fullFrame.info.height]).toEqual([frame.width, frame.height]);
    // at or below SHRINK_ON_LOAD_MAX_SCALE: decoded directly at that size
    const small = await pagePixels(p.page, size, undefined, SHRINK_ON_LOAD_MAX_SCALE);
    expect([small.info.width, small.info.height]).toEqual([600, 800]);
  });
});
