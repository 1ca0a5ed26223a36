/**
 * The routes of contract section 6: thin handlers over the account's engine. Each route also
 * describes itself for the OpenAPI document (src/server/openapi.ts), so the two cannot drift.
 */
import { extractOptionsSchema, parseOrThrow } from '../contract/options.js';
import { parseWithField, validateOptionsSchema, validationRulesSchema } from '../contract/validation.js';
import type { ValidationRulesInput } from '../contract/validation.js';
import { fetchUrl } from '../input/url.js';
import { ReceiptKitError } from '../errors.js';
import { badParameter, readJsonObject, sendJson } from './http.js';
import { readMultipart } from './multipart.js';
import { campaignIdFrom, optionsFrom, optionalString, requiredString, ruleSetFrom } from './params.js';
import { enrichmentRoutes } from './enrich-routes.js';
import type { Method, Route, RouteContext } from './route-types.js';

export type { Method, Route, RouteContext, RouteDoc } from './route-types.js';

// ------------------------------------------------------------------------------------ extraction

const EXTRACT_ERRORS = [400, 413, 415, 422, 503, 504];

async function extractFromFile(ctx: RouteContext, verbose: boolean): Promise<void> {
  const { maxFileBytes, maxFields, maxFieldBytes } = ctx.config.limits;
  const form = await readMultipart(ctx.req, { maxFileBytes, maxFields, maxFieldBytes });
  if (!form.file) throw badParameter('file', 'a file is required (a multipart part named "file")');
  const options = checkedOptions(optionsFrom(form.fields, 'multipart', []), verbose);
  const file = form.file;
  const result = await ctx.work((timeoutMs) => ctx.engine.extract(file.bytes, {
    ...options,
    ...(timeoutMs ? { timeoutMs } : {}),
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
  const result = await ctx.work((timeoutMs) => ctx.engine.extract(fetched.bytes, {
    ...options,
    ...(timeoutMs ? { timeoutMs } : {}),
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
  const result = await ctx.work((timeoutMs) => ctx.engine.extract({ image, ...(filename ? { filename } : {}), ...(contentType ? { contentType } : {}) }, { ...options, ...(timeoutMs ? { timeoutMs } : {}) }));
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

// ------------------------------------------------------------------------------------ validation

const VALIDATE_ERRORS = [400, 413, 415, 422, 503, 504];

/** Inline validation is a per-account feature. */
function requireInlineValidation(ctx: RouteContext): void {
  if (!ctx.account.inlineValidation) {
    throw new ReceiptKitError('FEATURE_DISABLED', 'inline validation is not enabled for this account; use a campaign (/api/validation/v1/campaign/...) or ask the server operator to enable inlineValidation for the account');
  }
}

/** Validation options (extraction options without verbose), checked before any work. */
function checkedValidateOptions(options: Record<string, unknown>): Record<string, unknown> {
  parseWithField(validateOptionsSchema, options, 'parameters');
  return options;
}

function checkedRules(rules: unknown): ValidationRulesInput {
  parseWithField(validationRulesSchema, rules, 'validation');
  return rules as ValidationRulesInput;
}

/** What a validation endpoint receives: the file's bytes with their hints, the rest of its parameters. */
interface Received { bytes: Buffer; contentType?: string; filename?: string; params: Record<string, unknown>; source: 'multipart' | 'json' }

async function receiveFile(ctx: RouteContext): Promise<Received> {
  const { maxFileBytes, maxFields, maxFieldBytes } = ctx.config.limits;
  const form = await readMultipart(ctx.req, { maxFileBytes, maxFields, maxFieldBytes });
  if (!form.file) throw badParameter('file', 'a file is required (a multipart part named "file")');
  return {
    bytes: form.file.bytes, params: form.fields, source: 'multipart',
    ...(form.file.contentType ? { contentType: form.file.contentType } : {}),
    ...(form.file.filename ? { filename: form.file.filename } : {}),
  };
}

/** Reads a URL endpoint's JSON body; `check` runs on the body before the URL is fetched. */
async function receiveUrl(ctx: RouteContext, check: (body: Record<string, unknown>) => Promise<void> | void): Promise<Received> {
  const body = await readJsonObject(ctx.req, ctx.config.limits.maxJsonBytes);
  const url = requiredString(body, 'url');
  await check(body);
  const fetched = await fetchUrl(url, { ...ctx.fetchOptions, headers: body.headers as Record<string, string>, signal: ctx.signal });
  return {
    bytes: fetched.bytes, params: body, source: 'json',
    ...(fetched.contentType ? { contentType: fetched.contentType.slice(0, 200) } : {}),
    ...(fetched.filename ? { filename: fetched.filename } : {}),
  };
}

const hints = (r: Received) => ({ ...(r.contentType ? { contentType: r.contentType } : {}), ...(r.filename ? { filename: r.filename } : {}) });

async function validateInline(ctx: RouteContext, kind: 'file' | 'url'): Promise<void> {
  requireInlineValidation(ctx);
  const control = ['validation', 'url', 'headers'];
  let rules: ValidationRulesInput | undefined;
  let options: Record<string, unknown> = {};
  const prepare = (params: Record<string, unknown>, source: 'multipart' | 'json') => {
    rules = checkedRules(ruleSetFrom(params, source));
    options = checkedValidateOptions(optionsFrom(params, source, control));
  };
  const received = kind === 'file' ? await receiveFile(ctx) : await receiveUrl(ctx, (body) => prepare(body, 'json'));
  if (kind === 'file') prepare(received.params, 'multipart');
  const result = await ctx.work((timeoutMs) => ctx.engine.validate(received.bytes, rules!, { ...options, ...hints(received), ...(timeoutMs ? { timeoutMs } : {}) }));
  sendJson(ctx.res, 200, result);
}

async function validateCampaign(ctx: RouteContext, kind: 'file' | 'url'): Promise<void> {
  const control = ['campaignId', 'url', 'headers'];
  let campaignId = '';
  let options: Record<string, unknown> = {};
  const prepare = async (params: Record<string, unknown>, source: 'multipart' | 'json') => {
    campaignId = campaignIdFrom(params.campaignId, 'in the body');
    options = checkedValidateOptions(optionsFrom(params, source, control));
    await ctx.engine.campaigns.get(campaignId); // 404 before any OCR or fetch
  };
  const received = kind === 'file' ? await receiveFile(ctx) : await receiveUrl(ctx, (body) => prepare(body, 'json'));
  if (kind === 'file') await prepare(received.params, 'multipart');
  const result = await ctx.work((timeoutMs) => ctx.engine.campaigns.validate(campaignId, received.bytes, { ...options, ...hints(received), ...(timeoutMs ? { timeoutMs } : {}) }));
  sendJson(ctx.res, 200, result);
}

function validationRoutes(): Route[] {
  const inline = 'Needs inline validation enabled on the account (403 otherwise). Nothing is stored.';
  const campaign = 'Validates against the stored settings of `campaignId` and stores the scan for the campaign\'s duplicate checks (unless `incognito`).';
  return [
    {
      method: 'POST', path: '/api/validation/v1/receipt-validation/file', auth: true, queued: true,
      doc: { summary: 'Validate an uploaded receipt against an inline rule set', description: `${inline} \`validation\` is a JSON string.`, tags: ['validation'], body: 'validate-file', response: 'ValidationResult', errors: VALIDATE_ERRORS },
      handle: (ctx) => validateInline(ctx, 'file'),
    },
    {
      method: 'POST', path: '/api/validation/v1/receipt-validation/url', auth: true, queued: true,
      doc: { summary: 'Validate a receipt at an https URL against an inline rule set', description: `${inline} \`validation\` is an object.`, tags: ['validation'], body: 'validate-url', response: 'ValidationResult', errors: VALIDATE_ERRORS },
      handle: (ctx) => validateInline(ctx, 'url'),
    },
    {
      method: 'POST', path: '/api/validation/v1/campaign/receipt-validation/file', auth: true, queued: true,
      doc: { summary: 'Validate an uploaded receipt against a campaign', description: campaign, tags: ['campaign'], body: 'campaign-file', response: 'ValidationResult', errors: [...VALIDATE_ERRORS, 404] },
      handle: (ctx) => validateCampaign(ctx, 'file'),
    },
    {
      method: 'POST', path: '/api/validation/v1/campaign/receipt-validation/url', auth: true, queued: true,
      doc: { summary: 'Validate a receipt at an https URL against a campaign', description: campaign, tags: ['campaign'], body: 'campaign-url', response: 'ValidationResult', errors: [...VALIDATE_ERRORS, 404] },
      handle: (ctx) => validateCampaign(ctx, 'url'),
    },
  ];
}

// ------------------------------------------------------------------------------------ campaigns

async function campaignSettingsBody(ctx: RouteContext): Promise<Record<string, unknown>> {
  return readJsonObject(ctx.req, ctx.config.limits.maxJsonBytes);
}

function campaignRoutes(): Route[] {
  const tags = ['campaign'];
  const pathId = (ctx: RouteContext) => campaignIdFrom(ctx.params[0], 'in the path');
  // create and update: the id from the path, the whole rule set from the body
  const writeSettings = async (ctx: RouteContext, op: 'create' | 'update') => {
    const id = pathId(ctx);
    const settings = await campaignSettingsBody(ctx);
    const result = await ctx.engine.campaigns[op](id, settings as ValidationRulesInput);
    sendJson(ctx.res, result.statusCode, result);
  };
  return [
    {
      method: 'POST', path: '/api/validation/v1/campaign/settings/create/{campaignId}', auth: true, queued: false,
      doc: { summary: 'Create campaign settings', description: 'The body is the rule set. 409 when the campaign exists.', tags, body: 'campaign-settings', response: 'CampaignResult', status: 201, errors: [400, 409, 413, 415] },
      handle: (ctx) => writeSettings(ctx, 'create'),
    },
    {
      method: 'GET', path: '/api/validation/v1/campaign/settings/list', auth: true, queued: false,
      doc: { summary: 'List campaign ids', tags, response: 'CampaignList', errors: [] },
      handle: async (ctx) => { sendJson(ctx.res, 200, await ctx.engine.campaigns.list()); },
    },
    {
      method: 'GET', path: '/api/validation/v1/campaign/settings/{campaignId}', auth: true, queued: false,
      doc: { summary: 'Get campaign settings', tags, response: 'RuleSet', errors: [400, 404] },
      handle: async (ctx) => { sendJson(ctx.res, 200, await ctx.engine.campaigns.get(pathId(ctx))); },
    },
    {
      method: 'PUT', path: '/api/validation/v1/campaign/settings/update/{campaignId}', auth: true, queued: false,
      doc: { summary: 'Replace campaign settings', description: 'The body is the whole new rule set.', tags, body: 'campaign-settings', response: 'CampaignResult', errors: [400, 404, 413, 415] },
      handle: (ctx) => writeSettings(ctx, 'update'),
    },
    {
      method: 'DELETE', path: '/api/validation/v1/campaign/settings/delete/{campaignId}', auth: true, queued: false,
      doc: { summary: 'Delete campaign settings', description: 'Scans stored for the campaign stay for similarity checks.', tags, response: 'CampaignResult', errors: [400, 404] },
      handle: async (ctx) => {
        const result = await ctx.engine.campaigns.delete(pathId(ctx));
        sendJson(ctx.res, result.statusCode, result);
      },
    },
  ];
}

/** Every route of the server's API (the public pages are served by the server itself). */
export function apiRoutes(): Route[] {
  // order matters where templates overlap: settings/list before settings/{campaignId}
  return [...extractionRoutes(), ...validationRoutes(), ...campaignRoutes(), ...enrichmentRoutes()];
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
