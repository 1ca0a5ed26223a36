/** General lexicons: month names, states, currency markers. Geography and language, never merchants. */

/** Month names and abbreviations in the languages receipts commonly use -> month number. */
export const MONTHS: Record<string, number> = (() => {
  const m: Record<string, number> = {};
  const add = (n: number, ...names: string[]) => { for (const x of names) m[x] = n; };
  add(1, 'jan', 'january', 'januari', 'janvier', 'janv', 'januar', 'jän', 'jaen', 'enero', 'ene', 'gennaio', 'gen', 'janeiro');
  add(2, 'feb', 'february', 'februari', 'février', 'fevrier', 'févr', 'fevr', 'fév', 'februar', 'febrero', 'febbraio', 'fevereiro', 'pebruari', 'peb');
  add(3, 'mar', 'march', 'maret', 'mars', 'märz', 'maerz', 'mrz', 'marzo', 'maart', 'mrt', 'mac', 'março', 'marco');
  add(4, 'apr', 'april', 'avril', 'avr', 'abril', 'abr', 'aprile');
  add(5, 'may', 'mei', 'mai', 'mayo', 'maggio', 'mag', 'maio');
  add(6, 'jun', 'june', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho');
  add(7, 'jul', 'july', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julai', 'julho');
  add(8, 'aug', 'august', 'agustus', 'agu', 'ags', 'agt', 'août', 'aout', 'agosto', 'ago', 'augustus', 'ogos', 'ogo');
  add(9, 'sep', 'sept', 'september', 'septembre', 'septiembre', 'setiembre', 'settembre', 'set', 'setembro');
  add(10, 'oct', 'october', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro', 'out');
  add(11, 'nov', 'november', 'novembre', 'noviembre', 'novembro', 'nop', 'nopember');
  add(12, 'dec', 'december', 'desember', 'des', 'décembre', 'decembre', 'déc', 'dezember', 'dez', 'diciembre', 'dic', 'dicembre', 'disember', 'dezembro');
  return m;
})();

export const MONTH_PATTERN = Object.keys(MONTHS).sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');

export const MY_STATES = ['JOHOR', 'KEDAH', 'KELANTAN', 'MELAKA', 'MALACCA', 'NEGERI SEMBILAN', 'PAHANG', 'PULAU PINANG', 'PENANG', 'PERAK', 'PERLIS', 'SABAH', 'SARAWAK', 'SELANGOR', 'TERENGGANU', 'KUALA LUMPUR', 'WILAYAH PERSEKUTUAN', 'W.P. KUALA LUMPUR', 'PUTRAJAYA', 'LABUAN', 'JOHOR BAHRU', 'SELANGOR DARUL EHSAN', 'JOHOR DARUL TAKZIM'];
export const ID_PROVINCES = ['ACEH', 'BALI', 'BANTEN', 'BENGKULU', 'GORONTALO', 'JAKARTA', 'DKI JAKARTA', 'JAMBI', 'JAWA BARAT', 'JAWA TENGAH', 'JAWA TIMUR', 'KALIMANTAN BARAT', 'KALIMANTAN SELATAN', 'KALIMANTAN TENGAH', 'KALIMANTAN TIMUR', 'KALIMANTAN UTARA', 'LAMPUNG', 'MALUKU', 'NUSA TENGGARA BARAT', 'NUSA TENGGARA TIMUR', 'PAPUA', 'RIAU', 'SULAWESI SELATAN', 'SULAWESI TENGAH', 'SULAWESI TENGGARA', 'SULAWESI UTARA', 'SUMATERA BARAT', 'SUMATERA SELATAN', 'SUMATERA UTARA', 'YOGYAKARTA', 'DI YOGYAKARTA'];
export const US_STATES = ['AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC'];

/** Country names (as written in `near`) -> ISO alpha-2. */
export const COUNTRY_NAMES: Record<string, string> = {
  malaysia: 'MY', indonesia: 'ID', singapore: 'SG', 'united states': 'US', usa: 'US', us: 'US', america: 'US',
  'united kingdom': 'GB', uk: 'GB', england: 'GB', france: 'FR', germany: 'DE', deutschland: 'DE', netherlands: 'NL',
  nederland: 'NL', spain: 'ES', españa: 'ES', italy: 'IT', italia: 'IT', india: 'IN', australia: 'AU', canada: 'CA',
  japan: 'JP', china: 'CN', thailand: 'TH', philippines: 'PH', vietnam: 'VN', israel: 'IL', belgium: 'BE', austria: 'AT',
  switzerland: 'CH', portugal: 'PT', ireland: 'IE', 'new zealand': 'NZ', 'hong kong': 'HK', brazil: 'BR', mexico: 'MX',
};

export interface CountryConventions { currency: string; dayFirst: boolean; decimalComma: boolean; wholeCurrency: boolean }

export const CONVENTIONS: Record<string, CountryConventions> = {
  MY: { currency: 'MYR', dayFirst: true, decimalComma: false, wholeCurrency: false },
  ID: { currency: 'IDR', dayFirst: true, decimalComma: true, wholeCurrency: true },
  SG: { currency: 'SGD', dayFirst: true, decimalComma: false, wholeCurrency: false },
  US: { currency: 'USD', dayFirst: false, decimalComma: false, wholeCurrency: false },
  CA: { currency: 'CAD', dayFirst: false, decimalComma: false, wholeCurrency: false },
  PH: { currency: 'PHP', dayFirst: false, decimalComma: false, wholeCurrency: false },
  GB: { currency: 'GBP', dayFirst: true, decimalComma: false, wholeCurrency: false },
  IE: { currency: 'EUR', dayFirst: true, decimalComma: false, wholeCurrency: false },
  AU: { currency: 'AUD', dayFirst: true, decimalComma: false, wholeCurrency: false },
  NZ: { currency: 'NZD', dayFirst: true, decimalComma: false, wholeCurrency: false },
  IN: { currency: 'INR', dayFirst: true, decimalComma: false, wholeCurrency: false },
  FR: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false },
  DE: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false },
  AT: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false },
  NL: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false },
  BE: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false },
  ES: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false },
  IT: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false },
  PT: { currency: 'EUR', dayFirst: true, decimalComma: true, wholeCurrency: false },
  CH: { currency: 'CHF', dayFirst: true, decimalComma: false, wholeCurrency: false },
  JP: { currency: 'JPY', dayFirst: false, decimalComma: false, wholeCurrency: true },
  CN: { currency: 'CNY', dayFirst: false, decimalComma: false, wholeCurrency: false },
  HK: { currency: 'HKD', dayFirst: true, decimalComma: false, wholeCurrency: false },
  TH: { currency: 'THB', dayFirst: true, decimalComma: false, wholeCurrency: false },
  VN: { currency: 'VND', dayFirst: true, decimalComma: true, wholeCurrency: true },
  IL: { currency: 'ILS', dayFirst: true, decimalComma: false, wholeCurrency: false },
  BR: { currency: 'BRL', dayFirst: true, decimalComma: true, wholeCurrency: false },
  MX: { currency: 'MXN', dayFirst: true, decimalComma: false, wholeCurrency: false },
};

/** Language hint -> a country whose conventions it implies (weak evidence). */
export const LANGUAGE_COUNTRY: Record<string, string> = { fr: 'FR', de: 'DE', nl: 'NL', es: 'ES', it: 'IT', pt: 'PT', id: 'ID', in: 'ID', ms: 'MY', jp: 'JP', ja: 'JP', zh: 'CN', th: 'TH', he: 'IL', iw: 'IL' };
