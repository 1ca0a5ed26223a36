/**
 * The merchant: its name from the header (company suffixes, larger text, position; skipping document
 * titles, slogans, addresses, phone and registration lines), the address block under it split into
 * city, state, postal code and country, and its phone, tax id and website.
 */
import type { Document, Line } from '../document/types.js';
import type { Locale } from '../locale/index.js';
import { ID_PROVINCES, MY_STATES, US_STATES } from '../locale/lexicon.js';
import { fold, segmentsOf } from './text.js';
import type { Segment } from './text.js';
import type { Located } from './types.js';

const COMPANY_SUFFIX = /\b(SDN\.?\s*BHD|BHD|BERHAD|ENTERPRISE|ENTERPRISES|TRADING|LTD|LIMITED|LLC|L\.L\.C|INC|CORP|CORPORATION|CO\.?\s*LTD|GMBH|AG|S\.?A\.?S?|SARL|S\.?R\.?L|B\.?V\.?|N\.?V\.?|PTE|PT|CV|TBK|PLC|PVT|LLP|KG|OY|AB|SPA|S\.?L\.?|RESTORAN|RESTAURANT|CAFE|KEDAI|MART|STORE|SHOP|HARDWARE|PHARMACY|FARMASI|BAKERY|MINIMARKET|SUPERMARKET|STATIONERY|BOOKSTORE|HOTEL)\b\.?/;
const NOT_NAME = /\b(TAX\s*INVOICE|INVOICE|FACTURE|RECHNUNG|FACTUUR|FAKTUR|RECEIPT|RECIEPT|KWITANSI|NOTA|STRUK|BILL|CASH\s*SALE|SALES\s*ORDER|OFFICIAL|WELCOME|SELAMAT|THANK|TERIMA\s*KASIH|MERCI|DANKE|TEL|TELP|FAX|PHONE|HP|MOBILE|EMAIL|E-MAIL|GST|SST|VAT|NPWP|TVA|REG\b|REG\.|CO\.?\s*NO|COMPANY\s*NO|ROC|DATE|TARIKH|TANGGAL|CASHIER|KASIR|TABLE|MEJA|ORDER|PAGE|COPY|DUPLICATE|ORIGINAL|CUSTOMER|BILL\s*TO|SHIP\s*TO|SOLD\s*TO|INVOICE\s*TO|WWW\.|HTTP|\.COM\b|@|OPEN\s*DAILY|BUKA|HOURS|POS\b|TERMINAL|MEMBER)\b/;
const ADDRESS_WORD = /\b(JALAN|JLN|JL|LORONG|LRG|TAMAN|TMN|LOT|NO|BLOK|BLOCK|BLK|LEVEL|LVL|TINGKAT|FLOOR|UNIT|SUITE|STE|KAWASAN|BANDAR|PERSIARAN|LEBUH|KAMPUNG|KG|BATU|KM|STREET|ST|ROAD|RD|AVENUE|AVE|BOULEVARD|BLVD|DRIVE|DR|LANE|LN|HIGHWAY|HWY|WAY|PLAZA|SQUARE|CENTRE|CENTER|MALL|COMPLEX|KOMPLEKS|BUILDING|BANGUNAN|WISMA|MENARA|RUE|AVENUE|BD|STRASSE|STR|STRAAT|WEG|PLEIN|CALLE|VIA|GANG|GG|RT|RW|KEL|KEC|KAB|KOTA|DESA|PERUMAHAN|RUKO|PASAR|SEKSYEN|SECTION|SS\d+|USJ|PJU|PJS|INDUSTRIAL|PERINDUSTRIAN|PARK|ESTATE)\b/;
const POSTCODE = /\b(\d{5})\b|\b(\d{4}\s?[A-Z]{2})\b|\b([A-Z]\d[A-Z]\s?\d[A-Z]\d)\b|\b(\d{3}\s?\d{3})\b/;
const PHONE = /(?:\b(?:TEL|TELP|TELEPHONE|PHONE|PH|HP|MOBILE|FAX|T)\b\.?\s*(?:\/\s*FAX)?\s*[:.]?\s*)(\+?[\d][\d\s\-().]{6,}\d)/i;
const TAX_ID = /\b(GST\s*(?:REG\w*)?\s*(?:NO|ID|#)?|SST\s*(?:REG\w*)?\s*(?:NO|ID|#)?|VAT\s*(?:REG\w*)?\s*(?:NO|NUMBER|ID|#)?|TVA(?:\s*INTRACOM\w*)?|N°\s*TVA|USt-?Id(?:Nr)?\.?|NPWP|GSTIN|BTW(?:-?nr)?|ABN|TIN|TAX\s*ID|CO\.?\s*REG\w*\s*(?:NO)?|ROC\s*(?:NO)?|COMPANY\s*(?:REG\w*\s*)?NO|SIRET|SIREN|KVK|RCS)\s*[.:#]?\s*([A-Z]{0,3}[\d][\dA-Z\-. /]{4,}[\dA-Z])/i;
const WEBSITE = /\b((?:https?:\/\/)?(?:www\.)[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}|(?:https?:\/\/)[a-z0-9-]+(?:\.[a-z0-9-]+)+)\b/i;

export interface MerchantFields {
  merchantName?: Located<string>;
  merchantAddress?: Located<string>;
  merchantCity?: Located<string>;
  merchantState?: Located<string>;
  merchantPostalCode?: Located<string>;
  merchantCountryCode?: Located<string>;
  merchantPhoneNumber?: Located<string>;
  merchantTaxId?: Located<string>;
  merchantWebsite?: Located<string>;
  merchantTypes?: Located<string[]>;
}

const letters = (s: string) => (s.match(/\p{L}/gu) ?? []).length;
const digits = (s: string) => (s.match(/\d/g) ?? []).length;

function loc(line: Line, value: string, confidence: number, keyword = '-', lines: Line[] = [line]): Located<string> {
  return { value, confidence, text: line.text, lineIndex: line.index, keyword, boxes: lines.map((l) => l.box), page: line.page };
}

export function cleanName(s: string): string {
  return s.replace(/^[\s\-_=*~.,:;|'"`(]+|[\s\-_=*~,:;|'"`]+$/g, '').replace(/\s{2,}/g, ' ').trim();
}

function looksLikeAddress(t: string): boolean {
  const u = fold(t);
  return ADDRESS_WORD.test(u) || (POSTCODE.test(u) && letters(u) > 3) || /^\d+[A-Z]?[,\s]/.test(u) || /,\s*\w+/.test(u) && digits(u) > 0;
}

/** Finds the merchant fields. */
export function findMerchant(doc: Document, locale: Locale, opts: { ignoreMerchantName?: string }): MerchantFields {
  const out: MerchantFields = {};
  const page0 = doc.pages[0];
  if (!page0) return out;
  const lines = page0.lineIndices.map((i) => doc.lines[i]!);
  const heights = lines.map((l) => l.box.y1 - l.box.y0).sort((a, b) => a - b);
  const medianH = heights[Math.floor(heights.length / 2)] || 1;
  const ignore = opts.ignoreMerchantName ? fold(opts.ignoreMerchantName).replace(/[^A-Z0-9]+/g, ' ').trim() : '';
  const head = lines.slice(0, Math.min(lines.length, 12));

  // --- name: the best header segment (a line may hold several columns) ---
  let best: { seg: Segment; score: number; value: string } | undefined;
  const gap = page0.source === 'pdf-text' ? 2.5 : 6;
  head.forEach((line, i) => {
    for (const seg of segmentsOf(line, gap)) {
      const t = cleanName(seg.text);
      const u = fold(t);
      if (letters(t) < 3 || letters(t) < digits(t)) continue;
      if (ignore && u.replace(/[^A-Z0-9]+/g, ' ').trim().includes(ignore)) continue;
      let s = 0;
      const suffix = COMPANY_SUFFIX.test(u);
      if (suffix) s += 3;
      if (NOT_NAME.test(u) && !suffix) s -= 4;
      if (looksLikeAddress(t) && !suffix) s -= 3;
      if (/^\(.*\)$/.test(t)) s -= 2; // (branch) or (registration)
      const h = seg.box.y1 - seg.box.y0;
      s += Math.min(2, Math.max(-1, (h / medianH - 1) * 2));
      if (t === t.toUpperCase() && letters(t) >= 4) s += 0.5;
      s -= i * 0.35;
      s += (line.confidence - 0.7) * 2;
      if (letters(t) < 5) s -= 1;
      if (!best || s > best.score) best = { seg, score: s, value: t };
    }
  });
  let nameSeg: Segment | undefined;
  if (best && best.score > -2.5) {
    const b: { seg: Segment; score: number; value: string } = best;
    nameSeg = b.seg;
    const conf = Math.max(0.2, Math.min(0.95, 0.5 + 0.08 * b.score + (b.seg.line.confidence - 0.8)));
    out.merchantName = { ...loc(b.seg.line, b.value, conf), boxes: [b.seg.box] };
  }

  // --- address block: the segments under the name, in its column, that read like an address ---
  const startAt = nameSeg ? lines.indexOf(nameSeg.line) + 1 : 0;
  const column = (line: Line): Segment => {
    const segs = segmentsOf(line, gap);
    if (!nameSeg || segs.length === 1) return segs[0]!;
    const x = nameSeg.box.x0;
    return segs.slice().sort((a, b) => Math.abs(a.box.x0 - x) - Math.abs(b.box.x0 - x))[0]!;
  };
  const block: Segment[] = [];
  for (let i = startAt; i < Math.min(lines.length, startAt + 8); i++) {
    const seg = column(lines[i]!);
    const t = seg.text.trim();
    const u = fold(t);
    if (/^\(?[\dA-Z\-\s:.]{4,}\)?$/.test(u) && digits(u) >= 4 && !POSTCODE.test(u) && block.length === 0) continue; // registration number line
    if (/^\(.*(CO\.?|REG|ROC|\d{5,}-[A-Z]).*\)$/.test(u)) continue;
    if (PHONE.test(t) || TAX_ID.test(t) || /\b(TAX\s*INVOICE|INVOICE|RECEIPT|DATE|TARIKH|CASHIER|TABLE|EMAIL|WWW|HTTP|BILL\s*TO|SHIP\s*TO)\b/.test(u)) { if (block.length) break; continue; }
    const prev = block[block.length - 1];
    if (looksLikeAddress(t) || (prev && block.length < 4 && letters(t) >= 3 && !NOT_NAME.test(u) && (MY_STATES.some((s) => u.includes(s)) || POSTCODE.test(u) || /,$/.test(prev.text.trim())))) {
      block.push(seg);
      if (/\b\d{5}\b/.test(u) && (MY_STATES.some((s) => u.includes(s)) || ID_PROVINCES.some((s) => u.includes(s)))) break;
    } else if (block.length) break;
  }
  if (block.length) {
    const value = block.map((sg) => sg.text.trim().replace(/[,.\s]+$/, '')).join(', ');
    const conf = Math.min(0.9, 0.45 + 0.1 * block.length + (block.some((sg) => POSTCODE.test(fold(sg.text))) ? 0.15 : 0));
    out.merchantAddress = { ...loc(block[0]!.line, value, conf), boxes: block.map((sg) => sg.box) };
    const addrUp = fold(value);
    const pc = /\b(\d{5})\b/.exec(addrUp) ?? /\b(\d{4}\s?[A-Z]{2})\b/.exec(addrUp);
    const lineOf = (needle: string) => (block.find((sg) => fold(sg.text).includes(needle)) ?? block[0]!).line;
    if (pc) {
      out.merchantPostalCode = loc(lineOf(pc[1]!), pc[1]!, 0.7);
      // "43300 SERI KEMBANGAN, SELANGOR": the words after the postcode up to a comma are the city
      const after = addrUp.slice(addrUp.indexOf(pc[1]!) + pc[1]!.length).split(',')[0]!.replace(/[^A-Z\s.'-]/g, ' ').trim();
      const cityWords = after.split(/\s+/).filter(Boolean);
      const stateInCity = [...MY_STATES, ...ID_PROVINCES].find((s) => after === s);
      if (cityWords.length && cityWords.length <= 4 && !stateInCity) out.merchantCity = loc(lineOf(pc[1]!), after, 0.55);
      else if (!cityWords.length) {
        // "SPRINGFIELD, IL 62704" / "Denpasar, BALI 80361": the part before the state and postcode
        const before = addrUp.slice(0, addrUp.indexOf(pc[1]!)).split(',').map((p) => p.trim()).filter(Boolean);
        const lastPart = before[before.length - 1]?.replace(/\b[A-Z]{2}$/, '').trim();
        const prevPart = before[before.length - 2];
        const city = lastPart && !/\d/.test(lastPart) && !ADDRESS_WORD.test(lastPart) && !MY_STATES.includes(lastPart) && !ID_PROVINCES.includes(lastPart) ? lastPart : prevPart && !/\d/.test(prevPart) ? prevPart : undefined;
        if (city && city.split(/\s+/).length <= 4) out.merchantCity = loc(lineOf(city), city, 0.5);
      }
    }
    const states = locale.countryCode === 'ID' ? ID_PROVINCES : locale.countryCode === 'US' ? [] : MY_STATES;
    const state = states.filter((s) => new RegExp(`\\b${s.replace(/\./g, '\\.')}\\b`).test(addrUp)).sort((a, b) => b.length - a.length)[0];
    if (state) out.merchantState = loc(lineOf(state), state, 0.7);
    else if (locale.countryCode === 'US') {
      const m = new RegExp(`\\b(${US_STATES.join('|')})\\s+\\d{5}`).exec(addrUp);
      if (m) out.merchantState = loc(block[0]!.line, m[1]!, 0.65);
    }
  }
  if (locale.countryCode) {
    const anchor = block[0]?.line ?? doc.lines[0];
    if (anchor) out.merchantCountryCode = loc(anchor, locale.countryCode, Math.min(0.95, locale.countryConfidence));
  }

  // --- phone, tax id, website: first occurrence ---
  for (const line of doc.lines) {
    if (!out.merchantPhoneNumber) {
      const m = PHONE.exec(line.text);
      if (m && digits(m[1]!) >= 7) out.merchantPhoneNumber = loc(line, m[1]!.trim(), 0.75, m[0].split(/[:\s]/)[0]!);
    }
    if (!out.merchantTaxId) {
      const m = TAX_ID.exec(line.text);
      if (m && digits(m[2]!) >= 5) out.merchantTaxId = loc(line, m[2]!.trim(), 0.7, m[1]!.trim());
    }
    if (!out.merchantWebsite) {
      const m = WEBSITE.exec(line.text);
      if (m && !/@/.test(line.text.slice(Math.max(0, m.index - 1), m.index))) out.merchantWebsite = loc(line, m[1]!.toLowerCase(), 0.7);
    }
  }
  const types = merchantTypes(doc.text);
  if (types.length && out.merchantName) out.merchantTypes = { ...out.merchantName, value: types, confidence: 0.5, keyword: '-' };
  return out;
}

const TYPE_RULES: Array<[RegExp, string]> = [
  [/\b(RESTORAN|RESTAURANT|CAFE|COFFEE|KOPI|KOPITIAM|BAKERY|FOOD|MAKAN|NASI|MEE|BURGER|PIZZA|CHICKEN|AYAM|TEA|TEH|DRINK|MINUMAN|BAR|BISTRO|KITCHEN|DAPUR|WARUNG|RUMAH MAKAN|BOBA|BAKSO|SATE)\b/, 'food & drink'],
  [/\b(HARDWARE|BUILDING MATERIAL|TOOLS?|PAINT|ELECTRICAL|PLUMBING)\b/, 'hardware'],
  [/\b(PHARMACY|FARMASI|APOTEK|CLINIC|KLINIK|MEDICAL|HEALTH)\b/, 'health'],
  [/\b(SUPERMARKET|MINIMARKET|MINI MARKET|GROCER\w*|MART|HYPERMARKET|PASAR)\b/, 'groceries'],
  [/\b(PETROL|FUEL|GASOLINE|DIESEL|SPBU)\b/, 'fuel'],
  [/\b(HOTEL|INN|RESORT|HOSTEL|LODGING|PENGINAPAN)\b/, 'lodging'],
  [/\b(STATIONERY|BOOKS?|BOOKSTORE|PRINTING|PHOTOCOPY)\b/, 'stationery'],
  [/\b(HOSTING|SOFTWARE|CLOUD|INTERNET|TELECOM|FIBRE|FIBER)\b/, 'technology'],
];

/** Coarse merchant categories from keywords. */
export function merchantTypes(text: string): string[] {
  const u = fold(text);
  return TYPE_RULES.filter(([re]) => re.test(u)).map(([, t]) => t).slice(0, 2);
}
