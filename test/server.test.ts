/**
 * The HTTP server (contract section 6): real HTTP requests to servers started on port 0. Real OCR is
 * kept to a few requests (the digital invoice PDF needs none); the error paths use tiny bodies.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { createEngine } from '../src/engine.js';
import type { Engine } from '../src/engine.js';
import { SIMPLE_KEYS } from '../src/contract/results.js';
import { apiRoutes } from '../src/server/routes.js';
import { KEY_A, KEY_B, multipart, postForm, raw, sendJsonBody, start } from './helpers/server.js';
import type { Started } from './helpers/server.js';
import { startHttps } from './helpers/https-server.js';
import type { TestHttps } from './helpers/https-server.js';

const FIX = path.resolve(__dirname, '..', 'fixtures');
const PDF = readFileSync(path.join(FIX, 'invoice.pdf'));
const PNG = readFileSync(path.join(FIX, 'receipt-en-simple.png'));
const PDF_EXPECTED = JSON.parse(readFileSync(path.join(FIX, 'invoice.expected.json'), 'utf8'));
const PNG_EXPECTED = JSON.parse(readFileSync(path.join(FIX, 'receipt-en-simple.expected.json'), 'utf8'));
const TEXT = Buffer.from('this is a plain text file, not a receipt image\n');

/** Every API route with a request that would be valid apart from the key. */
const ROUTES = apiRoutes().map((r) => ({ method: r.method, path: r.path.replace('{campaignId}', 'camp-1') }));

const errorShape = (status: number, error: string) => ({ statusCode: status, error, message: expect.any(String) });

