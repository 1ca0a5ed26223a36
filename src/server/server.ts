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
import type { AddressInfo, Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createEngine } from '../engine.js';
import type { Engine } from '../engine.js';
import type { FetchUrlOptions } from '../input/url.js';
import { ReceiptKitError } from '../errors.js';
import { accountsOf, defaultConcurrency, hashKey, parseServerConfig } from './config.js';
import type { Account, ServerConfig, ServerConfigInput } from './config.js';
import { HttpError, badKey, errorReply, linger, noKey, sendJson } from './http.js';
import { answerClientErrors, applyCors, capConnectionsPerAddress, corsPolicy, watchBody } from './guards.js';
import type { RequestState } from './guards.js';
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

/** The default engine of an account: its store, its enrichment lists and the server's limits. */
function defaultEngineFactory(account: Account, cfg: ServerConfig): Promise<Engine> {
  return createEngine({
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
  });
}

/** Every account's engine, made up front so that a bad account setting stops the start, not a request. */
async function startEngines(accounts: readonly Account[], config: ServerConfig, factory: ServerOptions['engineFactory']): Promise<Map<string, Engine>> {
  const engines = new Map<string, Engine>();
  try {
    for (const a of accounts) {
      if (a.storePath && !factory) mkdirSync(path.dirname(path.resolve(a.storePath)), { recursive: true });
      engines.set(a.id, await (factory ?? defaultEngineFactory)(a, config));
    }
  } catch (e) {
    await Promise.allSettled([...engines.values()].map((en) => en.close()));
    throw e;
  }
  return engines;
}

/** What serving needs, made once at the start (createReceiptServer). */
interface ServerParts {
  config: ServerConfig;
  log: Logger;
  byKeyHash: Map<string, Account>;
  engines: Map<string, Engine>;
  queue: WorkQueue;
  limiter: RateLimiter;
  match: ReturnType<typeof matcher>;
  openapi: unknown;
  ui: ReturnType<typeof uiPage>;
  fetchOptions: FetchUrlOptions;
  corsFor: ReturnType<typeof corsPolicy>;
  started: number;
  /** The responses in progress. */
  active: Set<ServerResponse>;
  /** Set when the server is shutting down. */
  closing(): boolean;
}

const overloaded = (queue: WorkQueue) => new HttpError(503, `the server is busy (${queue.active} running, ${queue.queued} waiting); try again later`, { 'retry-after': String(queue.retryAfterSeconds()) });

/** The paths outside the API: /healthz, /openapi.json and the page at /. */
function serveOutsideApi(p: ServerParts, res: ServerResponse, method: string, pathname: string): void {
  if (method !== 'GET' && method !== 'HEAD') throw new HttpError(pathname === '/' || pathname === '/healthz' || pathname === '/openapi.json' ? 405 : 404, `no route ${method} ${pathname}`);
  if (pathname === '/healthz') {
    sendJson(res, 200, {
      status: 'ok',
      uptimeSeconds: Math.round((Date.now() - p.started) / 1000),
      requestsInFlight: p.active.size - 1, // not counting this one
      queue: { running: p.queue.active, waiting: p.queue.queued, concurrency: p.queue.concurrency, maxQueue: p.queue.maxQueue },
    });
    return;
  }
  if (pathname === '/openapi.json') { sendJson(res, 200, p.openapi, { 'cache-control': 'no-cache' }); return; }
  if (pathname === '/' || pathname === '/index.html') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(p.ui.html)), 'content-security-policy': p.ui.csp, 'cache-control': 'no-cache', 'x-frame-options': 'DENY' });
    res.end(method === 'HEAD' ? undefined : p.ui.html);
    return;
  }
  throw new HttpError(404, `no route ${method} ${pathname}`);
}

/** The caller's account by its API key (401 without one, 403 for an unknown one: before any route is matched). */
function authenticate(p: ServerParts, req: IncomingMessage): { account: Account; keyHash: string } {
  const raw = req.headers.apikey;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key) throw noKey();
  const keyHash = hashKey(key);
  const account = p.byKeyHash.get(keyHash);
  if (!account) throw badKey();
  return { account, keyHash };
}

