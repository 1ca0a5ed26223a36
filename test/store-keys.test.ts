import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CACHE_VERSION, extractionKey, resultKey } from '../src/store/keys.js';

const base = { extractTime: false, extractLineItems: true };
const sha256 = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');

describe('refresh keys', () => {
  it('are the same for the same options and differ when an option changes what is read or returned', () => {
    expect(extractionKey(base)).toBe(extractionKey({ ...base }));
    expect(extractionKey({ ...base, readCodes: false })).not.toBe(extractionKey(base));
    expect(extractionKey({ ...base, readCodes: true })).toBe(extractionKey(base));
    expect(resultKey('verbose', { ...base, detectFraud: false })).not.toBe(resultKey('verbose', base));
    expect(resultKey('simple', { ...base, detectFraud: false })).toBe(resultKey('simple', base));
    // the ipAddress's country the fields were weighed with changes what is read; none keeps the old key
    expect(extractionKey({ ...base, callerCountry: 'GB' })).not.toBe(extractionKey(base));
    expect(extractionKey({ ...base, callerCountry: 'GB' })).not.toBe(extractionKey({ ...base, callerCountry: 'PL' }));
    expect(extractionKey({ ...base, callerCountry: undefined })).toBe(extractionKey(base));
  });

  it('results stored before codes, documentType and language (version 1) are not reused', () => {
    expect(CACHE_VERSION).toBeGreaterThanOrEqual(2);
    const v1 = sha256({ v: 1, extractTime: false, lineItems: true, language: null, near: null, ignoreMerchantName: null });
    const now = sha256({ v: CACHE_VERSION, extractTime: false, lineItems: true, language: null, near: null, ignoreMerchantName: null });
    expect(extractionKey(base)).toBe(now);
    expect(extractionKey(base)).not.toBe(v1);
  });
});
