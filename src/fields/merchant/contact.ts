/**
 * The merchant's phone, tax id and website (the first of each on the page), and coarse merchant
 * categories from keywords.
 */
import type { Document } from '../../document/types.js';
import { fold } from '../text.js';
import { WEBSITE, digits, loc } from './patterns.js';
import type { MerchantFields } from './types.js';
import { wordAlternation } from '../../locale/languages/index.js';

const PHONE = new RegExp(String.raw`(?:\b(?:${wordAlternation('phoneLabels')})\b\.?\s*(?:NO\.?)?\s*(?:\/\s*FAX)?\s*[:.]?\s*)(\+?\(?\d[\d\s\-().]{6,}\d)`, 'i');
const TAX_ID = new RegExp(String.raw`\b(${wordAlternation('taxIdLabels', { inOrder: true })})\s*[.:#]?\s*([A-Z]{0,3}[\dO][\dA-Z\-. /]{4,}[\dA-Z])`, 'i');

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

/** The merchant categories, in the order they are given; their words come from the language folders. */
const CATEGORY = { categoryFood: 'food & drink', categoryHardware: 'hardware', categoryHealth: 'health', categoryGroceries: 'groceries', categoryFuel: 'fuel', categoryLodging: 'lodging', categoryStationery: 'stationery', categoryTechnology: 'technology', categoryTransport: 'transport' } as const;
const TYPE_RULES: Array<[RegExp, string]> = (['categoryFood', 'categoryHardware', 'categoryHealth', 'categoryGroceries', 'categoryFuel', 'categoryLodging', 'categoryStationery', 'categoryTechnology', 'categoryTransport'] as const).map((list) => [new RegExp(String.raw`\b(${wordAlternation(list, { space: ' ' })})\b`), CATEGORY[list]]);

/** Coarse merchant categories from keywords. */
export function merchantTypes(text: string): string[] {
  const u = fold(text);
  return TYPE_RULES.filter(([re]) => re.test(u)).map(([, t]) => t).slice(0, 2);
}
