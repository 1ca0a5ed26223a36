/**
 * The docs (issue 52): the README is a front door of at most 250 lines, and every option, error code and
 * CLI flag is documented exactly once in docs/. "Documented" means: named (in backticks) in the first cell
 * of a row of a table whose header's first cell says what the table lists (`option`, `code`, `flag`).
 * Options are checked per schema (its table sits under the heading "Extraction options" or "Engine
 * options" of docs/api.md); an object-valued option is either one row naming each of its keys in
 * backticks, or one row per key (`limits.maxFileBytes`). A row that names nothing the code has fails too,
 * and every relative link of the README and docs/ must reach a file and, with `#anchor`, a heading there.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { engineOptionsSchema, extractOptionsSchema } from '../src/contract/options.js';
import { ERROR_STATUS } from '../src/errors.js';
import { CLI_OPTIONS } from '../src/cli/args.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = path.join(ROOT, 'docs');

interface Row { page: string; heading: string; header: string; cells: string[]; names: string[] }

const cellsOf = (line: string): string[] => line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
/** The names a first cell gives: each backticked run, without a flag's leading dashes' arguments. */
const namesIn = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.trim());

/** Every table row of a markdown page (code fences skipped), with the heading it sits under. */
function tableRows(page: string, text: string): Row[] {
  const rows: Row[] = [];
  let heading = '';
  let header: string | undefined;
  let fence = false;
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (line.startsWith('```')) { fence = !fence; return; }
    if (fence) return;
    const h = /^#{1,6} (.*)/.exec(line);
    if (h) { heading = h[1]!.trim(); header = undefined; return; }
    if (!line.trim().startsWith('|')) { header = undefined; return; }
    if (/^\|[\s|:-]+\|$/.test(line.trim())) return; // the separator row
    if (header === undefined && /^\|[\s|:-]+\|$/.test((lines[i + 1] ?? '').trim())) { header = cellsOf(line)[0] ?? ''; return; }
    const cells = cellsOf(line);
    rows.push({ page, heading, header: header ?? '', cells, names: namesIn(cells[0] ?? '') });
  });
  return rows;
}

const pages = readdirSync(DOCS).filter((f) => f.endsWith('.md'));
const allRows = pages.flatMap((p) => tableRows(p, readFileSync(path.join(DOCS, p), 'utf8')));

/** The keys of a zod object schema, and for object-valued keys their own keys. */
function schemaKeys(schema: z.ZodObject): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [key, value] of Object.entries(schema.shape)) {
    let inner: z.ZodType = value as z.ZodType;
    while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType;
    out.set(key, inner instanceof z.ZodObject ? Object.keys(inner.shape) : []);
  }
  return out;
}

/** Counts of each name given by the first cells of the rows that match. */
function counted(rows: Row[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const r of rows) for (const name of r.names) n.set(name, (n.get(name) ?? 0) + 1);
  return n;
}

function checkOptions(heading: string, schema: z.ZodObject): string[] {
  const rows = allRows.filter((r) => r.page === 'api.md' && r.heading === heading && r.header === 'option');
  const problems: string[] = [];
  if (rows.length === 0) return [`docs/api.md has no option table under "${heading}"`];
  const n = counted(rows);
  const known = new Set<string>();
  for (const [key, subKeys] of schemaKeys(schema)) {
    known.add(key);
    const perKey = subKeys.map((k) => `${key}.${k}`);
    perKey.forEach((k) => known.add(k));
    if (subKeys.length > 0 && perKey.some((k) => n.has(k))) {
      for (const k of perKey) if (n.get(k) !== 1) problems.push(`${heading}: ${k} documented ${n.get(k) ?? 0} times`);
      if (n.has(key)) problems.push(`${heading}: ${key} has a row of its own and rows per key`);
      continue;
    }
    if (n.get(key) !== 1) { problems.push(`${heading}: ${key} documented ${n.get(key) ?? 0} times`); continue; }
    const row = rows.find((r) => r.names.includes(key))!;
    for (const k of subKeys) if (!row.cells.join(' | ').includes(`\`${k}\``)) problems.push(`${heading}: ${key}'s row does not name \`${k}\``);
  }
  for (const name of n.keys()) if (!known.has(name)) problems.push(`${heading}: a row names ${name}, which is not an option`);
  return problems;
}

