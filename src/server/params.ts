/**
 * Request parameters to engine options. Multipart fields are strings (`"true"`/`"false"` for booleans,
 * `validation` a JSON string); JSON bodies carry real values (booleans as `"true"`/`"false"` strings
 * are accepted too). Unknown names are left in place for the engine's schema, which rejects them
 * naming the parameter; names the server decides itself are refused here.
 */
import { badParameter } from './http.js';

/** Extraction options that are booleans. */
const BOOLEAN_OPTIONS = new Set(['extractLineItems', 'detectFraud', 'readCodes', 'extractTime', 'refresh', 'incognito']);

/** Options a caller may not set over HTTP, and why. */
const SERVER_OWNED: Record<string, string> = {
  verbose: 'the path chooses the shape (/simple/ or /verbose/)',
  timeoutMs: 'the server sets the time limit',
};

export type ParamSource = 'multipart' | 'json';

/**
 * Options from request parameters, without the endpoint's own keys (`control`). Empty multipart
 * fields count as absent (HTML forms send every field).
 */
export function optionsFrom(params: Record<string, unknown>, source: ParamSource, control: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(params)) {
    if (control.includes(name)) continue;
    if (name in SERVER_OWNED) throw badParameter(name, `not a parameter of this endpoint: ${SERVER_OWNED[name]}`);
    if (source === 'multipart' && raw === '') continue;
    if (raw === null || raw === undefined) continue;
    if (BOOLEAN_OPTIONS.has(name)) {
      out[name] = toBoolean(name, raw);
      continue;
    }
    out[name] = raw;
  }
  return out;
}

export function toBoolean(name: string, raw: unknown): boolean {
  if (typeof raw === 'boolean') return raw;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw badParameter(name, `must be true or false, not ${JSON.stringify(typeof raw === 'string' ? raw.slice(0, 50) : raw)}`);
}

/** A required non-empty string parameter. */
export function requiredString(params: Record<string, unknown>, name: string, max = 8192): string {
  const v = params[name];
  if (v === undefined || v === null || v === '') throw badParameter(name, 'is required');
  if (typeof v !== 'string') throw badParameter(name, 'must be a string');
  if (v.length > max) throw badParameter(name, `is longer than ${max} characters`);
  return v;
}

/** An optional string parameter. */
export function optionalString(params: Record<string, unknown>, name: string, max = 1000): string | undefined {
  const v = params[name];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw badParameter(name, 'must be a string');
  if (v.length > max) throw badParameter(name, `is longer than ${max} characters`);
  return v;
}

/** `validation`: an object in JSON bodies, a JSON string in multipart forms. */
export function ruleSetFrom(params: Record<string, unknown>, source: ParamSource): unknown {
  const v = params.validation;
  if (v === undefined || v === null || v === '') throw badParameter('validation', 'the rule set is required');
  if (source === 'multipart' || typeof v === 'string') {
    if (typeof v !== 'string') throw badParameter('validation', 'must be a JSON string');
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch (e) {
      throw badParameter('validation', `not valid JSON (${(e as Error).message})`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badParameter('validation', 'must be a JSON object');
    return parsed;
  }
  if (typeof v !== 'object' || Array.isArray(v)) throw badParameter('validation', 'must be an object');
  return v;
}

/** A campaign id from a path segment or body: 1..50 characters. */
export function campaignIdFrom(raw: unknown, where: string): string {
  if (raw === undefined || raw === null || raw === '') throw badParameter('campaignId', `is required (${where})`);
  if (typeof raw !== 'string') throw badParameter('campaignId', 'must be a string');
  if (raw.length > 50) throw badParameter('campaignId', 'is longer than 50 characters');
  return raw;
}
