/**
 * Fiscal facts as evidence: a value a fiscal code states (codes/fiscal/) is the one the tax authority
 * received, so it enters the field at FISCAL_CONFIDENCE. Where the text read the same value, that reading
 * (its line, keyword, boxes) is kept and its confidence raised; where the text read another value or
 * none, the code's value wins, located on a line that prints it when one does, and a warning names the
 * disagreement. Codes that contradict each other decide nothing for that field.
 *
 * Fields: totalAmount, taxAmount, date, merchantTaxId, merchantCountryCode and currencyCode (the
 * format's country and currency) are decided by the code; invoiceNumber and merchantName only fill a
 * field the text left empty (a code's document id or legal name may be written otherwise on the page).
 */
import type { FieldResults, FoundNumber, Located } from '../fields/types.js';
import type { FiscalFact, PageCode } from '../contract/codes.js';

export const FISCAL_CONFIDENCE = 0.99;
/** Confidence of a field a code only fills (invoice number, legal name). */
export const FISCAL_FILL_CONFIDENCE = 0.9;

type Fact = FiscalFact & { code: Pick<PageCode, 'page'> };
type Decided = 'totalAmount' | 'taxAmount' | 'date' | 'merchantTaxId' | 'merchantCountryCode' | 'currencyCode';
type Filled = 'invoiceNumber' | 'merchantName';

export interface FiscalResolution { fields: FieldResults; warnings: string[] }

/** How a field compares a code's value with the text's. */
const SAME: Record<Decided, (a: string | number, b: string | number) => boolean> = {
  totalAmount: (a, b) => Math.abs(Number(a) - Number(b)) < 0.005,
  taxAmount: (a, b) => Math.abs(Number(a) - Number(b)) < 0.005,
  date: (a, b) => String(a).slice(0, 10) === String(b).slice(0, 10),
  merchantTaxId: (a, b) => sameTaxId(String(a), String(b)),
  merchantCountryCode: (a, b) => String(a).toUpperCase() === String(b).toUpperCase(),
  currencyCode: (a, b) => String(a).toUpperCase() === String(b).toUpperCase(),
};

/** Tax IDs compared on letters and digits; a country prefix (`PT`, `ES`) or a printed form (`12.345.678/0001-95`) is the same ID. */
export function sameTaxId(a: string, b: string): boolean {
  const na = a.toUpperCase().replace(/[^0-9A-Z]/g, ''), nb = b.toUpperCase().replace(/[^0-9A-Z]/g, '');
  if (!na || !nb) return false;
  if (na === nb) return true;
  const [short, long] = na.length < nb.length ? [na, nb] : [nb, na];
  return short.length >= 8 && long.endsWith(short) && /^[A-Z]{2}$/.test(long.slice(0, long.length - short.length));
}

/** The value a fact gives a field, in the field's form. */
function factValue(fact: Fact, field: Decided | Filled, extractTime: boolean): string | number | undefined {
  const f = fact.fields;
  switch (field) {
    case 'date': return f.date ? `${f.date}T${extractTime && f.time ? f.time : '12:00:00'}.000Z` : undefined;
    case 'merchantCountryCode': return fact.country;
    default: return f[field];
  }
}

/** The one value the facts agree on for a field, or a disagreement. */
function agreedValue(facts: Fact[], field: Decided | Filled, extractTime: boolean): { value: string | number; fact: Fact } | { conflict: string } | undefined {
  let out: { value: string | number; fact: Fact } | undefined;
  for (const fact of facts) {
    const v = factValue(fact, field, extractTime);
    if (v === undefined) continue;
    if (!out) out = { value: v, fact };
    else if (field in SAME ? !SAME[field as Decided](out.value, v) : out.value !== v) return { conflict: `${out.value} (${out.fact.scheme}) and ${v} (${fact.scheme})` };
  }
  return out;
}

