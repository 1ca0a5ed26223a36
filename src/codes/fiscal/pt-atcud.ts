/**
 * Portugal: the QR code of an invoice or receipt issued by certified software (with the ATCUD).
 *
 * Specification: Portaria n.º 195/2020, de 13 de agosto, and Autoridade Tributária e Aduaneira,
 * "Especificações Técnicas — Código de Barras Bidimensional (Código QR)", v1.x:
 * https://info.portaldasfinancas.gov.pt/pt/apoio_contribuinte/Novas_regras_faturacao/Documents/Especificacoes_Tecnicas_Codigo_QR.pdf
 * Fields `<code>:<value>` joined by `*`: A issuer NIF, B buyer NIF, C buyer country, D document type,
 * E status, F date (AAAAMMDD), G unique document id, H ATCUD, I1..I8 / J1..J8 / K1..K8 the VAT bases and
 * VAT of mainland, Azores and Madeira, L not subject to VAT, M stamp duty, N total taxes, O total with
 * taxes, P withholding, Q hash characters, R certificate number, S other.
 */
import type { FiscalFields } from '../../contract/codes.js';
import type { FiscalFormat } from '../types.js';
import { amountOf, isoDate } from './common.js';

/** Portuguese NIF: 9 digits, mod-11 check digit. */
export function validNif(nif: string): boolean {
  if (!/^[1-9]\d{8}$/.test(nif)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(nif[i]) * (9 - i);
  const r = 11 - (sum % 11);
  return (r >= 10 ? 0 : r) === Number(nif[8]);
}

function fieldsOf(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.trim().split('*')) {
    const c = part.indexOf(':');
    if (c > 0) out.set(part.slice(0, c).trim().toUpperCase(), part.slice(c + 1).trim());
  }
  return out;
}

function parse(text: string): FiscalFields {
  const f = fieldsOf(text);
  const nif = f.get('A') ?? '';
  if (!validNif(nif)) throw new Error(`issuer NIF (A) ${JSON.stringify(nif)} is not a valid NIF`);
  const d = /^(\d{4})(\d{2})(\d{2})$/.exec(f.get('F') ?? '');
  if (!d) throw new Error(`date (F) ${JSON.stringify(f.get('F') ?? '')} is not AAAAMMDD`);
  const total = amountOf(f.get('O'), 'total (O)');
  // N is all taxes (VAT and stamp duty, M): the receipt's tax line is the VAT
  const taxes = f.has('N') ? amountOf(f.get('N'), 'taxes (N)') : undefined;
  const stamp = f.has('M') ? amountOf(f.get('M'), 'stamp duty (M)') : 0;
  const doc = f.get('G');
  return {
    totalAmount: total,
    ...(taxes !== undefined ? { taxAmount: Math.round((taxes - stamp) * 100) / 100 } : {}),
    date: isoDate(Number(d[1]), Number(d[2]), Number(d[3]), 'date (F)'),
    merchantTaxId: nif,
    ...(doc ? { invoiceNumber: doc } : {}),
    currencyCode: 'EUR',
  };
}

/** Starts with `A:<digits>*B:`. */
function matches(code: { format: string; text: string }): boolean {
  return code.format === 'QRCode' && /^A:\d{9}\*B:/.test(code.text.trim());
}

export const ptAtcud: FiscalFormat = {
  scheme: 'pt-atcud', country: 'PT',
  specification: 'Portaria 195/2020; AT, Especificações Técnicas Código QR (A issuer NIF, F date, N taxes, O total)',
  matches, parse,
};
