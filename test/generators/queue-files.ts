// Receipt files for the job queue's tests (test/queue-process.test.ts, test/queue-heartbeat.test.ts) and
// bench (bench/queue.mjs), made here: small text-layer PDFs (read from their text layer, no OCR) and scans
// (a receipt drawn with sharp, JPEG, read by OCR). Nothing is read from ../shared; every file differs from
// the others (merchant, address, number, date, items), so no two have the same content.
//
//   import { writeQueueFiles } from './generators/queue-files.ts';
//   const { pdfs, scans } = await writeQueueFiles(dir, { pdfs: 60, scans: 10 });  // absolute paths
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { pdfOf, streamOf } from './hostile-files.ts';

const WORDS = ['ALPHA', 'BRAVO', 'CEDAR', 'DELTA', 'EMBER', 'FJORD', 'GARNET', 'HARBOR', 'IVORY', 'JUNIPER', 'KESTREL', 'LOTUS', 'MAPLE', 'NECTAR', 'ORCHID', 'PEBBLE', 'QUARTZ', 'RAVEN', 'SAFFRON', 'TUNDRA'];
const ITEMS = ['KOPI O', 'NASI LEMAK', 'ROTI CANAI', 'TEH TARIK', 'MEE GORENG', 'MILO AIS', 'CHAR KUEY TEOW', 'LAKSA', 'SATAY', 'CENDOL', 'APAM', 'KUIH'];

/** The printed lines of receipt n: merchant, address, number, date, three items, total. */
export function receiptLines(n: number): { total: number; lines: string[] } {
  const a = WORDS[n % 20]!, b = WORDS[(7 * n + 3) % 20]!;
  const items = [ITEMS[n % 12]!, ITEMS[(5 * n + 1) % 12]!, ITEMS[(3 * n + 2) % 12]!]
    .map((name, i): [string, string] => [name, (2 + ((n * 7 + i * 13) % 40) + (n % 100) / 100).toFixed(2)]);
  const total = items.reduce((t, [, p]) => t + Number(p), 0).toFixed(2);
  const day = String(1 + (n % 28)).padStart(2, '0'), month = String(1 + (Math.floor(n / 28) % 12)).padStart(2, '0');
  return {
    total: Number(total),
    lines: [`${a} ${b} ENTERPRISE`, `${10 + n} JALAN ${b} ${(n % 7) + 1}`, `INVOICE NO: ${a.slice(0, 2)}-${7000 + n * 13}`, `DATE: ${day}/${month}/2024`,
      ...items.map(([name, p]) => `${name.padEnd(18)} ${p.padStart(7)}`), `TOTAL${' '.repeat(14)} ${total.padStart(7)}`, 'THANK YOU'],
  };
}

/** A one-page PDF with a text layer (Helvetica, not embedded) holding receipt n. */
export function textReceiptPdf(n: number): Buffer {
  const { lines } = receiptLines(n);
  const esc = (t: string) => t.replace(/[\\()]/g, (c) => `\\${c}`);
  const ops = lines.map((t, i) => `BT /F1 11 Tf 1 0 0 1 20 ${400 - 40 - i * 22} Tm (${esc(t)}) Tj ET`).join('\n');
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
    streamOf('', ops),
  ]);
}

/** A scan of receipt n: the lines drawn black on white with sharp, JPEG (quality 90), 480 px wide. */
export async function scanReceipt(n: number): Promise<Buffer> {
  const { lines } = receiptLines(n);
  const width = 480, lineH = 34, height = 80 + lines.length * lineH;
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${
    lines.map((t, i) => `<text x="30" y="${60 + i * lineH}" font-family="DejaVu Sans Mono, monospace" font-size="20" fill="black">${esc(t)}</text>`).join('')}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

/**
 * Writes `pdfs` text-layer PDFs under `dir/pdf/` (in sub-folders of 20) and `scans` JPEG scans under
 * `dir/scan/`; numbers start at `first` (default 1), scans after the PDFs. Returns the absolute paths.
 */
export async function writeQueueFiles(dir: string, { pdfs = 60, scans = 10, first = 1 }: { pdfs?: number; scans?: number; first?: number } = {}):
  Promise<{ pdfs: string[]; scans: string[] }> {
  const out: { pdfs: string[]; scans: string[] } = { pdfs: [], scans: [] };
  for (let i = 0; i < pdfs; i++) {
    const sub = path.resolve(dir, 'pdf', `part-${Math.floor(i / 20) + 1}`);
    mkdirSync(sub, { recursive: true });
    const file = path.join(sub, `receipt-${String(first + i).padStart(4, '0')}.pdf`);
    writeFileSync(file, textReceiptPdf(first + i));
    out.pdfs.push(file);
  }
  mkdirSync(path.resolve(dir, 'scan'), { recursive: true });
  for (let i = 0; i < scans; i++) {
    const n = first + pdfs + i;
    const file = path.resolve(dir, 'scan', `scan-${String(n).padStart(4, '0')}.jpg`);
    writeFileSync(file, await scanReceipt(n));
    out.scans.push(file);
  }
  return out;
}
