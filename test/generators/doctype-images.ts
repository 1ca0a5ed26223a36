// Generated pages that are not receipts (and screenshots of receipts that are), for documentType
// (issue 24 part 3): chat screenshots, web pages, letters, bank statements, text-free pictures, and
// receipts shown on a phone screen. Rendered offline with sharp from SVG (fonts: DejaVu, Debian
// `fonts-dejavu-core`). Deterministic: the same seed gives the same images.
//   import { doctypeImages } from './doctype-images.ts';
//   const list = await doctypeImages({ perKind: 14, scale: 1 });   // [{ kind, expect, name, bytes }]
// bench/doctype.mjs runs the engine over them; test/doctype-images.test.ts renders a few, small.
import sharp from 'sharp';
import { rng } from './rng.ts';
import type { Rng } from './rng.ts';

export type DoctypeKind = 'chat' | 'web' | 'letter' | 'bank-statement' | 'picture' | 'receipt-screenshot';
export interface DoctypeImage { kind: DoctypeKind; lang: string | null; expect: 'receipt' | 'other'; name: string; bytes: Buffer }
type Lang = keyof typeof TEXT;
interface TextStyle { size?: number; font?: string; fill?: string; weight?: string; anchor?: string; style?: string }

const FONTS = ['DejaVu Sans', 'DejaVu Serif', 'DejaVu Sans Mono', 'DejaVu Sans Condensed', 'DejaVu Serif Condensed'];
const esc = (s: unknown): string => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const pick = <T>(r: Rng, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
const money = (r: Rng, lo: number, hi: number): string => (lo + r() * (hi - lo)).toFixed(2);

/** Words of a few languages, for messages, paragraphs and labels. */
const TEXT = {
  en: {
    chat: ['Hey, are you coming tonight?', 'Running 10 minutes late, sorry!', 'Did you see the game yesterday?', 'Sure, see you at 7', 'Can you send me the photos from the trip?', 'Happy birthday!! 🎉', 'I paid 25.00 for the tickets, you owe me half', 'lol that is hilarious', 'Where should we meet?', 'Call me when you get home', 'The meeting moved to Thursday', 'Thanks so much for dinner'],
    para: ['We are writing to inform you about the upcoming changes to our service.', 'The new schedule will take effect from the first of next month.', 'Please do not hesitate to contact us if you have any questions.', 'Our team has been working hard to improve the experience for everyone.', 'Read more about how we protect your privacy and your data.', 'The committee will review all applications received before the deadline.', 'This article explains the history of the old town and its famous bridge.', 'Sign up for our newsletter to receive weekly updates and stories.'],
    web: ['Home', 'About', 'Blog', 'Contact', 'Products', 'News', 'Login', 'Search'],
    letter: ['Dear Mr. Thompson,', 'Yours sincerely,', 'Re: Your application', 'Kind regards,'],
    bank: ['ACCOUNT STATEMENT', 'Opening balance', 'Closing balance', 'Account number', 'Statement period', 'Date', 'Description', 'Debit', 'Credit', 'Balance', 'TRANSFER TO SAVINGS', 'DIRECT DEBIT ELECTRICITY', 'SALARY ACME LTD', 'CARD PAYMENT SUPERMARKET', 'ATM WITHDRAWAL', 'STANDING ORDER RENT'],
  },
  de: {
    chat: ['Hallo, kommst du heute Abend?', 'Bin in 10 Minuten da', 'Hast du das Spiel gestern gesehen?', 'Klar, bis später!', 'Kannst du mir die Fotos schicken?', 'Alles Gute zum Geburtstag!', 'Wo treffen wir uns?', 'Danke für das Essen gestern', 'Ruf mich an, wenn du zu Hause bist', 'Das Treffen ist auf Donnerstag verschoben'],
    para: ['Wir möchten Sie über die bevorstehenden Änderungen unseres Angebots informieren.', 'Die neuen Öffnungszeiten gelten ab dem ersten des kommenden Monats.', 'Bei Fragen stehen wir Ihnen jederzeit gerne zur Verfügung.', 'Lesen Sie mehr darüber, wie wir Ihre Daten schützen.', 'Der Ausschuss prüft alle Bewerbungen, die bis zum Stichtag eingehen.'],
    web: ['Startseite', 'Über uns', 'Blog', 'Kontakt', 'Produkte', 'Aktuelles', 'Anmelden', 'Suche'],
    letter: ['Sehr geehrte Frau Müller,', 'Mit freundlichen Grüßen', 'Betreff: Ihre Anfrage', 'Viele Grüße'],
    bank: ['KONTOAUSZUG', 'Alter Kontostand', 'Neuer Kontostand', 'Kontonummer', 'Zeitraum', 'Datum', 'Verwendungszweck', 'Soll', 'Haben', 'Saldo', 'ÜBERWEISUNG MIETE', 'LASTSCHRIFT STROM', 'GEHALT', 'KARTENZAHLUNG', 'BARGELDAUSZAHLUNG', 'DAUERAUFTRAG'],
  },
  fr: {
    chat: ['Salut, tu viens ce soir ?', "J'arrive dans 10 minutes", 'Tu as vu le match hier ?', 'Oui, à plus tard !', 'Tu peux m’envoyer les photos ?', 'Joyeux anniversaire !', 'On se retrouve où ?', 'Merci pour le dîner', 'Appelle-moi quand tu rentres'],
    para: ['Nous vous informons des prochains changements apportés à notre service.', 'Les nouveaux horaires entreront en vigueur le mois prochain.', "N'hésitez pas à nous contacter pour toute question.", 'Découvrez comment nous protégeons vos données personnelles.', 'Le comité examinera toutes les candidatures reçues avant la date limite.'],
    web: ['Accueil', 'À propos', 'Blog', 'Contact', 'Produits', 'Actualités', 'Connexion', 'Recherche'],
    letter: ['Madame, Monsieur,', 'Veuillez agréer mes salutations distinguées.', 'Objet : votre demande', 'Cordialement,'],
    bank: ['RELEVÉ DE COMPTE', 'Ancien solde', 'Nouveau solde', 'Numéro de compte', 'Période', 'Date', 'Libellé', 'Débit', 'Crédit', 'Solde', 'VIREMENT LOYER', 'PRÉLÈVEMENT EDF', 'SALAIRE', 'PAIEMENT CARTE', 'RETRAIT DAB', 'VIREMENT PERMANENT'],
  },
  es: {
    chat: ['Hola, ¿vienes esta noche?', 'Llego en 10 minutos', '¿Viste el partido ayer?', '¡Claro, nos vemos!', '¿Me mandas las fotos del viaje?', '¡Feliz cumpleaños!', '¿Dónde quedamos?', 'Gracias por la cena'],
    para: ['Le informamos de los próximos cambios en nuestro servicio.', 'El nuevo horario entrará en vigor el próximo mes.', 'No dude en ponerse en contacto con nosotros si tiene alguna pregunta.', 'Descubra cómo protegemos sus datos personales.'],
    web: ['Inicio', 'Nosotros', 'Blog', 'Contacto', 'Productos', 'Noticias', 'Entrar', 'Buscar'],
    letter: ['Estimado señor García:', 'Atentamente,', 'Asunto: su solicitud', 'Un cordial saludo,'],
    bank: ['EXTRACTO DE CUENTA', 'Saldo anterior', 'Saldo final', 'Número de cuenta', 'Periodo', 'Fecha', 'Concepto', 'Cargo', 'Abono', 'Saldo', 'TRANSFERENCIA ALQUILER', 'RECIBO LUZ', 'NÓMINA', 'PAGO CON TARJETA', 'REINTEGRO CAJERO', 'TRANSFERENCIA PERIÓDICA'],
  },
  id: {
    chat: ['Halo, kamu datang nanti malam?', 'Aku telat 10 menit ya', 'Udah lihat pertandingan kemarin?', 'Oke, sampai ketemu!', 'Kirimin foto-foto liburan dong', 'Selamat ulang tahun!', 'Ketemu di mana?', 'Makasih buat makan malamnya'],
    para: ['Kami ingin memberitahukan perubahan layanan kami dalam waktu dekat.', 'Jadwal baru akan berlaku mulai bulan depan.', 'Jangan ragu untuk menghubungi kami jika ada pertanyaan.', 'Pelajari bagaimana kami melindungi data pribadi Anda.'],
    web: ['Beranda', 'Tentang', 'Blog', 'Kontak', 'Produk', 'Berita', 'Masuk', 'Cari'],
    letter: ['Yth. Bapak Santoso,', 'Hormat kami,', 'Perihal: permohonan Anda', 'Salam,'],
    bank: ['REKENING KORAN', 'Saldo awal', 'Saldo akhir', 'Nomor rekening', 'Periode', 'Tanggal', 'Keterangan', 'Debet', 'Kredit', 'Saldo', 'TRANSFER KE TABUNGAN', 'PEMBAYARAN LISTRIK', 'GAJI', 'PEMBAYARAN KARTU', 'TARIK TUNAI ATM', 'AUTODEBET'],
  },
  vi: {
    chat: ['Chào bạn, tối nay bạn có đến không?', 'Mình đến muộn 10 phút nhé', 'Bạn xem trận đấu hôm qua chưa?', 'Được, hẹn gặp lại!', 'Gửi cho mình ảnh chuyến đi nhé', 'Chúc mừng sinh nhật!', 'Mình gặp nhau ở đâu?', 'Cảm ơn bữa tối nhé'],
    para: ['Chúng tôi xin thông báo về những thay đổi sắp tới của dịch vụ.', 'Lịch mới sẽ có hiệu lực từ đầu tháng sau.', 'Vui lòng liên hệ với chúng tôi nếu bạn có bất kỳ câu hỏi nào.', 'Tìm hiểu cách chúng tôi bảo vệ dữ liệu cá nhân của bạn.'],
    web: ['Trang chủ', 'Giới thiệu', 'Tin tức', 'Liên hệ', 'Sản phẩm', 'Đăng nhập', 'Tìm kiếm', 'Blog'],
    letter: ['Kính gửi ông Nguyễn Văn An,', 'Trân trọng,', 'V/v: yêu cầu của ông', 'Thân ái,'],
    bank: ['SAO KÊ TÀI KHOẢN', 'Số dư đầu kỳ', 'Số dư cuối kỳ', 'Số tài khoản', 'Kỳ sao kê', 'Ngày', 'Nội dung', 'Ghi nợ', 'Ghi có', 'Số dư', 'CHUYỂN KHOẢN', 'THANH TOÁN ĐIỆN', 'LƯƠNG', 'THANH TOÁN THẺ', 'RÚT TIỀN ATM', 'TRÍCH NỢ TỰ ĐỘNG'],
  },
};
const LANGS = Object.keys(TEXT) as Lang[];

function svg(w: number, h: number, body: string, bg = '#ffffff'): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="${bg}"/>${body}</svg>`;
}
const text = (x: number, y: number, s: unknown, { size = 16, font = FONTS[0], fill = '#111', weight = 'normal', anchor = 'start', style = 'normal' }: TextStyle = {}): string =>
  `<text x="${x}" y="${y}" font-family="${font}" font-size="${size}" font-weight="${weight}" font-style="${style}" fill="${fill}" text-anchor="${anchor}">${esc(s)}</text>`;

/** Splits a paragraph into lines of at most `n` characters. */
function wrap(s: string, n: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const w of s.split(' ')) {
    if ((line + ' ' + w).trim().length > n) { out.push(line); line = w; } else line = (line + ' ' + w).trim();
  }
  if (line) out.push(line);
  return out;
}

/** A phone's status bar (time, battery). */
const statusBar = (w: number, r: Rng, dark = false): string => text(16, 26, `${10 + Math.floor(r() * 12)}:${String(Math.floor(r() * 60)).padStart(2, '0')}`, { size: 15, fill: dark ? '#eee' : '#222', weight: 'bold' }) +
  `<rect x="${w - 46}" y="12" width="28" height="13" rx="3" fill="none" stroke="${dark ? '#eee' : '#222'}"/><rect x="${w - 44}" y="14" width="${8 + Math.floor(r() * 16)}" height="9" fill="${dark ? '#eee' : '#222'}"/>`;

function chatScreenshot(r: Rng, lang: Lang): string {
  const w = 720, h = 1280, font = pick(r, FONTS.slice(0, 2)), size = 22 + Math.floor(r() * 8);
  const dark = r() < 0.3;
  const theme = pick(r, [['#dcf8c6', '#ffffff', '#ece5dd'], ['#0b84fe', '#e5e5ea', '#ffffff'], ['#2b5278', '#182533', '#0e1621']]);
  const [mine, theirs, bg] = dark ? ['#2b5278', '#182533', '#0e1621'] : theme;
  const ink = (c: string): string => (c === '#0b84fe' || c === '#2b5278' || c === '#182533' ? '#fff' : '#111');
  let body = statusBar(w, r, dark || bg === '#0e1621') + `<rect y="40" width="${w}" height="80" fill="${dark ? '#17212b' : '#075e54'}"/>` +
    `<circle cx="60" cy="80" r="26" fill="#${Math.floor(r() * 0xffffff).toString(16).padStart(6, '0')}"/>` +
    text(100, 90, pick(r, ['Anna', 'Marco', 'Budi', 'Linh', 'Sophie', 'Jonas', 'María', 'Mum']), { size: 26, fill: '#fff', weight: 'bold', font });
  let y = 160;
  const msgs = TEXT[lang].chat;
  for (let i = 0; y < h - 160; i++) {
    const me = r() < 0.5;
    const lines = wrap(msgs[Math.floor(r() * msgs.length)], 26);
    const bw = Math.min(w - 140, 40 + Math.max(...lines.map((l) => l.length)) * size * 0.55), bh = lines.length * (size + 8) + 34;
    const x = me ? w - bw - 24 : 24, fill = me ? mine : theirs;
    body += `<rect x="${x}" y="${y}" width="${bw}" height="${bh}" rx="18" fill="${fill}"/>`;
    lines.forEach((l, k) => { body += text(x + 18, y + 12 + (k + 1) * (size + 6), l, { size, font, fill: ink(fill) }); });
    body += text(x + bw - 14, y + bh - 8, `${10 + (i % 12)}:${String((i * 7) % 60).padStart(2, '0')}`, { size: 14, fill: '#777', anchor: 'end' });
    y += bh + 18 + Math.floor(r() * 20);
  }
  body += `<rect y="${h - 90}" width="${w}" height="90" fill="${dark ? '#17212b' : '#f0f0f0'}"/><rect x="20" y="${h - 72}" width="${w - 120}" height="54" rx="27" fill="${dark ? '#242f3d' : '#fff'}"/>` +
    text(44, h - 38, pick(r, ['Message', 'Nachricht', 'Tapez un message', 'Mensaje', 'Ketik pesan', 'Tin nhắn']), { size: 20, fill: '#999' });
  return svg(w, h, body, bg);
}

function webScreenshot(r: Rng, lang: Lang): string {
  const w = 1280, h = 800 + Math.floor(r() * 200), font = pick(r, FONTS), t = TEXT[lang];
  const accent = pick(r, ['#1a73e8', '#c0392b', '#27ae60', '#8e44ad', '#222222', '#e67e22']);
  let body = `<rect width="${w}" height="40" fill="#dee1e6"/><rect x="90" y="6" width="${w - 300}" height="28" rx="14" fill="#fff"/>` +
    text(110, 26, `https://www.${pick(r, ['example', 'news-daily', 'cityguide', 'shop-online', 'travelblog', 'univ'])}.${pick(r, ['com', 'de', 'fr', 'es', 'co.id', 'vn'])}/${pick(r, ['articles', 'about', 'blog/2024', 'help', 'product/42'])}`, { size: 15, fill: '#333' }) +
    `<rect y="40" width="${w}" height="70" fill="${accent}"/>` + text(40, 87, pick(r, ['Daily Planet', 'City Guide', 'TechNews', 'Le Journal', 'Die Zeitung', 'Berita Kita', 'Tin Tức']), { size: 30, fill: '#fff', weight: 'bold', font });
  t.web.slice(0, 6).forEach((m, i) => { body += text(520 + i * 120, 82, m, { size: 18, fill: '#fff', font }); });
  body += text(40, 180, pick(r, t.para).split(' ').slice(0, 6).join(' '), { size: 38, weight: 'bold', font });
  let y = 240;
  const sidebar = r() < 0.6;
  const colW = sidebar ? 70 : 110;
  while (y < h - 120) {
    for (const l of wrap(pick(r, t.para) + ' ' + pick(r, t.para), colW)) { body += text(40, y, l, { size: 19, font, fill: '#333' }); y += 28; }
    y += 24;
    if (r() < 0.3) { body += `<rect x="40" y="${y - 10}" width="${sidebar ? 760 : 1100}" height="160" fill="#${Math.floor(r() * 0xffffff).toString(16).padStart(6, '0')}" opacity="0.6"/>`; y += 180; }
  }
  if (sidebar) {
    body += `<rect x="900" y="140" width="340" height="${h - 260}" fill="#f4f4f4"/>`;
    t.web.forEach((m, i) => { body += text(930, 190 + i * 40, `› ${m}`, { size: 20, fill: accent, font }); });
    if (r() < 0.5) body += text(930, 190 + t.web.length * 40 + 40, `${pick(r, ['€', '$', '£'])}${money(r, 9, 99)}`, { size: 26, weight: 'bold', font }) + `<rect x="930" y="${190 + t.web.length * 40 + 60}" width="200" height="44" rx="6" fill="${accent}"/>` + text(960, 190 + t.web.length * 40 + 89, pick(r, ['Add to cart', 'In den Warenkorb', 'Ajouter au panier', 'Añadir']), { size: 18, fill: '#fff', font });
  }
  body += `<rect y="${h - 80}" width="${w}" height="80" fill="#333"/>` + text(40, h - 35, `© ${2015 + Math.floor(r() * 10)} ${pick(r, ['Example Media', 'City Guide GmbH', 'Le Journal SA', 'PT Berita'])} · ${t.web.slice(2, 5).join(' · ')}`, { size: 16, fill: '#ccc', font });
  return svg(w, h, body);
}

