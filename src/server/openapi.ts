/**
 * The OpenAPI 3.1 document served at `/openapi.json`, generated from the route table so that every
 * route is documented and nothing undocumented is routed.
 */
import { STATUS_CODES } from 'node:http';
import { readFileSync } from 'node:fs';
import type { ServerConfig } from './config.js';
import type { Route, RouteDoc } from './routes.js';

type Json = Record<string, unknown>;

const str = (description: string, extra: Json = {}): Json => ({ type: 'string', description, ...extra });
const bool = (description: string): Json => ({ type: 'boolean', description });
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** Extraction options (contract section 2) as request properties. */
const OPTION_PROPERTIES: Record<string, Json> = {
  extractLineItems: bool('verbose only: product line items (default true); false skips that work'),
  detectFraud: bool('verbose only: tamperingDetection, digitalDetection and handwritingDetection (default true); false skips that work and leaves them out'),
  readCodes: bool('decode QR codes and barcodes (entities.codes) and let fiscal QR payloads decide the total, tax, date and seller tax ID they state (default true); false skips that work'),
  extractTime: bool('keep the printed time of day in date (default false)'),
  language: str('language hint (en, fr, de, id, ms, es, jp, zh, ...); an unknown hint falls back to auto with a warning', { maxLength: 20 }),
  near: str('"city, state, country": locale conventions and merchant matching', { maxLength: 200 }),
  ipAddress: str("the end user's IP address", { maxLength: 100 }),
  ignoreMerchantName: str('a name never to return as the merchant', { maxLength: 200 }),
  refresh: bool('re-process even if this file was processed before (default false)'),
  incognito: bool('store nothing about this request (default false)'),
  userId: str('stored with the scan', { minLength: 1, maxLength: 50 }),
  containerId: str('scopes duplicate and similarity checks', { minLength: 1, maxLength: 50 }),
  referenceId: str('receipts sharing a referenceId are not flagged as similar to each other', { minLength: 1, maxLength: 50 }),
  subAccountId: str('usage attribution', { minLength: 1, maxLength: 100 }),
};

/** Multipart forms carry every option as a string; booleans are "true" or "false". */
const multipartOptions = (): Record<string, Json> => Object.fromEntries(Object.entries(OPTION_PROPERTIES).map(([k, v]) => [k,
  v.type === 'boolean' ? { type: 'string', enum: ['true', 'false'], description: v.description } : v]));

const fileProperty: Json = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream', description: 'the receipt or invoice: JPEG, PNG, GIF, WebP, TIFF, HEIC/HEIF or PDF (the bytes decide the type)' };
const urlProperties: Record<string, Json> = {
  url: str('an https URL of the file; only public addresses are fetched (checked on every redirect)', { format: 'uri', maxLength: 8192 }),
  headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'request headers forwarded to the URL (same origin only on redirects)' },
};
const ruleSetNote = 'the rule set of contract section 4 (`date`, `merchantNames`, `productLineItems`, `productCodes`, `balanceOwing`, `documentType`, `fraudDetection`)';

function requestBody(kind: NonNullable<RouteDoc['body']>): Json {
  const multipart = (extra: Record<string, Json>, required: string[]) => ({
    required: true,
    content: { 'multipart/form-data': { schema: { type: 'object', required: ['file', ...required], properties: { file: fileProperty, ...extra, ...multipartOptions() } } } },
  });
  const json = (schema: Json) => ({ required: true, content: { 'application/json': { schema } } });
  switch (kind) {
    case 'extract-file': return multipart({}, []);
    case 'extract-url': return json({ type: 'object', required: ['url'], properties: { ...urlProperties, ...OPTION_PROPERTIES } });
    case 'extract-encoded': return json({
      type: 'object', required: ['image'],
      properties: {
        image: str('the file as base64 (or a data: URL with ;base64)', { contentEncoding: 'base64' }),
        filename: str('the file name, for reports', { maxLength: 1000 }),
        contentType: str('the claimed media type (the bytes decide)', { maxLength: 200 }),
        ...OPTION_PROPERTIES,
      },
    });
    case 'validate-file': return multipart({ validation: str(`JSON text of ${ruleSetNote}`, { contentMediaType: 'application/json' }) }, ['validation']);
    case 'validate-url': return json({ type: 'object', required: ['url', 'validation'], properties: { ...urlProperties, validation: ref('RuleSet'), ...OPTION_PROPERTIES } });
    case 'campaign-file': return multipart({ campaignId: str('the campaign to validate against', { minLength: 1, maxLength: 50 }) }, ['campaignId']);
    case 'campaign-url': return json({ type: 'object', required: ['url', 'campaignId'], properties: { ...urlProperties, campaignId: str('the campaign to validate against', { minLength: 1, maxLength: 50 }), ...OPTION_PROPERTIES } });
    case 'campaign-settings': return json(ref('RuleSet'));
    case 'enrichment-import': return {
      required: true,
      content: {
        'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV, UTF-8, header row first' } },
        'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary', description: 'the CSV file' }, mode: { type: 'string', enum: ['replace', 'append'] } } } },
        'application/json': { schema: { oneOf: [{ type: 'array', items: { type: 'object' } }, { type: 'object', required: ['rows'], properties: { rows: { type: 'array', items: { type: 'object' } }, mode: { type: 'string', enum: ['replace', 'append'] } } }] } },
      },
    };
  }
}

