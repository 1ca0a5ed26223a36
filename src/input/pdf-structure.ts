/**
 * What a PDF's streams would cost to decode, read from its bytes before pdf.js parses anything: the
 * decompression bombs (a few hundred KB that inflate to hundreds of MB) are refused here with
 * FILE_TOO_LARGE, in milliseconds, instead of being found by pdf.js after seconds and gigabytes.
 *
 * Every stream of a PDF is a top-level object (`N G obj << ... >> stream ... endstream`; streams are
 * never stored inside object streams), so a scan of the file for objects finds them all, with their
 * dictionaries. For each:
 * - an image XObject: its declared size (Width x Height x components x bits) against its encoded
 *   length. Images whose filters are only general-purpose compressors (Flate, LZW, RunLength, ASCII
 *   encodings) and that inflate more than BOMB_RATIO times are bombs; together they may declare at
 *   most BOMB_MAX_BYTES. (JPEG, JPEG 2000, CCITT and JBIG2 legitimately compress a blank scan
 *   hundreds of times; pdf.js already skips any image over the pixel limit.)
 * - any other stream (page contents, fonts, forms, object streams, metadata...): decoded here, bounded,
 *   through the same general-purpose filters; over STREAM_MAX_BYTES it is a bomb. All such decoding
 *   together stops at CHECK_BUDGET_BYTES or CHECK_BUDGET_MS (what is left unchecked is left to the
 *   PDF thread's own limits: its time budget and its memory watch).
 * Encrypted, broken or unusual streams are not judged here (pdf.js reports what it cannot read).
 */
import { constants as zlib, inflateSync } from 'node:zlib';
import { ReceiptKitError } from '../errors.js';

/** An image that inflates more than this many times its encoded length is a bomb (see the module comment). */
export const BOMB_RATIO = 100;
/** Bomb images may declare this many decoded bytes in all (smaller ones, a logo of one colour, are harmless). */
export const BOMB_MAX_BYTES = 64 * 1024 * 1024;
/** Largest decoded size of one non-image stream (a page's contents, a font), bytes. */
export const STREAM_MAX_BYTES = 64 * 1024 * 1024;
/** Decoding done by the check, in all: bytes and milliseconds. */
export const CHECK_BUDGET_BYTES = 256 * 1024 * 1024;
export const CHECK_BUDGET_MS = 1500;

/** A PDF value: numbers, names ('/Name'), booleans, null, references, arrays, dictionaries, strings. */
type Value = number | string | boolean | null | Ref | Value[] | Dict | PdfString;
class Ref { constructor(readonly ref: number) {} }
class PdfString { constructor(readonly text: string) {} }
type Dict = Map<string, Value>;

const isRef = (v: Value | undefined): v is Ref => v instanceof Ref;
const isDigits = (w: string): boolean => { for (let i = 0; i < w.length; i++) { const c = w.charCodeAt(i); if (c < 0x30 || c > 0x39) return false; } return w.length > 0; };
const isDict = (v: Value | undefined): v is Dict => v instanceof Map;

const WS = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIM = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
/** Nesting and size caps of one parsed object (hostile dictionaries nest thousands deep). */
const MAX_DEPTH = 32;
const MAX_ITEMS = 1024;

/** Characters one object may span (a stream's dictionary is a few hundred): past it, it is not read. */
const MAX_OBJECT_CHARS = 64 * 1024;
/** Characters the scan reads in all, objects overlapping included (a file of a million broken objects). */
const MAX_SCAN_CHARS = 64 * 1024 * 1024;

/**
 * A minimal reader of one PDF object over the file's bytes as a latin1 string, reading no further than
 * MAX_OBJECT_CHARS from where it starts (unterminated strings and dictionaries end there).
 */
class Lexer {
  items = 0;
  /** Where reading stops (exclusive). */
  readonly end: number;
  constructor(readonly src: string, from: number) { this.end = Math.min(src.length, from + MAX_OBJECT_CHARS); }

  skip(i: number): number {
    const s = this.src, end = this.end;
    while (i < end) {
      const c = s.charCodeAt(i);
      if (WS.has(c)) { i++; continue; }
      if (c === 0x25) { // % comment to the end of the line
        while (i < end && s.charCodeAt(i) !== 0x0a && s.charCodeAt(i) !== 0x0d) i++;
        continue;
      }
      break;
    }
    return i;
  }

