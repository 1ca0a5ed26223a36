/**
 * Product codes normalised to the account's expected set. A read code and a listed code are the same
 * when their `codeKey`s are equal (src/validate/names.ts: letters and digits only, upper case, the
 * letters OCR reads for digits mapped to them, leading zeros of numeric codes dropped, so UPC-A meets
 * its EAN-13). A code of 8 or more characters that is one character away from exactly one listed code
 * of the same length (a misread digit) matches it too, as a weaker match. The line item then reports
 * the listed spelling as `productCode.data` (its `text` stays what was read).
 *
 * A line item without a read code gets one when a word of its text (6+ characters) is a listed code.
 */
import { codeKey } from '../validate/names.js';
import type { ProductCodeEntry } from './schema.js';

export interface CodeMatch {
  entry: ProductCodeEntry;
  /** 'exact': same code key; 'oneOff': one character differs (8+ characters, unique). */
  how: 'exact' | 'oneOff';
}

const isNumeric = (code: string) => /^\d+$/.test(code.replace(/[\s-]/g, ''));

export class ProductCodeIndex {
  private readonly exact = new Map<string, ProductCodeEntry>();
  /** Keys by length, for the one-off search. */
  private readonly byLength = new Map<number, Array<{ key: string; entry: ProductCodeEntry }>>();

  constructor(readonly entries: readonly ProductCodeEntry[]) {
    for (const e of entries) {
      const numeric = isNumeric(e.code);
      const key = `${numeric ? 'n' : 'a'}:${codeKey(e.code, numeric)}`;
      if (!this.exact.has(key)) this.exact.set(key, e);
      const k = key.slice(2);
      if (k.length >= 8) {
        const list = this.byLength.get(k.length) ?? [];
        list.push({ key: k, entry: e });
        this.byLength.set(k.length, list);
      }
    }
  }

  get size(): number { return this.entries.length; }

  /** The listed code a read code stands for, if any. */
  match(read: string): CodeMatch | undefined {
    if (!read || !this.entries.length) return undefined;
    const n = codeKey(read, true);
    const a = codeKey(read, false);
    const hit = this.exact.get(`n:${n}`) ?? this.exact.get(`a:${a}`);
    if (hit) return { entry: hit, how: 'exact' };
    if (a.length < 8) return undefined;
    let found: ProductCodeEntry | undefined;
    for (const key of new Set([a, n])) {
      for (const c of this.byLength.get(key.length) ?? []) {
        let diff = 0;
        for (let i = 0; i < key.length && diff <= 1; i++) if (key.charCodeAt(i) !== c.key.charCodeAt(i)) diff++;
        if (diff === 1) {
          if (found && found !== c.entry) return undefined; // two listed codes are as close: no match
          found = c.entry;
        }
      }
    }
    return found ? { entry: found, how: 'oneOff' } : undefined;
  }

  /** A listed code written as one word of `text` (6+ characters, exact key), with that word. */
  findIn(text: string): { match: CodeMatch; word: string } | undefined {
    if (!this.entries.length) return undefined;
    for (const word of text.split(/\s+/)) {
      const w = word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      if (w.replace(/[^\p{L}\p{N}]/gu, '').length < 6 || !/\d/.test(w)) continue;
      const n = codeKey(w, true);
      const a = codeKey(w, false);
      const hit = this.exact.get(`n:${n}`) ?? this.exact.get(`a:${a}`);
      if (hit) return { match: { entry: hit, how: 'exact' }, word: w };
    }
    return undefined;
  }
}
