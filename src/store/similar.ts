/**
 * The similarity hook: stored receipts like a new one, for `similarReceipts` and the
 * `fraud_detection_unique_receipt_validated` check. Scope: the caller's `containerId` when given,
 * otherwise the whole store; scans sharing the caller's `referenceId` are left out.
 *
 * - The same file (same sha256 of the bytes): score 1, "same file".
 * - With the new scan's similarity signature (src/similarity): candidates are the stored scans sharing
 *   lookup keys with it (total, date, number, amounts, long digit runs, image hash bands) and the newest
 *   scans in scope; each is scored with the calibrated model (src/similarity/score.ts) from its stored
 *   signature. Scans stored without a signature (before schema 2) are scored on the content of their
 *   stored subject, and keep the earlier rule: the same fingerprint (merchant, day, total, number) is 0.95.
 * - Without a signature (callers that have none): the same fingerprint, 0.95.
 *
 * Scores of at least `minScore` (default LIST_SCORE) are listed, highest first (newest first among
 * equals); above 0.9 is a likely duplicate.
 */
import type { SimilarMatch } from '../validate/rules.js';
import type { ValidationSubject } from '../validate/subject.js';
import type { EndpointKind, ScanSummary, Store } from './types.js';
import type { SimilaritySignature } from '../similarity/index.js';
import { contentOnlySignature, parseSignature, signatureKeys } from '../similarity/index.js';
import { scorePair } from '../similarity/score.js';

export interface SimilarityQuery {
  contentHash: string;
  fingerprint: string | null;
  perceptualHash: string | null;
  containerId?: string | undefined;
  referenceId?: string | undefined;
  /** Endpoint kinds to compare with (all when absent). */
  kinds?: readonly EndpointKind[] | undefined;
  /** Most matches returned (default 20). */
  limit?: number;
  /** The new scan's similarity signature: with it, near copies are found and scored. */
  signature?: SimilaritySignature | null | undefined;
  /** Lowest score listed (default LIST_SCORE). */
  minScore?: number;
}

export type SimilarityFinder = (store: Store, q: SimilarityQuery) => Promise<SimilarMatch[]>;

export const SAME_FILE_SCORE = 1;
export const SAME_FINGERPRINT_SCORE = 0.95;
/** Lowest score listed in `similarReceipts`: at least even odds of the same receipt. */
export const LIST_SCORE = 0.5;
/** Candidates scored per lookup: by shared keys, and the newest in scope. */
export const CANDIDATES_BY_KEYS = 200;
export const CANDIDATES_RECENT = 200;

export const findSimilarReceipts: SimilarityFinder = async (store, q) => {
  const limit = q.limit ?? 20;
  const minScore = q.minScore ?? LIST_SCORE;
  const scope = { containerId: q.containerId, excludeReferenceId: q.referenceId, kinds: q.kinds, limit: Math.max(limit, 50) };
  const out = new Map<string, SimilarMatch>();
  const add = (r: ScanSummary, score: number, basis: string) => {
    const had = out.get(r.trackingId);
    if (had && had.similarityScore >= score) return;
    out.set(r.trackingId, {
      ...(r.referenceId !== null ? { referenceId: r.referenceId } : {}),
      ...(r.userId !== null ? { userId: r.userId } : {}),
      trackingId: r.trackingId,
      similarityScore: score,
      basis,
    });
  };
  for (const r of await store.scansWhere('content_hash', q.contentHash, scope)) add(r, SAME_FILE_SCORE, 'same file');
  const fingerprintBasis = 'same merchant, date, total and receipt number';
  if (q.signature) {
    const candidates = await store.similarityCandidates(signatureKeys(q.signature), scope, { byKeys: CANDIDATES_BY_KEYS, recent: CANDIDATES_RECENT });
    for (const c of candidates) {
      if (c.contentHash === q.contentHash) continue;
      let stored = parseSignature(c.similarityJson);
      const legacy = !stored;
      if (!stored && c.subjectJson) {
        try { stored = contentOnlySignature(JSON.parse(c.subjectJson) as ValidationSubject); } catch { stored = null; }
      }
      if (legacy && q.fingerprint && c.fingerprint === q.fingerprint) add(c, SAME_FINGERPRINT_SCORE, fingerprintBasis);
      if (!stored) continue;
      const s = scorePair(q.signature, stored, undefined, minScore);
      if (s && s.score >= minScore) add(c, s.score, s.basis);
    }
    // legacy scans outside the candidate window that share the exact fingerprint
    if (q.fingerprint) {
      for (const r of await store.scansWhere('fingerprint', q.fingerprint, scope)) if (!out.has(r.trackingId) && !(await store.hasSimilarity(r.trackingId))) add(r, SAME_FINGERPRINT_SCORE, fingerprintBasis);
    }
  } else if (q.fingerprint) {
    for (const r of await store.scansWhere('fingerprint', q.fingerprint, scope)) add(r, SAME_FINGERPRINT_SCORE, fingerprintBasis);
  }
  // highest first; Map order (same file, then candidates newest first) breaks ties
  return [...out.values()].map((m, i) => ({ m, i }))
    .sort((a, b) => b.m.similarityScore - a.m.similarityScore || a.i - b.i)
    .map(({ m }) => m)
    .slice(0, limit);
};

