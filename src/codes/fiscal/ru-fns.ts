/**
 * Russia: the QR code of a cash-register receipt (online cash registers, 54-FZ).
 *
 * Specification: Order of the Federal Tax Service of 14.09.2020 No. ЕД-7-20/662@ (formats of fiscal
 * documents, FFD), the QR code of the receipt: `t=<date-time yyyyMMddTHHmm[ss]>&s=<total, rubles with
 * a dot>&fn=<fiscal drive number>&i=<fiscal document number>&fp=<fiscal sign>&n=<settlement type>`.
 * https://www.nalog.gov.ru/rn77/about_fts/docs/10059151/ (the same keys since Order ММВ-7-20/229@ of 2017).
 * The code names no seller (the fiscal drive number is not the INN) and no VAT; `i` numbers the fiscal
 * document (ФД), not the receipt, so it is not taken as the receipt number.
 */
import type { FiscalFields } from '../../contract/codes.js';
import type { FiscalFormat } from '../types.js';
import { amountOf, isoDate, isoTime, queryOf, required } from './common.js';

function parse(text: string): FiscalFields {
  const q = queryOf(text);
  const t = required(q, 't');
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})?$/.exec(t);
  if (!m) throw new Error(`t ${JSON.stringify(t)} is not yyyyMMddTHHmm[ss]`);
  const fn = required(q, 'fn');
  if (!/^\d{16}$/.test(fn)) throw new Error(`fn ${JSON.stringify(fn)} is not a 16-digit fiscal drive number`);
  return {
    totalAmount: amountOf(required(q, 's'), 's'),
    date: isoDate(Number(m[1]), Number(m[2]), Number(m[3]), 't'),
    time: isoTime(Number(m[4]), Number(m[5]), Number(m[6] ?? 0)),
    currencyCode: 'RUB',
  };
}

/** A query with the receipt's keys t, s and fn. */
function matches(code: { format: string; text: string }): boolean {
  const t = code.text.trim();
  return code.format === 'QRCode' && /(^|[?&])t=\d{8}T/.test(t) && /[?&]s=/.test(`&${t}`) && /[?&]fn=/.test(`&${t}`);
}

export const ruFns: FiscalFormat = {
  scheme: 'ru-fns', country: 'RU',
  specification: 'FNS Order ЕД-7-20/662@ (FFD), receipt QR code: t, s, fn, i, fp, n',
  matches, parse,
};
