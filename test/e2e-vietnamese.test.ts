/**
 * A Vietnamese receipt, drawn here and read by real OCR: the English model's first reading shows the
 * country (Vietnamese words, VND), the page is read again with the Vietnamese model
 * (@tesseract.js-data/vie, a dependency), and the total printed by "Tổng tiền" is the one returned, in đồng.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createEngine } from '../src/index.js';
import type { Engine } from '../src/index.js';

const LINES = [
  'MINIMART BINH AN',
  'Chợ Sủi, Gia Lâm, Hà Nội',
  'HÓA ĐƠN BÁN HÀNG',
  'Sữa Mộc Châu 110ml   12 x 4,375   52,500',
  'Sữa ADM đường 110ml  12 x 4,250   51,000',
  'Tổng số: 24',
  'Tổng tiền:                  103,500',
  'Tiền khách trả:         VND 200,000',
  'Tiền trả lại:            VND 96,500',
  'Ngày: 12/08/2020 16:22',
  'Xin cám ơn và hẹn gặp lại quý khách!',
];

async function receipt(): Promise<Buffer> {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const rows = LINES.map((l, i) => `<text x="24" y="${52 + i * 40}" font-family="DejaVu Sans" font-size="24">${esc(l)}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="${80 + LINES.length * 40}"><rect width="100%" height="100%" fill="white"/>${rows}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('a Vietnamese receipt (real OCR)', () => {
  let engine: Engine;
  const stages: Array<Record<string, number>> = [];
  beforeAll(async () => { engine = await createEngine({ workers: 1, onStageTimes: (t) => stages.push(t) }); });
  afterAll(async () => { await engine.close(); });

  it('is read again in Vietnamese, and its total and date are found, in đồng', async () => {
    const r = await engine.extract(await receipt(), { verbose: true, incognito: true });
    expect(r.totalAmount.data).toBe(103500);
    expect(r.totalAmount.currencyCode).toBe('VND');
    expect(String(r.date.data).slice(0, 10)).toBe('2020-08-12');
    expect(stages.at(-1)).toHaveProperty('read:tesseract:vie');
    // the verbose evidence names the rule that decided the total, and what the Vietnamese reading made of it
    expect(r.evidence.totalAmount?.some((t) => t.startsWith('rule:'))).toBe(true);
    expect(r.evidence.totalAmount?.some((t) => t.startsWith('own-language-'))).toBe(true);
    expect(r.evidence.locale?.[0]).toMatch(/^country=VN@/);
  }, 120_000);
});
