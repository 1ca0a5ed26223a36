/**
 * Field extraction: finders (fields/) propose candidates with evidence from the Document, resolvers
 * (resolve/) choose one value per field with a confidence. Pure and synchronous; sees only the Document
 * and the context. The stage above both: resolve/ reads the finders' shapes, fields/ never imports
 * resolve/ (test/layers.test.ts).
 *
 *   locale   <- inferLocale(doc, near, language)
 *   money    <- findMoney (labelled amounts, summary rows, items)  -> resolveMoney (arithmetic)
 *   dates    <- findDateCandidates                                  -> resolveDates
 *   merchant <- findMerchant (name, address, city/state/postcode/country, phone, tax id, website)
 *   ids, payment
 */
import type { Document } from '../document/types.js';
import { inferLocale, knownFromSignsOnly } from '../locale/index.js';
import type { Locale, LocaleHints } from '../locale/index.js';
import { isoDate } from '../locale/dates.js';
import { findMoney } from '../fields/amounts.js';
import { findDateCandidates } from '../fields/dates.js';
import { findMerchant } from './merchant.js';
import { findIds } from '../fields/ids.js';
import { findPayment } from '../fields/payment.js';
import { findLineItems, findTaxLines } from '../fields/items.js';
import { classifyNumbers, toFound } from '../fields/numbers.js';
import { boxesForSpan } from '../fields/text.js';
import { resolveMoney, resolveTaxAt } from '../resolve/money.js';
import type { ChosenAmount } from '../resolve/money.js';
import { resolveDates } from '../resolve/dates.js';
import { roundConfidence } from '../fields/confidence.js';
import { currencyCandidates, currencyContested } from '../resolve/currency.js';
import { tapCandidates } from '../resolve/model.js';
import { rankingModel } from '../resolve/field-model.js';
import type { ChosenDate } from '../resolve/dates.js';
import type { FieldContext, FieldResults, Located, LocatedDate } from '../fields/types.js';

export type { FieldContext, FieldResults, Located, FoundNumber } from '../fields/types.js';

/**
 * One currency per document unless it prints two: `main` is the locale's currency (else the code
 * printed on most lines); another code stays on an amount only when it is printed on at least two
 * lines (a second currency the document really shows, not one misread marker).
 */
function documentCurrency(amounts: readonly { currency?: string; line: { index: number } }[], localeCurrency: string | undefined): { main?: string; printed: Set<string> } {
  const lines = new Map<string, Set<number>>();
  for (const a of amounts) if (a.currency) lines.set(a.currency, (lines.get(a.currency) ?? new Set()).add(a.line.index));
  const printed = new Set([...lines].filter(([, l]) => l.size >= 2).map(([c]) => c));
  const mostPrinted = [...lines].sort((a, b) => b[1].size - a[1].size)[0]?.[0];
  const main = localeCurrency ?? mostPrinted;
  return { ...(main ? { main } : {}), printed };
}

function moneyField(doc: Document, c: ChosenAmount | undefined, currency: { main?: string; printed: Set<string> }): Located<number> | undefined {
  if (!c) return undefined;
  const src = c.source;
  const line = src ? src.amount.line : doc.lines[0];
  if (!line) return undefined;
  const own = src?.amount.currency;
  const code = own && (own === currency.main || currency.printed.has(own) || !currency.main) ? own : currency.main;
  return {
    value: c.value, confidence: c.confidence, text: line.text, lineIndex: line.index, keyword: c.keyword || '-',
    boxes: src ? boxesForSpan(line, src.amount.start, src.amount.end) : [], page: line.page,
    ...(code ? { currencyCode: code } : {}),
  };
}

function dateField(c: ChosenDate | undefined, withTime: boolean): LocatedDate | undefined {
  if (!c) return undefined;
  const d = c.candidate;
  return {
    value: isoDate(d.date, withTime ? d.time : undefined), confidence: c.confidence, text: d.line.text, lineIndex: d.line.index,
    keyword: d.keyword || '-', boxes: boxesForSpan(d.line, d.date.start, d.date.end), page: d.line.page,
    ...(c.marks && Object.keys(c.marks).length ? { marks: c.marks } : {}),
  };
}

