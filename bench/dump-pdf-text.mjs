// Dev-only: the text layers of the corpus invoice PDFs as lines of words (what the real PDF input stage
// produces), written to /tmp/ocrdump/invoices-pdf/<id>.json for bench/fields-dev.mjs.
// Build first: npx tsc -p bench/fields-dev.tsconfig.json (and link node_modules: ln -s $PWD/node_modules /tmp/rk-build/node_modules)
import fs from 'node:fs';
import path from 'node:path';

const BUILD = process.env.RK_BUILD ?? '/tmp/rk-build';
const OUT = `${process.env.RK_DUMP ?? '/tmp/ocrdump'}/invoices-pdf`;
const CORPUS = process.env.RK_CORPUS ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../shared/corpus');
const { loadPdf } = await import(`${BUILD}/input/pdf.js`);
const { DEFAULT_LIMITS } = await import(`${BUILD}/input/types.js`);
const { linesFromWords } = await import(`${BUILD}/document/layout.js`);
fs.mkdirSync(OUT, { recursive: true });
const dir = `${CORPUS}/invoices/images`;
for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.pdf'))) {
  const id = f.replace(/\.pdf$/, '');
  const r = await loadPdf(fs.readFileSync(`${dir}/${f}`), DEFAULT_LIMITS);
  const pages = r.pages.map((p) => (p.kind === 'text'
    ? { kind: 'text', width: p.width, height: p.height, lines: linesFromWords(p.words).map((l) => ({ text: l.text, conf: 1, words: l.words.map((w) => ({ text: w.text, conf: 1, box: w.box })) })) }
    : { kind: 'raster', width: p.width, height: p.height, lines: [] }));
  fs.writeFileSync(`${OUT}/${id}.json`, JSON.stringify({ id, pages }));
  console.log(id, pages.map((p) => `${p.kind}:${p.lines.length}`).join(' '));
}