describe('docs', () => {
  it('the README is a front door of 150 to 250 lines that links into docs/', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const lines = readme.trimEnd().split('\n').length;
    expect(lines).toBeGreaterThanOrEqual(150);
    expect(lines).toBeLessThanOrEqual(250);
    for (const cmd of ['npm install receiptkit-ocr', 'npm run sample', 'npm test', 'npm run test:unit']) expect(readme).toContain(cmd);
    const linked = new Set([...readme.matchAll(/\]\(docs\/([\w.-]+\.md)/g)].map((m) => m[1]));
    for (const p of pages) if (p !== 'README.md') expect(linked.has(p), `README links docs/${p}`).toBe(true);
  });

  it('every extraction option is documented once in docs/api.md, and nothing else is', () => {
    expect(checkOptions('Extraction options', extractOptionsSchema)).toEqual([]);
  });

  it('every engine option is documented once in docs/api.md, and nothing else is', () => {
    expect(checkOptions('Engine options', engineOptionsSchema)).toEqual([]);
  });

  it('every error code is documented once in docs/, with its HTTP status', () => {
    const rows = allRows.filter((r) => r.header === 'code');
    const n = counted(rows);
    const problems: string[] = [];
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      if (n.get(code) !== 1) { problems.push(`${code} documented ${n.get(code) ?? 0} times`); continue; }
      const row = rows.find((r) => r.names.includes(code))!;
      if (row.names.length !== 1 || row.cells[1] !== String(status)) problems.push(`${code}: row ${row.cells.slice(0, 2).join(' | ')} is not "${code} | ${status}"`);
    }
    for (const name of n.keys()) if (!(name in ERROR_STATUS)) problems.push(`a code row names ${name}, which is not an error code`);
    expect(problems).toEqual([]);
  });

  it('every CLI flag is documented once in docs/cli.md, and nothing else is', () => {
    const rows = allRows.filter((r) => r.header === 'flag');
    expect(rows.every((r) => r.page === 'cli.md')).toBe(true);
    const flags = new Map<string, number>();
    for (const r of rows) for (const name of r.names) if (name.startsWith('--')) flags.set(name.slice(2), (flags.get(name.slice(2)) ?? 0) + 1);
    const problems: string[] = [];
    for (const [flag, spec] of Object.entries(CLI_OPTIONS)) {
      if (flags.get(flag) !== 1) { problems.push(`--${flag} documented ${flags.get(flag) ?? 0} times`); continue; }
      const short = (spec as { short?: string }).short;
      const row = rows.find((r) => r.names.includes(`--${flag}`))!;
      if (short && !row.names.includes(`-${short}`)) problems.push(`--${flag}'s row does not name -${short}`);
    }
    for (const flag of flags.keys()) if (!(flag in CLI_OPTIONS)) problems.push(`a flag row names --${flag}, which the CLI does not parse`);
    expect(problems).toEqual([]);
  });

  it('every relative link in the README and docs/ reaches a file and a heading', () => {
    const slug = (h: string) => h.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');
    const anchorsOf = (file: string): Set<string> => {
      let fence = false;
      const out = new Set<string>();
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (line.startsWith('```')) fence = !fence;
        const h = !fence && /^#{1,6} (.*)/.exec(line);
        if (h) out.add(slug(h[1]!));
      }
      return out;
    };
    const files = [path.join(ROOT, 'README.md'), ...pages.map((p) => path.join(DOCS, p)),
      ...readdirSync(path.join(DOCS, 'decisions')).map((p) => path.join(DOCS, 'decisions', p))];
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/i.test(target)) continue;
        const [rel, anchor] = target.split('#') as [string, string | undefined];
        const dest = rel ? path.resolve(path.dirname(file), rel) : file;
        if (!existsSync(dest)) { broken.push(`${path.relative(ROOT, file)}: ${target} (no file)`); continue; }
        if (anchor && dest.endsWith('.md') && !anchorsOf(dest).has(anchor)) broken.push(`${path.relative(ROOT, file)}: ${target} (no heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
