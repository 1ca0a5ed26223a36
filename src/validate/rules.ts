/**
 * Rule evaluation (contract section 4): a ValidationSubject (what the extraction read) and a parsed
 * rule set in, the validation result out, with a sentence per check saying why it passed or failed.
 * Pure: the similarity lookup is done by the caller (it needs the store) and passed in.
 */
import type {
  CheckName, SimilarReceipt, ValidationLineItem, ValidationResult, ValidationRules,
} from '../contract/validation.js';
import { CHECK_NAMES } from '../contract/validation.js';
import type { SubjectLineItem, ValidationSubject } from './subject.js';
import { bestMatch, codeKey } from './names.js';

/** A stored receipt like this one, with what made it similar (the hook in src/store/similar.ts). */
export interface SimilarMatch extends SimilarReceipt {
  /** Why, for the reason sentence: e.g. "same file". */
  basis: string;
}

export interface EvaluateContext {
  trackingId: string;
  /** Stored receipts like this one (for `fraudDetection.allowSimilarityCheck` and `similarReceipts`). */
  similar: SimilarMatch[];
  /** Where similar receipts were looked for, for the reason: e.g. `in container "c-1"`. */
  similarityScope?: string;
}

/** Scores above this flag a likely duplicate (contract section 3). */
export const DUPLICATE_SCORE = 0.9;
/** Lines at the top of the receipt searched for merchant list entries besides the merchant name. */
export const HEADER_LINES = 8;

const money = (v: number) => v.toFixed(2);
const quote = (s: string) => `"${s.replace(/\s+/g, ' ').trim()}"`;
const preview = (list: string[], n = 3) => list.slice(0, n).map(quote).join(', ') + (list.length > n ? ` and ${list.length - n} more` : '');
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const round2 = (v: number) => Math.round(v * 100) / 100;

interface Outcome { check: CheckName; passed: boolean; reason: string }

function dateCheck(s: ValidationSubject, rule: NonNullable<ValidationRules['date']>): Outcome {
  const start = rule.start.slice(0, 10);
  const end = rule.end.slice(0, 10);
  const check = 'campaign_date_validated' as const;
  if (!s.date) return { check, passed: false, reason: `no date was read from the receipt (campaign period ${start} to ${end})` };
  const day = s.date.slice(0, 10);
  if (day < start) return { check, passed: false, reason: `date ${day} is before campaign start ${start}` };
  if (day > end) return { check, passed: false, reason: `date ${day} is after campaign end ${end}` };
  return { check, passed: true, reason: `date ${day} is within the campaign period ${start} to ${end}` };
}

function merchantCheck(s: ValidationSubject, rule: NonNullable<ValidationRules['merchantNames']>): Outcome & { fromList?: string } {
  const check = 'merchant_name_validated' as const;
  const allow = [...(rule.allowList ?? []), ...(rule.list ?? [])];
  const block = rule.blockList ?? [];
  const name = s.merchantName;
  const header = s.lines.slice(0, HEADER_LINES).filter((l) => l.trim());
  const opts = { ignoreLegalForms: true };

  // a block-list hit always wins, on the merchant name or anywhere in the receipt's header
  if (block.length) {
    const hit = bestMatch(name ? [name, ...header] : header, block, opts);
    if (hit?.matched) {
      return {
        check, passed: false,
        reason: name && hit.candidate === name
          ? `merchant ${quote(name)} matches block-list entry ${quote(hit.entry)}`
          : `block-list entry ${quote(hit.entry)} appears on the receipt (${quote(hit.candidate)})`,
      };
    }
  }
  if (allow.length) {
    const byName = name ? bestMatch([name], allow, opts) : undefined;
    if (byName?.matched) {
      return { check, passed: true, reason: `merchant ${quote(name!)} matches allow-list entry ${quote(byName.entry)}`, fromList: byName.entry };
    }
    const byHeader = bestMatch(header, allow, opts);
    if (byHeader?.matched) {
      return {
        check, passed: true, fromList: byHeader.entry,
        reason: `allow-list entry ${quote(byHeader.entry)} appears on the receipt (${quote(byHeader.candidate)})${name ? ` although the merchant was read as ${quote(name)}` : ''}`,
      };
    }
    if (!name) return { check, passed: false, reason: 'no merchant name was read and no allow-list entry appears on the receipt' };
    const closest = byName && byName.score > 0 ? ` (closest entry ${quote(byName.entry)}, similarity ${byName.score.toFixed(2)})` : '';
    return { check, passed: false, reason: `merchant ${quote(name)} is not on the allow list${closest}` };
  }
  if (block.length) {
    return { check, passed: true, reason: name ? `merchant ${quote(name)} is not on the block list` : 'no merchant name was read and no block-list entry appears on the receipt' };
  }
  if (!name) return { check, passed: false, reason: 'no merchant name was read' };
  return { check, passed: true, reason: `merchant ${quote(name)} was read (no allow or block list is set)` };
}

