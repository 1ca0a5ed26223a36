/**
 * The script a page's text is written in (issue 50, item 3: "languages and scripts nobody installed"), by
 * tesseract's orientation and script detection (OSD): the legacy engine (tesseract.js-core's legacy cores)
 * with the `osd` data of @tesseract.js-data/osd, a dependency, found like any language (languages.ts:
 * never downloaded). The pool (pool.ts `detectScript`) runs it on one worker of its own, started on first
 * use and ended with the others; this module names what OSD says and the languages that read each script.
 *
 * A Thai, Bulgarian or Hebrew page read with Latin-script data comes out as confident-looking Latin noise;
 * OSD tells the script from the shapes of the characters, whatever data read them.
 */
import { findLanguageData } from './languages.js';

/** The tesseract "language" holding the OSD data. */
export const OSD_DATA = 'osd';

/** True when the OSD data is installed (then `detectScript` can run). */
export function scriptDetectionInstalled(langPath?: string): boolean {
  return !!findLanguageData(OSD_DATA, langPath);
}

/** What OSD said of a page. */
export interface ScriptDetection {
  /** OSD's name of the script: `Latin`, `Cyrillic`, `Greek`, `Thai`, `Han`, `Japanese`, `Hangul`, `Arabic`, ... */
  script: string;
  /**
   * 0..0.99: tesseract's script confidence (`sconfidence`: (best/next - 1) / 0.3, the best script's
   * share of the characters over the next script's, 1 at tesseract's own acceptance ratio of 1.3, 2 when
   * no other script was seen) halved and capped: 0.5 where tesseract accepts a script, 0 for a tie.
   */
  confidence: number;
  /** Tesseract's value itself. */
  scriptConfidence: number;
  /** Clockwise degrees OSD would turn the page by (0, 90, 180, 270), for the record. */
  orientation?: number;
}

/** The detection OSD's answer (tesseract.js `detect().data`) stands for, or undefined when OSD found no script. */
export function toScriptDetection(data: unknown): ScriptDetection | undefined {
  const d = (data ?? {}) as { script?: unknown; script_confidence?: unknown; orientation_degrees?: unknown };
  if (typeof d.script !== 'string' || !d.script || d.script === 'NULL' || d.script === 'Common') return undefined;
  const raw = typeof d.script_confidence === 'number' && Number.isFinite(d.script_confidence) ? d.script_confidence : 0;
  const confidence = Math.round(Math.max(0, Math.min(0.99, raw / 2)) * 100) / 100;
  return {
    script: d.script, confidence, scriptConfidence: Math.round(raw * 100) / 100,
    ...(typeof d.orientation_degrees === 'number' ? { orientation: d.orientation_degrees } : {}),
  };
}

/** Scripts whose text the Latin-script data (eng, deu, fra, ind, vie, ...) reads (OSD calls bold or broken Latin type Fraktur at times). */
const LATIN_SCRIPTS: ReadonlySet<string> = new Set(['Latin', 'Fraktur']);

/**
 * OSD script name -> the tesseract languages that read it, likeliest on a receipt first (by the number
 * of people who shop in them; the first three are named in a warning). OSD reports Han with kana as
 * `Japanese` and Han with Hangul as `Korean`.
 */
export const SCRIPT_LANGUAGES: Readonly<Record<string, readonly string[]>> = {
  Cyrillic: ['rus', 'ukr', 'bul', 'srp', 'bel', 'mkd', 'kaz'],
  Greek: ['ell'],
  Hebrew: ['heb'],
  Arabic: ['ara', 'fas', 'urd'],
  Thai: ['tha'],
  Han: ['chi_sim', 'chi_tra'],
  Japanese: ['jpn'],
  Hiragana: ['jpn'],
  Katakana: ['jpn'],
  Korean: ['kor'],
  Hangul: ['kor'],
  Devanagari: ['hin', 'mar', 'nep'],
  Bengali: ['ben'],
  Tamil: ['tam'],
  Telugu: ['tel'],
  Kannada: ['kan'],
  Malayalam: ['mal'],
  Gujarati: ['guj'],
  Gurmukhi: ['pan'],
  Oriya: ['ori'],
  Sinhala: ['sin'],
  Khmer: ['khm'],
  Lao: ['lao'],
  Myanmar: ['mya'],
  Georgian: ['kat'],
  Armenian: ['hye'],
  Ethiopic: ['amh'],
  Tibetan: ['bod'],
  Syriac: ['syr'],
  Thaana: ['div'],
  Cherokee: ['chr'],
};

/** True when text in this script needs data of its own (it is not Latin, and OSD named it). */
export function isForeignScript(script: string): boolean {
  return !LATIN_SCRIPTS.has(script) && script in SCRIPT_LANGUAGES;
}

/** The tesseract languages that read a script, likeliest first (empty for Latin and unknown scripts). */
export function scriptLanguages(script: string): readonly string[] {
  return isForeignScript(script) ? SCRIPT_LANGUAGES[script]! : [];
}