describe('server: keys, routes and errors', () => {
  let s: Started;
  beforeAll(async () => {
    s = await start({ limits: { maxFileBytes: 200_000, maxFields: 5, maxFieldBytes: 1000, maxJsonBytes: 10_000 } });
  });
  afterAll(async () => { await s?.server.close(); });

  it('routes every path of contract section 6', () => {
    const paths = ROUTES.map((r) => `${r.method} ${r.path}`);
    for (const shape of ['simple', 'verbose']) for (const kind of ['file', 'url', 'encoded']) expect(paths).toContain(`POST /api/receipt/v1/${shape}/${kind}`);
    for (const p of [
      'POST /api/validation/v1/receipt-validation/file', 'POST /api/validation/v1/receipt-validation/url',
      'POST /api/validation/v1/campaign/settings/create/camp-1', 'GET /api/validation/v1/campaign/settings/list',
      'GET /api/validation/v1/campaign/settings/camp-1', 'PUT /api/validation/v1/campaign/settings/update/camp-1',
      'DELETE /api/validation/v1/campaign/settings/delete/camp-1',
      'POST /api/validation/v1/campaign/receipt-validation/file', 'POST /api/validation/v1/campaign/receipt-validation/url',
    ]) expect(paths).toContain(p);
    // enrichment (issue 6): import, export and list for each list
    for (const list of ['merchants', 'product-codes', 'categories']) {
      for (const p of [`POST /api/account/v1/${list}/import`, `GET /api/account/v1/${list}/export`, `GET /api/account/v1/${list}`]) expect(paths).toContain(p);
    }
    expect(paths).toHaveLength(24);
  });

  it('401 with the exact body on every API route without a key', async () => {
    for (const r of ROUTES) {
      const res = await raw(s.url + r.path, { method: r.method });
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
      expect(res.text).toBe('{"message":"No API key found in request"}');
    }
    const empty = await raw(`${s.url}/api/receipt/v1/simple/file`, { method: 'POST', headers: { apikey: '' } });
    expect(empty.status).toBe(401);
  });

  it('403 with the exact body on every API route with an unknown key', async () => {
    for (const r of ROUTES) {
      const res = await raw(s.url + r.path, { method: r.method, headers: { apikey: 'not-a-configured-key-000000' } });
      expect(res.status, `${r.method} ${r.path}`).toBe(403);
      expect(res.text).toBe('{"message":"Invalid authentication credentials"}');
    }
    // a key of another case is another key
    const res = await raw(`${s.url}/api/receipt/v1/simple/file`, { method: 'POST', headers: { apikey: KEY_A.toUpperCase() } });
    expect(res.status).toBe(403);
  });

  it('answers 401 at once to an upload without a key, without waiting for its body', async () => {
    const sock = net.connect(Number(new URL(s.url).port), '127.0.0.1');
    await new Promise((r) => sock.once('connect', r));
    let text = '';
    sock.on('data', (d) => { text += d; });
    const closed = new Promise((r) => sock.once('close', r));
    sock.write(`POST /api/receipt/v1/simple/file HTTP/1.1\r\nHost: x\r\ncontent-type: multipart/form-data; boundary=b\r\ncontent-length: 50000000\r\n\r\n`);
    sock.write(Buffer.alloc(1000));
    await waitFor(() => text.includes('No API key found'), 5_000);
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    expect(text.toLowerCase()).toContain('connection: close');
    sock.on('error', () => undefined);
    sock.end();
    await closed;
  });

  it('404 for an unknown path (after the key check), 405 for a wrong method', async () => {
    let res = await raw(`${s.url}/api/receipt/v2/simple/file`, { method: 'POST', headers: { apikey: KEY_A } });
    expect(res.status).toBe(404);
    expect(res.json).toEqual(errorShape(404, 'Not Found'));
    res = await raw(`${s.url}/api/receipt/v2/simple/file`, { method: 'POST' });
    expect(res.status).toBe(401);
    res = await raw(`${s.url}/nothing-here`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual(errorShape(404, 'Not Found'));
    res = await raw(`${s.url}/api/receipt/v1/simple/file`, { method: 'GET', headers: { apikey: KEY_A } });
    expect(res.status).toBe(405);
    expect(res.json).toEqual(errorShape(405, 'Method Not Allowed'));
    expect(res.headers.allow).toBe('POST');
  });

  it('415 for a file that is not an image or PDF, and for the wrong request content type', async () => {
    let res = await postForm(`${s.url}/api/receipt/v1/simple/file`, KEY_A, [{ name: 'file', file: TEXT, filename: 'r.png', type: 'image/png' }]);
    expect(res.status).toBe(415);
    expect(res.json).toEqual(errorShape(415, 'Unsupported Media Type'));
    expect(res.json.message).toMatch(/text/);
    res = await sendJsonBody(`${s.url}/api/receipt/v1/simple/file`, KEY_A, { file: 'x' });
    expect(res.status).toBe(415);
    expect(res.json.message).toMatch(/multipart\/form-data/);
    res = await postForm(`${s.url}/api/receipt/v1/simple/url`, KEY_A, [{ name: 'url', value: 'https://example.com/x.png' }]);
    expect(res.status).toBe(415);
    expect(res.json.message).toMatch(/JSON/);
    res = await sendJsonBody(`${s.url}/api/receipt/v1/simple/encoded`, KEY_A, { image: TEXT.toString('base64') });
    expect(res.status).toBe(415);
  });

  it('422 for an empty or truncated file', async () => {
    let res = await postForm(`${s.url}/api/receipt/v1/simple/file`, KEY_A, [{ name: 'file', file: Buffer.alloc(0), filename: 'empty.png' }]);
    expect(res.status).toBe(422);
    expect(res.json).toEqual(errorShape(422, 'Unprocessable Entity'));
    res = await postForm(`${s.url}/api/receipt/v1/verbose/file`, KEY_A, [{ name: 'file', file: PNG.subarray(0, 300), filename: 'cut.png' }]);
    expect(res.status).toBe(422);
    expect(res.json.statusCode).toBe(422);
  });

  it('400 naming the parameter', async () => {
    const url = `${s.url}/api/receipt/v1/simple/file`;
    const cases: Array<[Parameters<typeof postForm>[2], RegExp]> = [
      [[{ name: 'extractTime', value: 'true' }], /^file: /],
      [[{ name: 'file', file: PDF }, { name: 'extractTime', value: 'yes' }], /^extractTime: must be true or false/],
      [[{ name: 'file', file: PDF }, { name: 'refresh', value: '1' }], /^refresh: must be true or false/],
      [[{ name: 'file', file: PDF }, { name: 'colour', value: 'red' }], /colour/],
      [[{ name: 'file', file: PDF }, { name: 'verbose', value: 'true' }], /^verbose: not a parameter/],
      [[{ name: 'file', file: PDF }, { name: 'timeoutMs', value: '5' }], /^timeoutMs: not a parameter/],
      [[{ name: 'file', file: PDF }, { name: 'userId', value: 'u'.repeat(51) }], /userId/],
      [[{ name: 'file', file: PDF }, { name: 'userId', value: 'a' }, { name: 'userId', value: 'b' }], /^userId: the field is given twice/],
      [[{ name: 'file', file: PDF }, { name: 'file', file: PDF }], /^file: only one file/],
      [[{ name: 'image', file: PDF }], /^image: unexpected file part/],
    ];
    for (const [parts, why] of cases) {
      const res = await postForm(url, KEY_A, parts);
      expect(res.status, JSON.stringify(parts.map((p) => p.name))).toBe(400);
      expect(res.json).toEqual(errorShape(400, 'Bad Request'));
      expect(res.json.message).toMatch(why);
    }
    const jsonCases: Array<[string, unknown, RegExp]> = [
      ['/api/receipt/v1/simple/url', {}, /^url: is required/],
      ['/api/receipt/v1/simple/url', { url: 42 }, /^url: must be a string/],
      ['/api/receipt/v1/simple/url', { url: 'https://example.com/a.png', extractTime: 'maybe' }, /^extractTime: must be true or false/],
      ['/api/receipt/v1/simple/url', { url: 'https://example.com/a.png', language: '' }, /language/],
      ['/api/receipt/v1/simple/url', { url: 'https://example.com/a.png', bogus: 1 }, /bogus/],
      ['/api/receipt/v1/simple/url', { url: 'https://example.com/a.png', headers: 'x' }, /^headers/],
      ['/api/receipt/v1/verbose/encoded', { filename: 'a.png' }, /^image: is required/],
      ['/api/receipt/v1/verbose/encoded', { image: '%%%not base64%%%' }, /image is not valid base64/],
      ['/api/receipt/v1/verbose/encoded', { image: PDF.toString('base64'), near: 'x'.repeat(201) }, /near/],
    ];
    for (const [p, body, why] of jsonCases) {
      const res = await sendJsonBody(s.url + p, KEY_A, body);
      expect(res.status, `${p} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
      expect(res.json.message).toMatch(why);
    }
    let res = await raw(`${s.url}/api/receipt/v1/simple/url`, { method: 'POST', headers: { apikey: KEY_A, 'content-type': 'application/json' }, body: '{"url": ' });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/^body: not valid JSON/);
    res = await raw(`${s.url}/api/receipt/v1/simple/url`, { method: 'POST', headers: { apikey: KEY_A, 'content-type': 'application/json' }, body: '[1,2]' });
    expect(res.json.message).toMatch(/^body: must be a JSON object/);
  });

  it('413 for a file over the limit (declared length and streamed), a long field, too many fields, a big JSON body', async () => {
    const big = Buffer.alloc(250_000, 1);
    let res = await postForm(`${s.url}/api/receipt/v1/simple/file`, KEY_A, [{ name: 'file', file: big }]);
    expect(res.status).toBe(413);
    expect(res.json).toEqual(errorShape(413, 'Payload Too Large'));
    // streamed without a length: the limit is counted while reading
    const { body, contentType } = multipart([{ name: 'file', file: big }]);
    const chunks = [];
    for (let i = 0; i < body.length; i += 16_384) chunks.push(body.subarray(i, i + 16_384));
    res = await raw(`${s.url}/api/receipt/v1/simple/file`, { method: 'POST', headers: { apikey: KEY_A, 'content-type': contentType }, chunks });
    expect(res.status).toBe(413);
    expect(res.json.message).toMatch(/over the 200000 byte limit/);
    res = await postForm(`${s.url}/api/receipt/v1/simple/file`, KEY_A, [{ name: 'near', value: 'x'.repeat(1001) }, { name: 'file', file: PDF }]);
    expect(res.status).toBe(413);
    expect(res.json.message).toMatch(/^near: the field is over the 1000 byte limit/);
    res = await postForm(`${s.url}/api/receipt/v1/simple/file`, KEY_A, [...'abcdef'.split('').map((n) => ({ name: `f${n}`, value: 'x' })), { name: 'file', file: PDF }]);
    expect(res.status).toBe(413);
    expect(res.json.message).toMatch(/too many form (fields|parts)/);
    res = await sendJsonBody(`${s.url}/api/receipt/v1/simple/url`, KEY_A, { url: `https://example.com/${'a'.repeat(20_000)}` });
    expect(res.status).toBe(413);
    // the encoded endpoint allows the file's base64 but not more
    res = await sendJsonBody(`${s.url}/api/receipt/v1/simple/encoded`, KEY_A, { image: big.toString('base64') });
    expect(res.status).toBe(413);
  });

  it('URL endpoints refuse forbidden URLs with 400 before fetching', async () => {
    for (const [u, why] of [
      ['http://example.com/r.png', /only https/],
      ['https://127.1/r.png', /loopback/],
      ['https://[::ffff:127.0.0.1]/r.png', /IPv4-mapped/],
      ['https://169.254.169.254/latest/meta-data/', /link-local/],
      ['https://10.0.0.1/r.png', /private/],
      ['https://localhost/r.png', /loopback/],
    ] as const) {
      const res = await sendJsonBody(`${s.url}/api/receipt/v1/verbose/url`, KEY_A, { url: u });
      expect(res.status, u).toBe(400);
      expect(res.json).toEqual(errorShape(400, 'Bad Request'));
      expect(res.json.message).toMatch(why);
    }
  });

  it('healthz and openapi need no key', async () => {
    const h = await raw(`${s.url}/healthz`);
    expect(h.status).toBe(200);
    expect(h.json).toMatchObject({ status: 'ok', queue: { running: 0, waiting: 0 } });
    const o = await raw(`${s.url}/openapi.json`);
    expect(o.status).toBe(200);
    expect(o.headers['content-type']).toMatch(/application\/json/);
  });

  it('logs one JSON line per request: method, path, status, ms, account; never the key or the file', async () => {
    const before = s.logs.length;
    await postForm(`${s.url}/api/receipt/v1/simple/file?x=${KEY_B}`, KEY_A, [{ name: 'file', file: TEXT, filename: 'secret-name.png' }]);
    await raw(`${s.url}/api/receipt/v1/simple/file`, { method: 'POST', headers: { apikey: KEY_B } });
    await new Promise((r) => setTimeout(r, 50));
    const lines = s.logs.slice(before).filter((l) => l.msg === 'request');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 'info', method: 'POST', path: '/api/receipt/v1/simple/file', status: 415, account: 'acme' });
    expect(lines[1]).toMatchObject({ status: 415, account: 'beta' });
    expect(typeof lines[0]!.ms).toBe('number');
    const all = JSON.stringify(s.logs);
    expect(all).not.toContain(KEY_A);
    expect(all).not.toContain(KEY_B);
    expect(all).not.toContain('secret-name');
    expect(all).not.toContain('plain text file');
  });
});

describe('server: extraction', () => {
  let s: Started;
  let https: TestHttps;
  beforeAll(async () => {
    https = await startHttps((req, res) => {
      if (req.url === '/invoice.pdf' && req.headers['x-token'] === 'abc') { res.writeHead(200, { 'content-type': 'application/pdf' }); res.end(PDF); return; }
      if (req.url === '/to-private') { res.writeHead(302, { location: 'https://192.168.1.1/invoice.pdf' }); res.end(); return; }
      res.writeHead(403); res.end();
    });
    // TEST ONLY: loopback is allowed for this server's URL fetches, with the test CA
    s = await start({}, { fetch: { allowAddresses: ['127.0.0.1'], ca: https.ca } });
  });
  afterAll(async () => { await s?.server.close(); await https?.close(); });

  const checkInvoice = (r: any) => {
    expect(Object.keys(r)).toEqual([...SIMPLE_KEYS]);
    expect(r.totalAmount.data).toBe(PDF_EXPECTED.totalAmount);
    expect(r.taxAmount.data).toBe(PDF_EXPECTED.taxAmount);
    expect(r.date.data.slice(0, 10)).toBe(PDF_EXPECTED.date);
  };

  it('simple/file', async () => {
    const res = await postForm(`${s.url}/api/receipt/v1/simple/file`, KEY_A, [{ name: 'file', file: PDF, filename: 'invoice.pdf', type: 'application/pdf' }, { name: 'extractTime', value: 'false' }, { name: 'userId', value: '' }]);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    checkInvoice(res.json);
  });

  it('simple/encoded (base64 and data: URL)', async () => {
    let res = await sendJsonBody(`${s.url}/api/receipt/v1/simple/encoded`, KEY_B, { image: PDF.toString('base64'), filename: 'invoice.pdf', contentType: 'application/pdf', refresh: true });
    expect(res.status, res.text).toBe(200);
    checkInvoice(res.json);
    res = await sendJsonBody(`${s.url}/api/receipt/v1/simple/encoded`, KEY_B, { image: `data:application/pdf;base64,${PDF.toString('base64')}`, extractTime: 'true' });
    expect(res.status, res.text).toBe(200);
    checkInvoice(res.json);
  });

  it('verbose/encoded', async () => {
    const res = await sendJsonBody(`${s.url}/api/receipt/v1/verbose/encoded`, KEY_A, { image: PDF.toString('base64') });
    expect(res.status, res.text).toBe(200);
    expect(res.json.totalAmount).toMatchObject({ data: PDF_EXPECTED.totalAmount, currencyCode: 'EUR' });
    expect(res.json.entities.invoiceNumber.data).toBe(PDF_EXPECTED.invoiceNumber);
    expect(typeof res.json.trackingId).toBe('string');
  });

  it('simple/url and verbose/url fetch over HTTPS, forwarding the headers', async () => {
    let res = await sendJsonBody(`${s.url}/api/receipt/v1/simple/url`, KEY_A, { url: `${https.origin}/invoice.pdf`, headers: { 'x-token': 'abc' }, incognito: true });
    expect(res.status, res.text).toBe(200);
    checkInvoice(res.json);
    res = await sendJsonBody(`${s.url}/api/receipt/v1/verbose/url`, KEY_A, { url: `${https.origin}/invoice.pdf`, headers: { 'x-token': 'abc' }, extractLineItems: false });
    expect(res.status, res.text).toBe(200);
    expect(res.json.totalAmount.data).toBe(PDF_EXPECTED.totalAmount);
    expect(res.json.entities.invoiceNumber.data).toBe(PDF_EXPECTED.invoiceNumber);
    // without the header the test server refuses: the error is reported, not the bytes
    res = await sendJsonBody(`${s.url}/api/receipt/v1/simple/url`, KEY_A, { url: `${https.origin}/invoice.pdf` });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/answered HTTP 403/);
  });

  it('url: a redirect to a private address is refused', async () => {
    const res = await sendJsonBody(`${s.url}/api/receipt/v1/simple/url`, KEY_A, { url: `${https.origin}/to-private` });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/192\.168\.1\.1 is a private/);
  });

  it('verbose/file with real OCR: located fields with regions inside the image', async () => {
    const res = await postForm(`${s.url}/api/receipt/v1/verbose/file`, KEY_A, [{ name: 'file', file: PNG, filename: 'receipt.png', type: 'image/png' }, { name: 'extractLineItems', value: 'true' }]);
    expect(res.status, res.text).toBe(200);
    const r = res.json;
    expect(r.totalAmount.data).toBe(PNG_EXPECTED.totalAmount);
    expect(r.totalAmount.regions.length).toBeGreaterThan(0);
    for (const p of r.totalAmount.regions[0]) {
      expect(p.x).toBeGreaterThanOrEqual(0);
      expect(p.y).toBeGreaterThanOrEqual(0);
    }
    expect(Array.isArray(r.entities.productLineItems)).toBe(true);
  });
});