/**
 * The most a document currency other than its country's own is given (a "£" read on a Vietnamese page),
 * or one the page does not settle (resolve/currency.ts currencyContested): below 0.9, where an app that
 * auto-approves does not take it unchecked.
 */
export const CURRENCY_AGAINST_COUNTRY_MAX = 0.85;

/**
 * A country at least this sure, told by its place (an address, a tax number, its words), not by currency
 * signs, settles its own currency when the page prints none: given up to 0.95 instead of 0.85 (an
 * Indonesian receipt with its "Jl.", "PPN" and "TUNAI" and no "Rp" is in rupiah).
 */
export const PLACE_SETTLES_CURRENCY_FROM = 0.9;

/** The page's first country is told by its place this surely, and the currency is its own (PLACE_SETTLES_CURRENCY_FROM). */
function placeSettlesCurrency(locale: Locale, currency: string): boolean {
  const top = locale.currencyCues?.countries[0];
  return !!top && top[0] === locale.countryCode && locale.countryConfidence >= PLACE_SETTLES_CURRENCY_FROM
    && locale.currencyCues?.own === currency && !knownFromSignsOnly(top, locale.currencyCues.symbolScore);
}

/** The caller's options the locale weighs (inferLocale's hints): `near`, `language`, the `ipAddress`'s country. */
function localeHints(ctx: Pick<FieldContext, 'near' | 'language' | 'callerCountry'>): LocaleHints {
  return { ...(ctx.near ? { near: ctx.near } : {}), ...(ctx.language ? { language: ctx.language } : {}), ...(ctx.callerCountry ? { callerCountry: ctx.callerCountry } : {}) };
}

/**
 * The document's tax weighed against `total`, a total another reading gave (read/combine.ts): the tax
 * rules run on this document's lines with that total, its evidence ending `at-combined-total`.
 */
export function taxAtTotal(doc: Document, ctx: Pick<FieldContext, 'near' | 'language' | 'ranking' | 'callerCountry'>, total: number): { tax: Located<number>; evidence: string[] } | undefined {
  const locale = inferLocale(doc, localeHints(ctx));
  const moneyFacts = findMoney(doc, locale);
  const taxModel = rankingModel('tax', ctx.ranking);
  const chosen = resolveTaxAt(moneyFacts, { wholeCurrency: locale.wholeCurrency, lineCount: doc.lines.length, ...(taxModel ? { taxModel } : {}) }, total);
  const amounts = moneyFacts.candidates.filter((c) => c.amount.moneyLike).map((c) => c.amount);
  const tax = moneyField(doc, chosen, documentCurrency(amounts, locale.currency || undefined));
  return tax && chosen ? { tax, evidence: [...chosen.evidence, 'at-combined-total'] } : undefined;
}

