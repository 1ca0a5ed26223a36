/**
 * The merchant's address: the block of lines under the name (street words, unit/lot numbers,
 * postcodes, cities, states), stopping at phone, tax-registration, title or date lines, and its split
 * into city, state, postal code and country code.
 *
 * The work is ordered lists of small named rules, run by `findAddress`: BLOCK_LINE_RULES judge each line
 * under the name (take it, pass over it, or end the block; each line taken keeps the rule's name),
 * ADDRESS_EVIDENCE_RULES give the confidence terms in the order of the evidence, and POSTCODE_RULES,
 * STATE_RULES and CITY_RULES split it (the first that finds a value decides).
 */
import type { Box, Document, Line } from '../document/types.js';
import type { Locale } from '../locale/index.js';
import { COUNTRY_NAMES } from '../locale/lexicon.js';
import { regionCodesOf, regionsOf, townsOf } from '../locale/places.js';
import { fold, segmentsOf } from './text.js';
import { parseDates } from '../locale/dates.js';
import type { Segment } from './text.js';
import type { Located } from './types.js';
import { confidenceFrom } from './confidence.js';
import { wordAlternation } from '../locale/languages/index.js';
import type { EvidenceTerm } from './confidence.js';

export interface AddressFields {
  /** Evidence of the address choice (not a field of the result). */
  addressEvidence?: string[];
  merchantAddress?: Located<string>;
  merchantCity?: Located<string>;
  merchantState?: Located<string>;
  merchantPostalCode?: Located<string>;
  merchantCountryCode?: Located<string>;
}

const STREET = new RegExp(String.raw`\b(?:${wordAlternation('streetWords')}|${wordAlternation('addressWords')})\b`);
const HARD_STOP = /\d[.,]\d{2}\s*[A-Z$§*]{0,2}\s*$|\b[A-Z]{1,3}\s?#\s?\d/;
const STOP = new RegExp(String.raw`\b(?:${wordAlternation('addressStop')})(?:(?<=:)|\b)|WWW\.|HTTP|@`);
const REGISTRATIONS = wordAlternation('registrationLabels');
const REGISTRATION = new RegExp(String.raw`^\s*[({[]?\s*(?:${REGISTRATIONS})?\s*[.:]?\s*[A-Z]{0,2}\d{4,}[\d\s.]*-?\s*[A-Z%\\]?\s*[)}\]]?\s*$|\b(?:${REGISTRATIONS})\b`, 'i');
const INLINE_STOP = new RegExp(String.raw`\s*[,(]?\s*\b(?:${wordAlternation('addressCut')})\b.*$|\s*[,(]?\s*(?:WWW\.|HTTP).*$`, 'i');
const ADDRESS_LABEL = new RegExp(String.raw`^\s*(?:${wordAlternation('addressLabels')})\s*[:.]?\s*`, 'i');
const POSTCODE_5 = /(?<![\d.,-])(\d{5})(?![\d.,]|-\d{2,})/;
const POSTCODE_OTHER = /\b(\d{4}\s?[A-Z]{2})\b|\b([A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2})\b|(?<!\d)(\d{3}\s?\d{3})(?!\d)|\b(\d{5}-\d{4})\b|(?<![\d-])(\d{4})(?![\d.,])/;
const COUNTRY_WORD = new RegExp(String.raw`\b(${Object.keys(COUNTRY_NAMES).filter((k) => k.length > 3).map((k) => k.toUpperCase()).sort((a, b) => b.length - a.length).join('|')})\b`);

const letters = (s: string) => (s.match(/\p{L}/gu) ?? []).length;
const digits = (s: string) => (s.match(/\d/g) ?? []).length;

/** Each list's names as whole words are looked for (" KUALA LUMPUR "), made once per list. */
const PADDED = new WeakMap<readonly string[], string[]>();
function placeIn(u: string, list: readonly string[]): string | undefined {
  let names = PADDED.get(list);
  if (!names) PADDED.set(list, (names = list.map((s) => ` ${s.replace(/[^A-Z0-9]+/g, ' ').trim()} `)));
  const padded = ` ${u.replace(/[^A-Z0-9]+/g, ' ')} `;
  let best: string | undefined;
  for (let i = 0; i < list.length; i++) if (padded.includes(names[i]!) && (!best || list[i]!.length > best.length)) best = list[i];
  return best;
}

