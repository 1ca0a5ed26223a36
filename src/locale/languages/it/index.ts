import { table } from '../types.js';
import type { LanguageVocabulary } from '../types.js';

export const it: LanguageVocabulary = {
  code: 'it',
  chrono: 'it',
  months: table([1, 'gennaio', 'gen'], [2, 'febbraio'], [3, 'marzo'], [4, 'aprile'], [5, 'maggio', 'mag'], [6, 'giugno', 'giu'], [7, 'luglio', 'lug'],
    [8, 'agosto'], [9, 'settembre'], [10, 'ottobre', 'ott'], [11, 'novembre'], [12, 'dicembre']),
  weekdays: table([0, 'domenica'], [1, 'lunedi'], [2, 'martedi'], [3, 'mercoledi'], [4, 'giovedi'], [5, 'venerdi'], [6, 'sabato']),
  cues: ['FATTURA', 'TOTALE', 'IMPORTO'],
  taxWords: ['IVA', 'IMPOSTA'],
};
