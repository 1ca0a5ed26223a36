#!/usr/bin/env node
// Hostile files, each in a fresh process, timed from the process's start to its exit:
//
//   node bench/hostile.mjs [--cli] [--only NAME[,NAME]] [--runs N] [--timeout MS] [--json FILE]
//
// Per file a new `node` runs createEngine() -> extract(file) -> close() on the built library (dist/), or
// with --cli `receiptkit extract FILE`. Printed, one row per file (the median of --runs):
//   wall ms     spawn to exit, as the parent saw it (the process start counts)
//   error ms    the process's uptime when extract() rejected (library mode)
//   exit ms     close() resolved (library) or the CLI's last output -> process exit
//   peak RSS    process.resourceUsage().maxRSS at exit (every thread of the process)
//   code        the error code (or "ok" when the file was extracted)
// A process that has not exited after --timeout (default 60 s) is killed and shown as a hang.
// The files: test/generators/hostile-files.ts (generated PDFs), four white 7000x7000 JPEGs in a PDF (made with sharp)
// and a bit-flipped copy of fixtures/receipt-us.jpg.
// Needs `npm run build` first. Runs one file at a time (the numbers are wall times).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { bitFlipped, hostileFiles, pdfWithJpegs } from '../test/generators/hostile-files.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const args = process.argv.slice(2);
const flag = (name, def) => { const i = args.indexOf(`--${name}`); return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : def; };
const CLI = args.includes('--cli');
const RUNS = Number(flag('runs', 1));
const TIMEOUT = Number(flag('timeout', 60_000));
const ONLY = flag('only', '') ? new Set(flag('only', '').split(',')) : null;
const JSON_OUT = flag('json', '');

const dist = path.join(root, 'dist', 'index.js');
if (!fs.existsSync(dist)) { console.error('bench/hostile: build first (npm run build)'); process.exit(2); }

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rk-hostile-'));
const white = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#ffffff' } }).jpeg({ quality: 75 }).toBuffer();
const files = {
  ...hostileFiles(),
  'pdf-jpeg-images': { bytes: pdfWithJpegs(white, 7000, 7000, 4), expect: ['FILE_TOO_LARGE'], what: 'four white 7000x7000 JPEGs on one page (the memory watch, not the structure check)' },
  'jpeg-bit-flipped': { bytes: bitFlipped(fs.readFileSync(path.join(root, 'fixtures', 'receipt-us.jpg'))), expect: ['UNREADABLE_FILE'], what: 'receipt-us.jpg with 50 bits flipped' },
};

// at exit, every process reports its peak RSS and uptime on stderr
const probe = path.join(dir, 'exit-probe.cjs');
fs.writeFileSync(probe, `process.on('exit', () => { require('node:fs').writeSync(2, '\\n@@exit ' + JSON.stringify({ maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), uptimeMs: Math.round(process.uptime() * 1000) }) + '\\n'); });\n`);
const libScript = `
  import { createEngine } from ${JSON.stringify(dist)};
  const at = () => Math.round(process.uptime() * 1000);
  const engine = await createEngine({});
  let code = 'ok', errorAt;
  try { await engine.extract(process.argv[1]); } catch (e) { code = e?.code ?? 'UNTYPED:' + e?.message; errorAt = at(); }
  await engine.close();
  process.stderr.write('\\n@@result ' + JSON.stringify({ code, errorAt, closedAt: at() }) + '\\n');
`;

function runOnce(file) {
  return new Promise((resolve) => {
    const argv = CLI
      ? ['--require', probe, path.join(root, 'dist', 'cli', 'main.js'), 'extract', file]
      : ['--require', probe, '--input-type=module', '-e', libScript, file];
    const t0 = performance.now();
    const child = spawn(process.execPath, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '', lastOutput = 0;
    child.stdout.on('data', () => { lastOutput = performance.now() - t0; });
    child.stderr.on('data', (d) => { stderr += d; if (!String(d).includes('@@exit')) lastOutput = performance.now() - t0; });
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT);
    child.on('exit', (status, signal) => {
      clearTimeout(timer);
      const wall = Math.round(performance.now() - t0);
      const exit = /@@exit (\{.*\})/.exec(stderr);
      const result = /@@result (\{.*\})/.exec(stderr);
      const r = result ? JSON.parse(result[1]) : {};
      const e = exit ? JSON.parse(exit[1]) : {};
      const cliCode = /receiptkit: [^\n]*?: ([A-Z_]+): /.exec(stderr)?.[1];
      resolve({
        wall, hang: signal === 'SIGKILL', status,
        code: CLI ? (cliCode ?? (status === 0 ? 'ok' : `exit ${status}`)) : (r.code ?? `crash (${signal ?? status})`),
        errorMs: r.errorAt,
        exitMs: CLI ? (e.uptimeMs !== undefined ? Math.max(0, Math.round(wall - lastOutput)) : undefined) : (r.closedAt !== undefined && e.uptimeMs !== undefined ? e.uptimeMs - r.closedAt : undefined),
        rssMb: e.maxRssMb,
        stderr: result || exit ? '' : stderr.slice(-400),
      });
    });
  });
}

const median = (xs) => { const s = xs.filter((x) => x !== undefined).sort((a, b) => a - b); return s.length ? s[s.length >> 1] : undefined; };
const rows = [];
for (const [name, f] of Object.entries(files)) {
  if (ONLY && !ONLY.has(name)) continue;
  const file = path.join(dir, name + (name.startsWith('pdf') ? '.pdf' : '.jpg'));
  fs.writeFileSync(file, f.bytes);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await runOnce(file));
  const row = {
    file: name, kb: Math.round(f.bytes.length / 1024), wallMs: median(runs.map((r) => r.wall)), errorMs: median(runs.map((r) => r.errorMs)),
    exitMs: median(runs.map((r) => r.exitMs)), rssMb: median(runs.map((r) => r.rssMb)),
    code: runs.some((r) => r.hang) ? `HANG (killed at ${TIMEOUT} ms) ${runs[0].code ?? ''}` : [...new Set(runs.map((r) => r.code))].join('/'),
    expected: f.expect.join('|'),
    ok: runs.every((r) => !r.hang && f.expect.includes(r.code) && r.wall <= 5000 && (r.rssMb ?? Infinity) <= 1024),
  };
  rows.push(row);
  process.stderr.write(`${name}: ${JSON.stringify(row)}${runs[0].stderr ? `\n  ${runs[0].stderr}` : ''}\n`);
}
fs.rmSync(dir, { recursive: true, force: true });

const cols = [['file', 'file'], ['kb', 'KB'], ['wallMs', 'wall ms'], ['errorMs', 'error ms'], ['exitMs', 'exit ms'], ['rssMb', 'peak RSS MB'], ['code', 'code'], ['expected', 'expected'], ['ok', '<=5 s, <=1 GB, typed']];
console.log(`| ${cols.map((c) => c[1]).join(' | ')} |`);
console.log(`|${cols.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${cols.map(([k]) => (r[k] === undefined ? '-' : String(r[k]))).join(' | ')} |`);
console.log(`\n${CLI ? 'CLI' : 'library'} mode, ${RUNS} run(s) each, node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)}`);
if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify({ cli: CLI, runs: RUNS, rows }, null, 2));
