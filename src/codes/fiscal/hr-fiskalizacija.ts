/**
 * Croatia: the QR code of a fiscalised receipt ("fiskalizacija u prometu gotovinom").
 *
 * Specification: Pravilnik o fiskalizaciji u prometu gotovinom (NN 146/2017 and its amendments, the QR
 * code from 1 January 2019), and Porezna uprava, "Fiskalizacija — Tehnička specifikacija za korisnike"
 * (https://www.porezna-uprava.hr/HR_Fiskalizacija/Stranice/Tehni%C4%8Dke-specifikacije.aspx): a URL of
 * the receipt check service `https://porezna.gov.hr/rn?jir=<JIR>` (or `zki=<ZKI>` when the receipt was
 * issued before the JIR came back) `&datv=<yyyyMMdd_HHmm>&izn=<amount>`; `izn` is the receipt's total
 * written without a decimal separator, in cents (lipa; eurocents from 2023), e.g. `izn=1250` for 12.50.
 */
import type { FiscalFields } from '../../contract/codes.js';
import type { FiscalFormat } from '../types.js';
import { amountOf, isoDate, isoTime, queryOf, required } from './common.js';

function parse(text: string): FiscalFields {
  const q = queryOf(text);
  const jir = q.get('jir'), zki = q.get('zki');
  if (jir && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(jir)) throw new Error(`jir ${JSON.stringify(jir)} is not a UUID`);
  if (!jir && !(zki && /^[0-9a-f]{32}$/i.test(zki))) throw new Error('neither a JIR nor a 32-digit ZKI is given');
  const datv = required(q, 'datv');
  const m = /^(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})$/.exec(datv);
  if (!m) throw new Error(`datv ${JSON.stringify(datv)} is not yyyyMMdd_HHmm`);
  const izn = required(q, 'izn');
  // cents without a separator; a value written with one is read as it is written
  const total = /^\d+$/.test(izn) ? Number(izn) / 100 : amountOf(izn, 'izn');
  const year = Number(m[1]);
  return {
    totalAmount: Math.round(total * 100) / 100,
    date: isoDate(year, Number(m[2]), Number(m[3]), 'datv'),
    time: isoTime(Number(m[4]), Number(m[5])),
    currencyCode: year >= 2023 ? 'EUR' : 'HRK',
  };
}

function matches(code: { format: string; text: string }): boolean {
  return code.format === 'QRCode' && /porezna\.gov\.hr\/rn\b/i.test(code.text) && /[?&](jir|zki)=/i.test(code.text);
}

export const hrFiskalizacija: FiscalFormat = {
  scheme: 'hr-fiskalizacija', country: 'HR',
  specification: 'Pravilnik o fiskalizaciji u prometu gotovinom (NN 146/2017 ff.), QR kod: jir|zki, datv, izn',
  matches, parse,
};
