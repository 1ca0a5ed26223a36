/**
 * Refresh keys: which stored scan may answer a new call without OCR. The content hash is the sha256 of
 * the file's bytes; these hashes cover the options that change what is returned.
 */
import { createHash } from 'node:crypto';
import type { EndpointKind } from './store.js';

/**
 * Bump when a change to the pipeline should stop stored results from being reused. 2: results carry the
 * page's codes and fiscal facts (which can decide fields), documentType and language (issue 24).
 */
export const CACHE_VERSION = 2;

const sha256 = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');

export interface KeyOptions {
  extractTime: boolean;
  extractLineItems: boolean;
  language?: string | undefined;
  near?: string | undefined;
  ignoreMerchantName?: string | undefined;
  ipAddress?: string | undefined;
  /** The country of `ipAddress` the fields weighed (engine.ts callerCountry); undefined: none. */
  callerCountry?: string | undefined;
  /** The codes on the pages were read (absent or true: yes). */
  readCodes?: boolean | undefined;
  /** Verbose results: the fraud checks were run (absent or true: yes). */
  detectFraud?: boolean | undefined;
  /** Revision of the enrichment lists (src/enrich): a change makes stored results stale. Undefined: none. */
  enrichment?: string | undefined;
}

/** Options that change what the extraction reads (the fields, line items and lines validation uses). */
export function extractionKey(o: KeyOptions): string {
  return sha256({
    v: CACHE_VERSION, extractTime: o.extractTime, lineItems: o.extractLineItems,
    language: o.language ?? null, near: o.near ?? null, ignoreMerchantName: o.ignoreMerchantName ?? null,
    // (only when set, or off: the keys of scans stored before these existed stay the same)
    ...(o.callerCountry ? { callerCountry: o.callerCountry } : {}),
    ...(o.readCodes === false ? { readCodes: false } : {}),
  });
}

/** Options that change the returned result of an endpoint kind. */
export function resultKey(kind: EndpointKind, o: KeyOptions): string {
  return sha256({
    v: CACHE_VERSION, kind, extraction: extractionKey(o), ipAddress: kind === 'verbose' ? o.ipAddress ?? null : null,
    ...(o.enrichment !== undefined ? { enrichment: o.enrichment } : {}),
    // (only when off: the keys of results stored before the option existed stay the same)
    ...(kind === 'verbose' && o.detectFraud === false ? { detectFraud: false } : {}),
  });
}