  /** The value at `i` (after whitespace) and where it ends; throws on anything unexpected. */
  value(i: number, depth = 0): [Value, number] {
    if (depth > MAX_DEPTH || ++this.items > MAX_ITEMS) throw new Error('too deep or too large');
    const s = this.src, end = this.end;
    i = this.skip(i);
    if (i >= end) throw new Error('unterminated object');
    const c = s.charCodeAt(i);
    if (c === 0x3c && s.charCodeAt(i + 1) === 0x3c) { // << dict >>
      const d: Dict = new Map();
      i += 2;
      for (;;) {
        i = this.skip(i);
        if (i >= end) throw new Error('unterminated dictionary');
        if (s.charCodeAt(i) === 0x3e && s.charCodeAt(i + 1) === 0x3e) return [d, i + 2];
        const [k, afterKey] = this.value(i, depth + 1);
        if (typeof k !== 'string' || !k.startsWith('/')) throw new Error('dictionary key is not a name');
        const [v, afterValue] = this.value(afterKey, depth + 1);
        d.set(k, v);
        i = afterValue;
      }
    }
    if (c === 0x5b) { // [ array ]
      const a: Value[] = [];
      i++;
      for (;;) {
        i = this.skip(i);
        if (i >= end) throw new Error('unterminated array');
        if (s.charCodeAt(i) === 0x5d) return [a, i + 1];
        const [v, next] = this.value(i, depth + 1);
        a.push(v);
        i = next;
      }
    }
    if (c === 0x3c) { // <hex string>
      const close = s.indexOf('>', i);
      if (close < 0 || close >= end) throw new Error('unterminated hex string');
      return [new PdfString(s.slice(i + 1, close)), close + 1];
    }
    if (c === 0x28) { // (literal string), nested parentheses and escapes
      let level = 0, j = i;
      for (; j < end; j++) {
        const ch = s.charCodeAt(j);
        if (ch === 0x5c) { j++; continue; }
        if (ch === 0x28) level++;
        else if (ch === 0x29 && --level === 0) break;
      }
      if (j >= end) throw new Error('unterminated string');
      return [new PdfString(s.slice(i + 1, j)), j + 1];
    }
    if (c === 0x2f) { // /Name
      let j = i + 1;
      while (j < end && !WS.has(s.charCodeAt(j)) && !DELIM.has(s.charCodeAt(j))) j++;
      return ['/' + s.slice(i + 1, j).replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), j];
    }
    // a number, a reference (N G R) or a keyword
    let j = i;
    while (j < end && !WS.has(s.charCodeAt(j)) && !DELIM.has(s.charCodeAt(j))) j++;
    const word = s.slice(i, j);
    if (!word) throw new Error(`unexpected ${JSON.stringify(s[i])}`);
    const n = Number(word);
    if (Number.isFinite(n) && word !== 'Infinity' && word !== '-Infinity') {
      if (Number.isInteger(n) && n >= 0 && isDigits(word)) {
        // N G R: a reference
        const g = this.skip(j);
        let k = g;
        while (k < end && k - g < 12 && s.charCodeAt(k) >= 0x30 && s.charCodeAt(k) <= 0x39) k++;
        if (k > g) {
          const r = this.skip(k);
          if (r < end && s.charCodeAt(r) === 0x52 /* R */ && (r + 1 >= s.length || WS.has(s.charCodeAt(r + 1)) || DELIM.has(s.charCodeAt(r + 1)))) return [new Ref(n), r + 1];
        }
      }
      return [n, j];
    }
    if (word === 'true' || word === 'false') return [word === 'true', j];
    if (word === 'null') return [null, j];
    return [word, j]; // another keyword (obj, stream, R on its own...): the caller decides
  }
}

interface StreamObject { dict: Dict; data: Buffer }

/**
 * Where the object whose `obj` keyword is at `at` starts its number (`N G obj`), or -1 when the keyword
 * is not an object header (part of a word, `endobj`). Read backwards over a few characters only: a
 * pattern search for headers backtracks over long runs of digits (quadratic on a hostile file).
 */
