/**
 * The shape of one fiscal format (codes/fiscal/, one file each). The codes and facts themselves (PageCode,
 * FiscalFields, FiscalFact, FiscalParse, ReadCode) are part of the extraction record: contract/codes.ts.
 */
import type { FiscalFields, PageCode } from '../contract/codes.js';

/** One fiscal format: recognises its payload (`matches`: cheap, on the text's shape) and parses it. */
export interface FiscalFormat {
  scheme: string;
  country: string;
  /** Where the format is published (also in the file's header comment). */
  specification: string;
  /** Whether the text looks like this format (the parser then owns it, and a failure is listed). */
  matches(code: Pick<PageCode, 'format' | 'text'>): boolean;
  /** The fields, or throws an Error whose message says what is wrong. */
  parse(text: string): FiscalFields;
}
