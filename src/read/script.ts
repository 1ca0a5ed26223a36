/**
 * A page whose text is in a script the OCR data used cannot read (issue 50, item 3): Thai, Cyrillic,
 * Arabic, Hebrew, CJK, Devanagari... read with Latin-script data comes out as Latin-looking noise, its
 * digits mostly right. Tesseract's script detection (ocr/script.ts; a median 120 ms a page, 10-380 ms) is
 * asked only where the first reading looks unread (`looksUnread`); what it finds is named in a warning with
 * the package that reads it, and the engine reads the page again with that data when it is installed.
 */
import type { Document, Word } from '../document/types.js';
import type { RasterPage } from '../input/types.js';
import { DEFAULT_SCALING, paperLevel, rotateGray } from '../ocr/preprocess.js';
import type { GrayImage } from '../ocr/preprocess.js';
import { scriptLanguages } from '../ocr/script.js';
import type { ScriptDetection } from '../ocr/script.js';
import type { Readers } from './readers.js';
import type { FieldResults } from '../fields/types.js';
import { countryLocale } from '../locale/world/data.js';

/** How legible a reading's words are: what the script condition is decided on. */
export interface Legibility {
  /** Words of letters only (two or more, no digit): what another script's data misreads. */
  letterWords: number;
  /** Share of them read at CONFIDENT_WORD or more. */
  confidentShare: number;
  /** Their mean confidence. */
  meanConfidence: number;
  /** Words with a digit (prices, dates, ids): what any script's data reads alike. */
  figureWords: number;
  /** Share of them read at CONFIDENT_WORD or more. */
  figureShare: number;
}

/** A word read at least this surely counts as read (tesseract's confidence, 0..1). */
export const CONFIDENT_WORD = 0.8;

/** The legibility of a page's words (the words of its lines). */
export function legibility(words: readonly Pick<Word, 'text' | 'confidence'>[]): Legibility {
  let n = 0, confident = 0, sum = 0, figures = 0, surely = 0;
  for (const w of words) {
    if (/\p{N}/u.test(w.text)) {
      figures++;
      if (w.confidence >= CONFIDENT_WORD) surely++;
    }
    if (!isLetterWord(w.text)) continue;
    n++;
    sum += w.confidence;
    if (w.confidence >= CONFIDENT_WORD) confident++;
  }
  return { letterWords: n, confidentShare: n ? confident / n : 0, meanConfidence: n ? sum / n : 0, figureWords: figures, figureShare: figures ? surely / figures : 0 };
}

/** Letter words and figure words below which a page says nothing either way (a page of figures, a photo of a logo). */
export const MIN_LETTER_WORDS = 4;
export const MIN_FIGURE_WORDS = 3;
/** A first reading whose letter words are read surely under this share looks unread... */
export const UNREAD_LETTER_SHARE = 0.5;
/** ...when its figures are read surely at least this share: the digits are legible, the letters are not. */
export const READ_FIGURE_SHARE = 0.5;

/**
 * True when a first reading looks like another script's text read with the wrong data: its letter words
 * mostly unsure while its figures (which any script's data reads) mostly sure. Measured by
 * bench/script-detect.mjs on 72 drawn receipts: it holds on all 34 upright Cyrillic, Greek, Hebrew and Arabic
 * pages (letter shares 0-0.37, figure shares 0.57-1) and on none of the 34 upright Latin ones (letter shares
 * 0.74-1), and on 72 of 960 recorded tesseract page readings of the corpus pool (7.5 %; the letter share alone: 48 %).
 */
export function looksUnread(l: Legibility): boolean {
  return l.letterWords >= MIN_LETTER_WORDS && l.figureWords >= MIN_FIGURE_WORDS
    && l.confidentShare < UNREAD_LETTER_SHARE && l.figureShare >= READ_FIGURE_SHARE;
}

/**
 * A detection names the page's script from this confidence (0.5: tesseract's own acceptance ratio, 1.3, of
 * the best script over the next). Of those 34 drawn pages, 28 were named right, 1 wrong (Greek as Cyrillic)
 * and 5 not at all (OSD found no script on 2 Arabic pages, called a Ukrainian one Latin, 2 under 0.5).
 */
export const MIN_SCRIPT_CONFIDENCE = 0.5;

/** A script found on a page, and the languages that read it. */
export interface PageScript extends ScriptDetection {
  /** Index of the page it was found on. */
  page: number;
  /** Tesseract codes that read the script, likeliest first (none for Latin). */
  languages: readonly string[];
  /** The legibility of the first reading that asked for the detection. */
  legibility: Legibility;
}

/**
 * The script of the first OCR'd image page of a reading, when its words look unread (looksUnread):
 * detected on its upright plain working image. Undefined when the words look read, there is no such
 * page, or the OSD data is not installed. One detection at most per document.
 */
