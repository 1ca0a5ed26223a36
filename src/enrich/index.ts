/**
 * Enrichment (contract section 5): an engine's (an account's) own reference data sharpening results.
 *
 * - Known merchants: a read name and location resolve to the listed merchant
 *   (`entities.normalisedMerchant`, src/enrich/merchants.ts).
 * - Product codes: read codes normalised to the account's expected codes (src/enrich/products.ts).
 * - Categories: merchant level (`entities.category`, `merchantTypes`) and product level
 *   (`productLineItems[].data.category`), from the account's rules or the built-in list
 *   (src/enrich/categories.ts).
 * - `ipAddress`: the root `location` of verbose results (src/geoip).
 *
 * The lists live in the engine's store (src/enrich/store.ts) and are imported and exported as CSV or
 * as rows through `engine.enrichment`. Lists given in the engine's `enrichment` option replace the
 * stored list of that kind when the engine opens (so a server's config file is the truth for the
 * lists it names); lists it does not name are whatever was imported.
 */
import { createHash } from 'node:crypto';
import type { Document } from '../document/types.js';
import type { FieldResults, ItemPart, Located } from '../fields/types.js';
import { ReceiptKitError } from '../errors.js';
import { lookupIp } from '../geoip/index.js';
import type { GeoLocation } from '../geoip/index.js';
import type { Store } from '../store/types.js';
import { DEFAULT_CATEGORIES, compileRules, merchantCategories, productCategory } from './categories.js';
import type { CategoryVote, CompiledRule } from './categories.js';
import { MerchantIndex } from './merchants.js';
import type { MerchantQuery } from './merchants.js';
import { ProductCodeIndex } from './products.js';
import { LISTS, rowsFrom, rowsToCsv } from './schema.js';
import type { CategoryRule, ListKind, ListSpec, ProductCodeEntry } from './schema.js';
import type { KnownMerchant, NormalisedMerchant } from '../contract/merchants.js';
import { EnrichmentStore, LIST_KINDS } from './store.js';

export type { CategoryRule, ListKind, ProductCodeEntry } from './schema.js';
export type { KnownMerchant, NormalisedMerchant, MatchEvidence } from '../contract/merchants.js';
export { DEFAULT_CATEGORIES } from './categories.js';

/** What an import takes: CSV text or bytes (UTF-8, header row first), or an array of rows. */
export type ListData = string | Uint8Array | ArrayBuffer | readonly Record<string, unknown>[];

export interface ImportOptions {
  /** `replace` (default): the import is the whole list. `append`: adds rows, a listed key (merchant id, code, category+level) replaces its row. */
  mode?: 'replace' | 'append';
}

export interface ImportSummary {
  list: ListKind;
  mode: 'replace' | 'append';
  /** Rows in the import. */
  imported: number;
  /** Rows in the list afterwards. */
  total: number;
}

/** The engine option `enrichment`. */
export interface EnrichmentOptions {
  merchants?: ListData;
  productCodes?: ListData;
  categories?: ListData;
  /** Use the built-in category list for a level the account's categories leave out (default true). */
  defaultCategories?: boolean;
}

/** `engine.enrichment`. */
export interface Enrichment {
  importMerchants(data: ListData, options?: ImportOptions): Promise<ImportSummary>;
  /** The known merchants as CSV: `id,name,address,city,state,postcode,country,latitude,longitude,category`. */
  exportMerchants(): Promise<string>;
  listMerchants(): Promise<KnownMerchant[]>;
  importProductCodes(data: ListData, options?: ImportOptions): Promise<ImportSummary>;
  /** The expected product codes as CSV: `code,name,category`. */
  exportProductCodes(): Promise<string>;
  listProductCodes(): Promise<ProductCodeEntry[]>;
  importCategories(data: ListData, options?: ImportOptions): Promise<ImportSummary>;
  /** The account's category rules as CSV: `category,level,keywords` (keywords separated by `; `). */
  exportCategories(): Promise<string>;
  listCategories(): Promise<CategoryRule[]>;
  /** Any list by kind (what the server's routes use). */
  importList(kind: ListKind, data: ListData, options?: ImportOptions): Promise<ImportSummary>;
  exportList(kind: ListKind): Promise<string>;
  list(kind: ListKind): Promise<unknown[]>;
  /** The known merchant a read name and location stand for, as `entities.normalisedMerchant`. */
  resolveMerchant(query: MerchantQuery): Promise<NormalisedMerchant | undefined>;
  /** The listed product code a read code stands for. */
  normaliseProductCode(code: string): Promise<(ProductCodeEntry & { how: 'exact' | 'oneOff' }) | undefined>;
  /** The built-in category rules. */
  readonly defaultCategories: readonly CategoryRule[];
}

