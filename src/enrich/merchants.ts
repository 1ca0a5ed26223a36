/**
 * Resolving a read merchant to one of the account's known merchants (`entities.normalisedMerchant`).
 *
 * Names: the fuzzy matcher of src/validate/names.ts (legal forms ignored), against the read merchant
 * name and the header lines (the first 6 lines, a little weaker), so a name read wrongly or not chosen
 * still meets its listed spelling; a shorter printed name matches a longer listed one when it covers
 * half of it (`STARBUCKS` for `Starbucks Coffee`, see `nameScore`). Locations: the listed postcode, address, city and country against
 * what was read (the address fields, else the header lines). Chains list one row per branch: the name
 * finds the chain, the location picks the branch.
 *
 * Every candidate gets points (log-odds-like):
 *   name matched        3 .. 5 (by similarity over 0.8; 0.5 less when only a header line matched)
 *   postcode            +3 read postcode equal, +2 printed in the header; -3 a different postcode read
 *   address             +3 x the share of the listed address's words found (0.6 needed); -1 when an
 *                       address was read and almost none of its words are listed
 *   city                +1.5 read city or a header line matches; -1.5 a different city read
 *   country             +0.5 equal; -3 different
 *   near                +1.5 its city matches the listed city (or state), +0.5 its country only, -1 another
 *                       country; coordinates in `near` ("3.14, 101.69"): +2 within 10 km, +1 within 50 km,
 *                       -1 beyond 500 km of the listed coordinates
 *   ipAddress location  +0.5 same city or within 50 km (a weak hint: the phone, not the shop)
 * Only candidates whose name matched, or whose location alone is strong (postcode and 75 % of the
 * address), are considered. The best is returned with
 *   confidence = base x share,
 * base 0.85 .. 0.95 when name and location matched (by name similarity), 0.75 name only without
 * contrary evidence, 0.6 location only, 0.35 name with a contradicting location; share = the softmax
 * weight of the best candidate's points among all candidates (two identical branches and nothing to
 * tell them apart: 0.5 each).
 */
import { LEGAL_FORMS, editDistance, matchName, normalizeName, ocrSkeleton } from '../validate/names.js';
import type { KnownMerchant, MatchEvidence, NormalisedMerchant } from '../contract/merchants.js';
import { countryCode } from './schema.js';

/** What was read from the receipt, and the caller's hints. */
export interface MerchantQuery {
  name?: string | undefined;
  /** Line of the read name (for the result's evidence). */
  nameLine?: number | undefined;
  address?: string | undefined;
  city?: string | undefined;
  postcode?: string | undefined;
  /** ISO alpha-2 of the read country. */
  country?: string | undefined;
  /** The first lines of the document (header). */
  headerLines?: string[] | undefined;
  /** The `near` option: "city, state, country" or "lat, lon". */
  near?: string | undefined;
  /** Where the end user's IP address is (GeoIP), a weak hint. */
  ipLocation?: { city?: string; country?: string; latitude?: number; longitude?: number } | undefined;
}

interface Prepared {
  merchant: KnownMerchant;
  /** Normalised address words (skeleton), with their weight. */
  addressWords: Array<{ word: string; weight: number }>;
  postcode?: string;
}

const normPostcode = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');
const words = (s: string) => normalizeName(s).split(' ').filter(Boolean).map(ocrSkeleton);

/** Words too common in addresses to tell two apart. */
const ADDRESS_STOPWORDS = new Set(['jalan', 'jln', 'street', 'st', 'road', 'rd', 'avenue', 'ave', 'no', 'lot', 'the', 'of', 'and', 'taman', 'tmn', 'lorong', 'lrg', 'persiaran', 'strasse', 'str', 'rue', 'calle', 'avenida', 'de', 'la', 'le', 'unit', 'floor', 'level', 'blok', 'block', 'bandar']);

function prepare(m: KnownMerchant): Prepared {
  const addressWords = m.address
    ? words(m.address).filter((w) => !ADDRESS_STOPWORDS.has(w)).map((word) => ({ word, weight: /\d/.test(word) ? 2 : 1 }))
    : [];
  return { merchant: m, addressWords, ...(m.postcode ? { postcode: normPostcode(m.postcode) } : {}) };
}

