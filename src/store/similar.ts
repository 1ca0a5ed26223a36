/**
 * The similarity hook: stored receipts like a new one, for `similarReceipts` and the
 * `fraud_detection_unique_receipt_validated` check.
 *
 * This version matches exactly, on two keys, and says which:
 * - the same file (same sha256 of the bytes): score 1;
 * - the same content fingerprint (merchant, day, total, receipt number; see fingerprintOf): 0.95.
 * Both are above the 0.9 duplicate line. Scope: the caller's `containerId` when given, otherwise the
 * whole store; scans sharing the caller's `referenceId` are left out.
 *
 * The perceptual hash (dHash) is stored with every raster scan but not scored yet: a later version of
 * this function can add near matches (Hamming distance of perceptual hashes, fuzzy fingerprints) with
 * calibrated scores, keeping the same signature.
 */
import type { SimilarMatch } from '../validate/rules.js';
import type { EndpointKind, ReceiptStore, ScanSummary } from './store.js';

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
}

export type SimilarityFinder = (store: ReceiptStore, q: SimilarityQuery) => SimilarMatch[];

export const SAME_FILE_SCORE = 1;
export const SAME_FINGERPRINT_SCORE = 0.95;

export const findSimilarReceipts: SimilarityFinder = (store, q) => {
  const limit = q.limit ?? 20;
  const scope = { containerId: q.containerId, excludeReferenceId: q.referenceId, kinds: q.kinds, limit };
  const out = new Map<string, SimilarMatch>();
  const add = (rows: ScanSummary[], score: number, basis: string) => {
    for (const r of rows) {
      if (out.has(r.trackingId)) continue;
      out.set(r.trackingId, {
        ...(r.referenceId !== null ? { referenceId: r.referenceId } : {}),
        ...(r.userId !== null ? { userId: r.userId } : {}),
        trackingId: r.trackingId,
        similarityScore: score,
        basis,
      });
    }
  };
  add(store.scansWhere('content_hash', q.contentHash, scope), SAME_FILE_SCORE, 'same file');
  if (q.fingerprint) add(store.scansWhere('fingerprint', q.fingerprint, scope), SAME_FINGERPRINT_SCORE, 'same merchant, date, total and receipt number');
  return [...out.values()].slice(0, limit);
};