function errorResponse(status: number): Json {
  const why: Record<number, string> = {
    400: 'a bad parameter (the message names it)',
    403: 'the key is unknown, or the feature is not enabled on its account',
    404: 'no such route, or an unknown campaign',
    405: 'the method is not allowed on this path',
    409: 'the campaign exists already',
    413: 'the file, a field or the body is over its limit',
    415: 'not a supported file type, or the wrong request content type',
    422: 'the file is empty, corrupt, truncated or unreadable',
    429: 'over the rate limit of the API key (see Retry-After)',
    503: 'the OCR queue is full or the server is shutting down (see Retry-After)',
    504: 'the extraction took longer than the time limit',
    500: 'an internal error',
  };
  const headers = status === 429 || status === 503 ? { headers: { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } } } : {};
  return { description: `${STATUS_CODES[status]}: ${why[status] ?? ''}`, ...headers, content: { 'application/json': { schema: ref('Error') } } };
}

function operation(route: Route): Json {
  const d = route.doc;
  const responses: Json = {
    [String(d.status ?? 200)]: {
      description: STATUS_CODES[d.status ?? 200],
      content: d.responseType === 'text/csv' ? { 'text/csv': { schema: { type: 'string' } } } : { 'application/json': { schema: ref(d.response) } },
    },
    401: { description: 'Unauthorized: no `apikey` header', content: { 'application/json': { schema: ref('AuthError'), example: { message: 'No API key found in request' } } } },
    403: { description: 'Forbidden: unknown API key (`Invalid authentication credentials`), or a feature not enabled on the account (an `Error` body)', content: { 'application/json': { schema: { oneOf: [ref('AuthError'), ref('Error')] }, example: { message: 'Invalid authentication credentials' } } } },
    429: errorResponse(429),
    500: errorResponse(500),
  };
  for (const s of d.errors) if (!(String(s) in responses)) responses[String(s)] = errorResponse(s);
  const params: Json[] = [...route.path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 50 } }));
  if (d.body === 'enrichment-import') params.push({ name: 'mode', in: 'query', required: false, schema: { type: 'string', enum: ['replace', 'append'] }, description: 'replace (default): the import is the whole list; append: adds rows, a listed key replaces its row' });
  return {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/\{([A-Za-z]+)\}/g, 'By-$1').split(/[/-]/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`,
    summary: d.summary,
    ...(d.description ? { description: d.description } : {}),
    tags: d.tags,
    ...(params.length ? { parameters: params } : {}),
    ...(d.body ? { requestBody: requestBody(d.body) } : {}),
    responses,
  };
}

function version(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

const locatedField: Json = {
  type: 'object', required: ['confidenceLevel'],
  properties: {
    data: {}, confidenceLevel: { type: 'number', minimum: 0, maximum: 0.99 }, text: { type: 'string' }, index: { type: 'integer' },
    keyword: { type: 'string' }, currencyCode: { type: 'string' }, regions: { type: 'array', items: ref('Polygon') },
  },
};
const SIMPLE_FIELDS = ['totalAmount', 'taxAmount', 'date', 'merchantName', 'merchantAddress', 'merchantCity', 'merchantState', 'merchantCountryCode', 'merchantPostalCode', 'merchantTypes'];

/** `entities.codes` (src/codes/): a code on the page and its fiscal payload. */
const CODE_SCHEMAS: Record<string, Json> = {
  CodeEntity: {
    type: 'object', required: ['data', 'format', 'page', 'regions'], description: 'beyond: a QR code or barcode on the page (absent with readCodes false)',
    properties: {
      data: { type: 'string', description: 'the decoded text' },
      format: { type: 'string', enum: ['QRCode', 'EAN13', 'EAN8', 'UPCA', 'UPCE', 'Code128', 'Code39', 'ITF'] },
      page: { type: 'integer', minimum: 1 },
      regions: { type: 'array', items: ref('Polygon'), description: "one polygon: the symbol's corners" },
      fiscal: ref('FiscalCode'),
    },
  },
  FiscalCode: {
    type: 'object', required: ['scheme', 'countryCode'], description: 'a fiscal payload; its fields decide the result\'s (confidence 0.99, a warning when the text read otherwise). `error` instead of `data` when it could not be read (then it changes nothing)',
    properties: {
      scheme: { type: 'string', enum: ['sa-zatca', 'in-gst-einvoice', 'ru-fns', 'br-nfe', 'pt-atcud', 'es-ticketbai', 'es-verifactu', 'hr-fiskalizacija'] },
      countryCode: { type: 'string' },
      data: {
        type: 'object', properties: {
          totalAmount: { type: 'number' }, taxAmount: { type: 'number' }, date: { type: 'string', format: 'date' }, time: { type: 'string', description: 'HH:MM:SS' },
          merchantTaxId: { type: 'string' }, merchantName: { type: 'string' }, invoiceNumber: { type: 'string' }, currencyCode: { type: 'string' },
        },
      },
      error: { type: 'string' },
    },
  },
};

function schemas(): Json {
  return {
    Error: {
      type: 'object', required: ['statusCode', 'error', 'message'],
      properties: { statusCode: { type: 'integer' }, error: { type: 'string', description: 'the HTTP reason phrase' }, message: { type: 'string', description: 'what went wrong; names the parameter on a 400' } },
    },
    AuthError: { type: 'object', required: ['message'], properties: { message: { type: 'string', enum: ['No API key found in request', 'Invalid authentication credentials'] } } },
    Point: { type: 'object', required: ['x', 'y'], properties: { x: { type: 'number' }, y: { type: 'number' } } },
    Polygon: { type: 'array', items: ref('Point'), minItems: 4, maxItems: 4, description: '4 points in pixels of the original image as displayed (page 1 for PDFs)' },
    SimpleField: {
      type: 'object', required: ['confidenceLevel'], description: 'a found field has data; a missing one is { "confidenceLevel": 0 } without data',
      properties: { data: {}, confidenceLevel: { type: 'number', minimum: 0, maximum: 0.99 } },
    },
    SimpleResult: {
      type: 'object', description: 'exactly these keys, in this order (contract section 3)',
      required: ['totalAmount', 'taxAmount', 'confidenceLevel', ...SIMPLE_FIELDS.slice(2)],
      properties: {
        totalAmount: ref('SimpleField'), taxAmount: ref('SimpleField'), confidenceLevel: { type: 'number', minimum: 0, maximum: 0.99 },
        ...Object.fromEntries(SIMPLE_FIELDS.slice(2).map((f) => [f, ref('SimpleField')])),
      },
    },
    LocatedField: locatedField,
    VerboseResult: {
      type: 'object', description: 'the simple fields as located fields plus the verbose additions of contract section 3',
      properties: {
        totalAmount: ref('LocatedField'), taxAmount: ref('LocatedField'), confidenceLevel: { type: 'number' },
        ...Object.fromEntries(SIMPLE_FIELDS.slice(2).map((f) => [f, ref('LocatedField')])),
        ...Object.fromEntries(['paidAmount', 'discountAmount', 'subtotalAmount', 'tipAmount', 'roundingAmount', 'dueDate', 'paymentType', 'cardLast4', 'merchantPhoneNumber', 'merchantTaxId', 'merchantWebsite'].map((f) => [f, ref('LocatedField')])),
        currencyCode: { type: 'string' }, itemsCount: { type: 'object' },
        documentType: { type: 'object', description: 'beyond: the kind of document, receipt, invoice or other (pictures, chat or web-page screenshots, letters, bank statements); the rules that counted are in evidence.documentType', properties: { data: { type: 'string', enum: ['receipt', 'invoice', 'other'] }, confidenceLevel: { type: 'number' } } },
        language: { type: 'object', description: 'beyond: the language of the text (ISO 639-1), read from the text itself; { confidenceLevel: 0 } when there is too little text; the detector\'s scores are in evidence.language', properties: { data: { type: 'string' }, confidenceLevel: { type: 'number' } } },
        text: { type: 'object', properties: { text: { type: 'string' }, regions: { type: 'array', items: ref('Polygon') } } },
        amounts: { type: 'array', items: { type: 'object' } }, lineAmounts: { type: 'array', items: { type: 'object' } }, numbers: { type: 'array', items: { type: 'object' } },
        entities: { type: 'object', description: 'productLineItems (with productCode and category when known), multiTaxLineItems, invoiceNumber, receiptNumber, lineItemsCheck, category (merchant level), normalisedMerchant (the known merchant matched), codes (QR codes and barcodes: CodeEntity), ...', properties: { codes: { type: 'array', items: ref('CodeEntity') } } },
        similarReceipts: { type: 'array', items: { type: 'object' } },
        location: { type: 'object', description: 'only with a public ipAddress: MaxMind GeoIP2 City shape (city.names.en, country.iso_code/names, location.latitude/longitude/time_zone, postal.code, subdivisions, traits.ip_address/network)' },
        pages: { type: 'integer' }, targetRotation: { type: 'integer' }, warnings: { type: 'array', items: { type: 'string' } },
        evidence: { type: 'object', description: 'what decided totalAmount, taxAmount, date, merchantName, merchantAddress, the locale, documentType and language: evidence terms as weighed and the deciding rule (rule:<name>)', additionalProperties: { type: 'array', items: { type: 'string' } } },
        trackingId: { type: 'string' }, elapsed: { type: 'number' },
      },
    },
    RuleSet: {
      type: 'object', additionalProperties: false, description: 'validation rules (contract section 4); every section optional, unknown fields are refused (400 naming them)',
      properties: {
        date: { type: 'object', required: ['start', 'end'], properties: { start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' } } },
        merchantNames: { type: 'object', properties: { skip: { type: 'boolean' }, allowList: { type: 'array', items: { type: 'string' } }, blockList: { type: 'array', items: { type: 'string' } }, list: { type: 'array', items: { type: 'string' }, description: 'legacy allow list' }, returnFromTheList: { type: 'boolean' } } },
        productLineItems: { type: 'object', properties: { skip: { type: 'boolean' }, names: { type: 'array', items: { type: 'string' } }, quantity: ref('Range'), totalPrice: ref('Range') } },
        productCodes: { type: 'object', description: '`list` (at least one code) is required unless `skip` is true', properties: { skip: { type: 'boolean' }, list: { type: 'array', items: { type: 'string' } }, description: { type: 'string' } } },
        balanceOwing: { type: 'object', description: '`max` is required unless `skip` is true', properties: { skip: { type: 'boolean' }, max: { type: 'number', minimum: 0 } } },
        documentType: { type: 'object', description: 'beyond: check document_type_validated; receipts pass, invoices pass unless allowInvoice is false, other documents fail unless allowOther is true', properties: { skip: { type: 'boolean' }, allowInvoice: { type: 'boolean' }, allowOther: { type: 'boolean' } } },
        fraudDetection: { type: 'object', properties: { allowSimilarityCheck: { type: 'boolean' }, allowTamperDetection: { type: 'boolean' }, allowDigitalDetection: { type: 'boolean' } } },
        additionalExtractionFields: { type: 'array', items: { type: 'string', enum: ['modelNumber'] } },
      },
    },
    Range: { type: 'object', properties: { min: { type: 'number' }, max: { type: 'number' } } },
    ...CODE_SCHEMAS,
    ValidationResult: {
      type: 'object', description: 'contract section 4',
      properties: {
        successful: { type: 'boolean' },
        passedValidations: { type: 'array', items: { type: 'string' } },
        failedValidations: { type: 'array', items: { type: 'string' } },
        reasons: { type: 'object', additionalProperties: { type: 'string' } },
        productLineItems: { type: 'array', items: { type: 'object' } }, matchedProductLineItems: { type: 'array', items: { type: 'object' } },
        date: {}, merchantName: {}, merchantAddress: {}, merchantCity: {}, merchantPostalCode: {}, merchantState: {}, merchantCountryCode: {},
        productCodes: { type: 'array', items: {} }, balanceAmount: {}, totalAmount: {}, receiptNumber: {}, invoiceNumber: {},
        trackingId: { type: 'string' }, targetRotation: { type: 'integer' }, similarReceipts: { type: 'array', items: { type: 'object' } },
      },
    },
    CampaignResult: {
      type: 'object', required: ['result', 'statusCode'],
      properties: { result: { type: 'string', examples: ['Successfully created campaign settings'] }, statusCode: { type: 'integer' } },
    },
    CampaignList: { type: 'array', items: { type: 'string' }, description: 'campaign ids' },
    ImportSummary: {
      type: 'object', required: ['list', 'mode', 'imported', 'total'],
      properties: { list: { type: 'string', enum: ['merchants', 'productCodes', 'categories'] }, mode: { type: 'string', enum: ['replace', 'append'] }, imported: { type: 'integer', description: 'rows in the import' }, total: { type: 'integer', description: 'rows in the list afterwards' } },
    },
    KnownMerchant: {
      type: 'object', required: ['name'], additionalProperties: false,
      properties: {
        id: str('the account\'s own id (unique in the list)', { maxLength: 100 }), name: str('merchant name', { maxLength: 200 }), address: str('street address', { maxLength: 500 }),
        city: str('city', { maxLength: 100 }), state: str('state or region', { maxLength: 100 }), postcode: str('postal code', { maxLength: 20 }),
        country: str('ISO 3166-1 alpha-2 (an English country name is accepted on import)', { maxLength: 100 }),
        latitude: { type: 'number', minimum: -90, maximum: 90 }, longitude: { type: 'number', minimum: -180, maximum: 180 },
        category: str('merchant-level category, wins when the merchant is matched', { maxLength: 100 }),
      },
    },
    KnownMerchantList: { type: 'array', items: ref('KnownMerchant') },
    ProductCode: { type: 'object', required: ['code'], additionalProperties: false, properties: { code: str('the code as listed', { maxLength: 100 }), name: str('product name', { maxLength: 200 }), category: str('product-level category', { maxLength: 100 }) } },
    ProductCodeList: { type: 'array', items: ref('ProductCode') },
    CategoryRule: {
      type: 'object', required: ['category', 'keywords'], additionalProperties: false,
      properties: { category: str('category name', { maxLength: 100 }), level: { type: 'string', enum: ['merchant', 'product', 'both'], default: 'both' }, keywords: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'whole words after normalisation; a trailing * matches a prefix' } },
    },
    CategoryRuleList: { type: 'array', items: ref('CategoryRule') },
    Health: { type: 'object', properties: { status: { type: 'string' }, uptimeSeconds: { type: 'integer' }, requestsInFlight: { type: 'integer' }, queue: { type: 'object' } } },
  };
}

export function openApiDocument(routes: Route[], config: ServerConfig): Json {
  const paths: Record<string, Json> = {};
  for (const r of routes) {
    paths[r.path] ??= {};
    (paths[r.path] as Json)[r.method.toLowerCase()] = operation(r);
  }
  paths['/healthz'] = { get: { operationId: 'getHealthz', summary: 'Liveness and queue state', tags: ['server'], security: [], responses: { 200: { description: 'OK', content: { 'application/json': { schema: ref('Health') } } }, 503: errorResponse(503) } } };
  paths['/openapi.json'] = { get: { operationId: 'getOpenApi', summary: 'This document', tags: ['server'], security: [], responses: { 200: { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } } } };
  paths['/'] = { get: { operationId: 'getUi', summary: 'A page to try the API: drop a receipt, see its fields and their boxes', tags: ['server'], security: [], responses: { 200: { description: 'OK', content: { 'text/html': { schema: { type: 'string' } } } } } } };
  return {
    openapi: '3.1.0',
    info: {
      title: 'receiptkit server',
      version: version(),
      description: [
        'Receipt and invoice extraction and validation, self-hosted: the paths and shapes of the hosted receipt API, served by receiptkit.',
        'Every /api path needs the header `apikey`. Missing: 401 `{"message":"No API key found in request"}`; unknown: 403 `{"message":"Invalid authentication credentials"}`. Other errors are `{"statusCode","error","message"}`.',
        `Limits: files up to ${config.limits.maxFileBytes} bytes; at most ${config.limits.maxFields} form fields of ${config.limits.maxFieldBytes} bytes; JSON bodies up to ${config.limits.maxJsonBytes} bytes (the encoded endpoints: the file's base64 plus that).`,
        'Enrichment (`/api/account/v1/...`): each account\'s known merchants, product codes and categories, imported and exported as CSV or JSON rows.',
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    security: [{ apikey: [] }],
    tags: [{ name: 'receipt' }, { name: 'validation' }, { name: 'campaign' }, { name: 'account' }, { name: 'server' }],
    paths,
    components: {
      securitySchemes: { apikey: { type: 'apiKey', in: 'header', name: 'apikey' } },
      schemas: schemas(),
    },
  };
}
