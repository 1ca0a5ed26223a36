import type { AmountRole } from '../roles.js';

/** chrono-node's locales (locale/chrono.ts loads the one a language names). */
export const CHRONO_LOCALES = ['en', 'de', 'fr', 'nl', 'es', 'it', 'pt', 'id', 'sv', 'fi', 'ru', 'uk', 'ja', 'zh', 'vi'] as const;
export type ChronoLocale = (typeof CHRONO_LOCALES)[number];

/** Labels of one role printed next to amounts, as phrases of the canonical text (upper case, accent-free). */
export interface LanguageLabels {
  role: AmountRole;
  /** As in keywords.ts RoleRule: totals 3.5 final/grand, 3 qualified, 2.2 plain. */
  strength: number;
  final?: boolean;
  /** Phrases, words separated by single spaces (any run of spaces matches); the longer of two overlapping ones first. */
  phrases: string[];
  /** What the label is, with an example as printed (for the reader of words.json; not used). */
  note?: string;
}

/** One language's vocabulary: what a new language brings, in one folder (languages/<code>/words.json). */
export interface LanguageVocabulary {
  /** ISO 639-1 code (the folder's name). */
  code: string;
  /** Where the language's cues are weighed among the others: lower first; on a tie the earlier wins (English: 100, last, as it needs a clear lead). Default 90. */
  order: number;
  /** chrono-node's locale for this language, when it has one (month and weekday names it parses). */
  chrono?: ChronoLocale;
  /** Month names and abbreviations, lower case -> 1..12. */
  months: Record<string, number>;
  /** Weekday names and abbreviations, lower case -> 0 (Sunday)..6. */
  weekdays: Record<string, number>;
  /** Words printed on receipts that show the keyword language (upper case, accent-free). */
  cues: string[];
  /**
   * The one country whose receipts print this language, when there is one (Vietnamese: VN): its cues
   * then are evidence of the country. A language of several countries (English, Spanish, Malay) has none, and so has one whose
   * receipt words another language shares (Indonesian's TUNAI, HARGA, TERIMA KASIH are Malay's too).
   */
  country?: string;
  /** Names of taxes printed on receipts in this language (upper case). */
  taxWords: string[];
  /**
   * Words of a line that is no merchant's name (greetings, thanks, labels of the date, cashier, table, tax id):
   * patterns of the folded text, a space matching any run of spaces or none.
   */
  notName?: string[];
  /**
   * Labels of amounts in this language that keywords.ts does not spell out itself (total, tendered,
   * change, ...), in priority order: an earlier entry's match wins over a later one's overlapping match.
   */
  labels?: LanguageLabels[];
}

