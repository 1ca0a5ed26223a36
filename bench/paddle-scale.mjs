// PaddleOCR on the corpus's small images (long side under MAXLONG, default 1000) read at their own size and
// enlarged to TARGET (default 1000) px, at most KMAX (default 3) times: how many labelled totals, dates and
// names are present in each reading's text, the files where the two differ, and the mean reading time.
//   npm run build && KMAX=2 node bench/paddle-scale.mjs wildreceipt_world us_uk_eu_receipts [--corpus ../shared/corpus]
import fs from 'node:fs'; import sharp from 'sharp';
const { PaddleReader } = await import('../dist/ocr/paddle.js');
const { linesFromWords } = await import('../dist/document/layout.js');
const p = new PaddleReader({});
const MAXLONG = +(process.env.MAXLONG ?? 1000), TARGET = +(process.env.TARGET ?? 1000), KMAX = +(process.env.KMAX ?? 3);
const norm = (s) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');
const digits = (s) => s.replace(/[^0-9]/g, '');
const tally = {};
const args = process.argv.slice(2);
const at = args.indexOf('--corpus');
const corpus = at >= 0 ? args.splice(at, 2)[1] : new URL('../../shared/corpus', import.meta.url).pathname;
for (const ds of args) {
  const dir = `${corpus}/${ds}`;
  for (const f of fs.readdirSync(`${dir}/images`).sort()) {
    const id = f.replace(/\.[^.]+$/, '');
    let lab; try { lab = JSON.parse(fs.readFileSync(`${dir}/labels/${id}.json`, 'utf8')); } catch { continue; }
    const m = await sharp(`${dir}/images/${f}`).rotate().metadata().catch(() => null); if (!m) continue;
    const w = m.orientation >= 5 ? m.height : m.width, h = m.orientation >= 5 ? m.width : m.height;
    const long = Math.max(w, h); if (long >= MAXLONG) continue;
    const k = Math.min(KMAX, TARGET / long);
    const row = [];
    for (const kk of [1, k]) {
      const { data, info } = await sharp(`${dir}/images/${f}`).rotate().resize(Math.round(w * kk), Math.round(h * kk), { kernel: 'lanczos3', fit: 'fill' }).grayscale().raw().toBuffer({ resolveWithObject: true });
      const t0 = Date.now();
      const words = await p.read({ gray: data, width: info.width, height: info.height });
      const ms = Date.now() - t0;
      const text = linesFromWords(words).map((l) => l.text).join('\n');
      const tot = lab.totalAmount != null && digits(text).includes(digits(Number(lab.totalAmount).toFixed(2)));
      const [y, mo, d] = (lab.date ?? '').split('-');
      const dt = !!lab.date && (digits(text).includes(d + mo) || digits(text).includes(mo + d) || digits(text).includes(y + mo + d) || new RegExp(`\\b0?${+d}\\b`).test(text) && text.includes(y.slice(2)));
      const nm = !!lab.merchantName && norm(text).includes(norm(lab.merchantName).slice(0, 12));
      row.push({ tot, dt, nm, ms });
    }
    const key = ds.slice(0, 5);
    const t = (tally[key] ??= { n: 0, tot: [0, 0], dt: [0, 0], nm: [0, 0], ms: [0, 0], diff: [] });
    t.n++; for (let i = 0; i < 2; i++) { t.tot[i] += row[i].tot; t.dt[i] += row[i].dt; t.nm[i] += row[i].nm; t.ms[i] += row[i].ms; }
    const ch = ['tot', 'dt', 'nm'].filter((q) => row[0][q] !== row[1][q]).map((q) => `${q}${row[1][q] ? '+' : '-'}`);
    if (ch.length) t.diff.push(`${id}(${long}):${ch.join(',')}`);
  }
}
for (const [k, t] of Object.entries(tally)) console.log(k, 'n', t.n, 'total', t.tot.join('->'), 'date', t.dt.join('->'), 'name', t.nm.join('->'), 'ms', t.ms.map((x) => Math.round(x / t.n)).join('->'), '\n   ', t.diff.join(' '));
await p.close();