/** Share (by weight) of the listed address words found in the read words (one edit allowed in 5+ letters). */
function addressShare(listed: Prepared['addressWords'], read: Set<string>, readList: string[], near: Map<string, boolean>): number {
  if (!listed.length || !read.size) return 0;
  let got = 0, total = 0;
  for (const { word, weight } of listed) {
    total += weight;
    if (read.has(word)) { got += weight; continue; }
    if (word.length >= 5 && !/\d/.test(word)) {
      let close = near.get(word);
      if (close === undefined) {
        close = readList.some((r) => Math.abs(r.length - word.length) <= 1 && editDistance(r, word, 1) <= 1);
        near.set(word, close);
      }
      if (close) got += weight;
    }
  }
  return total ? got / total : 0;
}

const compactLength = (s: string) => ocrSkeleton(normalizeName(s).replace(/ /g, '')).length;

/** What matchName compares for a merchant name: the OCR skeleton of its words without legal forms, no spaces. */
function compactName(s: string): string {
  const words = normalizeName(s).split(' ').filter(Boolean);
  const kept = words.filter((w) => !LEGAL_FORMS.has(w));
  return ocrSkeleton((kept.length ? kept : words).join(''));
}

/** Character bigrams of a string, with their counts. */
function bigrams(s: string, into = new Map<string, number>()): Map<string, number> {
  for (let i = 0; i + 1 < s.length; i++) {
    const g = s.slice(i, i + 2);
    into.set(g, (into.get(g) ?? 0) + 1);
  }
  return into;
}

/**
 * Fewest bigrams a listed name of compact length `L` must share with a read text to possibly match it
 * (a pre-filter, so a long list does not run the matcher on every name): a match allows about L/4
 * edits, and each edit destroys at most 2 of the name's L-1 bigrams (2 more spared for OCR
 * skeleton replacements that differ at the edge of a run of words).
 */
function bigramsNeeded(L: number): number {
  return Math.max(1, (L - 1) - 2 * Math.ceil(0.25 * L) - 2);
}

/**
 * Similarity of a read name (or header line) and a listed name, 0 when they do not match: the listed
 * name found in the read text (src/validate/names.ts, legal forms ignored), or else the read name
 * found in the listed one when it covers at least half of it (`STARBUCKS` for `Starbucks Coffee`,
 * not `COFFEE`), scored 0.9 x its similarity.
 */
export function nameScore(read: string, listed: string): number {
  const m = matchName(read, listed, { ignoreLegalForms: true });
  if (m.matched) return m.score;
  const readLength = compactLength(read);
  if (readLength < 5 || readLength < 0.5 * compactLength(listed)) return 0;
  const r = matchName(listed, read, { ignoreLegalForms: true });
  return r.matched ? Math.round(0.9 * r.score * 100) / 100 : 0;
}

