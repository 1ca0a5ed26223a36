/**
 * The language of a document's text, chosen from the text itself (issue 24, part 4): character n-gram
 * profiles of the `eld` package (its extra-small database, 60 languages), on the words of the text
 * with numbers, codes, prices and web addresses left out. Indonesian has no profile of its own there
 * and reads as Malay; the country the document shows (locale inference) and a few words only one of
 * the two uses tell them apart.
 *
 * The database (about 1 MB of JavaScript) is loaded on first use (`loadLanguageDetector`), once per
 * process; detection itself takes about a millisecond per page.
 */
import { createRequire } from 'node:module';

export interface DetectedLanguage {
  /** ISO 639-1 code (`en`, `de`, `id`, `vi`, ...). */
  code: string;
  /** 0..0.99: the margin of the best language over the next, scaled, and the amount of text. */
  confidence: number;
  /** How it was decided: `eld:de(0.79)`, `next:nl(0.55)`, `words:42`, `rule:indonesian-words`. */
  evidence: string[];
}

interface EldResult { language: string; getScores(): Record<string, number> }
interface Eld { detect(text: string): EldResult; enableTextCleanup(flag: boolean): void }

let eld: Eld | undefined;
let loading: Promise<Eld | undefined> | undefined;

/** Loads the n-gram database (once). Resolves to false when the package cannot be loaded. */
export function loadLanguageDetector(): Promise<boolean> {
  loading ??= import('eld/extrasmall').then((m: { eld: Eld }) => { eld = m.eld; return eld; }, () => undefined);
  return loading.then((e) => !!e);
}

/** True once the database is loaded (detectLanguage works synchronously from then on). */
export const languageDetectorReady = (): boolean => !!eld;

// keep the require-based resolution check cheap and synchronous for callers that want to know early
const require = createRequire(import.meta.url);
/** True when the `eld` package is installed. */
export function languageDetectorInstalled(): boolean {
  try { require.resolve('eld/package.json'); return true; } catch { return false; }
}

/** Words worth reading: letters only (3+), no codes, prices, dates, addresses of web sites or e-mail. */
export function languageWords(text: string): string[] {
  const cleaned = text
    .replace(/\b(?:https?:\/\/|www\.)\S+/gi, ' ')
    .replace(/\S+@\S+\.\S+/g, ' ')
    .replace(/\S*\d\S*/g, ' ');
  return cleaned.split(/[^\p{L}\p{M}'’]+/u).filter((w) => [...w].length >= 3 && !/^(.)\1+$/u.test(w));
}

/** Words Indonesian receipts print and Malaysian ones do not (and the other way round). */
const INDONESIAN = /\b(?:kembalian|uang|pajak|ppn|kasir|belanja|pelanggan|harga|diskon|struk|nota|rp|tanggal|pesanan|layanan)\b/i;
const MALAY = /\b(?:ringgit|cukai|sila|kedai|barangan|jumlah\s+besar|sdn|bhd|berhad)\b/i;

/** Countries whose documents are printed in one language (the others are left out). */
const COUNTRY_LANGUAGE: Readonly<Record<string, string>> = {
  VN: 'vi', ID: 'id', DE: 'de', AT: 'de', FR: 'fr', ES: 'es', MX: 'es', AR: 'es', CO: 'es', CL: 'es', PE: 'es', IT: 'it', NL: 'nl', PT: 'pt', BR: 'pt',
  PL: 'pl', CZ: 'cs', HU: 'hu', RO: 'ro', SE: 'sv', DK: 'da', NO: 'no', FI: 'fi', TR: 'tr', GR: 'el', RU: 'ru', JP: 'ja', KR: 'ko', TH: 'th',
};
/** The country's language wins when its score is at least this share of the best one. */
const COUNTRY_SCORE_SHARE = 0.75;

/** Margin of the best score over the next one that counts as certain. */
const CERTAIN_MARGIN = 0.25;
/** Words of text from which the amount of text no longer lowers the confidence. */
const ENOUGH_WORDS = 25;

/**
 * The language of `text`, or undefined when there is too little text (fewer than 3 words) or the
 * database is not loaded. `country`: the document's country (locale inference), to split Malay from
 * Indonesian.
 */
export function detectLanguage(text: string, country?: string): DetectedLanguage | undefined {
  if (!eld) return undefined;
  const words = languageWords(text);
  if (words.length < 3) return undefined;
  const sample = words.join(' ').slice(0, 1000);
  const r = eld.detect(sample);
  if (!r.language) return undefined;
  const ranked = Object.entries(r.getScores()).sort((a, b) => b[1] - a[1]);
  const [best, next] = [ranked[0], ranked[1]];
  const evidence = [`eld:${r.language}(${(best?.[1] ?? 0).toFixed(2)})`];
  if (next) evidence.push(`next:${next[0]}(${next[1].toFixed(2)})`);
  evidence.push(`words:${words.length}`);
  const margin = best && next ? best[1] - next[1] : 0.3;
  let code = r.language;
  // the country's own language, when the text reads nearly as well in it (OCR without the language's
  // data misspells its words: Vietnamese read by the English model loses its diacritics)
  const own = country ? COUNTRY_LANGUAGE[country] : undefined;
  const ownScore = own ? r.getScores()[own === 'id' ? 'ms' : own] ?? 0 : 0;
  if (own && code !== own && best && ownScore >= COUNTRY_SCORE_SHARE * best[1] && !(own === 'id' && code === 'ms')) {
    code = own;
    evidence.push(`rule:country-language(${own})`);
  }
  if (code === 'ms') {
    const joined = words.join(' ');
    const id = country === 'ID' || (country !== 'MY' && INDONESIAN.test(joined) && !MALAY.test(joined));
    if (id) { code = 'id'; evidence.push(country === 'ID' ? 'rule:country-ID' : 'rule:indonesian-words'); }
  }
  const amount = Math.min(1, words.length / ENOUGH_WORDS);
  const confidence = Math.round(Math.min(0.99, (0.45 + 0.54 * Math.min(1, margin / CERTAIN_MARGIN)) * (0.6 + 0.4 * amount)) * 100) / 100;
  return { code, confidence, evidence };
}
