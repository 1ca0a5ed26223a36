/** Invoice and receipt numbers: a keyword (many languages) followed by an id-like token. */
import type { Document } from '../document/types.js';
import { boxesForSpan, fold } from './text.js';
import type { Located } from './types.js';

const INVOICE_KW = /\b(INVOICE|INV|FACTURE|FACTURA|RECHNUNG|FACTUUR|FAKTUR|FATTURA|BILL|TAX\s*INVOICE)\s*(?:NUMBER|NUMMER|NUMERO|NO\b|NO\.|NR\.?|N°|N\.|#|ID)?\s*[.:#]?\s*/i;
const RECEIPT_KW = /\b(RECEIPT|RCPT|RECEIPT\s*NO|BILL|CHECK|CHK|DOC(UMENT)?|TRANS(ACTION)?|TRX|TRN|STRUK|NOTA|ORDER|SLIP|REF(ERENCE)?|BOOKING\s*ID|CS|CB|SO|TICKET|TICKET\s*NO|NO\.?\s*PESANAN|KODE)\s*(?:NUMBER|NO\b|NO\.|NR\.?|N°|#|ID)?\s*[.:#]?\s*/i;
const ID_TOKEN = /^#?\s*([A-Z0-9][A-Z0-9\-_/.]*\d[A-Z0-9\-_/.]*)/i;

function findAfter(doc: Document, kw: RegExp, minDigits: number, excluded: RegExp): Located<string> | undefined {
  for (const line of doc.lines) {
    const text = line.text;
    kw.lastIndex = 0;
    const m = kw.exec(text);
    if (!m) continue;
    if (excluded.test(fold(text))) continue;
    let rest = text.slice(m.index + m[0].length);
    let from = m.index + m[0].length;
    // the label may stand alone with the value on the next line
    let target = line;
    if (!rest.trim()) {
      const next = doc.lines[line.index + 1];
      if (!next || next.page !== line.page) continue;
      target = next; rest = next.text; from = 0;
    }
    const lead = rest.length - rest.trimStart().length;
    const t = ID_TOKEN.exec(rest.trimStart());
    if (!t) continue;
    const value = t[1]!.replace(/[.\-/]+$/, '');
    if ((value.match(/\d/g) ?? []).length < minDigits) continue;
    if (/^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$/.test(value)) continue; // a date
    const start = from + lead + t[0].indexOf(t[1]!);
    return {
      value, confidence: target === line ? 0.8 : 0.65, text: target.text, lineIndex: target.index, keyword: m[1]!.trim(),
      boxes: boxesForSpan(target, start, start + value.length), page: target.page,
    };
  }
  return undefined;
}

export function findIds(doc: Document): { invoiceNumber?: Located<string>; receiptNumber?: Located<string> } {
  const out: { invoiceNumber?: Located<string>; receiptNumber?: Located<string> } = {};
  const inv = findAfter(doc, INVOICE_KW, 2, /INVOICE\s*(DATE|TO|ADDRESS|TOTAL|AMOUNT)|\bTAX\s*INVOICE\s*$/);
  if (inv) out.invoiceNumber = inv;
  const rec = findAfter(doc, RECEIPT_KW, 3, /\b(DATE|TOTAL|TEL|PHONE|FAX)\b/);
  if (rec && (!inv || rec.value !== inv.value)) out.receiptNumber = rec;
  return out;
}
