/**
 * Enrichment routes (contract section 6, `/api/account/v1/...`): import, export and list an account's
 * known merchants, expected product codes and categories, over its engine's `enrichment`.
 *
 *   POST /api/account/v1/{list}/import   CSV body (text/csv), a multipart `file` part, or JSON rows;
 *                                        `mode` = replace (default) | append, as a query parameter,
 *                                        a form field or a JSON field
 *   GET  /api/account/v1/{list}/export   the list as CSV (text/csv, header row, CRLF)
 *   GET  /api/account/v1/{list}          the list as JSON rows
 *
 * with {list} one of `merchants`, `product-codes`, `categories`. A bad row is a 400 naming the row
 * (and its CSV line) and the field; nothing of that import is stored.
 */
import { ReceiptKitError } from '../errors.js';
import type { ListKind } from '../enrich/schema.js';
import { badParameter, mediaType, sendJson } from './http.js';
import { readMultipart } from './multipart.js';
import type { Route, RouteContext } from './route-types.js';

export const ENRICHMENT_LISTS: ReadonlyArray<{ kind: ListKind; path: string; what: string; columns: string; schema: string }> = [
  { kind: 'merchants', path: 'merchants', what: 'known merchants', columns: 'id,name,address,city,state,postcode,country,latitude,longitude,category (name required)', schema: 'KnownMerchant' },
  { kind: 'productCodes', path: 'product-codes', what: 'expected product codes', columns: 'code,name,category (code required)', schema: 'ProductCode' },
  { kind: 'categories', path: 'categories', what: 'categories', columns: 'category,level,keywords (level: merchant, product or both; keywords separated by ";")', schema: 'CategoryRule' },
];

const CSV_TYPES = new Set(['text/csv', 'text/plain', 'application/csv']);

/** The request body as bytes, at most maxBytes (413 past it). */
async function readBytes(ctx: RouteContext, maxBytes: number): Promise<Buffer> {
  const declared = Number(ctx.req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw new ReceiptKitError('FILE_TOO_LARGE', `the request body is ${declared} bytes, over the ${maxBytes} byte limit`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new ReceiptKitError('FILE_TOO_LARGE', `the request body is over the ${maxBytes} byte limit`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function modeFrom(raw: unknown): 'replace' | 'append' | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (raw === 'replace' || raw === 'append') return raw;
  throw badParameter('mode', `must be replace or append, not ${JSON.stringify(typeof raw === 'string' ? raw.slice(0, 40) : raw)}`);
}

async function importList(ctx: RouteContext, kind: ListKind): Promise<void> {
  const query = new URLSearchParams((ctx.req.url ?? '').split('?')[1] ?? '');
  for (const name of query.keys()) if (name !== 'mode') throw badParameter(name, 'not a parameter of this endpoint (only mode)');
  let mode = modeFrom(query.get('mode') ?? undefined);
  const type = mediaType(ctx.req);
  const max = ctx.config.limits.maxFileBytes;
  let data: Buffer | unknown[];
  if (type === 'multipart/form-data') {
    const { maxFields, maxFieldBytes } = ctx.config.limits;
    const form = await readMultipart(ctx.req, { maxFileBytes: max, maxFields, maxFieldBytes });
    for (const name of Object.keys(form.fields)) if (name !== 'mode') throw badParameter(name, 'not a parameter of this endpoint (file, mode)');
    if (!form.file) throw badParameter('file', 'the CSV file is required (a multipart part named "file")');
    mode = modeFrom(form.fields.mode) ?? mode;
    data = form.file.bytes;
  } else if (type === 'application/json' || type.endsWith('+json')) {
    const text = (await readBytes(ctx, max)).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (e) {
      throw badParameter('body', `not valid JSON (${(e as Error).message})`);
    }
    if (Array.isArray(body)) data = body;
    else if (body && typeof body === 'object') {
      const { rows, mode: m, ...rest } = body as { rows?: unknown; mode?: unknown };
      const extra = Object.keys(rest)[0];
      if (extra !== undefined) throw badParameter(extra, 'not a parameter of this endpoint (rows, mode)');
      if (!Array.isArray(rows)) throw badParameter('rows', 'an array of rows is required');
      data = rows;
      mode = modeFrom(m) ?? mode;
    } else throw badParameter('body', 'must be an array of rows or { "rows": [...], "mode": "append" }');
  } else if (CSV_TYPES.has(type)) {
    data = await readBytes(ctx, max);
  } else {
    throw new ReceiptKitError('UNSUPPORTED_MEDIA_TYPE', `this endpoint takes CSV (Content-Type: text/csv), a multipart/form-data "file" part, or JSON rows, not ${type || 'no content type'}`);
  }
  const summary = await ctx.engine.enrichment.importList(kind, data as Buffer, mode ? { mode } : {});
  sendJson(ctx.res, 200, summary);
}

async function exportList(ctx: RouteContext, kind: ListKind, path: string): Promise<void> {
  const csv = await ctx.engine.enrichment.exportList(kind);
  ctx.res.writeHead(200, {
    'content-type': 'text/csv; charset=utf-8; header=present',
    'content-length': String(Buffer.byteLength(csv)),
    'content-disposition': `attachment; filename="${path}.csv"`,
    'cache-control': 'no-store',
  });
  ctx.res.end(csv);
}

export function enrichmentRoutes(): Route[] {
  const tags = ['account'];
  return ENRICHMENT_LISTS.flatMap(({ kind, path, what, columns, schema }): Route[] => [
    {
      method: 'POST', path: `/api/account/v1/${path}/import`, auth: true, queued: false,
      doc: {
        summary: `Import the account's ${what}`,
        description: `CSV (RFC 4180, UTF-8, header row: ${columns}) as the body (\`Content-Type: text/csv\`) or as a multipart \`file\` part, or JSON rows (an array, or \`{ "rows": [...], "mode": ... }\`). \`mode\`: \`replace\` (default) makes the import the whole list; \`append\` adds rows, a row whose key is listed already replacing it. A bad row is a 400 naming the row, its CSV line and the field; nothing is stored then.`,
        tags, body: 'enrichment-import', response: 'ImportSummary', errors: [400, 413, 415],
      },
      handle: (ctx) => importList(ctx, kind),
    },
    {
      method: 'GET', path: `/api/account/v1/${path}/export`, auth: true, queued: false,
      doc: { summary: `Export the account's ${what} as CSV`, description: `Header row ${columns.split(' (')[0]}, CRLF line ends, fields quoted where needed.`, tags, response: 'CSV', responseType: 'text/csv', errors: [] },
      handle: (ctx) => exportList(ctx, kind, path),
    },
    {
      method: 'GET', path: `/api/account/v1/${path}`, auth: true, queued: false,
      doc: { summary: `List the account's ${what}`, tags, response: `${schema}List`, errors: [] },
      handle: async (ctx) => { sendJson(ctx.res, 200, await ctx.engine.enrichment.list(kind)); },
    },
  ]);
}
