/**
 * Vocabulary by language, one folder each (in the manner of chrono-node's locale folders): month and
 * weekday names, the words that show a receipt's language, the names of its taxes. A new language is a
 * new folder listed here; lexicon.ts, keywords.ts and the locale inference read the union.
 */
import { en } from './en/index.js';
import { id } from './id/index.js';
import { ms } from './ms/index.js';
import { fr } from './fr/index.js';
import { de } from './de/index.js';
import { nl } from './nl/index.js';
import { es } from './es/index.js';
import { it } from './it/index.js';
import { pt } from './pt/index.js';
import { vi } from './vi/index.js';
import type { LanguageVocabulary } from './types.js';

export type { LanguageVocabulary } from './types.js';

/** Every language, in the order their cues are weighed (on a tie the earlier wins; English needs a clear lead). */
export const LANGUAGES: readonly LanguageVocabulary[] = [id, ms, fr, de, nl, es, it, pt, vi, en];

/** Tax names of every language and a few more (Nordic), longest first for regex alternations. */
export const TAX_WORDS: readonly string[] = [...new Set([...LANGUAGES.flatMap((l) => l.taxWords), 'MOMS', 'MVA', 'ALV'])].sort((a, b) => b.length - a.length || a.localeCompare(b));

export function languageByCode(code: string | undefined): LanguageVocabulary | undefined {
  return code ? LANGUAGES.find((l) => l.code === code.toLowerCase()) : undefined;
}
