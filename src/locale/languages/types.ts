import type { AmountRole } from '../roles.js';

/** chrono-node's locales (locale/chrono.ts loads the one a language names). */
export const CHRONO_LOCALES = ['en', 'de', 'fr', 'nl', 'es', 'it', 'pt', 'id', 'sv', 'fi', 'ru', 'uk', 'ja', 'zh', 'vi'] as const;
export type ChronoLocale = (typeof CHRONO_LOCALES)[number];

/**
 * The word lists a language may bring (words.json `words`), by what the finders use them for. Each phrase is a
 * pattern of the folded text (upper case, accent-free), a space matching any run of spaces or none; a finder
 * reads the union over every language (languages/index.ts wordAlternation): longest first, or (for a list
 * whose doc says "in order") by language order and then file order, so that of two phrases that start at the
 * same place the one written first is tried first.
 */
export const WORD_LISTS = {
  notName: 'words of a line that is no merchant\'s name (greetings, thanks, labels of the date, cashier, table, tax id)',
  neverName: 'words of a line that never names the merchant, whatever else it shows: opening hours, the cashier or server, card payments',
  neverNameStart: 'first words of a tagline addressed to the customer ("OUR", "UNSERE"): such a line is no name',
  shopWords: 'kinds of shop that often name the merchant when no company form is printed (RESTAURANT, KEDAI, NHA HANG)',
  titles: 'document titles (INVOICE, KASSENBON, HOA DON): cut from a name they are printed with',
  customerLabels: 'labels that introduce the customer, not the merchant (BILL TO, KUNDE, "AN :")',
  sectionStart: 'words that start a new section of the header, ending the customer\'s block (SELLER, INVOICE)',
  merchantLabels: 'labels that introduce the merchant, followed by a colon (SOLD BY, VERKAUFER)',
  addressCut: 'contact and tax-id labels printed after an address on its line: the address ends there (TEL, FAX, GST)',
  addressStop: 'words of a line that ends the merchant\'s address (TOTAL, TEL, RECEIPT, CASHIER)',
  addressLabels: 'labels printed before an address (ADDRESS, ALAMAT)',
  streetWords: 'street and building words that mark an address line and never a name (JALAN, ROAD, RUE, STRASSE, PO BOX)',
  addressWords: 'more words of an address line that a name may also hold, or abbreviations too short to tell alone (CENTRE, PARK, TOWER, BD)',
  streetGlued: 'street words OCR runs into the word before them ("NO12JALAN")',
  addressStart: 'words that start an address line (PHUONG, HUYEN): a space matches one space',
  addressPhrases: 'phrases of an address anywhere on the line (KHU CONG NGHIEP)',
  streetSuffixes: 'endings of a street name written as one word (Hauptstr., Kerkstraat, Rosenweg), after at least three letters',
  streetLineSuffixes: 'endings of a street name written as one word, on the text as printed (any case)',
  streetLineWords: 'street words alone, on the text as printed (any case)',
  streetTypes: 'street types after a house number and the street\'s name ("1221 South Florida Avenue")',
  companyForms: 'company forms, anywhere in a name (SDN BHD, LTD, GMBH, S.A.R.L., B.V.)',
  companyFormsRead: 'company forms as OCR misreads them (5/B, SON BHD)',
  companyFormsShort: 'short company forms that also abbreviate other words (AG, KG, SA, OY): only at the end of a longer name',
  companyFormsFirst: 'short company forms printed before the name (PT, CV)',
  companyFormsEndOnly: 'company forms only counted at the very end of a name (A/S, PTE.)',
  notValue: 'words after a number\'s label that are not its value (DATE, SEITE, POUR)',
  hoursRun: 'opening hours run together as OCR reads them (OPENINGHOURS, STOREHOURS)',
  phoneLabels: 'labels of a phone number (TEL, TELP, HP, WHATSAPP)',
  taxIdLabels: 'labels of a tax or company id (GST REG NO, NPWP, USt-IdNr, SIRET); in order: of two that start together the earlier wins',
  taxCodes: 'tax codes of a tax summary row besides the taxes\' names (SR, ZR: standard-rated, zero-rated)',
  cashWords: 'words of a cash payment (CASH, TUNAI, BARGELD, ESPECES)',
  cardWords: 'words of a card payment, no brand named (CARD PAYMENT, CARTE BANCAIRE, KARTU)',
  creditWords: 'words of a credit card payment (CREDIT CARD, KARTU KREDIT)',
  debitWords: 'words of a debit card payment besides the schemes\' names (DEBIT, EC-KARTE)',
  notTender: 'words of a line that names cash but is no payment (NO CASH REFUND, CASHIER)',
  categoryFood: 'merchant category "food & drink" (RESTAURANT, KOPITIAM, WARUNG)',
  categoryHardware: 'merchant category "hardware"',
  categoryHealth: 'merchant category "health" (PHARMACY, APOTEK)',
  categoryGroceries: 'merchant category "groceries" (SUPERMARKET, PASAR)',
  categoryFuel: 'merchant category "fuel" (PETROL, SPBU)',
  categoryLodging: 'merchant category "lodging" (HOTEL, PENGINAPAN)',
  categoryStationery: 'merchant category "stationery"',
  categoryTechnology: 'merchant category "technology"',
  categoryTransport: 'merchant category "transport"',
  registrationLabels: 'labels of a company registration number (CO. REG. NO, ROC, BR NO): such a line is no address, and the label is cut from a name',
  periodWords: 'words between two dates of a period ("01.03 BIS 31.03", "S/D")',
  genericNames: 'words too common to name a shop on their own: a line of only one of these is no brand (FOOD, KASSE)',
  counterWords: 'words of a counter, table or register line ("Store # 176", "Tab #12", "Dining"): a line of only these and numbers names no merchant',
  finalTotalLabels: 'labels of a total that says it is final: after rounding, payable, due (GRAND TOTAL, NET A PAYER, GESAMTBETRAG, JUMLAH BAYAR), the words of keywords.ts\'s rule of that role; in order; {TAX} is any tax\'s name, {CUR} a currency code, {TAIL} what may follow a total\'s label',
  subtotalLabels: 'labels of a subtotal or net (SUBTOTAL, MONTANT HT, ZWISCHENSUMME, HARGA JUAL), the words of keywords.ts\'s rule of that role; in order; {TAX} is any tax\'s name, {CUR} a currency code, {TAIL} what may follow a total\'s label',
  taxLabels: 'labels of a tax amount (TAX AMOUNT, MONTANT TVA, PAJAK), the words of keywords.ts\'s rule of that role; in order; {TAX} is any tax\'s name, {CUR} a currency code, {TAIL} what may follow a total\'s label',
  totalLabels: 'labels of a total with a qualifier, or a word for total (TOTAL INCL GST, SUMME, TOTAAL, JUMLAH), the words of keywords.ts\'s rule of that role; in order; {TAX} is any tax\'s name, {CUR} a currency code, {TAIL} what may follow a total\'s label',
  quantityLabels: 'labels of an item count (TOTAL QTY, ANZAHL, JUMLAH ITEM), the words of keywords.ts\'s rule of that role; in order; {TAX} is any tax\'s name, {CUR} a currency code, {TAIL} what may follow a total\'s label',
  taxBaseLabels: 'labels of the net a tax is computed on (TAXABLE AMOUNT, DPP, BASE HT), the words of keywords.ts\'s rule of that role (at its place among the rules); in order',
  roundingLabels: 'labels of cash rounding (ROUNDING ADJ, PEMBULATAN, RUNDUNG), the words of keywords.ts\'s rule of that role (at its place among the rules); in order',
  changeLabels: 'labels of the change given back (CHANGE DUE, KEMBALIAN, RUCKGELD), the words of keywords.ts\'s rule of that role (at its place among the rules); in order',
  tipLabels: 'labels of a tip (TIP, TRINKGELD, POURBOIRE), the words of keywords.ts\'s rule of that role (at its place among the rules); in order',
  serviceLabels: 'labels of a service charge (SERVICE CHARGE, SVC CHG, SERVIS), the words of keywords.ts\'s rule of that role (at its place among the rules); in order',
  discountLabels: 'labels of a discount (DISCOUNT, POTONGAN, RABATT), the words of keywords.ts\'s rule of that role (at its place among the rules); in order',
  paidLabels: 'labels of what the customer handed over or how (CASH, TUNAI, BARGELD, CARTE); the card schemes and wallets stay in keywords.ts, the words of keywords.ts\'s rule of that role (at its place among the rules); in order',
  depositLabels: 'labels of a deposit paid before (DEPOSIT, UANG MUKA, ANZAHLUNG), the words of keywords.ts\'s rule of that role (at its place among the rules); in order',
  pointsLabels: 'labels of loyalty points (POINTS, POIN, BONUSPUNKTE), the words of keywords.ts\'s rule of that role (at its place among the rules); in order',
  balanceLabels: 'labels of a balance left (BALANCE, SISA, SOLDE), the words of keywords.ts\'s rule of that role (at its place among the rules); in order',
  unitPriceLabels: 'labels of a unit price (UNIT PRICE, EINZELPREIS, HARGA SATUAN), the words of keywords.ts\'s rule of that role (at its place among the rules); in order',
  itemHeader: 'words of an item table\'s column header, one word each as printed (DESCRIPTION, QTY, MENGE, HARGA)',
  amountHeader: 'header words that name only an amount (TOTAL, BETRAG): a line of only these is a label, not a table header',
  itemHeaderTail: 'marks of a second header line, alone as a word (RM, GST, INCL, %)',
  units: 'units printed beside an item\'s quantity, alone as a word (KG, PCS, STK)',
  itemSummary: 'words that make a line part of the totals block, at a word\'s start (TOTAL, SUMME, KEMBALI)',
  afterTotals: 'words of a line below the totals that is no item (THANK, CASH, TERIMA KASIH)',
  headerMarkers: 'words of the receipt\'s header block: date, cashier, table, phone, registration (DATE, KASIR, GST REG)',
  footer: 'words of an invoice page\'s footer: the item table has ended (IBAN, HRB, SIRET)',
  discountWords: 'words of a discount line under its item (DISC, PROMO, POTONGAN)',
  itemCount: 'words of a quantity label that make it the count of items, anywhere in the label (TOTAL, COUNT, JUMLAH)',
  chargeWords: 'words that make a service or discount label a line of the totals, anywhere in the line (CHARGE, SAVING)',
  taxSummary: 'words after a tax\'s name that head its summary table (SUMMARY, BREAKDOWN, RATE)',
  taxSummaryAlone: 'words that alone head a tax summary table, at a word\'s start (DPP)',
  dateDue: 'labels of a due date (DUE DATE, ECHEANCE, FALLIG); in order: of two that start together the earlier wins',
  dateOrder: 'labels of an order date (ORDER DATE, BESTELLDATUM); in order',
  dateOther: 'labels of a date that is not the purchase\'s: expiry, delivery, a period, membership, check-in (EXP, LIEFER, DU, AU); in order',
  dateTransaction: 'labels of the purchase\'s or the invoice\'s date (INVOICE DATE, DATUM, TANGGAL), and the generic document words that may stand before it; in order',
  dateGeneric: 'document words that name no date themselves: far from the date they say little (INVOICE, RECHNUNG)',
  numberWords: 'words for "number" after a document\'s name (NUMBER, NUMMER, NR, NUMERO, N°)',
  invoiceWords: 'words of an invoice number\'s label, before a number word (INVOICE, FACTURA, FAKTUR)',
  invoiceNumberLabels: 'whole labels of an invoice number (RECHNUNGSNR, NUMERO DE FACTURE, NOMOR FAKTUR)',
  receiptWords: 'words of a receipt or transaction number\'s label, before a number word (RECEIPT, TRX, STRUK)',
  receiptNumberLabels: 'whole labels of a receipt, order or reference number (ORDER ID, NO PESANAN, REF)',
  receiptLabels: 'receipt words followed by a colon or # before the receipt\'s number (RECEIPT:, BELEG:, STRUK #)',
  documentWords: 'the word "invoice" alone, followed by its id ("Invoice INV/2023/03/0008", "Facture 2022089083")',
  taxBase: 'words of a tax table\'s net column, before a tax\'s name on the header line (NET, NETTO, HT)',
} as const;
export type WordList = keyof typeof WORD_LISTS;

