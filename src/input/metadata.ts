import type { ImageMetadata } from './types.js';

/** Reads EXIF/XMP fields useful to fraud checks (Software, Make, Model, dates); never throws. */
export async function readImageMetadata(bytes: Buffer): Promise<ImageMetadata> {
  try {
    const exifr = (await import('exifr')).default;
    const tags = await exifr.parse(bytes, { pick: ['Software', 'Make', 'Model', 'CreateDate', 'DateTimeOriginal', 'ModifyDate'] });
    if (!tags) return {};
    const iso = (d: unknown) => (d instanceof Date && !Number.isNaN(d.getTime()) ? d.toISOString() : typeof d === 'string' ? d : undefined);
    const out: ImageMetadata = {};
    if (typeof tags.Software === 'string') out.software = tags.Software.trim();
    if (typeof tags.Make === 'string') out.make = tags.Make.trim();
    if (typeof tags.Model === 'string') out.model = tags.Model.trim();
    const created = iso(tags.DateTimeOriginal) ?? iso(tags.CreateDate);
    if (created) out.createDate = created;
    const modified = iso(tags.ModifyDate);
    if (modified) out.modifyDate = modified;
    return out;
  } catch {
    return {};
  }
}
