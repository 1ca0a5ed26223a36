/**
 * HTTP plumbing: JSON responses, the contract's error bodies, and bounded JSON bodies.
 */
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ReceiptKitError, isReceiptKitError } from '../errors.js';

/** An HTTP error that is not one of the library's codes (405, 429, 503 from the server's own gates). */
export class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly headers: Record<string, string> = {}, readonly body?: unknown) {
    super(message);
    this.name = 'HttpError';
  }
}

/** The contract's exact bodies for a missing (401) and an unknown (403) API key. */
export const noKey = () => new HttpError(401, 'No API key found in request', {}, { message: 'No API key found in request' });
export const badKey = () => new HttpError(403, 'Invalid authentication credentials', {}, { message: 'Invalid authentication credentials' });

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) { res.end(); return; }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** `{ statusCode, error, message }` with the reason phrase of the status. */
export function errorBody(status: number, message: string): { statusCode: number; error: string; message: string } {
  return { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message };
}

export interface ErrorReply { status: number; body: unknown; headers: Record<string, string>; internal?: unknown }

/**
 * Turns anything thrown by a handler into the reply the contract asks for. Unexpected errors become a
 * 500 without details (they are logged, not sent).
 */
export function errorReply(e: unknown, retryAfterSeconds: () => number): ErrorReply {
  if (e instanceof HttpError) return { status: e.status, body: e.body ?? errorBody(e.status, e.message), headers: { ...e.headers } };
  if (isReceiptKitError(e)) {
    const headers: Record<string, string> = {};
    if (e.status === 503) headers['retry-after'] = String(retryAfterSeconds());
    const internal = e.status >= 500 && e.code !== 'OVERLOADED';
    return { status: e.status, body: errorBody(e.status, e.message), headers, ...(internal ? { internal: e } : {}) };
  }
  return { status: 500, body: errorBody(500, 'internal error'), headers: {}, internal: e };
}

/** A 400 naming the parameter at fault. */
export function badParameter(field: string, why: string): ReceiptKitError {
  return new ReceiptKitError('INVALID_OPTION', `${field}: ${why}`, { field });
}

/** The media type of a request without parameters, lower case ('' when absent). */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Reads a JSON object body of at most maxBytes; 413 past it, 415 for another type, 400 when not JSON. */
export async function readJsonObject(req: IncomingMessage, maxBytes: number): Promise<Record<string, unknown>> {
  const type = mediaType(req);
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new ReceiptKitError('UNSUPPORTED_MEDIA_TYPE', `this endpoint takes a JSON body (Content-Type: application/json), not ${type || 'no content type'}`);
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new ReceiptKitError('FILE_TOO_LARGE', `the request body is ${declared} bytes, over the ${maxBytes} byte limit`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new ReceiptKitError('FILE_TOO_LARGE', `the request body is over the ${maxBytes} byte limit`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks, size).toString('utf8');
  if (text.trim() === '') throw badParameter('body', 'a JSON object is required');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw badParameter('body', `not valid JSON (${(e as Error).message})`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badParameter('body', 'must be a JSON object');
  return value as Record<string, unknown>;
}

/**
 * Lingering close (what nginx does): call before answering a request whose body was not read, with
 * `connection: close` on the answer. Node ends and destroys the socket as soon as such an answer is
 * written, and a client still sending its body (Node clients streaming an upload: axios with
 * form-data, `request`) then gets EPIPE or a reset instead of the answer. Here the socket is only
 * half-closed after the answer; the rest of the body is read and discarded, and the socket is
 * destroyed when the body ends, after `maxBytes` more bytes, or after `ms`.
 */
export function linger(req: IncomingMessage, maxBytes: number, ms: number): void {
  const socket = req.socket as (IncomingMessage['socket'] & { destroySoon?: () => void }) | null;
  if (!socket || socket.destroyed || req.readableEnded || req.destroyed) return;
  const stop = () => { clearTimeout(timer); socket.destroy(); };
  const timer = setTimeout(stop, ms);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // called by node:http once the answer is written (instead of end + destroy)
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    if (req.readableEnded) stop();
  };
  let seen = 0;
  req.on('data', (chunk: Buffer) => { seen += chunk.length; if (seen > maxBytes) stop(); });
  req.on('end', () => { if (!socket.writable) stop(); });
  req.on('error', () => undefined);
  req.resume();
}