/** Street names written as one compound word: Hauptstr., Bahnhofstraße, Kerkstraat, Rosenweg, Marktplatz. */
// (starts at a word's first letter: from every letter of a long word it backtracked quadratically, 2.9 s on 20k letters)
const STREET_SUFFIX = new RegExp(String.raw`(?<!\p{L})\p{L}{3,}(?:${wordAlternation('streetSuffixes')})\b`, 'u');
/** A street name followed by a house number, the European way ("Damrak 1", "Calle Mayor 12b"). */
const NAME_NUMBER = /^[\p{L}][\p{L} .'-]{2,40}\s\d{1,4}[A-Z]?(?:\s*[-/]\s*\d{1,4}[A-Z]?)?$/u;

/** Reads like part of an address: street words, a postcode with a place, a state or city, a house number. */
export function looksLikeAddress(text: string): boolean {
  const u = fold(text);
  if (STREET.test(u) || STREET_SUFFIX.test(u)) return true;
  if (POSTCODE_5.test(u) && letters(u) >= 3) return true;
  if (placeIn(u, regionsOf('MY')) || placeIn(u, regionsOf('ID')) || placeIn(u, townsOf('MY')) || placeIn(u, townsOf('ID'))) return true;
  if (/^(?:NO\.?\s*)?\d+[A-Z]?(?:[-/&]\d+[A-Z]?)*[,\s]+\p{L}/u.test(u)) return true;
  if (/,\s*\p{L}/u.test(u) && digits(u) > 0 && letters(u) > 4) return true;
  if (COUNTRY_WORD.test(u)) return true;
  return false;
}

function located(line: Line, value: string, confidence: number, boxes: Box[]): Located<string> {
  return { value, confidence, text: line.text, lineIndex: line.index, keyword: '-', boxes, page: line.page };
}

/** What findAddress is told about the page: the merchant's name line and box, the customer's block, the column gap of a PDF. */
export interface AddressContext { nameLine?: Line; nameBox?: Box | undefined; customer: Set<Segment>; gap: number }

/**
 * Finds the address block under the merchant name and splits it. The block is read by BLOCK_LINE_RULES
 * (under the name, else from the top); its confidence terms come from ADDRESS_EVIDENCE_RULES; the split
 * from POSTCODE_RULES, STATE_RULES and CITY_RULES (in each list the first that gives a value decides).
 */
export function findAddress(doc: Document, locale: Locale, ctx: AddressContext): AddressFields {
  const out: AddressFields = {};
  const page0 = doc.pages[0];
  if (!page0) return out;
  const lines = page0.lineIndices.map((i) => doc.lines[i]!);
  const nameAt = ctx.nameLine ? lines.indexOf(ctx.nameLine) : -1;
  const page: AddressPage = { lines, pdf: page0.source === 'pdf-text', ctx };
  let block = nameAt >= 0 ? addressBlock(page, nameAt + 1) : [];
  if (!block.length) block = addressBlock(page, 0);
  if (!block.length) {
    if (locale.countryCode) out.merchantCountryCode = located(lines[0]!, locale.countryCode, Math.min(0.9, locale.countryConfidence), []);
    return out;
  }
  const value = addressValue(block);
  const up = fold(value);
  const postcode = firstHit(POSTCODE_RULES, { block, up });
  const terms = ADDRESS_EVIDENCE_RULES.flatMap((r) => r.term({ block, postcode, nameLine: nameAt >= 0 ? lines[nameAt] : undefined }) ?? []);
  out.merchantAddress = located(block[0]!.seg.line, value, confidenceFrom(0.8, terms), block.map((b) => b.seg.box));
  out.addressEvidence = terms.map((t) => `${t.name}(${t.weight})`);
  return Object.assign(out, splitAddress(block, up, postcode, locale));
}

/** The first rule of a list that gives a value (a non-empty one), or undefined. */
function firstHit<C, R>(rules: ReadonlyArray<{ name: string; find: (ctx: C) => R | undefined }>, ctx: C): R | undefined {
  for (const r of rules) {
    const v = r.find(ctx);
    if (v) return v;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The block: the lines under the name that BLOCK_LINE_RULES take.

/** The first page's lines and what findAddress was told. */
export interface AddressPage { lines: Line[]; pdf: boolean; ctx: AddressContext }

/** A line of the address block: the segment it was read from, its text (inline stops and an "Address:" label cut off), the rule that took it. */
export interface BlockLine { seg: Segment; text: string; rule: string }

/** The segment of a line that may be the address: receipts are one column, so a line is only split at very wide gaps, between real words, and the segment nearest the name's left edge is kept. */
function columnOf(line: Line, page: AddressPage): Segment {
  const segs = segmentsOf(line, page.pdf ? page.ctx.gap : 8).filter((sg) => letters(sg.text) >= 3 || digits(sg.text) >= 3);
  if (!segs.length) return { line, text: line.text, words: line.words, box: line.box };
  const nameBox = page.ctx.nameBox;
  if (!nameBox || segs.length === 1) return segs[0]!;
  const x = nameBox.x0;
  return segs.slice().sort((a, b) => Math.abs(a.box.x0 - x) - Math.abs(b.box.x0 - x))[0]!;
}

/** What a block-line rule sees: line i of the page, its segment, its text (u folded), the cut text (cu folded), the block so far. */
export interface BlockLineContext {
  page: AddressPage;
  i: number;
  seg: Segment;
  u: string;
  cut: string;
  cu: string;
  /** Lines taken so far. */
  taken: number;
  /** The index of the last line taken that printed a postcode, or -1. */
  afterPostcode: number;
}

/**
 * What a block-line rule decides: take the line, or pass over it. Before the block starts, a line passed
 * over adds `costs` to the lines skipped, and more than `limit` skipped ends the search; once the block
 * has started, a line not taken ends it.
 */
export type LineVerdict = { take: true } | { take: false; costs: 0 | 1; limit: number };

const TAKE: LineVerdict = { take: true };

/** A stop line: nothing left once cut, fewer than two letters, a date or time, a price or a numbered counter (HARD_STOP), a stop word without a street word. */
function isStopLine({ cut, cu }: BlockLineContext): boolean {
  const dated = parseDates(cu, true, 2200).length > 0 || /\b\d{1,2}:\d{2}\b/.test(cu);
  return !cut || letters(cut) < 2 || dated || HARD_STOP.test(cu) || (STOP.test(cu) && !STREET.test(cu));
}

/** Reads like an address (looksLikeAddress), or a street name and house number above a line with a postcode and a place. */
function isAddressLike({ page, i, cut }: BlockLineContext): boolean {
  const lines = page.lines;
  const nextText = i + 1 < lines.length ? fold(lines[i + 1]!.text) : '';
  return looksLikeAddress(cut) || (NAME_NUMBER.test(cut.trim()) && (POSTCODE_5.test(nextText) || POSTCODE_OTHER.test(nextText)) && letters(nextText) >= 3);
}

/** The rules of a line of the block, in order: the first that gives a verdict decides. */
export const BLOCK_LINE_RULES: ReadonlyArray<{ name: string; judge: (l: BlockLineContext) => LineVerdict | undefined }> = [
  /** The customer's block (after "Bill to" / "To:"): passed over for free. */
  { name: 'customer', judge: (l) => (l.page.ctx.customer.has(l.seg) ? { take: false, costs: 0, limit: Infinity } : undefined) },
  /** A company registration line without street words: skipped, with no limit. */
  { name: 'registration', judge: (l) => (REGISTRATION.test(l.u) && !STREET.test(l.u) ? { take: false, costs: 1, limit: Infinity } : undefined) },
  /** A stop line (isStopLine): at most 4 skipped. */
  { name: 'stop-line', judge: (l) => (isStopLine(l) ? { take: false, costs: 1, limit: 4 } : undefined) },
  /** An address line (isAddressLike): taken. */
  { name: 'address-like', judge: (l) => (isAddressLike(l) ? TAKE : undefined) },
  /** Inside the block before any postcode, a line of three letters or more not ending in ":": taken. */
  { name: 'continuation', judge: (l) => (l.taken > 0 && l.afterPostcode < 0 && letters(l.cut) >= 3 && !/[:]$/.test(l.cut) ? TAKE : undefined) },
  /** The line right after the postcode line, with three letters or more, five digits at most and no ":" (the city, the country): taken. */
  { name: 'after-postcode', judge: (l) => (l.taken > 0 && l.afterPostcode >= 0 && l.i - l.afterPostcode <= 1 && letters(l.cut) >= 3 && digits(l.cut) <= 5 && !/:/.test(l.cut) ? TAKE : undefined) },
  /** Anything else: at most 3 skipped. */
  { name: 'not-address', judge: () => ({ take: false, costs: 1, limit: 3 }) },
];

/** The context of line i for the block-line rules. */
function blockLineContext(page: AddressPage, i: number, taken: number, afterPostcode: number): BlockLineContext {
  const seg = columnOf(page.lines[i]!, page);
  const raw = seg.text.trim();
  const cut = raw.replace(INLINE_STOP, '').replace(ADDRESS_LABEL, '').trim();
  return { page, i, seg, u: fold(raw), cut, cu: fold(cut), taken, afterPostcode };
}

/** The verdict on a line of the first block-line rule that gives one, and that rule's name. */
export function judgeLine(l: BlockLineContext): { rule: string; verdict: LineVerdict } {
  for (const r of BLOCK_LINE_RULES) {
    const verdict = r.judge(l);
    if (verdict) return { rule: r.name, verdict };
  }
  throw new Error('address: no block-line rule judged the line (the last one always does)');
}

/** The address block read from line `start` (10 lines at most): the lines BLOCK_LINE_RULES take, up to the first they do not. */
export function addressBlock(page: AddressPage, start: number): BlockLine[] {
  const block: BlockLine[] = [];
  let afterPostcode = -1;
  let skipped = 0;
  for (let i = start; i < Math.min(page.lines.length, start + 10); i++) {
    const l = blockLineContext(page, i, block.length, afterPostcode);
    const { rule, verdict } = judgeLine(l);
    if (verdict.take) {
      block.push({ seg: l.seg, text: l.cut, rule });
      if (POSTCODE_5.test(l.cu) || POSTCODE_OTHER.test(l.cu)) afterPostcode = i;
      continue;
    }
    if (block.length) break;
    skipped += verdict.costs;
    if (skipped > verdict.limit) break;
  }
  return block;
}

/** The address: the block's lines joined with commas, edge punctuation off, OCR's "J1." / "JI." read back as the Indonesian street abbreviation "Jl.". */
function addressValue(block: BlockLine[]): string {
  return block.map((b) => b.text.replace(/[\s,.;:]+$/, '').replace(/^[\s,.;:|]+/, '')
    .replace(/^J[1I|]\.(?=\s)/, 'Jl.').replace(/^J[1I|]N(?=\s)/, 'JLN')).join(', ');
}

// ---------------------------------------------------------------------------------------------
// The postcode and the address's confidence.

/** The postcode: its text, and whether it is a five-digit one (whose city is read beside it). */
export interface Postcode { value: string; five: boolean }

/** What a postcode rule sees: the block and the whole address folded. */
export interface PostcodeContext { block: BlockLine[]; up: string }

const fiveDigitLines = (block: BlockLine[]) => block.map((b) => fold(b.text)).filter((t) => POSTCODE_5.test(t));
const five = (line: string | undefined): Postcode | undefined => (line ? { value: POSTCODE_5.exec(line)![1]!, five: true } : undefined);

/** The postcode rules, in order: the first that finds one decides. */
export const POSTCODE_RULES: ReadonlyArray<{ name: string; find: (ctx: PostcodeContext) => Postcode | undefined }> = [
  /** Five digits on the line that also names the city or state ("43300 SERI KEMBANGAN", "SPRINGFIELD, IL 62704"), not a "#" number. */
  { name: 'five-digit-with-place', find: ({ block }) => five(fiveDigitLines(block).find((t) => /\d{5}\s*,?\s*\p{L}{3,}|\p{L}{3,}\s*,?\s*(?:[A-Z]{2}\s+)?\d{5}/u.test(t) && !/#/.test(t))) },
  /** Five digits on the first line that has them. */
  { name: 'five-digit', find: ({ block }) => five(fiveDigitLines(block)[0]) },
  /** Another country's form anywhere in the address (1234 AB, SW1A 1AA, 560 001, 12345-6789, 1234). */
  { name: 'other-form', find: ({ up }) => { const v = POSTCODE_OTHER.exec(up)?.slice(1).find(Boolean); return v ? { value: v, five: false } : undefined; } },
];

/** What an evidence rule of the address sees: the block, its postcode, the merchant's name line. */
export interface AddressEvidenceContext { block: BlockLine[]; postcode: Postcode | undefined; nameLine: Line | undefined }

/** The confidence terms of the address, in the order of its evidence (from 0.8). */
export const ADDRESS_EVIDENCE_RULES: ReadonlyArray<{ name: string; term: (ctx: AddressEvidenceContext) => EvidenceTerm | undefined }> = [
  /** A postcode: +0.5. */
  { name: 'postcode', term: ({ postcode }) => (postcode ? { name: 'postcode', weight: 0.5 } : undefined) },
  /** A street word on some line: +0.3. */
  { name: 'street-words', term: ({ block }) => (block.some((b) => STREET.test(fold(b.text))) ? { name: 'street-words', weight: 0.3 } : undefined) },
  /** Starting at most two lines under the merchant's name: +0.3. */
  { name: 'under-name', term: ({ block, nameLine }) => (nameLine && block[0]!.seg.line.index <= nameLine.index + 2 ? { name: 'under-name', weight: 0.3 } : undefined) },
  /** The OCR confidence of its weakest line: -1.5 below 0.6, -0.7 below 0.75, +0.6 from 0.85. */
  { name: 'ocr', term: ({ block }) => {
    const conf = Math.min(...block.map((b) => b.seg.line.confidence));
    return conf < 0.6 ? { name: 'low-ocr', weight: -1.5 } : conf < 0.75 ? { name: 'mid-ocr', weight: -0.7 } : conf >= 0.85 ? { name: 'ocr-high', weight: 0.6 } : undefined;
  } },
];

// ---------------------------------------------------------------------------------------------
// The split: postcode, state, city, country.

/** What the state and city rules see: the address folded, its postcode, its country and that country's state list. */
export interface SplitContext { up: string; postcode: Postcode | undefined; country: string | undefined; stateList: readonly string[] }

let US_STATE_ZIP: RegExp | undefined;
/** A US state's code before a ZIP code (the codes from the region data, made on first use). */
const usStateZip = () => (US_STATE_ZIP ??= new RegExp(`\\b(${regionCodesOf('US').join('|')})\\s+\\d{5}`));

/** The state rules, in order: the first that finds one decides. */
export const STATE_RULES: ReadonlyArray<{ name: string; find: (ctx: SplitContext) => string | undefined }> = [
  /** A state or province of the country's list (Indonesia, India, Malaysia) named in the address. */
  { name: 'state-list', find: ({ up, stateList }) => (stateList.length ? placeIn(up, stateList) : undefined) },
  /** In the US, a state code before a ZIP code ("IL 62704"). */
  { name: 'us-state-zip', find: ({ up, country }) => (country === 'US' ? usStateZip().exec(up)?.[1] : undefined) },
];

/** The text after the postcode up to a comma, letters only. */
const afterPostcode = (up: string, from: number) => up.slice(from).split(/[,]/)[0]!.replace(/[^A-Z\s.'-]/g, ' ').replace(/\s+/g, ' ').trim();

/** "43300 SERI KEMBANGAN, SELANGOR": the one to four words after a five-digit postcode up to a comma (not a state alone, not a country). */
function cityAfterPostcode({ up, postcode, stateList }: SplitContext): string | undefined {
  if (!postcode?.five) return undefined;
  const after = afterPostcode(up, up.indexOf(postcode.value) + 5);
  const words = after.split(' ').filter(Boolean);
  const stateOnly = stateList.some((s) => s === after);
  return words.length && words.length <= 4 && !stateOnly && !COUNTRY_WORD.test(after) ? after : undefined;
}

/** "SPRINGFIELD, IL 62704" / "Denpasar, BALI 80361": the part before a five-digit postcode (a two-letter state code dropped), without digits or street words, four words at most, not a state. */
function cityBeforePostcode({ up, postcode, stateList }: SplitContext): string | undefined {
  if (!postcode?.five) return undefined;
  const before = up.slice(0, up.indexOf(postcode.value)).split(',').map((p) => p.trim().replace(/\b[A-Z]{2}$/, '').trim()).filter(Boolean);
  const cand = before[before.length - 1];
  return cand && !/\d/.test(cand) && !STREET.test(cand) && cand.split(' ').length <= 4 && !stateList.includes(cand) ? cand : undefined;
}

/** The one to three words after another form of postcode ("1012 AB AMSTERDAM"). */
function cityAfterOtherPostcode({ up, postcode }: SplitContext): string | undefined {
  if (!postcode || postcode.five) return undefined;
  const after = afterPostcode(up, up.indexOf(fold(postcode.value)) + postcode.value.length);
  return after && after.split(' ').length <= 3 ? after : undefined;
}

/** The city rules, in order: the first that finds one decides. */
export const CITY_RULES: ReadonlyArray<{ name: string; find: (ctx: SplitContext) => string | undefined }> = [
  { name: 'after-postcode', find: cityAfterPostcode },
  { name: 'before-postcode', find: cityBeforePostcode },
  { name: 'after-other-postcode', find: cityAfterOtherPostcode },
  /** A known Indonesian city (in Indonesia) or Malaysian city (elsewhere) named in the address. */
  { name: 'known-city', find: ({ up, country }) => placeIn(up, townsOf(country === 'ID' ? 'ID' : 'MY')) },
];

/** The country: a country named in the address, else the locale's. */
function countryOf(up: string, locale: Locale): string | undefined {
  const m = COUNTRY_WORD.exec(up);
  if (m) return COUNTRY_NAMES[m[1]!.toLowerCase()];
  return locale.countryCode;
}

/** The postal code, state, city and country of the address, each on the block line that prints it. */
function splitAddress(block: BlockLine[], up: string, postcode: Postcode | undefined, locale: Locale): AddressFields {
  const out: AddressFields = {};
  const first = block[0]!.seg.line;
  const lineOf = (needle: string) => (block.find((b) => fold(b.text).includes(needle)) ?? block[0]!).seg.line;
  const boxesOf = (needle: string) => [lineOf(needle).box];
  const country = countryOf(up, locale);
  if (postcode) out.merchantPostalCode = located(lineOf(postcode.value), postcode.value.replace(/\s+/g, ' '), 0.75, boxesOf(postcode.value));
  const stateList = country === 'ID' || country === 'IN' || country === 'MY' ? regionsOf(country) : [];
  const sc: SplitContext = { up, postcode, country, stateList };
  const state = firstHit(STATE_RULES, sc);
  if (state) out.merchantState = located(lineOf(state.split(' ')[0]!), state, 0.75, boxesOf(state.split(' ')[0]!));
  const city = firstHit(CITY_RULES, sc);
  if (city && city !== state) out.merchantCity = located(lineOf(city.split(' ')[0]!), city, 0.6, boxesOf(city.split(' ')[0]!));
  if (country) out.merchantCountryCode = located(first, country, COUNTRY_WORD.test(up) ? 0.9 : Math.min(0.9, locale.countryConfidence), [first.box]);
  return out;
}
