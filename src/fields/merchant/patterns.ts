/**
 * The merchant's text patterns: company forms, shop words, document titles, never-name lines, labels of
 * the merchant and of the customer, street and address hints; the name cleaned as printed; the page's
 * website and e-mail domains. Shared by the name rules (rules.ts) and the contact fields (contact.ts).
 */
import type { Document, Line } from '../../document/types.js';
import type { Locale } from '../../locale/index.js';
import { placeWords } from '../../locale/lexicon.js';
import { knownPlaceNames } from '../../locale/places.js';
import { fold } from '../text.js';
import type { Located } from '../types.js';
import { editDistance } from '../../locale/keywords.js';
import { wordAlternation, wordsOf } from '../../locale/languages/index.js';

const FORMS = wordAlternation('companyForms');
const SHORT_FORMS = wordAlternation('companyFormsShort');
const FIRST_FORMS = wordAlternation('companyFormsFirst');
/** Company forms, OCR-tolerant for the Malaysian ones (S/B read as 5/B, SDN BHD as SON BHD). */
export const COMPANY_SUFFIX = new RegExp(String.raw`(?:^|[\s,.(])(?:${FORMS}|${wordAlternation('companyFormsRead')})(?=$|[\s,.)])`);
export const SUFFIX_AT_END = new RegExp(String.raw`(?:^|\s)(?:${FORMS}|${SHORT_FORMS}|(?:${FIRST_FORMS})\.?|${wordAlternation('companyFormsEndOnly')})\s*$`);
/** Short company forms (AG, KG, SA, PT, ...) also abbreviate other words (KG = kampung): only at the end of a longer name, or PT/CV first. */
// Linear: the form at the end is found first, then three letters before it (one pattern
// `\p{L}{3,}.*\s(?:AG|...)$` backtracked quadratically: 1.4 s on 20k characters of 'TOTAL ').
const WEAK_SUFFIX_END = new RegExp(String.raw`\s(?:${SHORT_FORMS})\.?$`, 'u');
const WEAK_SUFFIX_START = new RegExp(String.raw`^(?:${FIRST_FORMS})\.?\s+\p{L}{3,}`, 'u');
export const weakSuffix = (t: string): boolean => {
  const end = WEAK_SUFFIX_END.exec(t);
  return (!!end && /\p{L}{3}/u.test(t.slice(0, end.index))) || WEAK_SUFFIX_START.test(t);
};
/** A company form printed in the text (folded): a strong one anywhere, a short one at the end of a longer name. */
export const hasSuffix = (u: string) => COMPANY_SUFFIX.test(` ${u} `) || weakSuffix(u.trim());
/** A short company form printed in lower case ("... WHE as") is a word, not a form (forms print as AS, AB, Oy, SpA). */
export const lowerWeakSuffix = (value: string) => /\s\p{Ll}{2,3}\.?$/u.test(value.trim()) && weakSuffix(fold(value).trim()) && !COMPANY_SUFFIX.test(` ${fold(value)} `);
/** A line that is only a place: a country, a region or a larger city of the world's data ("MALAYSIA", "MADRID -", "LOS ANGELES,"; `u`: folded). */
export const placeAlone = (u: string): boolean => knownPlaceNames().has(placeWords(u));
/** Shop-type words that often name the merchant when no company form is printed. */
export const SHOP_WORD = new RegExp(String.raw`\b(?:${wordAlternation('shopWords')})\b`);
/** Document titles and other header lines that are not the merchant. */
export const TITLE_WORDS = new RegExp(String.raw`\b(?:${wordAlternation('titles')})\b`, 'g');
/** Words of the language folders' `notName` (languages/<code>/words.json), a space any run of spaces or none. */
export const NOT_NAME = new RegExp(String.raw`\b(?:${wordAlternation('notName')})\b|WWW\.|HTTP|\.COM\b|@|:\s*$|:\s*[\d+(]|\d[.,]\d{2,3}\b`);
/** Labels that introduce the customer, not the merchant. */
export const CUSTOMER_LABEL = new RegExp(String.raw`\b(?:${wordAlternation('customerLabels')})(?:(?<=[:.])|\b)`);
/** A new section of the header (so the customer's block has ended). */
export const SECTION_START = new RegExp(String.raw`\b(?:${wordAlternation('sectionStart')})\b|:\s*$`);
/** Labels that introduce the merchant. */
export const MERCHANT_LABEL = new RegExp(String.raw`(?:^|[\s–-])(?:${wordAlternation('merchantLabels')})\s*[:]\s*`, 'i');
/**
 * Address forms ADDRESS_HINT's street words miss (tested on the folded text): a six-digit postcode after a place
 * ("Paragon S'pore 238659", "Chennai 600001"), a unit number opening the line ("#B1-41", read "1B1-173/174"),
 * a street word run into the word before it ("OFFJALAN PUDU"), a Vietnamese division opening the line or
 * after a dash or comma ("Tp. Cam Pha", "Tp Cam Pha", "7 khu Tan Lap 4 - P. Cam Thuy", "Phuong ...") or an urban area
 * ("Khu do thi"), industrial or residential zone or a lettered block ("Khu cong nghiep", "Khu B"), an Indonesian
 * street as OCR reads its "Jl." ("J1. Jend. A. Yani", "JI. Tukad Pakerisan").
 * Not a division after a word: "VinCommerce TP. Cam Pha, Quang Ninh" prints the name first.
 */