function letter(r: Rng, lang: Lang): string {
  const w = 1240, h = 1754, font = pick(r, FONTS), size = 24 + Math.floor(r() * 6), t = TEXT[lang];
  let body = text(100, 140, pick(r, ['Northfield Housing Association', 'Stadtwerke Lindenau', 'Mairie de Saint-Laurent', 'Universidad del Norte', 'Dinas Pendidikan Kota', 'Công ty Cổ phần Minh Long', 'Harper & Cole Solicitors']), { size: size + 10, weight: 'bold', font }) +
    text(100, 180, pick(r, ['12 Mill Lane, Leeds LS1 4AB', 'Hauptstraße 5, 04109 Leipzig', '3 place de la Mairie, 69000 Lyon', 'Calle Mayor 10, 28013 Madrid', 'Jl. Merdeka No. 7, Bandung', '25 Lê Lợi, Quận 1, TP.HCM']), { size: size - 4, font, fill: '#444' }) +
    `<line x1="100" y1="205" x2="${w - 100}" y2="205" stroke="#888"/>`;
  let y = 300;
  for (const l of [pick(r, ['Ms. Jane Doe', 'Herrn Peter Schmidt', 'Mme Claire Martin', 'Sr. Juan Pérez', 'Ibu Sari Dewi', 'Ông Trần Văn Bình']), pick(r, ['4 Park Road', 'Bahnhofstr. 12', '8 rue des Lilas', 'Av. Sol 3', 'Jl. Melati 2', '12 Hai Bà Trưng']), pick(r, ['Bristol BS8 1QU', '10115 Berlin', '75011 Paris', '41001 Sevilla', 'Jakarta 10110', 'Hà Nội'])]) { body += text(100, y, l, { size, font }); y += size + 8; }
  body += text(w - 100, 300, `${1 + Math.floor(r() * 28)}.${1 + Math.floor(r() * 12)}.${2018 + Math.floor(r() * 7)}`, { size, font, anchor: 'end' });
  y += 60;
  body += text(100, y, t.letter[2], { size, font, weight: 'bold' }); y += size * 2.5;
  body += text(100, y, t.letter[0], { size, font }); y += size * 2;
  const paras = 3 + Math.floor(r() * 3);
  for (let p = 0; p < paras; p++) {
    for (const l of wrap([pick(r, t.para), pick(r, t.para), pick(r, t.para)].join(' '), Math.floor(1500 / size))) { body += text(100, y, l, { size, font }); y += size * 1.45; }
    y += size;
  }
  body += text(100, y + size, t.letter[1], { size, font }) + `<path d="M110 ${y + size * 3.5} q40 -40 80 0 t80 0 t60 -10" stroke="#1a3a8a" stroke-width="3" fill="none"/>` + text(100, y + size * 5, pick(r, ['A. Walker', 'K. Becker', 'L. Dubois', 'R. Santos', 'H. Wijaya', 'N. T. Hoa']), { size, font });
  return svg(w, h, body, pick(r, ['#ffffff', '#fdfcf7', '#f8f8f8']));
}