export async function pageScript(input: { pages: ReadonlyArray<{ kind: string }> }, document: Document, readers: Pick<Readers, 'tesseract'>, signal: AbortSignal): Promise<PageScript | undefined> {
  const docPage = document.pages.find((p) => p.source === 'ocr' && input.pages[p.index]?.kind === 'raster');
  if (!docPage || signal.aborted) return undefined;
  const words = docPage.lineIndices.flatMap((i) => document.lines[i]?.words ?? []);
  const l = legibility(words);
  if (!looksUnread(l)) return undefined;
  const page = input.pages[docPage.index] as RasterPage;
  const upright = rotateGray(await readers.tesseract.working(page, DEFAULT_SCALING, false), docPage.rotation);
  const found = await readers.tesseract.detectScript(withoutFigures(upright, words, docPage), { signal });
  // a page OSD would turn was read at the wrong orientation: that, not its script, is why it reads badly
  if (!found || found.confidence < MIN_SCRIPT_CONFIDENCE || (found.orientation ?? 0) !== 0) return undefined;
  return { ...found, page: docPage.index, languages: scriptLanguages(found.script), legibility: l };
}

/** The packages a warning names for a script: its likeliest languages, at most three. */
function packagesOf(ps: Pick<PageScript, 'languages'>): string {
  const names = ps.languages.slice(0, 3).map((c) => `@tesseract.js-data/${c}`);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0] ?? '';
}

/**
 * The warning of a page whose script the data used cannot read: `missing` (no installed data reads it),
 * `hinted` (the `language` option named other data: the page was not read again), or `read` with the
 * codes it was read again with (`kept`: that reading replaced the first; `error`: that reading failed).
 */
export function scriptWarning(ps: Pick<PageScript, 'script' | 'confidence' | 'languages'>, how: { missing: true } | { hinted: string } | { read: string; kept: boolean } | { read: string; error: string }): string {
  const looks = `the page's text looks ${ps.script} (script detection ${ps.confidence.toFixed(2)})`;
  if ('missing' in how) return `${looks}; install ${packagesOf(ps)} to read it`;
  if ('hinted' in how) return `${looks}; it was read with ${how.hinted} as the language option asks (${ps.languages.join(', ')} would read it)`;
  if ('error' in how) return `${looks}; reading it again with ${how.read} failed, the first reading stands: ${how.error}`;
  return `${looks}: read again with ${how.read}${how.kept ? '' : ', the first reading kept (its fields were surer)'}`;
}

/** True for a word of letters only (two or more, no digit). */
function isLetterWord(text: string): boolean {
  return text.replace(/[^\p{L}]/gu, '').length >= 2 && !/\p{N}/u.test(text);
}

/**
 * The page with every word read as figures or signs painted over in the paper's grey: OSD counts digits
 * and signs as the `Common` script, which wins on a receipt's columns of prices (5 of the first 6 drawn
 * Greek, Hebrew and Arabic receipts came out `Common` unpainted), and the letters are the script's evidence.
 * `words` are in the page's frame (`size`), the image is the upright working image.
 */
export function withoutFigures(img: GrayImage, words: readonly Pick<Word, 'text' | 'box'>[], size: { width: number; height: number }): GrayImage {
  const kx = img.width / size.width, ky = img.height / size.height;
  const out = Buffer.from(img.gray);
  const paper = paperLevel(img);
  for (const w of words) {
    if (isLetterWord(w.text)) continue;
    const m = (w.box.y1 - w.box.y0) * ky * 0.15;
    const x0 = Math.max(0, Math.floor(w.box.x0 * kx - m)), x1 = Math.min(img.width, Math.ceil(w.box.x1 * kx + m));
    const y0 = Math.max(0, Math.floor(w.box.y0 * ky - m)), y1 = Math.min(img.height, Math.ceil(w.box.y1 * ky + m));
    for (let y = y0; y < y1 && x1 > x0; y++) out.fill(paper, y * img.width + x0, y * img.width + x1);
  }
  return { gray: out, width: img.width, height: img.height };
}

/** A country shown at this confidence or more is the page's evidence of where it is from, and so of its script. */
const SCRIPT_COUNTRY_MIN = 0.9;

/** The fields name, at SCRIPT_COUNTRY_MIN, a country whose likeliest language writes in Latin letters (CLDR likely subtags: MY -> ms-Latn-MY). */
export function latinCountry(fields: Pick<FieldResults, 'country'>): boolean {
  const c = fields.country;
  if (!c || c.confidence < SCRIPT_COUNTRY_MIN) return false;
  const locale = countryLocale(c.code);
  return !!locale && new Intl.Locale(locale).script === 'Latn';
}
