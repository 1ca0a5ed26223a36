/**
 * The codes stage: pages -> codes (QR codes, barcodes; decode.ts) -> facts (fiscal payloads;
 * fiscal/). The facts are weighed into the fields by resolve/fiscal.ts.
 */
import type { LoadedInput } from '../input/types.js';
import { readCodes } from './decode.js';
import { parseFiscal } from './fiscal/index.js';
import type { FiscalFact, ReadCode } from '../contract/codes.js';

export type { FiscalFact, FiscalFields, FiscalParse, PageCode, ReadCode } from '../contract/codes.js';
export { CODE_FORMATS, prepareDecoder } from './decode.js';
export { FISCAL_FORMATS, parseFiscal } from './fiscal/index.js';

export interface CodesReading {
  /** Every code found, with what the fiscal formats made of it. */
  codes: ReadCode[];
  /** The fiscal facts read (codes whose payload parsed). */
  facts: Array<FiscalFact & { code: ReadCode }>;
  warnings: string[];
}

/** Decodes the codes on the input's pages and reads the fiscal payloads among them. */
export async function readPageCodes(input: LoadedInput, opts: { signal?: AbortSignal } = {}): Promise<CodesReading> {
  const { codes: found, warnings } = await readCodes(input, opts);
  const codes: ReadCode[] = found.map((c) => {
    const fiscal = parseFiscal(c);
    return fiscal ? { ...c, fiscal } : c;
  });
  const facts = codes.flatMap((c) => (c.fiscal && 'fact' in c.fiscal ? [{ ...c.fiscal.fact, code: c }] : []));
  for (const c of codes) {
    if (c.fiscal && 'error' in c.fiscal) warnings.push(`a ${c.fiscal.scheme} fiscal code could not be read (${c.fiscal.error}); it changes nothing`);
  }
  return { codes, facts, warnings };
}
