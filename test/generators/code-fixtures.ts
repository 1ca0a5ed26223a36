// Receipt-like images carrying QR codes and barcodes, generated (no corpus file needed): the tests and
// bench/codes-fixtures.mjs use them. A code is drawn module by module (QR codes by the `qrcode` package,
// 1-D barcodes by zxing-wasm's writer, loaded from the installed package) into an SVG receipt with text
// lines, rendered by sharp (needs a font: Debian fonts-dejavu-core), then blurred, tilted and saved as JPEG.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { prepareZXingModule, writeBarcode } from 'zxing-wasm/writer';
import type { WriteInputBarcodeFormat } from 'zxing-wasm/writer';

/** A fiscal payload and the fields its parser must give. */
export interface FiscalSample { scheme: string; variant?: string; format?: string; text: string; fields: Record<string, string | number> }
/** The dark modules of a code (a 1-D barcode has one row). */
export interface CodeModules { cols: number; rows: number; dark(x: number, y: number): boolean }

const require = createRequire(import.meta.url);
let writerReady: ReturnType<typeof prepareZXingModule> | undefined;
function writer(): ReturnType<typeof prepareZXingModule> {
  if (!writerReady) {
    const file = require.resolve('zxing-wasm/writer/zxing_writer.wasm');
    const b = readFileSync(file);
    writerReady = prepareZXingModule({ overrides: { wasmBinary: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength), locateFile: () => file }, fireImmediately: true });
  }
  return writerReady;
}

/** base64 of ZATCA TLV records (tag, UTF-8 value). */
export function zatcaTlv(values: string[]): string {
  const parts: Buffer[] = [];
  values.forEach((v, i) => { const b = Buffer.from(v, 'utf8'); parts.push(Buffer.from([i + 1, b.length]), b); });
  return Buffer.concat(parts).toString('base64');
}

const b64url = (o: unknown): string => Buffer.from(typeof o === 'string' ? o : JSON.stringify(o)).toString('base64url');

/** Mod-11 check digit with weights 2..9 from the right (NF-e access key). */
function mod11(d: string): number { let s = 0, w = 2; for (let i = d.length - 1; i >= 0; i--) { s += +d[i] * w; w = w === 9 ? 2 : w + 1; } const r = s % 11; return r < 2 ? 0 : 11 - r; }
export function nfeKey({ state = '35', yymm = '2403', cnpj = '11222333000181', model = '65', series = '001', number = '000012345', emission = '1', code = '12345678' }: Record<string, string> = {}): string {
  const k = `${state}${yymm}${cnpj}${model}${series}${number}${emission}${code}`;
  return k + mod11(k);
}

/**
 * One sample payload per supported fiscal format (and variant), with the fields it must give. The values
 * are made up; the layouts follow the specifications cited in src/codes/fiscal/.
 */