describe('server: rate limit and queue', () => {
  it('429 past the per-key rate, with Retry-After; other keys are not affected', async () => {
    const s = await start({ rateLimit: { perSecond: 0.01, burst: 2 } });
    try {
      const send = (key: string) => postForm(`${s.url}/api/receipt/v1/simple/file`, key, [{ name: 'file', file: TEXT }]);
      expect((await send(KEY_A)).status).toBe(415);
      expect((await send(KEY_A)).status).toBe(415);
      const res = await send(KEY_A);
      expect(res.status).toBe(429);
      expect(res.json).toEqual(errorShape(429, 'Too Many Requests'));
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await send(KEY_B)).status).toBe(415);
    } finally {
      await s.server.close();
    }
  });

  it('a per-account rate limit overrides the server one', async () => {
    const s = await start({
      rateLimit: { perSecond: 0.01, burst: 1 },
      accounts: [{ id: 'acme', keys: [KEY_A], rateLimit: false }, { id: 'beta', keys: [KEY_B] }],
    });
    try {
      const send = (key: string) => postForm(`${s.url}/api/receipt/v1/simple/file`, key, [{ name: 'file', file: TEXT }]);
      for (let i = 0; i < 4; i++) expect((await send(KEY_A)).status).toBe(415);
      expect((await send(KEY_B)).status).toBe(415);
      expect((await send(KEY_B)).status).toBe(429);
    } finally {
      await s.server.close();
    }
  });

  it('503 with Retry-After when the queue is full; queued requests still run', async () => {
    const s = await start({ concurrency: 1, maxQueue: 1 });
    try {
      const a = postForm(`${s.url}/api/receipt/v1/simple/file`, KEY_A, [{ name: 'file', file: PNG }]);
      await waitFor(async () => (await raw(`${s.url}/healthz`)).json.queue.running === 1);
      const b = postForm(`${s.url}/api/receipt/v1/simple/file`, KEY_B, [{ name: 'file', file: TEXT }]);
      await waitFor(async () => (await raw(`${s.url}/healthz`)).json.queue.waiting === 1);
      const c = await postForm(`${s.url}/api/receipt/v1/simple/file`, KEY_A, [{ name: 'file', file: TEXT }]);
      expect(c.status).toBe(503);
      expect(c.json).toEqual(errorShape(503, 'Service Unavailable'));
      expect(Number(c.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const [ra, rb] = await Promise.all([a, b]);
      expect(ra.status).toBe(200);
      expect(ra.json.totalAmount.data).toBe(PNG_EXPECTED.totalAmount);
      expect(rb.status).toBe(415); // it waited for its turn, then ran
      expect((await raw(`${s.url}/healthz`)).json.queue).toMatchObject({ running: 0, waiting: 0 });
    } finally {
      await s.server.close();
    }
  });

  it("the engine's own OVERLOADED is a 503 with Retry-After too", async () => {
    const engines: Engine[] = [];
    const s = await start({ concurrency: 4 }, { engineFactory: async () => { const e = await createEngine({ workers: 1, maxQueue: 1 }); engines.push(e); return e; } });
    try {
      const a = postForm(`${s.url}/api/receipt/v1/simple/file`, KEY_A, [{ name: 'file', file: PNG }]);
      await waitFor(() => engines[0]!.pending === 1); // acme's engine is working on A
      const b = await postForm(`${s.url}/api/receipt/v1/simple/file`, KEY_A, [{ name: 'file', file: TEXT }]);
      expect(b.status).toBe(503);
      expect(b.json.message).toMatch(/too many extractions/);
      expect(Number(b.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await a).status).toBe(200);
    } finally {
      await s.server.close();
    }
  });
});

