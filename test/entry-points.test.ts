/**
 * Entry points by use (issue 52): `receiptkit-ocr` (extract, validate, createEngine, types, errors) loads no
 * server, queue or PostgreSQL code; `receiptkit-ocr/server` and `receiptkit-ocr/queue` do, and only they.
 * Each import runs in a fresh Node process (through package.json "exports", by package name) whose module
 * hook (`module.registerHooks`, which sees `import` and `require` alike) records every module resolved;
 * the server's and the queue's own imports are the control that the hook sees what they load.
 */
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
/** Packages the library alone must not load: the PostgreSQL driver, the job queue, the multipart parser. */
const SERVICE_PACKAGES = ['pg', 'pg-boss', 'pg-pool', 'busboy'];

/** The packages and dist/ files a fresh process loads for `load` (an import or a require of `spec`). */
function loaded(spec: string, how: 'import' | 'require'): { packages: string[]; files: string[] } {
  const load = how === 'import' ? `await import(${JSON.stringify(spec)})` : `createRequire(import.meta.url)(${JSON.stringify(spec)})`;
  const script = `import { registerHooks, createRequire } from 'node:module';
    const urls = new Set();
    registerHooks({ resolve(s, c, next) { const r = next(s, c); urls.add(r.url); return r; } });
    const m = ${load};
    if (typeof m.extract !== 'function' && typeof m.startServer !== 'function' && typeof m.openQueue !== 'function') throw new Error('nothing exported');
    console.log(JSON.stringify([...urls]));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const urls = JSON.parse(r.stdout) as string[];
  const packages = new Set<string>();
  for (const u of urls) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u);
    if (m) packages.add(m[1]!);
  }
  const files = urls.filter((u) => u.includes('/dist/')).map((u) => u.slice(u.lastIndexOf('/dist/') + 1));
  return { packages: [...packages].sort(), files };
}

describe('entry points by use', () => {
  for (const how of ['import', 'require'] as const) {
    it(`${how} 'receiptkit-ocr' loads no pg, pg-boss or busboy, and no server, queue or PostgreSQL store code`, () => {
      const { packages, files } = loaded('receiptkit-ocr', how);
      expect(packages.filter((p) => SERVICE_PACKAGES.includes(p))).toEqual([]);
      expect(files.filter((f) => /^dist\/(server|queue)[/.]|^dist\/store\/pg\.js$/.test(f))).toEqual([]);
      expect(files).toContain(how === 'import' ? 'dist/index.js' : 'dist/index.cjs');
    });
  }

  it("'receiptkit-ocr/server' loads the server and its multipart parser; 'receiptkit-ocr/queue' the queue and pg-boss", () => {
    const server = loaded('receiptkit-ocr/server', 'import');
    expect(server.packages).toContain('busboy');
    expect(server.files).toContain('dist/server/index.js');
    const queue = loaded('receiptkit-ocr/queue', 'require');
    expect(queue.packages).toEqual(expect.arrayContaining(['pg', 'pg-boss']));
    expect(queue.files).toEqual(expect.arrayContaining(['dist/queue.cjs', 'dist/queue/index.js']));
  });
});