function bankStatement(r: Rng, lang: Lang): string {
  const w = 1240, h = 1754, font = pick(r, FONTS), size = 18 + Math.floor(r() * 5), t = TEXT[lang].bank;
  const cur = { en: '£', de: '€', fr: '€', es: '€', id: 'Rp', vi: 'VND' }[lang];
  const big = lang === 'id' || lang === 'vi';
  const fmt = (v: number): string => (big ? Math.round(v * 1000).toLocaleString('en-US').replace(/,/g, '.') : lang === 'en' ? v.toFixed(2) : v.toFixed(2).replace('.', ','));
  let body = text(80, 110, pick(r, ['Northern Rock Bank', 'Sparkasse Mittelfeld', 'Banque Populaire du Sud', 'Banco Central Iberico', 'Bank Nusantara', 'Ngân hàng Á Châu']), { size: 34, weight: 'bold', font, fill: pick(r, ['#003366', '#c00000', '#1b5e20', '#222']) }) +
    text(w - 80, 110, t[0], { size: 26, weight: 'bold', font, anchor: 'end' }) +
    text(80, 170, `${t[3]}: ${Math.floor(r() * 1e8)}  IBAN: ${pick(r, ['GB29 NWBK 6016 1331 9268 19', 'DE89 3704 0044 0532 0130 00', 'FR14 2004 1010 0505 0001 3M02 606', 'ES91 2100 0418 4502 0005 1332'])}`, { size: size - 2, font }) +
    text(80, 200, `${t[4]}: 01.${String(1 + Math.floor(r() * 12)).padStart(2, '0')}.2024 - 31.${String(1 + Math.floor(r() * 12)).padStart(2, '0')}.2024`, { size: size - 2, font });
  const cols = [80, 240, 780, 930, 1080];
  let y = 270;
  body += `<rect x="70" y="${y - size - 6}" width="${w - 140}" height="${size + 16}" fill="#e8eef5"/>`;
  [t[5], t[6], t[7], t[8], t[9]].forEach((c, i) => { body += text(cols[i], y, c, { size, weight: 'bold', font }); });
  y += size * 2;
  let bal = 500 + r() * 3000;
  body += text(cols[1], y, t[1], { size, font }) + text(cols[4], y, fmt(bal), { size, font }); y += size * 1.7;
  const rows = 14 + Math.floor(r() * 14);
  for (let i = 0; i < rows && y < h - 200; i++) {
    const amt = Number(money(r, 3, 400)), credit = r() < 0.25;
    bal += credit ? amt : -amt;
    body += text(cols[0], y, `${String(1 + i).padStart(2, '0')}.${String(1 + Math.floor(r() * 12)).padStart(2, '0')}`, { size, font }) +
      text(cols[1], y, `${pick(r, t.slice(10))} ${Math.floor(r() * 9999)}`, { size, font }) +
      text(credit ? cols[3] : cols[2], y, fmt(amt), { size, font }) + text(cols[4], y, fmt(bal), { size, font });
    if (i % 2) body += `<line x1="70" y1="${y + 8}" x2="${w - 70}" y2="${y + 8}" stroke="#ddd"/>`;
    y += size * 1.7;
  }
  body += text(cols[1], y + size, t[2], { size, weight: 'bold', font }) + text(cols[4], y + size, `${cur} ${fmt(bal)}`, { size, weight: 'bold', font });
  return svg(w, h, body);
}

