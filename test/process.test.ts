/**
 * Whole-process behaviour against the built package (dist/, built by `npm test`): the shortcut exits by
 * itself, nothing touches the network, and the CLI works.
 */
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync, existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { receiptWithCode } from './generators/code-fixtures.ts';

const ROOT = path.resolve(__dirname, '..');
const FIX = path.join(ROOT, 'fixtures');
const NO_NET = path.join(ROOT, 'test/helpers/no-network.cjs');


function node(args: string[], opts: { env?: Record<string, string>; cwd?: string; timeout?: number } = {}) {
  return spawnSync(process.execPath, args, {
    cwd: opts.cwd ?? ROOT, encoding: 'utf8', timeout: opts.timeout ?? 90_000,
    env: { ...process.env, ...opts.env },
  });
}

describe('built package', () => {
  it('is built', () => { expect(existsSync(path.join(ROOT, 'dist/index.js'))).toBe(true); });

  it('a script that only calls extract() exits by itself, writing nothing to its working directory', () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'rk-cwd-'));
    const script = `import { extract } from ${JSON.stringify(path.join(ROOT, 'dist/index.js'))};
      const r = await extract(${JSON.stringify(path.join(FIX, 'receipt-us.jpg'))});
      console.log(JSON.stringify(r));`;
    const t0 = Date.now();
    const res = node(['--input-type=module', '-e', script], { cwd });
    expect(res.error).toBeUndefined(); // no timeout
    expect(res.status).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.totalAmount.data).toBeGreaterThan(0);
    expect(Date.now() - t0).toBeLessThan(60_000);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('attempts no network during extract (main thread and OCR worker threads)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-net-'));
    const log = path.join(dir, 'net.log');
    writeFileSync(log, '');
    const script = `import { extract } from ${JSON.stringify(path.join(ROOT, 'dist/index.js'))};
      const r = await extract(${JSON.stringify(path.join(FIX, 'receipt-en-simple.png'))}, { verbose: true, language: 'fr' });
      const p = await extract(${JSON.stringify(path.join(FIX, 'invoice.pdf'))});
      console.log(JSON.stringify([r.totalAmount.data, p.totalAmount.data]));`;
    const res = node(['--require', NO_NET, '--input-type=module', '-e', script], { env: { RECEIPTKIT_NET_LOG: log } });
    expect(res.status, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toHaveLength(2);
    expect(readFileSync(log, 'utf8')).toBe('');
  });

  it('attempts no network while decoding codes: the decoder\'s .wasm comes from the installed package', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-net-codes-'));
    const log = path.join(dir, 'net.log');
    writeFileSync(log, '');
    const file = path.join(dir, 'receipt-qr.jpg');
    writeFileSync(file, (await receiptWithCode('t=20240315T1432&s=1234.50&fn=9960440300123456&i=12345&fp=1234567890&n=1', { module: 4 })).bytes);
    const script = `import { extract } from ${JSON.stringify(path.join(ROOT, 'dist/index.js'))};
      const r = await extract(${JSON.stringify(file)}, { verbose: true, detectFraud: false });
      console.log(JSON.stringify(r.entities.codes));`;
    const res = node(['--require', NO_NET, '--input-type=module', '-e', script], { env: { RECEIPTKIT_NET_LOG: log } });
    expect(res.status, res.stderr).toBe(0);
    const codes = JSON.parse(res.stdout);
    expect(codes).toHaveLength(1);
    expect(codes[0].fiscal).toMatchObject({ scheme: 'ru-fns', data: { totalAmount: 1234.5 } });
    expect(readFileSync(log, 'utf8')).toBe('');
  });

  it('the network guard itself detects attempts, also from a worker thread (control)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-net-'));
    const log = path.join(dir, 'net.log');
    writeFileSync(log, '');
    const script = `import { Worker } from 'node:worker_threads';
      await fetch('https://example.com/x').catch(() => {});
      await new Promise((res) => { const w = new Worker("import('node:net').then((net) => net.connect(443, 'example.org').on('error', () => {}))", { eval: true }); w.on('exit', res); w.on('error', res); });`;
    const res = node(['--require', NO_NET, '--input-type=module', '-e', script], { env: { RECEIPTKIT_NET_LOG: log } });
    expect(res.status, res.stderr).toBe(0);
    const lines = readFileSync(log, 'utf8');
    expect(lines).toMatch(/^main fetch https:\/\/example\.com\/x$/m);
    expect(lines).toMatch(/^worker connect example\.org:443$/m);
  });
});

describe('CLI', () => {
  const cli = path.join(ROOT, 'dist/cli/main.js');

  it('extract prints the JSON result', () => {
    const res = node([cli, 'extract', path.join(FIX, 'receipt-us.jpg')]);
    expect(res.status, res.stderr).toBe(0);
    const r = JSON.parse(res.stdout);
    expect(Object.keys(r)[0]).toBe('totalAmount');
    expect(r.totalAmount.data).toBeGreaterThan(0);
  });

  it('extract with bad usage exits 2', () => {
    const res = node([cli, 'extract']);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/at least one file/);
  });

  it('batch writes one line per file, goes on past bad files, summarises', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-batch-'));
    copyFileSync(path.join(FIX, 'invoice.pdf'), path.join(dir, 'a.pdf'));
    writeFileSync(path.join(dir, 'b.jpg'), 'this is not an image');
    writeFileSync(path.join(dir, 'c.png'), Buffer.alloc(0));
    const out = path.join(dir, 'out.jsonl');
    const res = node([cli, 'batch', dir, '--out', out, '--concurrency', '2']);
    expect(res.status).toBe(1); // some files failed
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    const byName = Object.fromEntries(lines.map((l) => [path.basename(l.file), l]));
    expect(byName['a.pdf'].result.totalAmount.data).toBeGreaterThan(0);
    expect(byName['b.jpg'].error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(byName['c.png'].error.code).toMatch(/UNREADABLE_FILE|INVALID_INPUT/);
    expect(res.stderr).toMatch(/3 files: 1 extracted, 2 failed/);
  });
});
