/**
 * The test lanes of vitest.config.ts (issue 52): every test file is in exactly one lane, each listed entry
 * names a file, and a file left to the unit lane (the default) neither does OCR, nor starts a server,
 * PostgreSQL or a browser, nor reaches the network or the npm registry, nor runs the built package (the CLI
 * included). What counts is what the file calls, read from its source. A child process of a repository script
 * is fine (test/locale/world.test.ts checks the city index with one); one of dist/ is not.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config, { OCR_TESTS, SYSTEM_TESTS } from '../vitest.config.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every test file under test/, as a path from the repository root. */
function testFiles(dir = path.join(ROOT, 'test')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return testFiles(p);
    return name.endsWith('.test.ts') ? [path.relative(ROOT, p).split(path.sep).join('/')] : [];
  });
}

/** A lane entry (a path, or a path with one `*`) as a test of a file's path. */
const matcher = (entry: string) => new RegExp(`^${entry.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);

/** What in a test's source puts it outside the unit lane: OCR, a service, a process or the built package. */
const NOT_UNIT: Array<[string, RegExp]> = [
  ['an engine', /\bcreateEngine\s*\(|getDefaultEngine\s*\(|\bextract\s*\(\s*['"`\w]/],
  ['an OCR reader', /new (TesseractPool|OcrPool|PaddleReader)\b|createWorker\s*\(/],
  ['a server', /\bstartServer\s*\(|createReceiptServer\s*\(|helpers\/(server|https-server)/],
  ['PostgreSQL', /startPostgres|helpers\/postgres/],
  ['a browser', /playwright|chromium/i],
  ['the npm registry', /['"`](npm|npx)['"`]/],
  ['the network', /\bfetch\s*\(|\bhttps?\.(request|get)\s*\(|\bnet\.connect\s*\(/],
  ['the built package', /['"`/]dist\//],
];

describe('test lanes', () => {
  const files = testFiles();
  const lanes = { ocr: OCR_TESTS.map(matcher), system: SYSTEM_TESTS.map(matcher) };

  it('has the three projects unit, ocr and system', () => {
    const names = (config.test?.projects as Array<{ test: { name: string } }>).map((p) => p.test.name);
    expect(names).toEqual(['unit', 'ocr', 'system']);
  });

  it('each listed entry names a test file, and no file is in both the ocr and the system lane', () => {
    for (const entry of [...OCR_TESTS, ...SYSTEM_TESTS]) expect(files.some((f) => matcher(entry).test(f)), entry).toBe(true);
    const both = files.filter((f) => lanes.ocr.some((m) => m.test(f)) && lanes.system.some((m) => m.test(f)));
    expect(both).toEqual([]);
  });

  it('no file of the unit lane does OCR, starts a service, reaches the network or runs the built package', () => {
    const unit = files.filter((f) => ![...lanes.ocr, ...lanes.system].some((m) => m.test(f)) && f !== 'test/lanes.test.ts');
    expect(unit.length).toBeGreaterThan(30);
    const offenders: string[] = [];
    for (const f of unit) {
      const source = readFileSync(path.join(ROOT, f), 'utf8');
      for (const [what, re] of NOT_UNIT) if (re.test(source)) offenders.push(`${f}: ${what} (${re.exec(source)![0]})`);
    }
    expect(offenders).toEqual([]);
  });
});

describe('bench/ by purpose', () => {
  it('holds at most 25 scripts, and no test imports one but the test of the scoring itself', () => {
    const scripts = readdirSync(path.join(ROOT, 'bench')).filter((n) => /\.m?js$/.test(n));
    expect(scripts.length).toBeLessThanOrEqual(25);
    const importers = testFiles().filter((f) => f !== 'test/bench-score.test.ts' && /from\s+['"](?:\.\.\/)+bench\//.test(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(importers).toEqual([]);
  });
});