/** Pictures without text: gradients, shapes, a landscape, a cat-like figure, noise (noise is added by sharp). */
function picture(r: Rng, i: number): string {
  const w = 800 + Math.floor(r() * 400), h = 600 + Math.floor(r() * 400);
  const c = () => `#${Math.floor(r() * 0xffffff).toString(16).padStart(6, '0')}`;
  const kind = i % 5;
  if (kind === 0) return svg(w, h, `<defs><linearGradient id="g" x1="0" y1="0" x2="${r()}" y2="1"><stop offset="0" stop-color="${c()}"/><stop offset="1" stop-color="${c()}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>`);
  if (kind === 1) {
    let b = '';
    for (let k = 0; k < 25; k++) b += r() < 0.5 ? `<circle cx="${r() * w}" cy="${r() * h}" r="${10 + r() * 120}" fill="${c()}" opacity="${0.4 + r() * 0.6}"/>` : `<rect x="${r() * w}" y="${r() * h}" width="${20 + r() * 200}" height="${20 + r() * 200}" fill="${c()}" transform="rotate(${r() * 90} ${w / 2} ${h / 2})"/>`;
    return svg(w, h, b, c());
  }
  if (kind === 2) {
    let b = `<rect width="100%" height="${h * 0.6}" fill="#87ceeb"/><rect y="${h * 0.6}" width="100%" height="${h * 0.4}" fill="#3c8d2f"/><circle cx="${w * (0.2 + r() * 0.6)}" cy="${h * 0.18}" r="50" fill="#ffd93b"/>`;
    for (let k = 0; k < 6; k++) { const x = r() * w, s = 40 + r() * 60; b += `<rect x="${x - 6}" y="${h * 0.6 - s}" width="12" height="${s}" fill="#6b4423"/><circle cx="${x}" cy="${h * 0.6 - s}" r="${s * 0.6}" fill="#2e7d32"/>`; }
    b += `<rect x="${w * 0.55}" y="${h * 0.42}" width="160" height="110" fill="#d9b38c"/><polygon points="${w * 0.55 - 10},${h * 0.42} ${w * 0.55 + 80},${h * 0.3} ${w * 0.55 + 170},${h * 0.42}" fill="#a0302a"/>`;
    return svg(w, h, b);
  }
  if (kind === 3) {
    const x = w / 2, y = h / 2, fur = pick(r, ['#f5a623', '#555555', '#222222', '#e0e0e0', '#b5651d']);
    return svg(w, h, `<ellipse cx="${x}" cy="${y + 120}" rx="170" ry="120" fill="${fur}"/><circle cx="${x}" cy="${y - 40}" r="110" fill="${fur}"/>` +
      `<polygon points="${x - 100},${y - 90} ${x - 70},${y - 190} ${x - 30},${y - 130}" fill="${fur}"/><polygon points="${x + 100},${y - 90} ${x + 70},${y - 190} ${x + 30},${y - 130}" fill="${fur}"/>` +
      `<circle cx="${x - 40}" cy="${y - 50}" r="16" fill="#2e7d32"/><circle cx="${x + 40}" cy="${y - 50}" r="16" fill="#2e7d32"/><polygon points="${x - 10},${y - 10} ${x + 10},${y - 10} ${x},${y + 4}" fill="#e91e63"/>` +
      `<path d="M${x - 60} ${y} h-80 M${x - 60} ${y + 10} l-80 20 M${x + 60} ${y} h80 M${x + 60} ${y + 10} l80 20" stroke="#333" stroke-width="2"/>`, pick(r, ['#c8d8e8', '#f0e6d2', '#7a9a6a', '#d0d0d0']));
  }
  let b = '';
  for (let k = 0; k < 400; k++) b += `<rect x="${r() * w}" y="${r() * h}" width="${2 + r() * 30}" height="${2 + r() * 30}" fill="${c()}"/>`;
  return svg(w, h, b, c());
}

