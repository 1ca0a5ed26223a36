import { createRequire } from 'node:module';
import path from 'node:path';
import { ReceiptKitError } from '../errors.js';
import type { Word } from '../document/types.js';
import type { ImageMetadata, InputLimits, InputPage, RasterPage, TextPage } from './types.js';

const require = createRequire(import.meta.url);
const PDFJS_ROOT = path.dirname(require.resolve('pdfjs-dist/package.json'));
const withSlash = (p: string) => (p.endsWith(path.sep) ? p : p + path.sep);

/** Pixels per PDF point for text-layer pages (144 dpi): boxes look like image pixels. */
export const TEXT_SCALE = 2;
/** Render resolution for pages without a text layer. */
export const RENDER_DPI = 250;
/** A page whose text layer has fewer non-space characters than this is rendered and OCR'd. */
export const MIN_TEXT_CHARS = 20;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjsPromise: Promise<PdfJs> | undefined;
function pdfjs(): Promise<PdfJs> {
  pdfjsPromise ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsPromise;
}

export interface LoadedPdf { pages: InputPage[]; pageCount: number; metadata: ImageMetadata }

interface TextItemLike { str: string; transform: number[]; width: number; height: number }

/** Splits pdf.js text items into words with boxes (top-left origin, TEXT_SCALE px per point). */
export function wordsFromTextItems(items: TextItemLike[], pageHeightPt: number, scale = TEXT_SCALE): Word[] {
  const words: Word[] = [];
  for (const it of items) {
    if (!it.str || !it.str.trim()) continue;
    const [a, b, , d, e, f] = it.transform as [number, number, number, number, number, number];
    if (Math.abs(b) > Math.abs(a)) {
      // rotated text: keep it as one word at its origin
    }
    const fontH = Math.abs(it.height || d || 10);
    const totalW = it.width || fontH * 0.5 * it.str.length;
    const charW = totalW / Math.max(1, it.str.length);
    const yTop = (pageHeightPt - f - fontH * 0.8) * scale;
    const yBottom = (pageHeightPt - f + fontH * 0.2) * scale;
    const re = /\S+/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(it.str))) {
      const x0 = (e + m.index * charW) * scale;
      const x1 = (e + (m.index + m[0].length) * charW) * scale;
      words.push({ text: m[0], confidence: 1, box: { x0, y0: Math.max(0, yTop), x1, y1: yBottom } });
    }
  }
  return words;
}

