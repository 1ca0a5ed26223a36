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
import { HttpError, badKey, drain, errorBody, errorReply, noKey, sendJson } from './http.js';
import { RateLimiter, WorkQueue } from './limits.js';
import { apiRoutes, matcher } from './routes.js';
import type { Route, RouteContext } from './routes.js';
import { openApiDocument } from './openapi.js';
import { uiPage } from './ui.js';

export type LogLine = Record<string, unknown>;
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
  const idleWaiters: Array<() => void> = [];

  const overloaded = () => new HttpError(503, `the server is busy (${queue.active} running, ${queue.queued} waiting); try again later`, { 'retry-after': String(queue.retryAfterSeconds()) });

  async function handle(req: IncomingMessage, res: ServerResponse, state: { account?: string }): Promise<void> {
    const pathname = (req.url ?? '/').split('?')[0]!;
    const method = req.method ?? 'GET';
    if (closing) {
      res.setHeader('connection', 'close');
      throw new HttpError(503, 'the server is shutting down', { 'retry-after': '5' });
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
        const done = await queue.run(task);
        if (!done) throw overloaded();
        return done.value;
      },
    };
    await found.route.handle(ctx);
  }

  const server = http.createServer({ requestTimeout: Math.max(config.requestTimeoutMs + 30_000, 60_000), headersTimeout: 30_000, keepAliveTimeout: 5_000 }, (req, res) => {
    const t0 = performance.now();
    const id = randomUUID();
    const state: { account?: string } = {};
    active.add(res);
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
      });
      if (active.size === 0) for (const w of idleWaiters.splice(0)) w();
    });
    handle(req, res, state).catch((e: unknown) => {
      const reply = errorReply(e, () => queue.retryAfterSeconds());
      if (reply.internal) {
        const err = reply.internal as Error;
        log({ time: new Date().toISOString(), level: 'error', msg: 'internal error', id, error: String(err?.message ?? err), code: (err as ReceiptKitError)?.code });
      }
      if (res.headersSent) { res.destroy(); return; }
      // a body we did not read: drop it (bounded) and do not reuse the connection
      if (!req.readableEnded) { reply.headers.connection = 'close'; drain(req, config.limits.maxFileBytes); }
      sendJson(res, reply.status, reply.body, reply.headers);
    });
  });
  server.on('clientError', (err, socket) => {
    if (!socket.writable) { socket.destroy(); return; }
    const body = JSON.stringify(errorBody(400, 'malformed HTTP request'));
    socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
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