/** A receipt shown on a phone screen (an app's order page or an e-receipt): must stay a receipt. */
function receiptScreenshot(r: Rng, lang: Lang): string {
  const w = 720, h = 1400, font = pick(r, FONTS), size = 24;
  const shops = { en: ['GREEN LEAF CAFE', 'QUICKMART'], de: ['BÄCKEREI SONNE', 'FRISCHMARKT'], fr: ['BOULANGERIE DU PARC', 'CAFÉ DES ARTS'], es: ['CAFETERÍA LUNA', 'SUPERMERCADO SOL'], id: ['TOKO MAKMUR', 'KOPI KENANGAN'], vi: ['CỬA HÀNG AN KHANG', 'QUÁN CÀ PHÊ HẠNH'] }[lang];
  const L = { en: ['Subtotal', 'Tax', 'TOTAL', 'Paid by VISA', 'Thank you!', 'Receipt'], de: ['Zwischensumme', 'MwSt 19%', 'SUMME', 'Bezahlt mit Karte', 'Vielen Dank!', 'Beleg'], fr: ['Sous-total', 'TVA 20%', 'TOTAL', 'Payé par CB', 'Merci !', 'Ticket'], es: ['Subtotal', 'IVA 21%', 'TOTAL', 'Pagado con tarjeta', '¡Gracias!', 'Ticket'], id: ['Subtotal', 'PPN 11%', 'TOTAL', 'TUNAI', 'Terima kasih', 'Struk'], vi: ['Tạm tính', 'VAT 10%', 'TỔNG CỘNG', 'Tiền mặt', 'Cảm ơn quý khách', 'Hóa đơn'] }[lang];
  const items = ['Cappuccino', 'Croissant', 'Orange juice', 'Sandwich', 'Water 0.5L', 'Muffin', 'Bagel', 'Tea', 'Salad', 'Cookie'];
  let body = statusBar(w, r) + `<rect y="40" width="${w}" height="80" fill="#f7f7f7"/>` + text(30, 92, `‹  ${L[5]}`, { size: 26, fill: '#0b84fe', font: FONTS[0] }) +
    `<rect x="40" y="150" width="${w - 80}" height="${h - 220}" fill="#fff" stroke="#ddd"/>`;
  let y = 220;
  const shop = pick(r, shops);
  body += text(w / 2, y, shop, { size: 30, weight: 'bold', anchor: 'middle', font }); y += 40;
  body += text(w / 2, y, pick(r, ['12 High St, London', 'Marktplatz 3, Köln', '5 rue Cler, Paris', 'C/ Mayor 8, Madrid', 'Jl. Sudirman 10, Jakarta', '45 Lý Thái Tổ, Hà Nội']), { size: 20, anchor: 'middle', font }); y += 34;
  body += text(w / 2, y, `${String(1 + Math.floor(r() * 28)).padStart(2, '0')}/${String(1 + Math.floor(r() * 12)).padStart(2, '0')}/2024  ${10 + Math.floor(r() * 10)}:${String(Math.floor(r() * 60)).padStart(2, '0')}`, { size: 20, anchor: 'middle', font }); y += 60;
  let sum = 0;
  const n = 3 + Math.floor(r() * 6);
  for (let i = 0; i < n; i++) {
    const p = Number(money(r, 1, 12));
    sum += p;
    body += text(70, y, `${1 + Math.floor(r() * 2)} x ${pick(r, items)}`, { size, font }) + text(w - 70, y, p.toFixed(2), { size, font, anchor: 'end' }); y += size * 1.6;
  }
  const tax = Math.round(sum * 0.1 * 100) / 100;
  y += 10;
  body += `<line x1="70" y1="${y - 20}" x2="${w - 70}" y2="${y - 20}" stroke="#999" stroke-dasharray="6 4"/>`;
  for (const [k, v, b] of [[L[0], sum, false], [L[1], tax, false], [L[2], sum + tax, true]] as Array<[string, number, boolean]>) { body += text(70, y, k, { size, font, weight: b ? 'bold' : 'normal' }) + text(w - 70, y, v.toFixed(2), { size, font, anchor: 'end', weight: b ? 'bold' : 'normal' }); y += size * 1.7; }
  body += text(70, y, L[3], { size: 20, font }) + text(w / 2, y + 70, L[4], { size: 22, anchor: 'middle', font });
  return svg(w, h, body, '#efeff4');
}

