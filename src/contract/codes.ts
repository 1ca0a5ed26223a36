/**
 * What the page says beyond its text: the codes printed on it (QR codes, 1-D barcodes) and the fiscal
 * facts some of them carry (the total, date, tax and seller ID the tax authority received). src/codes/
 * finds and parses them; the extraction record (extraction.ts) carries them, so their shapes live here.
 */
import type { Polygon } from '../document/types.js';
import type { FiscalCodeData } from './results.js';

/** One code found on a page. */
export interface PageCode {
  /** zxing's format name: `QRCode`, `EAN13`, `EAN8`, `UPCA`, `UPCE`, `Code128`, ... */
  format: string;
  /** The decoded text. */
  text: string;
  /** Page index (0-based). */
  page: number;
  /** Corners (top-left, top-right, bottom-right, bottom-left of the symbol) in pixels of the original image (after EXIF orientation). */
  polygon: Polygon;
}

/**
 * The fields a fiscal payload can state: amounts in the document's currency, `date` `YYYY-MM-DD` and `time`
 * `HH:MM:SS` as the receipt prints them (local time); the verbose result shows them as they are.
 */
export type FiscalFields = FiscalCodeData;

/** A fiscal payload read from a code. */
export interface FiscalFact {
  /** The format's id (`sa-zatca`, `in-gst-einvoice`, ...; codes/fiscal/index.ts). */
  scheme: string;
  /** ISO 3166-1 alpha-2 country of the seller. */
  country: string;
  fields: FiscalFields;
}

/** The outcome of a fiscal parser that recognised its format: the fact, or why the payload could not be read. */
export type FiscalParse = { fact: FiscalFact } | { scheme: string; country: string; error: string };

/** A code with what the fiscal formats made of it. */
export interface ReadCode extends PageCode {
  fiscal?: FiscalParse;
}
