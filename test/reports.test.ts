/**
 * What bench/reports keeps (issue 52): latest.json, every report the docs, the bench's notes or the models
 * cite by name (with or without its extension), and the newest report of each kind (a kind is the file name with its date, time and commit
 * taken out: `queue-kill-<date>.json`). An older report nobody cites goes; its numbers live in the commit
 * that made it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A report's kind: its name with the date (and time, and a commit after it) replaced. */
export const kindOf = (name: string) => name.replace(/\d{4}-\d{2}-\d{2}(T[0-9-]+Z)?(-[0-9a-f]{7})?/, '{date}');

/** The reports that should not be committed: neither latest.json, nor cited, nor the newest of their kind. */
export function unneeded(names: readonly string[], cites: string): string[] {
  const newest = new Map<string, string>();
  for (const n of [...names].sort()) newest.set(kindOf(n), n);
  // (a report is cited by its name, or by its name without the extension: "against report 2026-11-22T03-46-29Z")
  return names.filter((n) => n !== 'latest.json' && !cites.includes(n.replace(/\.[a-z]+$/, '')) && newest.get(kindOf(n)) !== n);
}

/** The text of every file under `dir` whose name ends in one of `exts`. */
function textUnder(dir: string, exts: readonly string[]): string {
  return readdirSync(dir).map((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === 'reports' || name === 'node_modules' ? '' : textUnder(p, exts);
    return exts.some((e) => name.endsWith(e)) ? readFileSync(p, 'utf8') : '';
  }).join('\n');
}

describe('bench/reports', () => {
  it('keeps latest.json, the cited reports and the newest of each kind, and no other', () => {
    const names = readdirSync(path.join(ROOT, 'bench', 'reports'));
    const cites = [textUnder(path.join(ROOT, 'docs'), ['.md']), textUnder(path.join(ROOT, 'bench'), ['.md', '.mjs']), textUnder(path.join(ROOT, 'models'), ['.json']), readFileSync(path.join(ROOT, 'README.md'), 'utf8')].join('\n');
    expect(names).toContain('latest.json');
    expect(unneeded(names, cites)).toEqual([]);
  });

  it('finds an older uncited report of a kind, and keeps a cited one', () => {
    const names = ['latest.json', 'queue-2026-11-26T03-17-12Z.json', 'queue-2026-11-26T03-19-50Z.json', 'loso-2026-12-01-9ae9820.json', 'loso-2026-12-02-c321b77.json'];
    expect(kindOf('loso-2026-12-01-9ae9820.json')).toBe('loso-{date}.json');
    expect(unneeded(names, 'see loso-2026-12-01-9ae9820.json')).toEqual(['queue-2026-11-26T03-17-12Z.json']);
    expect(unneeded(names, 'against report queue-2026-11-26T03-17-12Z, and loso-2026-12-01-9ae9820')).toEqual([]);
  });
});
