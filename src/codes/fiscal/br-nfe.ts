/**
 * Brazil: the NFC-e QR code (consumer electronic invoice), the CF-e-SAT QR code (São Paulo) and the
 * 44-digit access key ("chave de acesso", printed as a Code 128 barcode on a DANFE and inside both QR codes).
 *
 * Specifications:
 * - Access key layout: "Manual de Orientação do Contribuinte" (MOC) 7.0, Anexo I, campo `chNFe`
 *   (portal.fazenda.gov.br / nfe.fazenda.gov.br): cUF(2) AAMM(4) CNPJ(14) mod(2) série(3) nNF(9)
 *   tpEmis(1) cNF(8) cDV(1), cDV a mod-11 check digit over the 43 before it (weights 2..9).
 * - NFC-e QR code: "Manual de Especificações Técnicas do DANFE NFC-e e QR Code", v5.0 (NT 2015.002 and
 *   its versions), https://www.nfe.fazenda.gov.br/portal/exibirArquivo.aspx?conteudo=vGmB4LjJ+qM=:
 *   version 2 `…?p=<chave>|2|<tpAmb>|<cIdCSC>|<hash>` online, `…?p=<chave>|2|<tpAmb>|<dia>|<vNF>|<digVal>|<cIdCSC>|<hash>`
 *   offline (tpEmis 9); version 1 `…?chNFe=<chave>&nVersao=100&tpAmb=…&dhEmi=<hex>&vNF=…&vICMS=…&…`.
 * - CF-e-SAT QR code: SEFAZ-SP, "Especificação Técnica de Requisitos do SAT" (ER SAT) 2.x, item 4.2.3:
 *   `<chave>|<AAAAMMDDHHMMSS>|<vCFe>|<CPF/CNPJ of the buyer or empty>|<signature>`.
 */
import type { FiscalFields } from '../../contract/codes.js';
import type { FiscalFormat } from '../types.js';
import { amountOf, isoDate, isoTime, mod11, queryOf, validCnpj } from './common.js';

/** IBGE codes of the states (cUF). */
const STATES = new Set([11, 12, 13, 14, 15, 16, 17, 21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32, 33, 35, 41, 42, 43, 50, 51, 52, 53]);

export interface AccessKey { state: number; year: number; month: number; cnpj: string; model: string; number: string; emission: string }

/** The fields of a 44-digit access key, checked (state, month, check digit, CNPJ). */
export function accessKey(key: string): AccessKey {
  const k = key.replace(/\s+/g, '');
  if (!/^\d{44}$/.test(k)) throw new Error('the access key is not 44 digits');
  if (mod11(k.slice(0, 43)) !== Number(k[43])) throw new Error('the access key check digit does not match');
  const state = Number(k.slice(0, 2)), year = 2000 + Number(k.slice(2, 4)), month = Number(k.slice(4, 6));
  if (!STATES.has(state)) throw new Error(`state code ${state} is not an IBGE state`);
  if (month < 1 || month > 12) throw new Error(`month ${month} is not a month`);
  const cnpj = k.slice(6, 20);
  if (!validCnpj(cnpj)) throw new Error(`issuer ${cnpj} is not a valid CNPJ`);
  return { state, year, month, cnpj, model: k.slice(20, 22), number: String(Number(k.slice(25, 34))), emission: k.slice(34, 35) };
}

function keyFields(k: AccessKey): FiscalFields {
  return { merchantTaxId: k.cnpj, invoiceNumber: k.number, currencyCode: 'BRL' };
}

/** Version 1: `dhEmi` is the hex of the date-time text (`2015-05-21T10:26:33-03:00`). */
function versionOne(q: Map<string, string>, k: AccessKey): FiscalFields {
  const out = keyFields(k);
  const vnf = q.get('vnf');
  if (vnf) out.totalAmount = amountOf(vnf, 'vNF');
  const hex = q.get('dhemi') ?? '';
  const when = /^[0-9a-f]+$/i.test(hex) ? Buffer.from(hex, 'hex').toString('latin1') : '';
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(when);
  if (m) { out.date = isoDate(+m[1]!, +m[2]!, +m[3]!, 'dhEmi'); out.time = isoTime(+m[4]!, +m[5]!, +m[6]!); }
  return out;
}

function nfce(text: string): FiscalFields {
  const q = queryOf(text);
  const p = q.get('p');
  if (!p) {
    const ch = q.get('chnfe');
    if (!ch) throw new Error('neither p nor chNFe is given');
    return versionOne(q, accessKey(ch));
  }
  const parts = p.split('|');
  const k = accessKey(parts[0] ?? '');
  const out = keyFields(k);
  if (parts.length >= 8) {
    // offline emission: the day of the month and the total are in the code
    const day = Number(parts[3]);
    out.date = isoDate(k.year, k.month, day, 'dia');
    out.totalAmount = amountOf(parts[4], 'vNF');
  }
  return out;
}

function sat(text: string): FiscalFields {
  const parts = text.trim().split('|');
  const k = accessKey((parts[0] ?? '').replace(/^CFe/i, ''));
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(parts[1] ?? '');
  if (!m) throw new Error(`time stamp ${JSON.stringify(parts[1] ?? '')} is not AAAAMMDDHHMMSS`);
  return {
    ...keyFields(k),
    totalAmount: amountOf(parts[2], 'vCFe'),
    date: isoDate(+m[1]!, +m[2]!, +m[3]!, 'time stamp'), time: isoTime(+m[4]!, +m[5]!, +m[6]!),
  };
}

function parse(text: string): FiscalFields {
  const t = text.trim();
  if (/^(CFe)?\d{44}\|\d{14}\|/i.test(t)) return sat(t);
  if (/^\d{44}$/.test(t.replace(/\s+/g, ''))) return keyFields(accessKey(t));
  return nfce(t);
}

/** An NFC-e consultation URL, a SAT code, or a bare 44-digit key (any format: the Code 128 of a DANFE). */
function matches(code: { format: string; text: string }): boolean {
  const t = code.text.trim();
  if (/^\d{44}$/.test(t.replace(/\s+/g, ''))) {
    try { accessKey(t); return true; } catch { return false; } // any 44 digits are not a key: the check digit and CNPJ must hold
  }
  if (/^(CFe)?\d{44}\|\d{14}\|/i.test(t)) return true;
  return code.format === 'QRCode' && /^https?:\/\//i.test(t) && /[?&](p=\d{44}\||chNFe=\d{44})/i.test(t);
}

export const brNfe: FiscalFormat = {
  scheme: 'br-nfe', country: 'BR',
  specification: 'MOC 7.0 Anexo I (chave de acesso); Manual DANFE NFC-e e QR Code v5.0; ER SAT 2.x item 4.2.3',
  matches, parse,
};