function headerNumber(src: string, at: number): number {
  const after = src.charCodeAt(at + 3);
  if (at + 3 < src.length && !WS.has(after) && !DELIM.has(after)) return -1;
  let i = at - 1;
  const spaces = (): boolean => { const from = i; while (i >= 0 && at - i < 64 && WS.has(src.charCodeAt(i))) i--; return i < from; };
  const digits = (): boolean => { const from = i; while (i >= 0 && from - i < 12 && src.charCodeAt(i) >= 0x30 && src.charCodeAt(i) <= 0x39) i--; return i < from; };
  if (!spaces() || !digits() || !spaces()) return -1;
  const numberEnd = i + 1;
  if (!digits()) return -1;
  if (i >= 0 && !WS.has(src.charCodeAt(i)) && !DELIM.has(src.charCodeAt(i))) return -1;
  return Number(src.slice(i + 1, numberEnd).trim());
}

/** The stream objects of a file, and a resolver of references to plain (non-stream) objects. */
function scan(bytes: Buffer): { streams: StreamObject[]; resolve: (v: Value | undefined) => Value | undefined } {
  const src = bytes.toString('latin1');
  const objects = new Map<number, number>(); // object number -> offset of its value (the last definition wins)
  const streams: StreamObject[] = [];
  let read = 0; // characters the object reads covered, in all (MAX_SCAN_CHARS)
  // the next 'endstream' at or after a position, remembered: streams without one would search to the end each
  let searchedFrom = -1, found = -1;
  const nextEndstream = (from: number): number => {
    if (!(searchedFrom >= 0 && from >= searchedFrom && (found < 0 || from <= found))) { searchedFrom = from; found = src.indexOf('endstream', from); }
    return found;
  };
  for (let kw = src.indexOf('obj'); kw >= 0 && read < MAX_SCAN_CHARS; kw = src.indexOf('obj', kw + 3)) {
    const num = headerNumber(src, kw);
    if (num < 0) continue;
    const at = kw + 3;
    objects.set(num, at);
    const lexer = new Lexer(src, at);
    let value: Value, end: number;
    try { [value, end] = lexer.value(at); } catch { read += lexer.end - at; continue; }
    read += end - at;
    if (!isDict(value)) continue;
    const k = lexer.skip(end);
    if (!src.startsWith('stream', k)) continue;
    let start = k + 6;
    if (src.charCodeAt(start) === 0x0d) start++;
    if (src.charCodeAt(start) === 0x0a) start++;
    // the data ends at its /Length when 'endstream' follows there, else at the next 'endstream'
    const length = value.get('/Length');
    let stop = -1;
    if (typeof length === 'number' && length >= 0 && start + length <= src.length && /^\s*endstream/.test(src.slice(start + length, start + length + 24))) stop = start + length;
    else {
      const e = nextEndstream(start);
      if (e < 0) continue;
      stop = e;
      while (stop > start && (src.charCodeAt(stop - 1) === 0x0a || src.charCodeAt(stop - 1) === 0x0d)) stop--;
    }
    streams.push({ dict: value, data: bytes.subarray(start, stop) });
    kw = Math.max(kw, stop - 3); // nothing inside the data is an object
  }
  const resolve = (v: Value | undefined): Value | undefined => {
    for (let hops = 0; isRef(v) && hops < 8; hops++) {
      const at = objects.get(v.ref);
      if (at === undefined) return undefined;
      try { v = new Lexer(src, at).value(at)[0]; } catch { return undefined; }
    }
    return v;
  };
  return { streams, resolve };
}

const FILTER_NAMES: Record<string, string> = {
  '/Fl': '/FlateDecode', '/LZW': '/LZWDecode', '/RL': '/RunLengthDecode', '/AHx': '/ASCIIHexDecode',
  '/A85': '/ASCII85Decode', '/DCT': '/DCTDecode', '/CCF': '/CCITTFaxDecode',
};
/** Filters that are general-purpose compressors or encodings: what a decompression bomb is made of. */
const GENERAL = new Set(['/FlateDecode', '/LZWDecode', '/RunLengthDecode', '/ASCIIHexDecode', '/ASCII85Decode']);

