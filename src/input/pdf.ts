/**
 * PDFs through pdf.js (legacy build, in-process, offline): pages with a usable text layer become
 * TextPages (words with boxes, no OCR needed); pages without one are rendered to PNG for OCR. At most
 * `maxPdfPages` pages are read, within a time budget, and the document is always destroyed.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { ReceiptKitError } from '../errors.js';
import type { Word } from '../document/types.js';
import { pdfInfoMetadata } from './metadata.js';
import { readPdfIsolated } from './pdf-thread.js';
import { checkPdfStructure } from './pdf-structure.js';
import type { ImageMetadata, InputLimits, InputPage, LoadedPdf, PageImage, RasterPage } from './types.js';

const require = createRequire(import.meta.url);
const PDFJS_ROOT = path.dirname(require.resolve('pdfjs-dist/package.json'));
const dir = (name: string) => path.join(PDFJS_ROOT, name) + path.sep;

/** Pixels per PDF point of TextPage boxes (144 dpi), so text-layer numbers look like image pixels. */
export const TEXT_SCALE = 2;
/** Render resolution of pages without a text layer (see the OCR notes in the report: 250 dpi). */
export const RENDER_DPI = 250;
/** Caps on a rendered page: pixels and long side (a poster-sized page is rendered at a lower dpi). */
export const RENDER_MAX_PIXELS = 16_000_000;
export const RENDER_MAX_SIDE = 5000;
/** A page whose text layer has fewer readable characters than this is rendered and OCR'd instead. */
export const MIN_TEXT_CHARS = 20;
/**
 * A page mostly painted by images (coverage at least SCAN_COVERAGE) whose text layer is short (under
 * SCAN_MAX_TEXT_CHARS, e.g. a "Scanned with ..." footer or a page number) is a scan: it is rendered
 * and OCR'd rather than read from its few words.
 */
export const SCAN_COVERAGE = 0.6;
export const SCAN_MAX_TEXT_CHARS = 200;
/** Default time budget for one PDF when `limits.maxPdfMillis` is not set. */
export const PDF_DEADLINE_MS = 30_000;
/**
 * A PDF of more pages than this is refused (FILE_TOO_LARGE) before any page is read: no receipt or
 * invoice is that long, and `maxPdfPages` (the pages read) goes up to the same number.
 */
export const MAX_PDF_DOCUMENT_PAGES = 1000;
/**
 * A page larger than this on a side, in points (200 inches, the largest page PDF readers support; the
 * page's UserUnit counted), is refused (FILE_TOO_LARGE): rendered, it would be a blank poster at a few dpi.
 */
export const MAX_PAGE_SIDE_PT = 14_400;
/** Word box above and below the baseline, as a fraction of the font size. */
const ASCENT = 0.8, DESCENT = 0.2;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;
type Matrix = [number, number, number, number, number, number];

let pdfjsPromise: Promise<PdfJs> | undefined;
function pdfjs(): Promise<PdfJs> {
  pdfjsPromise ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsPromise;
}

export type { LoadedPdf } from './types.js';

/** The subset of a pdf.js text item used here. */
export interface TextItemLike { str: string; transform: number[]; width: number; height: number; fontName?: string }

/** Readable characters: letters, digits, punctuation, symbols; not U+FFFD nor private-use glyph codes. */
const READABLE = /[\p{L}\p{N}\p{P}\p{S}]/gu;
const UNREADABLE = /[\uFFFD\p{Co}]/u;

/** Counts the characters of a text layer that can be read (the MIN_TEXT_CHARS test). */
export function readableChars(items: TextItemLike[]): number {
  let n = 0;
  for (const it of items) {
    for (const ch of it.str.match(READABLE) ?? []) if (!UNREADABLE.test(ch)) n++;
  }
  return n;
}

/**
 * Splits pdf.js text items into words with boxes in the viewport's frame (top-left origin, rotation
 * of the page applied). Each item's advance (`width`) is shared among its characters in proportion
 * (a space counts half a character unless the font is monospaced); boxes span DESCENT below to ASCENT
 * above the baseline. `viewport` is the pdf.js viewport transform (user space -> pixels).
 */
