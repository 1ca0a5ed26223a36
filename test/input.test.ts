/**
 * The input stage on its own: every accepted form and type, every limit, and hostile files, each
 * failing with the right code quickly. All inputs are generated here (sharp, hand-written PDFs).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { loadInput, sniffMediaType } from '../src/input/index.js';
import type { LoadedInput, RasterPage, TextPage } from '../src/input/index.js';
import { heifDeclaredSize } from '../src/input/image.js';
import { pdfDate, exifDate } from '../src/input/metadata.js';
import { ReceiptKitError } from '../src/errors.js';
import { makePdf } from './helpers/pdf.js';
import { pngDeclaring, randomBytes } from './helpers/hostile.js';
import { bitFlipped } from './generators/hostile-files.ts';
import { loadWorkingImage } from '../src/ocr/preprocess.js';

// ---------- generated inputs ----------

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8); head.writeUInt32BE(8 + body.length); head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}
/** A HEIF header (ftyp + meta/iprp/ipco/ispe) declaring width x height, no image data. */
function heifDeclaring(width: number, height: number): Buffer {
  const ispe = Buffer.alloc(12); ispe.writeUInt32BE(width, 4); ispe.writeUInt32BE(height, 8);
  const ftyp = box('ftyp', Buffer.from('heic\0\0\0\0mif1heic', 'latin1'));
  const meta = box('meta', Buffer.alloc(4), box('iprp', box('ipco', box('ispe', ispe))));
  return Buffer.concat([ftyp, meta, box('mdat', Buffer.alloc(64, 7))]);
}
const solid = (width: number, height: number, background = '#f4f4f0') => sharp({ create: { width, height, channels: 3, background } });
const noisy = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#eeeeee', noise: { type: 'gaussian', mean: 200, sigma: 40 } } });

const LINES = [
  { text: 'ACME STORE Kuala Lumpur', x: 40, y: 60, size: 14 },
  { text: 'Nasi Lemak      2 x 5.50     11.00', x: 40, y: 90, size: 10 },
  { text: 'TOTAL   RM 12.50 (cash)', x: 40, y: 120, size: 12 },
];
const WORDS = LINES.flatMap((l) => l.text.split(/\s+/));

