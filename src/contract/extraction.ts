/**
 * The pipeline's record of one extraction, before the response is shaped (engine.analyze returns it):
 * the input, the document read from it, the located fields and the fraud checks' findings. Validation
 * (validate/subject.ts), the store and similarity read it, so it lives here, below all of them and the
 * engine that makes it.
 */
import type { DigitalDetection, TamperingDetection } from './validation.js';
import type { HandwritingDetectionEntity } from './results.js';

/** The document-type finding (src/classify): kind, confidence 0..0.99 and the rules that counted. */
export interface DocumentTypeFinding { type: 'receipt' | 'invoice' | 'other'; confidence: number; evidence: string[] }
/** The language finding (src/language): ISO 639-1 code, confidence and the detector's evidence. */
export interface LanguageFinding { code: string; confidence: number; evidence: string[] }
import type { LoadedInput } from '../input/types.js';
import type { Document } from '../document/types.js';
import type { FieldResults } from '../fields/types.js';
import type { ReadCode } from './codes.js';

export interface Extraction {
  input: LoadedInput;
  document: Document;
  fields: FieldResults;
  targetRotation: number;
  warnings: string[];
  elapsed: number;
  trackingId: string;
  /** Tamper detector output, when a fraud stage produced one (validation's not-tampered check reads it). */
  tamperingDetection?: TamperingDetection;
  /** Digital-document detector output, when a fraud stage produced one (the not-digital check reads it). */
  digitalDetection?: DigitalDetection;
  /** The QR codes and barcodes found on the pages, with their fiscal payloads (src/codes/); absent with `readCodes: false`. */
  codes?: ReadCode[];
  /** What kind of document this is (src/classify): computed on every extraction, it is cheap. */
  documentType?: DocumentTypeFinding;
  /** The language of the text (src/language), when there was enough text. */
  language?: LanguageFinding;
  /** Handwriting detector output, with the fraud stage. */
  handwritingDetection?: HandwritingDetectionEntity;
}
