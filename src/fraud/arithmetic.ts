/**
 * Does the receipt's arithmetic hold around the total? Three relations are checked on what the field
 * finders read: the line items against the subtotal/total (`itemsCheck`), subtotal (+ tax, rounding,
 * tip, - discount) against the total, and paid - change against the total. An edited total breaks the
 * relations it takes part in while the untouched amounts still agree among themselves; OCR misreadings
 * break them too, which is why this is a weak signal on its own (see SIGNAL_SCORES in index.ts).
 */
import type { Document } from '../document/types.js';
import type { FieldResults } from '../fields/types.js';
import { ROLE_RULES, canonicalWord } from '../locale/keywords.js';

export interface Relation {
  name: 'items' | 'subtotal-sum' | 'paid-change';
  holds: boolean;
  /** e.g. `27.40 + 1.64 + 0.01 = 29.05 (total 29.05)` */
  formula: string;
}

export interface ArithmeticCheck {
  relations: Relation[];
  /** Relations that fail, and that hold. */
  failing: number;
  holding: number;
}

/** Every rule of the change role (keywords.ts and the language folders' labels: CHANGE, KEMBALI, TIỀN THỪA). */
const CHANGE_RULES = ROLE_RULES.filter((r) => r.role === 'change').map((r) => r.re);
const round2 = (x: number) => Math.round(x * 100) / 100;

/** The value of a located field, when it has one with some confidence. */
function val(f: { value: number; confidence: number } | undefined): number | undefined {
  return f && Number.isFinite(f.value) && f.confidence > 0 ? f.value : undefined;
}

/** Checks the relations around the total; relations without their addends are left out. */
export function checkArithmetic(fields: FieldResults, doc: Document): ArithmeticCheck {
  const total = val(fields.totalAmount);
  const relations: Relation[] = [];
  if (total === undefined || total <= 0) return { relations, failing: 0, holding: 0 };
  const whole = Number.isInteger(total) && total >= 1000; // whole-unit currencies (IDR, JPY, ...)
  const tol = whole ? 0.5 : 0.015;
  const same = (a: number, b: number) => Math.abs(a - b) < tol;

  // 1. line items (at least two), as the item finder compared them
  const c = fields.itemsCheck;
  if (c && (fields.lineItems?.length ?? 0) >= 2) {
    relations.push({ name: 'items', holds: c.matches, formula: `items ${round2(c.itemsSum)} vs ${c.against === 'none' ? 'total' : c.against} ${c.expected ?? total}` });
  }

  // 2. subtotal + optional tax, rounding, tip, service-like extras - discount
  const sub = val(fields.subtotalAmount);
  if (sub !== undefined && sub > 0 && !same(sub, total)) {
    const opt = [val(fields.taxAmount), val(fields.roundingAmount), val(fields.tipAmount)].filter((v): v is number => v !== undefined && v !== 0);
    const disc = val(fields.discountAmount);
    if (disc !== undefined && disc !== 0) opt.push(-Math.abs(disc));
    let holds = false, formula = '';
    for (let mask = 1; mask < 1 << opt.length && !holds; mask++) {
      const picked = opt.filter((_, i) => mask & (1 << i));
      const v = sub + picked.reduce((s, x) => s + x, 0);
      if (same(v, total)) { holds = true; formula = `${[sub, ...picked].join(' + ')} = ${round2(v)} (total ${total})`; }
    }
    // prices including tax: the subtotal may already be the total less rounding only
    if (opt.length || holds) relations.push({ name: 'subtotal-sum', holds, formula: holds ? formula : `subtotal ${sub} with ${opt.join(', ')} never makes the total ${total}` });
  }

  // 3. paid - change
  const paid = val(fields.paidAmount);
  if (paid !== undefined && paid > total + tol) {
    const change = changeAmount(fields, doc);
    if (change !== undefined && change > 0) {
      const holds = same(paid - change, total);
      relations.push({ name: 'paid-change', holds, formula: `paid ${paid} - change ${change} = ${round2(paid - change)} (total ${total})` });
    }
  }
  const failing = relations.filter((r) => !r.holds).length;
  return { relations, failing, holding: relations.length - failing };
}

/** The last amount on a line labelled as change (CHANGE, KEMBALI, BAKI, RENDU, ...). */
function changeAmount(fields: FieldResults, doc: Document): number | undefined {
  for (const a of fields.lineAmounts) {
    const line = doc.lines[a.lineIndex];
    if (!line) continue;
    const canon = line.text.split(/\s+/).map((w) => canonicalWord(w)).filter(Boolean).join(' ');
    if (CHANGE_RULES.some((re) => re.test(canon))) return a.value;
  }
  return undefined;
}