export function wordsFromTextItems(items: TextItemLike[], viewport: number[], size: { width: number; height: number }, monospaced: (fontName?: string) => boolean = () => false): Word[] {
  const words: Word[] = [];
  const [A, B, C, D, E, F] = viewport as Matrix;
  const toPx = (x: number, y: number): [number, number] => [A * x + C * y + E, B * x + D * y + F];
  const clampX = (v: number) => Math.min(size.width, Math.max(0, v));
  const clampY = (v: number) => Math.min(size.height, Math.max(0, v));
  for (const it of items) {
    if (!it.str || !/\S/.test(it.str)) continue;
    const [a, b, c, d, e, f] = it.transform as Matrix;
    const len = Math.hypot(a, b);
    if (!(len > 0)) continue;
    const ux = a / len, uy = b / len; // baseline direction, user space
    const vx = -uy, vy = ux; // "up", perpendicular to the baseline
    const fontSize = it.height > 0 ? it.height : Math.hypot(c, d) || len;
    const spaceWeight = monospaced(it.fontName) ? 1 : 0.5;
    const chars = [...it.str];
    const weights = chars.map((ch) => (/\s/.test(ch) ? spaceWeight : 1));
    const totalWeight = weights.reduce((s, w) => s + w, 0);
    const advance = it.width > 0 ? it.width : fontSize * 0.5 * totalWeight;
    const unit = advance / Math.max(totalWeight, 1e-9);
    let pos = 0; // advance (points) at the start of the current character
    let start = -1, startPos = 0, text = '';
    const flush = (endPos: number) => {
      const xs: number[] = [], ys: number[] = [];
      for (const [along, up] of [[startPos, -DESCENT], [endPos, -DESCENT], [endPos, ASCENT], [startPos, ASCENT]] as const) {
        const [px, py] = toPx(e + ux * along + vx * up * fontSize, f + uy * along + vy * up * fontSize);
        xs.push(px); ys.push(py);
      }
      const box = { x0: clampX(Math.min(...xs)), y0: clampY(Math.min(...ys)), x1: clampX(Math.max(...xs)), y1: clampY(Math.max(...ys)) };
      if (box.x1 > box.x0 && box.y1 > box.y0) words.push({ text, box, confidence: 1 });
    };
    chars.forEach((ch, i) => {
      const space = /\s/.test(ch);
      if (!space && start < 0) { start = i; startPos = pos; text = ''; }
      if (!space) text += ch;
      if (space && start >= 0) { flush(pos); start = -1; }
      pos += weights[i]! * unit;
    });
    if (start >= 0) flush(pos);
  }
  return words;
}

/** A painted raster image's bounding box on the page, in viewport pixels (top-left origin). */
export interface ImageRect { x0: number; y0: number; x1: number; y1: number }

/**
 * Bounding boxes of the raster images a page paints, from a pdf.js operator list: each image's unit
 * square mapped through the current transform (form XObjects, save/restore and image groups followed).
 */
export function imageRectsFromOperators(ops: { fnArray: number[]; argsArray: unknown[] }, OPS: Record<string, number>, viewport: number[]): ImageRect[] {
  const rects: ImageRect[] = [];
  const mul = (m: Matrix, n: Matrix): Matrix => [
    m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5],
  ];
  let ctm: Matrix = viewport.slice(0, 6) as Matrix;
  const stack: Matrix[] = [];
  const mark = (m: Matrix) => {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const [x, y] of [[0, 0], [1, 0], [1, 1], [0, 1]] as const) {
      const px = m[0] * x + m[2] * y + m[4], py = m[1] * x + m[3] * y + m[5];
      x0 = Math.min(x0, px); x1 = Math.max(x1, px); y0 = Math.min(y0, py); y1 = Math.max(y1, py);
    }
    if ([x0, y0, x1, y1].every(Number.isFinite)) rects.push({ x0, y0, x1, y1 });
  };
  const isMatrix = (v: unknown): v is Matrix => Array.isArray(v) && v.length >= 6 && v.slice(0, 6).every((n) => typeof n === 'number' && Number.isFinite(n));
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = (ops.argsArray[i] ?? []) as unknown[];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform) { if (isMatrix(args)) ctm = mul(ctm, args); }
    else if (fn === OPS.paintFormXObjectBegin) { stack.push(ctm); if (isMatrix(args[0])) ctm = mul(ctm, args[0]); }
    else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject || fn === OPS.paintImageMaskXObject) mark(ctm);
    else if (fn === OPS.paintImageXObjectRepeat) {
      const [, sx, sy, positions] = args as [unknown, number, number, number[]];
      for (let k = 0; k + 1 < (positions?.length ?? 0); k += 2) mark(mul(ctm, [sx, 0, 0, sy, positions[k]!, positions[k + 1]!]));
    } else if (fn === OPS.paintInlineImageXObjectGroup) {
      for (const entry of (args[1] ?? []) as Array<{ transform?: unknown }>) if (isMatrix(entry.transform)) mark(mul(ctm, entry.transform));
    } else if (fn === OPS.paintImageMaskXObjectGroup) {
      for (const entry of (args[0] ?? []) as Array<{ transform?: unknown }>) if (isMatrix(entry.transform)) mark(mul(ctm, entry.transform));
    }
  }
  return rects;
}

