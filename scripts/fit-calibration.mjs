#!/usr/bin/env node
/**
 * Fits models/calibration.json (src/resolve/calibration.ts): per field, a monotone map from the
 * resolver's confidence to the share of such values that were right, on the TUNE halves of a
 * whole-corpus bench report whose confidences are the resolvers' own (engine option calibrated false):
 *
 *   npm run build && RK_OCR_CACHE=.bench-tmp/ocr-cache node bench/run.mjs --engine bench/replay-engine.mjs \
 *     --cold 0 --no-save --engine-opts '{"calibrated":false}' --out .bench-tmp/raw.json
 *   node scripts/fit-calibration.mjs .bench-tmp/raw.json [--out models/calibration.json] [--min 20] [--min-values 100] [--dry-run]
 *
 * (--assume-raw reads a report made by a build before calibration existed, whose confidences are raw too.)
 *
 * The fit: the values given (a prediction with a label to score it) of every set's tune half, pooled,
 * sorted by confidence; tied confidences start as one block; pool-adjacent-violators merges blocks until
 * the share right rises strictly from block to block, and a block of fewer than --min values is merged
 * with the neighbour whose share is closest (then PAV again). Each block is a knot: its mean confidence,
 * and its share right with one right and one wrong added (so 20 of 20 is 0.95, not 1). Of two blocks
 * left, the smaller is kept from half the minimum size (one block would rank nothing). A block whose
 * share right is not at least 0.9 with 95 % certainty (one-sided Wilson bound) is held at 0.89, and a
 * value under 0.9 is never raised to 0.9 or above (`hiFrom` >= 0.9): the map may lower a value that
 * accepted unchecked would fail too often, and raise values below 0.9 toward their share right, but the
 * set of values at 0.9 or above only shrinks. Raising the readers-disagree values (0.89) past 0.9 put
 * wrong totals there on two sets' check halves, and users' receipts read worse than the corpus.
 * Fields with fewer than --min-values (100) values keep their own confidences. Check halves are never read here; the bench
 * (bench/reliability.mjs, bench/halves.mjs) scores them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HI = 0.9;
/** One-sided 95 %. */
const Z = 1.645;

/** Lower Wilson bound of a share `right / n`. */
export function wilsonLower(right, n, z = Z) {
  if (!n) return 0;
  const p = right / n, z2 = z * z;
  return (p + z2 / (2 * n) - z * Math.sqrt((p * (1 - p) + z2 / (4 * n)) / n)) / (1 + z2 / n);
}

const rate = (b) => b.right / b.n;
const merge = (a, b) => ({ n: a.n + b.n, right: a.right + b.right, sum: a.sum + b.sum, lo: Math.min(a.lo, b.lo) });

/** Pool adjacent violators: merges neighbours until the share right rises strictly. */
function pav(blocks) {
  const out = [];
  for (const b of blocks) {
    out.push(b);
    while (out.length > 1 && rate(out[out.length - 2]) >= rate(out[out.length - 1])) out.push(merge(out.pop(), out.pop()));
  }
  return out;
}

/**
 * The map of one field from its values' (confidence, right) pairs: knots {x, y} (see the header).
 * Fewer than `minValues` values in all: no map (the field keeps its own confidence; a few dozen tax
 * values made one block of everything, which took every tax below 0.9).
 */
