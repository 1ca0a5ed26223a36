/**
 * The URL helper (src/input/url.ts): the address rules, checked on resolved addresses and on every
 * redirect, and a real fetch from a self-signed HTTPS server on loopback.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fetchUrl, addressProblem, isPublicAddress } from '../src/input/url.js';
import type { UrlLookup } from '../src/input/url.js';
import { ReceiptKitError } from '../src/errors.js';
import { startHttps } from './helpers/https-server.js';
import type { TestHttps } from './helpers/https-server.js';

const FIX = path.resolve(__dirname, '..', 'fixtures');
const PDF = readFileSync(path.join(FIX, 'invoice.pdf'));

/** A resolver that must never be asked (literal addresses and refused names do not reach DNS). */
const noLookup: UrlLookup = async (host) => { throw new Error(`unexpected lookup of ${host}`); };

async function rejection(p: Promise<unknown>): Promise<ReceiptKitError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ReceiptKitError);
    return e as ReceiptKitError;
  }
  throw new Error('expected a rejection');
}

describe('addressProblem', () => {
  it.each([
    ['127.0.0.1', /loopback/], ['127.255.0.9', /loopback/], ['10.1.2.3', /private/], ['172.16.0.1', /private/], ['172.31.255.255', /private/],
    ['192.168.1.1', /private/], ['100.64.0.1', /CGNAT/], ['100.127.255.254', /CGNAT/], ['169.254.169.254', /link-local/],
    ['0.0.0.0', /unspecified/], ['0.1.2.3', /unspecified/], ['224.0.0.1', /multicast/], ['239.255.255.250', /multicast/],
    ['255.255.255.255', /broadcast/], ['240.0.0.1', /reserved/], ['192.0.2.5', /documentation/], ['198.18.0.1', /benchmark/],
    ['::', /unspecified/], ['::1', /loopback/], ['fe80::1', /link-local/], ['fe80::1%eth0', /link-local/], ['fd00::1', /unique-local/],
    ['fc12:3456::1', /unique-local/], ['ff02::1', /multicast/], ['::ffff:127.0.0.1', /IPv4-mapped.*loopback/],
    ['::ffff:7f00:1', /IPv4-mapped.*loopback/], ['::ffff:a9fe:a9fe', /IPv4-mapped.*link-local/], ['::ffff:0:10.0.0.1', /IPv4-translated.*private/],
    ['::127.0.0.1', /IPv4-compatible.*loopback/], ['64:ff9b::a00:1', /NAT64.*private/], ['64:ff9b::7f00:1', /NAT64.*loopback/],
    ['2002:c0a8:0101::1', /6to4.*private/], ['2001:db8::1', /documentation/], ['2001:0:4136:e378:8000:63bf:80ff:fffe', /Teredo/],
    ['not-an-ip', /not an IP/],
  ])('%s is refused (%s)', (addr, why) => {
    expect(addressProblem(addr)).toMatch(why);
    expect(isPublicAddress(addr)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:0808:0808::1'])(
    '%s is public', (addr) => {
      expect(addressProblem(addr)).toBeUndefined();
      expect(isPublicAddress(addr)).toBe(true);
    });
});

describe('fetchUrl refuses', () => {
  it.each([
    ['http://example.com/r.png', /only https/],
    ['ftp://example.com/r.png', /only https/],
    ['file:///etc/passwd', /only https/],
    ['https://127.1/r.png', /127\.0\.0\.1 is a loopback/],
    ['https://2130706433/r.png', /127\.0\.0\.1 is a loopback/],
    ['https://0177.0.0.1/r.png', /127\.0\.0\.1 is a loopback/],
    ['https://0x7f.1/r.png', /127\.0\.0\.1 is a loopback/],
    ['https://[::1]/r.png', /::1 is a loopback/],
    ['https://[::ffff:127.0.0.1]/r.png', /IPv4-mapped form of a loopback/],
    ['https://[::ffff:7f00:1]/r.png', /IPv4-mapped form of a loopback/],
    ['https://169.254.169.254/latest/meta-data/', /link-local/],
    ['https://10.0.0.1/r.png', /private/],
    ['https://192.168.1.1/r.png', /private/],
    ['https://100.64.1.1/r.png', /CGNAT/],
    ['https://[fd00::1]/r.png', /unique-local/],
    ['https://0.0.0.0/r.png', /unspecified/],
    ['https://255.255.255.255/r.png', /broadcast/],
    ['https://224.0.0.1/r.png', /multicast/],
    ['https://[ff02::1]/r.png', /multicast/],
    ['https://[64:ff9b::7f00:1]/r.png', /NAT64 form of a loopback/],
    ['https://localhost/r.png', /loopback name/],
    ['https://LOCALHOST./r.png', /loopback name/],
    ['https://api.localhost/r.png', /loopback name/],
    ['https://user:pw@example.com/r.png', /credentials/],
    ['not a url', /not a valid URL/],
  ])('%s', async (url, why) => {
    const e = await rejection(fetchUrl(url, { lookup: noLookup }));
    expect(e.code).toBe('URL_REJECTED');
    expect(e.status).toBe(400);
    expect(e.message).toMatch(why);
  });

  it('a host name that resolves to a private address (every resolved address is checked)', async () => {
    const lookup: UrlLookup = async () => [{ address: '93.184.215.14', family: 4 }, { address: '192.168.0.10', family: 4 }];
    const e = await rejection(fetchUrl('https://receipts.example/r.png', { lookup }));
    expect(e.code).toBe('URL_REJECTED');
    expect(e.message).toMatch(/receipts\.example resolves to 192\.168\.0\.10, which is a private/);
  });

  it('a host name that resolves to an IPv4-mapped loopback address', async () => {
    const lookup: UrlLookup = async () => [{ address: '::ffff:127.0.0.1', family: 6 }];
    const e = await rejection(fetchUrl('https://rebind.example/r.png', { lookup }));
    expect(e.message).toMatch(/IPv4-mapped form of a loopback/);
  });

  it('refusal messages read as English: one "address", the right article (issue 15)', async () => {
    const cases: Array<[string, string]> = [
      ['https://[::ffff:127.0.0.1]/r.png', '::ffff:7f00:1 is an IPv4-mapped form of a loopback IPv4 address (127.0.0.1); only public addresses are fetched'],
      ['https://127.0.0.1/r.png', '127.0.0.1 is a loopback address; only public addresses are fetched'],
      ['https://0.0.0.0/r.png', '0.0.0.0 is an unspecified ("this network") address; only public addresses are fetched'],
      ['https://[fd00::1]/r.png', 'fd00::1 is a unique-local (fc00::/7) address; only public addresses are fetched'],
      ['https://100.64.1.1/r.png', '100.64.1.1 is a shared address space (CGNAT, RFC 6598); only public addresses are fetched'],
    ];
    for (const [url, message] of cases) {
      const e = await rejection(fetchUrl(url, { lookup: noLookup }));
      expect(e.message).toBe(message);
      expect(e.message).not.toMatch(/address address|\ba (?:IPv|[aeo])/);
    }
  });

  it('a host name that does not resolve', async () => {
    const lookup: UrlLookup = async () => { const e = new Error('nope') as NodeJS.ErrnoException; e.code = 'ENOTFOUND'; throw e; };
    const e = await rejection(fetchUrl('https://nowhere.example/r.png', { lookup }));
    expect(e.message).toMatch(/cannot resolve nowhere\.example \(ENOTFOUND\)/);
  });

  it('bad headers, naming them', async () => {
    let e = await rejection(fetchUrl('https://93.184.215.14/r.png', { headers: 'x' as unknown as Record<string, string> }));
    expect(e.field).toBe('headers');
    e = await rejection(fetchUrl('https://93.184.215.14/r.png', { headers: { 'x-a': 1 as unknown as string } }));
    expect(e.message).toMatch(/headers\.x-a: must be a string/);
    e = await rejection(fetchUrl('https://93.184.215.14/r.png', { headers: { 'x-a': 'a\r\nHost: evil' } }));
    expect(e.message).toMatch(/headers\.x-a: invalid value/);
    e = await rejection(fetchUrl('https://93.184.215.14/r.png', { headers: { 'bad name': 'a' } }));
    expect(e.message).toMatch(/not a valid header name/);
  });
});

describe('fetchUrl against a self-signed HTTPS server on loopback', () => {
  let srv: TestHttps;
  beforeAll(async () => {
    srv = await startHttps((req, res) => {
      const u = new URL(req.url ?? '/', 'https://x');
      switch (u.pathname) {
        case '/invoice.pdf': res.writeHead(200, { 'content-type': 'application/pdf' }); res.end(PDF); return;
        case '/redirect': res.writeHead(302, { location: '/invoice.pdf' }); res.end(); return;
        case '/redirect-other-host': res.writeHead(302, { location: `https://receipts.test:${srv.port}/invoice.pdf` }); res.end(); return;
        case '/redirect-private': res.writeHead(301, { location: 'https://10.0.0.1/invoice.pdf' }); res.end(); return;
        case '/redirect-loopback': res.writeHead(307, { location: `https://127.0.0.2:${srv.port}/invoice.pdf` }); res.end(); return;
        case '/redirect-http': res.writeHead(302, { location: `http://127.0.0.1:${srv.port}/invoice.pdf` }); res.end(); return;
        case '/redirect-name': res.writeHead(302, { location: `https://internal.example:${srv.port}/invoice.pdf` }); res.end(); return;
        case '/loop': res.writeHead(302, { location: '/loop' }); res.end(); return;
        case '/big': res.writeHead(200, { 'content-length': String(5_000_000) }); res.end(Buffer.alloc(5_000_000)); return;
        case '/big-chunked': res.writeHead(200); res.write(Buffer.alloc(300_000)); res.end(Buffer.alloc(300_000)); return;
        case '/slow': res.writeHead(200); res.write('x'); setTimeout(() => res.end('y'), 3_000); return;
        case '/missing': res.writeHead(404); res.end('no'); return;
        default: res.writeHead(500); res.end();
      }
    });
  });
  afterAll(async () => { await srv?.close(); });

  const allow = () => ({ allowAddresses: ['127.0.0.1'], ca: srv.ca, lookup: noLookup });

  it('is refused without the test-only allowance (loopback)', async () => {
    const e = await rejection(fetchUrl(`${srv.origin}/invoice.pdf`, { ca: srv.ca }));
    expect(e.message).toMatch(/loopback/);
    expect(srv.seen.length).toBe(0);
  });

  it('is refused without the CA (certificate check stays on)', async () => {
    const e = await rejection(fetchUrl(`${srv.origin}/invoice.pdf`, { allowAddresses: ['127.0.0.1'] }));
    expect(e.code).toBe('URL_REJECTED');
    expect(e.message).toMatch(/cannot fetch the URL: (SELF_SIGNED|DEPTH_ZERO_SELF_SIGNED_CERT)/);
  });

  it('fetches the bytes, forwarding the caller headers', async () => {
    const r = await fetchUrl(`${srv.origin}/invoice.pdf?x=1`, { ...allow(), headers: { Authorization: 'Bearer t', 'X-Trace': 'abc', Host: 'evil', 'Accept-Encoding': 'gzip' } });
    expect(r.bytes.equals(PDF)).toBe(true);
    expect(r.contentType).toBe('application/pdf');
    expect(r.filename).toBe('invoice.pdf');
    expect(r.redirects).toBe(0);
    const seen = srv.seen.at(-1)!;
    expect(seen.url).toBe('/invoice.pdf?x=1');
    expect(seen.headers.authorization).toBe('Bearer t');
    expect(seen.headers['x-trace']).toBe('abc');
    expect(seen.headers.host).toBe(`127.0.0.1:${srv.port}`); // not the caller's Host
    expect(seen.headers['accept-encoding']).toBe('identity'); // no compression
  });

  it('connects to the vetted address, by name (SNI and certificate use the name)', async () => {
    let asked = 0;
    const lookup: UrlLookup = async (host) => { asked++; expect(host).toBe('receipts.test'); return [{ address: '127.0.0.1', family: 4 }]; };
    const r = await fetchUrl(`https://receipts.test:${srv.port}/invoice.pdf`, { allowAddresses: ['127.0.0.1'], ca: srv.ca, lookup });
    expect(r.bytes.length).toBe(PDF.length);
    expect(asked).toBe(1); // the socket did not resolve the name again
  });

  it('follows a same-origin redirect', async () => {
    const r = await fetchUrl(`${srv.origin}/redirect`, { ...allow(), headers: { 'x-trace': 't1' } });
    expect(r.bytes.equals(PDF)).toBe(true);
    expect(r.redirects).toBe(1);
    expect(r.finalUrl).toBe(`${srv.origin}/invoice.pdf`);
    expect(srv.seen.at(-1)!.headers['x-trace']).toBe('t1');
  });

  it('does not forward the caller headers to another origin', async () => {
    const lookup: UrlLookup = async () => [{ address: '127.0.0.1', family: 4 }];
    const r = await fetchUrl(`${srv.origin}/redirect-other-host`, { allowAddresses: ['127.0.0.1'], ca: srv.ca, lookup, headers: { authorization: 'secret' } });
    expect(r.bytes.equals(PDF)).toBe(true);
    expect(srv.seen.at(-1)!.headers.authorization).toBeUndefined();
  });

  it.each([
    ['/redirect-private', /10\.0\.0\.1 is a private/],
    ['/redirect-loopback', /127\.0\.0\.2 is a loopback/],
    ['/redirect-http', /only https/],
  ])('refuses a redirect to a forbidden target (%s)', async (p, why) => {
    const before = srv.seen.length;
    const e = await rejection(fetchUrl(`${srv.origin}${p}`, allow()));
    expect(e.code).toBe('URL_REJECTED');
    expect(e.message).toMatch(why);
    expect(srv.seen.length).toBe(before + 1); // the target was never asked
  });

  it('refuses a redirect to a name that resolves to a private address', async () => {
    const lookup: UrlLookup = async (host) => { expect(host).toBe('internal.example'); return [{ address: '172.20.0.5', family: 4 }]; };
    const e = await rejection(fetchUrl(`${srv.origin}/redirect-name`, { allowAddresses: ['127.0.0.1'], ca: srv.ca, lookup }));
    expect(e.message).toMatch(/internal\.example resolves to 172\.20\.0\.5, which is a private/);
  });

  it('bounds the redirects', async () => {
    const e = await rejection(fetchUrl(`${srv.origin}/loop`, { ...allow(), maxRedirects: 3 }));
    expect(e.message).toMatch(/too many redirects \(more than 3\)/);
  });

  it('caps the size: declared and counted', async () => {
    let e = await rejection(fetchUrl(`${srv.origin}/big`, { ...allow(), maxBytes: 1_000_000 }));
    expect(e.code).toBe('FILE_TOO_LARGE');
    expect(e.status).toBe(413);
    e = await rejection(fetchUrl(`${srv.origin}/big-chunked`, { ...allow(), maxBytes: 400_000 }));
    expect(e.code).toBe('FILE_TOO_LARGE');
  });

  it('caps the time', async () => {
    const t0 = Date.now();
    const e = await rejection(fetchUrl(`${srv.origin}/slow`, { ...allow(), timeoutMs: 400 }));
    expect(e.code).toBe('TIMEOUT');
    expect(Date.now() - t0).toBeLessThan(2_500);
  });

  it('reports an HTTP error status', async () => {
    const e = await rejection(fetchUrl(`${srv.origin}/missing`, allow()));
    expect(e.code).toBe('URL_REJECTED');
    expect(e.message).toMatch(/answered HTTP 404/);
  });
});
