// Dev scoring of the field finders on stored OCR output (no OCR here), per ../shared/corpus/SCORING.md.
//
// Input: /tmp/ocrdump/<dataset>/<id>.json ({ width, height, lines: [{ text, conf, words: [{ text, conf, box }] }] })
// and /tmp/ocrdump/invoices-pdf/<id>.json ({ pages: [{ kind, width, height, lines }] }) for the PDF text layers.
// Build first (into /tmp/rk-build):  npx tsc -p bench/fields-dev.tsconfig.json; PDF text layers: node bench/dump-pdf-text.mjs
// Run:  node bench/fields-dev.mjs [--dataset sroie] [--field totalAmount] [--fails | --all] [--id X51005...] [--dump features.json] [--docs DIR]
// --fails/--all print each prediction with its evidence terms; --dump writes them as JSON (for calibration).
import fs from 'node:fs';
import path from 'node:path';

const BUILD = process.env.RK_BUILD ?? '/tmp/rk-build';
const DUMP = process.env.RK_DUMP ?? '/tmp/ocrdump';
const CORPUS = process.env.RK_CORPUS ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../shared/corpus');
const { extractFields } = await import(`${BUILD}/extract/index.js`);
const { buildDocument, lineFromWords } = await import(`${BUILD}/document/geometry.js`);

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
const flag = (name) => args.includes(`--${name}`);
const onlyDataset = opt('dataset');
const onlyField = opt('field');
const onlyId = opt('id');
// --docs DIR: Documents saved from the real pipeline (engine.analyze(...).document as JSON, DIR/<dataset>/<id>.json)
const docsDir = opt('docs');
const showFails = flag('fails');
const showAll = flag('all');
const dumpPath = opt('dump');
const dump = [];
const NOW = new Date('2026-01-01T00:00:00Z');

function docFromOcr(d) {
  const lines = d.lines
    .map((l) => l.words.filter((w) => w.text.trim()).map((w) => ({ text: w.text, confidence: w.conf, box: w.box })))
    .filter((ws) => ws.length)
    .map((ws) => lineFromWords(ws));
  return buildDocument([{ index: 0, source: 'ocr', width: d.width, height: d.height, originalWidth: d.width, originalHeight: d.height, rotation: 0, lines }]);
}
function docFromPdf(d) {
  return buildDocument(d.pages.map((p, i) => ({
    index: i, source: p.kind === 'text' ? 'pdf-text' : 'ocr', width: p.width, height: p.height, originalWidth: p.width, originalHeight: p.height, rotation: 0,
    lines: p.lines.map((l) => lineFromWords(l.words.map((w) => ({ text: w.text, confidence: w.conf, box: w.box })))),
  })));
}

const norm = (s) => String(s).toUpperCase().replace(/[^A-Z0-9&]+/g, ' ').trim();
function lev(a, b) {
  if (a === b) return 0;
  const m = a.length, n = b.length;
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[n];
}
const sim = (a, b) => { const L = Math.max(a.length, b.length); return L ? 1 - lev(a, b) / L : 1; };

const SCORERS = {
  totalAmount: { label: (l) => l.totalAmount, pred: (r) => r.totalAmount, ok: (p, g) => Math.abs(p - g) < 0.005 },
  taxAmount: { label: (l, li) => l.taxAmount ?? li?.taxAmount, pred: (r) => r.taxAmount, ok: (p, g) => Math.abs(p - g) < 0.005, absentOk: (g) => g === 0 },
  date: { label: (l) => l.date, pred: (r) => r.date, ok: (p, g) => String(p).slice(0, 10) === g },
  merchantName: {
    label: (l) => l.merchantName, pred: (r) => r.merchantName,
    ok: (p, g) => { const a = norm(p), b = norm(g); if (sim(a, b) >= 0.8) return true; const [s, t] = a.length <= b.length ? [a, b] : [b, a]; return s.length >= 4 && t.includes(s); },
  },
  merchantAddress: { label: (l) => l.merchantAddress, pred: (r) => r.merchantAddress, ok: (p, g) => sim(norm(p), norm(g)) >= 0.8 },
  invoiceNumber: {
    label: (l) => l.invoiceNumber, pred: (r) => r.invoiceNumber ?? r.receiptNumber,
    ok: (p, g) => norm(p).replace(/ /g, '') === norm(g).replace(/ /g, ''),
  },
  currencyCode: { label: (l) => l.currency, pred: (r) => r.currencyCode, ok: (p, g) => p === g },
};

