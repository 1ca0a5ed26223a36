/**
 * Label derivation for the training pool: each source's own annotation turned into the corpus's label schema
 * (`../shared/corpus/README.md`: merchantName, merchantAddress, date YYYY-MM-DD, totalAmount, taxAmount,
 * currency). Every function returns `{ label, notes }`; a field is left out (not scored) whenever the source's
 * annotation does not settle it, and `notes` says why, so that a pool label is never a guess.
 * Pure functions (no I/O): test/pool-labels.test.ts checks them.
 */

/** A four-digit year from a two-digit one (receipts of these sets are from 2000-2099). */
const fullYear = (y) => (y.length === 2 ? 2000 + Number(y) : Number(y));
const MONTHS = { JAN: 1, FEB: 2, MAR: 3, APR: 4, MAY: 5, JUN: 6, JUL: 7, AUG: 8, SEP: 9, OCT: 10, NOV: 11, DEC: 12 };

/** YYYY-MM-DD when the three numbers make a calendar date in 2000-2099, else undefined. */
export function isoDate(y, m, d) {
  if (!(y >= 2000 && y <= 2099 && m >= 1 && m <= 12 && d >= 1 && d <= 31)) return undefined;
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCMonth() !== m - 1) return undefined;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * Every date printed in a text, as `{ iso, ambiguous }`: numeric d/m/y (or y/m/d) with / - . separators and
 * "25 DEC 2018"-style month names. `order` says how to read a numeric date whose day and month could swap:
 * 'dmy' (day first), 'mdy' (month first) or 'none' (such a date is ambiguous and kept with `ambiguous: true`).
 */