/** Reads a PDF: text-layer pages as TextPage, image-only pages rendered to PNG as RasterPage. */
export async function loadPdf(bytes: Buffer, limits: InputLimits, signal?: AbortSignal): Promise<LoadedPdf> {
  const lib = await pdfjs();
  const task = lib.getDocument({
    data: new Uint8Array(bytes), // pdf.js may transfer/detach the buffer: give it a copy
    standardFontDataUrl: withSlash(path.join(PDFJS_ROOT, 'standard_fonts')),
    cMapUrl: withSlash(path.join(PDFJS_ROOT, 'cmaps')),
    cMapPacked: true,
    wasmUrl: withSlash(path.join(PDFJS_ROOT, 'wasm')),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: false,
    verbosity: 0,
  });
  let doc: Awaited<typeof task.promise> | undefined;
  try {
    try {
      doc = await task.promise;
    } catch (e) {
      const name = (e as { name?: string })?.name;
      if (name === 'PasswordException') throw new ReceiptKitError('UNREADABLE_FILE', 'the PDF is encrypted with a password', { cause: e });
      throw new ReceiptKitError('UNREADABLE_FILE', `the PDF could not be parsed: ${(e as Error)?.message ?? e}`, { cause: e });
    }
    const pageCount = doc.numPages;
    if (!pageCount) throw new ReceiptKitError('UNREADABLE_FILE', 'the PDF has no pages');
    const metadata: ImageMetadata = {};
    try {
      const info = (await doc.getMetadata()).info as Record<string, unknown>;
      if (typeof info.Producer === 'string') metadata.producer = info.Producer;
      if (typeof info.Creator === 'string') metadata.creator = info.Creator;
      if (typeof info.CreationDate === 'string') metadata.createDate = info.CreationDate;
      if (typeof info.ModDate === 'string') metadata.modifyDate = info.ModDate;
    } catch { /* metadata is optional */ }

    const pages: InputPage[] = [];
    const n = Math.min(pageCount, limits.maxPdfPages);
    for (let i = 1; i <= n; i++) {
      if (signal?.aborted) throw new ReceiptKitError('TIMEOUT', 'PDF reading was aborted');
      let page;
      try { page = await doc.getPage(i); } catch (e) {
        throw new ReceiptKitError('UNREADABLE_FILE', `PDF page ${i} could not be read: ${(e as Error)?.message ?? e}`, { cause: e });
      }
      const vp = page.getViewport({ scale: 1 });
      const content = await page.getTextContent().catch(() => ({ items: [] as unknown[] }));
      const items = (content.items as Array<Partial<TextItemLike>>).filter((it): it is TextItemLike => typeof it.str === 'string' && Array.isArray(it.transform));
      const chars = items.reduce((s, it) => s + it.str.replace(/\s/g, '').length, 0);
      if (chars >= MIN_TEXT_CHARS) {
        // text coordinates are in the unrotated page space; account for the viewport's transform
        const tp: TextPage = {
          kind: 'text', index: i - 1,
          width: vp.width * TEXT_SCALE, height: vp.height * TEXT_SCALE, scale: TEXT_SCALE,
          words: wordsFromTextItems(items.map((it) => ({ ...it, transform: transformed(vp.transform, it.transform, vp.height) })), vp.height),
        };
        pages.push(tp);
      } else {
        pages.push(await renderPage(doc, page, i - 1, limits));
      }
      page.cleanup();
    }
    return { pages, pageCount, metadata };
  } finally {
    if (doc) await doc.destroy().catch(() => undefined);
    else await task.destroy().catch(() => undefined);
  }
}

/** Maps a text item's transform through the viewport so rotated pages come out upright, then back to PDF-style y-up. */
function transformed(vpT: number[], t: number[], pageHeightPt: number): number[] {
  const [a, b, c, d, e, f] = t as [number, number, number, number, number, number];
  const [A, B, C, D, E, F] = vpT as [number, number, number, number, number, number];
  // point (e, f) in viewport (y-down) coordinates
  const x = A * e + C * f + E;
  const y = B * e + D * f + F;
  return [a, b, c, d, x, pageHeightPt - y];
}

async function renderPage(doc: { canvasFactory: unknown }, page: { getViewport(o: { scale: number }): { width: number; height: number }; render(o: unknown): { promise: Promise<void> } }, index: number, limits: InputLimits): Promise<RasterPage> {
  const base = page.getViewport({ scale: 1 });
  let scale = RENDER_DPI / 72;
  const maxPx = Math.min(limits.maxPixels, 40_000_000);
  if (base.width * base.height * scale * scale > maxPx) scale = Math.sqrt(maxPx / (base.width * base.height));
  const vp = page.getViewport({ scale });
  const w = Math.max(1, Math.round(vp.width)), h = Math.max(1, Math.round(vp.height));
  const factory = doc.canvasFactory as { create(w: number, h: number): { canvas: { toBuffer(mime: string): Buffer }; context: unknown }; destroy(c: unknown): void };
  const cc = factory.create(w, h);
  try {
    const ctx = cc.context as { fillStyle: string; fillRect(x: number, y: number, w: number, h: number): void };
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, w, h);
    await page.render({ canvasContext: cc.context, viewport: vp, background: '#ffffff' }).promise;
    const png = cc.canvas.toBuffer('image/png');
    return { kind: 'raster', index, image: png, width: w, height: h, exifOrientation: 1, renderScale: scale };
  } catch (e) {
    throw new ReceiptKitError('UNREADABLE_FILE', `PDF page ${index + 1} could not be rendered: ${(e as Error)?.message ?? e}`, { cause: e });
  } finally {
    factory.destroy(cc);
  }
}
