/**
 * The reading stage: how pages become a Document and its fields. Takes its readers from a list
 * (readers.ts) and knows no reader's insides; the engine only wires it.
 *
 * - a text page (PDF text layer): its words, plus the pictures on it read by OCR (readPageImages);
 * - a one-page image with `reading: 'fast'`: a primary reader, then targeted looks (fast.ts);
 * - otherwise (the default, 'thorough', and 'cascade'): every image page read whole by tesseract, then
 *   the passes of passes.ts in order (the second reader PaddleOCR on a one-page image, alternate
 *   readings of photos, second looks, confirming passes, the two readings weighed: combine.ts), each
 *   where its condition holds; the cascade stops where the core fields are sure (cascade.ts).
 */
import type { LoadedInput, RasterPage, TextPage } from '../input/types.js';
import type { Word } from '../document/types.js';
import { buildDocument, overlapShare } from '../document/geometry.js';
import { pageFromText } from '../document/layout.js';
import { extractFields, taxAtTotal } from '../extract/index.js';
import { ReceiptKitError, isReceiptKitError } from '../errors.js';
import { DEFAULT_SCALING } from '../ocr/preprocess.js';
import { textAxis, textIsVertical } from '../ocr/orientation.js';
import type { TextAxis } from '../ocr/orientation.js';
import { readWholePage } from './whole-page.js';
import { readImageFast } from './fast.js';
import { StageClock } from './clock.js';
import { PageBudget } from './budget.js';
import type { Readers } from './readers.js';
import { tapReading } from '../resolve/model.js';
import { canStop, cascadeModel, stopsAt } from './cascade.js';
import type { ReadContext, DocumentReading } from './types.js';
import { inPaperFrame, readSecond, runPasses } from './passes.js';
import type { SecondPage, Thorough } from './passes.js';

export type { Readers } from './readers.js';
export type { ReadContext, DocumentReading } from './types.js';
export { SECOND_READER_SMALL_BELOW, SECOND_READER_UPSCALE, secondReaderScale, inPaperFrame } from './passes.js';

/** Words OCR read from a picture on a PDF text page are kept from this confidence (logo artwork reads as low-confidence letters). */
const MIN_IMAGE_WORD_CONFIDENCE = 0.6;