function filtersOf(dict: Dict, resolve: (v: Value | undefined) => Value | undefined): { names: string[]; parms: Array<Value | undefined> } {
  const f = resolve(dict.get('/Filter'));
  const names = (Array.isArray(f) ? f.map((x) => resolve(x)) : f === undefined ? [] : [f]).map((x) => (typeof x === 'string' ? FILTER_NAMES[x] ?? x : '?'));
  const p = resolve(dict.get('/DecodeParms') ?? dict.get('/DP'));
  const parms = Array.isArray(p) ? p.map((x) => resolve(x)) : [p];
  return { names, parms };
}

/** Colour components of an image's colour space (3 when it cannot be told). */
function components(cs: Value | undefined, resolve: (v: Value | undefined) => Value | undefined): number {
  cs = resolve(cs);
  const name = Array.isArray(cs) ? resolve(cs[0]) : cs;
  switch (name) {
    case '/DeviceGray': case '/G': case '/CalGray': case '/Indexed': case '/I': case '/Separation': return 1;
    case '/DeviceCMYK': case '/CMYK': return 4;
    case '/DeviceN': { const names = Array.isArray(cs) ? resolve(cs[1]) : undefined; return Array.isArray(names) ? Math.max(1, names.length) : 4; }
    case '/ICCBased': {
      // the profile is a stream: resolving its reference gives its dictionary
      const profile = Array.isArray(cs) ? resolve(cs[1]) : undefined;
      const n = isDict(profile) ? resolve(profile.get('/N')) : undefined;
      return typeof n === 'number' && n >= 1 && n <= 4 ? n : 3;
    }
    default: return 3;
  }
}

const num = (v: Value | undefined): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Decoded length of a RunLength stream, counted without decoding (stops past `cap`). */
function runLengthSize(d: Buffer, cap: number): number {
  let n = 0;
  for (let i = 0; i < d.length && n <= cap;) {
    const len = d[i]!;
    if (len === 128) break;
    if (len < 128) { n += len + 1; i += len + 2; } else { n += 257 - len; i += 2; }
  }
  return n;
}

/** Decoded length of an LZW stream (PDF's variable-width codes), counted without decoding (stops past `cap`). */
function lzwSize(d: Buffer, earlyChange: number, cap: number): number {
  const lengths = new Int32Array(4096);
  let next = 258, width = 9, prev = -1, n = 0, bits = 0, acc = 0;
  for (let i = 0; i < d.length && n <= cap; i++) {
    acc = ((acc << 8) | d[i]!) >>> 0;
    bits += 8;
    while (bits >= width) {
      const code = (acc >>> (bits - width)) & ((1 << width) - 1);
      bits -= width;
      if (code === 256) { next = 258; width = 9; prev = -1; continue; }
      if (code === 257) return n;
      const len = code < 256 ? 1 : code < next ? lengths[code]! : prev >= 0 ? (prev < 256 ? 1 : lengths[prev]!) + 1 : 0;
      if (!len) return n; // a code that cannot be: the stream is broken, pdf.js stops there too
      n += len;
      if (prev >= 0 && next < 4096) { lengths[next++] = (prev < 256 ? 1 : lengths[prev]!) + 1; }
      prev = code;
      if (next + earlyChange >= 1 << width && width < 12) width++;
    }
  }
  return n;
}

function asciiHex(d: Buffer): Buffer {
  const hex = d.toString('latin1').replace(/>[\s\S]*$/, '').replace(/[^0-9a-fA-F]/g, '');
  return Buffer.from(hex.length % 2 ? hex + '0' : hex, 'hex');
}

