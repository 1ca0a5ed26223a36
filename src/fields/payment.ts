/** Payment type and the card's last four digits. */
import type { Document } from '../document/types.js';
import { boxesForSpan, fold } from './text.js';
import type { Located } from './types.js';
import { wordAlternation } from '../locale/languages/index.js';

const PAYMENT_TYPES: Array<[RegExp, string]> = [
  [/\bVISA\b/, 'visa'], [/\bMASTER\s*CARD\b|\bMASTERCARD\b|\bMASTER\b|\bMC\b/, 'mastercard'], [/\bAMEX\b|AMERICAN\s*EXPRESS/, 'amex'],
  [/\bDISCOVER\b/, 'discover'], [/\bJCB\b/, 'jcb'], [/\bUNION\s*PAY\b|\bUNIONPAY\b/, 'unionpay'], [/\bDINERS\b/, 'diners'],
  [new RegExp(String.raw`\b(?:${wordAlternation('debitWords')})\b|\bMAESTRO\b|\bEFTPOS\b|\bINTERAC\b|\bGIROCARD\b`), 'debit'],
  [new RegExp(String.raw`\b(?:${wordAlternation('creditWords')})\b`), 'credit'],
  [new RegExp(String.raw`\b(?:${wordAlternation('cardWords')})\b`), 'card'],
  [/\bGOPAY\b|\bOVO\b|\bDANA\b|\bQRIS\b|\bSHOPEE\s*PAY\b|\bGRAB\s*PAY\b|\bTOUCH\s*'?N\s*GO\b|\bTNG\b|\bBOOST\b|\bAPPLE\s*PAY\b|\bGOOGLE\s*PAY\b|\bPAYPAL\b|\bALIPAY\b|\bWECHAT\s*PAY\b|\bUPI\b|\bPAYTM\b|\bPHONEPE\b|\bGPAY\b/, 'e-wallet'],
  [new RegExp(String.raw`\b(?:${wordAlternation('cashWords')})\b`), 'cash'],
];

/** A line that names cash but is no payment. */
const NOT_TENDER = new RegExp(String.raw`\b(?:${wordAlternation('notTender')})\b`);

export function findPayment(doc: Document): { paymentType?: Located<string>; cardLast4?: Located<string> } {
  const out: { paymentType?: Located<string>; cardLast4?: Located<string> } = {};
  // later lines carry the tender; scan bottom-up, prefer card brands over cash
  let cash: Located<string> | undefined;
  for (let i = doc.lines.length - 1; i >= 0; i--) {
    const line = doc.lines[i]!;
    const u = fold(line.text);
    if (NOT_TENDER.test(u) && !/\b(VISA|MASTER)/.test(u)) continue;
    for (const [re, type] of PAYMENT_TYPES) {
      const m = re.exec(u);
      if (!m) continue;
      const l: Located<string> = { value: type, confidence: type === 'cash' ? 0.7 : 0.8, text: line.text, lineIndex: line.index, keyword: m[0], boxes: boxesForSpan(line, m.index, m.index + m[0].length), page: line.page };
      if (type === 'cash') { cash ??= l; break; }
      if (!out.paymentType) out.paymentType = l;
      break;
    }
    if (!out.cardLast4) {
      const m = /(?:[*Xx#•]{2,}[\s-]?){1,3}(\d{4})\b/.exec(line.text);
      if (m) out.cardLast4 = { value: m[1]!, confidence: 0.8, text: line.text, lineIndex: line.index, keyword: '-', boxes: boxesForSpan(line, m.index, m.index + m[0].length), page: line.page };
    }
  }
  if (!out.paymentType && cash) out.paymentType = cash;
  return out;
}
