/**
 * Language hints -> tesseract language codes, and where their traineddata lives offline.
 *
 * Search order for `<code>.traineddata` / `<code>.traineddata.gz`:
 *   1. an explicit `langPath` folder (engine option),
 *   2. `<package root>/models/tessdata/`,
 *   3. an installed `@tesseract.js-data/<code>` package: its `4.0.0_best_int` folder (LSTM only, small),
 *      else its `4.0.0` folder.
 * Nothing here ever builds a URL: a language that is not found is reported to the caller as a warning
 * and English is used instead. tesseract.js itself would fetch missing data from a CDN, which is why the
 * pool only ever hands it languages this module found.
 */
import { createRequire } from 'node:module';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The folder holding package.json (works from src/ under vitest and from dist/ once built). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The language every pool can fall back to. */
export const FALLBACK_LANGUAGE = 'eng';

/** Hint (ISO 639-1, deprecated ISO codes such as `in`/`iw`, common aliases, tesseract codes) -> tesseract code. */
const HINTS: Readonly<Record<string, string>> = {
  en: 'eng', fr: 'fra', de: 'deu', es: 'spa', it: 'ita', pt: 'por', nl: 'nld',
  id: 'ind', in: 'ind', ms: 'msa', jp: 'jpn', ja: 'jpn', zh: 'chi_sim', 'zh-cn': 'chi_sim', 'zh-hans': 'chi_sim',
  'zh-tw': 'chi_tra', 'zh-hk': 'chi_tra', 'zh-hant': 'chi_tra', he: 'heb', iw: 'heb', th: 'tha', ar: 'ara',
  ko: 'kor', ru: 'rus', pl: 'pol', tr: 'tur', vi: 'vie', sv: 'swe', da: 'dan', fi: 'fin', no: 'nor', nb: 'nor',
  cs: 'ces', el: 'ell', hu: 'hun', ro: 'ron', uk: 'ukr', hi: 'hin', tl: 'tgl', fil: 'fil',
  // ISO 639-2/B spellings people type
  fre: 'fra', ger: 'deu', dut: 'nld', chi: 'chi_sim', may: 'msa', cze: 'ces', gre: 'ell', rum: 'ron',
};

/**
 * The language most documents of a country are printed in (Latin scripts only: an alternate reading
 * in it helps with local words, dates and amounts next to them). Countries with several languages are left out.
 */
const COUNTRY_LANGUAGE: Readonly<Record<string, string>> = {
  ID: 'ind', FR: 'fra', DE: 'deu', AT: 'deu', ES: 'spa', IT: 'ita', PT: 'por', NL: 'nld', MY: 'msa', PL: 'pol', TR: 'tur', VN: 'vie', SE: 'swe', DK: 'dan', FI: 'fin', NO: 'nor', CZ: 'ces', HU: 'hun', RO: 'ron', PH: 'fil', MX: 'spa', BR: 'por', AR: 'spa', CO: 'spa', CL: 'spa', PE: 'spa',
};

/** The installed OCR language of a country (ISO 3166 alpha-2), if it has one. */
export function countryLanguage(countryCode: string, langPath?: string): string | undefined {
  const code = COUNTRY_LANGUAGE[countryCode.toUpperCase()];
  return code && findLanguageData(code, langPath) ? code : undefined;
}

/** Tesseract codes whose script is not Latin: receipts in them still print prices and brands in Latin. */
const NON_LATIN = new Set([
  'jpn', 'chi_sim', 'chi_tra', 'heb', 'tha', 'ara', 'kor', 'rus', 'ell', 'ukr', 'hin',
  // the other languages script detection names (ocr/script.ts SCRIPT_LANGUAGES)
  'bul', 'srp', 'bel', 'mkd', 'kaz', 'fas', 'urd', 'mar', 'nep', 'ben', 'tam', 'tel', 'kan', 'mal', 'guj', 'pan', 'ori', 'sin',
  'khm', 'lao', 'mya', 'kat', 'hye', 'amh', 'bod', 'syr', 'div', 'chr',
]);

/**
 * The tesseract code for a language hint (`en`, `EN`, `en-US`, `eng`, `in`, `zh-TW`...), or undefined
 * when the hint is not a language this module knows. A bare three-letter code (`spa`) or a tesseract
 * code with a suffix (`chi_sim`) is passed through.
 */
export function toTesseractCode(hint: string): string | undefined {
  const key = hint.trim().toLowerCase();
  if (!key) return undefined;
  if (HINTS[key]) return HINTS[key];
  if (/^[a-z]{3}(_[a-z]+)?$/.test(key)) return key; // already a tesseract code
  const dashed = key.replace(/_/g, '-');
  if (HINTS[dashed]) return HINTS[dashed];
  const base = dashed.split('-')[0]!;
  return HINTS[base] ?? (/^[a-z]{3}$/.test(base) ? base : undefined);
}

export interface LanguageData {
  code: string;
  /** Folder holding the file. */
  dir: string;
  /** Full path of the traineddata file. */
  file: string;
  gzip: boolean;
  /** Where it was found. */
  source: 'langPath' | 'models' | 'package';
}

