/**
 * The three enrichment lists of an account (contract section 5): known merchants, expected product
 * codes, and categories. Each has a zod schema for one row, the CSV columns (header names, with a few
 * accepted aliases) and the row <-> CSV mapping. Rows come from CSV text (every value a string) or from
 * objects given to the API; both go through the same schema, and a bad row is INVALID_OPTION naming
 * the list, the row and the field.
 */
import { z } from 'zod';
import { ReceiptKitError } from '../errors.js';
import { decodeCsv, formatCsv, parseCsv } from './csv.js';
import type { KnownMerchant } from '../contract/merchants.js';

/** An expected product code (SKU, article number, barcode). */
export interface ProductCodeEntry {
  code: string;
  name?: string;
  /** Product-level category of the items with this code. */
  category?: string;
}

export type CategoryLevel = 'merchant' | 'product' | 'both';

/** A category and the words that show it. */
export interface CategoryRule {
  category: string;
  /** Merchant level (`entities.category`, `merchantTypes`), product level (line items), or both. */
  level: CategoryLevel;
  /** Words or phrases, matched as whole words after normalisation; a trailing `*` matches a prefix. */
  keywords: string[];
}

export type ListKind = 'merchants' | 'productCodes' | 'categories';

// ------------------------------------------------------------------------------------ countries

/** Region codes that are not countries (unknown, EU, UN, outlying areas). */
const NOT_COUNTRIES = new Set(['ZZ', 'EU', 'EZ', 'UN', 'QO']);
function canonicalRegion(code: string): string | undefined {
  try { return new Intl.Locale(`und-${code}`).region; } catch { return undefined; }
}
const REGION_CODES: string[] = (() => {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const out: string[] = [];
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (NOT_COUNTRIES.has(code) || canonicalRegion(code) !== code) continue; // UK -> GB, BU -> MM, ...
      let name: string | undefined;
      try { name = names.of(code); } catch { name = undefined; }
      if (name && name !== code) out.push(code);
    }
  }
  return out;
})();
const REGION_SET = new Set(REGION_CODES);
const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
const COUNTRY_BY_NAME: Map<string, string> = (() => {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const m = new Map<string, string>();
  for (const code of REGION_CODES) {
    const name = names.of(code)!;
    m.set(fold(name), code);
    // "Myanmar (Burma)": also "Myanmar" and "Burma"; "Congo - Kinshasa": also "Congo Kinshasa"
    const paren = /^(.*?)\s*\((.*)\)$/.exec(name);
    if (paren) { if (!m.has(fold(paren[1]!))) m.set(fold(paren[1]!), code); if (!m.has(fold(paren[2]!))) m.set(fold(paren[2]!), code); }
  }
  const aliases: Record<string, string> = {
    usa: 'US', 'united states of america': 'US', america: 'US', uk: 'GB', britain: 'GB', 'great britain': 'GB', england: 'GB',
    scotland: 'GB', wales: 'GB', 'south korea': 'KR', korea: 'KR', 'north korea': 'KP', russia: 'RU', vietnam: 'VN', 'viet nam': 'VN',
    'czech republic': 'CZ', holland: 'NL', uae: 'AE', 'hong kong': 'HK', macau: 'MO', 'ivory coast': 'CI', turkey: 'TR', burma: 'MM',
  };
  for (const [k, v] of Object.entries(aliases)) m.set(k, v);
  return m;
})();

/** ISO 3166-1 alpha-2 code of a code or English country name, or undefined when unknown. */
export function countryCode(value: string): string | undefined {
  const v = value.trim();
  if (/^[A-Za-z]{2}$/.test(v)) {
    const canon = canonicalRegion(v.toUpperCase());
    return canon && REGION_SET.has(canon) ? canon : undefined;
  }
  return COUNTRY_BY_NAME.get(fold(v));
}

/** English name of a country code. */
export function countryName(code: string, locale = 'en'): string | undefined {
  try {
    const n = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' }).of(code);
    return n && n !== code ? n : undefined;
  } catch {
    return undefined;
  }
}

