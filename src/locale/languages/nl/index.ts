import { table } from '../types.js';
import type { LanguageVocabulary } from '../types.js';

export const nl: LanguageVocabulary = {
  code: 'nl',
  chrono: 'nl',
  months: table([1, 'januari', 'januarie'], [2, 'februari'], [3, 'maart', 'mrt'], [4, 'april'], [5, 'mei'], [6, 'juni'], [7, 'juli'],
    [8, 'augustus'], [9, 'september'], [10, 'oktober'], [11, 'november'], [12, 'december']),
  weekdays: table([0, 'zondag', 'zo'], [1, 'maandag', 'ma'], [2, 'dinsdag'], [3, 'woensdag', 'wo'], [4, 'donderdag'], [5, 'vrijdag', 'vr'], [6, 'zaterdag', 'za']),
  cues: ['FACTUUR', 'TOTAAL', 'BEDRAG', 'DATUM', 'BETALING', 'BTW'],
  taxWords: ['BTW'],
};
