/**
 * The merchant's address: the block of lines under the name (street words, unit/lot numbers,
 * postcodes, cities, states), stopping at phone, tax-registration, title or date lines, and its split
 * into city, state, postal code and country code.
 */
import type { Box, Document, Line } from '../document/types.js';
import type { Locale } from '../locale/index.js';
import { COUNTRY_NAMES, ID_CITIES, ID_PROVINCES, IN_STATES, MY_CITIES, MY_STATES, US_STATES } from '../locale/lexicon.js';
import { fold, segmentsOf } from './text.js';
import { parseDates } from '../locale/dates.js';
import type { Segment } from './text.js';
import type { Located } from './types.js';
import { confidenceFrom } from '../resolve/confidence.js';
import type { EvidenceTerm } from '../resolve/confidence.js';

export interface AddressFields {
  /** Evidence of the address choice (not a field of the result). */
  addressEvidence?: string[];
  merchantAddress?: Located<string>;
  merchantCity?: Located<string>;
  merchantState?: Located<string>;
  merchantPostalCode?: Located<string>;
  merchantCountryCode?: Located<string>;
}

const STREET = /\b(?:JALAN|JLN|JL|LORONG|LRG|TAMAN|TMN|LOT|BLOK|BLOCK|BLK|LEVEL|LVL|TINGKAT|FLOOR|FLR|GRD|GROUND|UNIT|SUITE|STE|KAWASAN|BANDAR|BDR|PERSIARAN|PSRN|LEBUH|LEBUHRAYA|KAMPUNG|KG|BATU|KM|STREET|ST|ROAD|RD|AVENUE|AVE|BOULEVARD|BLVD|DRIVE|DR|LANE|LN|HIGHWAY|HWY|WAY|PLAZA|SQUARE|SQ|CENTRE|CENTER|MALL|COMPLEX|KOMPLEKS|BUILDING|BLDG|BANGUNAN|WISMA|MENARA|RUE|BD|STRASSE|STRAßE|STR|STRAAT|WEG|LAAN|PLEIN|CALLE|AVENIDA|VIA|GANG|GG|RT|RW|KEL|KEC|KAB|KOTA|DESA|PERUMAHAN|RUKO|PASAR|SEKSYEN|SECTION|SS\d+|USJ|PJU|PJS|INDUSTRIAL|PERINDUSTRIAN|PARK|ESTATE|PO\s*BOX|P\.?O\.?\s*BOX|CEDEX|OFF|DATARAN|PANGSAPURI|APARTMENT|APT|TOWER|HEIGHTS|GARDEN|GARDENS|ARCADE)\b/;
const HARD_STOP = /\d[.,]\d{2}\s*[A-Z$§*]{0,2}\s*$|\b[A-Z]{1,3}\s?#\s?\d/;
const STOP = /\b(?:TOTAL|SUBTOTAL|TUNAI|CASH|KEMBALI\w*|CHANGE|AMOUNT|JUMLAH|HARGA|TEL|TELP|TELEPHONE|PHONE|FAX|HP|H\/P|MOBILE|WHATSAPP|GST|SST|VAT|TAX|NPWP|TVA|BTW|MWST|ABN|INVOICE|RECEIPT|RECIEPT|FACTURE|RECHNUNG|FACTUUR|DATE|TARIKH|TANGGAL|TIME|CASHIER|KASIR|TABLE|MEJA|EMAIL|E-MAIL|HOURS|OPEN|OPENING|WELCOME|THANK|TERIMA|ORDER|BILL|MEMBER|DOC|SLIP|QTY|ITEM|CUSTOMER|PELANGGAN|PESANAN|SALESPERSON|SERVER|POS|TERMINAL|COUNTER|STAFF|OPERATOR|REF|TRANS|CHECK|COMPANY\s*REG\w*)\b|WWW\.|HTTP|@|(?:CARE|HOT)\s?LINE|[OG]E?FFNUNGSZEIT/;
const REGISTRATION = /^\s*[({[]?\s*(?:CO\.?\s*(?:REG\.?\s*)?NO|COMPANY\s*(?:REG\w*\s*)?NO|ROC|REG\.?\s*NO|BR\s*NO|BUSINESS\s*REG\w*)?\s*[.:]?\s*[A-Z]{0,2}\d{4,}[\d\s.]*-?\s*[A-Z%\\]?\s*[)}\]]?\s*$|\b(?:CO\.?\s*(?:REG\.?\s*)?NO|COMPANY\s*(?:REG\w*\s*)?NO|ROC\s*NO|REG\.?\s*NO|BR\s*NO)\b/i;
const INLINE_STOP = /\s*[,(]?\s*\b(?:TEL|TELP|PHONE|FAX|H\/P|HP|GST|SST|VAT|EMAIL|E-MAIL)\b.*$|\s*[,(]?\s*(?:WWW\.|HTTP).*$/i;
const POSTCODE_5 = /(?<![\d.,-])(\d{5})(?![\d.,]|-\d{2,})/;
const POSTCODE_OTHER = /\b(\d{4}\s?[A-Z]{2})\b|\b([A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2})\b|(?<!\d)(\d{3}\s?\d{3})(?!\d)|\b(\d{5}-\d{4})\b|(?<![\d-])(\d{4})(?![\d.,])/;
const COUNTRY_WORD = new RegExp(String.raw`\b(${Object.keys(COUNTRY_NAMES).filter((k) => k.length > 3).map((k) => k.toUpperCase()).sort((a, b) => b.length - a.length).join('|')})\b`);

const letters = (s: string) => (s.match(/\p{L}/gu) ?? []).length;
const digits = (s: string) => (s.match(/\d/g) ?? []).length;

function placeIn(u: string, list: readonly string[]): string | undefined {
  const padded = ` ${u.replace(/[^A-Z0-9]+/g, ' ')} `;
  return list.filter((s) => padded.includes(` ${s.replace(/[^A-Z0-9]+/g, ' ').trim()} `)).sort((a, b) => b.length - a.length)[0];
}

/** Street names written as one compound word: Hauptstr., Bahnhofstraße, Kerkstraat, Rosenweg, Marktplatz. */
// (starts at a word's first letter: from every letter of a long word it backtracked quadratically, 2.9 s on 20k letters)
const STREET_SUFFIX = /(?<!\p{L})\p{L}{3,}(?:STR\.?|STRASSE|STRAßE|STRAAT|WEG|LAAN|PLEIN|PLATZ|ALLEE|GASSE|GRACHT|KADE|SINGEL|DIJK|RING|DAMM|UFER)\b/u;
/** A street name followed by a house number, the European way ("Damrak 1", "Calle Mayor 12b"). */
const NAME_NUMBER = /^[\p{L}][\p{L} .'-]{2,40}\s\d{1,4}[A-Z]?(?:\s*[-/]\s*\d{1,4}[A-Z]?)?$/u;

/** Reads like part of an address: street words, a postcode with a place, a state or city, a house number. */
export function looksLikeAddress(text: string): boolean {
  const u = fold(text);
  if (STREET.test(u) || STREET_SUFFIX.test(u)) return true;
  if (POSTCODE_5.test(u) && letters(u) >= 3) return true;
  if (placeIn(u, MY_STATES) || placeIn(u, ID_PROVINCES) || placeIn(u, MY_CITIES) || placeIn(u, ID_CITIES)) return true;
  if (/^(?:NO\.?\s*)?\d+[A-Z]?(?:[-/&]\d+[A-Z]?)*[,\s]+\p{L}/u.test(u)) return true;
  if (/,\s*\p{L}/u.test(u) && digits(u) > 0 && letters(u) > 4) return true;
  if (COUNTRY_WORD.test(u)) return true;
  return false;
}

function located(line: Line, value: string, confidence: number, boxes: Box[]): Located<string> {
  return { value, confidence, text: line.text, lineIndex: line.index, keyword: '-', boxes, page: line.page };
}

/** Finds the address block under the merchant name and splits it. */
export function findAddress(doc: Document, locale: Locale, ctx: { nameLine?: Line; nameBox?: Box | undefined; customer: Set<Segment>; gap: number }): AddressFields {
  const out: AddressFields = {};
  const page0 = doc.pages[0];
  if (!page0) return out;
  const lines = page0.lineIndices.map((i) => doc.lines[i]!);
  const nameAt = ctx.nameLine ? lines.indexOf(ctx.nameLine) : -1;
  const pdf = page0.source === 'pdf-text';
  const column = (line: Line): Segment => {
    // receipts are one column: only split a line at very wide gaps, between real words
    const segs = segmentsOf(line, pdf ? ctx.gap : 8).filter((sg) => letters(sg.text) >= 3 || digits(sg.text) >= 3);
    if (!segs.length) return { line, text: line.text, words: line.words, box: line.box };
    if (!ctx.nameBox || segs.length === 1) return segs[0]!;
    const x = ctx.nameBox.x0;
    return segs.slice().sort((a, b) => Math.abs(a.box.x0 - x) - Math.abs(b.box.x0 - x))[0]!;
  };

  const tryFrom = (start: number): Array<{ seg: Segment; text: string }> => {
    const block: Array<{ seg: Segment; text: string }> = [];
    let afterPostcode = -1;
    let skipped = 0;
    for (let i = start; i < Math.min(lines.length, start + 10); i++) {
      const seg = column(lines[i]!);
      if (ctx.customer.has(seg)) { if (block.length) break; continue; }
      const raw = seg.text.trim();
      const u = fold(raw);
      if (REGISTRATION.test(u) && !STREET.test(u)) { if (block.length) break; skipped++; continue; }
      const cut = raw.replace(INLINE_STOP, '').replace(/^\s*(?:ADDRESS|ALAMAT|ADRESSE|ADRES)\s*[:.]?\s*/i, '').trim();
      const cu = fold(cut);
      const dated = parseDates(cu, true, 2200).length > 0 || /\b\d{1,2}:\d{2}\b/.test(cu);
      if (!cut || letters(cut) < 2 || dated || HARD_STOP.test(cu) || (STOP.test(cu) && !STREET.test(cu))) {
        if (block.length) break;
        if (++skipped > 4) break;
        continue;
      }
      const nextText = i + 1 < lines.length ? fold(lines[i + 1]!.text) : '';
      const addressy = looksLikeAddress(cut) || (NAME_NUMBER.test(cut.trim()) && (POSTCODE_5.test(nextText) || POSTCODE_OTHER.test(nextText)) && letters(nextText) >= 3);
      if (addressy || (block.length && afterPostcode < 0 && letters(cut) >= 3 && !/[:]$/.test(cut)) || (block.length && afterPostcode >= 0 && i - afterPostcode <= 1 && letters(cut) >= 3 && digits(cut) <= 5 && !/:/.test(cut))) {
        block.push({ seg, text: cut });
        if (POSTCODE_5.test(cu) || POSTCODE_OTHER.test(cu)) afterPostcode = i;
      } else if (block.length) break;
      else if (++skipped > 3) break;
    }
    return block;
  };
  let block = nameAt >= 0 ? tryFrom(nameAt + 1) : [];
  if (!block.length) block = tryFrom(0);
  if (!block.length) {
    if (locale.countryCode) out.merchantCountryCode = located(lines[0]!, locale.countryCode, Math.min(0.9, locale.countryConfidence), []);
    return out;
  }
  const parts = block.map((b) => b.text.replace(/[\s,.;:]+$/, '').replace(/^[\s,.;:|]+/, '')
    // OCR reads the Indonesian street abbreviation "Jl." as "J1." / "JI."
    .replace(/^J[1I|]\.(?=\s)/, 'Jl.').replace(/^J[1I|]N(?=\s)/, 'JLN'));
  const value = parts.join(', ');
  const up = fold(value);
  const first = block[0]!.seg.line;
  const lineOf = (needle: string) => (block.find((b) => fold(b.text).includes(needle)) ?? block[0]!).seg.line;
  const boxesOf = (needle: string) => [lineOf(needle).box];

  const terms: EvidenceTerm[] = [];
  // the postcode: on the line that also names the city or state when several 5-digit numbers appear
  const pcLines = block.map((b) => fold(b.text)).filter((t) => POSTCODE_5.test(t));
  const pcLine = pcLines.find((t) => /\d{5}\s*,?\s*\p{L}{3,}|\p{L}{3,}\s*,?\s*(?:[A-Z]{2}\s+)?\d{5}/u.test(t) && !/#/.test(t)) ?? pcLines[0];
  const pc5 = pcLine ? POSTCODE_5.exec(pcLine) : null;
  const pcOther = pc5 ? undefined : POSTCODE_OTHER.exec(up);
  const postcode = pc5?.[1] ?? pcOther?.slice(1).find(Boolean);
  if (postcode) terms.push({ name: 'postcode', weight: 0.5 });
  if (block.some((b) => STREET.test(fold(b.text)))) terms.push({ name: 'street-words', weight: 0.3 });
  if (nameAt >= 0 && block[0]!.seg.line.index <= lines[nameAt]!.index + 2) terms.push({ name: 'under-name', weight: 0.3 });
  const conf = Math.min(...block.map((b) => b.seg.line.confidence));
  if (conf < 0.6) terms.push({ name: 'low-ocr', weight: -1.5 });
  else if (conf < 0.75) terms.push({ name: 'mid-ocr', weight: -0.7 });
  else if (conf >= 0.85) terms.push({ name: 'ocr-high', weight: 0.6 });
  out.merchantAddress = located(first, value, confidenceFrom(0.8, terms), block.map((b) => b.seg.box));
  out.addressEvidence = terms.map((t) => `${t.name}(${t.weight})`);

  // --- split: postcode, state, city, country ---
  const country = (() => {
    const m = COUNTRY_WORD.exec(up);
    if (m) return COUNTRY_NAMES[m[1]!.toLowerCase()];
    return locale.countryCode;
  })();
  if (postcode) out.merchantPostalCode = located(lineOf(postcode), postcode.replace(/\s+/g, ' '), 0.75, boxesOf(postcode));
  const stateList = country === 'ID' ? ID_PROVINCES : country === 'IN' ? IN_STATES : country === 'MY' ? MY_STATES : [];
  let state = stateList.length ? placeIn(up, stateList) : undefined;
  if (!state && country === 'US') {
    const m = new RegExp(`\\b(${US_STATES.join('|')})\\s+\\d{5}`).exec(up);
    if (m) state = m[1];
  }
  if (state) out.merchantState = located(lineOf(state.split(' ')[0]!), state, 0.75, boxesOf(state.split(' ')[0]!));
  let city: string | undefined;
  if (pc5) {
    // "43300 SERI KEMBANGAN, SELANGOR": the words after the postcode up to a comma
    const after = up.slice(up.indexOf(pc5[1]!) + 5).split(/[,]/)[0]!.replace(/[^A-Z\s.'-]/g, ' ').replace(/\s+/g, ' ').trim();
    const words = after.split(' ').filter(Boolean);
    const stateOnly = stateList.some((s) => s === after);
    if (words.length && words.length <= 4 && !stateOnly && !COUNTRY_WORD.test(after)) city = after;
    else {
      // "SPRINGFIELD, IL 62704" / "Denpasar, BALI 80361": the part before the postcode
      const before = up.slice(0, up.indexOf(pc5[1]!)).split(',').map((p) => p.trim().replace(/\b[A-Z]{2}$/, '').trim()).filter(Boolean);
      const cand = before[before.length - 1];
      if (cand && !/\d/.test(cand) && !STREET.test(cand) && cand.split(' ').length <= 4 && !stateList.includes(cand)) city = cand;
    }
  }
  if (!city && postcode && !pc5) {
    const after = up.slice(up.indexOf(fold(postcode)) + postcode.length).split(/[,]/)[0]!.replace(/[^A-Z\s.'-]/g, ' ').replace(/\s+/g, ' ').trim();
    if (after && after.split(' ').length <= 3) city = after;
  }
  if (!city) city = placeIn(up, country === 'ID' ? ID_CITIES : MY_CITIES);
  if (city && city !== state) out.merchantCity = located(lineOf(city.split(' ')[0]!), city, 0.6, boxesOf(city.split(' ')[0]!));
  if (country) out.merchantCountryCode = located(first, country, COUNTRY_WORD.test(up) ? 0.9 : Math.min(0.9, locale.countryConfidence), [first.box]);
  return out;
}
