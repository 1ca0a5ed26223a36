/**
 * The known merchants of an account's enrichment list (contract section 5) and the one a receipt resolved
 * to (`entities.normalisedMerchant`, contract section 3). src/enrich/ reads the list (schema.ts) and
 * matches it (merchants.ts); the result types carry the match, so its shapes live here.
 */

/** A known merchant: a shop, a branch, a restaurant. */
export interface KnownMerchant {
  /** The account's own id for it (unique in the list when given). */
  id?: string;
  name: string;
  address?: string;
  city?: string;
  state?: string;
  postcode?: string;
  /** ISO 3166-1 alpha-2 (an English country name is accepted and stored as its code). */
  country?: string;
  latitude?: number;
  longitude?: number;
  /** Merchant-level category (wins over keyword categories when the merchant is matched). */
  category?: string;
}

export type MatchEvidence = 'name' | 'postcode' | 'address' | 'city' | 'country' | 'near' | 'ipAddress';

/** `entities.normalisedMerchant`. */
export interface NormalisedMerchant {
  /** The listed merchant, as the list has it. */
  data: KnownMerchant;
  /** In [0, 0.99]. */
  confidenceLevel: number;
  /** The name (or a header line) matched the listed name. */
  nameMatched: boolean;
  /** The read location (postcode, address or city) agrees with the listed one. */
  locationMatched: boolean;
  /** Which evidence agreed, strongest first: name, postcode, address, city, country, near, ipAddress. */
  matchedOn: MatchEvidence[];
  /** Name similarity in [0, 1] (0 when matched by location alone). */
  nameScore: number;
  /** The read name or header line that matched the listed name ('' when matched by location alone). */
  matchedText: string;
}
