// Receipts in several languages and scripts (issue 50 item 3: a page in a script the installed OCR data cannot
// read), for measuring when a first reading looks unread (read/script.ts) and what tesseract's script
// detection says (ocr/script.ts). Rendered offline with sharp from SVG with the DejaVu fonts (Debian
// `fonts-dejavu-core`: Latin, Cyrillic, Greek, Hebrew and Arabic; no Thai or CJK). Deterministic: the same seed
// gives the same images.
//   import { scriptPages } from './script-pages.ts';
//   const pages = await scriptPages({ perLanguage: 6 });   // [{ lang, script, name, total, bytes }]
// bench/script-detect.mjs reads them; fixtures/receipt-bg-cyrillic.png is made by scripts/make-fixtures.mjs.
import sharp from 'sharp';
import { rng } from './rng.ts';
import type { Rng } from './rng.ts';

/** Words of one language's receipts: shop names, street, items, and the labels of the money lines. */
interface Words { script: string; shops: string[]; street: string[]; items: string[]; labels: [string, string, string, string, string]; thanks: string[]; rtl?: boolean }

const WORDS: Record<string, Words> = {
  en: { script: 'Latin', shops: ['GREENLEAF GROCERY', 'CORNER MARKET LTD', 'HILLSIDE BAKERY', 'RIVERSIDE PHARMACY'], street: ['12 Main Street, Springfield', '48 Oak Avenue, Riverton', '7 Station Road, Milford'], items: ['Bread white', 'Milk fresh 1L', 'Cheddar cheese', 'Apples red', 'Coffee beans', 'Orange juice', 'Eggs large x12', 'Butter salted', 'Chicken breast', 'Tomatoes'], labels: ['Date', 'SUBTOTAL', 'TAX', 'TOTAL', 'CASH'], thanks: ['Thank you, come again!', 'Have a nice day'] },
  de: { script: 'Latin', shops: ['BÄCKEREI SCHMIDT', 'MARKTHALLE MÜLLER GMBH', 'APOTHEKE AM RING', 'GETRÄNKE KÖNIG'], street: ['Hauptstraße 21, 10115 Berlin', 'Königsallee 5, 40212 Düsseldorf', 'Marktplatz 3, 80331 München'], items: ['Vollkornbrot', 'Frische Vollmilch', 'Käse Gouda', 'Äpfel rot', 'Kaffeebohnen', 'Orangensaft', 'Eier Freiland', 'Süßrahmbutter', 'Hähnchenbrust', 'Tomaten'], labels: ['Datum', 'ZWISCHENSUMME', 'MwSt 19%', 'SUMME EUR', 'BAR'], thanks: ['Vielen Dank für Ihren Einkauf!', 'Auf Wiedersehen'] },
  fr: { script: 'Latin', shops: ['BOULANGERIE DU CANAL', 'ÉPICERIE CENTRALE', 'PHARMACIE DE LA GARE', 'CAVE SAINT-MICHEL'], street: ['14 rue de la République, 69002 Lyon', '3 place du Marché, 33000 Bordeaux'], items: ['Baguette tradition', 'Lait demi-écrémé', 'Fromage comté', 'Pommes golden', 'Café moulu', 'Jus d’orange', 'Œufs frais x6', 'Beurre doux', 'Poulet fermier', 'Tomates grappe'], labels: ['Date', 'TOTAL HT', 'TVA 5,5%', 'TOTAL TTC', 'ESPÈCES'], thanks: ['Merci de votre visite !', 'À bientôt'] },
  es: { script: 'Latin', shops: ['SUPERMERCADO LA PLAZA', 'PANADERÍA SAN JOSÉ', 'FARMACIA CENTRAL'], street: ['Calle Mayor 15, 28013 Madrid', 'Avenida de la Constitución 8, Sevilla'], items: ['Pan de molde', 'Leche entera', 'Queso manchego', 'Manzanas', 'Café molido', 'Zumo de naranja', 'Huevos docena', 'Mantequilla', 'Pechuga de pollo', 'Tomates'], labels: ['Fecha', 'SUBTOTAL', 'IVA 10%', 'TOTAL', 'EFECTIVO'], thanks: ['¡Gracias por su compra!', 'Vuelva pronto'] },
  id: { script: 'Latin', shops: ['TOKO SERBA ADA MAKMUR', 'WARUNG KOPI SENJA', 'APOTEK SEHAT SENTOSA'], street: ['Jl. Merdeka No. 12, Bandung', 'Jl. Sudirman 45, Jakarta Pusat'], items: ['Roti tawar', 'Susu segar', 'Keju cheddar', 'Apel merah', 'Kopi bubuk', 'Jus jeruk', 'Telur ayam', 'Mentega', 'Dada ayam', 'Tomat'], labels: ['Tanggal', 'SUBTOTAL', 'PAJAK 10%', 'TOTAL', 'TUNAI'], thanks: ['Terima kasih atas kunjungan Anda', 'Barang yang sudah dibeli tidak dapat dikembalikan'] },
  vi: { script: 'Latin', shops: ['MINIMART BÌNH AN', 'CỬA HÀNG TIỆN LỢI HOÀNG GIA', 'NHÀ THUỐC AN KHANG'], street: ['Chợ Sủi, Gia Lâm, Hà Nội', '45 Nguyễn Huệ, Quận 1, TP.HCM'], items: ['Bánh mì', 'Sữa tươi', 'Phô mai', 'Táo đỏ', 'Cà phê rang', 'Nước cam', 'Trứng gà', 'Bơ lạt', 'Ức gà', 'Cà chua'], labels: ['Ngày', 'Tạm tính', 'Thuế VAT', 'Tổng tiền', 'Tiền mặt'], thanks: ['Xin cám ơn quý khách!', 'Hẹn gặp lại'] },
  ru: { script: 'Cyrillic', shops: ['ПРОДУКТЫ У ДОМА', 'ООО «СВЕЖИЙ ХЛЕБ»', 'АПТЕКА ЗДОРОВЬЕ', 'МАГАЗИН ВКУСНЯТИНА'], street: ['г. Москва, ул. Тверская, д. 12', 'г. Казань, пр. Победы, 48'], items: ['Хлеб белый', 'Молоко 3,2%', 'Сыр российский', 'Яблоки красные', 'Кофе молотый', 'Сок апельсиновый', 'Яйца куриные', 'Масло сливочное', 'Куриное филе', 'Помидоры'], labels: ['Дата', 'ПОДЫТОГ', 'НДС 20%', 'ИТОГ', 'НАЛИЧНЫМИ'], thanks: ['Спасибо за покупку!', 'Приходите ещё'] },
  bg: { script: 'Cyrillic', shops: ['МАГАЗИН ХРАНИТЕЛНИ СТОКИ', 'ФУРНА ЗЛАТЕН КЛАС ЕООД', 'АПТЕКА ЗДРАВЕ', 'БАКАЛИЯ ПРИ ГОШО'], street: ['гр. София, ул. Витоша 12', 'гр. Пловдив, бул. Руски 48'], items: ['Хляб бял', 'Прясно мляко', 'Сирене краве', 'Ябълки червени', 'Кафе мляно', 'Портокалов сок', 'Яйца размер L', 'Краве масло', 'Пилешко филе', 'Домати'], labels: ['Дата', 'МЕЖДИННА СУМА', 'ДДС 20%', 'ОБЩА СУМА', 'В БРОЙ'], thanks: ['Благодарим Ви!', 'Заповядайте отново'] },
  uk: { script: 'Cyrillic', shops: ['ПРОДУКТИ БІЛЯ ДОМУ', 'ТОВ «СВІЖИЙ ХЛІБ»', 'АПТЕКА ЗДОРОВ’Я'], street: ['м. Київ, вул. Хрещатик, 12', 'м. Львів, пр. Свободи, 48'], items: ['Хліб білий', 'Молоко 2,5%', 'Сир твердий', 'Яблука червоні', 'Кава мелена', 'Сік апельсиновий', 'Яйця курячі', 'Масло вершкове', 'Куряче філе', 'Помідори'], labels: ['Дата', 'ПРОМІЖНИЙ ПІДСУМОК', 'ПДВ 20%', 'СУМА', 'ГОТІВКА'], thanks: ['Дякуємо за покупку!', 'Завітайте ще'] },
  el: { script: 'Greek', shops: ['ΠΑΝΤΟΠΩΛΕΙΟ Η ΓΕΙΤΟΝΙΑ', 'ΑΡΤΟΠΟΙΕΙΟ ΠΑΠΑΔΟΠΟΥΛΟΣ', 'ΦΑΡΜΑΚΕΙΟ ΚΕΝΤΡΙΚΟ'], street: ['Οδός Ερμού 12, Αθήνα', 'Λεωφόρος Νίκης 48, Θεσσαλονίκη'], items: ['Ψωμί λευκό', 'Γάλα φρέσκο', 'Τυρί φέτα', 'Μήλα κόκκινα', 'Καφές ελληνικός', 'Χυμός πορτοκάλι', 'Αυγά φρέσκα', 'Βούτυρο', 'Φιλέτο κοτόπουλο', 'Ντομάτες'], labels: ['Ημερομηνία', 'ΜΕΡΙΚΟ ΣΥΝΟΛΟ', 'ΦΠΑ 24%', 'ΣΥΝΟΛΟ', 'ΜΕΤΡΗΤΑ'], thanks: ['Ευχαριστούμε πολύ!', 'Καλή σας μέρα'] },
  he: { script: 'Hebrew', rtl: true, shops: ['מכולת השכונה בע"מ', 'מאפיית הלחם הטרי', 'סופר פארם מרכז'], street: ['רחוב הרצל 12 תל אביב', 'שדרות רוטשילד 48 חיפה'], items: ['לחם לבן', 'חלב טרי', 'גבינה צהובה', 'תפוחים אדומים', 'קפה טחון', 'מיץ תפוזים', 'ביצים', 'חמאה', 'חזה עוף', 'עגבניות'], labels: ['תאריך', 'סכום ביניים', 'מע"מ 17%', 'סה"כ לתשלום', 'מזומן'], thanks: ['תודה רבה ולהתראות', 'יום נעים'] },
  ar: { script: 'Arabic', rtl: true, shops: ['بقالة الحي', 'مخبز الخبز الطازج', 'صيدلية الشفاء'], street: ['شارع الملك فهد الرياض', 'شارع الجمهورية القاهرة'], items: ['خبز أبيض', 'حليب طازج', 'جبن أبيض', 'تفاح أحمر', 'قهوة مطحونة', 'عصير برتقال', 'بيض', 'زبدة', 'صدر دجاج', 'طماطم'], labels: ['التاريخ', 'المجموع الفرعي', 'ضريبة 15%', 'المجموع', 'نقدا'], thanks: ['شكرا لزيارتكم', 'نتمنى لكم يوما سعيدا'] },
};