function ascii85(d: Buffer): Buffer {
  const s = d.toString('latin1').replace(/^\s*<~/, '').replace(/~>[\s\S]*$/, '').replace(/\s+/g, '');
  const out: number[] = [];
  for (let i = 0; i < s.length;) {
    if (s[i] === 'z') { out.push(0, 0, 0, 0); i++; continue; }
    const group = s.slice(i, i + 5);
    i += 5;
    const padded = group.padEnd(5, 'u');
    let v = 0;
    for (const ch of padded) v = v * 85 + (ch.charCodeAt(0) - 33);
    const b = [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
    out.push(...b.slice(0, group.length - 1));
  }
  return Buffer.from(out);
}

/**
 * The decoded size of a stream through its general-purpose filters, at most `cap` (a larger stream
 * gives a number over `cap`); undefined when it cannot be told here (another filter, broken data).
 */
function decodedSize(data: Buffer, names: string[], parms: Array<Value | undefined>, cap: number): number | undefined {
  let cur = data;
  for (let k = 0; k < names.length; k++) {
    const name = names[k]!;
    const last = k === names.length - 1;
    if (name === '/FlateDecode') {
      try {
        cur = inflateSync(cur, { maxOutputLength: cap + 1, finishFlush: zlib.Z_SYNC_FLUSH }); // a truncated stream still counts
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) return cap + 1;
        return undefined;
      }
    } else if (name === '/RunLengthDecode' && last) return runLengthSize(cur, cap);
    else if (name === '/LZWDecode' && last) {
      const p = parms[k];
      const early = isDict(p) && typeof p.get('/EarlyChange') === 'number' ? p.get('/EarlyChange') : 1;
      return lzwSize(cur, early === 0 ? 0 : 1, cap);
    } else if (name === '/ASCIIHexDecode') cur = asciiHex(cur);
    else if (name === '/ASCII85Decode') cur = ascii85(cur);
    else return undefined;
    if (cur.length > cap) return cur.length;
  }
  return cur.length;
}

const MB = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;

/**
 * Throws FILE_TOO_LARGE when the PDF holds a decompression bomb (see the module comment); returns
 * quietly otherwise, and for whatever it cannot judge.
 */
export function checkPdfStructure(bytes: Buffer): void {
  try {
    judge(bytes);
  } catch (e) {
    if (e instanceof ReceiptKitError) throw e;
    // a file this reader cannot follow is pdf.js's to judge (and the PDF thread's limits')
  }
}

function judge(bytes: Buffer): void {
  const started = performance.now();
  const { streams, resolve } = scan(bytes);
  let bombBytes = 0, spent = 0;
  for (const s of streams) {
    if (performance.now() - started > CHECK_BUDGET_MS) return;
    const { dict } = s;
    const { names, parms } = filtersOf(dict, resolve);
    const general = names.every((n) => GENERAL.has(n));
    if (resolve(dict.get('/Subtype')) === '/Image') {
      if (!names.length || !general) continue;
      const w = num(resolve(dict.get('/Width') ?? dict.get('/W'))), h = num(resolve(dict.get('/Height') ?? dict.get('/H')));
      if (!w || !h || w < 1 || h < 1) continue;
      const mask = resolve(dict.get('/ImageMask') ?? dict.get('/IM')) === true;
      const bpc = mask ? 1 : num(resolve(dict.get('/BitsPerComponent') ?? dict.get('/BPC'))) ?? 8;
      const comps = mask ? 1 : components(dict.get('/ColorSpace') ?? dict.get('/CS'), resolve);
      const declared = Math.ceil((w * comps * bpc) / 8) * h;
      if (declared > BOMB_RATIO * Math.max(1, s.data.length)) {
        bombBytes += declared;
        if (bombBytes > BOMB_MAX_BYTES) {
          throw new ReceiptKitError('FILE_TOO_LARGE',
            `the PDF is a decompression bomb: images compressed over ${BOMB_RATIO} times declare ${MB(bombBytes)} of pixels (the last ${w}x${h}), over the ${MB(BOMB_MAX_BYTES)} limit`);
        }
      }
      continue;
    }
    if (!names.length || resolve(dict.get('/Type')) === '/EmbeddedFile' || spent > CHECK_BUDGET_BYTES) continue;
    const size = decodedSize(s.data, names, parms, STREAM_MAX_BYTES);
    if (size === undefined) continue;
    if (size > STREAM_MAX_BYTES) {
      throw new ReceiptKitError('FILE_TOO_LARGE',
        `the PDF is a decompression bomb: a stream of ${Math.round(s.data.length / 1024)} KB inflates to over ${MB(STREAM_MAX_BYTES)}`);
    }
    spent += size;
  }
}
