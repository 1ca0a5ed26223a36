#!/usr/bin/env node
/**
 * Where the reading of a one-page image can stop (issue 51 item 2), measured held out on the pool's
 * recorded readings (scripts/fit-fields.mjs --collect records each file's `stages`: the core fields as
 * tesseract's first reading alone, PaddleOCR's alone and the two weighed gave them, each with its confidence).
 *
 * For a stage and each core field (total, date, merchant name, currency), the stop line is the lowest raw
 * confidence from which that stage's answers are right at least --precision of the time (default 0.99) on the
 * labelled files of every source but one, with at least --min-files of them above it. A file stops at the
 * first stage when each of its core fields is at or above its line there (a field the stage did not find never
 * is); at the second, its total and its date each stop alone (STAGE_FIELDS). On the held-out source: the share
 * of its files that stop whole, and each field's accuracy when the stopped fields take the stage's answers and
 * the rest the engine's final ones, against the final answers throughout.
 *
 *   node scripts/fit-cascade.mjs --data REC-0.jsonl,REC-1.jsonl [--stages tesseract,both] [--precision 0.99]
 *        [--min-files 50] [--out FILE] [--write FILE]
 *
 * --write FILE writes the lines fitted on every source (models/cascade.json's shape: { version, stage: { field: line } }).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { scoreField } = await import(pathToFileURL(path.join(repo, 'bench', 'score.mjs')).href);

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };

/** The core fields: the record's short key, the scored field, the gold key. */
export const CORE = [['total', 'totalAmount'], ['date', 'date'], ['name', 'merchantName'], ['currency', 'currencyCode']];

/** Whether an answer [value, confidence] (or none) is right for a file's gold; null when the field is not labelled. */
export function rightness(field, answer, gold) {
  // the recorded gold names the currency `currency` (scripts/fit-fields.mjs), the scored field `currencyCode`
  if (field === 'currencyCode' && gold && gold.currencyCode === undefined) gold = { ...gold, currencyCode: gold.currency };
  const scored = scoreField(field, { [field]: answer ? { data: answer[0], confidenceLevel: answer[1] } : undefined }, gold);
  return scored ? scored.correct : null;
}

/**
 * The lowest confidence from which the answers (rows of { conf, right }) are right at least `precision` of the
 * time with at least `minFiles` of them at or above it; Infinity when none is.
 */
export function stopLine(rows, precision, minFiles) {
  const sorted = rows.filter((r) => r.right !== null).sort((a, b) => b.conf - a.conf);
  let best = Infinity, right = 0;
  for (let i = 0; i < sorted.length; i++) {
    right += sorted[i].right ? 1 : 0;
    const n = i + 1;
    // a line is placed only between two different confidences
    if (i + 1 < sorted.length && sorted[i + 1].conf === sorted[i].conf) continue;
    if (n >= minFiles && right / n >= precision) best = sorted[i].conf;
  }
  return best;
}

/** The lines of one stage fitted on records. */
export function fitLines(records, stage, precision, minFiles) {
  const lines = {};
  for (const [k, field] of CORE) {
    const rows = [];
    for (const r of records) {
      const a = r.stages?.[stage]?.[k];
      if (!a) continue;
      rows.push({ conf: a[1], right: rightness(field, a, r.gold) });
    }
    lines[k] = stopLine(rows, precision, minFiles);
  }
  return lines;
}

/**
 * How each stage stops (src/read/cascade.ts): at `tesseract` the file stops when all core fields are sure there
 * (the second reader then reads nothing); at `both` each of the total and the date stops alone (what is
 * read again after the two readings is the total's and the date's), the name and currency stay the final ones.
 */
// --joint a,b: the fields a joint stage stops on (default all four core fields; the others then take that stage's answers unchecked)
const JOINT = (opt('joint', '') || '').split(',').filter(Boolean);
export const STAGE_FIELDS = { tesseract: { joint: true, keys: CORE.map(([k]) => k) }, paddleocr: { joint: true, keys: CORE.map(([k]) => k) }, both: { joint: false, keys: ['total', 'date'] } };

const sureAt = (record, stage, lines, k) => { const a = record.stages?.[stage]?.[k]; return !!a && typeof lines[k] === 'number' && a[1] >= lines[k]; };

