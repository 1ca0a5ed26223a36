// A bench engine (`node bench/run.mjs --engine bench/replay-engine.mjs`) that is the real engine with
// its OCR readers' answers recorded to, and replayed from, a folder (RK_OCR_CACHE, default
// .bench-tmp/ocr-cache). OCR is deterministic for the same pixels and options, so a replayed run gives
// the same fields as a live one while every later stage (fields, resolution, combining, fraud) runs for
// real; a reading the cache does not hold (a rule asked for another line) is made live and recorded.
// For developing field rules on the whole corpus in minutes; the reported times are not OCR times.
// RK_OCR_CACHE_MODE=record (default: read and record) | off (live, nothing recorded).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { createEngine: createReal } = await import(process.env.RK_DIST ?? path.join(here, '../dist/index.js'));
const DIR = process.env.RK_OCR_CACHE ?? path.join(here, '../.bench-tmp/ocr-cache');
const MODE = process.env.RK_OCR_CACHE_MODE ?? 'record';
export const stats = { hits: 0, misses: 0 };
/** Called with (key, value) for every reading served, recorded or live (for dev scripts that look at the readings). */
export const listeners = [];

function digest(parts) {
  const h = crypto.createHash('sha256');
  for (const p of parts) {
    if (p instanceof Uint8Array) h.update(p);
    else h.update(JSON.stringify(p, (k, v) => (k === 'signal' ? undefined : v)) ?? 'undefined');
    h.update('\0');
  }
  return h.digest('hex').slice(0, 40);
}

async function cached(key, live) {
  const v = await lookup(key, live);
  for (const f of listeners) f(key, v);
  return v;
}

async function lookup(key, live) {
  if (MODE === 'off') return live();
  const file = path.join(DIR, key.slice(0, 2), `${key}.json`);
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8'));
    stats.hits++;
    return v;
  } catch { /* not recorded yet */ }
  stats.misses++;
  const v = await live();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(v));
  fs.renameSync(tmp, file);
  return v;
}

/** A grey image's pixels and size (GrayImage: { gray, width, height }); never keyed on its size alone. */
function pixels(img) {
  const px = img?.gray ?? img?.data;
  if (!(px instanceof Uint8Array)) throw new Error('replay-engine: an image without pixels to key on');
  return [px, { w: img.width, h: img.height }];
}
const pageBytes = (page) => [page.image, { w: page.width, h: page.height, o: page.exifOrientation }];

/**
 * Lines read at several heights, recorded one height at a time: each line at each height is its own
 * recognition, so a build that asks for the heights one by one (read/second-look.ts secondLookItems) replays
 * what a build that asked for all of them recorded. Per line, the heights' readings in order (a height the
 * pool skips for a line gives nothing, as a call with every height does).
 */
async function linesByHeight(img, regions, opts, live) {
  const perHeight = [];
  for (const h of opts.heights) {
    const o = { ...opts, heights: [h] };
    perHeight.push(await cached(digest(['tess.readRegions:line', ...pixels(img), regions, o]), () => live(o)));
  }
  return regions.map((_, j) => perHeight.flatMap((r) => r[j] ?? []));
}

/** The tesseract pool with its reading calls cached (working images and lifecycle pass through). */
function wrapPool(pool) {
  return new Proxy(pool, {
    get(target, prop) {
      const orig = target[prop];
      if (typeof orig !== 'function') return orig;
      // recognize / rereadLines: the pool of builds before e485976 (the whole-page reading was the pool's)
      if (prop === 'recognize') return (page, opts = {}) => cached(digest(['recognize', ...pageBytes(page), opts]), () => orig.call(target, page, opts));
      if (prop === 'rereadLines') return (page, rot, boxes, heights, opts = {}) => cached(digest(['rereadLines', ...pageBytes(page), rot, boxes, heights, opts]), () => orig.call(target, page, rot, boxes, heights, opts));
      if (prop === 'readPage') return (img, opts = {}) => cached(digest(['tess.readPage', ...pixels(img), opts]), () => orig.call(target, img, opts));
      if (prop === 'readRegions') return (img, regions, opts = {}) => (opts.mode === 'line' && opts.heights?.length
        ? linesByHeight(img, regions, opts, (o) => orig.call(target, img, regions, o))
        : cached(digest(['tess.readRegions', ...pixels(img), regions, opts]), () => orig.call(target, img, regions, opts)));
      return orig.bind(target);
    },
  });
}

function wrapPaddle(reader) {
  if (!reader) return reader;
  return new Proxy(reader, {
    get(target, prop) {
      const orig = target[prop];
      if (typeof orig !== 'function') return orig;
      if (prop === 'readPage') return (img, opts = {}) => cached(digest(['paddle.readPage', ...pixels(img), opts]), () => orig.call(target, img, opts));
      if (prop === 'readRegions') return (img, regions, opts = {}) => cached(digest(['paddle.readRegions', ...pixels(img), regions, opts]), () => orig.call(target, img, regions, opts));
      // the detector's lines alone (the orientation's evidence): cached too, so a replay runs no detector
      if (prop === 'textLines') return (img, opts = {}) => cached(digest(['paddle.textLines', ...pixels(img), opts]), () => orig.call(target, img, opts));
      return orig.bind(target);
    },
  });
}

export async function createEngine(options) {
  const engine = await createReal(options);
  const readersOf = engine.readers;
  if (typeof readersOf !== 'function') throw new Error('replay-engine: the engine has no readers() to wrap');
  let wrapped;
  engine.readers = function readers() {
    if (!wrapped) { const r = readersOf.call(this); wrapped = { tesseract: wrapPool(r.tesseract), paddle: wrapPaddle(r.paddle) }; }
    return wrapped;
  };
  return engine;
}

// how many readings the run asked for (replayed and made live): the cost of a reading policy, machine-independent
process.on('exit', () => { if (stats.hits + stats.misses) console.error(`replay-engine: ${stats.hits} readings replayed, ${stats.misses} made live`); });
