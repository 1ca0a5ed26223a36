/**
 * What the server refuses before any route runs, one guard each: CORS (preflights and the headers of
 * allowed origins), slow request bodies (408), malformed or oversized requests (400/408/431 from
 * node:http), and too many connections from one address (503).
 */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ServerConfig } from './config.js';
import { HttpError, errorBody, sendJson } from './http.js';

/** Per-request state the guards and the log share. */
export interface RequestState {
  account?: string;
  /** Why the request was cut off as too slow (408). */
  timedOut?: string;
}

/** The CORS policy of the config: the headers for a request from `origin`, or undefined when it is not allowed. */
export function corsPolicy(config: ServerConfig): (origin: string | undefined) => Record<string, string> | undefined {
  const any = config.cors.origins.includes('*');
  const origins = new Set(config.cors.origins.map((o) => o.toLowerCase()));
  return (origin) => {
    if (!origin || (!any && !origins.has(origin.toLowerCase()))) return undefined;
    return {
      'access-control-allow-origin': any ? '*' : origin,
      'access-control-expose-headers': 'retry-after, x-request-id',
      ...(any ? {} : { vary: 'Origin' }),
    };
  };
}

/**
 * CORS for the API and /healthz: a preflight is answered here (true: the request is done; it carries
 * no API key, so it comes before the key check); any other request from an allowed origin gets the headers.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, config: ServerConfig, corsFor: ReturnType<typeof corsPolicy>): boolean {
  const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
  const cors = corsFor(origin);
  if (req.method === 'OPTIONS' && origin && req.headers['access-control-request-method']) {
    if (!cors) throw new HttpError(403, `the origin ${origin.slice(0, 200)} is not allowed (server config cors.origins)`);
    res.writeHead(204, {
      ...cors,
      'access-control-allow-methods': 'GET, POST, PUT, DELETE',
      'access-control-allow-headers': 'apikey, content-type',
      'access-control-max-age': String(config.cors.maxAgeSeconds),
      'content-length': '0',
    });
    res.end();
    return true;
  }
  if (cors) for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
  return false;
}

/**
 * Slow bodies: 408 when no body byte came for bodyIdleTimeoutMs, when the body has been arriving for
 * that long below minBodyBytesPerSecond on average, or when it takes longer than bodyTimeoutMs.
 * Progress is the socket's byte count, so the watch does not consume the body itself.
 */
export function watchBody(req: IncomingMessage, res: ServerResponse, state: RequestState, config: ServerConfig): void {
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

/** A raw JSON error response on a socket (no ServerResponse exists for it). */
function endSocket(socket: { end(data: string): unknown }, status: number, message: string, extra = ''): void {
  const body = JSON.stringify(errorBody(status, message));
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`);
}

/** node:http's client errors answered as JSON: 408 (headers too slow), 431 (headers too large), else 400. */
export function answerClientErrors(server: http.Server, config: ServerConfig): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) { socket.destroy(); return; }
    const [status, message] = err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, `the request did not arrive in time (headers within ${config.headersTimeoutMs} ms)`]
      : err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'the request headers are too large'] : [400, 'malformed HTTP request'];
    endSocket(socket, status, message);
  });
}

/** Connections per client address: past the cap a new one gets a 503 and is closed (and added to `refused`). */
export function capConnectionsPerAddress(server: http.Server, config: ServerConfig, refused: WeakSet<Socket>): void {
  const perAddress = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? '?';
    const n = (perAddress.get(address) ?? 0) + 1;
    if (n > config.maxConnectionsPerAddress) {
      endSocket(socket, 503, `too many connections from this address (limit ${config.maxConnectionsPerAddress})`, 'Retry-After: 1\r\n');
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
}