export function datesIn(text, order) {
  const out = [];
  const s = String(text).toUpperCase();
  for (const m of s.matchAll(/(?<![\d])(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})(?![\d])/g)) {
    const iso = isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
    if (iso) out.push({ iso, ambiguous: false });
  }
  for (const m of s.matchAll(/(?<![\d])(\d{1,2})\s?[/.-]\s?(\d{1,2})\s?[/.-]\s?(\d{4}|\d{2})(?![\d])/g)) {
    const a = Number(m[1]), b = Number(m[2]), y = fullYear(m[3]);
    const dmy = isoDate(y, b, a), mdy = isoDate(y, a, b);
    if (dmy && mdy && dmy !== mdy) {
      if (order === 'dmy') out.push({ iso: dmy, ambiguous: false });
      else if (order === 'mdy') out.push({ iso: mdy, ambiguous: false });
      else out.push({ iso: dmy, ambiguous: true });
    } else if (dmy || mdy) out.push({ iso: dmy ?? mdy, ambiguous: false });
  }
  for (const m of s.matchAll(/(?<![\dA-Z])(\d{1,2})[\s.-]*(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*[\s.,-]*(\d{4}|\d{2})(?![\d])/g)) {
    const iso = isoDate(fullYear(m[3]), MONTHS[m[2]], Number(m[1]));
    if (iso) out.push({ iso, ambiguous: false });
  }
  for (const m of s.matchAll(/(?<![A-Z])(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*[\s.]*(\d{1,2}),?\s*(\d{4})(?![\d])/g)) {
    const iso = isoDate(Number(m[3]), MONTHS[m[1]], Number(m[2]));
    if (iso) out.push({ iso, ambiguous: false });
  }
  return out;
}

/** The one date the texts print (all the same day), or a note why there is none. */
export function oneDate(texts, order) {
  const found = texts.flatMap((t) => datesIn(t, order));
  if (found.length === 0) return { note: `date: no date in ${JSON.stringify(texts).slice(0, 80)}` };
  if (found.some((d) => d.ambiguous)) return { note: `date: day/month order not settled in ${JSON.stringify(texts).slice(0, 80)}` };
  const days = [...new Set(found.map((d) => d.iso))];
  if (days.length !== 1) return { note: `date: several dates ${days.join(', ')}` };
  return { date: days[0] };
}

/**
 * An amount with two decimals as printed in a label ("RM 3.90", "1,234.50", "$12.00", "12,50"): the number,
 * or undefined when the text is not one amount.
 */
export function decimalAmount(text) {
  const bare = String(text).replace(/[A-Za-z$€£¥₹:*\s]+/g, '');
  // cents alone, printed without a leading zero (".82" on a US receipt): 0.82, not 82
  const cents = /^[.,](\d{2})[^\d]*$/.exec(bare);
  if (cents) return Number(`0.${cents[1]}`);
  const s = bare.replace(/^[^\d-]+|[^\d]+$/g, '');
  let m = /^(\d{1,3}(?:,\d{3})+|\d+)\.(\d{2})$/.exec(s);
  if (m) return Number(`${m[1].replace(/,/g, '')}.${m[2]}`);
  m = /^(\d{1,3}(?:\.\d{3})+|\d+),(\d{2})$/.exec(s);
  if (m) return Number(`${m[1].replace(/\./g, '')}.${m[2]}`);
  m = /^\d+$/.exec(s);
  if (m && s.length <= 6) return Number(s);
  return undefined;
}

/** A whole-currency amount (VND, IDR): '.', ',' or space group thousands; a trailing ,00 / .00 is dropped. */
export function wholeAmount(text) {
  const s = String(text).trim().replace(/(?:VND|VNĐ|đ|Đ|Rp\.?|IDR)/gi, '').trim().replace(/[.,]00$/, '');
  // a box holding the same amount twice ("253.000 253.000", a label and a column read as one box): that
  // amount, not one number grouped by the space; two different amounts: none
  const pieces = s.split(/\s+/);
  if (pieces.length > 1 && pieces.every((p) => /^\d{1,3}(?:[.,]\d{3})+$/.test(p))) {
    const values = new Set(pieces.map((p) => Number(p.replace(/[.,]/g, ''))));
    return values.size === 1 ? [...values][0] : undefined;
  }
  if (!/^\d{1,3}(?:[.,\s]\d{3})+$|^\d+$/.test(s)) return undefined;
  const n = Number(s.replace(/[.,\s]/g, ''));
  return n > 0 ? n : undefined;
}

const cents = (v) => Math.round(v * 100);
const cy = (b) => (b.y0 + b.y1) / 2;

/**
 * Does the source's own transcript (amountBoxes: SROIE's `data/box` rows or WildReceipt's boxes) show the
 * labelled total as the amount before cash rounding? True when the label is not a multiple of 0.05, a small
 * amount r (0 < |r| <= 0.05, "0.02", "-0.02", "0.02-", "(0.02)") is printed below every printing of the label,
 * and below r the label moved by r is printed as a multiple of 0.05: "TOTAL 26.82 / Rounding -0.02 / Amount to
 * be paid 26.80". SROIE's keys mostly label the amount paid after rounding, in WildReceipt only 3 of 398
 * totals are before a rounding line; such a label is the other convention, and the total is left out (not
 * scored, not trained on) rather than guessed.
 */
export function totalBeforeRounding(boxCsv, total) {
  if (cents(total) % 5 === 0) return false;
  const boxes = amountBoxes(boxCsv);
  const printed = boxes.filter((b) => cents(b.abs) === cents(total));
  if (!printed.length) return false;
  const lowest = Math.max(...printed.map(cy));
  for (const r of boxes.filter((b) => b.abs > 0 && b.abs <= 0.05 && b.y0 > lowest)) {
    const moved = [cents(total) - cents(r.abs), cents(total) + cents(r.abs)].filter((c) => c % 5 === 0);
    if (boxes.some((b) => cy(b) > r.y1 && moved.includes(cents(b.abs)))) return true;
  }
  return false;
}

/**
 * A transcript's boxes that end in an amount with two decimals: SROIE's `data/box` rows (eight corner
 * coordinates, then the text) or WildReceipt's boxes (`{ points: [[x, y] x4], transcription }`), as
 * `{ y0, y1, abs, line }`, `line` being the text of every box on the same printed line (vertical centres
 * within half a box's height), so that a label word and its amount in two boxes are read together.
 */
function amountBoxes(boxCsv) {
  const all = (Array.isArray(boxCsv) ? boxCsv.map((b) => {
    const ys = (b.points ?? []).map((pt) => Number(pt[1]));
    if (ys.length < 2 || ys.some((y) => !Number.isFinite(y))) return undefined;
    return { y0: Math.min(...ys), y1: Math.max(...ys), text: String(b.transcription ?? '').trim() };
  }) : String(boxCsv ?? '').split(/\r?\n/).map((l) => {
    const parts = l.split(',');
    if (parts.length < 9) return undefined;
    const ys = [1, 3, 5, 7].map((i) => Number(parts[i]));
    if (ys.some((y) => !Number.isFinite(y))) return undefined;
    return { y0: Math.min(...ys), y1: Math.max(...ys), text: parts.slice(8).join(',').trim() };
  })).filter(Boolean);
  const out = [];
  for (const b of all) {
    const m = /^[^\d-]*?(-?\(?)\s*(\d{1,3}(?:,\d{3})+\.\d{2}|\d+[.,]\d{2})\)?\s*(-?)\s*$/.exec(b.text);
    if (!m) continue;
    const v = Number(/,\d{3}/.test(m[2]) ? m[2].replace(/,/g, '') : m[2].replace(',', '.'));
    const half = (b.y1 - b.y0) / 2;
    const line = all.filter((o) => Math.abs(cy(o) - cy(b)) <= half).map((o) => o.text).join(' ');
    out.push({ y0: b.y0, y1: b.y1, abs: v, line });
  }
  return out;
}

/** A line that names the amount to pay after everything taken off: "GRAND TOTAL", "NETT TOTAL", "AMOUNT DUE", "TO BE PAID". */
const AMOUNT_TO_PAY = /\b(?:GRAND|NETT?)\s*TOTAL|\bTOTAL\s*(?:AMOUNT|PAYABLE|DUE)\b|\bAMOUNT\s*(?:DUE|PAYABLE)\b|\bTO\s*BE\s*PAID\b/i;

/**
 * Does the source's own transcript show the labelled total as a sub-total that an amount taken off lowers?
 * True when, below every printing of the label L, a line naming the amount to pay (AMOUNT_TO_PAY) prints a
 * smaller amount P, and an amount D = L - P is printed between them: "SUB-TOTAL 60.60 / COUPON DISCOUNT 27.60
 * / GRAND TOTAL 33.00" labelled 60.60. The receipt itself says the total is P, so the label is left out (not
 * scored, not trained on) rather than corrected by a guess.
 */
export function totalAboveAmountToPay(boxCsv, total) {
  const boxes = amountBoxes(boxCsv);
  const printed = boxes.filter((b) => cents(b.abs) === cents(total));
  if (!printed.length) return false;
  const lowest = Math.max(...printed.map(cy));
  for (const pay of boxes.filter((b) => b.y0 > lowest && AMOUNT_TO_PAY.test(b.line) && b.abs > 0 && cents(b.abs) < cents(total))) {
    const taken = cents(total) - cents(pay.abs);
    if (boxes.some((d) => cy(d) > lowest && cy(d) < cy(pay) && cents(d.abs) === taken)) return true;
  }
  return false;
}

/**
 * SROIE key file ({company, date, address, total}): Malaysian ringgit, dates day-first. With the source's transcript
 * (`boxCsv`), a total it contradicts (totalBeforeRounding, totalAboveAmountToPay) is left out.
 */
export function sroieLabel(key, boxCsv) {
  const label = {}, notes = [];
  if (key.company?.trim()) label.merchantName = key.company.trim();
  if (key.address?.trim()) label.merchantAddress = key.address.trim();
  const d = oneDate([key.date ?? ''], 'dmy');
  if (d.date) label.date = d.date; else notes.push(d.note);
  const total = decimalAmount(key.total ?? '');
  if (total !== undefined && total > 0 && boxCsv !== undefined && totalBeforeRounding(boxCsv, total)) notes.push(`total: ${total} is the amount before a rounding line (data/box), the other convention: left out`);
  else if (total !== undefined && total > 0 && boxCsv !== undefined && totalAboveAmountToPay(boxCsv, total)) notes.push(`total: ${total} is a sub-total above an amount taken off and a lower amount to pay (data/box): left out`);
  else if (total !== undefined && total > 0) label.totalAmount = total; else notes.push(`total: not one amount: ${JSON.stringify(key.total)}`);
  label.currency = 'MYR';
  notes.push('currency: MYR (SROIE receipts are Malaysian)', 'date: numeric dates read day-first (Malaysian convention)');
  return { label, notes };
}

const VN_TOTAL_WORDS = /t[ổo]ng|thanh\s*to[áa]n|c[ộo]ng|ph[ảa]i\s*tr[ảa]|total|amount/i;
const VN_NOT_TOTAL = /ti[ềe]n\s*m[ặa]t|kh[áa]ch\s*(đưa|dua)|ti[ềe]n\s*th[ừu]a|tr[ảa]\s*l[ạa]i|gi[ảa]m|chi[ếe]t\s*kh[ấa]u|cash|change|discount|g[ốo]c/i;

/** One MC-OCR row (anno_texts / anno_labels joined by '|||'): Vietnamese dong, dates day-first. */
export function mcocrLabel(row) {
  const texts = String(row.anno_texts ?? '').split('|||');
  const kinds = String(row.anno_labels ?? '').split('|||');
  const of = (k) => texts.filter((_, i) => kinds[i] === k).map((t) => t.trim()).filter(Boolean);
  const label = {}, notes = [];
  const seller = of('SELLER');
  if (seller.length) label.merchantName = seller.join(' ');
  const address = of('ADDRESS');
  if (address.length) label.merchantAddress = address.join(', ');
  const d = oneDate(of('TIMESTAMP'), 'dmy');
  if (d.date) label.date = d.date; else notes.push(d.note);
  const cost = of('TOTAL_COST');
  const amounts = cost.map(wholeAmount).filter((v) => v !== undefined);
  const words = cost.filter((t) => wholeAmount(t) === undefined);
  if (words.some((w) => VN_NOT_TOTAL.test(w))) notes.push(`total: TOTAL_COST words ${JSON.stringify(words)} name cash, change or a discount`);
  else if (!words.some((w) => VN_TOTAL_WORDS.test(w))) notes.push(`total: no total keyword in TOTAL_COST ${JSON.stringify(cost)}`);
  else if (amounts.length === 0 || new Set(amounts).size !== 1) notes.push(`total: TOTAL_COST amounts ${JSON.stringify(amounts)} are not one amount`);
  else label.totalAmount = amounts[0];
  label.currency = 'VND';
  notes.push('currency: VND (MC-OCR receipts are Vietnamese)', 'date: numeric dates read day-first (Vietnamese convention)');
  return { label, notes };
}

/** Currency signs and codes a WildReceipt box can print that name one currency (a bare '$' does not). */
const CURRENCY_MARKS = [
  [/£|\bGBP\b/, 'GBP'], [/€|\bEUR\b/, 'EUR'], [/\bRM\s?\d|\bMYR\b/, 'MYR'], [/\bS\$|\bSGD\b/, 'SGD'],
  [/\bA\$|\bAUD\b/, 'AUD'], [/\bC\$|\bCAD\b/, 'CAD'], [/\bUS\$|\bUSD\b/, 'USD'], [/₹|\bINR\b|\bRs\.?\s?\d/, 'INR'],
  [/\bAED\b|\bDHS?\b/, 'AED'], [/\bCHF\b/, 'CHF'], [/\bHK\$|\bHKD\b/, 'HKD'], [/\bNZ\$|\bNZD\b/, 'NZD'],
  [/\bRp\.?\s?\d|\bIDR\b/, 'IDR'], [/₫|\bVND\b/, 'VND'], [/\bPHP\b|₱/, 'PHP'], [/\bTHB\b|฿/, 'THB'], [/\bZAR\b/, 'ZAR'],
];

/**
 * One WildReceipt annotation (boxes of {label, transcription}): total, tax and date from their value boxes;
 * the currency only where the boxes print exactly one currency's mark; numeric dates whose day and month
 * could swap are left out (the set's receipts come from many countries), and so is a total the boxes show
 * before a rounding line (totalBeforeRounding).
 */
export function wildreceiptLabel(boxes) {
  const of = (k) => boxes.filter((b) => b.label === k).map((b) => String(b.transcription).trim()).filter(Boolean);
  const label = {}, notes = [];
  const name = of('Store_name_value');
  if (name.length) { label.merchantName = name.join(' '); notes.push('merchantName: Store_name_value boxes joined (WildReceipt strips spaces inside a box)'); }
  const addr = of('Store_addr_value');
  if (addr.length) label.merchantAddress = addr.join(' ');
  const d = oneDate(of('Date_value'), 'none');
  if (d.date) label.date = d.date; else notes.push(d.note);
  for (const [field, kind] of [['totalAmount', 'Total_value'], ['taxAmount', 'Tax_value']]) {
    const vals = of(kind).map(decimalAmount);
    if (vals.length && vals.every((v) => v !== undefined) && new Set(vals).size === 1 && vals[0] > 0) {
      if (field === 'totalAmount' && totalBeforeRounding(boxes, vals[0])) notes.push(`total: ${vals[0]} is the amount before a rounding line (the boxes), the other convention: left out`);
      else label[field] = vals[0];
    } else if (vals.length) notes.push(`${field}: ${kind} boxes ${JSON.stringify(of(kind))} are not one amount`);
  }
  const all = boxes.map((b) => String(b.transcription)).join(' ');
  const marks = [...new Set(CURRENCY_MARKS.filter(([re]) => re.test(all)).map(([, c]) => c))];
  if (marks.length === 1) { label.currency = marks[0]; notes.push(`currency: ${marks[0]} from the one currency mark the boxes print`); }
  else notes.push(marks.length ? `currency: several marks ${marks.join(', ')}` : 'currency: no mark naming one currency');
  return { label, notes };
}

/** The label fields the pool keeps (the corpus's schema without `raw`). */
export const LABEL_FIELDS = ['merchantName', 'merchantAddress', 'date', 'totalAmount', 'taxAmount', 'currency', 'invoiceNumber'];
export function labelFields(label) {
  const out = {};
  for (const f of LABEL_FIELDS) if (label?.[f] !== undefined && label[f] !== null && label[f] !== '') out[f] = label[f];
  return out;
}