export function fiscalSamples(): FiscalSample[] {
  const sig = b64url('x'.repeat(256));
  const gst = { SellerGstin: '27AAPFU0939F1ZV', BuyerGstin: '29AABCT3518Q1ZV', DocNo: 'INV/2024/00917', DocTyp: 'INV', DocDt: '14/03/2024', TotInvVal: 11800.5, ItemCnt: 3, MainHsnCode: '8471', Irn: 'a'.repeat(64), IrnDt: '2024-03-14 11:02:00' };
  return [
    { scheme: 'sa-zatca', text: zatcaTlv(['Al Noor Trading Co', '310122393500003', '2024-03-14T22:10:05Z', '115.00', '15.00']),
      fields: { totalAmount: 115, taxAmount: 15, date: '2024-03-14', time: '22:10:05', merchantTaxId: '310122393500003', merchantName: 'Al Noor Trading Co', currencyCode: 'SAR' } },
    { scheme: 'in-gst-einvoice', text: `${b64url({ alg: 'RS256', kid: 'ABC123', typ: 'JWT' })}.${b64url({ data: JSON.stringify(gst), iss: 'NIC' })}.${sig}`,
      fields: { totalAmount: 11800.5, date: '2024-03-14', merchantTaxId: '27AAPFU0939F1ZV', invoiceNumber: 'INV/2024/00917', currencyCode: 'INR' } },
    { scheme: 'ru-fns', text: 't=20240315T1432&s=1234.50&fn=9960440300123456&i=12345&fp=1234567890&n=1',
      fields: { totalAmount: 1234.5, date: '2024-03-15', time: '14:32:00', currencyCode: 'RUB' } },
    { scheme: 'br-nfe', variant: 'nfce-online', text: `https://www.nfce.fazenda.sp.gov.br/qrcode?p=${nfeKey()}|2|1|1|3A0F5E0C6B8A9C1D2E3F4A5B6C7D8E9F0A1B2C3D`,
      fields: { merchantTaxId: '11222333000181', invoiceNumber: '12345', currencyCode: 'BRL' } },
    { scheme: 'br-nfe', variant: 'nfce-offline', text: `https://www.sefaz.rs.gov.br/NFCE/NFCE-COM.aspx?p=${nfeKey({ emission: '9' })}|2|1|15|87.90|6a4f3d2c1b0a|1|3A0F5E0C6B8A9C1D2E3F4A5B6C7D8E9F0A1B2C3D`,
      fields: { totalAmount: 87.9, date: '2024-03-15', merchantTaxId: '11222333000181', invoiceNumber: '12345', currencyCode: 'BRL' } },
    { scheme: 'br-nfe', variant: 'access-key-code128', format: 'Code128', text: nfeKey({ model: '55' }),
      fields: { merchantTaxId: '11222333000181', invoiceNumber: '12345', currencyCode: 'BRL' } },
    { scheme: 'pt-atcud', text: 'A:123456789*B:999999990*C:PT*D:FS*E:N*F:20240315*G:FS CDVF/12345*H:CSDF7T5H-12345*I1:PT*I7:10.00*I8:2.30*N:2.30*O:12.30*Q:bhGU*R:9999',
      fields: { totalAmount: 12.3, taxAmount: 2.3, date: '2024-03-15', merchantTaxId: '123456789', invoiceNumber: 'FS CDVF/12345', currencyCode: 'EUR' } },
    { scheme: 'es-ticketbai', text: 'https://batuz.eus/QRTBAI/?id=TBAI-00000006Y-251019-btFpwP8dcLGAF-237&s=B&nf=27174&i=4.70&cr=007',
      fields: { totalAmount: 4.7, date: '2019-10-25', merchantTaxId: '00000006Y', invoiceNumber: 'B27174', currencyCode: 'EUR' } },
    { scheme: 'es-verifactu', text: 'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678%26G33&fecha=01-09-2024&importe=241.4',
      fields: { totalAmount: 241.4, date: '2024-09-01', merchantTaxId: '89890001K', invoiceNumber: '12345678&G33', currencyCode: 'EUR' } },
    { scheme: 'hr-fiskalizacija', text: 'https://porezna.gov.hr/rn?jir=9cb2e6a6-2a4b-4b8e-9a3f-1b2c3d4e5f60&datv=20240315_1432&izn=1250',
      fields: { totalAmount: 12.5, date: '2024-03-15', time: '14:32:00', currencyCode: 'EUR' } },
  ];
}

/** The dark modules of a code: `{ cols, rows, dark(x, y) }` (a 1-D barcode has one row). */
export async function codeModules(text: string, format = 'QRCode'): Promise<CodeModules> {
  if (format === 'QRCode') {
    const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const n = qr.modules.size;
    return { cols: n, rows: n, dark: (x: number, y: number) => !!qr.modules.get(y, x) };
  }
  await writer();
  const r = await writeBarcode(text, { format: format as WriteInputBarcodeFormat, scale: 1, addQuietZones: false });
  if (r.error) throw new Error(r.error);
  const s = r.symbol;
  return { cols: s.width, rows: 1, dark: (x: number) => (s.data[x] ?? 255) < 128 };
}

/** SVG of the code at `module` px a module (1-D: bars `barHeight` tall), top-left at (x, y). */
export function codeSvg(m: CodeModules, x: number, y: number, module: number, barHeight = 60): string {
  let d = '';
  for (let r = 0; r < m.rows; r++) {
    for (let c = 0; c < m.cols; c++) if (m.dark(c, r)) d += `M${x + c * module},${y + r * module}h${module}v${m.rows === 1 ? barHeight : module}h${-module}z`;
  }
  return `<path d="${d}" fill="#1a1a1a"/>`;
}