/**
 * Fraction of the page covered by painted raster images (`imageRectsFromOperators`), marked on a
 * coarse grid so overlaps count once.
 */
export function imageCoverage(rects: ImageRect[], size: { width: number; height: number }): number {
  const GRID = 64;
  const cells = new Uint8Array(GRID * GRID);
  for (const { x0, y0, x1, y1 } of rects) {
    // a cell counts when the image covers most of it: tiny images (bullets, rules) do not add up
    if ((x1 - x0) * (y1 - y0) < (size.width / GRID) * (size.height / GRID) * 0.5) continue;
    const cx0 = Math.max(0, Math.floor((x0 / size.width) * GRID)), cx1 = Math.min(GRID, Math.ceil((x1 / size.width) * GRID));
    const cy0 = Math.max(0, Math.floor((y0 / size.height) * GRID)), cy1 = Math.min(GRID, Math.ceil((y1 / size.height) * GRID));
    for (let cy = cy0; cy < cy1; cy++) for (let cx = cx0; cx < cx1; cx++) cells[cy * GRID + cx] = 1;
  }
  let covered = 0;
  for (const c of cells) covered += c;
  return Math.round((covered / cells.length) * 1000) / 1000;
}

/** Time budget and caller's AbortSignal for one PDF: every pdf.js await goes through `step`. */
class Budget {
  private readonly deadline: number;
  constructor(private readonly ms: number, private readonly signal?: AbortSignal) { this.deadline = Date.now() + ms; }
  check(what: string): void {
    if (this.signal?.aborted) {
      const reason: unknown = this.signal.reason;
      throw reason instanceof ReceiptKitError ? reason : new ReceiptKitError('TIMEOUT', `reading the PDF was aborted (${what})`);
    }
    if (Date.now() > this.deadline) throw new ReceiptKitError('TIMEOUT', `reading the PDF took over ${this.ms} ms (${what})`);
  }
  async step<T>(work: Promise<T>, what: string): Promise<T> {
    work.catch(() => undefined); // when the budget wins the race, a later rejection is expected, not unhandled
    this.check(what);
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ReceiptKitError('TIMEOUT', `reading the PDF took over ${this.ms} ms (${what})`)), Math.max(0, this.deadline - Date.now()));
      timer.unref?.();
      if (this.signal) {
        onAbort = () => { try { this.check(what); } catch (e) { reject(e); } };
        this.signal.addEventListener('abort', onAbort, { once: true });
      }
    });
    try {
      return await Promise.race([work, stop]);
    } finally {
      clearTimeout(timer);
      if (onAbort) this.signal?.removeEventListener('abort', onAbort);
    }
  }
}

function parseError(e: unknown): ReceiptKitError {
  if (e instanceof ReceiptKitError) return e;
  const name = (e as { name?: string })?.name;
  const msg = (e as Error)?.message ?? String(e);
  if (name === 'PasswordException') return new ReceiptKitError('UNREADABLE_FILE', 'the PDF is encrypted with a password', { cause: e });
  if (name === 'InvalidPDFException') return new ReceiptKitError('UNREADABLE_FILE', `the file is not a readable PDF (${msg})`, { cause: e });
  return new ReceiptKitError('UNREADABLE_FILE', `the PDF could not be parsed: ${msg}`, { cause: e });
}

/**
 * Reads a PDF: text-layer pages as TextPage (with `imageCoverage`), pages without a usable text layer
 * (fewer than MIN_TEXT_CHARS readable characters, or a scan with a short text overlay) rendered to
 * PNG as RasterPage. Reads at most `limits.maxPdfPages` pages; `pageCount` is the document's count.
 * With `images`, the image areas of text pages worth reading (`imagesToRead`) are rendered into
 * `TextPage.images` for OCR.
 */
