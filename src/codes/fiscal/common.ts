/** Small helpers the fiscal formats share: amounts, dates, query strings, check digits. */

/** A money amount written with a dot (or a comma) for decimals and no thousands separators. */
export function amountOf(text: string | undefined, what: string): number {
  const t = (text ?? '').trim().replace(',', '.');
  if (!/^-?\d{1,12}(\.\d{1,4})?$/.test(t)) throw new Error(`${what} ${JSON.stringify(text ?? '')} is not an amount`);
  return Math.round(Number(t) * 100) / 100;
}

/** `YYYY-MM-DD` from its parts, checked against the calendar. */
export function isoDate(year: number, month: number, day: number, what = 'date'): string {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (!(year >= 1990 && year <= 2100) || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) {
    throw new Error(`${what} ${year}-${month}-${day} is not a date`);
  }
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** `HH:MM:SS`, checked. */
export function isoTime(h: number, m: number, s = 0): string {
  if (!(h >= 0 && h < 24 && m >= 0 && m < 60 && s >= 0 && s < 60)) throw new Error(`time ${h}:${m}:${s} is not a time`);
  return [h, m, s].map((n) => String(n).padStart(2, '0')).join(':');
}

/** The parameters of a URL or of a bare `k=v&k=v` query, keys lower-cased. */
export function queryOf(text: string): Map<string, string> {
  const q = text.includes('?') ? text.slice(text.indexOf('?') + 1) : text;
  const out = new Map<string, string>();
  for (const part of q.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    let v = part.slice(eq + 1);
    try { v = decodeURIComponent(v.replace(/\+/g, ' ')); } catch { /* keep it as written */ }
    out.set(part.slice(0, eq).trim().toLowerCase(), v.trim());
  }
  return out;
}

/** A parameter that must be present. */
export function required(q: Map<string, string>, key: string): string {
  const v = q.get(key);
  if (!v) throw new Error(`parameter ${key} is missing`);
  return v;
}

/**
 * Date and time of an ISO 8601 date-time as written, any zone suffix ignored: a receipt prints the
 * local time, and point-of-sale systems often write that local time with a `Z` it does not have.
 */
export function writtenDateTime(text: string): { date: string; time?: string } {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(text.trim());
  if (!m) throw new Error(`time ${JSON.stringify(text)} is not an ISO 8601 date-time`);
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x)));
  const date = isoDate(y!, mo!, d!);
  return h === undefined ? { date } : { date, time: isoTime(h, mi!, s ?? 0) };
}

/** Weighted mod-11 check digit (weights cycling `from`..2 right to left, as CNPJ and the NF-e key use). */
export function mod11(digits: string, maxWeight = 9): number {
  let sum = 0, w = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * w;
    w = w === maxWeight ? 2 : w + 1;
  }
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** Brazilian CNPJ (14 digits, two mod-11 check digits). */
export function validCnpj(cnpj: string): boolean {
  if (!/^\d{14}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  return mod11(cnpj.slice(0, 12)) === Number(cnpj[12]) && mod11(cnpj.slice(0, 13)) === Number(cnpj[13]);
}
