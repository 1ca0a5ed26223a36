/**
 * The HTTP server (`receiptkit serve`): node:http, one engine per account, the routes of
 * src/server/routes.ts, plus `/` (a small page), `/healthz` and `/openapi.json`.
 *
 * Order of checks on an API request: shutting down (503) -> API key (401/403) -> route (404/405) ->
 * rate limit (429) -> queue full (503, before the body is read) -> handler (400/413/415/422/...) ->
 * queue slot (503) -> engine.
 */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createEngine } from '../engine.js';
import type { Engine } from '../engine.js';
import type { FetchUrlOptions } from '../input/url.js';
import { ReceiptKitError } from '../errors.js';
import { accountsOf, defaultConcurrency, hashKey, parseServerConfig } from './config.js';
import type { Account, ServerConfig, ServerConfigInput } from './config.js';
import { HttpError, badKey, errorBody, errorReply, linger, noKey, sendJson } from './http.js';
import { RateLimiter, WorkQueue } from './limits.js';
import { apiRoutes, matcher } from './routes.js';
import type { Route, RouteContext } from './routes.js';
import { openApiDocument } from './openapi.js';
import { uiPage } from './ui.js';

export type LogLine = Record<string, unknown>;

interface RequestState {
  account?: string;
  /** Why the request was cut off as too slow (408). */
  timedOut?: string;
}
export type Logger = (line: LogLine) => void;

export interface ServerOptions {
  /** The configuration (see src/server/config.ts); checked again here. */
  config: ServerConfigInput | ServerConfig;
  /** One call per log line (default: JSON lines on stdout). */
  logger?: Logger;
  /** Makes an account's engine (default: `createEngine` with the account's store and the limits). */
  engineFactory?: (account: Account, config: ServerConfig) => Promise<Engine>;
  /**
   * TEST ONLY: URL fetch overrides (a resolver, addresses allowed despite being private, a CA for a
   * self-signed test server). Never fill these from requests or from the config file.
   */
  fetch?: Pick<FetchUrlOptions, 'lookup' | 'allowAddresses' | 'ca'>;
}

export interface ReceiptServer {
  server: http.Server;
  config: ServerConfig;
  /** `http://host:port` once listening. */
  readonly url: string;
  readonly closing: boolean;
  /** Requests being handled now. */
  readonly inFlight: number;
  listen(port?: number, host?: string): Promise<string>;
  /**
   * Graceful shutdown: stops accepting connections, lets requests in flight finish (up to
   * `shutdownTimeoutMs`, then their connections are closed), then closes the engines. Idempotent.
   */
  close(): Promise<void>;
}

const defaultLogger: Logger = (line) => { process.stdout.write(JSON.stringify(line) + '\n'); };

const PUBLIC_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

