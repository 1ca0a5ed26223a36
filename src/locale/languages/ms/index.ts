import { table } from '../types.js';
import type { LanguageVocabulary } from '../types.js';

export const ms: LanguageVocabulary = {
  code: 'ms',
  months: table([1, 'jan'], [2, 'feb'], [3, 'mac'], [4, 'apr'], [5, 'mei'], [6, 'jun'], [7, 'julai'], [8, 'ogos', 'ogo'], [9, 'sep'], [10, 'okt'], [11, 'nov'], [12, 'disember']),
  weekdays: table([0, 'ahad'], [1, 'isnin'], [2, 'selasa'], [3, 'rabu'], [4, 'khamis'], [5, 'jumaat'], [6, 'sabtu']),
  cues: ['JUMLAH', 'TARIKH', 'TERIMA KASIH', 'BARANG', 'BAKI', 'CUKAI'],
  taxWords: ['SST', 'GST'],
};