export const KINDS: readonly DoctypeKind[] = ['chat', 'web', 'letter', 'bank-statement', 'picture', 'receipt-screenshot'];
const MAKERS: Record<Exclude<DoctypeKind, 'picture'>, (r: Rng, lang: Lang) => string> & Record<'picture', (r: Rng, i: number) => string> = { chat: chatScreenshot, web: webScreenshot, letter, 'bank-statement': bankStatement, picture, 'receipt-screenshot': receiptScreenshot };

/** Encodes one SVG: PNG for screenshots, JPEG (camera-like, some noise) for pictures and letters every other time. */
async function encode(svgText: string, kind: DoctypeKind, r: Rng, scale: number): Promise<Buffer> {
  let img = sharp(Buffer.from(svgText));
  if (scale !== 1) {
    const meta = await sharp(Buffer.from(svgText)).metadata();
    img = sharp(await img.png().toBuffer()).resize(Math.round((meta.width ?? 800) * scale));
  }
  if (kind === 'picture' || ((kind === 'letter' || kind === 'bank-statement') && r() < 0.5)) {
    const raw = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const px = raw.data;
    for (let i = 0; i < px.length; i++) px[i] = Math.max(0, Math.min(255, (px[i] ?? 0) + Math.round((r() - 0.5) * 24)));
    return sharp(px, { raw: raw.info }).jpeg({ quality: 85 }).toBuffer();
  }
  return img.png().toBuffer();
}

/**
 * `perKind` images of each kind (languages and fonts vary with the seed), `scale` < 1 for small test
 * images. `expect`: the documentType the page should get.
 */
export async function doctypeImages({ perKind = 14, scale = 1, seed = 24, kinds = KINDS }: { perKind?: number; scale?: number; seed?: number; kinds?: readonly DoctypeKind[] } = {}): Promise<DoctypeImage[]> {
  const out: DoctypeImage[] = [];
  for (const kind of kinds) {
    for (let i = 0; i < perKind; i++) {
      const r = rng(seed * 1000 + KINDS.indexOf(kind) * 100 + i);
      const lang = LANGS[i % LANGS.length] as Lang;
      const s = kind === 'picture' ? picture(r, i) : MAKERS[kind](r, lang);
      const bytes = await encode(s, kind, r, scale);
      out.push({ kind, lang: kind === 'picture' ? null : lang, expect: kind === 'receipt-screenshot' ? 'receipt' : 'other', name: `${kind}-${String(i).padStart(2, '0')}${kind === 'picture' ? '' : `-${lang}`}`, bytes });
    }
  }
  return out;
}
