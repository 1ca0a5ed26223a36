/** What an amount on a receipt is, by the label printed next to it (locale/keywords.ts reads the labels). */
export const AMOUNT_ROLES = [
  'total', 'subtotal', 'taxBase', 'tax', 'taxIncluded', 'rounding', 'paid', 'change', 'discount', 'tip',
  'service', 'quantity', 'balance', 'deposit', 'points', 'info', 'unitPrice', 'foreign',
  /** "INCL. GST", "EXCL VAT" after a label: qualifies it, names no amount of its own. */
  'qualifier',
] as const;
export type AmountRole = (typeof AMOUNT_ROLES)[number];
