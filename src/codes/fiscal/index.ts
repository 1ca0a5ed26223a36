/**
 * The fiscal formats, each in its own file citing its specification. A code is offered to each format
 * in this order; the first that recognises its shape owns it: its fields, or (when they cannot be
 * read) the reason, which is listed and changes nothing.
 */
import type { FiscalParse, PageCode } from '../../contract/codes.js';
import type { FiscalFormat } from '../types.js';
import { saZatca } from './sa-zatca.js';
import { inGstEinvoice } from './in-gst-einvoice.js';
import { ruFns } from './ru-fns.js';
import { brNfe } from './br-nfe.js';
import { ptAtcud } from './pt-atcud.js';
import { esTicketBai } from './es-ticketbai.js';
import { esVerifactu } from './es-verifactu.js';
import { hrFiskalizacija } from './hr-fiskalizacija.js';

export const FISCAL_FORMATS: readonly FiscalFormat[] = [saZatca, inGstEinvoice, ruFns, brNfe, ptAtcud, esTicketBai, esVerifactu, hrFiskalizacija];

/** Longest payload offered to the parsers (a fiscal QR code holds at most a few hundred characters; ZATCA phase 2 about 700). */
const MAX_PAYLOAD_CHARS = 4000;

/** What the fiscal formats make of a code: undefined when none recognises it. */
export function parseFiscal(code: Pick<PageCode, 'format' | 'text'>): FiscalParse | undefined {
  if (code.text.length > MAX_PAYLOAD_CHARS) return undefined;
  for (const f of FISCAL_FORMATS) {
    if (!f.matches(code)) continue;
    try {
      return { fact: { scheme: f.scheme, country: f.country, fields: f.parse(code.text) } };
    } catch (e) {
      return { scheme: f.scheme, country: f.country, error: e instanceof Error ? e.message : String(e) };
    }
  }
  return undefined;
}
