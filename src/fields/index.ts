/**
 * Field extraction: finders propose candidates with evidence from the Document, resolvers choose one
 * value per field with a confidence. Pure and synchronous; sees only the Document and the context.
 */
import type { Document } from '../document/types.js';
import { inferLocale } from '../locale/index.js';
import { findMoney } from './amounts.js';
import { findDates } from './dates.js';
import { findMerchant } from './merchant.js';
import { findIds } from './ids.js';
import { findPayment } from './payment.js';
import { amountsInLine, classifyNumbers, toFound } from './numbers.js';
import type { FieldContext, FieldResults } from './types.js';

export type { FieldContext, FieldResults, Located, FoundNumber } from './types.js';

export function extractFields(doc: Document, ctx: FieldContext): FieldResults {
  const locale = inferLocale(doc, { ...(ctx.near ? { near: ctx.near } : {}), ...(ctx.language ? { language: ctx.language } : {}) });
  const now = ctx.now ?? new Date();
  const money = findMoney(doc, locale);
  const dates = findDates(doc, locale, ctx.extractTime, now);
  const merchant = findMerchant(doc, locale, { ...(ctx.ignoreMerchantName ? { ignoreMerchantName: ctx.ignoreMerchantName } : {}) });
  const ids = findIds(doc);
  const payment = findPayment(doc);
  const amounts = doc.lines.flatMap((l) => amountsInLine(l, locale)).filter((a) => a.moneyLike);
  const { totalEvidence: _evidence, ...moneyFields } = money;
  const out: FieldResults = {
    ...moneyFields,
    ...dates,
    ...merchant,
    ...ids,
    ...payment,
    amounts: amounts.map(toFound),
    lineAmounts: amounts.filter((a) => a.atLineEnd).map(toFound),
    numbers: classifyNumbers(doc, locale),
    warnings: [],
  };
  if (locale.currency) {
    const anchor = money.totalAmount;
    out.currencyCode = anchor
      ? { ...anchor, value: locale.currency, confidence: Math.max(0.3, Math.min(0.95, locale.countryConfidence || (locale.printedCurrency ? 0.8 : 0.3))) }
      : { value: locale.currency, confidence: 0.5, text: doc.lines[0]?.text ?? '', lineIndex: 0, keyword: '-', boxes: [], page: 0 };
  }
  return out;
}
