#!/usr/bin/env node
// Generates the synthetic fixtures in fixtures/ (receipts and invoices with known values) from text,
// deterministically. Needs a monospace font (Debian: fonts-dejavu-core). The generated files are kept in
// the repository so a fresh clone needs no fonts.
import sharp from 'sharp';
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
fs.mkdirSync(OUT, { recursive: true });
try {
  if (!/DejaVu Sans Mono/.test(execSync('fc-list', { encoding: 'utf8' }))) throw new Error('missing');
} catch {
  console.error('make-fixtures: the DejaVu Sans Mono font is needed (Debian: apt-get install fonts-dejavu-core)');
  process.exit(1);
}

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Renders lines of monospace text (each `{ t, size?, bold?, center? }`) to an image buffer. */
async function render(lines, { width = 640, size = 22, pad = 30 } = {}) {
  let y = pad;
  const parts = [];
  for (const l of lines) {
    const s = l.size ?? size;
    y += Math.round(s * 1.45);
    const x = l.center ? width / 2 : pad;
    parts.push(`<text x="${x}" y="${y}" font-family="DejaVu Sans Mono" font-size="${s}" ${l.bold ? 'font-weight="bold"' : ''} ${l.center ? 'text-anchor="middle"' : ''} xml:space="preserve">${esc(l.t)}</text>`);
  }
  const height = y + pad * 2;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/><g fill="black">${parts.join('')}</g></svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: '#ffffff' });
}
const row = (left, right, w = 42) => left + ' '.repeat(Math.max(1, w - left.length - right.length)) + right;
const write = (name, expected) => fs.writeFileSync(path.join(OUT, `${name}.expected.json`), JSON.stringify(expected, null, 2) + '\n');

