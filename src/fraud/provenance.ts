/**
 * Provenance traces of editing: the software named in the file's metadata, dates that say the file was
 * changed after it was made, and for PDFs the incremental updates appended after the first save (each
 * revision ends with its own `%%EOF`) and a producer that differs between revisions.
 */
import type { ImageMetadata, MediaType } from '../input/types.js';

/** Image editors (EXIF Software / XMP CreatorTool, PDF Producer / Creator): a file saved by one was edited. */
export const IMAGE_EDITORS = /\b(photoshop|gimp|pixelmator|affinity photo|paint\.net|lightroom|snapseed|picsart|canva|photopea|facetune|fotor|pixlr|paintshop|corel(?:draw| photo)|acdsee|photoscape|inpixio|luminar|krita|polarr|vsco|meitu|airbrush|photodirector|photo ?editor|image ?editor)\b/i;
/** PDF editors: tools that change the content of an existing PDF (creation tools are not listed). */
export const PDF_EDITORS = /\b(pdfelement|pdf-?xchange editor|foxit (?:phantompdf|pdf editor)|sejda|pdfescape|smallpdf|ilovepdf|pdffiller|pdf ?candy|nitro pdf|pdf ?expert|pdf editor|master pdf editor|inkscape|acrobat[^;()]*\bedit)/i;

export interface ProvenanceFinding {
  signal: 'editing-software' | 'pdf-editor' | 'metadata-dates' | 'pdf-incremental-update' | 'pdf-producer-changed' | 'pdf-producer-mismatch';
  reason: string;
}

/** Editing software named in the metadata. */
export function softwareFindings(m: ImageMetadata, mediaType: MediaType): ProvenanceFinding[] {
  const out: ProvenanceFinding[] = [];
  for (const [what, v] of [['software', m.software], ['PDF producer', m.producer], ['PDF creator', m.creator]] as const) {
    if (!v) continue;
    if (IMAGE_EDITORS.test(v)) { out.push({ signal: 'editing-software', reason: `the ${what} is image-editing software: ${JSON.stringify(v)}` }); break; }
    if (mediaType === 'application/pdf' && PDF_EDITORS.test(v)) { out.push({ signal: 'pdf-editor', reason: `the ${what} is a PDF editor: ${JSON.stringify(v)}` }); break; }
  }
  return out;
}

/** Seconds between two metadata dates (as metadata.ts writes them); NaN when either is unparseable. */
export function secondsBetween(a: string, b: string): number {
  // dates without an offset (EXIF) are compared as if in the same zone: both are read as UTC
  const parse = (s: string) => Date.parse(/[zZ]|[+-]\d{2}:\d{2}$/.test(s) || !s.includes('T') ? s : `${s}Z`);
  return (parse(b) - parse(a)) / 1000;
}

/** Minimum gap (seconds) between creation and modification dates that counts as a later change. */
export const DATE_GAP_S = 120;

/** A modification date well after (or before) the creation date. */
export function dateFindings(m: ImageMetadata, mediaType: MediaType): ProvenanceFinding[] {
  if (!m.createDate || !m.modifyDate) return [];
  const gap = secondsBetween(m.createDate, m.modifyDate);
  if (!Number.isFinite(gap)) return [];
  const pdf = mediaType === 'application/pdf';
  const [c, mo] = pdf ? ['CreationDate', 'ModDate'] : ['DateTimeOriginal/CreateDate', 'ModifyDate'];
  if (gap > DATE_GAP_S) return [{ signal: 'metadata-dates', reason: `${mo} ${m.modifyDate} is ${humanGap(gap)} after ${c} ${m.createDate}: the file was changed after it was made` }];
  if (gap < -DATE_GAP_S) return [{ signal: 'metadata-dates', reason: `${mo} ${m.modifyDate} is before ${c} ${m.createDate}: the dates are inconsistent` }];
  return [];
}

