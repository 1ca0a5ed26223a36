// Hostile files, generated (nothing read from disk, nothing from ../shared): the ones bench/hostile.mjs
// times in a fresh process each and the tests (pdf-hostile, bad-input, input, lifecycle) read through the library.
//
//   import { hostileFiles, bitFlipped } from './hostile-files.ts';
//   const files = hostileFiles();          // { name: { bytes, expect: [codes], what } }
//
// Each PDF is small on disk (a few hundred KB at most) and costly to read naively: what it declares
// (pages, page size, image size) or what its streams inflate to is far larger than the file.
import { deflateRawSync, constants as zlibConstants } from 'node:zlib';

/** A hostile file: its bytes, the error codes accepted for it (`ok` when it reads), and what it is. */
export interface HostileFile { bytes: Buffer; expect: string[]; what: string }

/** A PDF from object bodies (strings or Buffers; object 1 is the catalog), with a valid xref table. */
export function pdfOf(objects: Array<string | Buffer>, { trailerExtra = '' }: { trailerExtra?: string } = {}): Buffer {
  const parts = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let size = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(size);
    const body = Buffer.isBuffer(o) ? o : Buffer.from(o, 'latin1');
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(chunk);
    size += chunk.length;
  });
  let xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) xref += `${String(off).padStart(10, '0')} 00000 n \n`;
  xref += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${size}\n%%EOF\n`;
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

/** A stream object: dictionary entries (without /Length) and raw (already encoded) data. */
export function streamOf(dict: string, data: string | Buffer): Buffer {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data, 'latin1');
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${bytes.length} >>\nstream\n`, 'latin1'), bytes, Buffer.from('\nendstream', 'latin1')]);
}

/**
 * A zlib stream of `n` bytes all equal to `fill`, built without holding them: one MiB deflated once and
 * repeated (sync-flushed raw deflate segments join), an empty final block, the Adler-32 computed.
 */
export function deflatedRun(n: number, fill = 0): Buffer {
  const CHUNK = 1 << 20;
  const whole = Math.floor(n / CHUNK), rest = n % CHUNK;
  const segment = (len: number): Buffer => deflateRawSync(Buffer.alloc(len, fill), { level: 9, finishFlush: zlibConstants.Z_SYNC_FLUSH });
  const parts: Buffer[] = [Buffer.from([0x78, 0xda])];
  if (whole) { const s = segment(CHUNK); for (let i = 0; i < whole; i++) parts.push(s); }
  if (rest) parts.push(segment(rest));
  parts.push(Buffer.from([0x03, 0x00])); // final empty block (fixed Huffman)
  const N = BigInt(n), c = BigInt(fill), M = 65521n;
  const a = (1n + c * N) % M, b = (N + (c * N * (N + 1n)) / 2n) % M;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((b << 16n) | a));
  parts.push(adler);
  return Buffer.concat(parts);
}

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const A4 = '[0 0 595 842]';
const textContent = (text: string): Buffer => streamOf('', `BT /F1 12 Tf 40 780 Td (${text}) Tj ET`);

/**
 * A one-page PDF painting one image XObject over the page: `width` x `height` pixels of `colorSpace`,
 * 8 bits, its data zeros deflated (a decompression bomb when the declared size is large).
 */
export function pdfWithImage(width: number, height: number, { colorSpace = 'DeviceRGB', components = 3, images = 1 }: { colorSpace?: string; components?: number; images?: number } = {}): Buffer {
  const zeros = deflatedRun(width * height * components);
  return pdfPaintingImages(images, `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /${colorSpace} /BitsPerComponent 8 /Filter /FlateDecode`, zeros);
}

