#!/usr/bin/env node
// Generates the synthetic fixtures in fixtures/: receipts and invoices with known values, rendered from text
// with sharp (SVG -> PNG/JPEG) and hand-written PDF syntax. Deterministic: the same inputs give the same bytes
// (with the same sharp/libvips and fonts). The generated files are kept in the repository, so a fresh clone
// needs no fonts; run this only to change them:   node scripts/make-fixtures.mjs [name ...]
// (names, e.g. `receipt-bg-cyrillic`: only those files and their expected.json are written).
//
// Needs the DejaVu fonts (Debian/Ubuntu: apt-get install fonts-dejavu-core).
// Every merchant, address, phone and id below is invented. Amounts are computed in cents from the item
// list, so the printed figures and <name>.expected.json cannot drift apart.
import sharp from 'sharp';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
const MONO = 'DejaVu Sans Mono';
const SANS = 'DejaVu Sans';

// ------------------------------------------------------------------ font check
function fontsInstalled() {
  try {
    const families = execFileSync('fc-list', [':', 'family'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return [MONO, SANS].every((f) => families.split('\n').some((l) => l.split(',').map((s) => s.trim()).includes(f)));
  } catch {
    // No fontconfig tools: look for the files where Debian puts them.
    return ['DejaVuSansMono.ttf', 'DejaVuSans.ttf'].every((f) => fs.existsSync(`/usr/share/fonts/truetype/dejavu/${f}`));
  }
}
if (!fontsInstalled()) {
  console.error(`make-fixtures: the fonts "${MONO}" and "${SANS}" are needed to render the fixtures, and fontconfig does not list them.
  Debian/Ubuntu: apt-get install fonts-dejavu-core      Alpine: apk add font-dejavu      macOS: brew install --cask font-dejavu
The fixtures in fixtures/ are kept in the repository, so you only need the fonts to change them.`);
  process.exit(1);
}
fs.mkdirSync(OUT, { recursive: true });

// ------------------------------------------------------------------ helpers
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const cents = (x) => Math.round(x * 100);
const money = (c) => c / 100;
const WIDTH = 42; // characters per receipt line
/** Left text, right text, padded to the receipt width. */
const row = (left, right = '') => left + ' '.repeat(Math.max(1, WIDTH - left.length - right.length)) + right;
/** Fixed columns: [text, width, 'l'|'r'] ... */
const cols = (...cells) => cells.map(([t, w, a]) => (a === 'r' ? String(t).padStart(w) : String(t).padEnd(w))).join('');
const rule = '-'.repeat(WIDTH);
const fmtMY = (c) => (c / 100).toFixed(2);
const fmtUS = (c) => (c / 100).toFixed(2);
const fmtID = (c) => String(Math.round(c / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
const fmtFR = (c) => `${(c / 100).toFixed(2).replace('.', ',')} €`;

/**
 * Renders receipt lines (`{ t, size?, bold?, center? }`, `t` in monospace) as black text on white.
 * @returns {import('sharp').Sharp}
 */
function renderReceipt(lines, { width = 720, size = 24, pad = 36 } = {}) {
  let y = pad;
  const parts = [];
  for (const l of lines) {
    const s = l.size ?? size;
    y += Math.round(s * 1.5);
    const x = l.center ? width / 2 : pad;
    parts.push(`<text x="${x}" y="${y}" font-family="${MONO}" font-size="${s}"${l.bold ? ' font-weight="bold"' : ''}${l.center ? ' text-anchor="middle"' : ''} xml:space="preserve">${esc(l.t)}</text>`);
  }
  const height = y + pad * 2;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#ffffff"/><g fill="#000000">${parts.join('')}</g></svg>`;
  return sharp(Buffer.from(svg), { density: 72 }).flatten({ background: '#ffffff' }).toColourspace('b-w');
}

const ORDER = ['merchantName', 'merchantAddress', 'merchantCity', 'merchantPostalCode', 'merchantState', 'merchantCountryCode',
  'date', 'time', 'dueDate', 'receiptNumber', 'invoiceNumber', 'currency', 'pricesIncludeTax', 'subtotalAmount', 'taxAmount', 'taxRate',
  'roundingAmount', 'totalAmount', 'paidAmount', 'paymentType', 'cardLast4', 'rotation', 'pages', 'textLayer', 'lineItems'];
/** The fixtures named on the command line (base names), or every one. */
const ONLY = process.argv.slice(2).map((n) => n.replace(/\.[^.]+$/, ''));
const wanted = (name) => !ONLY.length || ONLY.includes(name.replace(/\.[^.]+$/, ''));
function writeExpected(name, exp) {
  if (!wanted(name)) return;
  const unknown = Object.keys(exp).filter((k) => !ORDER.includes(k));
  if (unknown.length) throw new Error(`${name}: unknown expected keys ${unknown.join(', ')}`);
  const sorted = Object.fromEntries(ORDER.filter((k) => exp[k] !== undefined).map((k) => [k, exp[k]]));
  fs.writeFileSync(path.join(OUT, `${name}.expected.json`), JSON.stringify(sorted, null, 2) + '\n');
}
/** items: [name, quantity, unitPriceCents] -> expected line items (and their total in cents). */
function lineItems(items) {
  const out = items.map(([name, quantity, unit]) => ({ name, quantity, unitPrice: money(unit), totalPrice: money(quantity * unit) }));
  return { out, sum: items.reduce((a, [, q, u]) => a + q * u, 0) };
}
const written = [];
async function save(name, pipeline) {
  if (!wanted(name)) return;
  await pipeline.toFile(path.join(OUT, name));
  written.push(name);
}
function put(name, bytes) {
  if (!wanted(name)) return;
  fs.writeFileSync(path.join(OUT, name), bytes);
  written.push(name);
}

// ------------------------------------------------------------------ 1. Malaysian receipt (SST, rounding, cash)
{
  const items = [['NASI LEMAK AYAM', 2, 850], ['TEH TARIK', 2, 280], ['ROTI CANAI', 3, 160]];
  const { out, sum: subtotal } = lineItems(items);
  const tax = Math.round(subtotal * 0.06); // 164
  const beforeRounding = subtotal + tax; // 2904
  const total = Math.round(beforeRounding / 5) * 5; // Malaysian rounding to 5 sen: 2905
  const rounding = total - beforeRounding;
  const paid = 5000;
  const lines = [
    { t: 'KEDAI MAKAN SERI MURNI SDN BHD', bold: true, center: true, size: 26 },
    { t: 'CO. REG NO: 1234567-X', center: true },
    { t: 'NO 12, JALAN MAWAR 3, TAMAN BUNGA,', center: true },
    { t: '43300 SERI KEMBANGAN, SELANGOR', center: true },
    { t: 'TEL: 03-8941 0000', center: true },
    { t: 'SST REG NO: W10-1808-32000123', center: true },
    { t: 'TAX INVOICE', center: true, bold: true },
    { t: row('RECEIPT NO: R000123', 'CASHIER: 02') },
    { t: row('DATE: 12/03/2024 14:35') },
    { t: rule },
    { t: cols(['ITEM', 20], ['QTY', 4, 'r'], ['U.PRICE', 9, 'r'], ['AMOUNT', 9, 'r']) },
    { t: rule },
    ...items.map(([n, q, u]) => ({ t: cols([n, 20], [q, 4, 'r'], [fmtMY(u), 9, 'r'], [fmtMY(q * u), 9, 'r']) })),
    { t: rule },
    { t: row('SUBTOTAL', fmtMY(subtotal)) },
    { t: row('SST 6%', fmtMY(tax)) },
    { t: row('ROUNDING', fmtMY(rounding)) },
    { t: row('TOTAL', `RM ${fmtMY(total)}`), bold: true },
    { t: row('CASH', fmtMY(paid)) },
    { t: row('CHANGE', fmtMY(paid - total)) },
    { t: rule },
    { t: cols(['SST SUMMARY', 16], ['AMOUNT(RM)', 13, 'r'], ['TAX(RM)', 13, 'r']) },
    { t: cols(['S @ 6%', 16], [fmtMY(subtotal), 13, 'r'], [fmtMY(tax), 13, 'r']) },
    { t: 'THANK YOU, PLEASE COME AGAIN', center: true },
  ];
  await save('receipt-en-simple.png', renderReceipt(lines).png({ compressionLevel: 9, palette: true, colours: 16 }));
  writeExpected('receipt-en-simple', {
    merchantName: 'KEDAI MAKAN SERI MURNI SDN BHD', merchantAddress: 'NO 12, JALAN MAWAR 3, TAMAN BUNGA, 43300 SERI KEMBANGAN, SELANGOR',
    merchantCity: 'SERI KEMBANGAN', merchantPostalCode: '43300', merchantState: 'SELANGOR', merchantCountryCode: 'MY',
    date: '2024-03-12', time: '14:35', receiptNumber: 'R000123', currency: 'MYR', pricesIncludeTax: false,
    subtotalAmount: money(subtotal), taxAmount: money(tax), taxRate: 0.06, roundingAmount: money(rounding), totalAmount: money(total),
    paidAmount: money(paid), paymentType: 'cash', lineItems: out,
  });
}

// ------------------------------------------------------------------ 2. Indonesian receipt, thousands with dots, rotated 90° in its pixels
{
  const items = [['KOPI SUSU GULA AREN', 2, 1_400_000], ['ROTI BAKAR COKLAT', 1, 1_500_000]];
  const { out, sum: subtotal } = lineItems(items); // 43.000
  const tax = Math.round(subtotal * 0.10); // restaurant tax (PB1) 10 %, on top
  const total = subtotal + tax;
  const paid = 5_000_000;
  const lines = [
    { t: 'WARUNG KOPI SENJA', bold: true, center: true, size: 28 },
    { t: 'Jl. Melati No. 8, Sanur', center: true },
    { t: 'Denpasar, Bali 80228', center: true },
    { t: 'Telp. 0361-280000', center: true },
    { t: rule },
    { t: 'No. Struk : 2310140057' },
    { t: 'Tanggal   : 14-10-2023 19:05' },
    { t: 'Kasir     : 03' },
    { t: rule },
    ...items.flatMap(([n, q, u]) => [{ t: n }, { t: row(`  ${q} x ${fmtID(u)}`, fmtID(q * u)) }]),
    { t: rule },
    { t: row('Subtotal', fmtID(subtotal)) },
    { t: row('Pajak 10%', fmtID(tax)) },
    { t: row('Total', fmtID(total)), bold: true },
    { t: row('Tunai', fmtID(paid)) },
    { t: row('Kembalian', fmtID(paid - total)) },
    { t: rule },
    { t: 'Terima kasih atas kunjungan Anda', center: true },
  ];
  const upright = await renderReceipt(lines).png().toBuffer();
  // Rotated in the pixels (a sideways photo), no EXIF orientation: the library must find the orientation itself.
  await save('receipt-id-rotated.jpg', sharp(upright).rotate(90).toColourspace('b-w').jpeg({ quality: 85, mozjpeg: false }));
  writeExpected('receipt-id-rotated', {
    merchantName: 'WARUNG KOPI SENJA', merchantAddress: 'Jl. Melati No. 8, Sanur, Denpasar, Bali 80228',
    merchantCity: 'Denpasar', merchantPostalCode: '80228', merchantState: 'Bali', merchantCountryCode: 'ID',
    date: '2023-10-14', time: '19:05', receiptNumber: '2310140057', currency: 'IDR', pricesIncludeTax: false,
    subtotalAmount: money(subtotal), taxAmount: money(tax), taxRate: 0.1, totalAmount: money(total), paidAmount: money(paid), paymentType: 'cash',
    rotation: 90, lineItems: out,
  });
}

// ------------------------------------------------------------------ 3. US receipt, month-first date, card payment
{
  const items = [['COFFEE BEANS 12OZ', 1, 1399], ['OAT MILK 64OZ', 2, 449], ['BAGELS 6CT', 1, 525]];
  const { out, sum: subtotal } = lineItems(items);
  const tax = Math.round(subtotal * 0.085); // 240
  const total = subtotal + tax;
  const lines = [
    { t: 'GREENLEAF GROCERY', bold: true, center: true, size: 28 },
    { t: '415 MAPLE AVENUE', center: true },
    { t: 'SPRINGFIELD, IL 62704', center: true },
    { t: '(217) 555-0142', center: true },
    { t: row('STORE 0118  REG 03', 'TRANS# 004512') },
    { t: row('03/07/2024', '6:42 PM') },
    { t: rule },
    ...items.flatMap(([n, q, u]) => (q > 1 ? [{ t: n }, { t: row(`   ${q} @ ${fmtUS(u)}`, fmtUS(q * u)) }] : [{ t: row(n, fmtUS(u)) }])),
    { t: rule },
    { t: row('SUBTOTAL', fmtUS(subtotal)) },
    { t: row('SALES TAX 8.5%', fmtUS(tax)) },
    { t: row('TOTAL', `$${fmtUS(total)}`), bold: true },
    { t: row('VISA ****1234', `$${fmtUS(total)}`) },
    { t: 'AUTH CODE 083521' },
    { t: `ITEMS SOLD ${items.reduce((a, [, q]) => a + q, 0)}` },
    { t: 'THANK YOU FOR SHOPPING WITH US', center: true },
  ];
  await save('receipt-us.jpg', renderReceipt(lines).jpeg({ quality: 85, mozjpeg: false }));
  writeExpected('receipt-us', {
    merchantName: 'GREENLEAF GROCERY', merchantAddress: '415 MAPLE AVENUE, SPRINGFIELD, IL 62704',
    merchantCity: 'SPRINGFIELD', merchantPostalCode: '62704', merchantState: 'IL', merchantCountryCode: 'US',
    date: '2024-03-07', time: '18:42', receiptNumber: '004512', currency: 'USD', pricesIncludeTax: false,
    subtotalAmount: money(subtotal), taxAmount: money(tax), taxRate: 0.085, totalAmount: money(total), paidAmount: money(total),
    paymentType: 'visa', cardLast4: '1234', lineItems: out,
  });
}

// ------------------------------------------------------------------ 4. French receipt, decimal comma, prices include TVA
{
  const items = [['CROISSANT', 2, 120], ['BAGUETTE TRADITION', 1, 130], ['TARTE AUX POMMES', 1, 880]];
  const { out, sum: total } = lineItems(items); // TTC: the item prices include the tax
  const net = Math.round(total / 1.055); // TOTAL HT
  const tax = total - net; // TVA 5,5 %
  const lines = [
    { t: 'BOULANGERIE DU CANAL', bold: true, center: true, size: 28 },
    { t: '14 RUE DES LILAS', center: true },
    { t: '75011 PARIS', center: true },
    { t: 'TEL 01 99 00 12 34', center: true },
    { t: 'SIRET 123 456 789 00012', center: true },
    { t: rule },
    { t: row('TICKET: 000872', 'CAISSE 2') },
    { t: row('05/03/2024', '08:12') },
    { t: rule },
    ...items.map(([n, q, u]) => ({ t: row(q > 1 ? `${q} ${n} x ${fmtFR(u).replace(' €', '')}` : `${q} ${n}`, fmtFR(q * u)) })),
    { t: rule },
    { t: row('TOTAL TTC', fmtFR(total)), bold: true },
    { t: row('TOTAL HT', fmtFR(net)) },
    { t: row('TVA 5,5%', fmtFR(tax)) },
    { t: row('CB', fmtFR(total)) },
    { t: 'MERCI DE VOTRE VISITE', center: true },
  ];
  await save('receipt-eu.png', renderReceipt(lines).png({ compressionLevel: 9, palette: true, colours: 16 }));
  writeExpected('receipt-eu', {
    merchantName: 'BOULANGERIE DU CANAL', merchantAddress: '14 RUE DES LILAS, 75011 PARIS',
    merchantCity: 'PARIS', merchantPostalCode: '75011', merchantCountryCode: 'FR',
    date: '2024-03-05', time: '08:12', receiptNumber: '000872', currency: 'EUR', pricesIncludeTax: true,
    subtotalAmount: money(net), taxAmount: money(tax), taxRate: 0.055, totalAmount: money(total), paidAmount: money(total),
    paymentType: 'card', lineItems: out,
  });
}

// ------------------------------------------------------------------ 5./6. Invoice: digital PDF (text layer) and scanned PDF (one JPEG, no text)
/**
 * A minimal PDF 1.4 with a correct xref table. pages: [{ text: [[x, y, size, string, bold?]] } | { jpeg, w, h }]
 * (A4 portrait, 595 x 842 pt, origin bottom left). Strings are WinAnsi (Latin-1) with Helvetica.
 */
function pdf(pages) {
  const objs = [];
  const add = (o) => { objs.push(o); return objs.length; };
  const catalog = add(null), pagesObj = add(null);
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const fontBold = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const info = add('<< /Producer (receiptkit make-fixtures) /Title (Synthetic invoice) >>');
  const kids = [];
  for (const p of pages) {
    let content, res;
    if (p.text) {
      content = p.text.map(([x, y, s, t, bold]) => `BT /${bold ? 'F2' : 'F1'} ${s} Tf ${x} ${y} Td (${t.replace(/[\\()]/g, (c) => '\\' + c)}) Tj ET`).join('\n');
      res = `<< /Font << /F1 ${font} 0 R /F2 ${fontBold} 0 R >> /ProcSet [/PDF /Text] >>`;
    } else {
      const img = add({ stream: p.jpeg, dict: `<< /Type /XObject /Subtype /Image /Width ${p.w} /Height ${p.h} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length ${p.jpeg.length} >>` });
      const h = Math.round((595 * p.h) / p.w);
      content = `q 595 0 0 ${h} 0 ${842 - h} cm /Im1 Do Q`;
      res = `<< /XObject << /Im1 ${img} 0 R >> /ProcSet [/PDF /ImageB] >>`;
    }
    const c = add({ stream: Buffer.from(content, 'latin1'), dict: `<< /Length ${Buffer.byteLength(content, 'latin1')} >>` });
    kids.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 595 842] /Resources ${res} /Contents ${c} 0 R >>`));
  }
  objs[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objs[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const chunks = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0].length;
  const offsets = [];
  objs.forEach((o, i) => {
    offsets.push(offset);
    const body = typeof o === 'string'
      ? Buffer.from(`${i + 1} 0 obj\n${o}\nendobj\n`, 'latin1')
      : Buffer.concat([Buffer.from(`${i + 1} 0 obj\n${o.dict}\nstream\n`, 'latin1'), o.stream, Buffer.from('\nendstream\nendobj\n', 'latin1')]);
    chunks.push(body);
    offset += body.length;
  });
  // Each xref entry is exactly 20 bytes: 10-digit offset, space, 5-digit generation, space, n/f, space, LF.
  const xref = `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  const trailer = `trailer\n<< /Size ${objs.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${offset}\n%%EOF\n`;
  chunks.push(Buffer.from(xref + trailer, 'latin1'));
  return Buffer.concat(chunks);
}
{
  const items = [['Logo design package', 1, 120000], ['Business card layout', 2, 15000], ['Brand guideline booklet', 1, 45000]];
  const { out, sum: subtotal } = lineItems(items);
  const tax = Math.round(subtotal * 0.19);
  const total = subtotal + tax;
  const eur = (c) => (c / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).replace(/[^\d.,]/g, '');
  // [x, y, size, text, bold?] in PDF points
  const text = [
    [50, 790, 18, 'Nordlicht Design GmbH', true], [50, 772, 10, 'Hauptstrasse 21, 10115 Berlin, Germany'],
    [50, 758, 10, 'VAT ID: DE000000000'], [400, 790, 16, 'INVOICE', true],
    [400, 770, 10, 'Invoice No: INV-2024-0042'], [400, 756, 10, 'Invoice Date: 2024-04-18'], [400, 742, 10, 'Due Date: 2024-05-18'],
    [50, 712, 10, 'Bill To:', true], [50, 698, 10, 'Harbor Analytics Ltd'], [50, 684, 10, '7 Quay Street, Dublin, Ireland'],
    [50, 650, 10, 'Description', true], [330, 650, 10, 'Qty', true], [390, 650, 10, 'Unit Price', true], [490, 650, 10, 'Amount', true],
    ...items.flatMap(([n, q, u], i) => {
      const y = 630 - i * 16;
      return [[50, y, 10, n], [330, y, 10, String(q)], [390, y, 10, eur(u)], [490, y, 10, eur(q * u)]];
    }),
    [390, 570, 10, 'Subtotal'], [490, 570, 10, eur(subtotal)], [390, 554, 10, 'VAT 19%'], [490, 554, 10, eur(tax)],
    [390, 534, 12, 'Total EUR', true], [490, 534, 12, eur(total), true],
    [50, 480, 9, 'Payment within 30 days. IBAN DE00 0000 0000 0000 0000 00'],
  ];
  put('invoice.pdf', pdf([{ text }]));
  const expected = {
    merchantName: 'Nordlicht Design GmbH', merchantAddress: 'Hauptstrasse 21, 10115 Berlin, Germany',
    merchantCity: 'Berlin', merchantPostalCode: '10115', merchantCountryCode: 'DE',
    date: '2024-04-18', dueDate: '2024-05-18', invoiceNumber: 'INV-2024-0042', currency: 'EUR', pricesIncludeTax: false,
    subtotalAmount: money(subtotal), taxAmount: money(tax), taxRate: 0.19, totalAmount: money(total), pages: 1, lineItems: out,
  };
  writeExpected('invoice', { ...expected, textLayer: true });

  // The same invoice "scanned": rendered at 150 dpi, grey JPEG, as the only content of the page.
  const W = 1240, H = 1754, k = W / 595;
  const parts = text.map(([x, y, s, t, bold]) => `<text x="${Math.round(x * k)}" y="${Math.round((842 - y) * k)}" font-family="${SANS}" font-size="${Math.round(s * k)}"${bold ? ' font-weight="bold"' : ''} xml:space="preserve">${esc(t)}</text>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#ffffff"/><g fill="#000000">${parts.join('')}</g></svg>`;
  const jpeg = await sharp(Buffer.from(svg), { density: 72 }).flatten({ background: '#ffffff' }).toColourspace('b-w').jpeg({ quality: 75, mozjpeg: false }).toBuffer();
  put('invoice-scanned.pdf', pdf([{ jpeg, w: W, h: H }]));
  writeExpected('invoice-scanned', { ...expected, textLayer: false });
}

// ------------------------------------------------------------------ 7. Bulgarian receipt, Cyrillic (issue 50 item 3)
// A script none of the installed OCR data reads (eng, deu, fra, ind, vie): the page's script is detected and
// named in a warning (@tesseract.js-data/bul reads it); the figures are what the English model still reads.
// Prices include the VAT (ДДС 20%); the money is in leva (лв.).
{
  const items = [['Хляб бял', 2, 150], ['Прясно мляко', 1, 280], ['Сирене краве', 1, 940], ['Домати', 2, 325]];
  const { out, sum: total } = lineItems(items); // 2170
  const tax = Math.round(total - total / 1.2); // 362
  const paid = 3000;
  const lines = [
    { t: 'БАКАЛИЯ ПРИ ГОШО ЕООД', bold: true, center: true, size: 26 },
    { t: 'гр. София, ул. Витоша 12', center: true },
    { t: 'ЕИК 123456789', center: true },
    { t: row('Бон № 0004512', 'Каса 2') },
    { t: row('Дата: 12.03.2024', 'Час: 14:35') },
    { t: rule },
    ...items.map(([n, q, u]) => ({ t: cols([n, 20], [`${q} x`, 5, 'r'], [fmtMY(u), 8, 'r'], [fmtMY(q * u), 9, 'r']) })),
    { t: rule },
    { t: row('МЕЖДИННА СУМА', fmtMY(total - tax)) },
    { t: row('ДДС 20%', fmtMY(tax)) },
    { t: row('ОБЩА СУМА', `${fmtMY(total)} лв.`), bold: true },
    { t: row('В БРОЙ', fmtMY(paid)) },
    { t: row('РЕСТО', fmtMY(paid - total)) },
    { t: rule },
    { t: 'Благодарим Ви!', center: true },
  ];
  await save('receipt-bg-cyrillic.png', renderReceipt(lines).png({ compressionLevel: 9, palette: true, colours: 16 }));
  writeExpected('receipt-bg-cyrillic', {
    merchantName: 'БАКАЛИЯ ПРИ ГОШО ЕООД', merchantAddress: 'гр. София, ул. Витоша 12', merchantCity: 'София', merchantCountryCode: 'BG',
    date: '2024-03-12', time: '14:35', receiptNumber: '0004512', currency: 'BGN', pricesIncludeTax: true,
    subtotalAmount: money(total - tax), taxAmount: money(tax), taxRate: 0.2, totalAmount: money(total), paidAmount: money(paid),
    paymentType: 'cash', lineItems: out,
  });
}

// ------------------------------------------------------------------ summary
let totalBytes = 0;
console.log(`fixtures written to ${OUT}`);
for (const f of written) {
  const size = fs.statSync(path.join(OUT, f)).size;
  totalBytes += size + fs.statSync(path.join(OUT, f.replace(/\.[^.]+$/, '.expected.json'))).size;
  console.log(`  ${f.padEnd(24)} ${String(size).padStart(7)} bytes  + ${f.replace(/\.[^.]+$/, '.expected.json')}`);
}
console.log(`  total ${(totalBytes / 1024).toFixed(0)} KB`);
if (totalBytes > 1024 * 1024) {
  console.error('make-fixtures: the fixtures are over 1 MB together; keep them small');
  process.exitCode = 1;
}