const LINES = ['SIMPLIFIED TAX INVOICE', 'Store 0042  Till 3', '2x Coffee beans 500g      23.80', '1x Milk 1L                 2.10', '1x Bread                   3.40', 'Subtotal                  29.30', 'VAT                        4.40', 'TOTAL                     33.70', 'Card                      33.70', 'Thank you for shopping with us'];

/**
 * A receipt-like JPEG with one code: `module` px a module, `blur` (Gaussian sigma, px), `tilt` (degrees),
 * `quality` (JPEG). `format`: zxing's name of the code (QRCode, EAN13, Code128, ...). Returns the bytes
 * and where the code was drawn (before tilting).
 */
export async function receiptWithCode(text: string, opts: { format?: string; module?: number; blur?: number; tilt?: number; quality?: number; width?: number; lines?: string[] } = {}): Promise<{ bytes: Buffer; box: { x: number; y: number; width: number; height: number } }> {
  const { format = 'QRCode', module = 4, blur = 0, tilt = 0, quality = 85, width = 760, lines = LINES } = opts;
  const m = await codeModules(text, format);
  const codeW = m.cols * module, codeH = m.rows === 1 ? 70 : m.rows * module;
  const top = 60 + lines.length * 34 + 30;
  const height = top + codeH + 120;
  const W = Math.max(width, codeW + 80);
  const x = Math.round((W - codeW) / 2);
  const text_ = lines.map((l, i) => `<text x="40" y="${60 + i * 34}" font-family="DejaVu Sans Mono" font-size="24" fill="#222">${l.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" xml:space="preserve" width="${W}" height="${height}"><rect width="100%" height="100%" fill="#f4f1ea"/>${text_}${codeSvg(m, x, top, module, 70)}</svg>`;
  let img = sharp(Buffer.from(svg)).flatten({ background: '#f4f1ea' });
  if (blur > 0) img = sharp(await img.blur(blur).png().toBuffer());
  if (tilt) img = sharp(await img.rotate(tilt, { background: '#f4f1ea' }).png().toBuffer());
  return { bytes: await img.jpeg({ quality }).toBuffer(), box: { x, y: top, width: codeW, height: codeH } };
}

/**
 * A photo with a code printed on it (the bench's corpus photos): the code drawn at `module` px a module
 * on a white label at (`x`, `y`) as fractions of the photo, blurred and tilted with the label.
 */
export async function photoWithCode(photo: Buffer | string, text: string, opts: { format?: string; module?: number; blur?: number; tilt?: number; x?: number; y?: number; quality?: number } = {}): Promise<{ bytes: Buffer | null; fits: boolean }> {
  const { format = 'QRCode', module = 3, blur = 0, tilt = 0, x = 0.3, y = 0.6, quality = 85 } = opts;
  const m = await codeModules(text, format);
  const pad = 4 * module;
  const cw = m.cols * module + 2 * pad, ch = (m.rows === 1 ? 70 : m.rows * module) + 2 * pad;
  let label = sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${cw}" height="${ch}"><rect width="100%" height="100%" fill="#f7f7f2"/>${codeSvg(m, pad, pad, module, 70)}</svg>`)).png();
  if (tilt) label = sharp(await label.rotate(tilt, { background: '#00000000' }).png().toBuffer());
  const lb = await label.png().toBuffer();
  const base = sharp(photo).rotate();
  const meta = await base.clone().metadata();
  const lm = await sharp(lb).metadata();
  const W = meta.autoOrient?.width ?? meta.width ?? 0, H = meta.autoOrient?.height ?? meta.height ?? 0;
  const lw = lm.width ?? 0, lh = lm.height ?? 0;
  if (lw > W || lh > H) return { bytes: null, fits: false };
  const left = Math.max(0, Math.min(W - lw, Math.round(W * x))), topPx = Math.max(0, Math.min(H - lh, Math.round(H * y)));
  let out = base.composite([{ input: lb, left, top: topPx }]);
  if (blur > 0) out = sharp(await out.png().toBuffer()).blur(blur);
  return { bytes: await out.jpeg({ quality }).toBuffer(), fits: lw <= W && lh <= H };
}
