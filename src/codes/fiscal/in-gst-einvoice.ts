/**
 * India: the signed QR code of a GST e-invoice (IRN), issued by the Invoice Registration Portal.
 *
 * Specification: GSTN / NIC e-Invoice System, "e-Invoice API specification: Signed QR Code"
 * (https://einv-apisandbox.nic.in/version1.03/signed-qr-code.html) under CBIC Notification 72/2019-CT
 * and Rule 48(4) CGST Rules: the code is a JSON Web Token (RS256) whose payload's `data` claim is a JSON
 * string with SellerGstin, BuyerGstin, DocNo, DocTyp, DocDt (dd/mm/yyyy), TotInvVal, ItemCnt,
 * MainHsnCode, Irn, IrnDt. The signature is the portal's; it is not checked here (the portal's public
 * key is not shipped), so the payload is read as printed.
 */
import type { FiscalFields } from '../../contract/codes.js';
import type { FiscalFormat } from '../types.js';
import { isoDate } from './common.js';

const GSTIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** GSTIN: 15 characters, state code, PAN, entity, `Z`, and a mod-36 check character (GSTN's algorithm). */
export function validGstin(g: string): boolean {
  if (!/^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/.test(g)) return false;
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const v = GSTIN_CHARS.indexOf(g[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(v / 36) + (v % 36);
  }
  return GSTIN_CHARS[(36 - (sum % 36)) % 36] === g[14];
}

function payloadOf(jwt: string): Record<string, unknown> {
  const parts = jwt.trim().split('.');
  if (parts.length !== 3) throw new Error('not a JSON Web Token (three dot-separated parts)');
  let claims: unknown;
  try { claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')); } catch { throw new Error('the token payload is not JSON'); }
  const data = (claims as { data?: unknown })?.data;
  let inner: unknown = data;
  if (typeof data === 'string') {
    try { inner = JSON.parse(data); } catch { throw new Error('the data claim is not JSON'); }
  }
  if (!inner || typeof inner !== 'object') throw new Error('the token has no data claim');
  return inner as Record<string, unknown>;
}

function parse(text: string): FiscalFields {
  const d = payloadOf(text);
  const gstin = String(d.SellerGstin ?? '').toUpperCase();
  if (!validGstin(gstin)) throw new Error(`SellerGstin ${JSON.stringify(gstin)} is not a valid GSTIN`);
  const dm = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(String(d.DocDt ?? ''));
  if (!dm) throw new Error(`DocDt ${JSON.stringify(d.DocDt ?? '')} is not dd/mm/yyyy`);
  const total = Number(d.TotInvVal);
  if (!Number.isFinite(total) || total < 0) throw new Error(`TotInvVal ${JSON.stringify(d.TotInvVal ?? '')} is not an amount`);
  const docNo = typeof d.DocNo === 'string' && d.DocNo.trim() ? d.DocNo.trim() : undefined;
  return {
    totalAmount: Math.round(total * 100) / 100,
    date: isoDate(Number(dm[3]), Number(dm[2]), Number(dm[1]), 'DocDt'),
    merchantTaxId: gstin,
    ...(docNo ? { invoiceNumber: docNo } : {}),
    currencyCode: 'INR',
  };
}

/** A JWT (`eyJ` header) whose payload mentions the e-invoice keys. */
function matches(code: { format: string; text: string }): boolean {
  const t = code.text.trim();
  if (!/^eyJ[\w-]+\.[\w-]+\.[\w-]*$/.test(t)) return false;
  try { return /SellerGstin|DocDt|Irn/.test(Buffer.from(t.split('.')[1]!, 'base64url').toString('utf8')); } catch { return false; }
}

export const inGstEinvoice: FiscalFormat = {
  scheme: 'in-gst-einvoice', country: 'IN',
  specification: 'NIC e-Invoice API, Signed QR Code (JWT data claim: SellerGstin, DocNo, DocDt, TotInvVal)',
  matches, parse,
};