/** What enrichment adds to one extraction (the response builder places it). */
export interface EnrichmentOutput {
  /** Replaces the fields' merchantTypes (undefined: none found). */
  merchantTypes?: Located<string[]>;
  /** `entities.category`. */
  category?: { value: string; confidence: number; source: CategoryVote['source']; keyword: string; lineIndex: number };
  normalisedMerchant?: NormalisedMerchant;
  /** Per line item (same order): the normalised code and the category. */
  items: Array<{ productCode?: ItemPart<string>; category?: ItemPart<string> }>;
  /** Root `location` (verbose with a public ipAddress). */
  location?: GeoLocation;
  warnings: string[];
}

export interface EnrichContext {
  near?: string | undefined;
  ipAddress?: string | undefined;
  /** Verbose results only: the location (and its hint to the merchant match). */
  verbose: boolean;
}

interface Indexes {
  merchants: MerchantIndex;
  codes: ProductCodeIndex;
  merchantRules: CompiledRule[];
  productRules: CompiledRule[];
}

const invalid = (field: string, message: string) => new ReceiptKitError('INVALID_OPTION', message, { field });

function specOf(kind: ListKind): ListSpec<unknown> {
  const spec = Object.prototype.hasOwnProperty.call(LISTS, kind) ? LISTS[kind] as ListSpec<unknown> : undefined;
  if (!spec) throw invalid('list', `list: unknown list ${JSON.stringify(String(kind).slice(0, 40))} (merchants, productCodes, categories)`);
  return spec;
}

function checkMode(options: ImportOptions | undefined): 'replace' | 'append' {
  const mode = options?.mode ?? 'replace';
  if (mode !== 'replace' && mode !== 'append') throw invalid('mode', `mode: must be replace or append, not ${JSON.stringify(String(mode).slice(0, 40))}`);
  return mode;
}

/** The enrichment of one engine, over its store. */
export class EngineEnrichment implements Enrichment {
  readonly defaultCategories = DEFAULT_CATEGORIES;
  private readonly lists: EnrichmentStore;
  private readonly useDefaults: boolean;
  private cache?: { dataVersion: number | null; revisions: Partial<Record<ListKind, string>>; indexes: Indexes; key: string | undefined };
  private readonly given: Array<[ListSpec<unknown>, unknown[]]> = [];
  /** Bumped by each write through this engine: an index built from reads made before it is not cached. */
  private generation = 0;

  /** The lists in `store`; lists given in `options` are checked here and written by `init()`. */
  constructor(private readonly store: () => Store, options: EnrichmentOptions | undefined) {
    this.lists = new EnrichmentStore(store());
    this.useDefaults = options?.defaultCategories ?? true;
    for (const kind of LIST_KINDS) {
      const data = options?.[kind];
      if (data === undefined) continue;
      const spec = LISTS[kind] as ListSpec<unknown>;
      this.given.push([spec, rowsFrom(spec, data, `enrichment.${kind}`)]);
    }
  }

  /** Lists given in the options replace the stored ones (unless the same rows are stored already). */
  async init(): Promise<this> {
    for (const [spec, rows] of this.given) if (!(await this.lists.same(spec, rows))) await this.lists.write(spec, rows, 'replace');
    this.given.length = 0;
    return this;
  }

  private open(): EnrichmentStore {
    this.store(); // throws ENGINE_CLOSED once the engine is closed
    return this.lists;
  }