export const ADDRESS_FORM = new RegExp(String.raw`\p{L}[\p{L}'’.]*\s+\d{6}\s*$|^#?\d?[A-Z]?\d{1,2}-\d{2,4}\b|\B(?:${wordAlternation('streetGlued')})\b|(?:^\W*|[,-]\s*)(?:(?:TP|TX)\.?\s?|[PQ]\.\s?)[\p{L}\d]|^\W*(?:${wordAlternation('addressStart', { space: ' ' })})\b|\b(?:${wordAlternation('addressPhrases', { space: ' ' })})|^\W*J[1I]\.\s*\p{L}`, 'u');
export const ADDRESS_HINT = new RegExp(String.raw`\b(?:${wordAlternation('streetWords')})\b`);

/**
 * Lines that never name the merchant, whatever else they show: opening hours, taglines that address the
 * customer ("UNSERE ÖFFNUNGSZEITEN", "Mein Drogeriemarkt", "Es gibt immer was zu tun"), the cashier or
 * server (also run together: "YOUHAVEBEENSERVED BYCASHIER"), payment and card lines ("VISA DEBIT", "Kartenzahlung").
 * Patterns run on folded text.
 */
export const NEVER_NAME = new RegExp(String.raw`\b(?:${wordAlternation('neverName')})\b|^(?:${wordAlternation('neverNameStart', { space: String.raw`\s+` })})\b|^(?:EUR|EURO|USD|GBP|CHF)\W*$|\?\s*$`);
/** Opening hours however OCR spaced them ("SHOP PING HOUR S", "OPENINGHOURS"). */
export const HOURS_RUN = new RegExp(wordAlternation('hoursRun'));
/**
 * Lines that show a price or an amount of money ("KAART 53.78", "Bio Orangen 2,49 A", "Win one of 5 prizes
 * of £200"): item, payment and promotion lines, never the merchant's name.
 */
export const MONEY_LINE = /\d[.,]\d{2}\s*[A-Z*]?\s*$|[£$€]\s?\d/;
/**
 * Words of the numbered things a receipt prints in its header (store, table, seat, check, register,
 * server numbers, the service type): a line of only these and numbers ("Store # 176", "Tab #12",
 * "SEAT NUMBER 1", "Dining") names no merchant.
 */
const COUNTER_WORDS = new Set(wordsOf('counterWords'));
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
const STREET_LINE = new RegExp(String.raw`STRA(?:SS|ß|B|F|FL|FI|8)E\b|\bSTR\.|\b\p{L}+(?:${wordAlternation('streetLineSuffixes')})\b|\b(?:${wordAlternation('streetLineWords')})\b`, 'iu');
/**
 * English street lines: a house number, the street's name and its type ("1221 South Florida Avenue",
 * "3001 Mission College Blvd"), and a street type run into its name, as PaddleOCR reads it without spaces
 * ("320CanbridgeSt.", "New BleeckerSt.", "83EddyStreet").
 */