export async function loadPdf(bytes: Buffer, limits: InputLimits, signal?: AbortSignal, opts: { images?: boolean } = {}): Promise<LoadedPdf> {
  return readPdfIsolated(bytes, limits, signal, opts, { deadlineMs: limits.maxPdfMillis ?? PDF_DEADLINE_MS, inThread: readPdf });
}

/**
 * `loadPdf` in the calling thread: what the PDF thread runs (src/input/pdf-worker.ts), and the
 * fallback when the built worker script is absent. pdf.js may leave rejections of its own unhandled
 * on broken files (a prefetched page dictionary that fails after the document opened); in the
 * calling thread those reach the process, in the PDF thread they are contained.
 */
export async function readPdf(bytes: Buffer, limits: InputLimits, signal?: AbortSignal, opts: { images?: boolean } = {}): Promise<LoadedPdf> {
  const budget = new Budget(limits.maxPdfMillis ?? PDF_DEADLINE_MS, signal);
  budget.check('start');
  // decompression bombs are refused from the file's structure, before pdf.js inflates anything
  checkPdfStructure(bytes);
  const lib = await pdfjs();
  const task = lib.getDocument({
    data: new Uint8Array(bytes), // a copy: pdf.js may transfer (detach) the buffer it is given
    standardFontDataUrl: dir('standard_fonts'),
    cMapUrl: dir('cmaps'),
    cMapPacked: true,
    wasmUrl: dir('wasm'),
    iccUrl: dir('iccs'),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    useWorkerFetch: false,
    stopAtErrors: false,
    // images in the file above the pixel limit are skipped instead of decoded (bounded memory)
    maxImageSize: limits.maxPixels,
    verbosity: 0,
  });
  let doc: PdfDocument | undefined;
  try {
    try {
      doc = await budget.step(task.promise, 'opening');
    } catch (e) {
      throw parseError(e);
    }
    const pageCount = doc.numPages;
    if (!pageCount) throw new ReceiptKitError('UNREADABLE_FILE', 'the PDF has no pages');
    if (pageCount > MAX_PDF_DOCUMENT_PAGES) throw new ReceiptKitError('FILE_TOO_LARGE', `the PDF has ${pageCount} pages, over the ${MAX_PDF_DOCUMENT_PAGES} page limit`);
    let metadata: ImageMetadata = {};
    try {
      metadata = pdfInfoMetadata((await budget.step(doc.getMetadata(), 'metadata')).info as Record<string, unknown>);
    } catch (e) {
      if (e instanceof ReceiptKitError) throw e; // timeout; a broken Info dictionary is just no metadata
    }
    const pages: InputPage[] = [];
    const n = Math.min(pageCount, limits.maxPdfPages);
    const pictures = { left: opts.images === true ? MAX_DOC_IMAGES : 0 };
    for (let i = 1; i <= n; i++) {
      let page: PdfPage;
      try {
        page = await budget.step(doc.getPage(i), `page ${i}`);
      } catch (e) {
        if (e instanceof ReceiptKitError) throw e;
        throw new ReceiptKitError('UNREADABLE_FILE', `PDF page ${i} could not be read: ${(e as Error)?.message ?? e}`, { cause: e });
      }
      try {
        pages.push(await readPage(lib, doc, page, i - 1, limits, budget, pictures));
      } finally {
        page.cleanup();
      }
    }
    return { pages, pageCount, metadata };
  } finally {
    if (doc) await doc.destroy().catch(() => undefined);
    else await task.destroy().catch(() => undefined);
  }
}