// ------------------------------------------------------------------------------------ row schemas

/** Trimmed text; empty means absent. */
const text = (max: number) => z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v === null ? undefined : v),
  z.string().max(max, { message: `must be at most ${max} characters` }).optional(),
);
const requiredText = (max: number) => z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v),
  z.string({ message: 'is required' }).min(1, { message: 'is required (must not be empty)' }).max(max, { message: `must be at most ${max} characters` }),
);
/** A number, also written as text (CSV); empty means absent. */
const coordinate = (limit: number, what: string) => z.preprocess(
  (v) => {
    if (v === null || v === undefined) return undefined;
    if (typeof v === 'string') {
      const t = v.trim();
      if (t === '') return undefined;
      return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(t) ? Number(t) : v;
    }
    return v;
  },
  z.number({ message: `must be a number (decimal degrees of ${what})` }).min(-limit, { message: `must be between -${limit} and ${limit}` })
    .max(limit, { message: `must be between -${limit} and ${limit}` }).optional(),
);
const country = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.string().max(100).optional().transform((v, ctx) => {
    if (v === undefined) return undefined;
    const code = countryCode(v);
    if (!code) {
      ctx.addIssue({ code: 'custom', message: `unknown country ${JSON.stringify(v.slice(0, 60))} (use an ISO 3166-1 alpha-2 code such as MY, US, DE, or the English name)` });
      return z.NEVER;
    }
    return code;
  }),
);

export const merchantRowSchema = z.strictObject({
  id: text(100),
  name: requiredText(200),
  address: text(500),
  city: text(100),
  state: text(100),
  postcode: text(20),
  country,
  latitude: coordinate(90, 'latitude'),
  longitude: coordinate(180, 'longitude'),
  category: text(100),
}).superRefine((m, ctx) => {
  if ((m.latitude === undefined) !== (m.longitude === undefined)) {
    ctx.addIssue({ code: 'custom', path: [m.latitude === undefined ? 'latitude' : 'longitude'], message: 'latitude and longitude go together: give both or neither' });
  }
});

export const productCodeRowSchema = z.strictObject({
  code: requiredText(100).refine((c) => /[\p{L}\p{N}]/u.test(c), { message: 'must hold a letter or a digit' }),
  name: text(200),
  category: text(100),
});

const keywordList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(/[;|]/).map((k) => k.trim()).filter(Boolean) : Array.isArray(v) ? v.map((k) => (typeof k === 'string' ? k.trim() : k)).filter((k) => k !== '') : v),
  z.array(z.string().min(1).max(100), { message: 'is required: words separated by ";"' }).min(1, { message: 'is required: at least one word (separate words with ";")' }).max(200),
);

export const categoryRowSchema = z.strictObject({
  category: requiredText(100),
  level: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim().toLowerCase()) : v),
    z.enum(['merchant', 'product', 'both'], { message: 'must be merchant, product or both' }).default('both'),
  ),
  keywords: keywordList,
});

// ------------------------------------------------------------------------------------ lists

export interface ListSpec<T> {
  kind: ListKind;
  /** Name in messages and fields: `merchants`, `productCodes`, `categories`. */
  label: string;
  /** CSV columns in export order. */
  columns: readonly string[];
  /** Columns that must be in the header. */
  required: readonly string[];
  /** Other accepted header names (lower case) -> column. */
  aliases: Record<string, string>;
  schema: z.ZodType<T>;
  /** Key of the row for duplicates (undefined: no key). */
  key(row: T): string | undefined;
  /** What a duplicate key means, for the message. */
  keyName: string;
  toCsv(row: T): Array<string | number | undefined>;
  maxRows: number;
}

