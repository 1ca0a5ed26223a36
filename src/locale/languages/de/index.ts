import { table } from '../types.js';
import type { LanguageVocabulary } from '../types.js';

export const de: LanguageVocabulary = {
  code: 'de',
  chrono: 'de',
  months: table([1, 'januar', 'jän', 'jaen', 'jänner'], [2, 'februar', 'febr'], [3, 'märz', 'maerz', 'marz', 'mrz'], [4, 'april'], [5, 'mai'], [6, 'juni'], [7, 'juli'],
    [8, 'august'], [9, 'september'], [10, 'oktober', 'okt'], [11, 'november'], [12, 'dezember', 'dez']),
  weekdays: table([0, 'sonntag', 'so'], [1, 'montag', 'mo'], [2, 'dienstag', 'di'], [3, 'mittwoch', 'mi'], [4, 'donnerstag', 'do'], [5, 'freitag', 'fr'], [6, 'samstag', 'sa']),
  cues: ['RECHNUNG', 'SUMME', 'BETRAG', 'DATUM', 'ZAHLUNG', 'GESAMT', 'MWST'],
  taxWords: ['MWST', 'UST'],
};