export function fitMap(pairs, { min = 20, minValues = 100 } = {}) {
  if (pairs.length < Math.max(min, minValues)) return undefined;
  const sorted = [...pairs].sort((a, b) => a.confidence - b.confidence);
  let blocks = [];
  for (const p of sorted) {
    const last = blocks[blocks.length - 1];
    const one = { n: 1, right: p.right ? 1 : 0, sum: p.confidence, lo: p.confidence };
    if (last && last.sum / last.n === p.confidence) blocks[blocks.length - 1] = merge(last, one);
    else blocks.push(one);
  }
  blocks = pav(blocks);
  for (;;) {
    const i = blocks.findIndex((b) => b.n < min);
    // two blocks are kept when the small one has half the minimum: one block maps every value alike and
    // ranks nothing (the tune half's 18 lowest totals, 12 right, would have joined 224 at 97 %)
    if (i < 0 || blocks.length === 1 || (blocks.length === 2 && blocks[i].n >= min / 2)) break;
    const left = blocks[i - 1], right = blocks[i + 1];
    const j = !left ? i + 1 : !right ? i - 1 : Math.abs(rate(left) - rate(blocks[i])) <= Math.abs(rate(right) - rate(blocks[i])) ? i - 1 : i + 1;
    const [a, b] = j < i ? [j, i] : [i, j];
    blocks.splice(a, 2, merge(blocks[a], blocks[b]));
    blocks = pav(blocks);
  }
  // blocks whose means round to one knot (the resolvers' 0.99 cap) are one block: the map's x must increase
  // (merging two neighbours of a rising sequence keeps it rising)
  const knot = (b) => Math.round((b.sum / b.n) * 1e4) / 1e4;
  for (let i = 1; i < blocks.length;) if (knot(blocks[i]) === knot(blocks[i - 1])) blocks.splice(i - 1, 2, merge(blocks[i - 1], blocks[i])); else i++;
  const x = [], y = [];
  let floor = 0, hiFrom;
  for (const b of blocks) {
    let v = (b.right + 1) / (b.n + 2);
    if (v >= HI && wilsonLower(b.right, b.n) < HI) v = HI - 0.01;
    floor = Math.max(floor, v);
    // never raised past 0.9: a value under it stays under it (the readers-disagree cap, private sets that read worse)
    if (floor >= HI && hiFrom === undefined) hiFrom = Math.max(b.lo, HI);
    x.push(knot(b));
    y.push(Math.round(floor * 1e4) / 1e4);
  }
  return { x, y, ...(hiFrom !== undefined ? { hiFrom } : {}), blocks: blocks.map((b) => ({ n: b.n, right: b.right, meanConfidence: knot(b) })) };
}

async function main() {
  const argv = process.argv.slice(2);
  const opt = (name, def) => { const i = argv.indexOf(`--${name}`); return i < 0 ? def : argv[i + 1]; };
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const file = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  if (!file) { console.error('usage: node scripts/fit-calibration.mjs REPORT.json [--out models/calibration.json] [--min 20] [--min-values 100] [--dry-run]'); process.exit(2); }
  const out = path.resolve(opt('out', path.join(repo, 'models', 'calibration.json')));
  const min = Number(opt('min', '20'));
  const minValues = Number(opt('min-values', '100'));
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  // --assume-raw: a report made by a build that had no calibration yet
  if (report.args?.engineOpts?.calibrated !== false && !argv.includes('--assume-raw')) {
    console.error(`${file}: its confidences are not the resolvers' own; make the report with --engine-opts '{"calibrated":false}'`);
    process.exit(2);
  }
  const { FIELDS } = await import(path.join(repo, 'bench', 'score.mjs'));
  const items = Object.values(report.datasets).flatMap((d) => d.items).filter((it) => it.half === 'tune' && !it.error);
  const fields = {}, counts = {};
  for (const f of FIELDS) {
    const pairs = items.filter((it) => typeof it.ok?.[f] === 'boolean' && it.conf?.[f] > 0).map((it) => ({ confidence: it.conf[f], right: it.ok[f] }));
    const m = fitMap(pairs, { min, minValues });
    if (!m) continue;
    fields[f] = { x: m.x, y: m.y, ...(m.hiFrom !== undefined ? { hiFrom: m.hiFrom } : {}) };
    counts[f] = m.blocks;
    console.log(`${f} (${pairs.length} values): ${m.blocks.map((b, i) => `${b.right}/${b.n} @${b.meanConfidence} -> ${m.y[i]}`).join('  ')}`);
  }
  const model = {
    version: 1,
    fields,
    fitted: {
      script: 'scripts/fit-calibration.mjs',
      date: new Date().toISOString().slice(0, 10),
      report: path.basename(file), engineOpts: report.args?.engineOpts ?? {}, commit: report.git?.commit ?? null, half: 'tune', minBlock: min, minValues,
      files: items.length, blocks: counts,
    },
  };
  if (argv.includes('--dry-run')) return;
  fs.writeFileSync(out, JSON.stringify(model, null, 1) + '\n');
  console.log(`wrote ${out}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
