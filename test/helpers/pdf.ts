/**
 * Builds small, valid PDFs by hand for tests: text pages in Helvetica (a standard font, not embedded)
 * and image pages (an embedded JPEG drawn as an XObject). Offsets in the xref table are exact, so
 * pdf.js reads the file without reconstructing it.
 *
 *   makePdf([{ lines: [{ text: 'TOTAL 12.50', x: 40, y: 60, size: 12 }] }, { jpeg }])
 *
 * Coordinates are PDF points (1/72 inch). `y` is the BASELINE measured from the TOP of the page,
 * so lines given top to bottom read top to bottom.
 */

export interface PdfTextLine {
  text: string;
  /** Left edge of the text, points from the left of the page. */
  x: number;
  /** Baseline, points from the top of the page. */
  y: number;
  /** Font size, points. */
  size: number;
}

export interface PdfPageSpec {
  /** Text drawn in Helvetica (Latin-1 characters only). */
  lines?: PdfTextLine[];
  /** A baseline JPEG drawn as an image XObject (grey or RGB). */
  jpeg?: Buffer;
  /** Where the JPEG goes, points, top-left origin; default: the whole page. */
  jpegRect?: { x: number; y: number; width: number; height: number };
  /** Page size, points; default A4 portrait (595 x 842). */
  width?: number;
  height?: number;
  /** /Rotate of the page (0, 90, 180, 270). */
  rotate?: number;
}

export interface PdfOptions {
  /** Entries of the document Info dictionary, e.g. { Producer: 'X', CreationDate: 'D:20240131120000Z' }. */
  info?: Record<string, string>;
  /**
   * Adds a Standard security handler (RC4, revision 2) whose user password is not empty, so readers
   * ask for a password. The streams are not actually encrypted: it only has to fail at the password.
   */
  passwordProtected?: boolean;
}

/** Size and colour components of a JPEG, read from its SOF marker. */
export function jpegInfo(jpeg: Buffer): { width: number; height: number; components: number } {
  let i = 2;
  while (i + 9 < jpeg.length) {
    if (jpeg[i] !== 0xff) { i++; continue; }
    const marker = jpeg[i + 1]!;
    if (marker === 0xff) { i++; continue; }
    const len = jpeg.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: jpeg.readUInt16BE(i + 5), width: jpeg.readUInt16BE(i + 7), components: jpeg[i + 9]! };
    }
    i += 2 + len;
  }
  throw new Error('makePdf: not a JPEG (no SOF marker)');
}

function pdfString(s: string): string {
  return '(' + s.replace(/[\\()]/g, (c) => '\\' + c).replace(/\r/g, '\\r').replace(/\n/g, '\\n') + ')';
}

const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/0+$/, ''));

/** Builds a PDF with one page per spec; an empty array gives a PDF with zero pages. */
export function makePdf(pages: PdfPageSpec[], opts: PdfOptions = {}): Buffer {
  // object numbers: 1 catalog, 2 pages, 3 font, then per page: page, content, [image]; then info
  const objects: Buffer[] = [];
  const add = (body: Buffer | string): number => {
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
    return objects.length;
  };
  const stream = (dict: string, data: Buffer): Buffer =>
    Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);

  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // pages tree, filled in below
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const p of pages) {
    const w = p.width ?? 595, h = p.height ?? 842;
    const ops: string[] = [];
    let imageRef: number | undefined;
    if (p.jpeg) {
      const { width, height, components } = jpegInfo(p.jpeg);
      const cs = components === 1 ? '/DeviceGray' : components === 4 ? '/DeviceCMYK' : '/DeviceRGB';
      imageRef = add(stream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace ${cs} /BitsPerComponent 8 /Filter /DCTDecode`, p.jpeg));
      const r = p.jpegRect ?? { x: 0, y: 0, width: w, height: h };
      ops.push(`q ${num(r.width)} 0 0 ${num(r.height)} ${num(r.x)} ${num(h - r.y - r.height)} cm /Im1 Do Q`);
    }
    for (const l of p.lines ?? []) {
      ops.push(`BT /F1 ${num(l.size)} Tf 1 0 0 1 ${num(l.x)} ${num(h - l.y)} Tm ${pdfString(l.text)} Tj ET`);
    }
    const content = add(stream('', Buffer.from(ops.join('\n'), 'latin1')));
    const xobj = imageRef ? ` /XObject << /Im1 ${imageRef} 0 R >>` : '';
    const rotate = p.rotate ? ` /Rotate ${p.rotate}` : '';
    kids.push(add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(w)} ${num(h)}]${rotate} /Resources << /Font << /F1 3 0 R >>${xobj} >> /Contents ${content} 0 R >>`));
  }
  objects[1] = Buffer.from(`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`, 'latin1');
  let infoRef: number | undefined;
  if (opts.info) {
    infoRef = add(`<< ${Object.entries(opts.info).map(([k, v]) => `/${k} ${pdfString(v)}`).join(' ')} >>`);
  }

  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(obj);
    offset += obj.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f\r\n', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n\r\n`)].join('');
  const encrypt = opts.passwordProtected
    ? ` /Encrypt << /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <${'5a'.repeat(32)}> /U <${'c3'.repeat(32)}> >> /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]`
    : '';
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${infoRef ? ` /Info ${infoRef} 0 R` : ''}${encrypt} >>\nstartxref\n${offset}\n%%EOF\n`;
  parts.push(Buffer.from(xref + trailer, 'latin1'));
  return Buffer.concat(parts);
}
