// What the codes stage adds to an extraction: the engine's `codes` stage time (it runs after the reading,
// on the page's shared pixels) against the whole extraction, per page, on corpus files (default: the
// first N of each set given, 20 of sroie). Simple results, warm engine, one file at a time.
//   node bench/codes-speed.mjs [corpusDir] [--sets sroie,indo_receipts_phone] [--files 20]
import { readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createEngine } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values, positionals } = parseArgs({ allowPositionals: true, options: { sets: { type: 'string', default: 'sroie' }, files: { type: 'string', default: '20' } } });
const root = path.resolve(positionals[0] ?? path.join(here, '../../shared/corpus'));
let last;
const engine = await createEngine({ onStageTimes: (t) => { last = t; } });
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? Math.round(s[Math.floor(s.length / 2)] * 10) / 10 : null; };
const out = {};
for (const set of values.sets.split(',')) {
  const files = readdirSync(path.join(root, set, 'images')).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort().slice(0, Number(values.files));
  await engine.extract(path.join(root, set, 'images', files[0]), { refresh: true, incognito: true }); // warm
  const codes = [], total = [], withCodes = [];
  for (const f of files) {
    last = undefined;
    const t0 = performance.now();
    const r = await engine.extract(path.join(root, set, 'images', f), { refresh: true, incognito: true, verbose: true, detectFraud: false, extractLineItems: false });
    const ms = performance.now() - t0;
    if (r.entities.codes?.length) { withCodes.push(f); continue; }
    codes.push(last?.codes ?? 0);
    total.push(ms);
  }
  out[set] = { pagesWithoutCodes: codes.length, pagesWithCodes: withCodes.length, codesP50Ms: med(codes), codesMaxMs: Math.round(Math.max(...codes)), extractP50Ms: med(total), share: `${(100 * med(codes) / med(total)).toFixed(1)} %` };
  console.log(set, JSON.stringify(out[set]));
}
await engine.close();
mkdirSync(path.join(here, 'reports'), { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19) + 'Z';
writeFileSync(path.join(here, 'reports', `codes-speed-${stamp}.json`), JSON.stringify({ corpus: root, out }, null, 1));
