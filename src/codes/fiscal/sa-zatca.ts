/**
 * Saudi Arabia: the QR code of a simplified tax invoice (ZATCA e-invoicing, "Fatoora").
 *
 * Specification: ZATCA, "E-Invoicing Detailed Technical Guideline" and "Electronic Invoice Security
 * Features Implementation Standards" (v1.2, 2023), section "QR Code": the code holds base64 of a TLV
 * sequence (1-byte tag, 1-byte length, UTF-8 value): tag 1 seller's name, 2 VAT registration number,
 * 3 time stamp of the invoice (ISO 8601), 4 invoice total with VAT, 5 VAT total; phase 2 adds 6 the
 * invoice hash, 7 the ECDSA signature, 8 the public key, 9 the certificate's signature (binary).
 * https://zatca.gov.sa/en/E-Invoicing/SystemsDevelopers/Documents/20220624_ZATCA_Electronic_Invoice_Security_Features_Implementation_Standards.pdf
 * The time stamp is taken as written (the receipt's local date), a `Z` suffix notwithstanding: many
 * point-of-sale systems write the local time with one.
 */
import type { FiscalFields } from '../../contract/codes.js';
import type { FiscalFormat } from '../types.js';
import { amountOf, writtenDateTime } from './common.js';

/** The TLV records of the payload (tag -> bytes). */
function records(bytes: Buffer): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  let i = 0;
  while (i < bytes.length) {
    if (i + 2 > bytes.length) throw new Error(`TLV record at byte ${i} is cut`);
    const tag = bytes[i]!, len = bytes[i + 1]!;
    if (tag < 1 || tag > 20) throw new Error(`TLV tag ${tag} at byte ${i} is not a ZATCA tag`);
    if (i + 2 + len > bytes.length) throw new Error(`TLV record ${tag} is longer than the payload`);
    out.set(tag, bytes.subarray(i + 2, i + 2 + len));
    i += 2 + len;
  }
  return out;
}

function parse(text: string): FiscalFields {
  const tlv = records(Buffer.from(text.trim(), 'base64'));
  const str = (tag: number) => tlv.get(tag)?.toString('utf8').trim();
  const vat = str(2);
  if (!vat || !/^3\d{13}3$/.test(vat)) throw new Error(`VAT number ${JSON.stringify(vat ?? '')} is not 15 digits starting and ending with 3`);
  const when = str(3);
  if (!when) throw new Error('time stamp (tag 3) is missing');
  const { date, time } = writtenDateTime(when);
  const name = str(1);
  return {
    totalAmount: amountOf(str(4), 'total (tag 4)'),
    taxAmount: amountOf(str(5), 'VAT (tag 5)'),
    date, ...(time ? { time } : {}),
    merchantTaxId: vat,
    ...(name ? { merchantName: name } : {}),
    currencyCode: 'SAR',
  };
}

/** Base64 whose first record is tag 1 (seller) with a plausible length. */
function matches(code: { format: string; text: string }): boolean {
  const t = code.text.trim();
  if (code.format !== 'QRCode' || t.length < 40 || !/^[A-Za-z0-9+/]+={0,2}$/.test(t)) return false;
  const head = Buffer.from(t.slice(0, 8), 'base64');
  return head[0] === 1 && head[1]! > 0;
}

export const saZatca: FiscalFormat = {
  scheme: 'sa-zatca', country: 'SA',
  specification: 'ZATCA E-Invoicing Security Features Implementation Standards, section QR Code (TLV tags 1-9)',
  matches, parse,
};
