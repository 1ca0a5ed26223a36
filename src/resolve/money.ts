/**
 * Chooses the total and the other money fields among the finders' candidates. A total is a value, not
 * a line: every printed occurrence and every arithmetic derivation of the same value is evidence for
 * it. The chosen value's confidence is computed from that evidence (keyword strength, paid - change,
 * subtotal + tax, items, tax summary, repetition, being the largest amount) and from its rivals.
 *
 * The work is an ordered list of small named rules (as chrono-node lists its parsers and refiners), in
 * `money/`: the candidate-building steps (candidates.ts), the total's scoring terms TOTAL_TERMS
 * (total.ts), and for each other field its rules, the first that gives a value deciding (fields.ts,
 * TAX_RULES in tax.ts). Each chosen amount's evidence ends with `rule:<name>`, the rule that decided it.
 */
import type { ChosenAmount, MoneyFacts, MoneyResolution } from '../fields/amounts.js';
import type { Amount } from '../fields/numbers.js';
import { moneyContext } from './money/candidates.js';
import { FIELD_RULES } from './money/fields.js';
import { firstHit, pickContext } from './money/pick.js';
import { chooseTax, taxCandidates } from './money/tax.js';
import { chooseTotal } from './money/total.js';
import type { RankModel } from './field-model.js';
import { tapCandidates } from './model.js';

export type { ChosenAmount, MoneyResolution } from '../fields/amounts.js';

/**
 * Chooses the money fields: builds the candidates, scores the total, then runs each field's rules. `model`
 * ranks the total's candidates and `taxModel` the tax's (field-model.ts), when the caller asks for them.
 */
export function resolveMoney(facts: MoneyFacts, opts: { wholeCurrency: boolean; lineCount: number; model?: RankModel; taxModel?: RankModel }): MoneyResolution {
  const ctx = moneyContext(facts, opts);
  const out: MoneyResolution = {};
  const total = chooseTotal(ctx, undefined, opts.model);
  if (total) out.total = total;
  const pc = pickContext(ctx, total?.value);
  for (const { field, rules } of FIELD_RULES) {
    if (field === 'tax') tapCandidates('tax', () => taxCandidates(pc));
    const hit = field === 'tax' ? chooseTax(pc, opts.taxModel) : firstHit(rules, pc);
    if (hit) out[field] = hit;
  }
  return out;
}

/**
 * The tax of the same facts weighed against a total chosen elsewhere (another reading's, when the
 * readings' totals differ): the tax rules run with that total, as resolveMoney runs them with its own.
 */
export function resolveTaxAt(facts: MoneyFacts, opts: { wholeCurrency: boolean; lineCount: number; taxModel?: RankModel }, total: number): ChosenAmount | undefined {
  return chooseTax(pickContext(moneyContext(facts, opts), total), opts.taxModel);
}

export type { Amount };
