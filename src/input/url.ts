/**
 * The explicit URL helper (contract sections 1 and 6). The library core never touches the network;
 * this is the one place that does, and only when a caller asks for it (the server's URL endpoints do).
 *
 * Rules, enforced on every hop:
 * - HTTPS only, no credentials in the URL, GET only;
 * - the host is resolved first (`dns.lookup` with `all: true`) and *every* resolved address must be a
 *   public unicast address: loopback, private (RFC 1918), CGNAT (100.64/10), link-local, unique-local
 *   (fc00::/7), multicast, unspecified, broadcast, documentation/benchmark/reserved ranges, and the
 *   IPv4-mapped / -compatible / -translated, NAT64, 6to4 and Teredo forms of any of them are refused;
 * - the connection goes to the vetted address (a custom `lookup` hands the socket that address and
 *   nothing else), so a DNS answer that changes between the check and the connect cannot swap it;
 * - redirects are followed by hand, at most `maxRedirects`, each target checked like the first URL;
 *   the caller's headers are forwarded to the same origin only;
 * - the body is capped at `maxBytes` (Content-Length checked first, then counted) and the whole fetch,
 *   redirects included, at `timeoutMs`. No compression is asked for (no decompression bombs).
 *
 * Refusals are `URL_REJECTED` (400); a body over the cap is `FILE_TOO_LARGE` (413); over the time cap
 * `TIMEOUT` (504).
 */
import https from 'node:https';
import dns from 'node:dns';
import net from 'node:net';
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import { ReceiptKitError } from '../errors.js';

export interface ResolvedAddress { address: string; family: number }
/** Resolves a host name to all its addresses (the shape of `dns.promises.lookup(host, { all: true })`). */
export type UrlLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface FetchUrlOptions {
  /** Request headers forwarded to the target (same origin only on redirects). */
  headers?: Record<string, string>;
  /** Largest body accepted, bytes (default 20 MB). */
  maxBytes?: number;
  /** Time for the whole fetch, redirects included, ms (default 15000). */
  timeoutMs?: number;
  /** Redirects followed at most (default 5). */
  maxRedirects?: number;
  /** Stops the fetch (a TIMEOUT error). */
  signal?: AbortSignal;
  /** Name resolution (default: `dns.promises.lookup` with `all: true`). Injected by tests. */
  lookup?: UrlLookup;
  /**
   * TEST ONLY: addresses allowed even though they are not public (e.g. `['127.0.0.1']` for a test
   * server on loopback). Every other rule still applies. Never set this from user input.
   */
  allowAddresses?: string[];
  /** Extra trusted CA certificates (PEM), e.g. a test server's self-signed certificate. */
  ca?: string | Buffer | Array<string | Buffer>;
}

export interface FetchedUrl {
  bytes: Buffer;
  /** The Content-Type the server claimed (the bytes still decide). */
  contentType?: string;
  /** The last segment of the final URL's path, when there is one. */
  filename?: string;
  /** The URL the body came from, after redirects. */
  finalUrl: string;
  redirects: number;
}