const itemQuantity = (i: SubjectLineItem) => (i.quantity !== null && i.quantity > 0 ? i.quantity : 1);
const itemTotal = (i: SubjectLineItem) => i.totalPrice ?? (i.unitPrice !== null ? round2(i.unitPrice * itemQuantity(i)) : 0);

function rangeProblem(what: string, v: number, r: { min?: number | undefined; max?: number | undefined } | undefined, fmt: (n: number) => string): string | undefined {
  if (!r) return undefined;
  if (r.min !== undefined && v < r.min) return `${what} ${fmt(v)} is below the minimum ${fmt(r.min)}`;
  if (r.max !== undefined && v > r.max) return `${what} ${fmt(v)} is above the maximum ${fmt(r.max)}`;
  return undefined;
}

function lineItemsCheck(s: ValidationSubject, rule: NonNullable<ValidationRules['productLineItems']>): Outcome & { matched: SubjectLineItem[] } {
  const check = 'product_line_items_validated' as const;
  const items = s.lineItems;
  if (!items.length) return { check, passed: false, reason: 'no product line items were read from the receipt', matched: [] };
  const names = rule.names ?? [];
  let matched = items;
  let which = `all ${plural(items.length, 'line item')}`;
  if (names.length) {
    const scored = items.map((i) => ({ item: i, m: bestMatch([i.name], names) }));
    matched = scored.filter((x) => x.m?.matched).map((x) => x.item);
    if (!matched.length) {
      const closest = scored.filter((x) => x.m && x.m.score > 0).sort((a, b) => b.m!.score - a.m!.score)[0];
      const hint = closest ? ` (closest: ${quote(closest.item.name)} for ${quote(closest.m!.entry)}, similarity ${closest.m!.score.toFixed(2)})` : '';
      return { check, passed: false, reason: `no line item matches ${preview(names)}${hint}`, matched: [] };
    }
    which = `${plural(matched.length, 'line item')} matching ${preview(names)}`;
  }
  const qty = round2(matched.reduce((a, i) => a + itemQuantity(i), 0));
  const total = round2(matched.reduce((a, i) => a + itemTotal(i), 0));
  const problem = rangeProblem(`quantity`, qty, rule.quantity, String) ?? rangeProblem('total price', total, rule.totalPrice, money);
  if (problem) return { check, passed: false, reason: `${problem} (${which})`, matched };
  return { check, passed: true, reason: `${which}: quantity ${qty}, total price ${money(total)}`, matched };
}

const MONEY_TOKEN = /\d[.,]\d{1,2}$/;