describe('server: time limit', () => {
  it('504 past requestTimeoutMs', async () => {
    const s = await start({ requestTimeoutMs: 5 });
    try {
      const res = await postForm(`${s.url}/api/receipt/v1/simple/file`, KEY_A, [{ name: 'file', file: PNG }]);
      expect(res.status).toBe(504);
      expect(res.json).toEqual(errorShape(504, 'Gateway Timeout'));
      expect(res.json.message).toMatch(/longer than 5 ms/);
    } finally {
      await s.server.close();
    }
  });
});

describe('server: lifecycle', () => {
  it('graceful shutdown: the request in flight finishes, new connections are refused', async () => {
    const s = await start();
    const port = Number(new URL(s.url).port);
    const inFlight = postForm(`${s.url}/api/receipt/v1/simple/file`, KEY_A, [{ name: 'file', file: PNG }]);
    await waitFor(async () => s.server.inFlight === 1 && (await raw(`${s.url}/healthz`)).json.queue.running === 1);
    // Measured on the server's side when close() resolves: the client's own clock would see the
    // answer a few ms after the server finished sending it, so comparing the two races.
    let inFlightWhenClosed = -1;
    const closing = s.server.close().then(() => { inFlightWhenClosed = s.server.inFlight; });
    await new Promise((r) => setTimeout(r, 50));
    expect(s.server.closing).toBe(true);
    expect(await connects(port)).toBe(false);
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.json.totalAmount.data).toBe(PNG_EXPECTED.totalAmount);
    expect(res.headers.connection).toBe('close');
    await closing;
    expect(inFlightWhenClosed).toBe(0);
    expect(s.logs.map((l) => l.msg)).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
  });

  it('shutdown closes connections still open after shutdownTimeoutMs', async () => {
    const s = await start({ shutdownTimeoutMs: 200 });
    const { body, contentType } = multipart([{ name: 'file', file: PDF }]);
    // a client that sends half a body and then stalls
    const sock = net.connect(Number(new URL(s.url).port), '127.0.0.1');
    await new Promise((r) => sock.once('connect', r));
    sock.write(`POST /api/receipt/v1/simple/file HTTP/1.1\r\nHost: x\r\napikey: ${KEY_A}\r\ncontent-type: ${contentType}\r\ncontent-length: ${body.length}\r\n\r\n`);
    sock.write(body.subarray(0, 100));
    await waitFor(async () => s.server.inFlight === 1);
    const ended = new Promise((r) => sock.once('close', r));
    const t0 = Date.now();
    await s.server.close();
    await ended;
    expect(Date.now() - t0).toBeLessThan(5_000);
  });
});