/** True when each of the stage's fields is at or above its line (the whole file stops there). */
export function stops(record, stage, lines) {
  const how = STAGE_FIELDS[stage] ?? STAGE_FIELDS.tesseract;
  const keys = how.joint && JOINT.length ? JOINT : how.keys;
  return !!record.stages?.[stage] && keys.every((k) => sureAt(record, stage, lines, k));
}

/** True when the file's field `k` takes the stage's answer: the file stops there, or the stage stops fields alone and this one is sure. */
export function takesStage(record, stage, lines, k) {
  const how = STAGE_FIELDS[stage] ?? STAGE_FIELDS.tesseract;
  if (how.joint) return stops(record, stage, lines);
  return how.keys.includes(k) && sureAt(record, stage, lines, k);
}

/** The two readers gave the same total and date (the thorough reading then reads neither again: read/index.ts `settled`). */
export function readersAgreed(r) {
  const a = r.stages?.tesseract, b = r.stages?.paddleocr;
  const same = (x, y) => !!x && !!y && (typeof x[0] === 'number' ? Math.abs(x[0] - y[0]) < 0.005 : x[0] === y[0]);
  return !!a && !!b && same(a.total, b.total) && same(a.date, b.date);
}

function main() {
  const files = (opt('data', '') || '').split(',').filter(Boolean);
  if (!files.length) { console.error('usage: node scripts/fit-cascade.mjs --data REC.jsonl[,REC2.jsonl] [--stages tesseract,both]'); process.exit(2); }
  const records = files.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))).filter((r) => r.stages);
  const stages = opt('stages', 'tesseract,both').split(',');
  const precision = Number(opt('precision', '0.99'));
  const minFiles = Number(opt('min-files', '50'));
  const sources = [...new Set(records.map((r) => r.ds))].sort();
  const report = { precision, minFiles, files: records.length, stages: {} };
  for (const stage of stages) {
    report.stages[stage] = { all: fitLines(records, stage, precision, minFiles), held: {} };
    console.log(`\n== stage ${stage}: lines on every source ${JSON.stringify(report.stages[stage].all)}`);
    console.log('held out     files  stop% extra%  ' + CORE.map(([k]) => `${k} final/cascade`).join('   '));
    for (const s of sources) {
      const train = records.filter((r) => r.ds !== s), test = records.filter((r) => r.ds === s);
      const lines = fitLines(train, stage, precision, minFiles);
      const stopped = test.filter((r) => stops(r, stage, lines));
      // of those, the files the thorough reading would have read again (its readers disagreed on the total or date)
      const extra = stopped.filter((r) => !readersAgreed(r));
      const per = {};
      for (const [k, field] of CORE) {
        let n = 0, fin = 0, cas = 0, stoppedWrong = 0;
        for (const r of test) {
          const f = rightness(field, r.final[k], r.gold);
          if (f === null) continue;
          const stop = takesStage(r, stage, lines, k);
          const c = stop ? rightness(field, r.stages[stage][k], r.gold) : f;
          n++; fin += f ? 1 : 0; cas += c ? 1 : 0; if (stop && !c) stoppedWrong++;
        }
        per[k] = { n, final: n ? fin / n : null, cascade: n ? cas / n : null, stoppedWrong };
      }
      report.stages[stage].held[s] = { files: test.length, stopped: stopped.length, extra: extra.length, lines, per };
      const pct = (x) => (x === null ? '   -  ' : (100 * x).toFixed(1).padStart(5));
      console.log(`${s.padEnd(12)} ${String(test.length).padStart(5)}  ${pct(stopped.length / test.length)} ${pct(extra.length / test.length)}   ` + CORE.map(([k]) => `${pct(per[k].final)}/${pct(per[k].cascade)}`.padEnd(19)).join(''));
    }
  }
  if (opt('out')) fs.writeFileSync(opt('out'), JSON.stringify(report, null, 1));
  if (opt('write')) {
    const model = { version: 1, fitted: new Date().toISOString().slice(0, 10), precision, minFiles, data: files.map((f) => path.basename(f)), stages: Object.fromEntries(stages.map((st) => [st, report.stages[st].all])) };
    fs.writeFileSync(opt('write'), JSON.stringify(model, null, 1) + '\n');
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