const datasets = ['sroie', 'indo_receipts_phone', 'invoices'].filter((d) => !onlyDataset || d === onlyDataset);
const table = [];
const timing = [];
for (const ds of datasets) {
  const labelDir = `${CORPUS}/${ds}/labels`;
  const ids = fs.readdirSync(labelDir).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
  const stats = {};
  for (const id of ids) {
    if (onlyId && id !== onlyId) continue;
    const label = JSON.parse(fs.readFileSync(`${labelDir}/${id}.json`, 'utf8'));
    const liPath = `${CORPUS}/${ds}/lineitems/${id}.json`;
    const li = fs.existsSync(liPath) ? JSON.parse(fs.readFileSync(liPath, 'utf8')) : undefined;
    let doc;
    const pdfPath = `${DUMP}/invoices-pdf/${id}.json`;
    const ocrPath = `${DUMP}/${ds}/${id}.json`;
    if (docsDir) {
      const p = `${docsDir}/${ds}/${id}.json`;
      if (!fs.existsSync(p)) { console.error(`no document for ${ds}/${id}`); continue; }
      doc = JSON.parse(fs.readFileSync(p, 'utf8'));
    } else if (ds === 'invoices' && fs.existsSync(pdfPath)) doc = docFromPdf(JSON.parse(fs.readFileSync(pdfPath, 'utf8')));
    else if (fs.existsSync(ocrPath)) doc = docFromOcr(JSON.parse(fs.readFileSync(ocrPath, 'utf8')));
    else { console.error(`no dump for ${ds}/${id}`); continue; }
    const t0 = performance.now();
    const r = extractFields(doc, { extractTime: false, now: NOW });
    timing.push({ ms: performance.now() - t0, lines: doc.lines.length });
    for (const [field, sc] of Object.entries(SCORERS)) {
      if (onlyField && field !== onlyField) continue;
      const gold = sc.label(label, li);
      if (gold === undefined || gold === null) continue;
      const s = (stats[field] ??= { n: 0, ok: 0, hi: 0, hiOk: 0 });
      s.n++;
      const p = sc.pred(r);
      const right = p ? sc.ok(p.value, gold) : !!sc.absentOk?.(gold);
      if (right) s.ok++;
      if (p && p.confidence >= 0.9) { s.hi++; if (right) s.hiOk++; }
      if (dumpPath) dump.push({ dataset: ds, id, field, right, predicted: !!p, confidence: p?.confidence ?? 0, evidence: r.evidence?.[field] ?? [] });
      if ((showFails && !right) || (showFails && p && p.confidence >= 0.9 && !right) || showAll) {
        console.log(`${right ? 'OK  ' : 'FAIL'} ${ds}/${id} ${field}: gold=${JSON.stringify(gold)} pred=${p ? JSON.stringify(p.value) : '-'} conf=${p ? p.confidence.toFixed(2) : '-'} kw=${p?.keyword ?? ''} line=${p ? JSON.stringify(p.text) : ''}${r.evidence?.[field] ? ' ev=' + r.evidence[field].join(',') : ''}`);
      }
    }
  }
  for (const [field, s] of Object.entries(stats)) {
    table.push({ dataset: ds, field, n: s.n, accuracy: pct(s.ok, s.n), hiPrecision: s.hi ? pct(s.hiOk, s.hi) : '-', hiShare: pct(s.hi, s.n) });
  }
}
function pct(a, b) { return b ? `${(100 * a / b).toFixed(1)}` : '-'; }
console.table(table);
if (dumpPath) fs.writeFileSync(dumpPath, JSON.stringify(dump));
if (timing.length) {
  const ms = timing.map((t) => t.ms).sort((a, b) => a - b);
  console.log(`extractFields ms: p50 ${ms[Math.floor(ms.length / 2)].toFixed(2)} p95 ${ms[Math.floor(ms.length * 0.95)].toFixed(2)} max ${ms[ms.length - 1].toFixed(2)} (lines max ${Math.max(...timing.map((t) => t.lines))})`);
}
