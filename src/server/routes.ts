/**
 * The routes of contract section 6: thin handlers over the account's engine. Each route also
 * describes itself for the OpenAPI document (src/server/openapi.ts), so the two cannot drift.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine } from '../engine.js';
import { extractOptionsSchema, parseOrThrow } from '../contract/options.js';
import { fetchUrl } from '../input/url.js';
import type { FetchUrlOptions } from '../input/url.js';
import { ReceiptKitError } from '../errors.js';
import type { Account, ServerConfig } from './config.js';
import { badParameter, readJsonObject, sendJson } from './http.js';
import { readMultipart } from './multipart.js';
import { optionsFrom, optionalString, requiredString } from './params.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a handler gets: the request, the caller's account and engine, and the work queue. */
export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  account: Account;
  /** Path parameters, decoded, in the order of the path template. */
  params: string[];
  engine: Engine;
  config: ServerConfig;
  /** Runs engine work through the bounded queue (503 when it is full). */
  work<T>(task: () => Promise<T>): Promise<T>;
  /** Options for URL fetches (limits from the config, test-only overrides). */
  fetchOptions: FetchUrlOptions;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

/** How a route is documented in the OpenAPI document. */
export interface RouteDoc {
  summary: string;
  description?: string;
  tags: string[];
  /** Request body kind. */
  body?: 'extract-file' | 'extract-url' | 'extract-encoded' | 'validate-file' | 'validate-url'
    | 'campaign-file' | 'campaign-url' | 'campaign-settings';
  /** Component schema name of the 2xx response. */
  response: string;
  /** 2xx status of the route (default 200). */
  status?: number;
  /** Error statuses the route can answer besides 401/403/429/500. */
  errors: number[];
}

export interface Route {
  method: Method;
  /** OpenAPI path template, e.g. `/api/validation/v1/campaign/settings/{campaignId}`. */
  path: string;
  /** Needs an API key. */
  auth: boolean;
  /** Does engine work (goes through the queue; refused early when it is full). */
  queued: boolean;
  doc: RouteDoc;
  handle(ctx: RouteContext): Promise<void>;
}

// ------------------------------------------------------------------------------------ extraction

const EXTRACT_ERRORS = [400, 413, 415, 422, 503, 504];

async function extractFromFile(ctx: RouteContext, verbose: boolean): Promise<void> {
  const { maxFileBytes, maxFields, maxFieldBytes } = ctx.config.limits;
  const form = await readMultipart(ctx.req, { maxFileBytes, maxFields, maxFieldBytes });
  if (!form.file) throw badParameter('file', 'a file is required (a multipart part named "file")');
  const options = checkedOptions(optionsFrom(form.fields, 'multipart', []), verbose);
  const file = form.file;
  const result = await ctx.work(() => ctx.engine.extract(file.bytes, {
    ...options,
    ...(file.contentType ? { contentType: file.contentType } : {}),
    ...(file.filename ? { filename: file.filename } : {}),
  }));
  sendJson(ctx.res, 200, result);
}

async function extractFromUrl(ctx: RouteContext, verbose: boolean): Promise<void> {
  const body = await readJsonObject(ctx.req, ctx.config.limits.maxJsonBytes);
  const url = requiredString(body, 'url');
  const options = checkedOptions(optionsFrom(body, 'json', ['url', 'headers']), verbose);
  const fetched = await fetchUrl(url, { ...ctx.fetchOptions, headers: body.headers as Record<string, string>, signal: ctx.signal });
  const result = await ctx.work(() => ctx.engine.extract(fetched.bytes, {
    ...options,
    ...(fetched.contentType ? { contentType: fetched.contentType.slice(0, 200) } : {}),
    ...(fetched.filename ? { filename: fetched.filename } : {}),
  }));
  sendJson(ctx.res, 200, result);
}

async function extractFromEncoded(ctx: RouteContext, verbose: boolean): Promise<void> {
  // base64 is 4/3 of the file, plus room for the options
  const body = await readJsonObject(ctx.req, Math.ceil((ctx.config.limits.maxFileBytes * 4) / 3) + ctx.config.limits.maxJsonBytes);
  const image = requiredString(body, 'image', Number.MAX_SAFE_INTEGER);
  const filename = optionalString(body, 'filename');
  const contentType = optionalString(body, 'contentType', 200);
  const options = checkedOptions(optionsFrom(body, 'json', ['image', 'filename', 'contentType']), verbose);
  const result = await ctx.work(() => ctx.engine.extract({ image, ...(filename ? { filename } : {}), ...(contentType ? { contentType } : {}) }, options));
  sendJson(ctx.res, 200, result);
}

/** Checks extraction options before any work (a URL is not fetched for a request that would fail). */
function checkedOptions(options: Record<string, unknown>, verbose: boolean): Record<string, unknown> & { verbose: boolean } {
  parseOrThrow(extractOptionsSchema, { ...options, verbose }, 'parameters');
  return { ...options, verbose };
}

function extractionRoutes(): Route[] {
  const routes: Route[] = [];
  for (const shape of ['simple', 'verbose'] as const) {
    const verbose = shape === 'verbose';
    const response = verbose ? 'VerboseResult' : 'SimpleResult';
    const tags = ['receipt'];
    routes.push(
      {
        method: 'POST', path: `/api/receipt/v1/${shape}/file`, auth: true, queued: true,
        doc: { summary: `Extract (${shape}) from an uploaded file`, tags, body: 'extract-file', response, errors: EXTRACT_ERRORS },
        handle: (ctx) => extractFromFile(ctx, verbose),
      },
      {
        method: 'POST', path: `/api/receipt/v1/${shape}/url`, auth: true, queued: true,
        doc: { summary: `Extract (${shape}) from an https URL`, description: 'The server fetches the URL under the URL rules (https only, public addresses only, checked again on every redirect, size and time capped) and forwards `headers`.', tags, body: 'extract-url', response, errors: EXTRACT_ERRORS },
        handle: (ctx) => extractFromUrl(ctx, verbose),
      },
      {
        method: 'POST', path: `/api/receipt/v1/${shape}/encoded`, auth: true, queued: true,
        doc: { summary: `Extract (${shape}) from a base64-encoded file`, tags, body: 'extract-encoded', response, errors: EXTRACT_ERRORS },
        handle: (ctx) => extractFromEncoded(ctx, verbose),
      },
    );
  }
  return routes;
}

/** Every route of the server's API (the public pages are served by the server itself). */
export function apiRoutes(): Route[] {
  return [...extractionRoutes()];
}

/** A route matcher built from the path templates. */
export interface RouteMatch { route: Route; params: string[] }

export function matcher(routes: Route[]): (method: string, pathname: string) => RouteMatch | { allowed: Method[] } | undefined {
  const compiled = routes.map((route) => ({
    route,
    re: new RegExp(`^${route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[A-Za-z]+\}/g, '([^/]+)')}$`),
  }));
  return (method, pathname) => {
    const allowed: Method[] = [];
    for (const { route, re } of compiled) {
      const m = re.exec(pathname);
      if (!m) continue;
      if (route.method !== method) { allowed.push(route.method); continue; }
      let params: string[];
      try {
        params = m.slice(1).map((p) => decodeURIComponent(p));
      } catch {
        throw new ReceiptKitError('INVALID_OPTION', 'the path holds an invalid percent-encoding', { field: 'path' });
      }
      return { route, params };
    }
    return allowed.length ? { allowed } : undefined;
  };
}