const DEFAULTS = { maxBytes: 20 * 1024 * 1024, timeoutMs: 15_000, maxRedirects: 5 };
const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** Headers a caller may not set: they belong to the connection or to this helper. */
const DROPPED_HEADERS = new Set([
  'host', 'connection', 'content-length', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'keep-alive',
  'proxy-authorization', 'proxy-authenticate', 'proxy-connection', 'expect', 'accept-encoding', 'http2-settings',
]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function rejected(message: string, field = 'url'): ReceiptKitError {
  return new ReceiptKitError('URL_REJECTED', message, { field });
}

// ------------------------------------------------------------------------------------ addresses

/** IPv4 text to 4 bytes (dotted quad only: the URL parser has already normalised other forms). */
function parseIPv4(s: string): number[] | undefined {
  if (!net.isIPv4(s)) return undefined;
  return s.split('.').map(Number);
}

/** IPv6 text (zone id allowed, embedded dotted quad allowed) to 16 bytes. */
function parseIPv6(input: string): number[] | undefined {
  const s = input.replace(/%.*$/, '');
  if (!net.isIPv6(s)) return undefined;
  let text = s;
  let tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = parseIPv4(dotted[1]!);
    if (!v4) return undefined;
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    text = text.slice(0, -dotted[1]!.length);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const [head, rest] = text.includes('::') ? text.split('::') as [string, string] : [text, undefined];
  const groups = (g: string) => (g === '' ? [] : g.split(':').map((h) => parseInt(h, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const words = rest === undefined
    ? [...left, ...tail]
    : [...left, ...new Array(8 - left.length - right.length - tail.length).fill(0), ...right, ...tail];
  if (words.length !== 8 || words.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffff)) return undefined;
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

const inV4 = (b: number[], net: number[], bits: number): boolean => {
  for (let i = 0; i < 4; i++) {
    const take = Math.max(0, Math.min(8, bits - i * 8));
    const mask = take === 0 ? 0 : (0xff << (8 - take)) & 0xff;
    if ((b[i]! & mask) !== (net[i]! & mask)) return false;
  }
  return true;
};

/** Why an IPv4 address is not a public unicast target, or undefined when it is one. */
function v4Problem(b: number[]): string | undefined {
  const ranges: Array<[number[], number, string]> = [
    [[0, 0, 0, 0], 8, 'unspecified ("this network")'],
    [[10, 0, 0, 0], 8, 'private (RFC 1918)'],
    [[100, 64, 0, 0], 10, 'shared address space (CGNAT, RFC 6598)'],
    [[127, 0, 0, 0], 8, 'loopback'],
    [[169, 254, 0, 0], 16, 'link-local'],
    [[172, 16, 0, 0], 12, 'private (RFC 1918)'],
    [[192, 0, 0, 0], 24, 'reserved (IETF protocol assignments)'],
    [[192, 0, 2, 0], 24, 'documentation (TEST-NET-1)'],
    [[192, 88, 99, 0], 24, 'reserved (6to4 relay anycast)'],
    [[192, 168, 0, 0], 16, 'private (RFC 1918)'],
    [[198, 18, 0, 0], 15, 'reserved (benchmarking)'],
    [[198, 51, 100, 0], 24, 'documentation (TEST-NET-2)'],
    [[203, 0, 113, 0], 24, 'documentation (TEST-NET-3)'],
    [[224, 0, 0, 0], 4, 'multicast'],
    [[255, 255, 255, 255], 32, 'broadcast'],
    [[240, 0, 0, 0], 4, 'reserved (240/4)'],
  ];
  for (const [n, bits, why] of ranges) if (inV4(b, n, bits)) return why;
  return undefined;
}

const startsWith = (b: number[], prefix: number[], bits: number): boolean => {
  for (let i = 0; i * 8 < bits; i++) {
    const take = Math.min(8, bits - i * 8);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((b[i]! & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
};

/** Why an IPv6 address is not a public unicast target, or undefined when it is one. */
function v6Problem(b: number[]): string | undefined {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const v4 = (at: number) => b.slice(at, at + 4);
  const embedded = (kind: string, addr: number[]) => {
    const p = v4Problem(addr);
    return p ? `${kind} form of a ${p} IPv4 address (${addr.join('.')})` : undefined;
  };
  if (zeros(0, 16)) return 'unspecified';
  if (zeros(0, 15) && b[15] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated), ::a.b.c.d (compatible)
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return embedded('IPv4-mapped', v4(12));
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return embedded('IPv4-translated', v4(12));
  if (zeros(0, 12)) return embedded('IPv4-compatible', v4(12)) ?? 'reserved (IPv4-compatible, deprecated)';
  // 64:ff9b::/96 (well-known NAT64 prefix) and 64:ff9b:1::/48 (local-use NAT64)
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b], 32) && zeros(4, 12)) return embedded('NAT64', v4(12));
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48)) return 'reserved (local-use NAT64)';
  // 2002::/16 (6to4): the IPv4 address is bytes 2..5
  if (startsWith(b, [0x20, 0x02], 16)) return embedded('6to4', v4(2)) ?? undefined;
  // 2001::/32 (Teredo): the client's IPv4 address is bytes 12..15 inverted
  if (startsWith(b, [0x20, 0x01, 0x00, 0x00], 32)) return embedded('Teredo', v4(12).map((x) => x ^ 0xff)) ?? 'reserved (Teredo)';
  if (startsWith(b, [0xfe, 0x80], 10)) return 'link-local';
  if (startsWith(b, [0xfe, 0xc0], 10)) return 'site-local (deprecated)';
  if (startsWith(b, [0xfc], 7)) return 'unique-local (fc00::/7)';
  if (startsWith(b, [0xff], 8)) return 'multicast';
  if (startsWith(b, [0x01, 0x00, 0, 0, 0, 0, 0, 0], 64)) return 'reserved (discard-only)';
  if (startsWith(b, [0x20, 0x01, 0x0d, 0xb8], 32)) return 'documentation (2001:db8::/32)';
  if (startsWith(b, [0x20, 0x01, 0x00, 0x10], 28) || startsWith(b, [0x20, 0x01, 0x00, 0x20], 28)) return 'reserved (ORCHID)';
  if (startsWith(b, [0x20, 0x01], 23)) return 'reserved (IETF protocol assignments)';
  if (!startsWith(b, [0x20], 3)) return 'not global unicast (outside 2000::/3)';
  return undefined;
}

/**
 * Why an IP address may not be fetched (loopback, private, link-local, ...), or undefined when it is
 * a public unicast address. Text that is not an IP address is refused too.
 */
export function addressProblem(address: string): string | undefined {
  const v4 = parseIPv4(address);
  if (v4) return v4Problem(v4);
  const v6 = parseIPv6(address);
  if (v6) return v6Problem(v6);
  return 'not an IP address';
}

/**
 * `why` of addressProblem as the complement of "is": 'a loopback address', 'an IPv4-mapped form of a
 * loopback IPv4 address (127.0.0.1)', 'not an IP address' (no second "address", the right article).
 */
export function problemPhrase(why: string): string {
  if (why.startsWith('not ')) return why;
  const article = /^(?:[aeio]|un(?!i)|IPv|NAT)/i.test(why) ? 'an' : 'a';
  return /\baddress\b| form of /.test(why) ? `${article} ${why}` : `${article} ${why} address`;
}

/** True when the address is a public unicast address that the URL helper would connect to. */
export function isPublicAddress(address: string): boolean {
  return addressProblem(address) === undefined;
}

// ------------------------------------------------------------------------------------ fetching

const defaultLookup: UrlLookup = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

interface Target { url: URL; hostname: string; address: ResolvedAddress }

/** Checks a URL against the rules and resolves it to one vetted address. */
async function vet(raw: string, opts: FetchUrlOptions, lookup: UrlLookup): Promise<Target> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw rejected(`not a valid URL: ${JSON.stringify(raw.slice(0, 200))}`);
  }
  if (url.protocol !== 'https:') throw rejected(`only https URLs are fetched, not ${url.protocol.replace(/:$/, '')}`);
  if (url.username || url.password) throw rejected('URLs with credentials (user:password@) are not fetched');
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!hostname) throw rejected('the URL has no host');
  const allowed = new Set(opts.allowAddresses ?? []);
  const check = (address: string, name: string) => {
    if (allowed.has(address)) return;
    const why = addressProblem(address);
    if (why) throw rejected(`${name === address ? address : `${name} resolves to ${address}, which`} is ${problemPhrase(why)}; only public addresses are fetched`);
  };
  if (net.isIP(hostname)) {
    check(hostname, hostname);
    return { url, hostname, address: { address: hostname, family: net.isIP(hostname) } };
  }
  const lower = hostname.toLowerCase().replace(/\.$/, '');
  if (lower === 'localhost' || lower.endsWith('.localhost')) throw rejected(`${hostname} is a loopback name; only public addresses are fetched`);
  let addresses: ResolvedAddress[];
  try {
    addresses = await lookup(hostname);
  } catch (e) {
    throw rejected(`cannot resolve ${hostname} (${(e as NodeJS.ErrnoException)?.code ?? (e as Error)?.message ?? 'error'})`);
  }
  if (!Array.isArray(addresses) || addresses.length === 0) throw rejected(`${hostname} has no address`);
  for (const a of addresses) check(a.address, hostname);
  return { url, hostname, address: addresses[0]! };
}

