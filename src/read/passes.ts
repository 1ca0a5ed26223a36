/**
 * The thorough reading's passes after the first readings (issue 51 item 1): each a step with the condition
 * that runs it, in order, run by one function (runPasses), like chrono's parsers and refiners: the second
 * reader, the script check, the page's own language, the other axis, the stop decision (readers agreed, or
 * the cascade's stop lines: read/cascade.ts), alternate readings, second looks, confirming passes, and the
 * weighing of the two readings.
 */
import type { LoadedInput, RasterPage } from '../input/types.js';
import type { Document, Line, Page, Box } from '../document/types.js';
import { buildDocument } from '../document/geometry.js';
import { linesFromWords } from '../document/layout.js';
import { extractFields, taxAtTotal } from '../extract/index.js';
import type { FieldResults } from '../fields/types.js';
import { ReceiptKitError } from '../errors.js';
import { DEFAULT_SCALING, rotateGray, scaleGray } from '../ocr/preprocess.js';
import { readingQuality } from '../ocr/orientation.js';
import type { Rotation } from '../ocr/preprocess.js';
import { readWholePage, rereadLines, toPage } from './whole-page.js';
import { paperFrameFound } from '../ocr/paper.js';
import type { RecognizeOptions } from './whole-page.js';
import { countryLanguage } from '../ocr/languages.js';
import { textRegion } from './region.js';
import { CONFIRM_SCALES, REREAD_HEIGHTS, confirmByPasses, needsAlternate, needsConfirmation, preferAlternate, secondLookDate, secondLookItems, secondLookTotal } from './second-look.js';
import type { LinesReader } from './second-look.js';
import { capUnsettledOrder, combineReadings, readersAgree, swappedOrder, taxWeighedAgain } from './combine.js';
import type { TaxAt } from './combine.js';
import { StageClock } from './clock.js';
import { PageBudget, readsAsNoise } from './budget.js';
import { latinCountry, pageScript } from './script.js';
import type { Readers } from './readers.js';
import type { ReadContext, DocumentReading } from './types.js';
import { tapReading } from '../resolve/model.js';
import { sureOf } from './cascade.js';
import type { CascadeModel } from './cascade.js';

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
export async function readSecond(readers: Readers, page: RasterPage, rotation: Rotation, signal: AbortSignal) {
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
export interface Thorough {
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
  /** The second reader's reading of the page upright, started beside the first reading (readDocument). */
  ahead: Promise<SecondPage> | undefined;
  /** The first reading was of an enhanced photo (the alternates read the plain one). */
  enhancedPhoto: boolean;
  /** The cascade's stop lines (read/cascade.ts), when the reading is the cascade. */
  cascade: CascadeModel | undefined;
  /** The first reading alone was sure of the core fields: the cascade's first stop. */
  sureFirst: boolean;
  /** The page's script, when the call's languages cannot read it (unreadScript). */
  script: DocumentReading['script'];
  /** Set by the stop decision: nothing is read again (the readers agreed, or the cascade stopped)... */
  settled: boolean;
  /** ...or only the total or only the date is sure (the cascade's second stop, field by field). */
  sureTotal: boolean;
  sureDate: boolean;
  /** The tax found at a total (extract/index.ts taxAtTotal), for the weighings. */
  taxAt: TaxAt;
}

/** What the second reader made of the page (readSecond). */
export type SecondPage = Awaited<ReturnType<typeof readSecond>>;

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
async function readBySecond(t: Thorough): Promise<void> {
  const { ahead } = t;
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

/**
 * Reads lines again from the image at several heights (the second looks of read/second-look.ts), within the
 * budget. One reader serves one look: a page's lines are counted against the budget once, on the first call
 * that reads them, however many heights the look then asks for one at a time.
 */
function lineReader(t: Thorough): LinesReader {
  const admitted = new Set<number>();
  let denied = false;
  return async (lines, heights = REREAD_HEIGHTS) => {
    const out: Array<Array<Array<{ text: string; confidence: number; box: Box }>>> = lines.map(() => []);
    for (const pageIndex of new Set(lines.map((l) => l.page))) {
      const page = t.input.pages[pageIndex];
      const docPage = t.document.pages[pageIndex];
      if (!page || page.kind !== 'raster' || !docPage || t.signal.aborted) continue;
      const mine = lines.map((l, i) => [l, i] as const).filter(([l]) => l.page === pageIndex);
      // a page is counted once; once one is refused, none after it is read (unread lines leave the first reading)
      if (!admitted.has(pageIndex)) {
        if (denied || !t.budget.allows('lines', 'lines')) { denied = true; break; }
        admitted.add(pageIndex);
      }
      try {
        const reads = await t.clock.time('lines:tesseract', () => rereadLines(t.readers.tesseract, page, docPage.rotation, mine.map(([l]) => l.box), heights, { languages: t.ctx.languages, signal: t.signal }));
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


/** A pass of the thorough reading: its name, the condition that runs it, and what it does to the shared state. */
export interface ReadingPass {
  name: string;
  when: (t: Thorough) => boolean;
  run: (t: Thorough) => Promise<void> | void;
}

/** The second reading weighed against the fields so far (`tap` false: a provisional weighing, not told to the combine taps). */
function weighSecond(t: Thorough, tap = true): FieldResults {
  return t.second ? combineReadings(t.document, t.fields, t.second.doc, t.second.fields, 'second-reader', { hints: t.ctx.fields, taxAt: t.taxAt, readings: t.readings, ...(tap ? {} : { tap: false }) }) : t.fields;
}

/**
 * Whether anything is read again: not when both readers give the same total and date (tesseract's own
 * re-readings have nothing left to settle), nor, in the cascade, when the first reading was sure of the core
 * fields; the two readings weighed may be sure of the total or of the date alone (read/cascade.ts). A page both
 * readers read as noise gets its quick low-confidence answer: reading it again finds nothing.
 */
function decideStop(t: Thorough): void {
  let provisional: FieldResults | undefined;
  const both = (): FieldResults => (provisional ??= weighSecond(t, false));
  tapReading('both', both);
  const sure = (k: 'totalAmount' | 'date') => !!t.cascade && !!t.second && sureOf(both(), k, t.cascade.stages.both);
  t.sureTotal = sure('totalAmount');
  t.sureDate = sure('date');
  t.settled = (!!t.second && readersAgree(t.fields, t.second.fields, ['totalAmount', 'date'])) || t.sureFirst || (t.sureTotal && t.sureDate);
  if (t.second && readsAsNoise(t.fields, t.second.fields)) t.budget.stop('both readers read the page as noise (no date, no total)');
}

/** The passes in order. Each reads what the ones before it left in the shared state. */
export const READING_PASSES: readonly ReadingPass[] = [
  // the second reading first: its lines say where the text is for the re-readings (read/region.ts)
  { name: 'second-reader', when: (t) => !t.sureFirst, run: async (t) => { await readBySecond(t); if (t.second) tapReading('paddleocr', () => t.second!.fields); } },
  // a page in a script the data it was read with cannot read is not read again with that data: each re-reading
  // would be as unreadable (not where the page's own evidence names a country that writes in Latin letters: a
  // detection can be wrong, 1 of the corpus's 509 files)
  {
    name: 'script', when: (t) => !!t.image && !t.signal.aborted,
    run: async (t) => {
      t.script = await unreadScript(t.input, t);
      if (t.script && 'found' in t.script && !latinCountry(t.fields)) t.budget.stop(`the page's text looks ${t.script.found.script}, which ${t.ctx.languages.join('+')} cannot read`);
    },
  },
  { name: 'own-language', when: (t) => !!t.image && !t.signal.aborted, run: async (t) => { t.own = ownLanguage(t.fields, t.ctx); await readInOwnLanguage(t); } },
  // noise at one axis: the other axis is read before the page is given up as noise
  {
    name: 'other-axis', when: (t) => !!t.second && readsAsNoise(t.fields, t.second.fields) && t.budget.allows('other-axis', 'whole', true),
    run: async (t) => { if (await readOtherAxis(t)) { t.own = ownLanguage(t.fields, t.ctx); await readInOwnLanguage(t); } },
  },
  { name: 'stop', when: () => true, run: decideStop },
  { name: 'alternates', when: (t) => !t.settled && t.enhancedPhoto && !!t.image && needsAlternate(t.fields) && !t.signal.aborted, run: (t) => readAlternates(t, t.image!) },
  // an uncertain date, and items that do not add up, are read again from the image (fields/second-look.ts)
  {
    name: 'second-look:date', when: (t) => !t.settled && !t.sureDate,
    run: async (t) => {
      // a date the second reader read otherwise is read again even when sure (small print: one digit misread by one reader)
      const d = t.fields.date, d2 = t.second?.fields.date;
      const disputed = !!d && !!d2 && d2.value !== d.value && !swappedOrder(d.value, d2.value);
      t.fields = await secondLookDate(t.document, t.fields, t.ctx.fields, lineReader(t), disputed, t.second?.doc);
    },
  },
  { name: 'second-look:total', when: (t) => !t.settled && !t.sureTotal && !!t.second, run: async (t) => { t.fields = await secondLookTotal(t.document, t.fields, t.ctx.fields, lineReader(t), t.second!.doc, t.second!.fields); } },
  { name: 'second-look:items', when: (t) => !!t.ctx.fields.extractLineItems, run: async (t) => { t.fields = await secondLookItems(t.document, t.fields, t.ctx.fields, lineReader(t)); } },
  { name: 'confirming-passes', when: (t) => !t.settled && !t.sureTotal && !!t.image, run: (t) => confirmingPasses(t, t.image!) },
  // the second reading weighed against the first (and what the re-readings above made of it)
  { name: 'weigh-second', when: (t) => !!t.second, run: (t) => { t.fields = weighSecond(t); } },
  // a total the second looks or passes replaced, with no second reading to weigh it: the tax found at it
  { name: 'tax-again', when: () => true, run: (t) => { t.fields = capUnsettledOrder(taxWeighedAgain(t.document, t.fields, t.fields.totalAmount?.value, t.taxAt)); } },
];

/** Runs the passes in order, each where its condition holds. */
export async function runPasses(t: Thorough, passes: readonly ReadingPass[] = READING_PASSES): Promise<void> {
  for (const pass of passes) if (pass.when(t)) await pass.run(t);
}
