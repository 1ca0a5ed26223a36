/**
 * The kind of document (issue 24, part 3): `receipt`, `invoice` or `other` (a page that is not a
 * commercial document: a picture without text, a chat or web-page screenshot, a letter, a bank
 * statement). Read from what the reading already found, so it costs well under a millisecond:
 *
 * - commerce: a total with its keyword, amounts at the ends of lines, line items, tax, subtotal,
 *   payment, a date, and the words shops print (cash, change, qty, VAT...);
 * - not commerce: too little text to be any document; the words of bank statements, letters, chats
 *   and web pages; prose (long lines of words without figures); times of day closing short lines
 *   (chat messages);
 * - invoice rather than receipt: a due date, the words only invoices print (bill to, payment terms,
 *   invoice date, IBAN...), a PDF text layer, a page shaped like A4 with its lines spread across it.
 *
 * Each cue is one small named rule (the evidence names it with its weight); the sums decide, as
 * DESIGN.md asks of a chain of rules. Weights and thresholds were set on the tune half of each corpus
 * set and the generated pages of test/generators/doctype-images.ts, and checked on the other half
 * (bench/doctype.mjs; docs/results.md "Document type and language").
 */
import { foldText } from '../locale/keywords.js';

export type DocumentKind = 'receipt' | 'invoice' | 'other';

/** What the classifier reads: the text lines and a summary of the fields found. */
export interface ClassifyInput {
  lines: readonly string[];
  /** Some page was read from a PDF text layer. */
  textLayer: boolean;
  /** First page's upright size in pixels, when known. */
  pageWidth?: number;
  pageHeight?: number;
  /** Share of the page width the text spans, on average over lines (0..1), when known. */
  lineSpread?: number;
  fields: {
    /** The total's keyword (`TOTAL`...), `-` when none; undefined when no total was found. */
    totalKeyword?: string | undefined;
    lineAmounts: number;
    lineItems: number;
    tax: boolean;
    subtotal: boolean;
    paid: boolean;
    payment: boolean;
    date: boolean;
    dueDate: boolean;
    invoiceNumber: boolean;
    receiptNumber: boolean;
  };
}

export interface DocumentTypeResult {
  type: DocumentKind;
  /** 0.01..0.99. */
  confidence: number;
  /** The rules that counted, `name(weight)`, commerce cues positive, others negative; then `invoice:` cues. */
  evidence: string[];
}

interface Cue { rule: string; weight: number }
type Rule = (t: TextFacts, x: ClassifyInput) => Cue | undefined;

/** Facts of the text computed once for all rules. */
interface TextFacts {
  /** Lines folded to upper case without accents. */
  folded: string[];
  joined: string;
  words: number;
  /** Lines of at least 6 words of letters with no digit. */
  proseLines: number;
  /** Lines that end in a bare time of day (hh:mm) with at most 8 words. */
  timeEndedLines: number;
  /** Lines of conversation: 3+ words spelled as words, mostly lower case, no figures. */
  sentenceLines: number;
  nonEmpty: number;
}

