#!/usr/bin/env node
// The script condition and tesseract's script detection (issue 50 item 3) on generated receipts
// (test/generators/script-pages.ts): Latin-script languages and scripts the installed data cannot read.
//   node bench/script-detect.mjs [--per N] [--seed S] [--languages en,ru,...] [--paddle] [--out FILE]
// --paddle: also the legibility of PaddleOCR's words on the same upright image (the fast reading's first reader),
// and how the condition (looksUnread) splits the pages on them.
// Per page: the first reading as the thorough way makes it (read/whole-page.ts, English, orientation search),
// the legibility of its words (read/script.ts), and OSD on the upright plain working image (ocr/script.ts)
// with its time. Prints one line a page, then per script the range of each measure, and the detection's
// answers; writes the rows as JSON to --out (default bench/reports/script-detect-<time>.json).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scriptPages } from '../test/generators/script-pages.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const dist = (p) => import(pathToFileURL(path.join(here, '../dist', p)).href);
const { OcrPool } = await dist('ocr/pool.js');
const { readWholePage } = await dist('read/whole-page.js');
const { legibility, looksUnread, withoutFigures } = await dist('read/script.js');
const { DEFAULT_SCALING, rotateGray } = await dist('ocr/preprocess.js');
const { loadInput } = await dist('input/index.js');

const pages = await scriptPages({ perLanguage: Number(opt('--per', '6')), seed: Number(opt('--seed', '50')), ...(opt('--languages') ? { languages: opt('--languages').split(',') } : {}) });
const pool = new OcrPool({ size: 1 });
const paddle = args.includes('--paddle') ? new (await dist('ocr/paddle.js')).PaddleReader() : undefined;
const rows = [];
try {
  // the OSD worker's start is not a page's cost: one detection first, unmeasured
  await pool.detectScript(rotateGray(await pool.working((await loadInput(pages[0].bytes)).pages[0], DEFAULT_SCALING, false), 0));
  for (const p of pages) {
    const page = (await loadInput(p.bytes)).pages[0];
    const t0 = performance.now();
    const r = await readWholePage(pool, page, { languages: ['eng'], detectOrientation: true });
    const readMs = performance.now() - t0;
    const l = legibility(r.page.lines.flatMap((line) => line.words));
    const work = await pool.working(page, DEFAULT_SCALING, false);
    const t1 = performance.now();
    const words = r.page.lines.flatMap((line) => line.words);
    const d = await pool.detectScript(withoutFigures(rotateGray(work, r.rotation), words, r.page));
    const osdMs = performance.now() - t1;
    const pl = paddle ? legibility((await paddle.readPage(rotateGray(work, r.rotation))).lines.flat()) : undefined;
    const row = { name: p.name, lang: p.lang, script: p.script, ...l, unread: looksUnread(l), ...(pl ? { paddle: { ...pl, unread: looksUnread(pl) } } : {}), rotation: r.rotation, detected: d?.script ?? null, confidence: d?.confidence ?? 0, raw: d?.scriptConfidence ?? 0, osdTurn: d?.orientation ?? null, osdMs: Math.round(osdMs), readMs: Math.round(readMs), size: `${work.width}x${work.height}` };
    rows.push(row);
    console.log([row.name.padEnd(14), String(row.letterWords).padStart(3), row.confidentShare.toFixed(2), row.meanConfidence.toFixed(2), `fig ${row.figureWords} ${row.figureShare.toFixed(2)}`, `rot ${row.rotation}`.padEnd(7), String(row.detected).padEnd(9), row.raw.toFixed(2), `turn ${row.osdTurn}`, `${row.osdMs} ms`, `read ${row.readMs} ms`].join('  '));
  }
} finally {
  await pool.close();
  await paddle?.close?.();
}

const range = (xs) => (xs.length ? `${Math.min(...xs).toFixed(2)}..${Math.max(...xs).toFixed(2)}` : '-');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : 0; };
console.log('\nscript     pages  confidentShare  meanConfidence  figureShare     detected as');
for (const script of [...new Set(rows.map((r) => r.script))]) {
  const mine = rows.filter((r) => r.script === script);
  const as = Object.entries(mine.reduce((a, r) => ({ ...a, [r.detected]: (a[r.detected] ?? 0) + 1 }), {})).map(([k, v]) => `${k} ${v}`).join(', ');
  console.log(`${script.padEnd(10)} ${String(mine.length).padStart(5)}  ${range(mine.map((r) => r.confidentShare)).padEnd(14)}  ${range(mine.map((r) => r.meanConfidence)).padEnd(14)}  ${range(mine.map((r) => r.figureShare)).padEnd(14)}  ${as}`);
}
const latin = rows.filter((r) => r.script === 'Latin'), other = rows.filter((r) => r.script !== 'Latin');
const split = (get) => `Latin pages ${latin.filter(get).length}/${latin.length}, other scripts ${other.filter(get).length}/${other.length}`;
console.log(`the condition (looksUnread) on tesseract's words: ${split((r) => r.unread)}`);
if (paddle) {
  console.log(`the condition on PaddleOCR's words: ${split((r) => r.paddle.unread)}`);
  console.log(`PaddleOCR confidentShare: Latin ${range(latin.map((r) => r.paddle.confidentShare))}, other ${range(other.map((r) => r.paddle.confidentShare))}; figureShare: Latin ${range(latin.map((r) => r.paddle.figureShare))}, other ${range(other.map((r) => r.paddle.figureShare))}`);
}
for (const t of [0.5, 0.6, 0.65, 0.7, 0.75, 0.8]) {
  console.log(`confidentShare < ${t}: Latin pages ${latin.filter((r) => r.confidentShare < t).length}/${latin.length}, other scripts ${other.filter((r) => r.confidentShare < t).length}/${other.length}`);
}
const ms = rows.map((r) => r.osdMs);
console.log(`OSD per page: median ${median(ms)} ms, ${Math.min(...ms)}..${Math.max(...ms)} ms`);
const out = opt('--out', path.join(here, 'reports', `script-detect-${new Date().toISOString().replace(/[:.]/g, '-')}.json`));
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(rows, null, 1) + '\n');
console.log(`rows: ${path.relative(process.cwd(), out)}`);