const ENGLISH_STREET_LINE = new RegExp(String.raw`^\d{1,5}[A-Z]?\s+(?:[NSEW]\.?\s+)?[A-Z][A-Z'.\s-]*?\b(?:${wordAlternation('streetTypes')})\b\.?(?:\s|,|$)`);
const GLUED_STREET = /\p{Ll}(?:St|Ave|Rd|Blvd|Street|Avenue|Road)\b\.?(?:\s|,|$)/u;
const WORD_AND_HOUSE_NUMBER = /^[\p{L}][\p{L}\s.'-]{3,}\s\d{1,4}\s?[a-z]?$/iu;

export const WEBSITE = /\b((?:https?:\/\/)?(?:www\.)[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}|(?:https?:\/\/)[a-z0-9-]+(?:\.[a-z0-9-]+)+)\b/i;
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
export const PICTURE_NAME_MAX_CONFIDENCE = 0.85;

export const letters = (s: string) => (s.match(/\p{L}/gu) ?? []).length;
export const digits = (s: string) => (s.match(/\d/g) ?? []).length;
export const squash = (s: string) => fold(s).replace(/[^A-Z0-9]/g, '');
/**
 * A line whose words a reader ran together ("CustomerBillingReceipt", PaddleOCR's spacing) with spaces put
 * back: a word of three or more capitalised parts is split at each turn from lower to upper case; one turn
 * ("McDonald", "WinMart", "GmbH") is how names are spelt and stays. A run that starts with a digit is left
 * whole: PaddleOCR reads a house number from the sloping line below into the name ("153ThuyNhaHangAozora"),
 * which as one run does not outscore the name read apart.
 */
export const unglueCamel = (s: string): string =>
  s.replace(/(?<!\S)\p{L}\S{5,}/gu, (w) => ((w.match(/\p{Ll}(?=\p{Lu})/gu)?.length ?? 0) >= 2 ? w.replace(/(?<=\p{Ll})(?=\p{Lu})/gu, ' ') : w));

/** A value found on a line (its box, unless given). */
export function loc(line: Line, value: string, confidence: number, keyword = '-', boxes = [line.box]): Located<string> {
  return { value, confidence, text: line.text, lineIndex: line.index, keyword, boxes, page: line.page };
}

const REGISTRATION_TAIL = new RegExp(String.raw`\s*\b(?:${wordAlternation('registrationLabels')})\b.*$`, 'i');
/** Cleans a name as printed: labels, registration numbers, titles, OCR noise at the edges, suffix look-alikes. */
export function cleanName(raw: string): string {
  let s = raw.replace(MERCHANT_LABEL, '');
  // registration numbers: "(519537-X)", "(1070687-M)", "Co. No. 419060-A", "ROC 12345"
  s = s.replace(/\s*[({[]\s*(?:CO\.?\s*(?:REG\.?\s*)?NO\.?\s*:?\s*)?[^)}\]\d]{0,3}[A-Z]?[\dO](?=(?:[^\d]*\d){3})[\dA-Z\s\-–·%.]{3,}\s*[)}\]]?\s*$/i, '');
  s = s.replace(REGISTRATION_TAIL, '');
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

/** Website and e-mail domains printed in the document (their distinctive label, e.g. `azureinterior`). */
export function domainsOf(doc: Document): string[] {
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
export function streetWords(value: string): boolean {
  return STREET_LINE.test(value) || ENGLISH_STREET_LINE.test(fold(value)) || GLUED_STREET.test(value);
}
/** A street line: a street word, or (where addresses print the number after the street) a word and a house number. */
export function streetLine(value: string, locale: Locale): boolean {
  if (streetWords(value)) return true;
  return NUMBER_AFTER_STREET.has(locale.countryCode ?? '') && WORD_AND_HOUSE_NUMBER.test(value.trim());
}
/** Countries whose addresses print the house number after the street name ("Pohlweg 110"). */
const NUMBER_AFTER_STREET = new Set(['DE', 'AT', 'CH', 'NL', 'BE', 'DK', 'SE', 'NO', 'FI', 'PL', 'CZ', 'IT', 'ES', 'PT', 'LU']);