export const MERCHANTS: ListSpec<KnownMerchant> = {
  kind: 'merchants', label: 'merchants',
  columns: ['id', 'name', 'address', 'city', 'state', 'postcode', 'country', 'latitude', 'longitude', 'category'],
  required: ['name'],
  aliases: {
    merchant: 'name', merchantname: 'name', street: 'address', town: 'city', region: 'state', province: 'state',
    postalcode: 'postcode', postal_code: 'postcode', zip: 'postcode', zipcode: 'postcode', countrycode: 'country', country_code: 'country',
    lat: 'latitude', lon: 'longitude', lng: 'longitude', long: 'longitude',
  },
  schema: merchantRowSchema as unknown as z.ZodType<KnownMerchant>,
  key: (m) => m.id,
  keyName: 'id',
  toCsv: (m) => [m.id, m.name, m.address, m.city, m.state, m.postcode, m.country, m.latitude, m.longitude, m.category],
  maxRows: 100_000,
};

export const PRODUCT_CODES: ListSpec<ProductCodeEntry> = {
  kind: 'productCodes', label: 'productCodes',
  columns: ['code', 'name', 'category'],
  required: ['code'],
  aliases: { productcode: 'code', product_code: 'code', sku: 'code', barcode: 'code', ean: 'code', upc: 'code', description: 'name', product: 'name' },
  schema: productCodeRowSchema as unknown as z.ZodType<ProductCodeEntry>,
  key: (p) => p.code,
  keyName: 'code',
  toCsv: (p) => [p.code, p.name, p.category],
  maxRows: 100_000,
};

export const CATEGORIES: ListSpec<CategoryRule> = {
  kind: 'categories', label: 'categories',
  columns: ['category', 'level', 'keywords'],
  required: ['category', 'keywords'],
  aliases: { name: 'category', type: 'level', appliesto: 'level', words: 'keywords', keyword: 'keywords' },
  schema: categoryRowSchema as unknown as z.ZodType<CategoryRule>,
  key: (c) => `${c.category.toLowerCase()}\u0000${c.level}`,
  keyName: 'category and level',
  toCsv: (c) => [c.category, c.level, c.keywords.join('; ')],
  maxRows: 1000,
};

export const LISTS = { merchants: MERCHANTS, productCodes: PRODUCT_CODES, categories: CATEGORIES } as const;

/** The row without absent (undefined) fields. */
function compact<T>(row: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row as Record<string, unknown>)) if (v !== undefined) out[k] = v;
  return out as T;
}

function rowError(label: string, field: string, where: string, message: string): ReceiptKitError {
  return new ReceiptKitError('INVALID_OPTION', `${label}: ${where}: ${message}`, { field });
}

/** Checks one row with the list's schema; `at` names it (`row 3 (line 4)` / index 2). */
function checkRow<T>(spec: ListSpec<T>, value: unknown, fieldPrefix: string, where: string): T {
  const r = spec.schema.safeParse(value);
  if (r.success) return compact(r.data);
  const issue = r.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys?: string[] }).keys ?? [];
    throw rowError(spec.label, `${fieldPrefix}.${keys[0] ?? ''}`, where, `unknown field ${keys.join(', ')} (fields: ${spec.columns.join(', ')})`);
  }
  const path = issue.path.map(String);
  const field = path.length ? path.join('.') : 'row';
  let message = issue.message;
  if (issue.code === 'invalid_type' && (value === null || typeof value !== 'object' || Array.isArray(value))) message = 'must be an object';
  else if (issue.code === 'invalid_type' && (value as Record<string, unknown>)[path[0] ?? ''] === undefined) message = 'is required';
  throw rowError(spec.label, `${fieldPrefix}.${field}`, where, `${field}: ${message}`);
}

/** Duplicate keys are refused: the list means one row per key. */
function checkDuplicates<T>(spec: ListSpec<T>, rows: T[], where: (i: number) => { field: string; text: string }): void {
  const seen = new Map<string, number>();
  rows.forEach((row, i) => {
    const k = spec.key(row);
    if (k === undefined) return;
    const norm = spec.kind === 'productCodes' ? k.toUpperCase() : k;
    const first = seen.get(norm);
    if (first !== undefined) {
      const w = where(i);
      throw rowError(spec.label, `${w.field}.${spec.keyName.split(' ')[0]}`, w.text, `${spec.keyName} ${JSON.stringify(k)} is listed twice (first at ${where(first).text})`);
    }
    seen.set(norm, i);
  });
}