/** Checks caller headers: names must be tokens, values strings without line breaks. */
function cleanHeaders(headers: unknown): Record<string, string> {
  if (headers === undefined || headers === null) return {};
  if (typeof headers !== 'object' || Array.isArray(headers)) throw rejected('headers must be an object of header names to string values', 'headers');
  const out: Record<string, string> = {};
  const entries = Object.entries(headers as Record<string, unknown>);
  if (entries.length > 50) throw rejected('headers: at most 50 headers are forwarded', 'headers');
  for (const [name, value] of entries) {
    if (!HEADER_NAME.test(name)) throw rejected(`headers: ${JSON.stringify(name.slice(0, 100))} is not a valid header name`, 'headers');
    if (typeof value !== 'string') throw rejected(`headers.${name}: must be a string`, `headers.${name}`);
    if (/[\r\n\0]/.test(value) || value.length > 8192) throw rejected(`headers.${name}: invalid value`, `headers.${name}`);
    if (!DROPPED_HEADERS.has(name.toLowerCase())) out[name] = value;
  }
  return out;
}

/**
 * Fetches an https URL under the rules above and returns its body. The body is not interpreted here:
 * pass `bytes` (with `contentType` and `filename` as hints) to `extract`.
 */
export async function fetchUrl(url: string, options: FetchUrlOptions = {}): Promise<FetchedUrl> {
  if (typeof url !== 'string' || url.length === 0) throw rejected('url must be a non-empty string');
  if (url.length > 8192) throw rejected('url is longer than 8192 characters');
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
  const lookup = options.lookup ?? defaultLookup;
  const callerHeaders = cleanHeaders(options.headers);

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ReceiptKitError('TIMEOUT', `fetching the URL took longer than ${timeoutMs} ms`)), timeoutMs);
  const onAbort = () => controller.abort(new ReceiptKitError('TIMEOUT', 'fetching the URL was aborted'));
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const signal = controller.signal;
  const abortable = <T>(p: Promise<T>): Promise<T> => new Promise<T>((resolve, reject) => {
    if (signal.aborted) { reject(signal.reason); return; }
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    p.then((v) => { signal.removeEventListener('abort', stop); resolve(v); }, (e) => { signal.removeEventListener('abort', stop); reject(e); });
  });

  try {
    let origin: string | undefined;
    let current = url;
    for (let redirects = 0; ; redirects++) {
      const target = await abortable(vet(current, options, lookup));
      origin ??= target.url.origin;
      const sameOrigin = target.url.origin === origin;
      const headers: Record<string, string> = { ...(sameOrigin ? callerHeaders : {}), 'accept-encoding': 'identity' };
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'user-agent')) headers['user-agent'] = 'receiptkit-ocr';
      const res = await request(target, headers, options.ca, signal);
      const status = res.statusCode ?? 0;
      if (REDIRECT.has(status)) {
        res.resume();
        const location = res.headers.location;
        if (!location) throw rejected(`the URL answered HTTP ${status} without a Location`);
        if (redirects >= maxRedirects) throw rejected(`too many redirects (more than ${maxRedirects})`);
        try {
          current = new URL(location, target.url).href;
        } catch {
          throw rejected(`the URL redirected to an invalid location ${JSON.stringify(location.slice(0, 200))}`);
        }
        continue;
      }
      if (status < 200 || status > 299) {
        res.resume();
        throw rejected(`the URL answered HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`);
      }
      const bytes = await readBody(res, maxBytes, signal);
      const contentType = typeof res.headers['content-type'] === 'string' ? res.headers['content-type'] : undefined;
      const base = path.posix.basename(decodeSafe(target.url.pathname));
      return {
        bytes,
        ...(contentType ? { contentType } : {}),
        ...(base && base !== '/' ? { filename: base.slice(0, 200) } : {}),
        finalUrl: target.url.href,
        redirects,
      };
    }
  } catch (e) {
    if (signal.aborted && !(e instanceof ReceiptKitError)) throw signal.reason;
    throw e;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

function decodeSafe(s: string): string {
  try { return decodeURIComponent(s); } catch { return s; }
}

/** One GET to the vetted address (SNI and certificate checks use the host name). */
function request(target: Target, headers: Record<string, string>, ca: FetchUrlOptions['ca'], signal: AbortSignal): Promise<IncomingMessage> {
  const { address, family } = target.address;
  return new Promise((resolve, reject) => {
    const req = https.request({
      protocol: 'https:',
      hostname: target.hostname,
      port: target.url.port || 443,
      path: `${target.url.pathname}${target.url.search}`,
      method: 'GET',
      headers,
      agent: false, // no pooled socket from an earlier, differently resolved request
      ...(ca ? { ca } : {}),
      ...(net.isIP(target.hostname) ? {} : { servername: target.hostname }),
      // Connect to the address that was checked, never to a fresh DNS answer.
      lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
        if (opts?.all) cb(null, [{ address, family }]);
        else cb(null, address, family);
      }) as unknown as typeof dns.lookup,
      signal,
    }, resolve);
    req.on('error', (e) => reject(signal.aborted ? signal.reason : rejected(`cannot fetch the URL: ${(e as NodeJS.ErrnoException).code ?? e.message}`)));
    req.end();
  });
}

/** Reads a response body, refusing it past maxBytes (declared or counted). */
function readBody(res: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    return Promise.reject(new ReceiptKitError('FILE_TOO_LARGE', `the URL's file is ${declared} bytes, over the ${maxBytes} byte limit`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (f: () => void) => { if (!settled) { settled = true; f(); } };
    res.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > maxBytes) {
        settle(() => reject(new ReceiptKitError('FILE_TOO_LARGE', `the URL's file is over the ${maxBytes} byte limit`)));
        res.destroy();
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => settle(() => resolve(Buffer.concat(chunks, size))));
    res.on('error', (e) => settle(() => reject(signal.aborted ? signal.reason : rejected(`the download failed: ${e.message}`))));
    res.on('aborted', () => settle(() => reject(signal.aborted ? signal.reason : rejected('the download was cut off'))));
  });
}
