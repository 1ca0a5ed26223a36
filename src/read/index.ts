/**
 * The reading stage: how pages become a Document and its fields. Takes its readers from a list
 * (readers.ts) and knows no reader's insides; the engine only wires it.
 *
 * - a text page (PDF text layer): its words, plus the pictures on it read by OCR (readPageImages);
 * - a one-page image with `reading: 'fast'`: a primary reader, then targeted looks (fast.ts);
 * - otherwise (the default, 'thorough'): every image page read whole by tesseract, and a one-page
 *   image also by PaddleOCR, with alternate readings of photos, second looks and confirming passes,
 *   the two readings weighed (combine.ts).
 */
import type { LoadedInput, RasterPage, TextPage } from '../input/types.js';
import type { Document, Line, Page, Word, Box } from '../document/types.js';
import { buildDocument, overlapShare } from '../document/geometry.js';
import { linesFromWords, pageFromText } from '../document/layout.js';
import { extractFields, taxAtTotal } from '../extract/index.js';
import type { FieldContext, FieldResults } from '../fields/types.js';
import { ReceiptKitError, isReceiptKitError } from '../errors.js';
import { DEFAULT_SCALING, rotateGray, scaleGray } from '../ocr/preprocess.js';
import { readingQuality, textAxis, textIsVertical } from '../ocr/orientation.js';
import type { TextAxis } from '../ocr/orientation.js';
import type { Rotation } from '../ocr/preprocess.js';
import { readWholePage, rereadLines, toPage } from './whole-page.js';
import { paperFrameFound } from '../ocr/paper.js';
import type { RecognizeOptions } from './whole-page.js';
import { countryLanguage } from '../ocr/languages.js';
import { textRegion } from './region.js';
import { CONFIRM_SCALES, REREAD_HEIGHTS, confirmByPasses, needsAlternate, needsConfirmation, preferAlternate, secondLookDate, secondLookItems, secondLookTotal } from './second-look.js';
import { capUnsettledOrder, combineReadings, readersAgree, swappedOrder, taxWeighedAgain } from './combine.js';
import type { TaxAt } from './combine.js';
import { readImageFast } from './fast.js';
import { StageClock } from './clock.js';
import { PageBudget, readsAsNoise } from './budget.js';
import { latinCountry, pageScript } from './script.js';
import type { PageScript } from './script.js';
import type { Readers } from './readers.js';
import { tapReading } from '../resolve/model.js';
import { stopsAt } from './cascade.js';
import type { CascadeModel } from './cascade.js';

export type { Readers } from './readers.js';

/** The alternate reading of a photo is made in the country's language when the country is at least this sure. */
const LOCAL_READING_MIN_COUNTRY = 0.6;
/**
 * Tesseract languages whose words the English model cannot spell (letters with stacked diacritics:
 * Vietnamese "Tổng tiền" reads "Téng tidn"): a one-page image whose first reading shows such a country
 * (at OWN_MODEL_MIN_COUNTRY) is read again whole in that language, when its data is installed, for the
 * amounts' labels: its total and tax are weighed against the first reading's (combine.ts).
 */
const OWN_MODEL_LANGUAGES: ReadonlySet<string> = new Set(['vie']);
/**
 * How sure the country must be for that reading: lower than for the alternate readings, as the English
 * model's misspellings hide the very words that show the country (a wrong guess costs one reading).
 */
const OWN_MODEL_MIN_COUNTRY = 0.5;
/** Words OCR read from a picture on a PDF text page are kept from this confidence (logo artwork reads as low-confidence letters). */
const MIN_IMAGE_WORD_CONFIDENCE = 0.6;

export interface ReadContext {
  fields: FieldContext;
  /** tesseract codes of the call's languages. */
  languages: string[];
  langPath?: string | undefined;
  reading?: 'fast' | 'thorough' | 'cascade' | undefined;
  /** With `reading: 'cascade'`: where the reading stops (read/cascade.ts); without it the thorough way. */
  cascade?: CascadeModel | undefined;
  confirmPasses?: number | undefined;
  /** Wall-clock budget of a page's reading in ms (read/budget.ts; 0 = none). */
  pageBudgetMs?: number | undefined;
  /** Whole-page re-readings a page may have (read/budget.ts). */
  rereadBudget?: number | undefined;
  signal: AbortSignal;
  clock?: StageClock;
}

