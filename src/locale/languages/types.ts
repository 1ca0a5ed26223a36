/** One language's vocabulary: what a new language brings, in one folder (languages/<code>/index.ts). */
export interface LanguageVocabulary {
  /** ISO 639-1 code. */
  code: string;
  /** chrono-node's locale for this language, when it has one (month and weekday names it parses). */
  chrono?: 'en' | 'de' | 'fr' | 'nl' | 'es' | 'it' | 'pt' | 'id' | 'sv' | 'fi' | 'ru' | 'uk' | 'ja' | 'zh' | 'vi';
  /** Month names and abbreviations, lower case -> 1..12. */
  months: Record<string, number>;
  /** Weekday names and abbreviations, lower case -> 0 (Sunday)..6. */
  weekdays: Record<string, number>;
  /** Words printed on receipts that show the keyword language (upper case, accent-free). */
  cues: string[];
  /** Names of taxes printed on receipts in this language (upper case). */
  taxWords: string[];
}

/** Month list helper: `months([1, 'jan', 'january'], ...)`. */
export function table(...rows: Array<[number, ...string[]]>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [n, ...names] of rows) for (const x of names) out[x] = n;
  return out;
}