/** LINES drawn as a small receipt (PNG; needs the DejaVu fonts). */
function receipt(): Promise<Buffer> {
  const text = LINES.map((l) => `<text x="${l.x}" y="${l.y}" font-family="DejaVu Sans" font-size="${l.size * 2}" fill="#111">${l.text}</text>`).join('');
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="700" height="300"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`)).png().toBuffer();
}

/** `jpeg` with bits flipped so that a strict decode (sharp's failOn 'warning') fails: the first seed that does. */
async function corruptedJpeg(jpeg: Buffer): Promise<Buffer> {
  for (let seed = 1; seed <= 50; seed++) {
    const damaged = bitFlipped(jpeg, { flips: 100, seed });
    if (await sharp(damaged, { failOn: 'warning' }).raw().toBuffer().then(() => false, () => true)) return damaged;
  }
  throw new Error('no seed broke the JPEG');
}

/** Runs `load`, expects a ReceiptKitError with `code` within `ms`; returns it. */
async function expectFailure(load: () => Promise<unknown>, code: string, ms = 1000): Promise<ReceiptKitError> {
  const t0 = performance.now();
  const err = await load().then(() => undefined, (e: unknown) => e);
  const elapsed = performance.now() - t0;
  expect(err, `expected ${code}`).toBeInstanceOf(ReceiptKitError);
  expect((err as ReceiptKitError).code).toBe(code);
  expect(elapsed).toBeLessThan(ms);
  return err as ReceiptKitError;
}

const raster = (r: LoadedInput, i = 0) => { expect(r.pages[i]!.kind).toBe('raster'); return r.pages[i] as RasterPage; };
const textPage = (r: LoadedInput, i = 0) => { expect(r.pages[i]!.kind).toBe('text'); return r.pages[i] as TextPage; };

let tmp: string;
let jpeg: Buffer;
beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'receiptkit-input-'));
  jpeg = await noisy(300, 400).jpeg().toBuffer();
  // warm pdf.js and sharp so the time bounds measure the work, not module loading
  await loadInput(makePdf([{ lines: LINES }]));
  await loadInput(jpeg);
});
afterAll(async () => { if (tmp) await fs.rm(tmp, { recursive: true, force: true }); });

// ---------- errors ----------

describe('bad input fails fast with a typed error', () => {
  it('empty buffer -> UNREADABLE_FILE (also an empty encoded image)', async () => {
    await expectFailure(() => loadInput(Buffer.alloc(0)), 'UNREADABLE_FILE');
    await expectFailure(() => loadInput({ image: '' }), 'UNREADABLE_FILE');
    await expectFailure(() => loadInput(new ArrayBuffer(0)), 'UNREADABLE_FILE');
  });

  it('random bytes -> UNSUPPORTED_MEDIA_TYPE (415) naming what they look like', async () => {
    const e = await expectFailure(() => loadInput(randomBytes(50_000)), 'UNSUPPORTED_MEDIA_TYPE');
    expect(e.status).toBe(415);
    expect(e.message).toMatch(/unknown binary data/);
  });

  it('text claimed as image/jpeg -> UNSUPPORTED_MEDIA_TYPE naming "text" and the claim', async () => {
    const text = Buffer.from('hello, this is not an image at all\n'.repeat(20));
    const e = await expectFailure(() => loadInput({ image: text.toString('base64'), contentType: 'image/jpeg' }), 'UNSUPPORTED_MEDIA_TYPE');
    expect(e.message).toMatch(/text/);
    expect(e.message).toContain('image/jpeg');
    const e2 = await expectFailure(() => loadInput(text, { contentType: 'image/jpeg' }), 'UNSUPPORTED_MEDIA_TYPE');
    expect(e2.message).toContain('image/jpeg');
  });

  it('a zip and a BMP are named in the message', async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(200)]);
    expect((await expectFailure(() => loadInput(zip, { contentType: 'application/pdf' }), 'UNSUPPORTED_MEDIA_TYPE')).message).toMatch(/zip.*application\/pdf/);
    const bmp = Buffer.alloc(200); bmp.write('BM', 0, 'latin1'); bmp.writeUInt32LE(200, 2); bmp.writeUInt32LE(54, 10); bmp.writeUInt32LE(40, 14);
    expect((await expectFailure(() => loadInput(bmp), 'UNSUPPORTED_MEDIA_TYPE')).message).toMatch(/BMP/);
  });

  it('truncated JPEG -> UNREADABLE_FILE (422)', async () => {
    const big = await noisy(1000, 2000).jpeg().toBuffer();
    const e = await expectFailure(() => loadInput(big.subarray(0, Math.floor(big.length / 2))), 'UNREADABLE_FILE');
    expect(e.status).toBe(422);
  });

  it('corrupt PNG (damaged image data) -> UNREADABLE_FILE', async () => {
    const png = Buffer.from(await noisy(400, 300).png().toBuffer());
    for (let i = 200; i < png.length - 100; i += 997) png[i] ^= 0x5a;
    await expectFailure(() => loadInput(png), 'UNREADABLE_FILE');
    await expectFailure(() => loadInput(png.subarray(0, 100)), 'UNREADABLE_FILE');
  });

  it('bit-flipped JPEG (corrupt entropy data) -> UNREADABLE_FILE here, as the OCR stage\'s decode would refuse it', async () => {
    // a drawn receipt (deterministic, unlike noise): the first seed whose flips break the data
    const jpeg = await sharp(await receipt()).jpeg({ quality: 90 }).toBuffer();
    const damaged = await corruptedJpeg(jpeg);
    // what the OCR stage does with a page's bytes (ocr/preprocess.ts) fails on it...
    await expect(loadWorkingImage({ kind: 'raster', index: 0, image: damaged, width: 400, height: 300, exifOrientation: 1 })).rejects.toMatchObject({ code: 'UNREADABLE_FILE' });
    // ...so the input stage refuses it, before any OCR worker is started for it
    const e = await expectFailure(() => loadInput(damaged), 'UNREADABLE_FILE', 1000);
    expect(e.message).toMatch(/Corrupt JPEG data/);
  });

  it('PNG declaring 40000x40000 pixels -> FILE_TOO_LARGE from the header, fast, small memory', async () => {
    const bomb = pngDeclaring(40000, 40000);
    const rss0 = process.memoryUsage().rss;
    const e = await expectFailure(() => loadInput(bomb), 'FILE_TOO_LARGE', 250);
    expect(e.status).toBe(413);
    expect(e.message).toMatch(/40000x40000/);
    expect(process.memoryUsage().rss - rss0).toBeLessThan(100 * 1024 * 1024);
  });

  it('HEIF header declaring 40000x40000 -> FILE_TOO_LARGE before decoding', async () => {
    expect(heifDeclaredSize(heifDeclaring(40000, 40000))).toEqual({ width: 40000, height: 40000 });
    const rss0 = process.memoryUsage().rss;
    await expectFailure(() => loadInput(heifDeclaring(40000, 40000)), 'FILE_TOO_LARGE');
    expect(process.memoryUsage().rss - rss0).toBeLessThan(100 * 1024 * 1024);
  });

  it('a HEIC that cannot be decoded -> UNREADABLE_FILE saying HEIC', async () => {
    const e = await expectFailure(() => loadInput(heifDeclaring(800, 600)), 'UNREADABLE_FILE', 5000);
    expect(e.message).toMatch(/HEIC/);
  });

  it('too many pixels via a small maxPixels', async () => {
    const png = await solid(200, 100).png().toBuffer();
    const e = await expectFailure(() => loadInput(png, { limits: { maxPixels: 10_000 } }), 'FILE_TOO_LARGE');
    expect(e.message).toMatch(/200x100/);
  });

  it('too-large file via a small maxFileBytes (buffer, ArrayBuffer, encoded, path)', async () => {
    const limits = { maxFileBytes: 1000 };
    await expectFailure(() => loadInput(jpeg, { limits }), 'FILE_TOO_LARGE');
    await expectFailure(() => loadInput(new Uint8Array(jpeg).buffer, { limits }), 'FILE_TOO_LARGE');
    await expectFailure(() => loadInput({ image: jpeg.toString('base64') }, { limits }), 'FILE_TOO_LARGE');
    const file = path.join(tmp, 'big.jpg');
    await fs.writeFile(file, jpeg);
    const e = await expectFailure(() => loadInput(file, { limits }), 'FILE_TOO_LARGE');
    expect(e.status).toBe(413);
  });

  it('a huge file path is refused from its size, without reading it', async () => {
    const file = path.join(tmp, 'huge.bin');
    await fs.writeFile(file, '');
    await fs.truncate(file, 4 * 1024 * 1024 * 1024); // sparse 4 GB: reading it would take far longer than allowed
    await expectFailure(() => loadInput(file), 'FILE_TOO_LARGE', 200);
  });

  it('base64 over the limit is refused before decoding', async () => {
    const image = 'A'.repeat(4_000_000); // 3 MB decoded
    await expectFailure(() => loadInput({ image }, { limits: { maxFileBytes: 1_000_000 } }), 'FILE_TOO_LARGE', 200);
  });

  it('file path that does not exist -> INVALID_INPUT naming the path; a directory too', async () => {
    const missing = path.join(tmp, 'no-such-receipt.jpg');
    const e = await expectFailure(() => loadInput(missing), 'INVALID_INPUT');
    expect(e.status).toBe(400);
    expect(e.message).toContain(missing);
    expect((await expectFailure(() => loadInput(tmp), 'INVALID_INPUT')).message).toContain(tmp);
  });

  it('invalid base64 in the encoded form -> INVALID_INPUT', async () => {
    const e = await expectFailure(() => loadInput({ image: 'this is *not* base64!!', filename: 'r.jpg', contentType: 'image/jpeg' }), 'INVALID_INPUT');
    expect(e.field).toBe('image');
    await expectFailure(() => loadInput({ image: 'QUJD=RA==' }), 'INVALID_INPUT');
    await expectFailure(() => loadInput({ image: 'data:image/png,rawtext' }), 'INVALID_INPUT');
    await expectFailure(() => loadInput({ image: 42 } as never), 'INVALID_INPUT');
  });

  it('not an input form at all -> INVALID_INPUT', async () => {
    await expectFailure(() => loadInput(42 as never), 'INVALID_INPUT');
    await expectFailure(() => loadInput({ file: 'x' } as never), 'INVALID_INPUT');
  });

  it('PDF with no pages -> UNREADABLE_FILE', async () => {
    const e = await expectFailure(() => loadInput(makePdf([])), 'UNREADABLE_FILE');
    expect(e.message).toMatch(/no pages/);
    const handWritten = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
    await expectFailure(() => loadInput(handWritten), 'UNREADABLE_FILE');
  });

  it('"%PDF-" followed by garbage -> UNREADABLE_FILE', async () => {
    await expectFailure(() => loadInput(Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(20_000, 3)])), 'UNREADABLE_FILE');
    await expectFailure(() => loadInput(Buffer.from('%PDF-')), 'UNREADABLE_FILE');
  });

  it('password-protected PDF -> UNREADABLE_FILE saying so', async () => {
    const e = await expectFailure(() => loadInput(makePdf([{ lines: LINES }], { passwordProtected: true })), 'UNREADABLE_FILE');
    expect(e.message).toMatch(/password/);
  });

  it('truncated PDF -> UNREADABLE_FILE quickly', async () => {
    const pdf = makePdf([{ lines: LINES }]);
    await expectFailure(() => loadInput(pdf.subarray(0, 60)), 'UNREADABLE_FILE');
    // cut inside the page tree: nothing left to read
    await expectFailure(() => loadInput(pdf.subarray(0, pdf.indexOf('3 0 obj'))), 'UNREADABLE_FILE');
  });

  it('a PDF image declaring 40000x40000 pixels is skipped, not decoded (bounded time and memory)', async () => {
    const small = Buffer.from(await solid(16, 16).jpeg().toBuffer());
    const sof = small.findIndex((b, i) => b === 0xff && small[i + 1] === 0xc0);
    small.writeUInt16BE(40000, sof + 5); small.writeUInt16BE(40000, sof + 7);
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    const r = await loadInput(makePdf([{ jpeg: small, width: 200, height: 300 }]));
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(r.pages[0]!.kind).toBe('raster');
    expect(process.memoryUsage().rss - rss0).toBeLessThan(150 * 1024 * 1024);
  });

  it('PDF work is bounded: an aborted signal or an exhausted time budget -> TIMEOUT', async () => {
    const pdf = makePdf([{ lines: LINES }, { lines: LINES }]);
    const ac = new AbortController(); ac.abort();
    await expectFailure(() => loadInput(pdf, { signal: ac.signal }), 'TIMEOUT');
    await expectFailure(() => loadInput(pdf, { limits: { maxPdfMillis: 0 } }), 'TIMEOUT');
  });
});

// ---------- images ----------

describe('images', () => {
  it('JPEG with EXIF orientation 6: size as displayed (swapped), orientation kept, EXIF metadata read', async () => {
    const src = await solid(300, 200).jpeg()
      .withExif({ IFD0: { Software: 'TestScanner 2.1', Make: 'Acme', Model: 'Phone 7', DateTime: '2024:01:31 12:34:56' } })
      .withMetadata({ orientation: 6 }).toBuffer();
    const r = await loadInput(src);
    expect(r.mediaType).toBe('image/jpeg');
    const p = raster(r);
    expect(p).toMatchObject({ width: 200, height: 300, exifOrientation: 6, index: 0 });
    expect(p.image).toBe(src); // original bytes kept
    expect(r.metadata).toMatchObject({ software: 'TestScanner 2.1', make: 'Acme', model: 'Phone 7', modifyDate: '2024-01-31T12:34:56' });
    expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.pageCount).toBe(1);
  });

  it('JPEG without orientation reports 1', async () => {
    const p = raster(await loadInput(jpeg));
    expect(p).toMatchObject({ width: 300, height: 400, exifOrientation: 1 });
  });

  it('PNG, WebP keep their bytes; GIF and TIFF become a decodable PNG', async () => {
    const cases: Array<[string, Buffer, string, boolean]> = [
      ['png', await solid(120, 80).png().toBuffer(), 'image/png', true],
      ['webp', await solid(120, 80).webp().toBuffer(), 'image/webp', true],
      ['gif', await solid(120, 80).gif().toBuffer(), 'image/gif', false],
      ['tiff', await solid(120, 80).tiff().toBuffer(), 'image/tiff', false],
    ];
    for (const [name, bytes, type, kept] of cases) {
      const r = await loadInput(bytes);
      expect(r.mediaType, name).toBe(type);
      const p = raster(r);
      expect(p, name).toMatchObject({ width: 120, height: 80, exifOrientation: 1 });
      if (kept) expect(p.image, name).toBe(bytes);
      const m = await sharp(p.image).metadata();
      expect([m.width, m.height], name).toEqual([120, 80]);
    }
  });

  it('TIFF with orientation 6 comes out upright', async () => {
    const tiff = await solid(300, 200).tiff().withMetadata({ orientation: 6 }).toBuffer();
    const p = raster(await loadInput(tiff));
    expect(p).toMatchObject({ width: 200, height: 300, exifOrientation: 1 });
    const m = await sharp(p.image).metadata();
    expect([m.width, m.height]).toEqual([200, 300]);
  });

  it('AVIF (HEIF family) is decoded to PNG', async () => {
    const avif = await solid(64, 48).avif().toBuffer();
    expect(sniffMediaType(avif)).toBe('image/heic');
    const p = raster(await loadInput(avif));
    expect(p).toMatchObject({ width: 64, height: 48 });
    expect((await sharp(p.image).metadata()).format).toBe('png');
  });

  it('encoded form with a data URL; its content type is used as the claim', async () => {
    const png = await solid(50, 40).png().toBuffer();
    const r = await loadInput({ image: `data:image/png;base64,${png.toString('base64')}`, filename: 'scan.png' });
    expect(r).toMatchObject({ mediaType: 'image/png', filename: 'scan.png', warnings: [] });
    expect(raster(r)).toMatchObject({ width: 50, height: 40 });
    // MIME-wrapped base64 and base64url decode too
    const wrapped = png.toString('base64').replace(/(.{76})/g, '$1\r\n');
    expect((await loadInput({ image: wrapped })).mediaType).toBe('image/png');
    expect((await loadInput({ image: png.toString('base64url') })).mediaType).toBe('image/png');
  });

  it('a wrong claimed content type does not override the bytes: processed, with a warning', async () => {
    const png = await solid(50, 40).png().toBuffer();
    const r = await loadInput({ image: png.toString('base64'), contentType: 'image/jpeg' });
    expect(r.mediaType).toBe('image/png');
    expect(r.warnings?.join(' ')).toMatch(/image\/jpeg.*image\/png/);
    expect((await loadInput(jpeg, { contentType: 'image/jpg' })).warnings).toEqual([]);
  });

  it('Uint8Array (a view with an offset) and ArrayBuffer inputs', async () => {
    const padded = new Uint8Array(jpeg.length + 10);
    padded.set(jpeg, 10);
    const view = padded.subarray(10);
    const a = await loadInput(view);
    expect(a.mediaType).toBe('image/jpeg');
    const ab = new Uint8Array(jpeg).buffer;
    const b = await loadInput(ab);
    expect(b.sha256).toBe(a.sha256);
    expect(raster(b)).toMatchObject({ width: 300, height: 400 });
  });

  it('a file path is read, and its name kept', async () => {
    const file = path.join(tmp, 'receipt.jpg');
    await fs.writeFile(file, jpeg);
    const r = await loadInput(file);
    expect(r).toMatchObject({ mediaType: 'image/jpeg', filename: file });
  });

  it('sniffMediaType reads magic numbers, not names', async () => {
    expect(sniffMediaType(jpeg)).toBe('image/jpeg');
    expect(sniffMediaType(await solid(8, 8).png().toBuffer())).toBe('image/png');
    expect(sniffMediaType(await solid(8, 8).gif().toBuffer())).toBe('image/gif');
    expect(sniffMediaType(await solid(8, 8).webp().toBuffer())).toBe('image/webp');
    expect(sniffMediaType(await solid(8, 8).tiff().toBuffer())).toBe('image/tiff');
    expect(sniffMediaType(heifDeclaring(8, 8))).toBe('image/heic');
    expect(sniffMediaType(makePdf([]))).toBe('application/pdf');
    expect(sniffMediaType(Buffer.from('BMW invoice, plain text'))).toBeUndefined();
    expect(sniffMediaType(new Uint8Array(0))).toBeUndefined();
  });
});

// ---------- PDF ----------

describe('PDF', () => {
  it('text PDF -> TextPage with the words in order, boxes inside the page, metadata', async () => {
    const pdf = makePdf([{ lines: LINES }], { info: { Producer: 'TestProducer 1.0', Creator: 'TestCreator', CreationDate: "D:20240131120000+08'00'" } });
    const r = await loadInput(pdf);
    expect(r.mediaType).toBe('application/pdf');
    expect(r.pageCount).toBe(1);
    const p = textPage(r);
    expect(p).toMatchObject({ index: 0, scale: 2, width: 595 * 2, height: 842 * 2, imageCoverage: 0 });
    expect(p.words.map((w) => w.text)).toEqual(WORDS);
    for (const w of p.words) {
      expect(w.confidence).toBe(1);
      expect(w.box.x0).toBeGreaterThanOrEqual(0);
      expect(w.box.y0).toBeGreaterThanOrEqual(0);
      expect(w.box.x1).toBeLessThanOrEqual(p.width);
      expect(w.box.y1).toBeLessThanOrEqual(p.height);
      expect(w.box.x1).toBeGreaterThan(w.box.x0);
      expect(w.box.y1).toBeGreaterThan(w.box.y0);
    }
    // first word at x = 40 pt, baseline 60 pt from the top, 14 pt font, 2 px per point
    const acme = p.words[0]!.box;
    expect(acme.x0).toBeCloseTo(80, 0);
    expect(acme.y1).toBeCloseTo((60 + 0.2 * 14) * 2, 0);
    expect(acme.y0).toBeCloseTo((60 - 0.8 * 14) * 2, 0);
    // words of one line share a band; lines go down the page; words go right along a line
    const total = p.words.find((w) => w.text === 'TOTAL')!, cash = p.words.find((w) => w.text === '(cash)')!;
    expect(total.box.y0).toBeCloseTo(cash.box.y0, 3);
    expect(cash.box.x0).toBeGreaterThan(total.box.x1);
    expect(total.box.y0).toBeGreaterThan(acme.y1);
    expect(r.metadata).toMatchObject({ producer: 'TestProducer 1.0', creator: 'TestCreator', createDate: '2024-01-31T12:00:00+08:00' });
  });

  it('a page rotated by /Rotate 90 keeps boxes inside the (turned) page', async () => {
    const p = textPage(await loadInput(makePdf([{ lines: LINES, rotate: 90 }])));
    expect([p.width, p.height]).toEqual([842 * 2, 595 * 2]);
    expect(p.words.map((w) => w.text)).toEqual(WORDS);
    for (const w of p.words) {
      expect(w.box.x1).toBeLessThanOrEqual(p.width);
      expect(w.box.y1).toBeLessThanOrEqual(p.height);
      if (w.text.length >= 4) expect(w.box.y1 - w.box.y0).toBeGreaterThan(w.box.x1 - w.box.x0); // text now runs down the page
    }
  });

  it('image-only page -> RasterPage that sharp decodes, at 250 dpi', async () => {
    const scan = await noisy(600, 800).jpeg().toBuffer();
    const r = await loadInput(makePdf([{ jpeg: scan }]));
    const p = raster(r);
    expect(p.renderScale).toBeCloseTo(250 / 72, 5);
    expect(p.width).toBe(Math.floor(595 * 250 / 72));
    expect(p.height).toBe(Math.floor(842 * 250 / 72));
    expect(p.exifOrientation).toBe(1);
    const m = await sharp(p.image).metadata();
    expect([m.format, m.width, m.height]).toEqual(['png', p.width, p.height]);
  });

  it('a rendered page respects a small maxPixels (lower dpi)', async () => {
    const scan = await solid(100, 100, '#888888').jpeg().toBuffer();
    const p = raster(await loadInput(makePdf([{ jpeg: scan }]), { limits: { maxPixels: 1_000_000 } }));
    expect(p.width * p.height).toBeLessThanOrEqual(1_000_000);
    expect(p.renderScale!).toBeLessThan(250 / 72);
  });

  it('mixed 2-page PDF: a text page and an image page', async () => {
    const scan = await solid(200, 300, '#dddddd').jpeg().toBuffer();
    const r = await loadInput(makePdf([{ lines: LINES }, { jpeg: scan }]));
    expect(r.pageCount).toBe(2);
    expect(r.pages.map((p) => p.kind)).toEqual(['text', 'raster']);
    expect(r.pages.map((p) => p.index)).toEqual([0, 1]);
  });

  it('a text page with a large logo reports its image coverage', async () => {
    const logo = await solid(200, 100, '#3366aa').jpeg().toBuffer();
    const p = textPage(await loadInput(makePdf([{ lines: LINES.map((l) => ({ ...l, y: l.y + 400 })), jpeg: logo, jpegRect: { x: 0, y: 0, width: 595, height: 421 } }])));
    expect(p.imageCoverage).toBeGreaterThan(0.45);
    expect(p.imageCoverage).toBeLessThan(0.56);
  });

  it('a page with a few characters only is rendered for OCR', async () => {
    const r = await loadInput(makePdf([{ lines: [{ text: 'Page 1', x: 40, y: 40, size: 10 }] }]));
    expect(raster(r).renderScale).toBeGreaterThan(3);
  });

  it('a full-page scan with a short text overlay (a "scanned with" footer) is rendered for OCR', async () => {
    const scan = await solid(300, 420, '#eeeeee').jpeg().toBuffer();
    const r = await loadInput(makePdf([{ jpeg: scan, lines: [{ text: 'Scanned with PocketScanner Pro 5', x: 40, y: 820, size: 9 }] }]));
    expect(raster(r).renderScale).toBeGreaterThan(3);
  });

  it('maxPdfPages is respected; pageCount is the real count', async () => {
    const pdf = makePdf(Array.from({ length: 7 }, (_, i) => ({ lines: [...LINES, { text: `page ${i + 1} of 7`, x: 40, y: 700, size: 10 }] })));
    const r = await loadInput(pdf, { limits: { maxPdfPages: 2 } });
    expect(r.pageCount).toBe(7);
    expect(r.pages).toHaveLength(2);
    expect(textPage(r, 1).words.map((w) => w.text)).toContain('2');
  });

  it('PDF dates and EXIF dates normalise to ISO strings', () => {
    expect(pdfDate('D:20240131120000Z')).toBe('2024-01-31T12:00:00Z');
    expect(pdfDate("D:20240131120000-05'30'")).toBe('2024-01-31T12:00:00-05:30');
    expect(pdfDate('D:2024')).toBe('2024-01-01T00:00:00');
    expect(pdfDate('yesterday')).toBeUndefined();
    expect(exifDate('2024:01:31 12:34:56')).toBe('2024-01-31T12:34:56');
    expect(exifDate('0000:00:00 00:00:00')).toBeUndefined();
  });
});

// ---------- cost ----------

describe('cost', () => {
  it('measures: decodability check, text PDF load, page render', async () => {
    const median = async (n: number, f: () => Promise<unknown>) => {
      const t: number[] = [];
      for (let i = 0; i < n; i++) { const t0 = performance.now(); await f(); t.push(performance.now() - t0); }
      return t.sort((a, b) => a - b)[Math.floor(n / 2)]!;
    };
    const big = await noisy(1000, 2000).jpeg({ quality: 85 }).toBuffer();
    const bigPng = await noisy(1000, 2000).png().toBuffer();
    const textPdf = makePdf([{ lines: Array.from({ length: 40 }, (_, i) => ({ text: `Item ${i + 1}   2 x 3.50   7.00`, x: 40, y: 40 + i * 18, size: 10 })) }]);
    const scanPdf = makePdf([{ jpeg: await noisy(1240, 1754).jpeg().toBuffer() }]);
    const jpegMs = await median(5, () => loadInput(big));
    const pngMs = await median(5, () => loadInput(bigPng));
    const textMs = await median(5, () => loadInput(textPdf));
    const renderMs = await median(3, () => loadInput(scanPdf));
    console.log(`[input cost] 1000x2000 JPEG load ${jpegMs.toFixed(1)} ms, PNG ${pngMs.toFixed(1)} ms; 1-page text PDF ${textMs.toFixed(1)} ms; A4 scan page render at 250 dpi ${renderMs.toFixed(0)} ms`);
    // generous bounds for a slow shared machine; the numbers above are the measurement
    expect(jpegMs).toBeLessThan(150);
    expect(textMs).toBeLessThan(500);
    expect(renderMs).toBeLessThan(3000);
  });
});