/** Candidate folders for one code, in search order. */
function candidateDirs(code: string, langPath?: string): Array<[string, LanguageData['source']]> {
  const dirs: Array<[string, LanguageData['source']]> = [];
  if (langPath) dirs.push([path.resolve(langPath), 'langPath']);
  dirs.push([path.join(PACKAGE_ROOT, 'models', 'tessdata'), 'models']);
  const pkg = packageDir(code);
  if (pkg) dirs.push([path.join(pkg, '4.0.0_best_int'), 'package'], [path.join(pkg, '4.0.0'), 'package']);
  return dirs;
}

const packageDirCache = new Map<string, string | null>();
/** Folder of the installed `@tesseract.js-data/<code>` package, resolved like an import would. */
function packageDir(code: string): string | undefined {
  if (!/^[a-z_]+$/.test(code)) return undefined;
  let dir = packageDirCache.get(code);
  if (dir === undefined) {
    try {
      dir = path.dirname(require.resolve(`@tesseract.js-data/${code}/package.json`));
    } catch {
      dir = null;
    }
    packageDirCache.set(code, dir);
  }
  return dir ?? undefined;
}

/** Where the traineddata of a tesseract code is, or undefined when it is not installed anywhere. */
export function findLanguageData(code: string, langPath?: string): LanguageData | undefined {
  if (!/^[a-z]{3}(_[a-z]+)?$/.test(code)) return undefined;
  for (const [dir, source] of candidateDirs(code, langPath)) {
    for (const gzip of [true, false]) {
      const file = path.join(dir, `${code}.traineddata${gzip ? '.gz' : ''}`);
      if (existsSync(file)) return { code, dir, file, gzip, source };
    }
  }
  return undefined;
}

/**
 * Tesseract codes installed for OCR: the files in `langPath` and `models/tessdata`, and the
 * `@tesseract.js-data/*` packages that resolve from here. `osd` (orientation data, not a language)
 * is left out.
 */
export function availableLanguages(langPath?: string): string[] {
  const found = new Set<string>();
  const scan = (dir: string): void => {
    try {
      for (const f of readdirSync(dir)) {
        const m = /^([a-z]{3}(?:_[a-z]+)?)\.traineddata(?:\.gz)?$/.exec(f);
        if (m) found.add(m[1]!);
      }
    } catch { /* folder absent */ }
  };
  if (langPath) scan(path.resolve(langPath));
  scan(path.join(PACKAGE_ROOT, 'models', 'tessdata'));
  // packages: list the scope folder next to an installed one, then confirm each by resolution
  const scopes = new Set<string>();
  for (const code of new Set([FALLBACK_LANGUAGE, ...Object.values(HINTS)])) {
    const dir = packageDir(code);
    if (dir) scopes.add(path.dirname(dir));
  }
  for (const scope of scopes) {
    let names: string[] = [];
    try { names = readdirSync(scope); } catch { /* ignore */ }
    for (const n of names) if (n !== 'osd' && findLanguageData(n)) found.add(n);
  }
  found.delete('osd');
  return [...found].sort();
}

export interface ResolvedLanguages {
  /** Installed tesseract codes to load, primary first; never empty (English is the fallback). */
  codes: string[];
  /** One sentence per hint that could not be honoured. */
  warnings: string[];
}

/**
 * Resolves language hints into installed tesseract codes. Accepts `undefined`/`'auto'` (English), one
 * hint, a list, or a `+`/`,`-separated string (`'fr+en'`). Unknown or uninstalled languages are dropped
 * with a warning; when nothing is left, English. A non-Latin script gets English as a second language
 * (prices and brand names); Latin-script languages are used alone, since each of their models reads
 * digits and English words and a second model costs recognition time. Never throws, never fetches.
 */
export function resolveLanguages(hints: string | readonly string[] | undefined, langPath?: string): ResolvedLanguages {
  const list = (typeof hints === 'string' ? hints.split(/[+,]/) : hints ?? []).map((h) => h.trim()).filter((h) => h && h.toLowerCase() !== 'auto');
  const warnings: string[] = [];
  const codes: string[] = [];
  for (const hint of list) {
    const code = toTesseractCode(hint);
    if (!code) {
      warnings.push(`language '${hint}' is not known to OCR`);
    } else if (!codes.includes(code)) {
      if (findLanguageData(code, langPath)) codes.push(code);
      else warnings.push(`OCR data for language '${hint}' (${code}) is not installed (it is never downloaded: install @tesseract.js-data/${code}, or put ${code}.traineddata in models/tessdata or the langPath folder)`);
    }
  }
  if (codes.length === 0) {
    codes.push(FALLBACK_LANGUAGE);
    if (warnings.length) warnings[warnings.length - 1] += '; OCR used English instead';
  } else if (codes.some((c) => NON_LATIN.has(c)) && !codes.includes(FALLBACK_LANGUAGE) && findLanguageData(FALLBACK_LANGUAGE, langPath)) {
    codes.push(FALLBACK_LANGUAGE);
  }
  return { codes, warnings };
}