/** One page: its text layer when usable, else a rendering. */
async function readPage(lib: PdfJs, doc: PdfDocument, page: PdfPage, index: number, limits: InputLimits, budget: Budget, pictures: { left: number }): Promise<InputPage> {
  const actual = page.getViewport({ scale: 1 }); // points, the page's UserUnit applied
  if (!(Math.max(actual.width, actual.height) <= MAX_PAGE_SIDE_PT)) {
    const inches = (pt: number) => Math.round(pt / 72);
    throw new ReceiptKitError('FILE_TOO_LARGE', `PDF page ${index + 1} is ${inches(actual.width)} x ${inches(actual.height)} inches, over the ${inches(MAX_PAGE_SIDE_PT)}-inch limit of PDF pages`);
  }
  const vp = page.getViewport({ scale: TEXT_SCALE });
  const size = { width: vp.width, height: vp.height };
  let items: TextItemLike[] = [];
  let styles: Record<string, { fontFamily?: string }> = {};
  try {
    const content = await budget.step(page.getTextContent(), `text of page ${index + 1}`);
    items = (content.items as Array<Partial<TextItemLike>>).filter((it): it is TextItemLike =>
      typeof it.str === 'string' && Array.isArray(it.transform) && typeof it.width === 'number' && typeof it.height === 'number');
    styles = content.styles as typeof styles;
  } catch (e) {
    if (e instanceof ReceiptKitError) throw e; // timeout; a broken text layer means "render it"
  }
  const chars = readableChars(items);
  if (chars >= MIN_TEXT_CHARS) {
    let rects: ImageRect[] | undefined;
    try {
      const ops = await budget.step(page.getOperatorList({ annotationMode: lib.AnnotationMode.DISABLE }), `images of page ${index + 1}`);
      rects = imageRectsFromOperators(ops, lib.OPS, vp.transform);
    } catch (e) {
      if (e instanceof ReceiptKitError) throw e; // timeout; otherwise coverage stays unknown
    }
    const coverage = rects ? imageCoverage(rects, size) : undefined;
    if (!(coverage !== undefined && coverage >= SCAN_COVERAGE && chars < SCAN_MAX_TEXT_CHARS)) {
      const words = wordsFromTextItems(items, vp.transform, size, (font) => !!font && styles[font]?.fontFamily === 'monospace');
      const images: PageImage[] = [];
      for (const box of pictures.left > 0 ? imagesToRead(rects ?? [], size).slice(0, pictures.left) : []) {
        pictures.left--;
        const image = await renderArea(doc, page, index, box, limits, budget).catch((e: unknown) => {
          if (e instanceof ReceiptKitError && e.code === 'TIMEOUT') throw e;
          return undefined; // an image area that will not render is left unread, the text layer stands
        });
        if (image) images.push(image);
      }
      return {
        kind: 'text', index, width: vp.width, height: vp.height, scale: TEXT_SCALE, words,
        ...(coverage !== undefined ? { imageCoverage: coverage } : {}),
        ...(images.length ? { images } : {}),
      };
    }
  }
  return renderPage(doc, page, index, limits, budget);
}

interface CanvasFactoryLike { create(w: number, h: number): { canvas: unknown; context: unknown }; destroy(c: unknown): void }

/** Images on a text page read by OCR at most, per page (the largest). */
export const MAX_PAGE_IMAGES = 3;
/** ... and per document (the first pages' first: the issuer is on the first page). */
export const MAX_DOC_IMAGES = 4;
/** An image is read when at least this wide and high, in PDF points: room for a line of text. */
export const MIN_IMAGE_PT = { width: 24, height: 8 };
/** Pixels per PDF point an image area is rendered at for OCR. */
export const IMAGE_RENDER_DPI = 300;
/** Largest image area rendered for OCR, pixels (a bigger one is rendered at a lower resolution). */
export const IMAGE_RENDER_MAX_PIXELS = 6_000_000;

/**
 * The images of a text page worth reading (logos and issuer blocks drawn as pictures hold text the
 * text layer lacks): clipped to the page, at least MIN_IMAGE_PT, not inside one already taken, the
 * MAX_PAGE_IMAGES largest. Boxes in the page's pixels (TEXT_SCALE per point).
 */
export function imagesToRead(rects: ImageRect[], size: { width: number; height: number }): ImageRect[] {
  const clipped = rects
    .map((r) => ({ x0: Math.max(0, r.x0), y0: Math.max(0, r.y0), x1: Math.min(size.width, r.x1), y1: Math.min(size.height, r.y1) }))
    .filter((r) => r.x1 - r.x0 >= MIN_IMAGE_PT.width * TEXT_SCALE && r.y1 - r.y0 >= MIN_IMAGE_PT.height * TEXT_SCALE)
    .sort((a, b) => (b.x1 - b.x0) * (b.y1 - b.y0) - (a.x1 - a.x0) * (a.y1 - a.y0));
  const inside = (a: ImageRect, b: ImageRect) => a.x0 >= b.x0 - 1 && a.y0 >= b.y0 - 1 && a.x1 <= b.x1 + 1 && a.y1 <= b.y1 + 1;
  const out: ImageRect[] = [];
  for (const r of clipped) {
    if (out.length >= MAX_PAGE_IMAGES) break;
    if (!out.some((o) => inside(r, o))) out.push(r);
  }
  return out;
}

