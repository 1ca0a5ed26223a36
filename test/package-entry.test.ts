/**
 * The package's entry points and its types, as a user's app sees them (through package.json "exports", by
 * package name): `receiptkit-ocr`, `receiptkit-ocr/server` and `receiptkit-ocr/queue`, where `import` and
 * `require()` give the same API, and a strict TypeScript consumer (ESM and CommonJS, test/types/)
 * compiles, including `if (r.totalAmount.data !== undefined)` and `extract` typed by its options.
 */
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const NAME = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).name as string;

function node(args: string[]) {
  return spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
}

describe('package entry points', () => {
  it('require() and import give the same exports, without a warning on stderr', () => {
    const cjs = node(['-e', `const k = require(${JSON.stringify(NAME)}); console.log(JSON.stringify(Object.keys(k).sort()))`]);
    const esm = node(['--input-type=module', '-e', `const k = await import(${JSON.stringify(NAME)}); console.log(JSON.stringify(Object.keys(k).sort()))`]);
    expect(cjs.stderr).toBe('');
    expect(esm.stderr).toBe('');
    expect(cjs.status).toBe(0);
    const keys = JSON.parse(cjs.stdout) as string[];
    expect(keys).toEqual(JSON.parse(esm.stdout));
    for (const k of ['extract', 'validate', 'createEngine', 'ReceiptKitError', 'isReceiptKitError']) expect(keys).toContain(k);
    // the server and the queue are entry points of their own (test/entry-points.test.ts)
    for (const k of ['startServer', 'loadServerConfig', 'openQueue', 'ReceiptQueue']) expect(keys).not.toContain(k);
  });

  for (const [sub, names] of [['server', ['startServer', 'createReceiptServer', 'loadServerConfig', 'parseServerConfig', 'serve']],
    ['queue', ['openQueue', 'ReceiptQueue', 'DEFAULT_QUEUE_SCHEMA']]] as const) {
    it(`${NAME}/${sub}: require() and import give the same exports (${names.join(', ')})`, () => {
      const spec = JSON.stringify(`${NAME}/${sub}`);
      const cjs = node(['-e', `const k = require(${spec}); console.log(JSON.stringify(Object.keys(k).sort()))`]);
      const esm = node(['--input-type=module', '-e', `const k = await import(${spec}); console.log(JSON.stringify(Object.keys(k).sort()))`]);
      expect(cjs.stderr + esm.stderr).toBe('');
      expect(cjs.status).toBe(0);
      const keys = JSON.parse(cjs.stdout) as string[];
      expect(keys).toEqual(JSON.parse(esm.stdout));
      for (const k of names) expect(keys).toContain(k);
    });
  }

  it('the test generators (test/generators/, which bench/ imports too) compile under strict TypeScript', () => {
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const res = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'test/generators/tsconfig.json')], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
    expect(res.stdout + res.stderr).toBe('');
    expect(res.status).toBe(0);
  }, 300_000);

  it('a strict TypeScript consumer (ESM and CommonJS) compiles against the published types', () => {
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const res = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'test/types/tsconfig.json')], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
    expect(res.stdout + res.stderr).toBe('');
    expect(res.status).toBe(0);
  }, 300_000);
});
