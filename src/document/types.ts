/**
 * The Document: what OCR (or a PDF text layer) read, as pages, lines and words with geometry.
 * Field finders see only this. Boxes are in the *upright* frame of the page (the frame in which the
 * text reads left to right, top to bottom) at the resolution of the original image; `Page.rotation`
 * says how to map them back to the original pixels (see geometry.ts).
 */
export interface Point { x: number; y: number }
/** Four corner points, clockwise from top-left, in original-image pixels. */
export type Polygon = [Point, Point, Point, Point];

/** Axis-aligned box, upright frame, pixels: x0 <= x1, y0 <= y1. */
export interface Box { x0: number; y0: number; x1: number; y1: number }

/**
 * The paper of a photographed page as a frame: a rectangle of the photo (after EXIF orientation) at
 * any angle, whose pixels (at the photo's resolution, turned back by `angle`) the page was read from.
 */
export interface PaperFrame {
  /** Size of the photo after EXIF orientation, pixels. */
  imageWidth: number;
  imageHeight: number;
  /** Centre of the frame in the photo, pixels. */
  cx: number;
  cy: number;
  /** Size of the frame (paper and margin), straightened, at the photo's resolution. */
  width: number;
  height: number;
  /** Degrees the paper lies turned clockwise in the photo (0: cut out, not turned). */
  angle: number;
}

export interface Word {
  text: string;
  box: Box;
  /** OCR confidence in [0, 1]; 1 for a PDF text layer. */
  confidence: number;
}

export interface Line {
  /** Position of this line in `Document.lines` (and in the `\n`-joined `Document.text`). */
  index: number;
  /** Page index (0-based). */
  page: number;
  text: string;
  words: Word[];
  box: Box;
  /** Mean word confidence in [0, 1]. */
  confidence: number;
}

export type PageSource = 'ocr' | 'pdf-text';

export interface Page {
  index: number;
  source: PageSource;
  /** Upright-frame size in pixels (original resolution). */
  width: number;
  height: number;
  /** Size of the original image as stored (after EXIF orientation), pixels. */
  originalWidth: number;
  originalHeight: number;
  /** Clockwise degrees (0, 90, 180, 270) the original was turned to read upright. */
  rotation: 0 | 90 | 180 | 270;
  /**
   * A photo read from the paper found in it (ocr/paper.ts): the page's frame is that paper, cut out and
   * straightened, and `rotation` turns the paper, not the photo. Absent: the frame is the whole image.
   */
  paper?: PaperFrame;
  /** Indices into `Document.lines` of this page's lines. */
  lineIndices: number[];
}

export interface Document {
  pages: Page[];
  /** All lines of all pages in reading order. */
  lines: Line[];
  /** Lines' text joined by `\n`. */
  text: string;
}