/** Rows of a list from CSV text or bytes (header row first). */
export function rowsFromCsv<T>(spec: ListSpec<T>, data: string | Uint8Array, fieldPrefix = spec.label): T[] {
  const records = parseCsv(decodeCsv(data, spec.label), spec.label);
  if (records.length === 0) throw rowError(spec.label, spec.label, 'the CSV', `is empty: the first line must be a header row (${spec.columns.join(',')})`);
  const header = records[0]!;
  const columns = header.fields.map((h) => {
    const k = h.trim().toLowerCase();
    const direct = spec.columns.find((c) => c.toLowerCase() === k);
    return direct ?? spec.aliases[k] ?? spec.aliases[k.replace(/[\s-]+/g, '')];
  });
  header.fields.forEach((h, i) => {
    if (!columns[i]) throw rowError(spec.label, `${fieldPrefix}.header`, `header (line ${header.line})`, `unknown column ${JSON.stringify(h.slice(0, 60))} (columns: ${spec.columns.join(', ')})`);
    if (columns.indexOf(columns[i]) !== i) throw rowError(spec.label, `${fieldPrefix}.header`, `header (line ${header.line})`, `column ${columns[i]} is given twice`);
  });
  for (const req of spec.required) {
    if (!columns.includes(req)) throw rowError(spec.label, `${fieldPrefix}.header`, `header (line ${header.line})`, `the column ${req} is required (columns: ${spec.columns.join(', ')})`);
  }
  const body = records.slice(1);
  if (body.length > spec.maxRows) throw rowError(spec.label, spec.label, 'the CSV', `has ${body.length} rows; at most ${spec.maxRows} are accepted`);
  const where = (i: number) => ({ field: `${fieldPrefix}.${i + 1}`, text: `row ${i + 1} (line ${body[i]!.line})` });
  const rows = body.map((rec, i) => {
    if (rec.fields.length !== columns.length) {
      const w = where(i);
      throw rowError(spec.label, w.field, w.text, `has ${rec.fields.length} fields, the header has ${columns.length} (quote fields that hold commas or line breaks)`);
    }
    const obj: Record<string, string> = {};
    columns.forEach((c, j) => { obj[c!] = rec.fields[j]!; });
    const w = where(i);
    return checkRow(spec, obj, w.field, w.text);
  });
  checkDuplicates(spec, rows, where);
  return rows;
}

/** Rows of a list from objects (the API form). */
export function rowsFromObjects<T>(spec: ListSpec<T>, data: unknown, fieldPrefix = spec.label): T[] {
  if (!Array.isArray(data)) throw rowError(spec.label, fieldPrefix, fieldPrefix, 'must be CSV text or an array of rows');
  if (data.length > spec.maxRows) throw rowError(spec.label, fieldPrefix, fieldPrefix, `has ${data.length} rows; at most ${spec.maxRows} are accepted`);
  const where = (i: number) => ({ field: `${fieldPrefix}.${i}`, text: `${fieldPrefix}.${i}` });
  const rows = data.map((v, i) => checkRow(spec, v, `${fieldPrefix}.${i}`, `${fieldPrefix}.${i}`));
  checkDuplicates(spec, rows, where);
  return rows;
}

/** Rows from any accepted form: CSV text, CSV bytes, or an array of objects. */
export function rowsFrom<T>(spec: ListSpec<T>, data: unknown, fieldPrefix = spec.label): T[] {
  if (typeof data === 'string' || data instanceof Uint8Array) return rowsFromCsv(spec, data, fieldPrefix);
  if (data instanceof ArrayBuffer) return rowsFromCsv(spec, new Uint8Array(data), fieldPrefix);
  return rowsFromObjects(spec, data, fieldPrefix);
}

/** A list as CSV (header row, CRLF records, quoted where needed). */
export function rowsToCsv<T>(spec: ListSpec<T>, rows: readonly T[]): string {
  return formatCsv(spec.columns, rows.map((r) => spec.toCsv(r)));
}