/** Renders one area of a page (page pixels at TEXT_SCALE) to PNG at IMAGE_RENDER_DPI, for OCR. */
async function renderArea(doc: PdfDocument, page: PdfPage, index: number, box: ImageRect, limits: InputLimits, budget: Budget): Promise<PageImage> {
  const wPt = (box.x1 - box.x0) / TEXT_SCALE, hPt = (box.y1 - box.y0) / TEXT_SCALE;
  let scale = IMAGE_RENDER_DPI / 72;
  const maxPixels = Math.min(limits.maxPixels, IMAGE_RENDER_MAX_PIXELS);
  if (wPt * hPt * scale * scale > maxPixels) scale = Math.sqrt(maxPixels / (wPt * hPt));
  const k = scale / TEXT_SCALE; // image pixels per page pixel
  const w = Math.max(1, Math.round(wPt * scale)), h = Math.max(1, Math.round(hPt * scale));
  const vp = page.getViewport({ scale, offsetX: -box.x0 * k, offsetY: -box.y0 * k });
  const png = await renderToPng(doc, page, vp, w, h, `a picture of page ${index + 1}`, budget);
  return { box: { ...box }, image: png, width: w, height: h, scale: k };
}

/** Draws a page (or the part of it that falls on a w x h canvas) on white and encodes it as PNG; `what` names it in timeouts. */
async function renderToPng(doc: PdfDocument, page: PdfPage, vp: unknown, w: number, h: number, what: string, budget: Budget): Promise<Buffer> {
  // the factory pdf.js uses itself, so the canvas comes from the @napi-rs/canvas copy it resolved
  const factory = (doc as unknown as { canvasFactory: CanvasFactoryLike }).canvasFactory;
  let entry: ReturnType<CanvasFactoryLike['create']> | undefined;
  try {
    entry = factory.create(w, h);
    const ctx = entry.context as { fillStyle: string; fillRect(x: number, y: number, w: number, h: number): void };
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, w, h);
    const task = page.render({ canvasContext: entry.context as never, viewport: vp, background: '#ffffff' } as never);
    try {
      await budget.step(task.promise, `rendering ${what}`);
    } catch (e) {
      task.cancel();
      throw e;
    }
    // PNG via sharp (level 1, off the main thread): 5-10x faster than the canvas' own PNG encoder
    const rgba = (entry.context as { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } }).getImageData(0, 0, w, h).data;
    return await budget.step(
      sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), { raw: { width: w, height: h, channels: 4 }, limitInputPixels: RENDER_MAX_PIXELS })
        .removeAlpha().png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer(),
      `encoding ${what}`);
  } finally {
    if (entry) factory.destroy(entry);
  }
}

/** Renders a page (white background) to PNG at RENDER_DPI, capped in pixels, with the document's canvas factory. */
async function renderPage(doc: PdfDocument, page: PdfPage, index: number, limits: InputLimits, budget: Budget): Promise<RasterPage> {
  const base = page.getViewport({ scale: 1 });
  let scale = RENDER_DPI / 72;
  const maxPixels = Math.min(limits.maxPixels, RENDER_MAX_PIXELS);
  if (base.width * base.height * scale * scale > maxPixels) scale = Math.sqrt(maxPixels / (base.width * base.height));
  if (Math.max(base.width, base.height) * scale > RENDER_MAX_SIDE) scale = RENDER_MAX_SIDE / Math.max(base.width, base.height);
  const vp = page.getViewport({ scale });
  const w = Math.max(1, Math.floor(vp.width)), h = Math.max(1, Math.floor(vp.height));
  try {
    const png = await renderToPng(doc, page, vp, w, h, `page ${index + 1}`, budget);
    return { kind: 'raster', index, image: png, width: w, height: h, exifOrientation: 1, renderScale: scale };
  } catch (e) {
    if (e instanceof ReceiptKitError) throw e;
    throw new ReceiptKitError('UNREADABLE_FILE', `PDF page ${index + 1} could not be rendered: ${(e as Error)?.message ?? e}`, { cause: e });
  }
}
