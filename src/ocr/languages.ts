/**
 * Language hints -> tesseract language codes, and where their traineddata lives offline: an explicit
 * `langPath` folder, `<package>/models/tessdata`, or an installed `@tesseract.js-data/<code>` package.
 * Nothing here ever points at a URL.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Hint (ISO 639-1, legacy or tesseract code) -> tesseract code. */
const HINTS: Record<string, string> = {
  en: 'eng', eng: 'eng', fr: 'fra', fra: 'fra', de: 'deu', deu: 'deu', es: 'spa', spa: 'spa', it: 'ita', ita: 'ita',
  pt: 'por', por: 'por', nl: 'nld', nld: 'nld', id: 'ind', in: 'ind', ind: 'ind', ms: 'msa', msa: 'msa',
  jp: 'jpn', ja: 'jpn', jpn: 'jpn', zh: 'chi_sim', 'zh-cn': 'chi_sim', 'zh-tw': 'chi_tra', chi_sim: 'chi_sim', chi_tra: 'chi_tra',
  he: 'heb', iw: 'heb', heb: 'heb', th: 'tha', tha: 'tha', ar: 'ara', ara: 'ara', ko: 'kor', kor: 'kor', ru: 'rus', rus: 'rus',
  pl: 'pol', pol: 'pol', tr: 'tur', tur: 'tur', vi: 'vie', vie: 'vie', sv: 'swe', da: 'dan', fi: 'fin', no: 'nor', cs: 'ces',
};

/** The folder holding `<code>.traineddata(.gz)` for a tesseract code, or undefined when not installed. */
export function findLanguageData(code: string, langPath?: string): { dir: string; gzip: boolean } | undefined {
  const dirs: string[] = [];
  if (langPath) dirs.push(path.resolve(langPath));
  dirs.push(path.join(PACKAGE_ROOT, 'models', 'tessdata'));
  try {
    const pkg = path.dirname(require.resolve(`@tesseract.js-data/${code}/package.json`));
    dirs.push(path.join(pkg, '4.0.0_best_int'), path.join(pkg, '4.0.0'));
  } catch { /* not installed */ }
  for (const dir of dirs) {
    if (existsSync(path.join(dir, `${code}.traineddata`))) return { dir, gzip: false };
    if (existsSync(path.join(dir, `${code}.traineddata.gz`))) return { dir, gzip: true };
  }
  return undefined;
}

export interface ResolvedLanguages {
  /** Tesseract codes to load, primary first; English is always available as the fallback. */
  codes: string[];
  warnings: string[];
}

/** Resolves a `language` option into installed tesseract codes (auto = English). Never throws. */
export function resolveLanguages(hint: string | undefined, langPath?: string): ResolvedLanguages {
  if (!hint || hint === 'auto') return { codes: ['eng'], warnings: [] };
  const key = hint.trim().toLowerCase();
  const code = HINTS[key] ?? (/^[a-z]{3}(_[a-z]+)?$/.test(key) ? key : undefined);
  if (!code) return { codes: ['eng'], warnings: [`language '${hint}' is not known; using automatic detection`] };
  if (code === 'eng') return { codes: ['eng'], warnings: [] };
  if (!findLanguageData(code, langPath)) {
    return { codes: ['eng'], warnings: [`OCR data for language '${hint}' (${code}) is not installed (npm install @tesseract.js-data/${code}, or put ${code}.traineddata in models/tessdata); using English OCR`] };
  }
  // One model per worker: tesseract.js loads every language of a worker from one folder, and the
  // installed packages live in different folders. Each model reads digits and Latin brand names.
  return { codes: [code], warnings: [] };
}
