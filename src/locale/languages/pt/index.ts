import { table } from '../types.js';
import type { LanguageVocabulary } from '../types.js';

export const pt: LanguageVocabulary = {
  code: 'pt',
  chrono: 'pt',
  months: table([1, 'janeiro'], [2, 'fevereiro'], [3, 'março', 'marco'], [4, 'abril'], [5, 'maio'], [6, 'junho'], [7, 'julho'],
    [8, 'agosto'], [9, 'setembro', 'set'], [10, 'outubro', 'out'], [11, 'novembro'], [12, 'dezembro']),
  weekdays: {},
  cues: [],
  taxWords: ['IVA'],
};