  // ---- lists ----

  async importList(kind: ListKind, data: ListData, options?: ImportOptions): Promise<ImportSummary> {
    const spec = specOf(kind);
    const mode = checkMode(options);
    if (data === undefined || data === null) throw invalid(spec.label, `${spec.label}: CSV text or an array of rows is required`);
    const rows = rowsFrom(spec, data);
    const total = await this.open().write(spec, rows, mode);
    this.cache = undefined;
    this.generation++;
    return { list: kind, mode, imported: rows.length, total };
  }

  async exportList(kind: ListKind): Promise<string> {
    const spec = specOf(kind);
    return rowsToCsv(spec, await this.open().rows(kind));
  }

  async list(kind: ListKind): Promise<unknown[]> {
    specOf(kind);
    return this.open().rows(kind);
  }

  importMerchants(data: ListData, options?: ImportOptions) { return this.importList('merchants', data, options); }
  exportMerchants() { return this.exportList('merchants'); }
  async listMerchants() { return this.open().rows<KnownMerchant>('merchants'); }
  importProductCodes(data: ListData, options?: ImportOptions) { return this.importList('productCodes', data, options); }
  exportProductCodes() { return this.exportList('productCodes'); }
  async listProductCodes() { return this.open().rows<ProductCodeEntry>('productCodes'); }
  importCategories(data: ListData, options?: ImportOptions) { return this.importList('categories', data, options); }
  exportCategories() { return this.exportList('categories'); }
  async listCategories() { return this.open().rows<CategoryRule>('categories'); }

  async resolveMerchant(query: MerchantQuery): Promise<NormalisedMerchant | undefined> {
    return (await this.indexes()).merchants.resolve(query);
  }

  async normaliseProductCode(code: string) {
    if (typeof code !== 'string') throw invalid('code', 'code: must be a string');
    const m = (await this.indexes()).codes.match(code);
    return m ? { ...m.entry, how: m.how } : undefined;
  }

  // ---- the indexes, rebuilt when a list changed (here or in another connection) ----

  private async indexes(): Promise<Indexes> {
    return (await this.state()).indexes;
  }

  private async state(): Promise<{ indexes: Indexes; key: string | undefined }> {
    const lists = this.open();
    const generation = this.generation;
    const dv = await lists.dataVersion();
    if (this.cache && dv !== null && this.cache.dataVersion === dv) return this.cache;
    const revisions = await lists.revisions();
    if (this.cache && LIST_KINDS.every((k) => (this.cache!.revisions[k] ?? '') === (revisions[k] ?? ''))) {
      this.cache.dataVersion = dv;
      return this.cache;
    }
    const [rules, merchants, codes] = await Promise.all([
      lists.rows<CategoryRule>('categories'), lists.rows<KnownMerchant>('merchants'), lists.rows<ProductCodeEntry>('productCodes'),
    ]);
    const level = (l: 'merchant' | 'product') => {
      const own = rules.filter((r) => r.level === l || r.level === 'both');
      if (own.length || !this.useDefaults) return compileRules(own);
      return compileRules(DEFAULT_CATEGORIES.filter((r) => r.level === l || r.level === 'both'));
    };
    const indexes: Indexes = {
      merchants: new MerchantIndex(merchants),
      codes: new ProductCodeIndex(codes),
      merchantRules: level('merchant'),
      productRules: level('product'),
    };
    const anyList = LIST_KINDS.some((k) => revisions[k]);
    const key = anyList || !this.useDefaults
      ? createHash('sha256').update(JSON.stringify([LIST_KINDS.map((k) => revisions[k] ?? ''), this.useDefaults])).digest('hex').slice(0, 32)
      : undefined;
    const built = { dataVersion: dv, revisions, indexes, key };
    // read before a write through this engine finished: used once, not kept
    if (generation === this.generation) this.cache = built;
    return built;
  }

  /** Changes whenever a list that shapes results changes (part of the refresh key); undefined with no lists. */
  async resultKey(): Promise<string | undefined> {
    return (await this.state()).key;
  }

