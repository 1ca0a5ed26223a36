/**
 * The shapes of the merchant's name rules: a candidate rule proposes names, a never-name rule drops a
 * reading, a scoring rule adds to a draft's score and evidence; every rule has a unique name and a
 * one-line doc. The name that wins carries `rule:<name>` of the candidate rule that proposed it.
 */
import type { EvidenceTerm } from '../confidence.js';
import type { Brand } from '../brands.js';
import type { AddressFields } from '../address.js';
import type { Segment } from '../text.js';
import type { Located, LocatedName } from '../types.js';
import type { MerchantContext } from './context.js';

export interface MerchantFields extends AddressFields {
  /** Evidence of the name and address choices (for debugging and the bench). */
  evidence?: Record<string, string[]>;
  merchantName?: LocatedName;
  merchantPhoneNumber?: Located<string>;
  merchantTaxId?: Located<string>;
  merchantWebsite?: Located<string>;
  merchantTypes?: Located<string[]>;
}

/** A name candidate, scored, with the evidence terms that scored it and the candidate rule that proposed it. */
export interface NameCandidate {
  seg: Segment;
  lineOrder: number;
  value: string;
  score: number;
  /** What the scoring rules found, by name (1 = present, or a measure): the fitted ranking's input (scoring.ts `gain`). */
  features: Record<string, number>;
  terms: EvidenceTerm[];
  brand?: Brand;
  fromBrand?: boolean;
  /** The candidate rule that proposed it. */
  rule: string;
}

/** Where a segment stands: its line's place in the header (99 below it). */
export interface Place { order: number; inHeader: boolean }

/** A segment read as a name, before the never-name rules. */
export interface Reading extends Place {
  seg: Segment;
  /** The candidate rule that took the segment. */
  rule: string;
  /** Printed after a merchant label ("Sold by:"). */
  labelled: boolean;
  /** The name as cleaned (cleanName), and folded. */
  value: string;
  u: string;
  /** A company form, not a short one printed in lower case. */
  suffix: boolean;
}

/** A reading past the never-name rules, being scored. */
export interface Draft extends Reading {
  /** Reads like an address (street words, a postcode, a house number first, a country alone). */
  addressy: boolean;
  /** The brand of the country the name starts with, the name then little more than it. */
  brand?: Brand;
  /** The page's web or e-mail domain spells the name (without its company form), or its first word. */
  coreMatch: boolean;
  wordMatch: boolean;
  score: number;
  features: Record<string, number>;
  terms: EvidenceTerm[];
}

/** A candidate rule asked of every segment, in reading order: the first that places a segment proposes it. */
export interface SegmentRule {
  kind: 'segment';
  name: string;
  doc: string;
  take(ctx: MerchantContext, seg: Segment, lineNo: number): Place | undefined;
}

/** A candidate rule of the whole page, run after the segment rules: new candidates (and confirmations of those found). */
export interface PageRule {
  kind: 'page';
  name: string;
  doc: string;
  find(ctx: MerchantContext, found: NameCandidate[]): NameCandidate[];
}

export type CandidateRule = SegmentRule | PageRule;

/** A rule that drops a reading: it never names the merchant. */
export interface NeverNameRule {
  name: string;
  doc: string;
  rejects(r: Reading, ctx: MerchantContext): boolean;
}

/** A rule that adds to a draft's score (and, mostly, an evidence term). */
export interface ScoringRule {
  name: string;
  doc: string;
  score(d: Draft, ctx: MerchantContext): void;
}
