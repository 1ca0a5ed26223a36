/**
 * Provenance metadata for the fraud checks: EXIF/XMP of images (exifr) and the Info dictionary of PDFs.
 * Dates are kept as written: EXIF dates have no time zone, so they come out as local ISO strings
 * without an offset ("2024-01-31T12:00:00"); PDF dates keep their offset when they have one.
 */
import type { ImageMetadata } from './types.js';

const EXIF_PICK = ['Software', 'CreatorTool', 'Make', 'Model', 'CreateDate', 'DateTimeOriginal', 'ModifyDate'];

/** Reads Software, Make, Model and dates from an image's EXIF/XMP; never throws (absent fields stay absent). */
export async function readImageMetadata(bytes: Buffer): Promise<ImageMetadata> {
  try {
    const exifr = (await import('exifr')).default;
    const tags = (await exifr.parse(bytes, {
      pick: EXIF_PICK, tiff: true, xmp: true, icc: false, iptc: false, jfif: false, ihdr: false,
      reviveValues: false, translateValues: false, mergeOutput: true,
    })) as Record<string, unknown> | undefined;
    if (!tags) return {};
    const out: ImageMetadata = {};
    const software = text(tags.Software) ?? text(tags.CreatorTool);
    if (software) out.software = software;
    const make = text(tags.Make);
    if (make) out.make = make;
    const model = text(tags.Model);
    if (model) out.model = model;
    const created = exifDate(tags.DateTimeOriginal) ?? exifDate(tags.CreateDate);
    if (created) out.createDate = created;
    const modified = exifDate(tags.ModifyDate);
    if (modified) out.modifyDate = modified;
    return out;
  } catch {
    return {};
  }
}

/** Producer, Creator and dates from a PDF Info dictionary (as pdf.js returns it). */
export function pdfInfoMetadata(info: Record<string, unknown> | undefined): ImageMetadata {
  const out: ImageMetadata = {};
  if (!info) return out;
  const producer = text(info.Producer);
  if (producer) out.producer = producer;
  const creator = text(info.Creator);
  if (creator) out.creator = creator;
  const created = pdfDate(info.CreationDate);
  if (created) out.createDate = created;
  const modified = pdfDate(info.ModDate);
  if (modified) out.modifyDate = modified;
  return out;
}

function text(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  // EXIF ASCII fields are NUL-padded; keep them short and printable
  const s = v.replace(/\0+$/g, '').replace(/[\u0000-\u001f]/g, ' ').trim().slice(0, 200);
  return s || undefined;
}

/** "2024:01:31 12:00:00" (EXIF) or an XMP ISO date -> "2024-01-31T12:00:00" (offset kept when present). */
export function exifDate(v: unknown): string | undefined {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : v.toISOString();
  if (typeof v !== 'string') return undefined;
  const m = /^(\d{4})[:-](\d{2})[:-](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?)?/.exec(v.trim());
  if (!m || m[1] === '0000') return undefined;
  const time = m[4] ? `T${m[4]}:${m[5]}:${m[6] ?? '00'}` : '';
  const zone = m[8] ? (m[8] === 'Z' ? 'Z' : m[8].length === 5 ? `${m[8].slice(0, 3)}:${m[8].slice(3)}` : m[8]) : '';
  return `${m[1]}-${m[2]}-${m[3]}${time}${time ? zone : ''}`;
}

/** "D:20240131120000+01'00'" (PDF date) -> "2024-01-31T12:00:00+01:00"; undefined when unparseable. */
export function pdfDate(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(Z|[+-])?(\d{2})?'?(\d{2})?'?/.exec(v.trim());
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh, om] = m;
  let zone = '';
  if (sign === 'Z') zone = 'Z';
  else if (sign && oh) zone = `${sign}${oh}:${om ?? '00'}`;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`;
}