/** A one-page A4 PDF painting `images` image XObjects over the page, each a stream of `dict` entries and `data`. */
function pdfPaintingImages(images: number, dict: string, data: Buffer): Buffer {
  const names = Array.from({ length: images }, (_, i) => `/I${i} ${5 + i} 0 R`).join(' ');
  const paint = Array.from({ length: images }, (_, i) => `q 595 0 0 842 0 0 cm /I${i} Do Q`).join('\n');
  const objs: Array<string | Buffer> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox ${A4} /Resources << /XObject << ${names} >> >> /Contents 4 0 R >>`,
    streamOf('', paint),
  ];
  for (let i = 0; i < images; i++) objs.push(streamOf(dict, data));
  return pdfOf(objs);
}

/**
 * A one-page PDF painting `images` copies of one JPEG (`jpeg`, `width` x `height`, RGB) over the page: the
 * structure check does not judge JPEG (a blank scan compresses hundreds of times legitimately), so this
 * is what the PDF thread's memory watch is for.
 */
export function pdfWithJpegs(jpeg: Buffer, width: number, height: number, images = 4): Buffer {
  return pdfPaintingImages(images, `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode`, jpeg);
}

/** A one-page PDF whose content stream inflates to `bytes` bytes (spaces: a valid, empty content stream). */
export function pdfWithContentBomb(bytes: number): Buffer {
  const data = deflatedRun(bytes, 0x20);
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox ${A4} /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>`,
    streamOf('/Filter /FlateDecode', data),
    FONT,
  ]);
}

/** A one-page PDF whose MediaBox is `side` points square (14 400 000 pt: 3 miles), with a short text. */
export function pdfHugeMediaBox(side = 14_400_000): Buffer {
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${side} ${side}] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>`,
    textContent('TOTAL 6.00'),
    FONT,
  ]);
}

/**
 * A PDF of `pages` pages, each its own page object and content stream (a short text: read as an image
 * page, i.e. rendered and OCR'd, as a scan would be).
 */
export function pdfManyPages(pages = 3000): Buffer {
  const objs: Array<string | Buffer> = ['<< /Type /Catalog /Pages 2 0 R >>', '', FONT];
  const kids: string[] = [];
  for (let i = 0; i < pages; i++) {
    const pageObj = objs.length + 1;
    kids.push(`${pageObj} 0 R`);
    objs.push(`<< /Type /Page /Parent 2 0 R /MediaBox ${A4} /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageObj + 1} 0 R >>`);
    objs.push(textContent(`Page ${i + 1}`));
  }
  objs[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`;
  return pdfOf(objs);
}

/** A PDF whose page tree declares `count` pages but holds one. */
export function pdfHugeCount(count = 2_000_000_000): Buffer {
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [3 0 R] /Count ${count} >>`,
    `<< /Type /Page /Parent 2 0 R /MediaBox ${A4} /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>`,
    textContent('SHOP LTD   TOTAL 12.50   2024-01-31'),
    FONT,
  ]);
}

/** `bytes` with `flips` single bits flipped past the first `skip` bytes (deterministic for a seed): a damaged download. */
export function bitFlipped(bytes: Buffer, { flips = 50, seed = 1, skip = 200 }: { flips?: number; seed?: number; skip?: number } = {}): Buffer {
  const b = Buffer.from(bytes);
  let x = seed;
  const next = () => { x = (x * 1103515245 + 12345) & 0x7fffffff; return x; };
  for (let i = 0; i < flips; i++) {
    const p = skip + (next() % (b.length - skip));
    b[p] ^= 1 << (next() % 8);
  }
  return b;
}

/** Every hostile PDF by name, with the error codes accepted for it and what it is. */
export function hostileFiles(): Record<string, HostileFile> {
  return {
    'pdf-bomb-image': { bytes: pdfWithImage(7000, 7000), expect: ['FILE_TOO_LARGE'], what: 'one 7000x7000 RGB image of deflated zeros (147 MB decoded) in 140 KB' },
    'pdf-bomb-images': { bytes: pdfWithImage(5000, 5000, { images: 8 }), expect: ['FILE_TOO_LARGE'], what: 'eight 5000x5000 RGB images on one page (600 MB decoded)' },
    'pdf-bomb-content': { bytes: pdfWithContentBomb(400_000_000), expect: ['FILE_TOO_LARGE'], what: 'a content stream of 400 MB of spaces, deflated' },
    'pdf-huge-mediabox': { bytes: pdfHugeMediaBox(), expect: ['FILE_TOO_LARGE'], what: 'a 14 400 000 pt square page' },
    'pdf-3000-pages': { bytes: pdfManyPages(3000), expect: ['FILE_TOO_LARGE'], what: '3000 pages, each its own objects' },
    // pdf.js counts the pages itself when the tree's /Count is a lie: the one page is read (a control)
    'pdf-huge-count': { bytes: pdfHugeCount(), expect: ['ok'], what: 'a page tree declaring 2e9 pages, holding one' },
  };
}