const toRad = (d: number) => (d * Math.PI) / 180;
/** Great-circle distance in km. */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const dLat = toRad(b.latitude - a.latitude);
  const dLon = toRad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.latitude)) * Math.cos(toRad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

interface Near { parts: string[]; country?: string; coordinates?: { latitude: number; longitude: number } }

/** "city, state, country" -> its parts (and the country's code); "lat, lon" -> coordinates. */
export function parseNear(near: string | undefined): Near | undefined {
  if (!near || !near.trim()) return undefined;
  const c = /^\s*([+-]?\d{1,2}(?:\.\d+)?)\s*[,;\s]\s*([+-]?\d{1,3}(?:\.\d+)?)\s*$/.exec(near);
  if (c) {
    const latitude = Number(c[1]), longitude = Number(c[2]);
    if (Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180) return { parts: [], coordinates: { latitude, longitude } };
  }
  const parts = near.split(',').map((p) => p.trim()).filter(Boolean);
  const last = parts[parts.length - 1];
  const country = last ? countryCode(last) : undefined;
  return { parts, ...(country ? { country } : {}) };
}

export class MerchantIndex {
  private readonly prepared: Prepared[];
  /** Listed names (distinct, as written) -> their merchants (chains have many). */
  private readonly byName = new Map<string, Prepared[]>();
  /** The distinct names for the pre-filters: bigram -> [name index, count], word -> name indexes. */
  private readonly names: Array<{ group: Prepared[]; needed: number }> = [];
  private readonly postings = new Map<string, Array<[number, number]>>();
  private readonly byWord = new Map<string, number[]>();
  private readonly byPostcode = new Map<string, Prepared[]>();

  constructor(readonly merchants: readonly KnownMerchant[]) {
    this.prepared = merchants.map(prepare);
    for (const p of this.prepared) {
      const key = normalizeName(p.merchant.name);
      const list = this.byName.get(key) ?? [];
      list.push(p);
      this.byName.set(key, list);
      if (p.postcode) {
        const pl = this.byPostcode.get(p.postcode) ?? [];
        pl.push(p);
        this.byPostcode.set(p.postcode, pl);
      }
    }
    for (const group of this.byName.values()) {
      const i = this.names.length;
      const compact = compactName(group[0]!.merchant.name);
      this.names.push({ group, needed: bigramsNeeded(compact.length) });
      for (const [g, n] of bigrams(compact)) {
        const list = this.postings.get(g) ?? [];
        list.push([i, n]);
        this.postings.set(g, list);
      }
      for (const w of new Set(words(group[0]!.merchant.name))) {
        if (w.length < 3) continue;
        const list = this.byWord.get(w) ?? [];
        list.push(i);
        this.byWord.set(w, list);
      }
    }
  }

  /** Indexes of the names sharing enough bigrams with `text` to be worth the matcher. */
  private namesNear(text: string): number[] {
    const read = bigrams(compactName(text));
    const shared = new Map<number, number>();
    for (const [g, n] of read) for (const [i, m] of this.postings.get(g) ?? []) shared.set(i, (shared.get(i) ?? 0) + Math.min(n, m));
    const out: number[] = [];
    for (const [i, n] of shared) if (n >= this.names[i]!.needed) out.push(i);
    return out;
  }

  /** The best name similarity of each plausible name group against the read name and header lines. */
  private nameHits(name: string | undefined, header: string[]): Map<Prepared[], { score: number; text: string; fromHeader: boolean }> {
    const hits = new Map<Prepared[], { score: number; text: string; fromHeader: boolean }>();
    const consider = (i: number, text: string, fromHeader: boolean, score: number) => {
      if (score <= 0) return;
      const group = this.names[i]!.group;
      const prev = hits.get(group);
      if (!prev || score > prev.score || (score === prev.score && prev.fromHeader && !fromHeader)) hits.set(group, { score, text, fromHeader });
    };
    const listedName = (i: number) => this.names[i]!.group[0]!.merchant.name;
    if (name) {
      for (const i of this.namesNear(name)) consider(i, name, false, nameScore(name, listedName(i)));
      // a shorter printed name inside a longer listed one: names sharing one of its words
      const reverse = new Set<number>();
      for (const w of words(name)) for (const i of this.byWord.get(w) ?? []) reverse.add(i);
      for (const i of reverse) if (!hits.has(this.names[i]!.group)) consider(i, name, false, nameScore(name, listedName(i)));
    }
    for (const line of header) {
      for (const i of this.namesNear(line)) {
        const m = matchName(line, listedName(i), { ignoreLegalForms: true });
        if (m.matched) consider(i, line, true, m.score);
      }
    }
    return hits;
  }

  get size(): number { return this.merchants.length; }

  resolve(q: MerchantQuery): NormalisedMerchant | undefined {
    if (!this.prepared.length) return undefined;
    const header = (q.headerLines ?? []).slice(0, 6);
    // names: each distinct listed name against the read name and the header lines
    const nameHits = new Map<Prepared, NameHit>();
    for (const [group, hit] of this.nameHits(q.name, header)) for (const p of group) nameHits.set(p, hit);
    const r = readLocation(q, header);
    const candidates = new Set<Prepared>(nameHits.keys());
    // location-only candidates: the read postcode lists them
    for (const pc of [r.readPostcode, ...r.headerPostcodes]) if (pc) for (const p of this.byPostcode.get(pc) ?? []) candidates.add(p);
    const scored: Scored[] = [];
    for (const p of candidates) {
      const hit = nameHits.get(p);
      const s: Score = { points: 0, evidence: [], contradiction: false, postcode: false, addr: 0, city: false };
      for (const rule of CANDIDATE_RULES) rule(s, p, r, hit);
      const locationMatched = s.postcode || s.addr >= 0.6 || (s.city && !s.contradiction);
      const nameMatched = !!hit;
      // a candidate by location alone needs strong location evidence
      if (!nameMatched && !(s.postcode && s.addr >= 0.75)) continue;
      scored.push({ p, points: s.points, nameMatched, locationMatched, contradiction: s.contradiction, evidence: s.evidence, nameScore: hit?.score ?? 0, text: hit?.text ?? '' });
    }
    return scored.length ? bestMerchant(scored) : undefined;
  }
}

/** A listed name found in the reading: how well, in which text, and whether in a header line (not the read name). */
interface NameHit { score: number; text: string; fromHeader: boolean }

/** What the receipt says of where it is, as the candidate rules compare it. */
interface ReadLocation {
  q: MerchantQuery;
  header: string[];
  headerText: string;
  readPostcode: string | undefined;
  headerPostcodes: Set<string>;
  readAddressWords: string[];
  readAddressSet: Set<string>;
  readCountry: string | undefined;
  near: ReturnType<typeof parseNear>;
  /** Word comparisons made so far (addressShare's cache). */
  closeWords: Map<string, boolean>;
}

function readLocation(q: MerchantQuery, header: string[]): ReadLocation {
  const headerText = header.join(' \n ');
  const readAddressWords = words([q.address ?? '', q.address ? '' : headerText].join(' '));
  return {
    q, header, headerText,
    readPostcode: q.postcode ? normPostcode(q.postcode) : undefined,
    headerPostcodes: new Set((headerText.match(/\b[A-Z0-9]{2,5}[ -]?[A-Z0-9]{2,4}\b|\b\d{4,6}\b/gi) ?? []).map(normPostcode)),
    readAddressWords, readAddressSet: new Set(readAddressWords),
    readCountry: q.country ? countryCode(q.country) : undefined,
    near: parseNear(q.near),
    closeWords: new Map(),
  };
}

/** A candidate's score as the rules build it. */
interface Score { points: number; evidence: MatchEvidence[]; contradiction: boolean; postcode: boolean; addr: number; city: boolean }
interface Scored { p: Prepared; points: number; nameMatched: boolean; locationMatched: boolean; contradiction: boolean; evidence: MatchEvidence[]; nameScore: number; text: string }
type CandidateRule = (s: Score, p: Prepared, r: ReadLocation, hit: NameHit | undefined) => void;

/** The name: 3 points, up to 2 more for a close match, half a point less when only a header line has it. */
const nameRule: CandidateRule = (s, _p, _r, hit) => {
  if (!hit) return;
  s.points += 3 + 2 * Math.max(0, (hit.score - 0.8) / 0.2) - (hit.fromHeader ? 0.5 : 0);
  s.evidence.push('name');
};

/** The postcode: read as the postcode 3, in the header 2; another postcode read is a contradiction (-3). */
const postcodeRule: CandidateRule = (s, p, r) => {
  if (!p.postcode) return;
  if (r.readPostcode && r.readPostcode === p.postcode) { s.points += 3; s.postcode = true; }
  else if (r.headerPostcodes.has(p.postcode)) { s.points += 2; s.postcode = true; }
  else if (r.readPostcode) { s.points -= 3; s.contradiction = true; }
  if (s.postcode) s.evidence.push('postcode');
};

/** The address: 3 points times the share of its words read (from 0.6); -1 when a read address shares under 0.2. */
const addressRule: CandidateRule = (s, p, r) => {
  s.addr = addressShare(p.addressWords, r.readAddressSet, r.readAddressWords, r.closeWords);
  if (s.addr >= 0.6) { s.points += 3 * s.addr; s.evidence.push('address'); }
  else if (r.q.address && p.addressWords.length && s.addr < 0.2) s.points -= 1;
};

/** The city: 1.5 points when read or in the header; a read city unlike it, and not in the header, -1.5 and a contradiction. */
const cityRule: CandidateRule = (s, p, r) => {
  const m = p.merchant;
  if (!m.city) return;
  if (r.q.city) {
    const sc = matchName(r.q.city, m.city).score;
    if (sc >= 0.8) s.city = true;
    else if (sc < 0.5 && !matchName(r.headerText, m.city).matched) { s.points -= 1.5; s.contradiction = true; }
  }
  if (!s.city && r.header.some((l) => matchName(l, m.city!).matched)) s.city = true;
  if (s.city) { s.points += 1.5; s.evidence.push('city'); }
};

/** The country: the same +0.5; another -3 and a contradiction. */
const countryRule: CandidateRule = (s, p, r) => {
  const m = p.merchant;
  if (!m.country || !r.readCountry) return;
  if (m.country === r.readCountry) { s.points += 0.5; s.evidence.push('country'); }
  else { s.points -= 3; s.contradiction = true; }
};

/** The caller's `near`: by distance (10 km +2, 50 km +1, over 500 km -1) or by the place and country named. */
const nearRule: CandidateRule = (s, p, r) => {
  const m = p.merchant, near = r.near;
  if (!near) return;
  let nearHit = false;
  if (near.coordinates && m.latitude !== undefined && m.longitude !== undefined) {
    const d = distanceKm(near.coordinates, { latitude: m.latitude, longitude: m.longitude });
    if (d <= 10) { s.points += 2; nearHit = true; } else if (d <= 50) { s.points += 1; nearHit = true; } else if (d > 500) s.points -= 1;
  } else if (near.parts.length) {
    const place = near.parts.slice(0, near.country ? -1 : undefined);
    if ((m.city && place.some((x) => matchName(x, m.city!).matched)) || (m.state && place.some((x) => matchName(x, m.state!).matched))) { s.points += 1.5; nearHit = true; }
    else if (near.country && m.country === near.country) { s.points += 0.5; nearHit = true; }
    if (near.country && m.country && m.country !== near.country) s.points -= 1;
  }
  if (nearHit) s.evidence.push('near');
};

/** Where the end user's IP address is: the same city or within 50 km, +0.5. */
const ipRule: CandidateRule = (s, p, r) => {
  const ip = r.q.ipLocation, m = p.merchant;
  if (!ip) return;
  const sameCity = !!(ip.city && m.city && matchName(ip.city, m.city).matched);
  const close = ip.latitude !== undefined && ip.longitude !== undefined && m.latitude !== undefined && m.longitude !== undefined
    && distanceKm({ latitude: ip.latitude, longitude: ip.longitude }, { latitude: m.latitude, longitude: m.longitude }) <= 50;
  if (sameCity || close) { s.points += 0.5; s.evidence.push('ipAddress'); }
};

/** The rules a candidate is scored by, in order (the order of its evidence list). */
const CANDIDATE_RULES: readonly CandidateRule[] = [nameRule, postcodeRule, addressRule, cityRule, countryRule, nearRule, ipRule];

/**
 * The best-scored candidate, with a confidence: a base by what matched (name and location 0.85-0.95,
 * name alone 0.75, name with a contradiction 0.35, location alone 0.6) times its share of the
 * candidates' softmax over points.
 */
function bestMerchant(scored: Scored[]): NormalisedMerchant {
  scored.sort((a, b) => b.points - a.points);
  const best = scored[0]!;
  const top = best.points;
  const share = 1 / scored.reduce((s, c) => s + Math.exp(c.points - top), 0);
  let base: number;
  if (best.nameMatched && best.locationMatched) base = 0.85 + 0.1 * Math.max(0, (best.nameScore - 0.8) / 0.2);
  else if (best.nameMatched && !best.contradiction) base = 0.75;
  else if (best.nameMatched) base = 0.35;
  else base = 0.6;
  return {
    data: { ...best.p.merchant },
    confidenceLevel: Math.round(Math.min(0.99, base * share) * 100) / 100,
    nameMatched: best.nameMatched,
    locationMatched: best.locationMatched,
    matchedOn: best.evidence,
    nameScore: best.nameScore,
    matchedText: best.text,
  };
}
