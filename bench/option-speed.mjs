// Speed of two engine configurations on the same files, alternating, in one run (the machine is shared:
// compare the ratio of medians, never absolute times from different runs).
//
// Run: npm run build && node bench/option-speed.mjs --a '{"confirmPasses":0}' --b '{}' [--dataset sroie] [--limit 20]
//        [--extract '{"verbose":true}'] [--corpus PATH]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const corpus = path.resolve(opt('corpus', path.join(repoRoot, '../shared/corpus')));
const dataset = opt('dataset', 'sroie');
const limit = Number(opt('limit', 20));
const a = JSON.parse(opt('a', '{}')), b = JSON.parse(opt('b', '{}'));
const extractOpts = { ...JSON.parse(opt('extract', '{}')), refresh: true, incognito: true };

const { createEngine } = await import(pathToFileURL(path.join(repoRoot, 'dist/index.js')).href);
const dir = path.join(corpus, dataset, 'images');
const all = fs.readdirSync(dir).sort();
const step = Math.max(1, Math.floor(all.length / limit));
const files = all.filter((_, i) => i % step === 0).slice(0, limit).map((f) => path.join(dir, f));

const engines = { a: await createEngine({ workers: 1, ...a }), b: await createEngine({ workers: 1, ...b }) };
const times = { a: [], b: [] };
for (const [k, f] of files.entries()) {
  const buf = fs.readFileSync(f);
  for (const which of k % 2 ? ['b', 'a'] : ['a', 'b']) {
    const t0 = performance.now();
    await engines[which].extract(buf, extractOpts);
    times[which].push(performance.now() - t0);
  }
}
await engines.a.close();
await engines.b.close();
const median = (xs) => { const s = [...xs].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const p95 = (xs) => { const s = [...xs].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]; };
console.log(JSON.stringify({
  dataset, files: files.length, a, b,
  a_ms: { p50: Math.round(median(times.a)), p95: Math.round(p95(times.a)) },
  b_ms: { p50: Math.round(median(times.b)), p95: Math.round(p95(times.b)) },
  ratio_p50_b_over_a: +(median(times.b) / median(times.a)).toFixed(2),
}, null, 2));