/** An API request: key, route (404/405), rate limit (429), queue full (503), then the route's handler. */
async function serveApi(p: ServerParts, req: IncomingMessage, res: ServerResponse, state: RequestState, method: string, pathname: string): Promise<void> {
  const { account, keyHash } = authenticate(p, req);
  state.account = account.id;
  const found = p.match(method, pathname);
  if (!found) throw new HttpError(404, `no route ${method} ${pathname}`);
  if (!('route' in found)) throw new HttpError(405, `${method} is not allowed on ${pathname} (allowed: ${[...new Set(found.allowed)].join(', ')})`, { allow: [...new Set(found.allowed)].join(', ') });
  const wait = p.limiter.take(keyHash, account.rateLimit);
  if (wait > 0) throw new HttpError(429, `rate limit exceeded for this API key; try again in ${wait} s`, { 'retry-after': String(wait) });
  if (found.route.queued && p.queue.full) throw overloaded(p.queue);
  const controller = new AbortController();
  res.on('close', () => { if (!res.writableFinished) controller.abort(); });
  const ctx: RouteContext = {
    req, res, account, params: found.params, engine: p.engines.get(account.id)!, config: p.config, fetchOptions: p.fetchOptions,
    signal: controller.signal,
    work: async (task) => {
      // the request's time limit runs from here: the wait in the queue counts against it
      const done = await p.queue.run(task, performance.now() + p.config.requestTimeoutMs);
      if (!done) throw overloaded(p.queue);
      return done.value;
    },
  };
  await found.route.handle(ctx);
}

/** One request, in the order of the module comment. */
async function handle(p: ServerParts, req: IncomingMessage, res: ServerResponse, state: RequestState): Promise<void> {
  const pathname = (req.url ?? '/').split('?')[0]!;
  const method = req.method ?? 'GET';
  if (p.closing()) {
    res.setHeader('connection', 'close');
    throw new HttpError(503, 'the server is shutting down', { 'retry-after': '5' });
  }
  if ((pathname.startsWith('/api/') || pathname === '/healthz') && applyCors(req, res, p.config, p.corsFor)) return;
  if (!pathname.startsWith('/api/')) { serveOutsideApi(p, res, method, pathname); return; }
  await serveApi(p, req, res, state, method, pathname);
}

/** A failed request's reply (and a log line when the failure is the server's own). */
function replyToFailure(p: ServerParts, req: IncomingMessage, res: ServerResponse, state: RequestState, id: string, e: unknown): void {
  const reply = errorReply(e, () => p.queue.retryAfterSeconds());
  // the client went away (or was cut off as too slow): what failed then is not the server's fault
  const gone = !!state.timedOut || req.destroyed || res.destroyed || (req.socket?.destroyed ?? true);
  if (reply.internal && !gone) {
    const err = reply.internal as Error;
    p.log({ time: new Date().toISOString(), level: 'error', msg: 'internal error', id, error: String(err?.message ?? err), code: (err as ReceiptKitError)?.code });
  }
  if (res.headersSent || res.destroyed) { res.destroy(); return; }
  // a body we did not read: drop it (bounded in bytes and time) and do not reuse the connection
  if (!req.readableEnded) {
    reply.headers.connection = 'close';
    if (p.config.lingerMs > 0) linger(req, p.config.limits.maxFileBytes + 1024 * 1024, p.config.lingerMs);
    else req.resume();
  }
  sendJson(res, reply.status, reply.body, reply.headers);
}

