import { table } from '../types.js';
import type { LanguageVocabulary } from '../types.js';

export const fr: LanguageVocabulary = {
  code: 'fr',
  chrono: 'fr',
  months: table([1, 'janvier', 'janv'], [2, 'février', 'fevrier', 'févr', 'fevr', 'fév', 'fev'], [3, 'mars'], [4, 'avril', 'avr'], [5, 'mai'], [6, 'juin'], [7, 'juillet', 'juil'],
    [8, 'août', 'aout'], [9, 'septembre'], [10, 'octobre'], [11, 'novembre'], [12, 'décembre', 'decembre', 'déc']),
  weekdays: table([0, 'dimanche', 'dim'], [1, 'lundi', 'lun'], [2, 'mardi', 'mar'], [3, 'mercredi', 'mer'], [4, 'jeudi', 'jeu'], [5, 'vendredi', 'ven'], [6, 'samedi', 'sam']),
  cues: ['FACTURE', 'MONTANT', 'TOTAL TTC', 'DATE DE', 'MERCI', 'ÉCHÉANCE', 'ECHEANCE', 'PAIEMENT'],
  taxWords: ['TVA', 'TPS', 'TVQ'],
};
