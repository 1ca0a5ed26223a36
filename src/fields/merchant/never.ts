/**
 * Never-name rules: a reading any of them rejects is no candidate. Opening hours, taglines, cashier and
 * card lines, street lines, price lines and counter lines are no name unless labelled or with a company form.
 */
import { fold } from '../text.js';
import { HOURS_RUN, MONEY_LINE, NEVER_NAME, countersOnly, digits, letters, squash, streetWords } from './patterns.js';
import type { NeverNameRule, Reading } from './types.js';

/** Neither after a merchant label nor with a company form: the lines the never-name patterns may drop. */
const plain = (r: Reading): boolean => !r.labelled && !r.suffix;

export const NEVER_NAME_RULES: readonly NeverNameRule[] = [
  {
    name: 'few-letters',
    doc: 'Fewer than two letters, or fewer letters than digits.',
    rejects: (r) => letters(r.value) < 2 || letters(r.value) < digits(r.value),
  },
  {
    name: 'ignored-name',
    doc: 'The name the caller asked to ignore: holds it, or is held in it (4+ characters).',
    rejects: (r, ctx) => !!ctx.ignore && (squash(r.value).includes(ctx.ignore) || (ctx.ignore.includes(squash(r.value)) && squash(r.value).length >= 4)),
  },
  {
    name: 'never-name-words',
    doc: 'Opening hours, a tagline to the customer, the cashier or server, a card payment, a question (NEVER_NAME).',
    rejects: (r) => plain(r) && NEVER_NAME.test(r.u),
  },
  {
    name: 'hours-run',
    doc: 'Opening hours however OCR spaced them ("SHOP PING HOUR S").',
    rejects: (r) => plain(r) && HOURS_RUN.test(squash(r.value)),
  },
  {
    name: 'street-words',
    doc: 'A street with its street word (Straße, -weg, "1221 South Florida Avenue", "83EddyStreet").',
    rejects: (r) => plain(r) && streetWords(r.value),
  },
  {
    name: 'money-line',
    doc: 'The line shows a price or an amount of money (an item, a card payment, a promotion), OCR\'s edge marks after it aside.',
    // OCR's edge marks after the amount ("| BAR TOTAL 20.40 |") do not hide it
    rejects: (r) => plain(r) && MONEY_LINE.test(fold(r.seg.line.text).replace(/[\s|!:;'"`~_\]\[]+$/, '')),
  },
  {
    name: 'counters-only',
    doc: 'Only numbered things of the header and numbers ("Store # 176", "SEAT NUMBER 1", "Dining").',
    rejects: (r) => plain(r) && countersOnly(r.value),
  },
];