/** Extracts every field of the contract from a Document. */
export function extractFields(doc: Document, ctx: FieldContext): FieldResults {
  const locale: Locale = inferLocale(doc, localeHints(ctx));
  const now = ctx.now ?? new Date();
  const currency = locale.currency || undefined;

  const moneyFacts = findMoney(doc, locale);
  const totalModel = rankingModel('total', ctx.ranking);
  const taxModel = rankingModel('tax', ctx.ranking);
  const money = resolveMoney(moneyFacts, { wholeCurrency: locale.wholeCurrency, lineCount: doc.lines.length, ...(totalModel ? { model: totalModel } : {}), ...(taxModel ? { taxModel } : {}) });
  const dateCands = findDateCandidates(doc, locale, now);
  const dateModel = rankingModel('date', ctx.ranking);
  const dates = resolveDates(dateCands, locale, now, doc.lines.length, dateModel);
  const nameModel = rankingModel('name', ctx.ranking);
  const merchant = findMerchant(doc, locale, { ...(ctx.ignoreMerchantName ? { ignoreMerchantName: ctx.ignoreMerchantName } : {}), ...(nameModel ? { model: nameModel } : {}) });
  const ids = findIds(doc);
  const payment = findPayment(doc);

  tapCandidates('currency', () => currencyCandidates(locale));
  const amounts = moneyFacts.candidates.filter((c) => c.amount.moneyLike).map((c) => c.amount);
  const docCurrency = documentCurrency(amounts, currency);
  const out: FieldResults = {
    amounts: amounts.map(toFound),
    lineAmounts: amounts.filter((a) => a.atLineEnd).map(toFound),
    numbers: classifyNumbers(doc, locale),
    ...(locale.countryCode ? { country: { code: locale.countryCode, confidence: locale.countryConfidence } } : {}),
    dayFirst: locale.dayFirst,
    warnings: [],
    ...(money.total ? { taxWeighedAt: money.total.value } : {}),
  };
  const set = <K extends keyof FieldResults>(k: K, v: FieldResults[K] | undefined) => { if (v !== undefined) out[k] = v; };
  set('totalAmount', moneyField(doc, money.total, docCurrency));
  set('taxAmount', moneyField(doc, money.tax, docCurrency));
  set('subtotalAmount', moneyField(doc, money.subtotal, docCurrency));
  set('paidAmount', moneyField(doc, money.paid, docCurrency));
  set('discountAmount', moneyField(doc, money.discount, docCurrency));
  set('tipAmount', moneyField(doc, money.tip, docCurrency));
  set('roundingAmount', moneyField(doc, money.rounding, docCurrency));
  set('date', dateField(dates.date, ctx.extractTime));
  set('dueDate', dateField(dates.dueDate, false));
  const { evidence: merchantEvidence, addressEvidence, ...merchantFields } = merchant;
  for (const [k, v] of Object.entries(merchantFields)) set(k as keyof FieldResults, v as never);
  for (const [k, v] of Object.entries(ids)) set(k as keyof FieldResults, v as never);
  for (const [k, v] of Object.entries(payment)) set(k as keyof FieldResults, v as never);
  if (ctx.extractLineItems !== false) {
    const li = findLineItems(doc, locale, moneyFacts, money);
    out.lineItems = li.items;
    if (li.check) out.itemsCheck = li.check;
    out.taxLines = findTaxLines(moneyFacts, locale);
  }
  let contested: string | undefined;
  if (currency) {
    const anchor = out.totalAmount;
    const printedConf = locale.printedCurrency === currency ? Math.max(0.6, Math.min(0.95, 0.5 + locale.countryConfidence * 0.5))
      : Math.max(0.3, Math.min(placeSettlesCurrency(locale, currency) ? 0.95 : 0.85, locale.countryConfidence));
    // printed against the country's own currency: the two disagree, and a surer country does not make it surer
    const own = locale.currencyCues?.own;
    contested = currencyContested(locale, currency);
    const conf = (own && own !== currency) || contested ? Math.min(printedConf, CURRENCY_AGAINST_COUNTRY_MAX) : printedConf;
    out.currencyCode = anchor
      ? { ...anchor, value: currency, confidence: roundConfidence(conf), keyword: '-' }
      : { value: currency, confidence: roundConfidence(Math.min(conf, 0.6)), text: doc.lines[0]?.text ?? '', lineIndex: 0, keyword: '-', boxes: [], page: 0 };
    delete out.currencyCode.currencyCode;
  }
  out.evidence = {
    ...(money.total ? { totalAmount: money.total.evidence } : {}),
    ...(money.tax ? { taxAmount: money.tax.evidence } : {}),
    ...(dates.date ? { date: dates.date.evidence } : {}),
    ...(merchantEvidence ?? {}),
    ...(addressEvidence ? { merchantAddress: addressEvidence } : {}),
    locale: [`country=${locale.countryCode ?? '?'}@${locale.countryConfidence.toFixed(2)}`, `currency=${currency ?? '?'}`, `dayFirst=${locale.dayFirst}`, `decimalComma=${locale.decimalComma}`, `whole=${locale.wholeCurrency}`, ...(contested ? [`currency-contested:${contested}`] : []), ...locale.evidence],
  };
  return out;
}
