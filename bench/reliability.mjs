#!/usr/bin/env node
// Reliability table of a bench report: per field, the values given grouped by confidence, with the share
// right in each group, on the check halves of every set (or `--half tune|all`):
//   node bench/reliability.mjs REPORT.json [--half check|tune|all] [--dataset NAME] [--min 20]
// A group is well calibrated when its share right is close to its mean confidence; groups with fewer than
// `--min` values (default 20) are printed but marked, since their share says little. Each group off by more
// than 5 points is listed after the table with the Wilson 95 % interval of its share: when the interval holds
// the group's mean confidence, a group of that size can be that far off by chance alone.
import fs from 'node:fs';
import { CONFIDENCE_GROUPS, FIELDS, halfOf, reliabilityGroups } from './score.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const half = opt('--half', 'check');
const only = opt('--dataset');
const min = Number(opt('--min', 20));
const file = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!file || !['check', 'tune', 'all'].includes(half)) {
  console.error('usage: node bench/reliability.mjs REPORT.json [--half check|tune|all] [--dataset NAME] [--min 20]');
  process.exit(2);
}
const report = JSON.parse(fs.readFileSync(file, 'utf8'));
const items = Object.entries(report.datasets)
  .filter(([ds]) => !only || ds === only)
  .flatMap(([, d]) => d.items)
  .filter((it) => half === 'all' || halfOf(it.id) === half);

console.log(`Reliability, ${half === 'all' ? 'all items' : `${half} halves`}${only ? ` of ${only}` : ' of every set'} (${report.git?.commit ?? '?'}, ${report.createdAt ?? ''})\n`);
console.log('| field | ' + CONFIDENCE_GROUPS.map(([a, b]) => `${a.toFixed(2)}–${Math.min(b, 1).toFixed(2)}`).join(' | ') + ' |');
console.log('|---|' + CONFIDENCE_GROUPS.map(() => '---').join('|') + '|');
let off = 0;
const offGroups = [];
/** Wilson 95 % interval of k right of n. */
const wilson = (k, n) => {
  const z = 1.96, p = k / n, d = 1 + (z * z) / n, c = p + (z * z) / (2 * n), r = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [(c - r) / d, (c + r) / d];
};
for (const f of FIELDS) {
  const groups = reliabilityGroups(items, f);
  if (!groups.some((g) => g.n)) continue;
  const cells = groups.map((g) => {
    if (!g.n) return '-';
    const share = g.right / g.n;
    const miss = g.n >= min && Math.abs(share - g.meanConfidence) > 0.05;
    if (miss) { off++; offGroups.push({ f, g, share }); }
    return `${(100 * share).toFixed(0)} % of ${g.n} (mean ${g.meanConfidence.toFixed(2)})${g.n < min ? ' ·' : ''}${miss ? ' ✗' : ''}`;
  });
  console.log(`| ${f} | ${cells.join(' | ')} |`);
}
console.log(`\n· fewer than ${min} values; ✗ share right more than 5 points from the mean confidence (${off} groups).`);
for (const { f, g, share } of offGroups) {
  const [lo, hi] = wilson(g.right, g.n);
  const chance = g.meanConfidence >= lo && g.meanConfidence <= hi;
  console.log(`- ${f} at ${g.meanConfidence.toFixed(2)}: ${g.right}/${g.n} right (${(100 * share).toFixed(0)} %), 95 % interval ${(100 * lo).toFixed(0)}-${(100 * hi).toFixed(0)} %: ${chance ? 'holds the mean confidence (within chance for its size)' : 'does not hold the mean confidence'}`);
}
