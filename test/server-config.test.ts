/**
 * Server configuration (file and environment), `serve()` with its signal handling, and the
 * `receiptkit serve` command of the built package.
 */
import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { accountsOf, loadServerConfig, parseServerConfig } from '../src/server/config.js';
import { serve } from '../src/server/serve.js';
import { ReceiptKitError } from '../src/errors.js';
import { KEY_A, KEY_B, postForm, raw, start } from './helpers/server.js';

const ROOT = path.resolve(__dirname, '..');
/** The built package (npm test builds dist/ first, as test/process.test.ts expects). */
const DIST = process.env.RECEIPTKIT_DIST ?? path.join(ROOT, 'dist');
const TEXT = Buffer.from('plain text, not a receipt');

function configError(f: () => unknown): ReceiptKitError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ReceiptKitError);
    expect((e as ReceiptKitError).code).toBe('INVALID_OPTION');
    return e as ReceiptKitError;
  }
  throw new Error('expected a config error');
}

describe('server config', () => {
  it('reads accounts from a JSON file; relative store paths are relative to the file', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-conf-'));
    const file = path.join(dir, 'receiptkit.json');
    writeFileSync(file, JSON.stringify({
      port: 9999, dataDir: 'data', rateLimit: { perSecond: 2, burst: 4 },
      accounts: [
        { id: 'acme', keys: [KEY_A], inlineValidation: true },
        { id: 'beta', keys: [`sha256:${createHash('sha256').update(KEY_B).digest('hex')}`], storePath: 'beta/store.db', rateLimit: false },
      ],
    }));
    const config = loadServerConfig({ configPath: file, env: {} });
    expect(config.port).toBe(9999);
    expect(config.host).toBe('127.0.0.1');
    const { byKeyHash, accounts } = accountsOf(config);
    expect(accounts.map((a) => [a.id, a.inlineValidation, a.storePath, a.rateLimit])).toEqual([
      ['acme', true, path.join(dir, 'data', 'acme.db'), { perSecond: 2, burst: 4 }],
      ['beta', false, path.join(dir, 'beta', 'store.db'), false],
    ]);
    const h = (k: string) => createHash('sha256').update(k).digest('hex');
    expect(byKeyHash.get(h(KEY_A))?.id).toBe('acme');
    expect(byKeyHash.get(h(KEY_B))?.id).toBe('beta'); // configured by its hash only
    // RECEIPTKIT_CONFIG names the file too; CLI overrides win
    expect(loadServerConfig({ env: { RECEIPTKIT_CONFIG: file }, overrides: { port: 0 } }).port).toBe(0);
  });

  it('reads RECEIPTKIT_API_KEYS as accountId:key pairs or JSON, merged with the file by account id', () => {
    let config = loadServerConfig({ env: { RECEIPTKIT_API_KEYS: `acme:${KEY_A}, acme:${KEY_A}-second;beta:${KEY_B}`, RECEIPTKIT_INLINE_VALIDATION: 'beta', RECEIPTKIT_DATA_DIR: '/tmp/rk-data' } });
    expect(config.accounts).toEqual([
      expect.objectContaining({ id: 'acme', keys: [KEY_A, `${KEY_A}-second`], inlineValidation: false }),
      expect.objectContaining({ id: 'beta', keys: [KEY_B], inlineValidation: true }),
    ]);
    expect(accountsOf(config).accounts[1]!.storePath).toBe('/tmp/rk-data/beta.db');
    config = loadServerConfig({ env: { RECEIPTKIT_API_KEYS: JSON.stringify([{ id: 'json', keys: [KEY_A], inlineValidation: true }]) } });
    expect(config.accounts[0]).toMatchObject({ id: 'json', inlineValidation: true });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-conf-'));
    const file = path.join(dir, 'c.json');
    writeFileSync(file, JSON.stringify({ accounts: [{ id: 'acme', keys: [KEY_A] }] }));
    config = loadServerConfig({ configPath: file, env: { RECEIPTKIT_API_KEYS: `acme:${KEY_B},gamma:${KEY_B}-gamma` } });
    expect(config.accounts.map((a) => [a.id, a.keys])).toEqual([['acme', [KEY_A, KEY_B]], ['gamma', [`${KEY_B}-gamma`]]]);
  });

  it('refuses bad configurations, naming the field', () => {
    expect(configError(() => loadServerConfig({ env: {} })).message).toMatch(/no accounts configured/);
    expect(configError(() => loadServerConfig({ env: { RECEIPTKIT_API_KEYS: 'just-a-key-without-account' } })).message).toMatch(/accountId:key/);
    expect(configError(() => loadServerConfig({ env: { RECEIPTKIT_API_KEYS: 'acme:short' } })).message).toMatch(/accounts\.0\.keys\.0.*16 characters/);
    expect(configError(() => loadServerConfig({ configPath: '/nonexistent/rk.json', env: {} })).message).toMatch(/cannot read the config file/);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-conf-'));
    writeFileSync(path.join(dir, 'bad.json'), '{ not json');
    expect(configError(() => loadServerConfig({ configPath: path.join(dir, 'bad.json'), env: {} })).message).toMatch(/not valid JSON/);
    expect(configError(() => parseServerConfig({ accounts: [{ id: 'a', keys: [KEY_A] }, { id: 'b', keys: [KEY_A] }] })).message).toMatch(/accounts\.1\.keys: a key is listed twice/);
    expect(configError(() => parseServerConfig({ accounts: [{ id: 'a', keys: [KEY_A] }, { id: 'a', keys: [KEY_B] }] })).message).toMatch(/duplicate account id/);
    expect(configError(() => parseServerConfig({ accounts: [{ id: 'a b', keys: [KEY_A] }] })).field).toBe('accounts.0.id');
    expect(configError(() => parseServerConfig({ accounts: [], maxQueue: -1 })).field).toBe('maxQueue');
    expect(configError(() => parseServerConfig({ accounts: [], limits: { maxFileBytes: 0 } })).field).toBe('limits.maxFileBytes');
    expect(configError(() => parseServerConfig({ accounts: [], colour: 'red' })).message).toMatch(/colour/);
  });

  it('each account gets its own engine and store file under dataDir', async () => {
    const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'rk-data-')), 'nested');
    const s = await start({ dataDir });
    try {
      const res = await postForm(`${s.url}/api/receipt/v1/simple/file`, KEY_A, [{ name: 'file', file: TEXT }]);
      expect(res.status).toBe(415);
      expect(existsSync(dataDir)).toBe(true);
    } finally {
      await s.server.close();
    }
  });
});

