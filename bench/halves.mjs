#!/usr/bin/env node
// Markdown tables of a bench report by half (tune / check), optionally against an earlier report:
//   node bench/halves.mjs AFTER.json [BEFORE.json] [--dataset NAME]
// Per dataset and field: accuracy on the whole set, the tune half and the check half (before -> after
// when BEFORE is given, on the items both reports hold), and precision at confidence >= 0.9.
// Halves are recomputed from the item ids (score.mjs halfOf), so reports made before halves existed compare too.
import fs from 'node:fs';
import { FIELDS, HALVES, HI_CONF, halfOf } from './score.mjs';

const args = process.argv.slice(2);
const only = args.includes('--dataset') ? args[args.indexOf('--dataset') + 1] : undefined;
const files = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--dataset');
if (!files.length) { console.error('usage: node bench/halves.mjs AFTER.json [BEFORE.json] [--dataset NAME]'); process.exit(2); }
const [after, before] = files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));

/** Correct / scored, and right / predicted at >= 0.9, of one field over some items. */
function score(items, f) {
  const scored = items.filter((it) => f in (it.ok ?? {}));
  const hi = scored.filter((it) => (it.conf?.[f] ?? 0) >= HI_CONF);
  return { n: scored.length, ok: scored.filter((it) => it.ok[f]).length, hiN: hi.length, hiOk: hi.filter((it) => it.ok[f]).length };
}
const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}` : '-');
const cell = (s) => (s.n ? `${pct(s.ok, s.n)} (${s.ok}/${s.n})` : '-');
const change = (b, a) => (b ? `${b.n ? pct(b.ok, b.n) : '-'} → ${cell(a)}` : cell(a));

for (const [ds, d] of Object.entries(after.datasets)) {
  if (only && ds !== only) continue;
  const prev = before?.datasets?.[ds];
  const prevIds = prev ? new Set(prev.items.map((it) => it.id)) : undefined;
  const items = prevIds ? d.items.filter((it) => prevIds.has(it.id)) : d.items;
  const prevItems = prev ? prev.items.filter((it) => items.some((x) => x.id === it.id)) : undefined;
  console.log(`\n**${ds}** (${items.length} files${prev ? `; before: ${before.git?.commit ?? '?'}, after: ${after.git?.commit ?? '?'}` : ''})\n`);
  console.log(`| field | all | tune | check | precision at ≥ 0.9 |`);
  console.log(`|---|---|---|---|---|`);
  for (const f of FIELDS) {
    const a = score(items, f);
    if (!a.n) continue;
    const part = (list, h) => list.filter((it) => halfOf(it.id) === h);
    const b = prevItems ? score(prevItems, f) : undefined;
    const halves = HALVES.map((h) => change(prevItems ? score(part(prevItems, h), f) : undefined, score(part(items, h), f)));
    const hi = `${pct(a.hiOk, a.hiN)} (${a.hiOk}/${a.hiN})`;
    const hiBefore = b ? `${pct(b.hiOk, b.hiN)} → ` : '';
    console.log(`| ${f} | ${change(b, a)} | ${halves.join(' | ')} | ${hiBefore}${hi} |`);
  }
}