/** A word as prose spells it: three letters or more, lower case after the first, maybe a stop after it. */
const PROSE_WORD = /^[(“"'‘]?\p{L}[\p{Ll}\p{M}'’-]{2,}[.,;:!?)”"']*$/u;

function textFacts(lines: readonly string[]): TextFacts {
  const folded = lines.map((l) => foldText(l));
  let words = 0, proseLines = 0, timeEndedLines = 0, nonEmpty = 0, sentenceLines = 0;
  for (const l of lines) {
    const tokens = l.split(/\s+/).filter(Boolean);
    const ws = tokens.filter((w) => /\p{L}{2,}/u.test(w));
    words += ws.length;
    if (l.trim()) nonEmpty++;
    // prose: words spelled like words (OCR noise of a photo is short, mixed-case fragments)
    const spelled = tokens.filter((w) => PROSE_WORD.test(w)).length;
    if (spelled >= 6 && spelled >= 0.7 * tokens.length && !/\d/.test(l)) proseLines++;
    const letters = l.replace(/[^\p{L}]/gu, '');
    const lower = letters.replace(/[^\p{Ll}]/gu, '').length;
    if (spelled >= 3 && spelled >= 0.7 * tokens.length && !/\d/.test(l) && lower >= 0.75 * letters.length) sentenceLines++;
    // a message's time: hh:mm closing a short line that holds no other figure
    const time = /(?:^|\s)\d{1,2}:\d{2}\s*(?:[AP]M)?\s*$/i.exec(l);
    if (time && ws.length <= 8 && !/\d/.test(l.slice(0, time.index))) timeEndedLines++;
  }
  return { folded, joined: folded.join('\n'), words, proseLines, timeEndedLines, nonEmpty, sentenceLines };
}

const count = (re: RegExp, s: string): number => (s.match(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`)) ?? []).length;
const cue = (rule: string, weight: number): Cue => ({ rule, weight: Math.round(weight * 100) / 100 });

/** Words shops and restaurants print on receipts and invoices, several languages (accent-folded upper case). */
const COMMERCE_WORDS = /\b(?:TOTAL|SUBTOTAL|SUB TOTAL|GRAND TOTAL|AMOUNT|AMT|QTY|QTE|PRICE|CASH|CHANGE|TAX|VAT|GST|SST|TVA|IVA|MWST|UST|PPN|THUE|RECEIPT|CASHIER|KASIR|TUNAI|KEMBALI(?:AN)?|SUMME|GESAMT|BAR|RUCKGELD|BETRAG|ZU ZAHLEN|ESPECES|RENDU|PRIX|IMPORTE|EFECTIVO|CAMBIO|TONG CONG|TONG TIEN|THANH TIEN|TIEN MAT|DON GIA|SO LUONG|JUMLAH|HARGA|BAYAR|BELANJA|DISC(?:OUNT)?|ROUNDING|INVOICE|RECHNUNG|FACTURE|FACTURA|FATTURA|FAKTUR|BILL|QUITTUNG|KASSENBON|BELEG|TICKET|HOA DON|STRUK|VISA|MASTERCARD|DEBIT|CREDIT CARD|CARD|EUR|USD|RM|RP|VND|ITEMS?)\b/;

/** The commerce rules: each is evidence that the page is a receipt or an invoice. */
const COMMERCE: Rule[] = [
  /** A total read next to its keyword. */
  (_t, x) => (x.fields.totalKeyword && x.fields.totalKeyword !== '-' ? cue('total-keyword', 2.5) : x.fields.totalKeyword ? cue('total', 0.5) : undefined),
  /** Amounts closing lines (a price column). */
  (_t, x) => (x.fields.lineAmounts >= 3 ? cue('line-amounts', Math.min(2, 0.5 + x.fields.lineAmounts * 0.15)) : undefined),
  /** Product line items. */
  (_t, x) => (x.fields.lineItems > 0 ? cue('line-items', Math.min(1.5, 0.5 + 0.25 * x.fields.lineItems)) : undefined),
  /** Tax, subtotal, paid amount, payment method: the summary of a sale. */
  (_t, x) => {
    const n = [x.fields.tax, x.fields.subtotal, x.fields.paid, x.fields.payment].filter(Boolean).length;
    return n ? cue('sale-summary', 0.6 * n) : undefined;
  },
  /** A receipt or invoice number. */
  (_t, x) => (x.fields.invoiceNumber || x.fields.receiptNumber ? cue('document-number', 0.5) : undefined),
  /** Commerce words on several lines. */
  (t) => {
    const n = t.folded.filter((l) => COMMERCE_WORDS.test(l)).length;
    return n ? cue('commerce-words', Math.min(2.5, 0.5 * n)) : undefined;
  },
];

/** Bank statement titles, in the languages of the corpus and beyond (accent-folded upper case). */
const STATEMENT_TITLE = /\b(?:(?:ACCOUNT|BANK|CARD) STATEMENT|STATEMENT OF ACCOUNT|KONTOAUSZUG|RELEVE DE COMPTE|EXTRACTO DE CUENTA|ESTRATTO CONTO|REKENING KORAN|MUTASI REKENING|SAO KE(?: TAI KHOAN)?)\b/;
/** A statement's balance lines (a receipt may print a loyalty balance). */
const BALANCE_LINES = /\b(?:OPENING BALANCE|CLOSING BALANCE|BALANCE (?:BROUGHT|CARRIED) FORWARD|(?:ALTER|NEUER) KONTOSTAND|(?:ANCIEN|NOUVEAU) SOLDE|SALDO (?:ANTERIOR|FINAL|INICIAL|AWAL|AKHIR)|SO DU (?:DAU|CUOI) KY)\b/;
/** Salutations and closings of letters. */
const LETTER_WORDS = /(?:^|\n)\s*(?:DEAR (?:MR|MRS|MS|MISS|DR|SIR|MADAM|CUSTOMER|[A-Z]+)|YOURS (?:SINCERELY|FAITHFULLY|TRULY)|SINCERELY|KIND REGARDS|BEST REGARDS|SEHR GEEHRTE|MIT FREUNDLICHEN GRUSSEN|MADAME, MONSIEUR|VEUILLEZ AGREER|CORDIALEMENT|ESTIMAD[OA]|ATENTAMENTE|UN CORDIAL SALUDO|KINH GUI|HORMAT (?:KAMI|SAYA)|YTH\.?|OBJET ?:|BETREFF ?:|ASUNTO ?:|RE ?:)/;
/** Browser address bars, menus, footers and buttons of web pages. */
const WEB_WORDS = /(?:HTTPS?:\/\/|© ?(?:19|20)\d\d|\b(?:HOME|ABOUT|BLOG|CONTACT|LOGIN|LOG IN|SIGN UP|SEARCH|NEWSLETTER|STARTSEITE|KONTAKT|ANMELDEN|ACCUEIL|CONNEXION|RECHERCHE|INICIO|CONTACTO|BUSCAR|BERANDA|KONTAK|MASUK|TRANG CHU|LIEN HE|DANG NHAP|TIM KIEM|READ MORE|ADD TO CART|IN DEN WARENKORB|AJOUTER AU PANIER)\b)/;

/** The rules against commerce: each is evidence that the page is not a receipt or an invoice. */
const OTHER: Rule[] = [
  /** Almost no text: a picture, not a document. */
  (t, x) => (t.words < 4 ? cue('no-text', x.fields.totalKeyword && x.fields.totalKeyword !== '-' ? 2 : 6) : t.words < 10 ? cue('little-text', 2) : undefined),
  /** A bank statement's title: its rows look like line items, so it weighs as much as they can. */
  (t) => (STATEMENT_TITLE.test(t.joined) ? cue('statement-title', 8) : undefined),
  /** Opening and closing balances. */
  (t) => {
    const n = count(BALANCE_LINES, t.joined);
    return n ? cue('balance-lines', Math.min(3, 1.5 * n)) : undefined;
  },
  /** A letter's salutation and closing. */
  (t) => {
    const n = count(LETTER_WORDS, t.joined);
    return n ? cue('letter-words', Math.min(5, 2 * n)) : undefined;
  },
  /** Web-page furniture on several lines. */
  (t) => {
    const n = t.folded.filter((l) => WEB_WORDS.test(l)).length;
    return n >= 2 ? cue('web-words', Math.min(4, 0.8 * n)) : undefined;
  },
  /** Prose: lines of words without figures. */
  (t) => {
    const share = t.nonEmpty ? t.proseLines / t.nonEmpty : 0;
    return t.proseLines >= 3 && share >= 0.12 ? cue('prose', Math.min(6, 1 + 12 * share)) : undefined;
  },
  /** Conversation: many lines of lower-case words without figures (receipts print names and amounts). */
  (t) => {
    const share = t.nonEmpty ? t.sentenceLines / t.nonEmpty : 0;
    return t.sentenceLines >= 3 && share >= 0.3 ? cue('sentences', Math.min(4, 0.5 * t.sentenceLines)) : undefined;
  },
  /** Chat messages: short lines closed by a time of day. */
  (t) => (t.timeEndedLines >= 3 ? cue('chat-times', Math.min(5, 1.2 * t.timeEndedLines)) : undefined),
];

/** Words only invoices print (a receipt's "TAX INVOICE" heading is not among them). */
const INVOICE_WORDS = /\b(?:BILL(?:ED)? TO|SHIP(?:PED)? TO|SOLD TO|INVOICE TO|PAYMENT TERMS|TERMS|DUE DATE|DATE DUE|PAYABLE (?:WITHIN|BY)|PLEASE PAY|REMIT|IBAN|SWIFT|BIC|BANK DETAILS|ACCOUNT (?:NAME|NO|NUMBER)|PO NUMBER|P\.O\.|PURCHASE ORDER|CUSTOMER (?:NO|NUMBER|ID)|RECHNUNGSNUMMER|RECHNUNGSDATUM|ZAHLBAR|ZAHLUNGSZIEL|FALLIG|NUMERO DE FACTURE|DATE D'ECHEANCE|ECHEANCE|FECHA DE VENCIMIENTO|JATUH TEMPO|HAN THANH TOAN|NET \d{1,2}|TOTAL DUE|AMOUNT DUE|BALANCE DUE|BILLING ADDRESS|SHIPPING ADDRESS|INVOICE DATE|SOLD BY|AUTHORI[SZ]ED SIGNATORY|REGISTERED OFFICE|BANK NAME)\b/;
/** An invoice heading (also on some receipts: "TAX INVOICE", "HÓA ĐƠN", "Rechnung"). */
const INVOICE_TITLE = /\b(?:INVOICE|RECHNUNG|FACTURE|FACTURA|FATTURA|FAKTUR|FACTUUR)\b/;
/** Till words: cash and change, the cashier, thanks for the visit. */
const TILL_WORDS = /\b(?:CASH|CHANGE|CASHIER|TUNAI|KEMBALI(?:AN)?|KASIR|BAR|RUCKGELD|GEGEBEN|ESPECES|RENDU|EFECTIVO|CAMBIO|TIEN MAT|TIEN THUA|TIEN KHACH|THANK YOU|TERIMA KASIH|VIELEN DANK|MERCI|GRACIAS|CAM ON|TABLE|MEJA|KASSE|BON)\b/;

/** Invoice rather than receipt: cues for (positive) and against (negative). */
const INVOICE: Rule[] = [
  (_t, x) => (x.fields.dueDate ? cue('due-date', 2) : undefined),
  (t) => {
    const n = t.folded.filter((l) => INVOICE_WORDS.test(l)).length;
    return n ? cue('invoice-words', Math.min(3, 1.2 * n)) : undefined;
  },
  (t) => (INVOICE_TITLE.test(t.joined) ? cue('invoice-title', 1) : undefined),
  (_t, x) => (x.textLayer ? cue('pdf-text-layer', 1.5) : undefined),
  /** A page shaped like A4 or letter paper, its lines spread across it (receipts are narrow strips). */
  (_t, x) => {
    if (!x.pageWidth || !x.pageHeight) return undefined;
    const ratio = x.pageHeight / x.pageWidth;
    return ratio > 1.2 && ratio < 1.6 && (x.lineSpread ?? 0) >= 0.35 && x.lines.length >= 15 ? cue('page-like-a4', 1) : undefined;
  },
  (t) => {
    const n = t.folded.filter((l) => TILL_WORDS.test(l)).length;
    return n ? cue('till-words', -Math.min(2, 0.7 * n)) : undefined;
  },
];

const sum = (cues: Cue[]) => cues.reduce((a, c) => a + c.weight, 0);
const run = (rules: Rule[], t: TextFacts, x: ClassifyInput): Cue[] => rules.map((r) => r(t, x)).filter((c): c is Cue => !!c);
const logistic = (z: number) => 1 / (1 + Math.exp(-z));
const round2 = (v: number) => Math.round(Math.max(0.01, Math.min(0.99, v)) * 100) / 100;

/** Commerce evidence must beat the evidence against it by this much for a receipt or an invoice. */
export const COMMERCE_MARGIN = 1;
/** Invoice cues must reach this sum for an invoice. */
export const INVOICE_MIN = 2.5;

/** The kind of a document from its text and fields. */
export function classifyDocument(x: ClassifyInput): DocumentTypeResult {
  const t = textFacts(x.lines);
  const pro = run(COMMERCE, t, x);
  const con = run(OTHER, t, x);
  const margin = sum(pro) - sum(con) - COMMERCE_MARGIN;
  const evidence = [...pro.map((c) => `${c.rule}(${c.weight})`), ...con.map((c) => `${c.rule}(-${c.weight})`)];
  // text that shows nothing either way (OCR noise of a picture): not a commercial document
  if (!evidence.length) evidence.push('no-cues');
  if (margin < 0) return { type: 'other', confidence: round2(1 - logistic(margin * 1.2)), evidence };
  const inv = run(INVOICE, t, x);
  evidence.push(...inv.map((c) => `invoice:${c.rule}(${c.weight})`));
  const commerce = logistic(margin * 1.2);
  const invoiceScore = sum(inv) - INVOICE_MIN;
  const kind = invoiceScore >= 0 ? 'invoice' : 'receipt';
  return { type: kind, confidence: round2(commerce * logistic(Math.abs(invoiceScore) * 1.5 + 0.5)), evidence };
}
