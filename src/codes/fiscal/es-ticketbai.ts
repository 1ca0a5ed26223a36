/**
 * Spain (Basque Country): the TicketBAI QR code of an invoice or ticket.
 *
 * Specification: Haciendas Forales de Álava, Bizkaia y Gipuzkoa, "TicketBAI: Especificaciones del código
 * identificativo de la factura y del código QR", v1.x (https://www.batuz.eus/es/documentacion-tecnica,
 * https://www.gipuzkoa.eus/ticketbai): a URL of the territory's service (`batuz.eus/QRTBAI/`,
 * `tbai.egoitza.gipuzkoa.eus/qr/`, `ticketbai.araba.eus/tbai/qrtbai/`) with `id` the TicketBAI code
 * `TBAI-<issuer NIF, 9>-<DDMMAA>-<13 characters of the signature>-<CRC-8, 3 digits>`, `s` the series,
 * `nf` the invoice number, `i` the total, `cr` a CRC-8 of the URL.
 */
import type { FiscalFields } from '../../contract/codes.js';
import type { FiscalFormat } from '../types.js';
import { amountOf, isoDate, queryOf, required } from './common.js';

function parse(text: string): FiscalFields {
  const q = queryOf(text);
  const id = required(q, 'id');
  const m = /^TBAI-([0-9A-Z]{9})-(\d{2})(\d{2})(\d{2})-[0-9A-Za-z+/=_-]{13}-\d{3}$/.exec(id);
  if (!m) throw new Error(`id ${JSON.stringify(id)} is not a TicketBAI code`);
  const series = q.get('s') ?? '', number = q.get('nf') ?? '';
  return {
    totalAmount: amountOf(required(q, 'i'), 'i'),
    date: isoDate(2000 + Number(m[4]), Number(m[3]), Number(m[2]), 'id date'),
    merchantTaxId: m[1]!,
    ...(number ? { invoiceNumber: series ? `${series}${number}` : number } : {}),
    currencyCode: 'EUR',
  };
}

function matches(code: { format: string; text: string }): boolean {
  return code.format === 'QRCode' && /[?&]id=TBAI-/i.test(code.text);
}

export const esTicketBai: FiscalFormat = {
  scheme: 'es-ticketbai', country: 'ES',
  specification: 'TicketBAI, especificaciones del código identificativo y QR (id TBAI-NIF-DDMMAA-…, i total)',
  matches, parse,
};
