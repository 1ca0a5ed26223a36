import { table } from '../types.js';
import type { LanguageVocabulary } from '../types.js';

export const es: LanguageVocabulary = {
  code: 'es',
  chrono: 'es',
  months: table([1, 'enero', 'ene'], [2, 'febrero'], [3, 'marzo'], [4, 'abril', 'abr'], [5, 'mayo'], [6, 'junio'], [7, 'julio'],
    [8, 'agosto', 'ago'], [9, 'septiembre', 'setiembre'], [10, 'octubre'], [11, 'noviembre'], [12, 'diciembre', 'dic']),
  weekdays: table([0, 'domingo', 'dom'], [1, 'lunes'], [2, 'martes'], [3, 'miercoles'], [4, 'jueves'], [5, 'viernes'], [6, 'sabado']),
  cues: ['FACTURA', 'IMPORTE', 'FECHA', 'TOTAL A PAGAR'],
  taxWords: ['IVA', 'IMPUESTO'],
  labels: [
    // "Entregado: 200,00 €  Cambio: 76,00 €": what the customer handed over, beside the change
    { role: 'paid', strength: 1.8, phrases: ['ENTREGADO', 'IMPORTE ENTREGADO'] },
  ],
};