export async function createReceiptServer(options: ServerOptions): Promise<ReceiptServer> {
  const config = parseServerConfig(options.config);
  if (config.accounts.length === 0) throw new ReceiptKitError('INVALID_OPTION', 'server config: accounts: at least one account is required', { field: 'accounts' });
  const log = options.logger ?? defaultLogger;
  const { byKeyHash, accounts } = accountsOf(config);
  const makeEngine = options.engineFactory ?? ((account: Account, cfg: ServerConfig) => createEngine({
    ...(cfg.workers ? { workers: cfg.workers } : {}),
    ...(account.storePath ? { storePath: account.storePath } : {}),
    ...(account.storeUrl ? { storeUrl: account.storeUrl, storeSchema: account.storeSchema } : {}),
    ...(account.enrichment !== undefined ? { enrichment: account.enrichment } : {}),
    // the server's queue bounds the work; the engine's own bound is a backstop
    maxQueue: (cfg.concurrency ?? defaultConcurrency(cfg.workers)) + cfg.maxQueue + 1,
    timeoutMs: cfg.requestTimeoutMs,
    limits: {
      maxFileBytes: cfg.limits.maxFileBytes,
      ...(cfg.limits.maxPixels ? { maxPixels: cfg.limits.maxPixels } : {}),
      ...(cfg.limits.maxPdfPages ? { maxPdfPages: cfg.limits.maxPdfPages } : {}),
    },
  }));
  // Engines are made up front, so a bad account setting stops the start, not a request.
  const engines = new Map<string, Engine>();
  try {
    for (const a of accounts) {
      if (a.storePath && !options.engineFactory) mkdirSync(path.dirname(path.resolve(a.storePath)), { recursive: true });
      engines.set(a.id, await makeEngine(a, config));
    }
  } catch (e) {
    await Promise.allSettled([...engines.values()].map((en) => en.close()));
    throw e;
  }

  const queue = new WorkQueue(config.concurrency ?? defaultConcurrency(config.workers), config.maxQueue);
  const limiter = new RateLimiter();
  const routes = apiRoutes();
  const match = matcher(routes);
  const openapi = openApiDocument(routes, config);
  const ui = uiPage();
  const fetchOptions: FetchUrlOptions = {
    maxBytes: config.limits.maxFileBytes,
    timeoutMs: config.url.timeoutMs,
    maxRedirects: config.url.maxRedirects,
    ...(options.fetch ?? {}),
  };
  const started = Date.now();
  let closing = false;
  let closed: Promise<void> | undefined;
  let url = '';
  const active = new Set<ServerResponse>();
  const perAddress = new Map<string, number>();
  const refused = new WeakSet<object>();
  const idleWaiters: Array<() => void> = [];

  const overloaded = () => new HttpError(503, `the server is busy (${queue.active} running, ${queue.queued} waiting); try again later`, { 'retry-after': String(queue.retryAfterSeconds()) });

  const corsAny = config.cors.origins.includes('*');
  const corsOrigins = new Set(config.cors.origins.map((o) => o.toLowerCase()));
  /** The CORS headers for a request from `origin` to an API path, or undefined when it is not allowed. */
  const corsFor = (origin: string | undefined): Record<string, string> | undefined => {
    if (!origin || (!corsAny && !corsOrigins.has(origin.toLowerCase()))) return undefined;
    return {
      'access-control-allow-origin': corsAny ? '*' : origin,
      'access-control-expose-headers': 'retry-after, x-request-id',
      ...(corsAny ? {} : { vary: 'Origin' }),
    };
  };

  async function handle(req: IncomingMessage, res: ServerResponse, state: RequestState): Promise<void> {
    const pathname = (req.url ?? '/').split('?')[0]!;
    const method = req.method ?? 'GET';
    if (closing) {
      res.setHeader('connection', 'close');
      throw new HttpError(503, 'the server is shutting down', { 'retry-after': '5' });
    }
    if (pathname.startsWith('/api/') || pathname === '/healthz') {
      const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
      const cors = corsFor(origin);
      if (method === 'OPTIONS' && origin && req.headers['access-control-request-method']) {
        // a preflight carries no API key: answered before the key check
        if (!cors) throw new HttpError(403, `the origin ${origin.slice(0, 200)} is not allowed (server config cors.origins)`);
        res.writeHead(204, {
          ...cors,
          'access-control-allow-methods': 'GET, POST, PUT, DELETE',
          'access-control-allow-headers': 'apikey, content-type',
          'access-control-max-age': String(config.cors.maxAgeSeconds),
          'content-length': '0',
        });
        res.end();
        return;
      }
      if (cors) for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
    }
    if (!pathname.startsWith('/api/')) {
      if (method !== 'GET' && method !== 'HEAD') throw new HttpError(pathname === '/' || pathname === '/healthz' || pathname === '/openapi.json' ? 405 : 404, `no route ${method} ${pathname}`);
      if (pathname === '/healthz') {
        sendJson(res, 200, {
          status: 'ok',
          uptimeSeconds: Math.round((Date.now() - started) / 1000),
          requestsInFlight: active.size - 1, // not counting this one
          queue: { running: queue.active, waiting: queue.queued, concurrency: queue.concurrency, maxQueue: queue.maxQueue },
        });
        return;
      }
      if (pathname === '/openapi.json') { sendJson(res, 200, openapi, { 'cache-control': 'no-cache' }); return; }
      if (pathname === '/' || pathname === '/index.html') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(ui.html)), 'content-security-policy': ui.csp, 'cache-control': 'no-cache', 'x-frame-options': 'DENY' });
        res.end(method === 'HEAD' ? undefined : ui.html);
        return;
      }
      throw new HttpError(404, `no route ${method} ${pathname}`);
    }

    // API key first: an unknown caller learns nothing about the routes
    const raw = req.headers.apikey;
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!key) throw noKey();
    const keyHash = hashKey(key);
    const account = byKeyHash.get(keyHash);
    if (!account) throw badKey();
    state.account = account.id;

    const found = match(method, pathname);
    if (!found) throw new HttpError(404, `no route ${method} ${pathname}`);
    if (!('route' in found)) throw new HttpError(405, `${method} is not allowed on ${pathname} (allowed: ${[...new Set(found.allowed)].join(', ')})`, { allow: [...new Set(found.allowed)].join(', ') });

    const wait = limiter.take(keyHash, account.rateLimit);
    if (wait > 0) throw new HttpError(429, `rate limit exceeded for this API key; try again in ${wait} s`, { 'retry-after': String(wait) });
    if (found.route.queued && queue.full) throw overloaded();

    const controller = new AbortController();
    res.on('close', () => { if (!res.writableFinished) controller.abort(); });
    const ctx: RouteContext = {
      req, res, account, params: found.params, engine: engines.get(account.id)!, config, fetchOptions,
      signal: controller.signal,
      work: async (task) => {
        // the request's time limit runs from here: the wait in the queue counts against it
        const done = await queue.run(task, performance.now() + config.requestTimeoutMs);
        if (!done) throw overloaded();
        return done.value;
      },
    };
    await found.route.handle(ctx);
  }

  const server = http.createServer({
    // node:http's own limit for a whole request, a backstop behind the body watch below
    requestTimeout: config.headersTimeoutMs + config.bodyTimeoutMs + 1_000,
    headersTimeout: config.headersTimeoutMs,
    // node checks the headers timeout on this period: up to 30 s late by default
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(config.headersTimeoutMs / 4))),
    keepAliveTimeout: 5_000,
  }, (req, res) => {
    const t0 = performance.now();
    const id = randomUUID();
    if (refused.has(req.socket)) { req.socket.destroy(); return; }
    const state: RequestState = {};
    active.add(res);
    watchBody(req, res, state);
    for (const [k, v] of Object.entries(PUBLIC_HEADERS)) res.setHeader(k, v);
    res.setHeader('x-request-id', id);
    if (closing) res.setHeader('connection', 'close');
    res.on('close', () => {
      active.delete(res);
      log({
        time: new Date().toISOString(), level: 'info', msg: 'request', id,
        method: req.method, path: (req.url ?? '/').split('?')[0], status: res.statusCode,
        ms: Math.round(performance.now() - t0), account: state.account ?? null,
        ...(res.writableFinished ? {} : { aborted: true }),
        ...(state.timedOut ? { timedOut: state.timedOut } : {}),
      });
      if (active.size === 0) for (const w of idleWaiters.splice(0)) w();
    });
    handle(req, res, state).catch((e: unknown) => {
      const reply = errorReply(e, () => queue.retryAfterSeconds());
      // the client went away (or was cut off as too slow): what failed then is not the server's fault
      const gone = !!state.timedOut || req.destroyed || res.destroyed || (req.socket?.destroyed ?? true);
      if (reply.internal && !gone) {
        const err = reply.internal as Error;
        log({ time: new Date().toISOString(), level: 'error', msg: 'internal error', id, error: String(err?.message ?? err), code: (err as ReceiptKitError)?.code });
      }
      if (res.headersSent || res.destroyed) { res.destroy(); return; }
      // a body we did not read: drop it (bounded in bytes and time) and do not reuse the connection
      if (!req.readableEnded) {
        reply.headers.connection = 'close';
        if (config.lingerMs > 0) linger(req, config.limits.maxFileBytes + 1024 * 1024, config.lingerMs);
        else req.resume();
      }
      sendJson(res, reply.status, reply.body, reply.headers);
    });
  });

  /**
   * Slow bodies: 408 when no body byte came for bodyIdleTimeoutMs, when the body has been arriving for
   * that long below minBodyBytesPerSecond on average, or when it takes longer than bodyTimeoutMs.
   * Progress is the socket's byte count, so the watch does not consume the body itself.
   */
  function watchBody(req: IncomingMessage, res: ServerResponse, state: RequestState): void {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody) return;
    const socket = req.socket;
    const started = performance.now();
    const startBytes = socket.bytesRead;
    let lastBytes = startBytes;
    let lastProgress = started;
    const idle = config.bodyIdleTimeoutMs;
    const tick = setInterval(() => {
      if (req.complete || res.writableEnded || socket.destroyed) { clearInterval(tick); return; }
      const t = performance.now();
      const bytes = socket.bytesRead;
      if (bytes !== lastBytes) { lastBytes = bytes; lastProgress = t; }
      const elapsed = t - started;
      const rate = ((bytes - startBytes) * 1000) / Math.max(1, elapsed);
      let why: string | undefined;
      if (t - lastProgress > idle) why = `no part of the request body arrived for ${idle} ms`;
      else if (elapsed > config.bodyTimeoutMs) why = `the request body took longer than ${config.bodyTimeoutMs} ms`;
      else if (elapsed > idle && rate < config.minBodyBytesPerSecond) why = `the request body is arriving at ${Math.round(rate)} bytes/s, under ${config.minBodyBytesPerSecond} bytes/s`;
      if (!why) return;
      clearInterval(tick);
      state.timedOut = why;
      if (!res.headersSent) sendJson(res, 408, errorBody(408, why), { connection: 'close' });
      else socket.destroy();
    }, Math.max(25, Math.min(1_000, Math.floor(idle / 4))));
    tick.unref();
    res.once('close', () => clearInterval(tick));
  }

  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) { socket.destroy(); return; }
    const [status, message] = err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, `the request did not arrive in time (headers within ${config.headersTimeoutMs} ms)`]
      : err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'the request headers are too large'] : [400, 'malformed HTTP request'];
    const body = JSON.stringify(errorBody(status, message));
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });

  // Connections per client address: past the cap a new one gets a 503 and is closed.
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? '?';
    const n = (perAddress.get(address) ?? 0) + 1;
    if (n > config.maxConnectionsPerAddress) {
      const body = JSON.stringify(errorBody(503, `too many connections from this address (limit ${config.maxConnectionsPerAddress})`));
      socket.end(`HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${body}`);
      refused.add(socket);
      setTimeout(() => socket.destroy(), 1_000).unref();
      return;
    }
    perAddress.set(address, n);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });

  return {
    server,
    config,
    get url() { return url; },
    get closing() { return closing; },
    get inFlight() { return active.size; },
    listen(port = config.port, host = config.host) {
      return new Promise<string>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const addr = server.address() as AddressInfo;
          url = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
          log({ time: new Date().toISOString(), level: 'info', msg: 'listening', url, accounts: accounts.length, concurrency: queue.concurrency, maxQueue: queue.maxQueue });
          resolve(url);
        });
      });
    },
    close() {
      closed ??= (async () => {
        closing = true;
        log({ time: new Date().toISOString(), level: 'info', msg: 'shutting down', requestsInFlight: active.size });
        const stopped = new Promise<void>((resolve) => { if (server.listening) server.close(() => resolve()); else resolve(); });
        server.closeIdleConnections();
        for (const res of active) if (!res.headersSent) res.setHeader('connection', 'close');
        if (active.size > 0) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            new Promise<void>((resolve) => idleWaiters.push(resolve)),
            new Promise<void>((resolve) => { timer = setTimeout(resolve, config.shutdownTimeoutMs); }),
          ]);
          clearTimeout(timer);
        }
        server.closeAllConnections();
        await stopped;
        await Promise.allSettled([...engines.values()].map((e) => e.close()));
        log({ time: new Date().toISOString(), level: 'info', msg: 'stopped' });
      })();
      return closed;
    },
  };
}

/** Creates the server and starts listening (port 0 picks a free port). */
export async function startServer(options: ServerOptions & { port?: number; host?: string }): Promise<ReceiptServer> {
  const s = await createReceiptServer(options);
  try {
    await s.listen(options.port, options.host);
  } catch (e) {
    await s.close();
    throw e;
  }
  return s;
}

export type { Route };