describe('serve()', () => {
  it('starts from the environment and shuts down on SIGTERM', async () => {
    const logs: Array<Record<string, unknown>> = [];
    const { server, done } = await serve({ env: { RECEIPTKIT_API_KEYS: `acme:${KEY_A}` }, port: 0, host: '127.0.0.1', logger: (l) => logs.push(l) });
    const before = process.listenerCount('SIGTERM');
    expect(before).toBeGreaterThan(0);
    expect((await raw(`${server.url}/healthz`)).status).toBe(200);
    process.emit('SIGTERM', 'SIGTERM');
    await done;
    expect(server.closing).toBe(true);
    expect(process.listenerCount('SIGTERM')).toBe(before - 1);
    expect(logs.map((l) => l.msg)).toEqual(expect.arrayContaining(['listening', 'signal', 'shutting down', 'stopped']));
  });
});

describe('receiptkit serve (built CLI)', () => {
  it('serves with keys from the environment and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [path.join(DIST, 'cli/main.js'), 'serve', '--port', '0', '--host', '127.0.0.1'], {
      env: { ...process.env, RECEIPTKIT_API_KEYS: `acme:${KEY_A}`, RECEIPTKIT_CONFIG: '' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line: ${out} ${err}`)), 30_000);
      child.stdout.on('data', (d) => {
        out += d;
        const m = /"msg":"listening","url":"([^"]+)"/.exec(out);
        if (m) { clearTimeout(timer); resolve(m[1]!); }
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    try {
      expect((await raw(`${url}/healthz`)).json.status).toBe('ok');
      const res = await postForm(`${url}/api/receipt/v1/simple/file`, KEY_A, [{ name: 'file', file: TEXT }]);
      expect(res.status).toBe(415);
      expect((await raw(`${url}/api/receipt/v1/simple/file`, { method: 'POST' })).status).toBe(401);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    const lines = out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['listening', 'request', 'signal', 'stopped']));
    expect(out).not.toContain(KEY_A);
  });

  it('exits with an error when no keys are configured', async () => {
    const child = spawn(process.execPath, [path.join(DIST, 'cli/main.js'), 'serve', '--port', '0'], {
      env: { ...process.env, RECEIPTKIT_API_KEYS: '', RECEIPTKIT_CONFIG: '' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toMatch(/INVALID_OPTION: no accounts configured/);
  });

  it('refuses a bad --port', async () => {
    const child = spawn(process.execPath, [path.join(DIST, 'cli/main.js'), 'serve', '--port', 'eighty'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toMatch(/--port takes a port number/);
  });
});