// 1. Malaysian-style receipt
{
  const items = [['NASI LEMAK AYAM', 2, 8.5], ['TEH TARIK', 2, 2.8], ['ROTI CANAI', 3, 1.6]];
  const subtotal = 27.4, tax = 1.64, rounding = 0.01, total = 29.05;
  const lines = [
    { t: 'KEDAI MAKAN SERI MURNI SDN BHD', bold: true, center: true, size: 24 },
    { t: '(CO. REG: 123456-X)', center: true },
    { t: 'NO 12, JALAN MAWAR 3, TAMAN BUNGA,', center: true },
    { t: '43300 SERI KEMBANGAN, SELANGOR', center: true },
    { t: 'TEL: 03-8941 2233', center: true },
    { t: 'SST NO: W10-1234-56789012', center: true },
    { t: 'TAX INVOICE', center: true, bold: true },
    { t: row('RECEIPT NO: R000123', '') },
    { t: row('DATE: 12/03/2024', 'TIME: 14:35') },
    { t: '-'.repeat(42) },
    ...items.map(([n, q, p]) => ({ t: row(`${q} x ${n}`, (q * p).toFixed(2)) })),
    { t: '-'.repeat(42) },
    { t: row('SUBTOTAL', subtotal.toFixed(2)) },
    { t: row('SST 6%', tax.toFixed(2)) },
    { t: row('ROUNDING', rounding.toFixed(2)) },
    { t: row('TOTAL', `RM ${total.toFixed(2)}`), bold: true },
    { t: row('CASH', '50.00') },
    { t: row('CHANGE', (50 - total).toFixed(2)) },
    { t: 'THANK YOU, PLEASE COME AGAIN', center: true },
  ];
  await (await render(lines)).png().toFile(path.join(OUT, 'receipt-en-simple.png'));
  write('receipt-en-simple', {
    merchantName: 'KEDAI MAKAN SERI MURNI SDN BHD', merchantAddress: 'NO 12, JALAN MAWAR 3, TAMAN BUNGA, 43300 SERI KEMBANGAN, SELANGOR',
    merchantPostalCode: '43300', merchantState: 'SELANGOR', merchantCountryCode: 'MY', date: '2024-03-12', time: '14:35',
    totalAmount: total, taxAmount: tax, subtotalAmount: subtotal, roundingAmount: rounding, paidAmount: 50, currency: 'MYR', receiptNumber: 'R000123',
    lineItems: items.map(([name, quantity, unitPrice]) => ({ name, quantity, unitPrice, totalPrice: Math.round(quantity * unitPrice * 100) / 100 })),
  });
}
// 2. Indonesian-style receipt, rotated 90 degrees in its pixels (no EXIF)
{
  const items = [['KOPI SUSU GULA AREN', 2, 18000], ['ROTI BAKAR COKLAT', 1, 15000]];
  const total = 51000;
  const fmt = (n) => n.toLocaleString('de-DE');
  const lines = [
    { t: 'WARUNG KOPI SENJA', bold: true, center: true, size: 24 },
    { t: 'Jl. Melati No. 8, Denpasar', center: true },
    { t: 'BALI 80361', center: true },
    { t: row('Tanggal: 14-10-2023', '19:05') },
    { t: row('No. Nota: 2310140057', '') },
    { t: '-'.repeat(42) },
    ...items.map(([n, q, p]) => ({ t: row(`${n} ${q}x`, fmt(q * p)) })),
    { t: '-'.repeat(42) },
    { t: row('Total', fmt(total)), bold: true },
    { t: row('Tunai', fmt(100000)) },
    { t: row('Kembalian', fmt(100000 - total)) },
    { t: 'Terima kasih', center: true },
  ];
  const img = await (await render(lines)).png().toBuffer();
  await sharp(img).rotate(90).jpeg({ quality: 90 }).toFile(path.join(OUT, 'receipt-id-rotated.jpg'));
  write('receipt-id-rotated', { merchantName: 'WARUNG KOPI SENJA', date: '2023-10-14', totalAmount: total, currency: 'IDR', paidAmount: 100000, rotation: 90,
    lineItems: items.map(([name, quantity, unitPrice]) => ({ name, quantity, unitPrice, totalPrice: quantity * unitPrice })) });
}
// 3. US-style receipt, month-first date, card payment
{
  const items = [['COFFEE BEANS 12OZ', 1, 13.99], ['OAT MILK 64OZ', 2, 4.49], ['BAGELS 6CT', 1, 5.25]];
  const subtotal = 28.22, tax = 2.4, total = 30.62;
  const lines = [
    { t: 'GREENLEAF GROCERY INC', bold: true, center: true, size: 24 },
    { t: '415 MAPLE AVENUE', center: true },
    { t: 'SPRINGFIELD, IL 62704', center: true },
    { t: '(217) 555-0142', center: true },
    { t: row('03/07/2024', '6:42 PM') },
    ...items.map(([n, q, p]) => ({ t: row(q > 1 ? `${n} ${q} @ ${p.toFixed(2)}` : n, `$${(q * p).toFixed(2)}`) })),
    { t: row('SUBTOTAL', `$${subtotal.toFixed(2)}`) },
    { t: row('SALES TAX 8.5%', `$${tax.toFixed(2)}`) },
    { t: row('TOTAL', `$${total.toFixed(2)}`), bold: true },
    { t: row('VISA ************1234', `$${total.toFixed(2)}`) },
    { t: 'THANK YOU FOR SHOPPING WITH US', center: true },
  ];
  await (await render(lines)).jpeg({ quality: 88 }).toFile(path.join(OUT, 'receipt-us.jpg'));
  write('receipt-us', { merchantName: 'GREENLEAF GROCERY INC', merchantAddress: '415 MAPLE AVENUE, SPRINGFIELD, IL 62704', date: '2024-03-07', totalAmount: total, taxAmount: tax, subtotalAmount: subtotal,
    currency: 'USD', paymentType: 'visa', cardLast4: '1234', merchantCountryCode: 'US',
    lineItems: items.map(([name, quantity, unitPrice]) => ({ name, quantity, unitPrice, totalPrice: Math.round(quantity * unitPrice * 100) / 100 })) });
}
// 4. French-style receipt, decimal comma
{
  const lines = [
    { t: 'BOULANGERIE DU CANAL SARL', bold: true, center: true, size: 24 },
    { t: '14 RUE DES LILAS', center: true },
    { t: '75011 PARIS', center: true },
    { t: row('05/03/2024', '08:12') },
    { t: row('2 CROISSANT', '2,40 €') },
    { t: row('1 BAGUETTE TRADITION', '1,30 €') },
    { t: row('1 TARTE AUX POMMES', '8,80 €') },
    { t: row('TOTAL TTC', '12,50 €'), bold: true },
    { t: row('DONT TVA 5,5%', '0,65 €') },
    { t: row('CB', '12,50 €') },
    { t: 'MERCI DE VOTRE VISITE', center: true },
  ];
  await (await render(lines)).png().toFile(path.join(OUT, 'receipt-eu.png'));
  write('receipt-eu', { merchantName: 'BOULANGERIE DU CANAL SARL', date: '2024-03-05', totalAmount: 12.5, taxAmount: 0.65, currency: 'EUR', merchantCountryCode: 'FR',
    lineItems: [{ name: 'CROISSANT', quantity: 2, unitPrice: 1.2, totalPrice: 2.4 }, { name: 'BAGUETTE TRADITION', quantity: 1, unitPrice: 1.3, totalPrice: 1.3 }, { name: 'TARTE AUX POMMES', quantity: 1, unitPrice: 8.8, totalPrice: 8.8 }] });
}

