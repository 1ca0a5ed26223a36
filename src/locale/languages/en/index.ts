import { table } from '../types.js';
import type { LanguageVocabulary } from '../types.js';

export const en: LanguageVocabulary = {
  code: 'en',
  chrono: 'en',
  months: table([1, 'jan', 'january'], [2, 'feb', 'february'], [3, 'mar', 'march'], [4, 'apr', 'april'], [5, 'may'], [6, 'jun', 'june'], [7, 'jul', 'july'],
    [8, 'aug', 'august'], [9, 'sep', 'sept', 'september'], [10, 'oct', 'october'], [11, 'nov', 'november'], [12, 'dec', 'december']),
  weekdays: table([0, 'sun', 'sunday'], [1, 'mon', 'monday'], [2, 'tue', 'tues', 'tuesday'], [3, 'wed', 'wednesday'], [4, 'thu', 'thur', 'thurs', 'thursday'], [5, 'fri', 'friday'], [6, 'sat', 'saturday']),
  cues: ['TOTAL', 'CHANGE', 'CASH', 'THANK YOU', 'RECEIPT', 'INVOICE', 'AMOUNT', 'DATE'],
  taxWords: ['GST', 'SST', 'VAT', 'TAX', 'HST', 'PST', 'QST', 'CGST', 'SGST', 'IGST'],
};
