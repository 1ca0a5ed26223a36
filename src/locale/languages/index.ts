/**
 * Vocabulary by language, one folder each (in the manner of chrono-node's locale folders): month and
 * weekday names, the words that show a receipt's language, the names of its taxes, the labels of its
 * amounts. A folder `languages/<code>/` holding `words.json` is a language: the folders are found when
 * this module loads, so adding a language touches no other file (the build copies the JSON to dist/).
 * lexicon.ts, keywords.ts and the locale inference read the union.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { AMOUNT_ROLES } from '../roles.js';
import { CHRONO_LOCALES, WORD_LISTS } from './types.js';
import type { LanguageVocabulary, WordList } from './types.js';

export type { LanguageVocabulary, LanguageLabels, WordList } from './types.js';
export { WORD_LISTS } from './types.js';

const nameRows = z.array(z.tuple([z.number().int()]).rest(z.string().min(1)));
const WordsFile = z.object({
  code: z.string().regex(/^[a-z]{2,3}$/),
  order: z.number().default(90),
  about: z.string().optional(),
  country: z.string().regex(/^[A-Z]{2}$/).optional(),
  chrono: z.enum(CHRONO_LOCALES).optional(),
  months: nameRows.default([]),
  weekdays: nameRows.default([]),
  cues: z.array(z.string().min(1)).default([]),
  taxWords: z.array(z.string().min(1)).default([]),
  words: z.object(Object.fromEntries(Object.keys(WORD_LISTS).map((k) => [k, z.array(z.string().min(1)).optional()]))).strict().default({}),
  labels: z.array(z.object({
    role: z.enum(AMOUNT_ROLES), strength: z.number(), final: z.boolean().optional(),
    phrases: z.array(z.string().min(1)).min(1), note: z.string().optional(),
  })).optional(),
}).strict();

const table = (rows: Array<[number, ...string[]]>): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const [n, ...names] of rows) for (const x of names) out[x] = n;
  return out;
};

/** The language in `dir/words.json`; a malformed file is an error naming the file and the field, at load. */
export function readLanguage(dir: string): LanguageVocabulary {
  const file = path.join(dir, 'words.json');
  let json: unknown;
  try { json = JSON.parse(fs.readFileSync(file, 'utf8')); } catch (e) { throw new Error(`${file}: not JSON: ${(e as Error).message}`); }
  const parsed = WordsFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join('.') || '(file)'}: ${issue?.message ?? 'invalid'}`);
  }
  const w = parsed.data;
  if (w.code !== path.basename(dir)) throw new Error(`${file}: code "${w.code}" is not the folder's name "${path.basename(dir)}"`);
  // a phrase that is no pattern fails here, not on a page
  for (const p of [...(w.labels ?? []).flatMap((l) => l.phrases), ...Object.values(w.words).flat() as string[]]) new RegExp(p);
  return {
    code: w.code, order: w.order, months: table(w.months as Array<[number, ...string[]]>), weekdays: table(w.weekdays as Array<[number, ...string[]]>),
    cues: w.cues, taxWords: w.taxWords, words: w.words as Partial<Record<WordList, string[]>>,
    ...(w.country ? { country: w.country } : {}), ...(w.chrono ? { chrono: w.chrono } : {}),
    ...(w.labels ? { labels: w.labels.map(({ note: _note, ...l }) => l) } : {}),
  };
}

/** Every folder of `root` that holds a words.json, in their `order` (then by code). */
export function readLanguages(root: string): LanguageVocabulary[] {
  return fs.readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(root, d.name, 'words.json')))
    .map((d) => readLanguage(path.join(root, d.name)))
    .sort((a, b) => a.order - b.order || a.code.localeCompare(b.code));
}

/** Every language, in the order their cues are weighed (on a tie the earlier wins; English needs a clear lead). */
export const LANGUAGES: readonly LanguageVocabulary[] = readLanguages(path.dirname(fileURLToPath(import.meta.url)));

/** Tax names of every language, longest first for regex alternations. */
export const TAX_WORDS: readonly string[] = [...new Set([...LANGUAGES.flatMap((l) => l.taxWords)])].sort((a, b) => b.length - a.length || a.localeCompare(b));

export function languageByCode(code: string | undefined): LanguageVocabulary | undefined {
  return code ? LANGUAGES.find((l) => l.code === code.toLowerCase()) : undefined;
}

/** One word list's phrases over every language, each once: the languages' order, then each file's. */
export function wordsOf(list: WordList): string[] {
  return [...new Set(LANGUAGES.flatMap((l) => l.words[list] ?? []))];
}

/** TAX_WORDS as a regex alternation (no group), longest first; what `{TAX}` in a phrase stands for. */
export const TAX_ALTERNATION = TAX_WORDS.join('|');

/** How wordAlternation joins a list. */
export interface AlternationOptions {
  /** What a space of a phrase matches (default any run of spaces or none, `\s*`). */
  space?: string;
  /** Keep the phrases in language order, then file order (lists whose doc says "in order"); default longest first. */
  inOrder?: boolean;
  /** Patterns a phrase may name beside {TAX}: `{CUR}` -> parts.CUR. */
  parts?: Readonly<Record<string, string>>;
}

/**
 * One word list over every language as a regex alternation (no group), each phrase once, a space in a phrase
 * matching `space` (default any run of spaces or none). By default the longest first (of two that start at the
 * same place the longer is tried first); with `inOrder`, the languages' order and then each file's (for lists of
 * patterns whose optional parts make length a poor guide: "DUE (?:ON|BY)?" after "DUE DATE"). In a phrase,
 * `{TAX}` stands for any tax's name (TAX_WORDS) and `{NAME}` for `parts[NAME]`, a pattern the caller supplies
 * (keywords.ts: `{CUR}` currency codes, `{TAIL}` what may follow a total's label).
 */
export function wordAlternation(list: WordList, { space = String.raw`\s*`, inOrder = false, parts = {} }: AlternationOptions = {}): string {
  const phrases = wordsOf(list);
  if (!phrases.length) return '(?!)';
  if (!inOrder) phrases.sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
  return phrases.map((p) => p.replace(/ /g, space).replace(/\{([A-Z]+)\}/g, (m, k: string) => (k === 'TAX' ? TAX_ALTERNATION : parts[k] ?? m))).join('|');
}