function productCodesCheck(s: ValidationSubject, rule: NonNullable<ValidationRules['productCodes']>): Outcome & { found: string[] } {
  const check = 'product_codes_validated' as const;
  const list = rule.list ?? [];
  const itemCodes = s.lineItems.map((i) => i.productCode).filter((c): c is string => !!c);
  const found: string[] = [];
  for (const code of list) {
    const numeric = /^\d+$/.test(code.replace(/[\s.-]/g, ''));
    const key = codeKey(code, numeric);
    if (!key) continue;
    let hit = itemCodes.some((c) => codeKey(c, numeric) === key);
    // also printed anywhere on the receipt (the line-item finder may not have split it off); short
    // codes only from line items, and never inside a money amount
    if (!hit && key.length >= 4) {
      const joinPairs = /[\s-]/.test(code.trim());
      hit = s.lines.some((line) => {
        const tokens = line.split(/\s+/).filter((t) => t && !MONEY_TOKEN.test(t));
        if (tokens.some((t) => codeKey(t, numeric) === key)) return true;
        if (joinPairs) for (let i = 0; i + 1 < tokens.length; i++) if (codeKey(tokens[i]! + tokens[i + 1]!, numeric) === key) return true;
        return false;
      });
    }
    if (hit && !found.includes(code)) found.push(code);
  }
  const desc = rule.description ? ` (${rule.description})` : '';
  if (found.length) {
    return { check, passed: true, reason: `${found.length === 1 ? 'product code' : 'product codes'} ${found.join(', ')}${desc} found on the receipt`, found };
  }
  const read = itemCodes.length ? `; codes read: ${itemCodes.slice(0, 5).join(', ')}` : '';
  return { check, passed: false, reason: `none of the ${plural(list.length, 'campaign product code')}${desc} was found on the receipt${read}`, found };
}

const BALANCE_LABEL = /\b(?:balance\s*(?:due|owing|outstanding|remaining|payable)|outstanding\s*(?:balance|amount)|remaining\s*balance|amount\s*outstanding|bal(?:ance)?\.?\s*due)\b/i;

/** The balance still owed: a printed balance-due line, else total - paid, else 0 when a payment method was read. */
export function balanceOwing(s: ValidationSubject): { amount: number | null; basis: string } {
  for (let i = 0; i < s.lines.length; i++) {
    if (!BALANCE_LABEL.test(s.lines[i]!)) continue;
    const a = s.lineAmounts.filter((x) => x.line === i).at(-1);
    if (a) return { amount: round2(a.value), basis: `printed on the line ${quote(s.lines[i]!)}` };
  }
  if (s.totalAmount !== null && s.paidAmount !== null) {
    return { amount: round2(Math.max(0, s.totalAmount - s.paidAmount)), basis: `total ${money(s.totalAmount)}, paid ${money(s.paidAmount)}` };
  }
  if (s.totalAmount !== null && s.paymentType) {
    return { amount: 0, basis: `total ${money(s.totalAmount)} paid by ${s.paymentType}` };
  }
  return { amount: null, basis: s.totalAmount === null ? 'no total was read' : 'no paid amount, payment or balance line was read' };
}

function balanceCheck(s: ValidationSubject, rule: NonNullable<ValidationRules['balanceOwing']>): Outcome {
  const check = 'balance_owing_validated' as const;
  const max = rule.max ?? 0;
  const b = balanceOwing(s);
  if (b.amount === null) return { check, passed: false, reason: `the balance owing could not be determined: ${b.basis}` };
  if (b.amount > max + 1e-9) return { check, passed: false, reason: `balance owing ${money(b.amount)} is over the maximum ${money(max)} (${b.basis})` };
  return { check, passed: true, reason: `balance owing ${money(b.amount)} is within the maximum ${money(max)} (${b.basis})` };
}

const TYPE_NAMES = { receipt: 'a receipt', invoice: 'an invoice', other: 'not a receipt or an invoice' } as const;

function documentTypeCheck(s: ValidationSubject, rule: NonNullable<ValidationRules['documentType']>): Outcome {
  const check = 'document_type_validated' as const;
  const d = s.documentType;
  if (!d) return { check, passed: false, reason: 'the kind of document is not known for this scan (it was read before document types existed); validate it again with refresh' };
  const why = d.evidence.length ? `; evidence: ${d.evidence.slice(0, 6).join(', ')}` : '';
  const what = `the document is ${TYPE_NAMES[d.type]} (confidence ${d.confidence.toFixed(2)}${why})`;
  if (d.type === 'other' && !rule.allowOther) return { check, passed: false, reason: `${what}; such documents are not accepted (documentType.allowOther is not true)` };
  if (d.type === 'invoice' && rule.allowInvoice === false) return { check, passed: false, reason: `${what}; invoices are not accepted (documentType.allowInvoice is false)` };
  return { check, passed: true, reason: what };
}