// 5. Digital PDF invoice with a text layer (hand-written PDF, Helvetica)
function pdf(pages) {
  // pages: [{ text: [[x, y, size, string]] } | { jpeg: Buffer, w, h }]
  const objs = [];
  const add = (s) => { objs.push(s); return objs.length; };
  const catalog = add(null), pagesObj = add(null), font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids = [];
  for (const p of pages) {
    let content, res;
    if (p.text) {
      content = p.text.map(([x, y, s, t]) => `BT /F1 ${s} Tf ${x} ${y} Td (${t.replace(/[\\()]/g, (c) => '\\' + c)}) Tj ET`).join('\n');
      res = `<< /Font << /F1 ${font} 0 R >> >>`;
    } else {
      const img = add({ stream: p.jpeg, dict: `<< /Type /XObject /Subtype /Image /Width ${p.w} /Height ${p.h} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length ${p.jpeg.length} >>` });
      content = `q 595 0 0 ${Math.round(595 * p.h / p.w)} 0 ${842 - Math.round(595 * p.h / p.w)} cm /Im1 Do Q`;
      res = `<< /XObject << /Im1 ${img} 0 R >> >>`;
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
    const head = Buffer.from(`${i + 1} 0 obj\n`, 'latin1');
    const body = typeof o === 'string' ? Buffer.from(o + '\n', 'latin1') : Buffer.concat([Buffer.from(o.dict + '\nstream\n', 'latin1'), o.stream, Buffer.from('\nendstream\n', 'latin1')]);
    const tail = Buffer.from('endobj\n', 'latin1');
    chunks.push(head, body, tail);
    offset += head.length + body.length + tail.length;
  });
  const xref = `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => String(o).padStart(10, '0') + ' 00000 n \n').join('')}trailer\n<< /Size ${objs.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${offset}\n%%EOF\n`;
  chunks.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(chunks);
}
const invoiceLines = [
  [50, 790, 18, 'Nordlicht Design GmbH'], [50, 772, 10, 'Hauptstrasse 21, 10115 Berlin, Germany'],
  [50, 758, 10, 'VAT ID: DE123456789'], [400, 790, 16, 'INVOICE'],
  [400, 770, 10, 'Invoice No: INV-2024-0042'], [400, 756, 10, 'Invoice Date: 2024-04-18'], [400, 742, 10, 'Due Date: 2024-05-18'],
  [50, 700, 10, 'Bill To: Harbor Analytics Ltd, 7 Quay Street, Dublin'],
  [50, 660, 10, 'Description'], [330, 660, 10, 'Qty'], [390, 660, 10, 'Unit Price'], [490, 660, 10, 'Amount'],
  [50, 640, 10, 'Logo design package'], [330, 640, 10, '1'], [390, 640, 10, '1,200.00'], [490, 640, 10, '1,200.00'],
  [50, 624, 10, 'Business card layout'], [330, 624, 10, '2'], [390, 624, 10, '150.00'], [490, 624, 10, '300.00'],
  [50, 608, 10, 'Brand guideline booklet'], [330, 608, 10, '1'], [390, 608, 10, '450.00'], [490, 608, 10, '450.00'],
  [390, 570, 10, 'Subtotal'], [490, 570, 10, '1,950.00'], [390, 554, 10, 'VAT 19%'], [490, 554, 10, '370.50'],
  [390, 534, 12, 'Total EUR'], [490, 534, 12, '2,320.50'],
  [50, 480, 9, 'Payment within 30 days. IBAN DE02 1203 0000 0000 2020 51'],
];
fs.writeFileSync(path.join(OUT, 'invoice.pdf'), pdf([{ text: invoiceLines }]));
const invoiceExpected = { merchantName: 'Nordlicht Design GmbH', date: '2024-04-18', dueDate: '2024-05-18', invoiceNumber: 'INV-2024-0042', totalAmount: 2320.5, taxAmount: 370.5, subtotalAmount: 1950, currency: 'EUR',
  lineItems: [{ name: 'Logo design package', quantity: 1, unitPrice: 1200, totalPrice: 1200 }, { name: 'Business card layout', quantity: 2, unitPrice: 150, totalPrice: 300 }, { name: 'Brand guideline booklet', quantity: 1, unitPrice: 450, totalPrice: 450 }] };
write('invoice', invoiceExpected);

// 6. The same invoice as a scan: one page that is only a JPEG (no text layer)
{
  const W = 1240, H = 1754, k = W / 595;
  const parts = invoiceLines.map(([x, y, s, t]) => `<text x="${Math.round(x * k)}" y="${Math.round((842 - y) * k)}" font-family="DejaVu Sans" font-size="${Math.round(s * k)}" xml:space="preserve">${esc(t)}</text>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="white"/><g fill="black">${parts.join('')}</g></svg>`;
  const jpeg = await sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).grayscale().jpeg({ quality: 80 }).toBuffer();
  fs.writeFileSync(path.join(OUT, 'invoice-scanned.pdf'), pdf([{ jpeg, w: W, h: H }]));
  write('invoice-scanned', invoiceExpected);
}
console.log('fixtures written to', OUT);
for (const f of fs.readdirSync(OUT)) console.log(' ', f, fs.statSync(path.join(OUT, f)).size);
