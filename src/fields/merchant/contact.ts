/**
 * The merchant's phone, tax id and website (the first of each on the page), and coarse merchant
 * categories from keywords.
 */
import type { Document } from '../../document/types.js';
import { fold } from '../text.js';
import { WEBSITE, digits, loc } from './patterns.js';
import type { MerchantFields } from './types.js';

const PHONE = /(?:\b(?:TEL|TELP|TELEPHONE|PHONE|PH|HP|MOBILE|FAX|T|WA|WHATSAPP|CALL)\b\.?\s*(?:NO\.?)?\s*(?:\/\s*FAX)?\s*[:.]?\s*)(\+?\(?\d[\d\s\-().]{6,}\d)/i;
const TAX_ID = /\b(GST\s*(?:REG\w*)?\s*(?:NO|ID|#)?|SST\s*(?:REG\w*)?\s*(?:NO|ID|#)?|VAT\s*(?:REG\w*)?\s*(?:NO|NUMBER|ID|#)?|TVA(?:\s*INTRACOM\w*)?|N°\s*TVA|USt-?Id(?:Nr)?\.?|NPWP|GSTIN|BTW(?:-?nr)?|ABN|TIN|TAX\s*ID|CO\.?\s*REG\w*\s*(?:NO)?|ROC\s*(?:NO)?|COMPANY\s*(?:REG\w*\s*)?NO|SIRET|SIREN|KVK|RCS)\s*[.:#]?\s*([A-Z]{0,3}[\dO][\dA-Z\-. /]{4,}[\dA-Z])/i;

/** The merchant's phone, tax id and website: the first occurrence of each, in the order found. */
export function contactFields(doc: Document): Pick<MerchantFields, 'merchantPhoneNumber' | 'merchantTaxId' | 'merchantWebsite'> {
  const out: Pick<MerchantFields, 'merchantPhoneNumber' | 'merchantTaxId' | 'merchantWebsite'> = {};
  for (const line of doc.lines) {
    if (!out.merchantPhoneNumber) {
      const m = PHONE.exec(line.text);
      if (m && digits(m[1]!) >= 7 && !/\b(?:FAX)\b/i.test(m[0].slice(0, 5))) out.merchantPhoneNumber = loc(line, m[1]!.trim(), 0.75, m[0].split(/[:\s]/)[0]!);
    }
    if (!out.merchantTaxId) {
      const m = TAX_ID.exec(line.text);
      if (m && digits(m[2]!.replace(/O/g, '0')) >= 5) out.merchantTaxId = loc(line, m[2]!.trim(), 0.7, m[1]!.trim());
    }
    if (!out.merchantWebsite) {
      const m = WEBSITE.exec(line.text);
      if (m && !/@/.test(line.text.slice(Math.max(0, m.index - 1), m.index))) out.merchantWebsite = loc(line, m[1]!.toLowerCase(), 0.7);
    }
  }
  return out;
}

const TYPE_RULES: Array<[RegExp, string]> = [
  [/\b(RESTORAN|RESTAURANT|CAFE|COFFEE|KOPI|KOPITIAM|BAKERY|BAKERIES|FOOD|MAKAN|NASI|MEE|BURGER|PIZZA|CHICKEN|AYAM|DRINK|MINUMAN|BISTRO|KITCHEN|DAPUR|WARUNG|RUMAH MAKAN|BOBA|BAKSO|SATE|SUSHI|STARBUCKS|DINE IN|TAKE AWAY|TAKEAWAY)\b/, 'food & drink'],
  [/\b(HARDWARE|BUILDING MATERIAL|TOOLS|PAINT|ELECTRICAL|PLUMBING)\b/, 'hardware'],
  [/\b(PHARMACY|FARMASI|APOTEK|CLINIC|KLINIK|MEDICAL|HEALTH)\b/, 'health'],
  [/\b(SUPERMARKET|MINIMARKET|MINI MARKET|GROCER\w*|MART|HYPERMARKET|PASAR)\b/, 'groceries'],
  [/\b(PETROL|FUEL|GASOLINE|DIESEL|SPBU)\b/, 'fuel'],
  [/\b(HOTEL|INN|RESORT|HOSTEL|LODGING|PENGINAPAN)\b/, 'lodging'],
  [/\b(STATIONERY|BOOKSTORE|BOOKS|PRINTING|PHOTOCOPY)\b/, 'stationery'],
  [/\b(HOSTING|SOFTWARE|CLOUD|INTERNET|TELECOM|FIBRE|FIBER)\b/, 'technology'],
  [/\b(PARKING|TOLL|TAXI|GRAB|TRANSPORT)\b/, 'transport'],
];

/** Coarse merchant categories from keywords. */
export function merchantTypes(text: string): string[] {
  const u = fold(text);
  return TYPE_RULES.filter(([re]) => re.test(u)).map(([, t]) => t).slice(0, 2);
}