function uniqueCheck(ctx: EvaluateContext): Outcome {
  const check = 'fraud_detection_unique_receipt_validated' as const;
  const scope = ctx.similarityScope ? ` ${ctx.similarityScope}` : '';
  const dupes = ctx.similar.filter((m) => m.similarityScore > DUPLICATE_SCORE);
  if (!dupes.length) {
    const closest = ctx.similar[0];
    const near = closest ? `; the closest, receipt ${closest.trackingId}, scores ${closest.similarityScore.toFixed(2)}: ${closest.basis}` : '';
    return { check, passed: true, reason: `no earlier receipt${scope} is a likely duplicate (the same file, or a similarity above ${DUPLICATE_SCORE} from the image, merchant, date, time, total, number, amounts and text)${near}` };
  }
  const first = dupes[0]!;
  const more = dupes.length > 1 ? ` and ${plural(dupes.length - 1, 'other')}` : '';
  const who = [first.userId ? `user ${first.userId}` : '', first.referenceId ? `reference ${first.referenceId}` : ''].filter(Boolean).join(', ');
  return {
    check, passed: false,
    reason: `likely duplicate of receipt ${first.trackingId}${who ? ` (${who})` : ''}${more}${scope}: ${first.basis} (similarity ${first.similarityScore.toFixed(2)})`,
  };
}

/** Image-editing software that leaves its name in EXIF Software / PDF Producer or Creator. */
const EDITORS = /\b(photoshop|gimp|pixelmator|affinity photo|paint\.net|lightroom|snapseed|picsart|canva|photopea|facetune|fotor|pixlr|paintshop|corel(?:draw| photo)|acdsee)\b/i;

function tamperCheck(s: ValidationSubject): Outcome {
  const check = 'fraud_detection_not_tampered_validated' as const;
  const t = s.tamperingDetection;
  if (t) {
    // the detector's signals (src/fraud): say which fired and why
    const fired = Array.isArray(t.details) ? (t.details as Array<{ signal?: unknown; reason?: unknown }>).filter((d) => typeof d?.signal === 'string') : [];
    const why = fired.length ? `: ${fired.map((d) => `${String(d.signal)}${typeof d.reason === 'string' ? ` (${d.reason})` : ''}`).join('; ')}` : '';
    return t.isTampered
      ? { check, passed: false, reason: `tampering detected (score ${t.tamperedScore.toFixed(2)})${why}` }
      : { check, passed: true, reason: `no tampering detected (score ${t.tamperedScore.toFixed(2)})${why ? `; weak signals${why}` : ''}` };
  }
  const m = s.metadata;
  for (const [what, v] of [['software', m.software], ['PDF producer', m.producer], ['PDF creator', m.creator]] as const) {
    const hit = v ? EDITORS.exec(v) : null;
    if (hit) return { check, passed: false, reason: `the file was saved by image-editing software (${what}: ${quote(v!)})` };
  }
  return { check, passed: true, reason: 'no tampering signal available: there is no tamper detector output for this scan and the file metadata names no image-editing software' };
}

function digitalCheck(s: ValidationSubject): Outcome {
  const check = 'fraud_detection_not_digital_validated' as const;
  const d = s.digitalDetection;
  if (d) {
    return d.isDigital
      ? { check, passed: false, reason: `the receipt is a digital document, not a photo or scan of paper (score ${d.digitalScore.toFixed(2)})` }
      : { check, passed: true, reason: `the receipt is not a digital document (score ${d.digitalScore.toFixed(2)})` };
  }
  if (s.textLayer) return { check, passed: false, reason: 'the file is a PDF with a text layer: a digital document, not a photo or scan of paper' };
  return { check, passed: true, reason: `no digital-document signal: the file is ${s.mediaType === 'application/pdf' ? 'a scanned PDF without a text layer' : `an image (${s.mediaType})`} and there is no digital detector output for this scan` };
}

const MODEL_NUMBER = /^(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]{2,}[A-Z0-9]$/i;
const UNIT = /^\d+(?:[.,]\d+)?(?:oz|g|gm|kg|ml|cl|l|lb|lbs|ct|pc|pcs|pk|pack|x|mm|cm|m|in|ft|gb|tb)$/i;

