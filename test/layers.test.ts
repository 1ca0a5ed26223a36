/**
 * Layering (issue 52): the folders of src/ import one way, top of the flow to the bottom. LAYERS is the
 * table of allowed directions, written once: a folder (or a file directly in src/, a unit of its own) may
 * import only the units of the rows below its row, never its own row's nor a row above. Checked: every unit
 * of src/ sits in exactly one row (a new folder is placed here before it is used), no import goes against
 * the table, and, whatever the table says, no folder imports a folder that (transitively) imports it back.
 * test/cycles.test.ts checks the files; this checks the folders they make up (madge's graph, type-only
 * imports included; the .cts entries only re-export a folder's index and are left out, as there).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import madge from 'madge';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The allowed directions: each row may import the rows below it. Top of the flow first (docs/how-it-works.md#layout). */
const LAYERS: readonly (readonly string[])[] = [
  ['index.ts'], // the public API
  ['cli'], // the commands: they start the server and the queue
  ['server', 'queue'], // the HTTP adapter, the PostgreSQL job queue
  ['engine.ts'], // wires the stages
  ['response', 'read'], // the result shapes; the reading strategy
  ['campaigns', 'enrich'], // stored rule sets; known merchants, products, categories
  ['store'], // persistence, the duplicate search
  ['similarity'], // the duplicate search's signature and score
  ['extract'], // the field stage: finders, then resolvers
  ['resolve', 'codes'], // choosing one value per field; QR codes and barcodes
  ['validate', 'classify', 'language', 'fraud'], // rules and reasons, document type, language, fraud signals
  ['contract'], // option schemas, result types, the extraction record
  ['ocr', 'geoip'], // the readers; offline GeoIP
  ['fields'], // candidate finders per field family
  ['input', 'locale'], // bytes to pages; conventions per country and language
  ['document', 'errors.ts'], // Document, lines, words, geometry; the one error class
];

/** A file's unit: its top folder under src/, or the file itself when it sits directly in src/. */
const unitOf = (file: string): string => file.split('/')[0]!;

type Graph = Map<string, Map<string, string[]>>;

/** The units and their imports of other units, each with the file imports that make it. */
function unitGraph(files: Record<string, string[]>): Graph {
  const g: Graph = new Map();
  for (const [file, deps] of Object.entries(files)) {
    const from = unitOf(file);
    const out = g.get(from) ?? new Map<string, string[]>();
    g.set(from, out);
    for (const dep of deps) {
      const to = unitOf(dep);
      if (to !== from) out.set(to, [...(out.get(to) ?? []), `${file} -> ${dep}`]);
    }
  }
  return g;
}

/** The units' import cycles: every strongly connected set of two or more units (Tarjan), sorted. */
function unitCycles(g: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); onStack.add(v);
    for (const w of g.get(v)?.keys() ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const set: string[] = [];
    let w: string;
    do { w = stack.pop()!; onStack.delete(w); set.push(w); } while (w !== v);
    if (set.length > 1) out.push(set.sort());
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Every import of a unit by a unit of its own row or a row above, with the file imports behind it. */
function againstTable(g: Graph, layers: readonly (readonly string[])[]): string[] {
  const row = new Map(layers.flatMap((units, i) => units.map((u) => [u, i] as const)));
  const out: string[] = [];
  for (const [from, tos] of g) {
    for (const [to, why] of tos) {
      if (row.has(from) && row.has(to) && row.get(from)! < row.get(to)!) continue;
      out.push(`${from} -> ${to} (${why.join('; ')})`);
    }
  }
  return out.sort();
}

let graph: Graph;

beforeAll(async () => {
  const files = (await madge(path.join(ROOT, 'src'), {
    fileExtensions: ['ts'],
    tsConfig: path.join(ROOT, 'tsconfig.json'),
    detectiveOptions: { ts: { skipTypeImports: false } },
  })).obj();
  expect(Object.keys(files).length).toBeGreaterThan(100); // the whole tree was read
  graph = unitGraph(files);
}, 60_000);

describe('folder layering', () => {
  it('every folder and top-level file of src/ has one row of the table, and every row names one', () => {
    const listed = LAYERS.flat();
    expect(listed.filter((u, i) => listed.indexOf(u) !== i), 'listed twice').toEqual([]);
    expect([...graph.keys()].filter((u) => !listed.includes(u)).sort(), 'in src/, not in LAYERS').toEqual([]);
    expect(listed.filter((u) => !graph.has(u)), 'in LAYERS, not in src/').toEqual([]);
  });

  it('no folder imports its own row or a row above it', () => {
    expect(againstTable(graph, LAYERS)).toEqual([]);
  });

  it('no folder imports a folder that (transitively) imports it back', () => {
    expect(unitCycles(graph)).toEqual([]);
  });

  it('the checks find a cycle and an import against the table (they would catch one)', () => {
    const g: Graph = new Map([
      ['a', new Map([['b', ['a/x.ts -> b/y.ts']]])],
      ['b', new Map([['c', ['b/y.ts -> c/z.ts']]])],
      ['c', new Map([['a', ['c/z.ts -> a/x.ts']]])],
      ['d', new Map()],
    ]);
    expect(unitCycles(g)).toEqual([['a', 'b', 'c']]);
    expect(againstTable(g, [['a'], ['b'], ['c', 'd']])).toEqual(['c -> a (c/z.ts -> a/x.ts)']);
  });
});