function humanGap(s: number): string {
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 172800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} days`;
}

export interface PdfRevisions {
  /** Revisions (the first save plus each incremental update). */
  revisions: number;
  linearized: boolean;
  /** Signature dictionaries (/ByteRange): signing appends a revision legitimately. */
  signatures: number;
  /** Distinct Producer values found in the file's Info dictionaries and XMP, in file order. */
  producers: string[];
}

/** Counts a PDF's revisions from its raw bytes (`%%EOF` and `startxref` markers), and lists its producers. */
export function pdfRevisions(bytes: Buffer): PdfRevisions {
  const s = bytes.toString('latin1');
  const count = (re: RegExp) => { let n = 0; re.lastIndex = 0; while (re.exec(s)) n++; return n; };
  const eofs = count(/%%EOF/g);
  const startxrefs = count(/\bstartxref\s+\d+/g);
  const linearized = /\/Linearized\s/.test(s.slice(0, 2048));
  const signatures = count(/\/ByteRange\s*\[/g);
  const revisions = Math.max(1, Math.max(eofs, startxrefs) - (linearized ? 1 : 0));
  const producers: string[] = [];
  const add = (v: string | undefined) => {
    const t = v?.replace(/\s+/g, ' ').trim();
    if (t && !producers.some((p) => p.toLowerCase() === t.toLowerCase())) producers.push(t);
  };
  const lit = /\/Producer\s*(?:\(((?:\\.|[^\\)])*)\)|<([0-9A-Fa-f\s]*)>)/g;
  for (let m = lit.exec(s); m && producers.length < 10; m = lit.exec(s)) add(m[1] !== undefined ? unescapeLiteral(m[1]) : decodeHex(m[2] ?? ''));
  const xmp = /<pdf:Producer>([^<]{1,300})<\/pdf:Producer>|pdf:Producer="([^"]{1,300})"/g;
  for (let m = xmp.exec(s); m && producers.length < 10; m = xmp.exec(s)) add(m[1] ?? m[2]);
  return { revisions, linearized, signatures, producers };
}

function unescapeLiteral(v: string): string {
  const out = v.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, c: string) => {
    if (/^[0-7]+$/.test(c)) return String.fromCharCode(parseInt(c, 8));
    return ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[c] ?? c;
  });
  return out.startsWith('\u00fe\u00ff') ? utf16(Buffer.from(out.slice(2), 'latin1')) : out;
}

function decodeHex(h: string): string {
  const b = Buffer.from(h.replace(/\s+/g, ''), 'hex');
  return b[0] === 0xfe && b[1] === 0xff ? utf16(b.subarray(2)) : b.toString('latin1');
}

function utf16(b: Buffer): string {
  let s = '';
  for (let i = 0; i + 1 < b.length; i += 2) s += String.fromCharCode(b.readUInt16BE(i));
  return s;
}

/** Incremental updates beyond signing, and producers that changed between revisions. */
export function pdfFindings(bytes: Buffer): { findings: ProvenanceFinding[]; revisions: PdfRevisions } {
  const r = pdfRevisions(bytes);
  const findings: ProvenanceFinding[] = [];
  const updates = r.revisions - 1;
  if (updates > r.signatures) {
    findings.push({
      signal: 'pdf-incremental-update',
      reason: `the PDF was saved ${r.revisions} times: ${updates} incremental update${updates > 1 ? 's' : ''} appended after the first save${r.signatures ? ` (${r.signatures} for signatures)` : ''}`,
    });
  }
  if (r.producers.length > 1) {
    const names = r.producers.map((p) => JSON.stringify(p)).join(', ');
    // across revisions the producer changed; within one save, Info and XMP naming different tools is
    // common in genuine files (a template from one tool filled by another): weak evidence
    if (r.revisions > 1) findings.push({ signal: 'pdf-producer-changed', reason: `the PDF's revisions name ${r.producers.length} producers: ${names}` });
    else findings.push({ signal: 'pdf-producer-mismatch', reason: `the PDF names ${r.producers.length} producers (one save): ${names}` });
  }
  return { findings, revisions: r };
}
