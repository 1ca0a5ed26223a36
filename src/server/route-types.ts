/**
 * What a route is and what its handler gets (src/server/routes.ts and src/server/enrich-routes.ts
 * define routes; the server dispatches them): below both, so neither imports the other for them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine } from '../engine.js';
import type { FetchUrlOptions } from '../input/url.js';
import type { Account, ServerConfig } from './config.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a handler gets: the request, the caller's account and engine, and the work queue. */
export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  account: Account;
  /** Path parameters, decoded, in the order of the path template. */
  params: string[];
  engine: Engine;
  config: ServerConfig;
  /**
   * Runs engine work through the bounded queue (503 when it is full). The task gets the time left of
   * the request's time limit (the wait in the queue counted), to pass as the engine's `timeoutMs`.
   */
  work<T>(task: (timeoutMs: number | undefined) => Promise<T>): Promise<T>;
  /** Options for URL fetches (limits from the config, test-only overrides). */
  fetchOptions: FetchUrlOptions;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

/** How a route is documented in the OpenAPI document. */
export interface RouteDoc {
  summary: string;
  description?: string;
  tags: string[];
  /** Request body kind. */
  body?: 'extract-file' | 'extract-url' | 'extract-encoded' | 'validate-file' | 'validate-url'
    | 'campaign-file' | 'campaign-url' | 'campaign-settings' | 'enrichment-import';
  /** Component schema name of the 2xx response. */
  response: string;
  /** Media type of the 2xx response (default application/json). */
  responseType?: 'text/csv';
  /** 2xx status of the route (default 200). */
  status?: number;
  /** Error statuses the route can answer besides 401/403/429/500. */
  errors: number[];
}

export interface Route {
  method: Method;
  /** OpenAPI path template, e.g. `/api/validation/v1/campaign/settings/{campaignId}`. */
  path: string;
  /** Needs an API key. */
  auth: boolean;
  /** Does engine work (goes through the queue; refused early when it is full). */
  queued: boolean;
  doc: RouteDoc;
  handle(ctx: RouteContext): Promise<void>;
}