function wrapUnexpected(e: unknown, message: string): ReceiptKitError {
  if (isReceiptKitError(e)) return e;
  return new ReceiptKitError('UNREADABLE_FILE', `${message}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}

/**
 * Starts the readers that are not started yet, side by side: tesseract's worker loads in its own thread
 * while the page is decoded and the PaddleOCR models load here (a new engine's first page). The models
 * load synchronously on this thread (onnxruntime-node): for a one-page image, only once its pixels
 * decoded, so a file only a full decode finds damaged fails at once, not after the loading.
 */
function warmReaders(input: LoadedInput, readers: Readers, ctx: ReadContext, one: RasterPage | undefined): void {
  if (!input.pages.some((p) => p.kind === 'raster' || (p.kind === 'text' && p.images?.length))) return;
  readers.tesseract.warm(ctx.languages);
  if (one && readers.paddle?.warm) {
    const paddle = readers.paddle;
    readers.tesseract.working(one, DEFAULT_SCALING, false).then(() => { if (!ctx.signal.aborted) paddle.warm?.(); }, () => undefined);
  } else readers.paddle?.warm?.();
}

/** The fast reading of a one-page image (read/fast.ts), or undefined (with a warning) when it failed: the thorough way then. */
async function tryFast(one: RasterPage, readers: Readers & { paddle: NonNullable<Readers['paddle']> }, ctx: ReadContext, clock: StageClock, warnings: string[]): Promise<DocumentReading | undefined> {
  try {
    const r = await readImageFast(one, {
      primary: readers.paddle, lines: readers.tesseract, working: (page, enhance) => readers.tesseract.working(page, DEFAULT_SCALING, enhance),
    }, { fields: ctx.fields, languages: ctx.languages, signal: ctx.signal, clock });
    return { document: r.document, fields: r.fields, rotation: r.rotation, warnings: [...warnings, ...r.warnings, ...r.fields.warnings] };
  } catch (e) {
    if (ctx.signal.aborted || (isReceiptKitError(e) && e.code === 'TIMEOUT')) throw e;
    warnings.push(`the fast reading failed, the page is read the thorough way: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** Every page's first reading: text layers (and the pictures on them), and tesseract on each image (`axis`: the detector's lines of a one-page image). */
async function firstReadings(input: LoadedInput, readers: Readers, ctx: ReadContext, clock: StageClock, budget: PageBudget, warnings: string[], axis?: TextAxis) {
  const { signal } = ctx;
  const pages: Parameters<typeof buildDocument>[0] = [];
  let targetRotation = 0;
  let enhancedPhoto = false;
  for (const page of input.pages) {
    if (signal.aborted) throw new ReceiptKitError('TIMEOUT', 'extraction was aborted');
    if (page.kind === 'text') {
      const imageWords = page.images?.length ? await readPageImages(readers, page, ctx.languages, signal, warnings) : [];
      pages.push(pageFromText(imageWords.length ? { ...page, words: [...page.words, ...imageWords] } : page));
      continue;
    }
    let r;
    const readStarted = performance.now();
    try {
      r = await clock.time('read:tesseract', () => readWholePage(readers.tesseract, page, { languages: ctx.languages, detectOrientation: true, signal, ...(axis ? { axis } : {}) }));
    } catch (e) {
      throw wrapUnexpected(e, `OCR failed on page ${page.index + 1}`);
    }
    budget.firstReading(performance.now() - readStarted);
    warnings.push(...r.warnings);
    if (page.index === 0 || pages.length === 0) targetRotation = r.rotation;
    if (input.pages.length === 1) enhancedPhoto = r.enhanced;
    pages.push(await inPaperFrame({ ...r.page, index: page.index }, page));
  }
  return { pages, targetRotation, enhancedPhoto };
}

/**
 * The text direction a one-page image's text lines show (PaddleOCR's detector on the plain working image,
 * the boxes its reading of the same image reuses), or undefined when the detector is off or fails.
 */
async function detectorAxis(readers: Readers, one: RasterPage, signal: AbortSignal): Promise<TextAxis | undefined> {
  const paddle = readers.paddle;
  if (!paddle?.textLines) return undefined;
  try {
    const work = await readers.tesseract.working(one, DEFAULT_SCALING, false);
    return textAxis(await paddle.textLines(work, { signal }));
  } catch (e) {
    if (signal.aborted) throw e;
    return undefined; // the first reading reports an undecodable page; a missing detector leaves the geometry
  }
}

export async function readDocument(input: LoadedInput, readers: Readers, ctx: ReadContext): Promise<DocumentReading> {
  const { signal } = ctx;
  const clock = ctx.clock ?? new StageClock();
  const warnings: string[] = [];
  const budget = new PageBudget({ ms: ctx.pageBudgetMs, readings: ctx.rereadBudget });
  /** The input's one page, when it is one image. */
  const one = input.pages.length === 1 && input.pages[0]!.kind === 'raster' ? input.pages[0] as RasterPage : undefined;
  warmReaders(input, readers, ctx, one);
  if (one && readers.paddle && ctx.reading === 'fast') {
    const fast = await tryFast(one, { ...readers, paddle: readers.paddle }, ctx, clock, warnings);
    if (fast) return fast;
  }
  // a one-page image: the second reader reads it upright (as most pages are) while tesseract reads it
  // and finds its orientation, on another core; that reading is kept when tesseract finds the page
  // upright, and the page is read again turned when it does not
  // (the detector's text lines decide its direction first where they are clear: a page they show sideways
  // is not read upright ahead)
  const axis = one && readers.paddle && !signal.aborted ? await clock.time('orientation', () => detectorAxis(readers, one, signal)) : undefined;
  // the cascade (read/cascade.ts) reads with the second reader only where the first reading is not sure
  // (then not ahead: the first reading decides whether it reads at all), when its first stop can stop at all
  const cascade = ctx.reading === 'cascade' ? ctx.cascade ?? cascadeModel() : undefined;
  let ahead: Promise<SecondPage> | undefined;
  if (!canStop(cascade?.stages.tesseract) && one && readers.paddle && !signal.aborted && !(axis && textIsVertical({ vertical: false }, axis))) {
    ahead = clock.time('read:paddleocr', () => readSecond(readers, one, 0, signal));
    ahead.catch(() => undefined); // unused when the page is turned; a failure is reported where it is used
  }
  const { pages, targetRotation, enhancedPhoto } = await firstReadings(input, readers, ctx, clock, budget, warnings, axis);
  const first = buildDocument(pages);
  const only = input.pages.length === 1 ? input.pages[0] : undefined;
  const image = only?.kind === 'raster' && first.pages[0]?.source === 'ocr' ? only : undefined;
  const fields = extractFields(first, ctx.fields);
  tapReading('tesseract', () => fields);
  const t: Thorough = {
    input, readers, ctx, signal, clock, budget, warnings, document: first, fields, rotation: targetRotation, image, own: undefined, ownReading: undefined, second: undefined, readings: [fields],
    ahead, enhancedPhoto, cascade,
    // a first reading sure of the core fields is read no more (the cascade's first stop)
    sureFirst: !!image && stopsAt(fields, cascade?.stages.tesseract),
    script: undefined, settled: false, sureTotal: false, sureDate: false, taxAt: (d, total) => taxAtTotal(d, ctx.fields, total),
  };
  await runPasses(t);
  const spent = budget.warning();
  if (spent) warnings.push(spent);
  warnings.push(...t.fields.warnings);
  const script = t.script;
  return { document: t.document, fields: t.fields, rotation: t.rotation, warnings, ...(script ? { script } : {}) };
}

/**
 * The words of a text page's pictures (TextPage.images: logos, an issuer block drawn as an image),
 * read by OCR and placed on the page: confident words only (MIN_IMAGE_WORD_CONFIDENCE), none where
 * the text layer already has a word (text drawn over a picture is in the layer). A picture that will
 * not read is skipped with a warning: the text layer stands.
 */
async function readPageImages(readers: Readers, page: TextPage, languages: string[], signal: AbortSignal, warnings: string[]): Promise<Word[]> {
  const out: Word[] = [];
  for (const im of page.images ?? []) {
    if (signal.aborted) throw new ReceiptKitError('TIMEOUT', 'extraction was aborted');
    let r;
    try {
      r = await readWholePage(readers.tesseract,
        // a render of the PDF (renderScale: its pixels per PDF point), read whole: never cut to a paper
        { kind: 'raster', index: page.index, image: im.image, width: im.width, height: im.height, exifOrientation: 1, renderScale: im.scale * page.scale },
        { languages, detectOrientation: false, signal });
    } catch (e) {
      if (signal.aborted) throw e;
      warnings.push(`a picture on page ${page.index + 1} was not read: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    for (const line of r.page.lines) {
      for (const w of line.words) {
        if (w.confidence < MIN_IMAGE_WORD_CONFIDENCE || !/[\p{L}\p{N}]/u.test(w.text)) continue;
        const box = {
          x0: im.box.x0 + w.box.x0 / im.scale, y0: im.box.y0 + w.box.y0 / im.scale,
          x1: im.box.x0 + w.box.x1 / im.scale, y1: im.box.y0 + w.box.y1 / im.scale,
        };
        if (page.words.some((t) => overlapShare(t.box, box) > 0.3)) continue;
        out.push({ text: w.text, box, confidence: w.confidence });
      }
    }
  }
  return out;
}

