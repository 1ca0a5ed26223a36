/**
 * receiptkit: offline receipt and invoice extraction.
 *
 *   import { extract, createEngine } from 'receiptkit-ocr';
 *   import { startServer } from 'receiptkit-ocr/server';   // the HTTP server (src/server)
 *   import { openQueue } from 'receiptkit-ocr/queue';      // the PostgreSQL job queue (src/queue)
 *   const simple = await extract('receipt.jpg');
 *   const verbose = await extract(buffer, { verbose: true });
 *   const verdict = await validate('receipt.jpg', { date: { start: '2024-10-01', end: '2024-10-31' } });
 */
import { createEngine } from './engine.js';
import type { Engine } from './engine.js';
import type { ExtractOptionsInput } from './contract/options.js';
import type { ExtractResult, SimpleResult, VerboseResult } from './contract/results.js';
import type { InputSource } from './input/types.js';
import type { ValidateOptionsInput, ValidationResult, ValidationRulesInput } from './contract/validation.js';

export { createEngine } from './engine.js';
export type { Engine, Extraction } from './engine.js';
export { ReceiptKitError, isReceiptKitError, ERROR_STATUS } from './errors.js';
export type { ErrorCode } from './errors.js';
export type { ExtractOptionsInput as ExtractOptions, EngineOptionsInput as EngineOptions } from './contract/options.js';
export type * from './contract/results.js';
export type { InputSource } from './input/types.js';
export type { Document, Line, Word, Page, Box, Polygon } from './document/types.js';
export type {
  ValidationRulesInput as ValidationRules, ValidateOptionsInput as ValidateOptions, ValidationResult, ValidationLineItem,
  CheckName, SimilarReceipt, UsageQuery, UsageSummary, UsageDay, UsageCounts, TamperingDetection, DigitalDetection,
} from './contract/validation.js';
export { CHECK_NAMES, validationRulesSchema } from './contract/validation.js';
export type { Campaigns, CampaignCreated, CampaignUpdated, CampaignDeleted } from './campaigns/index.js';
export type {
  Enrichment, EnrichmentOptions, ImportOptions, ImportSummary, ListData, ListKind, KnownMerchant, ProductCodeEntry, CategoryRule,
  NormalisedMerchant, MatchEvidence,
} from './enrich/index.js';
export { DEFAULT_CATEGORIES } from './enrich/index.js';
// Offline GeoIP (the data the `ipAddress` option's root `location` comes from).
export { geoLocate, lookupIp, geoIpDatabase } from './geoip/index.js';
export type { GeoLookup } from './geoip/index.js';

let defaultEngine: Promise<Engine> | undefined;

/** The lazily created engine behind the shortcuts. Its OCR workers do not keep the process alive when idle. */
export function getDefaultEngine(): Promise<Engine> {
  if (!defaultEngine) {
    defaultEngine = createEngine();
    defaultEngine.catch(() => { defaultEngine = undefined; });
  }
  return defaultEngine;
}

/** Extracts a receipt or invoice with the default engine (see `createEngine` for options). */
export async function extract(input: InputSource, options: ExtractOptionsInput & { verbose: true }): Promise<VerboseResult>;
export async function extract(input: InputSource, options?: ExtractOptionsInput & { verbose?: false }): Promise<SimpleResult>;
export async function extract(input: InputSource, options?: ExtractOptionsInput): Promise<ExtractResult>;
export async function extract(input: InputSource, options?: ExtractOptionsInput): Promise<ExtractResult> {
  const engine = await getDefaultEngine();
  if (engine.closed) { defaultEngine = undefined; return extract(input, options); }
  return engine.extract(input, options);
}

/**
 * Validates a receipt against an inline rule set with the default engine (in-memory store: nothing is
 * written; the inline validation stores no scan either). A bad rule set is INVALID_OPTION before any OCR.
 */
export async function validate(input: InputSource, rules: ValidationRulesInput, options?: ValidateOptionsInput): Promise<ValidationResult> {
  const engine = await getDefaultEngine();
  if (engine.closed) { defaultEngine = undefined; return validate(input, rules, options); }
  return engine.validate(input, rules, options);
}

/** Closes the default engine (optional: an idle default engine never keeps the process alive). */
export async function closeDefaultEngine(): Promise<void> {
  const e = defaultEngine;
  defaultEngine = undefined;
  if (e) await (await e).close();
}

// The explicit URL helper: the only code that fetches (the server's URL endpoints use it), never
// called by extraction. Rules: https only, public addresses only, checked again on every redirect.
export { fetchUrl, addressProblem, isPublicAddress } from './input/url.js';
export type { FetchUrlOptions, FetchedUrl, UrlLookup } from './input/url.js';
// The job queue and the HTTP server are entry points of their own, so that the library alone loads no
// queue, server or PostgreSQL code: `receiptkit-ocr/queue` (openQueue, ReceiptQueue, ...) and
// `receiptkit-ocr/server` (startServer, loadServerConfig, ...); see docs/api.md "Entry points".
