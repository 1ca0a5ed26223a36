/**
 * The same file gives the same answer on a quiet machine and on a busy one (issue 33, item 3): small
 * photos drawn here (a receipt on a darker table, unevenly lit, slightly blurred, JPEG) are read alone,
 * then again beside two CPU-bound processes, and every field's value and confidence, the rotation and
 * the warnings must be identical. The page's reading has no wall-clock budget by default, so nothing the
 * load changes (how long a reading took) may decide which re-readings run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createEngine } from '../../src/index.js';
import type { Engine } from '../../src/index.js';

const RECEIPTS = [
  ['CORNER MARKET', '12 High Street, Leeds', 'Date: 14/03/2023  10:41', 'Milk 2L          1.45', 'Bread            1.10',
    'Apples 1kg       2.30', 'SUBTOTAL         4.85', 'VAT               0.00', 'TOTAL            4.85', 'CASH             5.00', 'CHANGE           0.15'],
  ['BLUE LAKE CAFE', '80 Harbour Road', '2022-11-05 13:02', 'Latte            3.80', 'Croissant        2.60',
    'Water            1.20', 'TOTAL            7.60', 'Thank you'],
];

/** A small phone photo of a receipt: grey paper on a darker table, lit from one side, blurred, JPEG. */
async function photo(lines: string[], seed: number): Promise<Buffer> {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const w = 300, h = 40 + lines.length * 24;
  const rows = lines.map((l, i) => `<text x="14" y="${34 + i * 24}" font-family="DejaVu Sans Mono" font-size="15" fill="#333">${esc(l)}</text>`).join('');
  const paper = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#e4e0d6"/>${rows}</svg>`))
    .rotate(seed % 2 ? 2 : -2, { background: '#5a4a3a' }).png().toBuffer();
  const meta = await sharp(paper).metadata();
  const W = (meta.width ?? w) + 120, H = (meta.height ?? h) + 140;
  const table = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><linearGradient id="l" x1="0" y1="0" x2="1" y2="1">`
    + `<stop offset="0" stop-color="#6b5a48"/><stop offset="1" stop-color="#3e3226"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#l)"/></svg>`;
  const light = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0">`
    + `<stop offset="0" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.25"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  return sharp(Buffer.from(table))
    .composite([{ input: paper, left: 60, top: 70 }, { input: Buffer.from(light), left: 0, top: 0 }])
    .blur(0.6).jpeg({ quality: 80 }).toBuffer();
}

interface Answer { fields: Record<string, unknown>; rotation: unknown; warnings: unknown }

async function answer(engine: Engine, file: Buffer): Promise<Answer> {
  const r = await engine.extract(file, { verbose: true, incognito: true, refresh: true });
  const fields: Record<string, unknown> = {};
  for (const k of ['totalAmount', 'taxAmount', 'subtotalAmount', 'date', 'merchantName', 'merchantAddress', 'currencyCode'] as const) {
    const f = (r as unknown as Record<string, { data?: unknown; confidenceLevel?: number } | undefined>)[k];
    fields[k] = f ? { data: f.data, confidenceLevel: f.confidenceLevel } : undefined;
  }
  return { fields, rotation: (r as unknown as { targetRotation?: number }).targetRotation, warnings: (r as unknown as { warnings?: unknown }).warnings };
}

describe('the same photos on a quiet and on a busy machine', () => {
  let engine: Engine;
  let photos: Buffer[];
  const burners: ChildProcess[] = [];
  beforeAll(async () => {
    engine = await createEngine({ workers: 1 });
    photos = await Promise.all(RECEIPTS.map((r, i) => photo(r, i)));
  });
  afterAll(async () => {
    for (const b of burners) if (b.pid && b.exitCode === null) b.kill('SIGKILL');
    await engine.close();
  });

  it('give identical fields, confidences, rotation and warnings', async () => {
    const alone: Answer[] = [];
    for (const p of photos) alone.push(await answer(engine, p));
    for (let i = 0; i < 2; i++) burners.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
    const busy: Answer[] = [];
    for (const p of photos) busy.push(await answer(engine, p));
    for (const b of burners) b.kill('SIGKILL');
    // the photos were read at all (a blank answer on both would prove nothing)
    expect(alone.some((a) => (a.fields.totalAmount as { data?: number } | undefined)?.data !== undefined)).toBe(true);
    expect(busy).toEqual(alone);
  }, 300_000);
});