/** The languages drawn, Latin-script ones first. */
export const SCRIPT_PAGE_LANGUAGES = Object.keys(WORDS);

export interface ScriptPage { lang: string; script: string; name: string; total: number; bytes: Buffer }

const FONTS = ['DejaVu Sans', 'DejaVu Sans Mono', 'DejaVu Serif', 'DejaVu Sans Condensed'];
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const pick = <T>(r: Rng, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
const amount = (cents: number): string => (cents / 100).toFixed(2);

/** One receipt's lines in `lang`: [text, right-hand amount or '', bold]. */
function receiptLines(r: Rng, w: Words): { lines: Array<[string, string, boolean]>; total: number } {
  const lines: Array<[string, string, boolean]> = [[pick(r, w.shops), '', true], [pick(r, w.street), '', false]];
  const day = 1 + Math.floor(r() * 28), month = 1 + Math.floor(r() * 12);
  lines.push([`${w.labels[0]}: ${String(day).padStart(2, '0')}.${String(month).padStart(2, '0')}.2024 ${10 + Math.floor(r() * 10)}:${String(Math.floor(r() * 60)).padStart(2, '0')}`, '', false]);
  const items = [...w.items].sort(() => r() - 0.5).slice(0, 4 + Math.floor(r() * 4));
  let sum = 0;
  for (const name of items) {
    const q = 1 + Math.floor(r() * 3), unit = 50 + Math.floor(r() * 1500);
    sum += q * unit;
    lines.push([q > 1 ? `${name} ${q} x ${amount(unit)}` : name, amount(q * unit), false]);
  }
  const tax = Math.round(sum * 0.2);
  lines.push([w.labels[1], amount(sum), false], [w.labels[2], amount(tax), false], [w.labels[3], amount(sum + tax), true]);
  const paid = Math.ceil((sum + tax) / 1000) * 1000;
  lines.push([w.labels[4], amount(paid), false], [pick(r, w.thanks), '', false]);
  return { lines, total: (sum + tax) / 100 };
}

/** The SVG of one receipt: text at a drawn size and font, amounts right-aligned (right-to-left scripts mirrored). */
function svgOf(lines: Array<[string, string, boolean]>, font: string, size: number, rtl: boolean): { svg: string } {
  const width = 720, pad = 30, step = Math.round(size * 1.55);
  const parts = lines.map(([text, right, bold], i) => {
    const y = pad + step * (i + 1);
    const weight = bold ? ' font-weight="bold"' : '';
    const [tx, ta, rx, ra] = rtl ? [width - pad, 'end', pad, 'start'] : [pad, 'start', width - pad, 'end'];
    const label = `<text x="${tx}" y="${y}" font-family="${font}" font-size="${size}" text-anchor="${ta}"${weight}>${esc(text)}</text>`;
    return right ? `${label}<text x="${rx}" y="${y}" font-family="${font}" font-size="${size}" text-anchor="${ra}"${weight}>${right}</text>` : label;
  });
  const height = pad * 2 + step * (lines.length + 1);
  return { svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><g fill="#000">${parts.join('')}</g></svg>` };
}

/**
 * A page: the receipt drawn clean (a print), or as a rough scan (grey paper, blur, noise, JPEG), by the
 * page's own draw of the seeded numbers.
 */
async function render(r: Rng, lang: string, i: number): Promise<ScriptPage> {
  const w = WORDS[lang]!;
  const { lines, total } = receiptLines(r, w);
  const font = pick(r, FONTS), size = 20 + Math.floor(r() * 10);
  const { svg } = svgOf(lines, font, size, !!w.rtl);
  const rough = r() < 0.5;
  let img = sharp(Buffer.from(svg)).flatten({ background: '#fff' }).greyscale();
  if (!rough) return { lang, script: w.script, name: `${lang}-${i}-clean`, total, bytes: await img.png().toBuffer() };
  const blur = 0.5 + r() * 0.8, paper = 200 + Math.floor(r() * 40);
  const { data, info } = await img.blur(blur).linear((paper - 30) / 255, 30).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  for (let p = 0; p < data.length; p++) data[p] = Math.max(0, Math.min(255, data[p]! + Math.round((r() - 0.5) * 40)));
  img = sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } });
  return { lang, script: w.script, name: `${lang}-${i}-rough`, total, bytes: await img.jpeg({ quality: 70 + Math.floor(r() * 20) }).toBuffer() };
}

/** `perLanguage` receipts of every language in SCRIPT_PAGE_LANGUAGES (or `languages`), deterministic by `seed`. */
export async function scriptPages(opts: { perLanguage?: number; seed?: number; languages?: readonly string[] } = {}): Promise<ScriptPage[]> {
  const out: ScriptPage[] = [];
  for (const lang of opts.languages ?? SCRIPT_PAGE_LANGUAGES) {
    const r = rng((opts.seed ?? 50) * 1000 + SCRIPT_PAGE_LANGUAGES.indexOf(lang));
    for (let i = 0; i < (opts.perLanguage ?? 6); i++) out.push(await render(r, lang, i));
  }
  return out;
}