describe('server: OpenAPI document', () => {
  let s: Started;
  beforeAll(async () => { s = await start(); });
  afterAll(async () => { await s?.server.close(); });

  it('is OpenAPI 3.1, documents every route (and only routed paths), and every $ref resolves', async () => {
    const doc = (await raw(`${s.url}/openapi.json`)).json;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.apikey).toEqual({ type: 'apiKey', in: 'header', name: 'apikey' });
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${p}`));
    const routed = apiRoutes().map((r) => `${r.method} ${r.path}`);
    expect(documented.sort()).toEqual([...routed, 'GET /', 'GET /healthz', 'GET /openapi.json'].sort());
    for (const r of apiRoutes()) {
      const op = doc.paths[r.path][r.method.toLowerCase()];
      expect(op.responses['401'], r.path).toBeDefined();
      expect(op.responses['403'], r.path).toBeDefined();
      if (r.doc.body) expect(op.requestBody, r.path).toBeDefined();
    }
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[A-Za-z]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of new Set(refs)) expect(doc.components.schemas[ref.slice(22, -1)], ref).toBeDefined();
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops as Record<string, { operationId: string }>).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.info.description).toMatch(/Enrichment \(`\/api\/account\/v1\/\.\.\.`\)/);
    expect(doc.paths['/api/account/v1/merchants/export'].get.responses['200'].content['text/csv']).toBeDefined();
  });
});

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    if (await check()) return;
    if (Date.now() - t0 > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(port, '127.0.0.1');
    c.once('connect', () => { c.destroy(); resolve(true); });
    c.once('error', () => resolve(false));
  });
}
