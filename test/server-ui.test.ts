/**
 * The page at `/` in headless Chromium (Debian's /usr/bin/chromium driven by playwright-core): type
 * a key, drop a receipt, see the fields and their boxes drawn on the image. The page must not reach
 * anything but its own server.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { KEY_A, raw, start } from './helpers/server.js';
import type { Started } from './helpers/server.js';

const FIX = path.resolve(__dirname, '..', 'fixtures');
const PNG_PATH = path.join(FIX, 'receipt-en-simple.png');
const EXPECTED = JSON.parse(readFileSync(path.join(FIX, 'receipt-en-simple.expected.json'), 'utf8'));

let s: Started;
let browser: Browser;
const outside: string[] = [];

/** Debian's Chromium; `.ci/run` installs it (`apt-get install chromium`), see docs/install.md "Two commands". */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

beforeAll(async () => {
  s = await start();
  if (!existsSync(CHROMIUM)) return; // the page tests fail with the reason (openPage)
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
afterAll(async () => {
  await browser?.close();
  await s?.server.close();
});

async function openPage(): Promise<Page> {
  if (!browser) throw new Error(`the page tests need Chromium at ${CHROMIUM}: run \`apt-get install -y chromium\` (Debian; .ci/run does it) or set CHROMIUM_PATH, see docs/install.md "Two commands"`);
  const page = await browser.newPage();
  page.on('request', (r) => { if (!r.url().startsWith(s.url) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) outside.push(r.url()); });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  (page as Page & { errors: string[] }).errors = errors;
  await page.goto(`${s.url}/`);
  await page.waitForSelector('body[data-state="ready"]');
  return page;
}

describe('the page at /', () => {
  it('is served with a strict CSP and no external resources', async () => {
    const res = await raw(`${s.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(res.headers['content-security-policy']).toMatch(/connect-src 'self'/);
    expect(res.text).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('shows the fields of a dropped receipt and draws their boxes on the image', async () => {
    const page = await openPage();
    await page.fill('#apikey', KEY_A);
    const response = page.waitForResponse((r) => r.url().endsWith('/api/receipt/v1/verbose/file'));
    await page.setInputFiles('#file', PNG_PATH);
    const result = await (await response).json();
    await page.waitForSelector('body[data-state="done"]', { timeout: 60_000 });

    // the table shows the fields with their values
    expect(result.totalAmount.data).toBe(EXPECTED.totalAmount);
    const total = await page.textContent('#fields tr[data-field="totalAmount"] td.value');
    expect(total).toContain(String(EXPECTED.totalAmount));
    const date = await page.textContent('#fields tr[data-field="date"] td.value');
    expect(date).toContain(EXPECTED.date);
    expect(await page.textContent('#status')).toMatch(/done in \d+ ms/);

    // the canvas holds the image at its size and the boxes of every located field
    const canvas = await page.evaluate(() => {
      const c = document.getElementById('preview') as HTMLCanvasElement;
      return { width: c.width, height: c.height, boxes: Number(c.dataset.boxes) };
    });
    const img = readFileSync(PNG_PATH);
    expect(canvas.width).toBe(img.readUInt32BE(16));
    expect(canvas.height).toBe(img.readUInt32BE(20));
    const located = Object.values(result).filter((f: any) => f && typeof f === 'object' && f.data !== undefined && Array.isArray(f.regions) && f.regions.length);
    expect(located.length).toBeGreaterThan(3);
    expect(canvas.boxes).toBeGreaterThanOrEqual(located.length);

    // the total's box is drawn: its outline has the colour of the total's swatch, not the image's
    const poly = result.totalAmount.regions[0] as Array<{ x: number; y: number }>;
    const check = await page.evaluate((p) => {
      const c = document.getElementById('preview') as HTMLCanvasElement;
      const ctx = c.getContext('2d')!;
      const sw = document.querySelector('#fields tr[data-field="totalAmount"] .swatch') as HTMLElement;
      const m = /rgb\((\d+), (\d+), (\d+)\)/.exec(getComputedStyle(sw).backgroundColor)!;
      const want = [Number(m[1]), Number(m[2]), Number(m[3])];
      const near = (px: Uint8ClampedArray) => Math.abs(px[0]! - want[0]!) + Math.abs(px[1]! - want[1]!) + Math.abs(px[2]! - want[2]!) < 60;
      // sample along the top edge of the box
      let hits = 0;
      const n = 10;
      for (let i = 1; i < n; i++) {
        const x = Math.round(p[0]!.x + ((p[1]!.x - p[0]!.x) * i) / n);
        const y = Math.round(p[0]!.y + ((p[1]!.y - p[0]!.y) * i) / n);
        if (near(ctx.getImageData(x, y, 1, 1).data)) hits++;
      }
      return { hits, want };
    }, poly);
    expect(check.hits).toBeGreaterThanOrEqual(7);
    expect((page as Page & { errors: string[] }).errors).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  });

  it('shows the error message for a wrong key and asks for a missing one', async () => {
    const page = await openPage();
    await page.setInputFiles('#file', PNG_PATH);
    expect(await page.textContent('#status')).toMatch(/Type your API key first/);
    await page.fill('#apikey', 'wrong-key-wrong-key-wrong-key');
    await page.setInputFiles('#file', []);
    await page.setInputFiles('#file', PNG_PATH);
    await page.waitForSelector('body[data-state="error"]');
    expect(await page.textContent('#status')).toBe('Error 403: Invalid authentication credentials');
    expect(await page.$$eval('#fields tr', (rows) => rows.length)).toBe(0);
    expect(outside).toEqual([]);
    await page.close();
  });
});