  // ---- one extraction ----

  async enrich(doc: Document, fields: FieldResults, ctx: EnrichContext): Promise<EnrichmentOutput> {
    const ix = await this.indexes();
    const warnings: string[] = [];
    const out: EnrichmentOutput = { items: [], warnings };

    // where the end user is (verbose only: simple results have no location and no ipAddress in their key)
    let ipHint: MerchantQuery['ipLocation'];
    if (ctx.verbose && ctx.ipAddress) {
      const geo = lookupIp(ctx.ipAddress);
      if (geo.location) {
        out.location = geo.location;
        const l = geo.location;
        ipHint = {
          ...(l.city ? { city: l.city.names.en } : {}),
          ...(l.country ? { country: l.country.iso_code } : {}),
          latitude: l.location.latitude, longitude: l.location.longitude,
        };
      } else if (geo.reason) warnings.push(geo.reason);
    }

    // the known merchant
    const lines = doc.lines.map((l) => l.text);
    if (ix.merchants.size) {
      const nm = ix.merchants.resolve({
        name: fields.merchantName?.value,
        nameLine: fields.merchantName?.lineIndex,
        address: fields.merchantAddress?.value,
        city: fields.merchantCity?.value,
        postcode: fields.merchantPostalCode?.value,
        country: fields.merchantCountryCode?.value,
        headerLines: lines.slice(0, 6),
        near: ctx.near,
        ipLocation: ipHint,
      });
      if (nm) out.normalisedMerchant = nm;
    }

    // line items: codes and categories
    const items = fields.lineItems ?? [];
    const itemCategories: string[] = [];
    for (const it of items) {
      const e: EnrichmentOutput['items'][number] = {};
      let listed: ProductCodeEntry | undefined;
      if (ix.codes.size) {
        if (it.productCode) {
          const m = ix.codes.match(it.productCode.value);
          if (m) { listed = m.entry; e.productCode = { ...it.productCode, value: m.entry.code }; }
        } else {
          const f = ix.codes.findIn(it.text);
          if (f) {
            listed = f.match.entry;
            e.productCode = { value: f.match.entry.code, text: f.word, lineIndex: it.lineIndex, page: it.page, boxes: it.boxes };
          }
        }
      }
      if (listed?.category) {
        e.category = { value: listed.category, text: e.productCode!.text, lineIndex: e.productCode!.lineIndex, page: e.productCode!.page, boxes: e.productCode!.boxes };
      } else {
        const c = productCategory(ix.productRules, it.name.value);
        if (c) e.category = { value: c.category, text: c.keyword, lineIndex: it.name.lineIndex, page: it.name.page, boxes: it.name.boxes };
      }
      if (e.category) itemCategories.push(e.category.value);
      out.items.push(e);
    }

    // merchant categories
    const nm = out.normalisedMerchant;
    const votes = merchantCategories(ix.merchantRules, {
      ...(fields.merchantName ? { merchantName: { text: fields.merchantName.value, lineIndex: fields.merchantName.lineIndex } } : {}),
      ...(nm ? { knownMerchant: { name: nm.data.name, ...(nm.data.category ? { category: nm.data.category } : {}), confidence: nm.confidenceLevel } } : {}),
      lines,
      ...(items[0] ? { firstItemLine: items[0].lineIndex } : {}),
      itemCategories,
    });
    const top = votes[0];
    if (top) {
      out.category = { value: top.category, confidence: top.confidence, source: top.source, keyword: top.keyword, lineIndex: top.lineIndex };
      const line = top.lineIndex >= 0 ? doc.lines[top.lineIndex] : undefined;
      out.merchantTypes = {
        value: votes.map((v) => v.category),
        confidence: top.confidence,
        text: line?.text ?? '',
        lineIndex: line ? top.lineIndex : (fields.merchantName?.lineIndex ?? 0),
        keyword: top.keyword === '-' ? '-' : top.keyword.toUpperCase(),
        boxes: line ? [line.box] : [],
        page: line?.page ?? 0,
      };
    }
    return out;
  }
}