/** Where the page prints an amount: its last occurrence among the money amounts (totals come late), else among all numbers. */
function printedAmount(fields: FieldResults, value: number): FoundNumber | undefined {
  const last = (list: FoundNumber[]) => list.filter((n) => Math.abs(n.value - value) < 0.005).sort((a, b) => b.lineIndex - a.lineIndex)[0];
  return last(fields.amounts) ?? last(fields.numbers);
}

/** A located value for what the code states: on the line that prints it, else at the code. */
function locate(fields: FieldResults, field: Decided | Filled, value: string | number, fact: Fact, confidence: number): Located<string | number> {
  const currency = fact.fields.currencyCode;
  const money = field === 'totalAmount' || field === 'taxAmount';
  const printed = money ? printedAmount(fields, Number(value)) : undefined;
  const base = printed
    ? { text: printed.text, lineIndex: printed.lineIndex, boxes: printed.boxes, page: printed.page }
    : { text: `${fact.scheme} code`, lineIndex: -1, boxes: [], page: fact.code.page };
  return { value, confidence, keyword: 'QR', ...base, ...(money && currency ? { currencyCode: currency } : {}) };
}

function withEvidence(fields: FieldResults, field: string, term: string): Record<string, string[]> {
  const ev = { ...(fields.evidence ?? {}) };
  ev[field] = [...(ev[field] ?? []).filter((t) => !t.startsWith('rule:')), term, 'rule:fiscal-code'];
  return ev;
}

/** Decides one field from the facts; returns the warning, if any. */
function decide(fields: FieldResults, facts: Fact[], field: Decided, extractTime: boolean): string | undefined {
  const agreed = agreedValue(facts, field, extractTime);
  if (!agreed) return undefined;
  if ('conflict' in agreed) return `fiscal codes disagree on ${field}: ${agreed.conflict}; the codes decide nothing for it`;
  const current = fields[field] as Located<string | number> | undefined;
  const scheme = agreed.fact.scheme;
  if (current && SAME[field](current.value, agreed.value)) {
    (fields as unknown as Record<string, unknown>)[field] = { ...current, confidence: Math.max(current.confidence, FISCAL_CONFIDENCE) };
    fields.evidence = withEvidence(fields, field, `fiscal-code:${scheme}(agrees)`);
    return undefined;
  }
  (fields as unknown as Record<string, unknown>)[field] = locate(fields, field, agreed.value, agreed.fact, FISCAL_CONFIDENCE);
  fields.evidence = withEvidence(fields, field, `fiscal-code:${scheme}(${current ? 'overrides' : 'fills'})`);
  return current ? `the ${scheme} fiscal code gives ${field} ${agreed.value} where the text reads ${current.value}; the code's value is used` : undefined;
}

/** Fills an empty field from the facts. */
function fill(fields: FieldResults, facts: Fact[], field: Filled): void {
  if (fields[field]) return;
  const agreed = agreedValue(facts, field, false);
  if (!agreed || 'conflict' in agreed) return;
  (fields as unknown as Record<string, unknown>)[field] = locate(fields, field, String(agreed.value), agreed.fact, FISCAL_FILL_CONFIDENCE);
}

const DECIDED: readonly Decided[] = ['totalAmount', 'taxAmount', 'date', 'merchantTaxId', 'merchantCountryCode', 'currencyCode'];
const FILLED: readonly Filled[] = ['invoiceNumber', 'merchantName'];

/** The fields with the fiscal facts weighed in, and the warnings that name each disagreement. */
export function applyFiscalFacts(fields: FieldResults, facts: readonly Fact[], opts: { extractTime: boolean }): FiscalResolution {
  if (!facts.length) return { fields, warnings: [] };
  const out: FieldResults = { ...fields };
  const warnings: string[] = [];
  for (const field of DECIDED) {
    const w = decide(out, [...facts], field, opts.extractTime);
    if (w) warnings.push(w);
  }
  for (const field of FILLED) fill(out, [...facts], field);
  return { fields: out, warnings };
}