/** A model number for a line item: its product code, else a letters-and-digits token of its name. */
export function modelNumberOf(i: SubjectLineItem): string | null {
  if (i.productCode) return i.productCode;
  const token = i.name.split(/\s+/).find((t) => MODEL_NUMBER.test(t) && !UNIT.test(t));
  return token ?? null;
}

/** Evaluates a parsed rule set against what the extraction read. */
export function evaluateRules(s: ValidationSubject, rules: ValidationRules, ctx: EvaluateContext): ValidationResult {
  const outcomes: Outcome[] = [];
  let merchantName = s.merchantName;
  let matchedItems: SubjectLineItem[] = [];
  const codes: string[] = [...new Set(s.lineItems.map((i) => i.productCode).filter((c): c is string => !!c))];

  if (rules.date) outcomes.push(dateCheck(s, rules.date));
  if (rules.merchantNames && !rules.merchantNames.skip) {
    const o = merchantCheck(s, rules.merchantNames);
    outcomes.push(o);
    if (rules.merchantNames.returnFromTheList && o.fromList) merchantName = o.fromList;
  }
  if (rules.productLineItems && !rules.productLineItems.skip) {
    const o = lineItemsCheck(s, rules.productLineItems);
    outcomes.push(o);
    matchedItems = o.matched;
  }
  if (rules.productCodes && !rules.productCodes.skip) {
    const o = productCodesCheck(s, rules.productCodes);
    outcomes.push(o);
    for (const c of o.found) if (!codes.some((x) => codeKey(x, false) === codeKey(c, false))) codes.push(c);
  }
  if (rules.balanceOwing && !rules.balanceOwing.skip) outcomes.push(balanceCheck(s, rules.balanceOwing));
  if (rules.documentType && !rules.documentType.skip) outcomes.push(documentTypeCheck(s, rules.documentType));
  const fraud = rules.fraudDetection ?? {};
  if (fraud.allowSimilarityCheck) outcomes.push(uniqueCheck(ctx));
  if (fraud.allowTamperDetection) outcomes.push(tamperCheck(s));
  if (fraud.allowDigitalDetection) outcomes.push(digitalCheck(s));

  outcomes.sort((a, b) => CHECK_NAMES.indexOf(a.check) - CHECK_NAMES.indexOf(b.check));
  const reasons: ValidationResult['reasons'] = {};
  for (const o of outcomes) reasons[o.check] = o.reason;
  const passed = outcomes.filter((o) => o.passed).map((o) => o.check);
  const failed = outcomes.filter((o) => !o.passed).map((o) => o.check);

  const withModel = rules.additionalExtractionFields?.includes('modelNumber') ?? false;
  const item = (i: SubjectLineItem): ValidationLineItem => {
    const out: ValidationLineItem = { name: i.name, unitPrice: i.unitPrice, totalPrice: i.totalPrice, quantity: i.quantity };
    if (withModel) out.modelNumber = modelNumberOf(i);
    return out;
  };

  return {
    successful: failed.length === 0,
    passedValidations: passed,
    failedValidations: failed,
    reasons,
    productLineItems: s.lineItems.map(item),
    matchedProductLineItems: matchedItems.map(item),
    date: s.date,
    merchantName,
    merchantAddress: s.merchantAddress,
    merchantCity: s.merchantCity,
    merchantPostalCode: s.merchantPostalCode,
    merchantState: s.merchantState,
    merchantCountryCode: s.merchantCountryCode,
    productCodes: codes,
    balanceAmount: balanceOwing(s).amount,
    totalAmount: s.totalAmount,
    receiptNumber: s.receiptNumber,
    invoiceNumber: s.invoiceNumber,
    trackingId: ctx.trackingId,
    targetRotation: s.targetRotation,
    similarReceipts: ctx.similar.map(({ referenceId, userId, trackingId, similarityScore }) => ({
      ...(referenceId !== undefined ? { referenceId } : {}),
      ...(userId !== undefined ? { userId } : {}),
      trackingId, similarityScore,
    })),
  };
}