export interface DocumentReading {
  document: Document;
  fields: FieldResults;
  /** Clockwise degrees the first page was turned to read upright. */
  rotation: number;
  warnings: string[];
  /**
   * The script of a page the data it was read with cannot read (read/script.ts), found after the first
   * readings (its re-readings with that data then stopped, unless the page named a Latin-script country:
   * latinCountry), or why the detection failed.
   */
  script?: { found: PageScript } | { error: string } | undefined;
}

function wrapUnexpected(e: unknown, message: string): ReceiptKitError {
  if (isReceiptKitError(e)) return e;
  return new ReceiptKitError('UNREADABLE_FILE', `${message}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}

/**
 * A page whose plain working image is under this on its long side is read by the second reader enlarged
 * SECOND_READER_UPSCALE times: PaddleOCR's detector misses text a few pixels high (a 250x250 photo of a
 * Shell receipt gave 5 lines, "VELCONE"; at 500 px, 20 with "Shell Canada" and the date). Measured on
 * the corpus's images under 1000 px (bench/OCR.md): enlarged, the labelled values present in PaddleOCR's
 * text rose (WildReceipt dates 50 -> 55 of 58), but whole extractions changed both ways from 450 px up
 * (2 fixed, 10 broken, 4 of them totals) and only gained under 400 px (ww034 date and currency, ww132
 * tax and name; nothing broken among the 14 such images).
 */
export const SECOND_READER_SMALL_BELOW = 400;
export const SECOND_READER_UPSCALE = 2;

/** The factor the second reader enlarges an image by (1: read as it is). */
export function secondReaderScale(img: { width: number; height: number }): number {
  return Math.max(img.width, img.height) < SECOND_READER_SMALL_BELOW ? SECOND_READER_UPSCALE : 1;
}

/** The second reading of the thorough way: PaddleOCR on the plain working image at a known rotation (a small one enlarged: secondReaderScale). */
async function readSecond(readers: Readers, page: RasterPage, rotation: Rotation, signal: AbortSignal) {
  if (!readers.paddle) throw new Error('the second reader is off');
  const work = await readers.tesseract.working(page, DEFAULT_SCALING, false);
  const upright = rotateGray(work, rotation);
  const k = secondReaderScale(upright);
  const read = (await readers.paddle.readPage(k > 1 ? await scaleGray(upright, k) : upright, { signal })).lines.flat();
  if (signal.aborted) throw new ReceiptKitError('TIMEOUT', 'extraction was aborted');
  // boxes back in the upright working image's pixels
  const found = k > 1 ? read.map((w) => ({ ...w, box: { x0: w.box.x0 / k, y0: w.box.y0 / k, x1: w.box.x1 / k, y1: w.box.y1 / k } })) : read;
  return toPage(page, work, { rotation, width: upright.width, height: upright.height, lines: [found] }, (groups) => linesFromWords(groups.flat()));
}

/** A reading of the one page again, whole: its document and simple fields (readAgain). */
interface Reread { doc: Document; fields: FieldResults }

/** What the stages of the thorough reading share: the first reading, the fields so far, the budget. */
interface Thorough {
  input: LoadedInput;
  readers: Readers;
  ctx: ReadContext;
  signal: AbortSignal;
  clock: StageClock;
  budget: PageBudget;
  warnings: string[];
  document: Document;
  fields: FieldResults;
  /** Clockwise degrees the first page was turned to read upright. */
  rotation: number;
  /** The one page, when it is an image that was OCR'd: what the whole-page re-readings read. */
  image: RasterPage | undefined;
  /** The page's own language, when it is read in it (ownLanguage). */
  own: string | undefined;
  /** The page read in its own language (enhance by default, as recognize does): reused by the alternate readings. */
  ownReading: Reread | undefined;
  /** The second reader's reading. */
  second: Reread | undefined;
  /** Every whole-page reading's fields as it read them (first, second reader, own language, alternates, passes): the readers' agreement. */
  readings: FieldResults[];
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

/**
 * A one-page image both readers read as noise is read at the other axis (upright if it was read sideways,
 * sideways if upright; 0/180 searched again) before any "noise" conclusion: a background the direction
 * misjudged must not hide a legible receipt. The other axis's readings replace the first when they are
 * not noise and tesseract read their words at least as surely (readingQuality): an upright page whose
 * total is only uncertain is no noise, and sideways garbage that happens to print "£30" does not replace
 * it. True when they did.
 */
async function readOtherAxis(t: Thorough): Promise<boolean> {
  const image = t.image;
  if (!image || !t.second || !t.readers.paddle || t.signal.aborted) return false;
  try {
    const r = await t.clock.time('read:tesseract', () => readWholePage(t.readers.tesseract, image, { languages: t.ctx.languages, detectOrientation: true, vertical: t.rotation % 180 === 0, signal: t.signal }));
    const doc = buildDocument([await inPaperFrame({ ...r.page, index: 0 }, image)]);
    const fields = extractFields(doc, t.ctx.fields);
    const secondPage = await t.clock.time('read:paddleocr', () => readSecond(t.readers, image, r.rotation, t.signal));
    const secondDoc = buildDocument([{ ...secondPage, index: 0 }]);
    const second = { doc: secondDoc, fields: extractFields(secondDoc, t.ctx.fields) };
    if (readsAsNoise(fields, second.fields)) return false;
    const wordsOf = (d: Document) => d.lines.flatMap((l) => l.words);
    if (readingQuality(wordsOf(doc)).confidence < readingQuality(wordsOf(t.document)).confidence) return false;
    Object.assign(t, { document: doc, fields, second, rotation: r.rotation, ownReading: undefined, readings: [fields, second.fields] });
    return true;
  } catch (e) {
    if (t.signal.aborted) throw e;
    return false; // the first axis's reading stands
  }
}

/**
 * Where the page's text is (read/region.ts): from the second reader's lines, holding the total and date
 * both readers found. Undefined (the page read whole) without a second reading.
 */
function textRegionOf(t: Thorough): Box | undefined {
  if (!t.second) return undefined;
  const keep = [t.fields, t.second.fields].flatMap((f) => [...(f.totalAmount?.boxes ?? []), ...(f.date?.boxes ?? [])]);
  return textRegion(t.second.doc, keep);
}

/** The one page read again (another language, image or scale), where its text is: its document and simple fields. */
async function readAgain(t: Thorough, page: RasterPage, how: Pick<RecognizeOptions, 'languages' | 'enhance' | 'scaling'>, stage = 'reread:tesseract'): Promise<Reread> {
  const region = textRegionOf(t);
  const r = await t.clock.time(stage, () => readWholePage(t.readers.tesseract, page, { languages: t.ctx.languages, ...how, ...(region ? { region } : {}), signal: t.signal, rotation: t.document.pages[0]!.rotation }));
  const doc = buildDocument([{ ...r.page, index: 0 }]);
  return { doc, fields: extractFields(doc, { ...t.ctx.fields, extractLineItems: false }) };
}

/**
 * The page read in its own language (counted, not timed: the first model cannot spell its labels).
 * The labels of the amounts are legible in the page's language ("Tổng tiền", "Tiền khách trả"): its
 * total and tax are weighed against the first reading's; the date and the name stay the first
 * reading's (the English model reads digits and a bold or logo name as well or better).
 */
async function readInOwnLanguage(t: Thorough): Promise<void> {
  if (!t.image || !t.own || !t.budget.allows(`read:${t.own}`, 'whole', true)) return;
  try {
    t.ownReading = await readAgain(t, t.image, { languages: [t.own] }, `read:tesseract:${t.own}`);
    t.readings.push(t.ownReading.fields);
    t.fields = combineReadings(t.document, t.fields, t.ownReading.doc, t.ownReading.fields, 'own-language', { fields: ['totalAmount', 'taxAmount'], taxAt: (d, total) => taxAtTotal(d, t.ctx.fields, total), readings: t.readings });
  } catch (e) {
    if (t.signal.aborted) throw e;
    t.warnings.push(`the page was not read again in ${t.own}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The second reader's reading of a one-page image (the one read ahead when the page is upright). */
async function readBySecond(t: Thorough, ahead: Promise<Awaited<ReturnType<typeof readSecond>>> | undefined): Promise<void> {
  if (!t.image || !t.readers.paddle || t.signal.aborted) return;
  try {
    const rotation = t.document.pages[0]!.rotation;
    const page = ahead && rotation === 0 ? await ahead : await t.clock.time('read:paddleocr', () => readSecond(t.readers, t.image!, rotation, t.signal));
    const doc = buildDocument([{ ...page, index: 0 }]);
    t.second = { doc, fields: extractFields(doc, t.ctx.fields) };
    t.readings.push(t.second.fields);
  } catch (e) {
    if (t.signal.aborted) throw e;
    t.warnings.push(`second reader (PaddleOCR) not used, tesseract's reading stands: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * A photographed page read from its enhanced image, whose total or date is uncertain: other readings,
 * in the country's own language when the document shows one that is installed (values only: the same
 * pixels misread alike), and of the plain image (values, and a date both images agree on is confirmed).
 */
async function readAlternates(t: Thorough, image: RasterPage): Promise<void> {
  const { fields, ctx } = t;
  const local = fields.country && fields.country.confidence >= LOCAL_READING_MIN_COUNTRY ? countryLanguage(fields.country.code, ctx.langPath) : undefined;
  const readings = [
    ...(local && !ctx.languages.includes(local) ? [{ languages: [local], enhance: true, tag: `local-reading:${local}`, confirms: false }] : []),
    { languages: ctx.languages, enhance: false, tag: 'plain-reading', confirms: true },
  ];
  // admitted in order while the budget allows, read at once (one worker each when the pool has several),
  // weighed in order: the same answer as one after the other
  const admitted: Array<{ alt: typeof readings[number]; again: Promise<Reread | undefined> }> = [];
  for (const alt of readings) {
    if (t.signal.aborted) break;
    // the page's own-language reading is this very reading (same language, enhanced): not made twice
    const made = t.ownReading && alt.enhance && alt.languages.length === 1 && alt.languages[0] === t.own ? t.ownReading : undefined;
    if (!made && !t.budget.allows(alt.tag, 'whole')) break;
    const again = made ? Promise.resolve(made) : readAgain(t, image, { languages: alt.languages, enhance: alt.enhance });
    admitted.push({ alt, again: again.catch((e: unknown) => { if (t.signal.aborted) throw e; return undefined; }) }); // a failed alternate reading leaves the first
  }
  const agains = await Promise.all(admitted.map((a) => a.again));
  admitted.forEach(({ alt }, i) => {
    const again = agains[i];
    if (again && again !== t.ownReading) t.readings.push(again.fields);
    if (again) t.fields = preferAlternate(t.document, t.fields, again.doc, again.fields, undefined, alt.tag, alt.confirms);
  });
}

/** Reads lines again from the image at several heights (the second looks of fields/second-look.ts), within the budget. */
function lineReader(t: Thorough) {
  return async (lines: Line[]) => {
    const out: Array<Array<Array<{ text: string; confidence: number; box: Box }>>> = lines.map(() => []);
    for (const pageIndex of new Set(lines.map((l) => l.page))) {
      const page = t.input.pages[pageIndex];
      const docPage = t.document.pages[pageIndex];
      if (!page || page.kind !== 'raster' || !docPage || t.signal.aborted) continue;
      const mine = lines.map((l, i) => [l, i] as const).filter(([l]) => l.page === pageIndex);
      if (!t.budget.allows('lines', 'lines')) break; // unread lines leave the first reading
      try {
        const reads = await t.clock.time('lines:tesseract', () => rereadLines(t.readers.tesseract, page, docPage.rotation, mine.map(([l]) => l.box), REREAD_HEIGHTS, { languages: t.ctx.languages, signal: t.signal }));
        mine.forEach(([, i], j) => { out[i] = reads[j] ?? []; });
      } catch (e) {
        if (t.signal.aborted) throw e; // a failed second look leaves the first reading
      }
    }
    return out;
  };
}

/**
 * Whole-page confirming passes at other scales, for a one-page image whose total or date is still
 * uncertain. They confirm only as a set: the budget admits all of them or none, never a pass that would
 * be discarded. A pass that reads the total clearly more confidently replaces it; agreement raises only
 * the first reading's total.
 */
async function confirmingPasses(t: Thorough, image: RasterPage): Promise<void> {
  const confirmPasses = Math.min(t.ctx.confirmPasses ?? CONFIRM_SCALES.length, CONFIRM_SCALES.length);
  if (confirmPasses <= 0 || !needsConfirmation(t.fields) || !t.budget.allows('pass-readings', 'whole', false, confirmPasses)) return;
  // read at once (one worker each when the pool has several); a failed pass confirms nothing
  const read = await Promise.all(CONFIRM_SCALES.slice(0, confirmPasses).map((side) =>
    readAgain(t, image, { scaling: { maxLongSide: side, minLongSide: side, maxUpscale: 2 } })
      .catch((e: unknown) => { if (t.signal.aborted) throw e; return undefined; })));
  const passes = read.filter((p): p is Reread => p !== undefined);
  if (passes.length !== confirmPasses) return;
  t.readings.push(...passes.map((p) => p.fields));
  const first = t.fields.totalAmount;
  passes.forEach((p, i) => { t.fields = preferAlternate(t.document, t.fields, p.doc, p.fields, ['totalAmount'], `pass-reading:${CONFIRM_SCALES[i]}`, false); });
  if (t.fields.totalAmount === first) t.fields = confirmByPasses(t.fields, passes.map((p) => p.fields));
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
  const cascade = ctx.reading === 'cascade' ? ctx.cascade : undefined;
  let ahead: Promise<Awaited<ReturnType<typeof readSecond>>> | undefined;
  if (!cascade && one && readers.paddle && !signal.aborted && !(axis && textIsVertical({ vertical: false }, axis))) {
    ahead = clock.time('read:paddleocr', () => readSecond(readers, one, 0, signal));
    ahead.catch(() => undefined); // unused when the page is turned; a failure is reported where it is used
  }
  const { pages, targetRotation, enhancedPhoto } = await firstReadings(input, readers, ctx, clock, budget, warnings, axis);
  const first = buildDocument(pages);
  const only = input.pages.length === 1 ? input.pages[0] : undefined;
  const image = only?.kind === 'raster' && first.pages[0]?.source === 'ocr' ? only : undefined;
  const t: Thorough = { input, readers, ctx, signal, clock, budget, warnings, document: first, fields: extractFields(first, ctx.fields), rotation: targetRotation, image, own: undefined, ownReading: undefined, second: undefined, readings: [] };
  t.readings.push(t.fields);
  tapReading('tesseract', () => t.fields);
  // a first reading sure of the core fields is read no more (the cascade's first stop)
  const sureFirst = !!image && stopsAt(t.fields, cascade?.stages.tesseract);
  // the second reading first: its lines say where the text is for the re-readings (read/region.ts)
  if (!sureFirst) await readBySecond(t, ahead);
  if (t.second) tapReading('paddleocr', () => t.second!.fields);
  // a page in a script the data it was read with cannot read is not read again with that data: each re-reading would be as unreadable
  const script = image && !signal.aborted ? await unreadScript(input, t) : undefined;
  // (not where the page's own evidence names a country that writes in Latin letters: a detection can be wrong, 1 of the corpus's 509 files)
  if (script && 'found' in script && !latinCountry(t.fields)) budget.stop(`the page's text looks ${script.found.script}, which ${ctx.languages.join('+')} cannot read`);
  t.own = image && !signal.aborted ? ownLanguage(t.fields, ctx) : undefined;
  await readInOwnLanguage(t);
  // noise at one axis: the other axis is read before the page is given up as noise
  if (t.second && readsAsNoise(t.fields, t.second.fields) && budget.allows('other-axis', 'whole', true) && await readOtherAxis(t)) {
    t.own = ownLanguage(t.fields, ctx);
    await readInOwnLanguage(t);
  }
  const document = t.document;
  const taxAt: TaxAt = (d, total) => taxAtTotal(d, ctx.fields, total);
  // the two readings weighed as the reading would end with nothing read again (the cascade's second stop)
  let provisional: FieldResults | undefined;
  const weighed = (): FieldResults => (provisional ??= t.second ? combineReadings(document, t.fields, t.second.doc, t.second.fields, 'second-reader', { hints: ctx.fields, taxAt, readings: t.readings, tap: false }) : t.fields);
  tapReading('both', weighed);
  // when both readers give the same total and date, tesseract's own re-readings have nothing left to settle
  // (and, in the cascade, when the first reading, or the two readings weighed, are sure of the core fields)
  const settled = (!!t.second && readersAgree(t.fields, t.second.fields, ['totalAmount', 'date'])) || sureFirst
    || (!!cascade && !!t.second && stopsAt(weighed(), cascade.stages.both));
  // a page both readers read as noise gets its quick low-confidence answer: reading it again finds nothing
  if (t.second && readsAsNoise(t.fields, t.second.fields)) budget.stop('both readers read the page as noise (no date, no total)');
  if (!settled && enhancedPhoto && image && needsAlternate(t.fields) && !signal.aborted) await readAlternates(t, image);
  // an uncertain date, and items that do not add up, are read again from the image (fields/second-look.ts)
  const reader = lineReader(t);
  // a date the second reader read otherwise is read again even when sure (small print: one digit misread by one reader)
  const disputed = !!t.fields.date && !!t.second?.fields.date && t.second.fields.date.value !== t.fields.date.value && !swappedOrder(t.fields.date.value, t.second.fields.date.value);
  if (!settled) t.fields = await secondLookDate(document, t.fields, ctx.fields, reader, disputed, t.second?.doc);
  if (!settled && t.second) t.fields = await secondLookTotal(document, t.fields, ctx.fields, reader, t.second.doc, t.second.fields);
  if (ctx.fields.extractLineItems) t.fields = await secondLookItems(document, t.fields, ctx.fields, reader);
  if (!settled && image) await confirmingPasses(t, image);
  // the second reading weighed against the first (and what the re-readings above made of it)
  if (t.second) t.fields = combineReadings(document, t.fields, t.second.doc, t.second.fields, 'second-reader', { hints: ctx.fields, taxAt, readings: t.readings });
  // a total the second looks or passes replaced, with no second reading to weigh it: the tax found at it
  t.fields = taxWeighedAgain(document, t.fields, t.fields.totalAmount?.value, taxAt);
  t.fields = capUnsettledOrder(t.fields);
  const spent = budget.warning();
  if (spent) warnings.push(spent);
  warnings.push(...t.fields.warnings);
  return { document, fields: t.fields, rotation: t.rotation, warnings, ...(script ? { script } : {}) };
}

/**
 * The script of the one image page when the call's languages cannot read it (read/script.ts pageScript:
 * asked only where the first reading looks unread), or why the detection failed; undefined when the page
 * reads, or its script is one of theirs.
 */
async function unreadScript(input: LoadedInput, t: Thorough): Promise<DocumentReading['script']> {
  try {
    const found = await t.clock.time('script', () => pageScript(input, t.document, t.readers, t.signal));
    return found && found.languages.length && !found.languages.some((c) => t.ctx.languages.includes(c)) ? { found } : undefined;
  } catch (e) {
    if (t.signal.aborted) throw e;
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * An OCR'd page in the frame its working image was cut from: the paper's (Page.paper: boxes map back to
 * the photo through it) when a paper was found in the photo (ocr/paper.ts), else the page as it is.
 */
export async function inPaperFrame<P extends Omit<Page, 'lineIndices'>>(p: P, page: RasterPage): Promise<P> {
  const paper = await paperFrameFound(page);
  return paper ? { ...p, paper, originalWidth: paper.imageWidth, originalHeight: paper.imageHeight } : p;
}

/**
 * The language a one-page image is read again in: its country's (fields.country at
 * OWN_MODEL_MIN_COUNTRY) when that is one of OWN_MODEL_LANGUAGES, is installed and is not already
 * among the call's languages (a `language` hint that names it reads it so from the start).
 */
function ownLanguage(fields: FieldResults, ctx: ReadContext): string | undefined {
  const country = fields.country;
  if (!country || country.confidence < OWN_MODEL_MIN_COUNTRY) return undefined;
  const code = countryLanguage(country.code, ctx.langPath);
  return code && OWN_MODEL_LANGUAGES.has(code) && !ctx.languages.includes(code) ? code : undefined;
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

