/**
 * The merchant: its name from the header (company suffixes, larger text, position, the name repeated
 * in the footer or in the website/e-mail domain; skipping document titles, slogans, addresses, phone
 * and registration lines, and the customer's block after "Bill to" / "To:"), then the address block
 * under it (address.ts), and the merchant's phone, tax id and website.
 */
import type { Document, Line } from '../document/types.js';
import type { Locale } from '../locale/index.js';
import { COMPANY_SUFFIX_PATTERN } from '../locale/lexicon.js';
import { findAddress, looksLikeAddress } from './address.js';
import type { AddressFields } from './address.js';
import { brandAtStart, brandInCountry, brandInside, brandOfDomain, nearBrand } from './brands.js';
import type { Brand } from './brands.js';
import { fold, segmentsOf } from './text.js';
import type { Segment } from './text.js';
import type { Located } from './types.js';
import { confidenceFrom } from '../resolve/confidence.js';
import type { EvidenceTerm } from '../resolve/confidence.js';
import { editDistance } from '../locale/keywords.js';

const STRONG_SUFFIX_PATTERN = String.raw`SDN\.?\s*BHD\.?|S\/B|SDN|BHD\.?|BERHAD|PLT|LTD\.?|LIMITED|LLC|L\.L\.C\.?|INC\.?|INCORPORATED|CORP\.?|CORPORATION|CO\.,?\s*LTD\.?|GMBH|M\.?B\.?H\.?|S\.A\.S\.?|S\.A\.|SARL|S\.A\.R\.L\.?|EURL|S\.R\.L\.?|S\.L\.|S\.P\.A\.?|B\.V\.?|N\.V\.?|TBK\.?|PVT\.?|LLP|PTY\.?|K\.K\.`;
/** Company forms, OCR-tolerant for the Malaysian ones (S/B read as 5/B, SDN BHD as SON BHD). */
const COMPANY_SUFFIX = new RegExp(String.raw`(?:^|[\s,.(])(?:${STRONG_SUFFIX_PATTERN}|[S5$&§][/\\][B8R0D]|S[O0E]N\.?\s*[BT8I]H[D0]|SDN\.?\s*\w{2,3}|[BT8]HD)(?=$|[\s,.)])`);
const SUFFIX_AT_END = new RegExp(String.raw`(?:^|\s)(?:${COMPANY_SUFFIX_PATTERN})\s*$`);
/** Short company forms (AG, KG, SA, PT, ...) also abbreviate other words (KG = kampung): only at the end of a longer name, or PT/CV first. */
// Linear: the form at the end is found first, then three letters before it (one pattern
// `\p{L}{3,}.*\s(?:AG|...)$` backtracked quadratically: 1.4 s on 20k characters of 'TOTAL ').
const WEAK_SUFFIX_END = /\s(?:AG|KG|SA|SAS|SL|NV|BV|AS|AB|OY|APS|SRL|SPA|PTE|PLC)\.?$/u;
const WEAK_SUFFIX_START = /^(?:PT|CV)\.?\s+\p{L}{3,}/u;
export const weakSuffix = (t: string): boolean => {
  const end = WEAK_SUFFIX_END.exec(t);
  return (!!end && /\p{L}{3}/u.test(t.slice(0, end.index))) || WEAK_SUFFIX_START.test(t);
};
const hasSuffix = (u: string) => COMPANY_SUFFIX.test(` ${u} `) || weakSuffix(u.trim());
/** A short company form printed in lower case ("... WHE as") is a word, not a form (forms print as AS, AB, Oy, SpA). */
const lowerWeakSuffix = (value: string) => /\s\p{Ll}{2,3}\.?$/u.test(value.trim()) && weakSuffix(fold(value).trim()) && !COMPANY_SUFFIX.test(` ${fold(value)} `);
const COUNTRY_ONLY = /^(?:MALAYSIA|INDONESIA|SINGAPORE|FRANCE|GERMANY|DEUTSCHLAND|NEDERLAND|NETHERLANDS|UNITED STATES|USA|UNITED KINGDOM|UK|INDIA|AUSTRALIA|HONG KONG)\W*$/;
/** Shop-type words that often name the merchant when no company form is printed. */
const SHOP_WORD = /\b(?:RESTORAN|RESTAURANT|CAFE|KEDAI|MART|MINIMARKET|SUPERMARKET|HYPERMARKET|STORE|SHOP|HARDWARE|PHARMACY|FARMASI|APOTEK|BAKERY|STATIONERY|BOOKSTORE|HOTEL|TRADING|ENTERPRISE|ENTERPRISES|HOLDINGS|MARKETING|INDUSTRIES|SERVICES|COMPANY|WARUNG|TOKO|RUMAH\s*MAKAN|PIZZA|BURGER|COFFEE|KOPI|TEA|BISTRO|KITCHEN|GRILL|BAR|PASAR|MARKET|BOUTIQUE|CENTRE|CENTER|STUDIO|SALON|CLINIC|KLINIK)\b/;
/** Document titles and other header lines that are not the merchant. */
const TITLE_WORDS = /\b(?:SIMPLIFIED\s*TAX\s*INVOICE|TAX\s*INVOICE|COMMERCIAL\s*INVOICE|INVOICE|FACTURE|FACTURA|FATTURA|RECHNUNG|FACTUUR|FAKTUR|RECEIPT|RECIEPT|OFFICIAL\s*RECEIPT|PAYMENT\s*RECEIPT|CASH\s*RECEIPT|KWITANSI|NOTA|STRUK|CASH\s*BILL|CASH\s*SALES?|CASH|BILL|QUOTATION|DELIVERY\s*ORDER|SALES\s*ORDER|CREDIT\s*NOTE|DEBIT\s*NOTE|ADJUSTMENT\s*NOTE|TICKET|GUEST\s*CHECK|ORDER|COPY|KOPIE|COPIE|KOPIA|DUPLICATE|DUPLICAAT|REPRINT|ORIGINAL)\b/g;
const NOT_NAME = /\b(?:WELCOME|SELAMAT|THANK|TERIMA\s*KASIH|MERCI|DANKE|BEDANKT|GRACIAS|TEL|TELP|TELEPHONE|FAX|PHONE|HP|MOBILE|EMAIL|E-MAIL|GST|SST|VAT|NPWP|TVA|BTW|MWST|UST|ABN|TIN|REG|CO\.?\s*NO|COMPANY\s*NO|ROC|DATE|TARIKH|TANGGAL|TIME|CASHIER|KASIR|TABLE|MEJA|PAGE|SEITE|CUSTOMER|MEMBER|POS|TERMINAL|OPEN|HOURS|BUKA|DOC|NO\s*:|QTY|ITEM|DESCRIPTION|AMOUNT|TOTAL|PRICE|SUMMARY|DETAILS|ACCOUNT|SHOPPING|VISIT|FOLLOW|INSTAGRAM|FACEBOOK|FORMERLY|KNOWN\s*AS|CARELINE|HOTLINE|CHECK\s*(?:IN|OUT)|DETAILS|TUNAI|CASH|KEMBALI\w*|CHANGE|SUBTOTAL|JUMLAH|BAYAR|DISKON|QTY)\b|WWW\.|HTTP|\.COM\b|@|:\s*$|:\s*[\d+(]|\d[.,]\d{2,3}\b/;
/** Labels that introduce the customer, not the merchant. */
const CUSTOMER_LABEL = /\b(?:TO|AN|ATTN|A)\s*:|\bT\.?\s*A\.?\s*V\.|\b(?:BILLING\s*ADDRESS|SHIPPING\s*ADDRESS|DELIVERY\s*ADDRESS|FACTUURADRES|AFLEVERADRES|LEVERADRES|LIEFERADRESSE|ADRESSE\s*DE\s*LIVRAISON|DIRECCION\s*DE\s*(?:ENVIO|FACTURACION)|ALAMAT\s*PENGIRIMAN|BILL(?:ED)?\s*TO|SHIP(?:PED)?\s*TO|SOLD\s*TO|INVOICE\s*TO|DELIVER(?:Y|ED)?\s*TO|CUSTOMER|CLIENT|KUNDE|KLANT|DESTINATAIRE|FACTURER\s*A|FACTURE\s*A|ADRESSE\s*DE\s*FACTURATION|RECHNUNGSADRESSE|GUEST\s*NAME|NAMA\s*PELANGGAN|PELANGGAN|ATTN|ATTENTION|A\s*L\s*ATTENTION|BUYER|RECIPIENT|CONSIGNEE)\b/;
/** A new section of the header (so the customer's block has ended). */
const SECTION_START = /\b(?:DETAILS|INFORMATION|HOTEL|MERCHANT|SELLER|VENDOR|SUPPLIER|FROM|SOLD\s*BY|INVOICE|FACTURE|RECHNUNG|FACTUUR|DATE|PAYMENT)\b|:\s*$/;
/** Labels that introduce the merchant. */
const MERCHANT_LABEL = /(?:^|[\s–-])(?:SOLD\s*BY|SELLER|VENDOR|SUPPLIER|ISSUED\s*BY|MERCHANT|FROM|DIMILIKI(?:\s*OLEH)?|OPERATED\s*BY|TITULAIRE\s*DU\s*COMPTE|ACCOUNT\s*NAME|PAYABLE\s*TO|BENEFICIARY|VERKAUFER|VERKOPER|LIEFERANT|FOURNISSEUR)\s*[:]\s*/i;
const ADDRESS_HINT = /\b(?:JALAN|JLN|JL|LORONG|LRG|TAMAN|TMN|LOT|BLOK|BLOCK|BLK|LEVEL|LVL|TINGKAT|FLOOR|FLR|UNIT|SUITE|KAWASAN|BANDAR|PERSIARAN|LEBUH|KAMPUNG|KG|BATU|KM|STREET|ST|ROAD|RD|AVENUE|AVE|BOULEVARD|BLVD|DRIVE|DR|LANE|HIGHWAY|HWY|PLAZA|SQUARE|MALL|COMPLEX|KOMPLEKS|BUILDING|BANGUNAN|WISMA|MENARA|RUE|STRASSE|STR|STRAAT|WEG|PLEIN|CALLE|VIA|GANG|GG|RT|RW|KEL|KEC|KAB|KOTA|DESA|PERUMAHAN|RUKO|SEKSYEN|SECTION|PO\s*BOX|CEDEX)\b/;

/**
 * Lines that never name the merchant, whatever else they show: opening hours, taglines that address the
 * customer ("UNSERE ÖFFNUNGSZEITEN", "Mein Drogeriemarkt", "Es gibt immer was zu tun"), the cashier or
 * server, payment and card lines ("VISA DEBIT", "Kartenzahlung"). Patterns run on folded text.
 */
const NEVER_NAME = /\b(?:OFFNUNGSZEIT\w*|GFFNUNGSZEIT\w*|OEFFNUNGSZEIT\w*|GEOFFNET|OPENING\s*(?:HOURS|TIMES)|STORE\s*HOURS|MO\.?\s*-\s*(?:FR|SA)\b|UHR\b|KASSIER\w*|CLERK\b|KASSE\b|BEDIEN\w*|SERVER\b|SERVED\s*BY|YOUR\s*SERVER|CASHIER|OPERATOR|VISA|MASTER\s*CARD|MASTERCARD|DEBIT|CREDIT|KREDITKARTE|EC[\s-]?KARTE|GIROCARD|AMEX|KARTENZAHLUNG|CONTACTLESS|CARD\s*(?:NO|#|TYPE)|APPROVED|AUTH\w*)\b|\bNOT\s*(?:RETURNABLE|REFUNDABLE|EXCHANGEABLE)\b|\b(?:FEEDBACK|COMPLAINTS?|ENQUIR\w*|PLEASE)|^(?:EUR|EURO|USD|GBP|CHF)\W*$|^(?:UNSERE?|OUR|YOUR|IHRE?|MEINE?|WIR|ES\s+GIBT|JETZT|SPAREN)\b|\?\s*$/;
/** Opening hours however OCR spaced them ("SHOP PING HOUR S", "OPENINGHOURS"). */
const HOURS_RUN = /(?:OPENING|BUSINESS|SHOPPING|STORE|TRADING|OFFICE)HOURS?/;
/**
 * Lines that show a price or an amount of money ("KAART 53.78", "Bio Orangen 2,49 A", "Win one of 5 prizes
 * of £200"): item, payment and promotion lines, never the merchant's name.
 */
const MONEY_LINE = /\d[.,]\d{2}\s*[A-Z*]?\s*$|[£$€]\s?\d/;
/**
 * Words of the numbered things a receipt prints in its header (store, table, seat, check, register,
 * server numbers, the service type): a line of only these and numbers ("Store # 176", "Tab #12",
 * "SEAT NUMBER 1", "Dining") names no merchant.
 */
const COUNTER_WORDS = new Set(['STORE', 'SHOP', 'BRANCH', 'TAB', 'TABLE', 'TBL', 'SEAT', 'SEATS', 'GUEST', 'GUESTS', 'GST', 'GSTS', 'COVER', 'COVERS', 'CHECK', 'CHK',
  'ORDER', 'NUMBER', 'NO', 'NR', 'NUM', 'REGISTER', 'REG', 'TERMINAL', 'TERM', 'TRANS', 'TRANSACTION', 'SERVER', 'SRVR', 'CLERK', 'CASHIER', 'STATION', 'LANE',
  'POS', 'TILL', 'ID', 'SALE', 'SALES', 'RECEIPT', 'INVOICE', 'BILL', 'DINING', 'DINE', 'IN', 'TAKE', 'OUT', 'TAKEOUT', 'TAKEAWAY', 'CARRYOUT', 'TO', 'GO',
  'EAT', 'HERE', 'ROOM', 'DRIVE', 'THRU', 'COUNTER', 'COPY', 'CUSTOMER', 'MERCHANT']);
/** Counter words run together, as PaddleOCR reads a line without its spaces ("CUSTOMERCOPY"). */
const GLUED_COUNTERS = new RegExp(`^(?:${[...COUNTER_WORDS].filter((w) => w.length >= 4).join('|')}){2,}$`);
/** Counter words long enough (7+ letters) to be known misread by one letter. */
const LONG_COUNTER_WORDS = [...COUNTER_WORDS].filter((w) => w.length >= 7);
export function countersOnly(value: string): boolean {
  const words = fold(value).split(/[^A-Z0-9]+/).filter(Boolean);
  // numbers, and single letters (OCR noise: "Tab #12 x")
  const named = words.filter((w) => !/\d/.test(w) && w.length > 1);
  // a long counter word misread by one letter ("Custoner") is still one
  const counter = (w: string) => COUNTER_WORDS.has(w) || GLUED_COUNTERS.test(w) || (w.length >= 7 && LONG_COUNTER_WORDS.some((c) => Math.abs(c.length - w.length) <= 1 && editDistance(c, w, 1) <= 1));
  return named.length > 0 && named.every(counter);
}
/** Street lines: street words (with their OCR forms: StraBe, Strafle), or a word and a house number. */
const STREET_LINE = /STRA(?:SS|ß|B|F|FL|FI|8)E\b|\bSTR\.|\b\p{L}+(?:STR|WEG|ALLEE|PLATZ|GASSE)\b|\b(?:STRASSE|WEG|ALLEE|PLATZ|GASSE)\b/iu;
/**
 * English street lines: a house number, the street's name and its type ("1221 South Florida Avenue",
 * "3001 Mission College Blvd"), and a street type run into its name, as PaddleOCR reads it without spaces
 * ("320CanbridgeSt.", "New BleeckerSt.", "83EddyStreet").
 */
const ENGLISH_STREET_LINE = /^\d{1,5}[A-Z]?\s+(?:[NSEW]\.?\s+)?[A-Z][A-Z'.\s-]*?\b(?:STREET|ST|AVENUE|AVE|ROAD|RD|BOULEVARD|BLVD|DRIVE|DR|LANE|LN|HIGHWAY|HWY|PIKE|PARKWAY|PKWY|COURT|CT|PLACE|PL|WAY|SQUARE|SQ|TERRACE)\b\.?(?:\s|,|$)/;
const GLUED_STREET = /\p{Ll}(?:St|Ave|Rd|Blvd|Street|Avenue|Road)\b\.?(?:\s|,|$)/u;
const WORD_AND_HOUSE_NUMBER = /^[\p{L}][\p{L}\s.'-]{3,}\s\d{1,4}\s?[a-z]?$/iu;

export interface MerchantFields extends AddressFields {
  /** Evidence of the name and address choices (for debugging and the bench). */
  evidence?: Record<string, string[]>;
  merchantName?: Located<string>;
  merchantPhoneNumber?: Located<string>;
  merchantTaxId?: Located<string>;
  merchantWebsite?: Located<string>;
  merchantTypes?: Located<string[]>;
}

const PHONE = /(?:\b(?:TEL|TELP|TELEPHONE|PHONE|PH|HP|MOBILE|FAX|T|WA|WHATSAPP|CALL)\b\.?\s*(?:NO\.?)?\s*(?:\/\s*FAX)?\s*[:.]?\s*)(\+?\(?\d[\d\s\-().]{6,}\d)/i;
const TAX_ID = /\b(GST\s*(?:REG\w*)?\s*(?:NO|ID|#)?|SST\s*(?:REG\w*)?\s*(?:NO|ID|#)?|VAT\s*(?:REG\w*)?\s*(?:NO|NUMBER|ID|#)?|TVA(?:\s*INTRACOM\w*)?|N°\s*TVA|USt-?Id(?:Nr)?\.?|NPWP|GSTIN|BTW(?:-?nr)?|ABN|TIN|TAX\s*ID|CO\.?\s*REG\w*\s*(?:NO)?|ROC\s*(?:NO)?|COMPANY\s*(?:REG\w*\s*)?NO|SIRET|SIREN|KVK|RCS)\s*[.:#]?\s*([A-Z]{0,3}[\dO][\dA-Z\-. /]{4,}[\dA-Z])/i;
const WEBSITE = /\b((?:https?:\/\/)?(?:www\.)[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}|(?:https?:\/\/)[a-z0-9-]+(?:\.[a-z0-9-]+)+)\b/i;
/** The domain of an e-mail address, read from just after its `@` (sticky: it cannot run past the next `@`). */
const EMAIL_DOMAIN = /([a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})\b/iy;
const LOCAL_CHAR = /[a-z0-9._%+-]/i;
/**
 * Domains of the e-mail addresses in a line. Linear: from each `@` (a global `\b[local]+@domain`
 * pattern retried its local part from every position: quadratic on long lines).
 */
export function emailDomains(text: string): string[] {
  const out: string[] = [];
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    if (at === 0 || !LOCAL_CHAR.test(text[at - 1]!)) continue;
    EMAIL_DOMAIN.lastIndex = at + 1;
    const m = EMAIL_DOMAIN.exec(text);
    if (m) out.push(m[1]!);
  }
  return out;
}
const GENERIC_DOMAINS = new Set(['gmail', 'yahoo', 'hotmail', 'outlook', 'live', 'icloud', 'mail', 'email', 'fake', 'example', 'aol', 'msn', 'gmx', 'web', 'proton', 'protonmail', 'qq', '163']);

/** Highest confidence of a merchant's name when the page's web or e-mail domains name someone else. */
export const DOMAIN_DIFFERS_MAX_CONFIDENCE = 0.85;
/** Highest confidence of a merchant's name read from a picture on a PDF text page (below the 0.9 a user may trust unchecked). */
const PICTURE_NAME_MAX_CONFIDENCE = 0.85;

const letters = (s: string) => (s.match(/\p{L}/gu) ?? []).length;
const digits = (s: string) => (s.match(/\d/g) ?? []).length;
const squash = (s: string) => fold(s).replace(/[^A-Z0-9]/g, '');

function loc(line: Line, value: string, confidence: number, keyword = '-', boxes = [line.box]): Located<string> {
  return { value, confidence, text: line.text, lineIndex: line.index, keyword, boxes, page: line.page };
}

/** Cleans a name as printed: labels, registration numbers, titles, OCR noise at the edges, suffix look-alikes. */
export function cleanName(raw: string): string {
  let s = raw.replace(MERCHANT_LABEL, '');
  // registration numbers: "(519537-X)", "(1070687-M)", "Co. No. 419060-A", "ROC 12345"
  s = s.replace(/\s*[({[]\s*(?:CO\.?\s*(?:REG\.?\s*)?NO\.?\s*:?\s*)?[^)}\]\d]{0,3}[A-Z]?[\dO](?=(?:[^\d]*\d){3})[\dA-Z\s\-–·%.]{3,}\s*[)}\]]?\s*$/i, '');
  s = s.replace(/\s*\b(?:CO\.?\s*(?:REG\.?\s*)?NO|COMPANY\s*(?:REG\.?\s*)?NO|ROC|REG\.?\s*NO)\b.*$/i, '');
  s = s.replace(/\s*\bF\.?K\.?A\.?\b.*$/i, '');
  s = s.replace(/\s+[A-Z]{0,2}\d{5,8}-?[A-Z]\b.*$/, '');
  // document titles glued to the name ("Amazon Web Services Invoice", "FACTUUR. Coolblue B.V.")
  const folded = fold(s);
  TITLE_WORDS.lastIndex = 0;
  const titles = [...folded.matchAll(TITLE_WORDS)];
  for (const t of titles.reverse()) {
    const atStart = t.index === 0 || !/\p{L}/u.test(folded.slice(0, t.index));
    const atEnd = !/\p{L}/u.test(folded.slice(t.index! + t[0].length));
    if (atStart) s = s.slice(t.index! + t[0].length);
    else if (atEnd) s = s.slice(0, t.index);
  }
  s = s.replace(/^[\s\-_=*~.,:;|'"`()[\]{}<>»«©®°•]+|[\s\-_=*~,:;|'"`(<>»«©®°•]+$/g, '');
  // a short lower-case fragment before an upper-case name is OCR noise ("pw 99 SPEED MART")
  const words = s.split(/\s+/);
  while (words.length > 2 && /^[a-z]{1,2}$/.test(words[0]!) && words.slice(1).join(' ') === words.slice(1).join(' ').toUpperCase()) words.shift();
  s = words.join(' ');
  // Malaysian suffix look-alikes
  s = s.replace(/(?<=\s|^)[S5$&§][/\\][B8R0D]\b/g, 'S/B').replace(/\bS[DO0E]N(\.?)\s*[BT8Ii]H[D0](?=\W|$)/gi, (m, dot: string) => (m === m.toUpperCase() ? `SDN${dot} BHD` : `Sdn${dot} Bhd`));
  return s.replace(/\s{2,}/g, ' ').trim();
}

interface NameCandidate { seg: Segment; lineOrder: number; value: string; score: number; terms: EvidenceTerm[]; brand?: Brand; fromBrand?: boolean }

/** Website and e-mail domains printed in the document (their distinctive label, e.g. `azureinterior`). */
function domainsOf(doc: Document): string[] {
  const out = new Set<string>();
  for (const line of doc.lines) {
    const w = WEBSITE.exec(line.text);
    if (w) out.add(w[1]!.toLowerCase().replace(/^https?:\/\//, '').replace(/^www\./, '').split('.')[0]!.replace(/[^a-z0-9]/g, ''));
    for (const domain of emailDomains(line.text)) {
      const parts = domain.toLowerCase().split('.');
      const label = parts.length > 2 && parts[parts.length - 2]!.length <= 3 ? parts[parts.length - 3]! : parts[parts.length - 2]!;
      out.add(label.replace(/[^a-z0-9]/g, ''));
    }
  }
  return [...out].filter((d) => d.length >= 3 && !GENERIC_DOMAINS.has(d));
}

/** A street written with its street word: German (Straße, -weg), English (house number, name, type) or run together. */
function streetWords(value: string): boolean {
  return STREET_LINE.test(value) || ENGLISH_STREET_LINE.test(fold(value)) || GLUED_STREET.test(value);
}
/** A street line: a street word, or (where addresses print the number after the street) a word and a house number. */
function streetLine(value: string, locale: Locale): boolean {
  if (streetWords(value)) return true;
  return NUMBER_AFTER_STREET.has(locale.countryCode ?? '') && WORD_AND_HOUSE_NUMBER.test(value.trim());
}
/** Countries whose addresses print the house number after the street name ("Pohlweg 110"). */
const NUMBER_AFTER_STREET = new Set(['DE', 'AT', 'CH', 'NL', 'BE', 'DK', 'SE', 'NO', 'FI', 'PL', 'CZ', 'IT', 'ES', 'PT', 'LU']);

/**
 * Brand evidence outside the header lines: a website or e-mail domain that spells a brand
 * ("rossmann.de", "www.roller.de"), a company name anywhere on the page that starts with one
 * ("Aldi GmbH & Co. KG, Schloß Holte" in the footer), a logo read one letter off a brand of the
 * country ("LDL" for LIDL) in the first lines. Each gives the brand's own spelling.
 */
function brandSightings(doc: Document, lines: Line[], locale: Locale): Array<{ brand: Brand; line: Line; how: 'domain' | 'company' | 'near' | 'line' | 'inside' }> {
  const out: Array<{ brand: Brand; line: Line; how: 'domain' | 'company' | 'near' | 'line' | 'inside' }> = [];
  const country = locale.countryCode;
  for (const line of doc.lines) {
    // OCR spaces inside a web address ("www. mark tkauf-lehr. de")
    const text = line.text.replace(/\bwww\b.*$/i, (m) => m.replace(/\s+/g, '')).replace(/\s+(?=[.-])|(?<=[.-])\s+/g, '');
    const w = /\b(?:www\.?\s?|https?:\/\/)?([a-z0-9][a-z0-9-]{2,})\.(?:[a-z]{2,3})(?:\/|\b)/i.exec(text);
    if (w && (/www|https?:/i.test(w[0]) || /\.(?:de|com|co|uk|fr|nl|at|ch|es|it|be|us)\b/i.test(w[0]))) {
      const b = brandOfDomain(w[1]!.toLowerCase());
      if (b && brandInCountry(b, country)) out.push({ brand: b, line, how: 'domain' });
    }
    const u = fold(line.text);
    const form = COMPANY_SUFFIX.exec(` ${u} `);
    if (form && form.index > 1) {
      const before = line.text.slice(0, Math.max(0, form.index - 1));
      const m = brandAtStart(before.replace(/^[^\p{L}\d]+/u, ''));
      // a company name is evidence enough without the brand's countries ("Aldi GmbH" trades as Aldi Süd at home)
      if (m && m.of - m.words <= 2) out.push({ brand: m.brand, line, how: 'company' });
    }
  }
  // a line that is a brand (and at most one more word, a branch) below the header's first lines (a logo's noise above it)
  for (const line of lines.slice(0, 30)) {
    const m = brandAtStart(line.text.replace(/^[^\p{L}\d]+/u, ''));
    if (m && m.of - m.words <= 1 && brandInCountry(m.brand, country) && !streetLine(line.text, locale) && !NEVER_NAME.test(fold(line.text)) && !countersOnly(m.brand.name)) out.push({ brand: m.brand, line, how: 'line' });
  }
  // a brand run together with the words around it in the first lines ("WelcometoChick-fil-A")
  for (const line of lines.slice(0, 6)) {
    if (out.some((o) => o.line === line) || streetLine(line.text, locale) || NEVER_NAME.test(fold(line.text))) continue;
    const m = brandInside(line.text, country);
    if (m) out.push({ brand: m.brand, line, how: 'inside' });
  }
  for (const line of lines.slice(0, 3)) {
    // one word read with some confidence: a logo's letters, not noise
    if (line.words.length !== 1 || !/^\p{Lu}(?:\p{Lu}{2,}|\p{Ll}{3,})$/u.test(line.words[0]!.text)) continue;
    const m = nearBrand(line.text, country);
    if (m) out.push({ brand: m.brand, line, how: 'near' });
  }
  return out;
}

/**
 * Brands seen outside the header lines confirm a header candidate of the same brand, or become a
 * candidate of their own (the brand's spelling): a company name with the brand is strong, a domain
 * less (a domain may advertise a product), a near match of a logo weak (never trusted unchecked alone).
 */
function addBrandCandidates(doc: Document, lines: Line[], locale: Locale, cands: NameCandidate[], ignore: string): void {
  const seen = new Map<Brand, { how: Set<string>; line: Line; sightings: Array<{ how: string; line: Line }> }>();
  for (const s of brandSightings(doc, lines, locale)) {
    const e = seen.get(s.brand) ?? { how: new Set<string>(), line: s.line, sightings: [] };
    e.how.add(s.how);
    e.sightings.push(s);
    seen.set(s.brand, e);
  }
  for (const [brand, { how, line, sightings }] of seen) {
    if (ignore && (squash(brand.name).includes(ignore) || ignore.includes(squash(brand.name)))) continue;
    // a header line one letter off the brand ("Nichaels" for a logo's Michaels) is the brand, spelled as it spells itself
    for (const c of cands) {
      if (c.brand || c.fromBrand || !sightings.some((x) => x.how === 'near' && x.line === c.seg.line)) continue;
      c.value = brand.name;
      c.brand = brand;
      c.terms.push({ name: 'near-brand', weight: 0 });
    }
    const same = cands.filter((c) => c.brand === brand || brandAtStart(c.value)?.brand === brand);
    if (same.length) {
      // the brand seen elsewhere (a footer's company name, a domain) confirms the header's line; its own line does not
      // the brand's legal name among the header's lines is the one the other sightings confirm (not a branch line)
      const legal = same.filter((c) => c.terms.some((t) => t.name === 'company-suffix'));
      for (const c of legal.length ? legal : same) {
        const other = [...new Set(sightings.filter((x) => x.line !== c.seg.line && x.how !== 'line' && x.how !== 'near' && x.how !== 'inside').map((x) => x.how))];
        if (other.length) { c.score += 2; c.terms.push({ name: `brand-seen:${other.join('+')}`, weight: 1.0 }); }
      }
      continue;
    }
    let score = 0;
    const terms: EvidenceTerm[] = [];
    if (how.has('company')) { score += 4; terms.push({ name: 'company-brand', weight: 1.4 }); }
    if (how.has('domain')) { score += 3; terms.push({ name: 'domain-brand', weight: 0.9 }); }
    if (how.has('line')) { score += 2.5; terms.push({ name: 'brand-line', weight: 0.6 }); }
    if (how.has('near')) { score += 2.5; terms.push({ name: 'logo-near-brand', weight: 0.2 }); }
    if (how.has('inside')) { score += 2.5; terms.push({ name: 'brand-inside-line', weight: 0.2 }); }
    if (how.size >= 2) terms.push({ name: 'brand-agrees', weight: 0.8 });
    const seg: Segment = { line, text: line.text, words: line.words, box: line.box };
    cands.push({ seg, lineOrder: 99, value: brand.name, score, terms, brand, fromBrand: true });
  }
}

/** Finds the merchant fields. */
export function findMerchant(doc: Document, locale: Locale, opts: { ignoreMerchantName?: string }): MerchantFields {
  const out: MerchantFields = {};
  const page0 = doc.pages[0];
  if (!page0) return out;
  const lines = page0.lineIndices.map((i) => doc.lines[i]!);
  if (!lines.length) return out;
  const heights = lines.map((l) => l.box.y1 - l.box.y0).sort((a, b) => a - b);
  const medianH = heights[Math.floor(heights.length / 2)] || 1;
  const ignore = opts.ignoreMerchantName ? squash(opts.ignoreMerchantName) : '';
  const pdf = page0.source === 'pdf-text';
  const gap = pdf ? 2.5 : 8;
  const segs = lines.map((l) => segmentsOf(l, gap));
  const domains = domainsOf(doc);
  const allSquashed = doc.lines.map((l) => squash(l.text));

  // the customer's block: segments under a customer label, in its column, for a few lines
  const customer = new Set<Segment>();
  segs.forEach((row, i) => {
    for (const seg of row) {
      const u = fold(seg.text);
      const m = CUSTOMER_LABEL.exec(u);
      if (!m) continue;
      customer.add(seg);
      const x0 = seg.box.x0 - medianH * 2, x1 = Math.max(seg.box.x1, seg.box.x0 + (page0.width || 1000) * 0.35);
      // the block goes on while its lines follow closely and no new section starts
      let lastY = seg.box.y1;
      for (let j = i + 1; j < Math.min(segs.length, i + 6); j++) {
        const below = segs[j]!.filter((s2) => s2.box.x0 >= x0 && s2.box.x0 <= x1);
        if (!below.length) continue;
        const s2 = below[0]!;
        if (s2.box.y0 - lastY > medianH * 1.8 || SECTION_START.test(fold(s2.text))) break;
        for (const b of below) customer.add(b);
        lastY = s2.box.y1;
      }
    }
  });

  const headerLines = Math.min(lines.length, pdf ? 16 : 12);
  const cands: NameCandidate[] = [];
  const consider = (seg: Segment, order: number, inHeader: boolean) => {
    const lm = MERCHANT_LABEL.exec(seg.text);
    const labelled = !!lm && seg.text.slice(lm.index + lm[0].length).trim().length >= 2;
    // OCR noise before the name (a logo read as letters): leading low-confidence words before confident ones
    let text = seg.text;
    if (!labelled && !pdf) {
      let k = 0;
      while (k < seg.words.length - 1 && seg.words[k]!.confidence < 0.5) k++;
      const rest = seg.words.slice(k);
      if (k > 0 && rest.length >= 2 && rest.every((w) => w.confidence >= 0.75)) text = rest.map((w) => w.text).join(' ');
      else {
        // and after it: trailing words read at next to no confidence ("BP STATION VAN YEEN-eem eee.")
        let e = seg.words.length;
        while (e > 2 && seg.words[e - 1]!.confidence < 0.3) e--;
        const kept = seg.words.slice(0, e);
        if (e < seg.words.length && kept.reduce((a, w) => a + w.confidence, 0) / kept.length >= 0.6) text = kept.map((w) => w.text).join(' ');
      }
    }
    const value = cleanName(labelled ? seg.text.slice(lm!.index + lm![0].length) : text);
    const u = fold(value);
    if (letters(value) < 2 || letters(value) < digits(value)) return;
    if (ignore && (squash(value).includes(ignore) || (ignore.includes(squash(value)) && squash(value).length >= 4))) return;
    const terms: EvidenceTerm[] = [];
    let score = 0;
    const suffix = hasSuffix(u) && !lowerWeakSuffix(value);
    if (suffix) { score += 3; terms.push({ name: 'company-suffix', weight: 0.8 }); }
    else if (SHOP_WORD.test(u)) { score += 1; terms.push({ name: 'shop-word', weight: 0.4 }); }
    if (labelled) { score += 4; terms.push({ name: 'merchant-label', weight: 1.0 }); }
    // a sentence that names a company ("im Namen und auf Rechnung der X GmbH", "operated on behalf of X Ltd"): legal small print, not the header's name
    if (suffix && value.split(/\s+/).filter((w) => /^\p{Ll}[\p{Ll}'’.]*$/u.test(w)).length >= 3) { score -= 2; terms.push({ name: 'sentence', weight: -0.8 }); }
    if (customer.has(seg) && !labelled) { score -= 5; terms.push({ name: 'customer-block', weight: -2 }); }
    if (NOT_NAME.test(u) && !suffix) { score -= 3; terms.push({ name: 'not-a-name', weight: -1.5 }); }
    const addressy = ADDRESS_HINT.test(u) || /\b\d{5}\b/.test(u) || /^\d+[A-Z]?[,\s-]/.test(u) || looksLikeAddress(value) || COUNTRY_ONLY.test(u) || streetLine(value, locale);
    if (addressy && !suffix) { score -= 2.5; terms.push({ name: 'address-like', weight: -1.2 }); }
    // opening hours, taglines, cashier and card lines, street lines: never the name
    if (!labelled && !suffix && (NEVER_NAME.test(u) || HOURS_RUN.test(squash(value)) || streetWords(value) || MONEY_LINE.test(fold(seg.line.text).trim()) || countersOnly(value))) return;
    const brand = brandAtStart(value);
    const brandLine = !!brand && brand.of - brand.words <= (suffix ? 4 : 2) && brandInCountry(brand.brand, locale.countryCode) && !addressy && !NEVER_NAME.test(u);
    // a brand line weighs less than a company form: where both are printed, the legal name is the merchant's name
    if (brandLine) { score += inHeader ? 2 : 1; terms.push({ name: 'brand', weight: 1.0 }); }
    if (/^\(.*\)$/.test(value)) score -= 2;
    if (inHeader) {
      score += 1.5 - 0.3 * order;
      if (order === 0) terms.push({ name: 'first-line', weight: 0.4 });
    } else score -= 1.5;
    const h = seg.box.y1 - seg.box.y0;
    const rel = h / medianH;
    if (rel > 1.15) { score += Math.min(2, (rel - 1) * 2.5); terms.push({ name: 'large-text', weight: Math.min(0.3, (rel - 1) * 0.6) }); }
    // OCR quality: garbage lines are short, low-confidence and without vowels
    const conf = seg.words.length ? seg.words.reduce((a, w) => a + w.confidence, 0) / seg.words.length : seg.line.confidence;
    score += (conf - 0.75) * 5;
    if (conf < 0.6) terms.push({ name: 'low-ocr', weight: -1.6 });
    else if (conf < 0.75) terms.push({ name: 'mid-ocr', weight: -0.6 });
    else if (conf >= 0.9 && !pdf) terms.push({ name: 'ocr-high', weight: 0.8 });
    const wordy = value.split(/\s+/).filter((w) => /^[\p{L}'&.-]{2,}$/u.test(w) && /[AEIOUYaeiouy]/.test(w)).length;
    if (!wordy) { score -= 2; terms.push({ name: 'no-words', weight: -1.5 }); }
    if (letters(value) < 4) { score -= 1; terms.push({ name: 'short', weight: -0.5 }); }
    if (value === value.toLowerCase() && letters(value) >= 3) { score -= 1; terms.push({ name: 'lower-case', weight: -0.5 }); }
    // the name printed again (footer, bank line) or in the website / e-mail domain
    const sq = squash(value);
    const core = squash(u.replace(SUFFIX_AT_END, ''));
    const firstWord = squash(value.split(/\s+/)[0] ?? '');
    const coreMatch = core.length >= 3 && domains.some((d) => d.toUpperCase() === core || d.toUpperCase().startsWith(core) || core.startsWith(d.toUpperCase()));
    const wordMatch = firstWord.length >= 3 && domains.some((d) => d.toUpperCase().startsWith(firstWord));
    if (coreMatch || wordMatch) {
      score += 2.5; terms.push({ name: 'domain-match', weight: 1.2 });
    }
    // read by OCR from a picture on a text page (the text layer's words are all 1): a logo's slogan as
    // often as a name, and repeated in the text as often too, so the text layer's own candidates come first
    if (pdf && seg.words.length && seg.words.every((w) => w.confidence < 1)) {
      score -= 4; terms.push({ name: 'picture-text', weight: -1 });
    }
    // "OYO 4189 Resort Nanganallur, 31/12/2017": the brand of the domain, then a branch number and table content
    let named = value;
    if (!coreMatch && wordMatch && /^\S+\s+\d/.test(value)) named = value.split(/\s+/)[0]!;
    if (sq.length >= 4) {
      const again = allSquashed.filter((t, k) => k !== seg.line.index && t.includes(sq)).length;
      if (again) { score += Math.min(2, again); terms.push({ name: `repeated:${again + 1}`, weight: 0.8 }); }
    }
    cands.push({ seg, lineOrder: order, value: named, score, terms, ...(brandLine ? { brand: brand!.brand } : {}) });
  };
  let order = 0;
  for (let i = 0; i < headerLines; i++) {
    for (const seg of segs[i]!) consider(seg, order, true);
    order++;
  }
  // outside the header: names with a company form or a merchant label (footers, bank lines)
  for (let i = headerLines; i < lines.length; i++) {
    for (const seg of segs[i]!) {
      const u = fold(seg.text);
      if (MERCHANT_LABEL.test(seg.text) || (SUFFIX_AT_END.test(fold(cleanName(seg.text))) && !customer.has(seg) && !NOT_NAME.test(u))) consider(seg, 99, false);
    }
  }
  addBrandCandidates(doc, lines, locale, cands, ignore);
  cands.sort((a, b) => b.score - a.score);
  const best = cands[0];
  let nameLine: Line | undefined;
  if (best && best.score > -3) {
    let value = best.value;
    const boxes = [best.seg.box];
    const li = best.fromBrand ? -9 : lines.indexOf(best.seg.line);
    // a name split over two lines: "AIK HUAT HARDWARE ENTERPRISE" / "(SETIA ALAM) SDN BHD"
    const next = segs[li + 1]?.[0];
    if (next && !hasSuffix(fold(value)) && !best.brand) {
      const nv = cleanName(next.text);
      if (nv && hasSuffix(fold(nv)) && nv.split(/\s+/).length <= 5 && !ADDRESS_HINT.test(fold(nv)) && !NOT_NAME.test(fold(nv))) { value = `${value} ${nv}`; boxes.push(next.box); }
    }
    const prev = segs[li - 1]?.[0];
    if (prev && /^[a-z)(]|^\(?[A-Z]+\)/.test(value) && letters(value) < 16) {
      const pv = cleanName(prev.text);
      if (pv && !NOT_NAME.test(fold(pv)) && !ADDRESS_HINT.test(fold(pv))) { value = `${pv} ${value}`; boxes.unshift(prev.box); }
    }
    const rival = cands.find((c) => c !== best && squash(c.value) !== squash(best.value) && !(best.brand && c.brand === best.brand));
    const terms = [...best.terms];
    const margin = rival ? best.score - rival.score : 5;
    if (margin < 1) terms.push({ name: 'close-rival', weight: -2.0 });
    else if (margin < 2.5) terms.push({ name: 'rival', weight: -0.9 });
    // the page's website or e-mail domains name someone else ("Sold by: WS Retail Services Pvt. Ltd" on an
    // invoice from www.flipkart.com): the seller of record or the shop the user knows; not one to trust unchecked
    const sq = squash(value);
    const otherDomain = !best.fromBrand && domains.length > 0 && !domains.some((d) => {
      const D = d.toUpperCase();
      return sq.includes(D) || (D.length >= 4 && sq.length >= 4 && D.startsWith(sq.slice(0, 4))) || (best.brand && squash(best.brand.name).includes(D));
    });
    if (otherDomain) terms.push({ name: 'domain-differs', weight: 0 });
    const conf = Math.min(confidenceFrom(1.0, terms),
      // a name only a picture holds is the last resort above: never one to trust without a look
      terms.some((t) => t.name === 'picture-text') ? PICTURE_NAME_MAX_CONFIDENCE : 1,
      otherDomain ? DOMAIN_DIFFERS_MAX_CONFIDENCE : 1);
    out.merchantName = { ...loc(best.seg.line, value, conf), boxes };
    out.evidence = { merchantName: [...terms.map((t) => `${t.name}(${t.weight})`), `score=${best.score.toFixed(2)}`, ...cands.slice(1, 3).map((c) => `alt=${c.value}@${c.score.toFixed(2)}`)] };
    if (!best.fromBrand) nameLine = best.seg.line;
  }

  Object.assign(out, findAddress(doc, locale, { nameLine, nameBox: nameLine ? best?.seg.box : undefined, customer, gap }));

  // --- phone, tax id, website: first occurrence outside the customer block ---
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
  const types = merchantTypes(doc.text);
  if (types.length && out.merchantName) out.merchantTypes = { ...out.merchantName, value: types, confidence: 0.5, keyword: '-' };
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