/** The node:http server: timeouts, headers, the log line of each request, and the guards. */
function httpServer(p: ServerParts, onIdle: () => void): http.Server {
  const { config } = p;
  const refused = new WeakSet<Socket>();
  const server = http.createServer({
    // node:http's own limit for a whole request, a backstop behind the body watch
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
    p.active.add(res);
    watchBody(req, res, state, config);
    for (const [k, v] of Object.entries(PUBLIC_HEADERS)) res.setHeader(k, v);
    res.setHeader('x-request-id', id);
    if (p.closing()) res.setHeader('connection', 'close');
    res.on('close', () => {
      p.active.delete(res);
      p.log({
        time: new Date().toISOString(), level: 'info', msg: 'request', id,
        method: req.method, path: (req.url ?? '/').split('?')[0], status: res.statusCode,
        ms: Math.round(performance.now() - t0), account: state.account ?? null,
        ...(res.writableFinished ? {} : { aborted: true }),
        ...(state.timedOut ? { timedOut: state.timedOut } : {}),
      });
      if (p.active.size === 0) onIdle();
    });
    handle(p, req, res, state).catch((e: unknown) => replyToFailure(p, req, res, state, id, e));
  });
  answerClientErrors(server, config);
  capConnectionsPerAddress(server, config, refused);
  return server;
}

/**
 * Graceful shutdown: stop accepting, let requests in flight finish (up to shutdownTimeoutMs), close
 * their connections, then the engines.
 */
async function shutDown(p: ServerParts, server: http.Server, idle: () => Promise<void>): Promise<void> {
  p.log({ time: new Date().toISOString(), level: 'info', msg: 'shutting down', requestsInFlight: p.active.size });
  const stopped = new Promise<void>((resolve) => { if (server.listening) server.close(() => resolve()); else resolve(); });
  server.closeIdleConnections();
  for (const res of p.active) if (!res.headersSent) res.setHeader('connection', 'close');
  if (p.active.size > 0) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([idle(), new Promise<void>((resolve) => { timer = setTimeout(resolve, p.config.shutdownTimeoutMs); })]);
    clearTimeout(timer);
  }
  server.closeAllConnections();
  await stopped;
  await Promise.allSettled([...p.engines.values()].map((e) => e.close()));
  p.log({ time: new Date().toISOString(), level: 'info', msg: 'stopped' });
}

export async function createReceiptServer(options: ServerOptions): Promise<ReceiptServer> {
  const config = parseServerConfig(options.config);
  if (config.accounts.length === 0) throw new ReceiptKitError('INVALID_OPTION', 'server config: accounts: at least one account is required', { field: 'accounts' });
  const { byKeyHash, accounts } = accountsOf(config);
  const engines = await startEngines(accounts, config, options.engineFactory);
  const routes = apiRoutes();
  let closing = false;
  let closed: Promise<void> | undefined;
  let url = '';
  const idleWaiters: Array<() => void> = [];
  const p: ServerParts = {
    config, log: options.logger ?? defaultLogger, byKeyHash, engines,
    queue: new WorkQueue(config.concurrency ?? defaultConcurrency(config.workers), config.maxQueue),
    limiter: new RateLimiter(), match: matcher(routes), openapi: openApiDocument(routes, config), ui: uiPage(),
    fetchOptions: { maxBytes: config.limits.maxFileBytes, timeoutMs: config.url.timeoutMs, maxRedirects: config.url.maxRedirects, ...(options.fetch ?? {}) },
    corsFor: corsPolicy(config), started: Date.now(), active: new Set(), closing: () => closing,
  };
  const server = httpServer(p, () => { for (const w of idleWaiters.splice(0)) w(); });
  return {
    server,
    config,
    get url() { return url; },
    get closing() { return closing; },
    get inFlight() { return p.active.size; },
    listen(port = config.port, host = config.host) {
      return new Promise<string>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const addr = server.address() as AddressInfo;
          url = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
          p.log({ time: new Date().toISOString(), level: 'info', msg: 'listening', url, accounts: accounts.length, concurrency: p.queue.concurrency, maxQueue: p.queue.maxQueue });
          resolve(url);
        });
      });
    },
    close() {
      closing = true;
      closed ??= shutDown(p, server, () => new Promise<void>((resolve) => idleWaiters.push(resolve)));
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