/** Labels of one role printed next to amounts, as phrases of the canonical text (upper case, accent-free). */
export interface LanguageLabels {
  role: AmountRole;
  /** As in keywords.ts RoleRule: totals 3.5 final/grand, 3 qualified, 2.2 plain. */
  strength: number;
  final?: boolean;
  /** Phrases, words separated by single spaces (any run of spaces matches); the longer of two overlapping ones first. */
  phrases: string[];
  /** What the label is, with an example as printed (for the reader of words.json; not used). */
  note?: string;
}

/** One language's vocabulary: what a new language brings, in one folder (languages/<code>/words.json). */
export interface LanguageVocabulary {
  /** ISO 639-1 code (the folder's name). */
  code: string;
  /** Where the language's cues are weighed among the others: lower first; on a tie the earlier wins (English: 100, last, as it needs a clear lead). Default 90. */
  order: number;
  /** chrono-node's locale for this language, when it has one (month and weekday names it parses). */
  chrono?: ChronoLocale;
  /** Month names and abbreviations, lower case -> 1..12. */
  months: Record<string, number>;
  /** Weekday names and abbreviations, lower case -> 0 (Sunday)..6. */
  weekdays: Record<string, number>;
  /** Words printed on receipts that show the keyword language (upper case, accent-free). */
  cues: string[];
  /**
   * The one country whose receipts print this language, when there is one (Vietnamese: VN): its cues
   * then are evidence of the country. A language of several countries (English, Spanish, Malay) has none, and so has one whose
   * receipt words another language shares (Indonesian's TUNAI, HARGA, TERIMA KASIH are Malay's too).
   */
  country?: string;
  /** Names of taxes printed on receipts in this language (upper case). */
  taxWords: string[];
  /** Word lists by use (WORD_LISTS): patterns of the folded text, a space matching any run of spaces or none. */
  words: Partial<Record<WordList, string[]>>;
  /**
   * Labels of amounts in this language that keywords.ts does not spell out itself (total, tendered,
   * change, ...), in priority order: an earlier entry's match wins over a later one's overlapping match.
   */
  labels?: LanguageLabels[];
}

