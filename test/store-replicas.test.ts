/**
 * Several `receiptkit serve` replicas (separate processes on loopback ports, the built package) sharing
 * one PostgreSQL store: a campaign created through one is used through another, a receipt stored
 * through one is a duplicate through another, usage adds up over all of them, and a replica killed
 * with SIGKILL in the middle of writes loses none of the writes it acknowledged.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startPostgres } from './helpers/postgres.mjs';
import type { RunningPostgres } from './helpers/postgres.mjs';
import { startReplica, postFile, sendJson, request, CAMPAIGN_SETTINGS, CAMPAIGN_VALIDATE, VERBOSE_FILE } from './helpers/replicas.mjs';
import { makePdf } from './helpers/pdf.js';
import { PgStore } from '../src/store/pg.js';
import { accountsOf, loadServerConfig, parseServerConfig } from '../src/server/config.js';
import { parseShard, selectShard, shardKey, shardOf } from '../src/cli/shard.js';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

const ROOT = path.resolve(__dirname, '..');
const KEY = 'replica-test-key-0123456789abcdef';

const WORDS = ['ALPHA', 'BRAVO', 'CEDAR', 'DELTA', 'EMBER', 'FJORD', 'GARNET', 'HARBOR', 'IVORY', 'JUNIPER', 'KESTREL', 'LOTUS', 'MAPLE', 'NECTAR', 'ORCHID', 'PEBBLE', 'QUARTZ', 'RAVEN', 'SAFFRON', 'TUNDRA'];
const ITEMS = ['Kopi O', 'Nasi Lemak', 'Roti Canai', 'Teh Tarik', 'Mee Goreng', 'Milo Ais', 'Char Kuey Teow', 'Laksa', 'Satay', 'Cendol', 'Apam', 'Kuih'];

/** A small text-layer receipt (no OCR needed): merchant, address, date, number and items differ with n. */
function receipt(n: number): Buffer {
  const a = WORDS[n % 20]!, b = WORDS[(7 * n + 3) % 20]!;
  const items = [ITEMS[n % 12]!, ITEMS[(5 * n + 1) % 12]!].map((name, i) => [name, (3 + ((n * 7 + i * 13) % 40) + (n % 100) / 100).toFixed(2)] as const);
  const total = items.reduce((t, [, p]) => t + Number(p), 0).toFixed(2);
  const day = String(1 + (n % 28)).padStart(2, '0'), month = String(1 + (Math.floor(n / 28) % 12)).padStart(2, '0');
  const lines = [`${a} ${b} ENTERPRISE`, `${10 + n} Jalan ${b[0]}${b.slice(1).toLowerCase()} ${n % 7 + 1}`, `Invoice No: ${a.slice(0, 2)}-${7000 + n * 13}`, `Date: ${day}/${month}/2024`,
    ...items.map(([name, price]) => `${name}        ${price}`), `TOTAL        ${total}`, 'THANK YOU'];
  return makePdf([{ width: 300, height: 400, lines: lines.map((text, i) => ({ text, x: 20, y: 40 + i * 22, size: 11 })) }]);
}

let postgres: RunningPostgres;
const replicas: Array<Awaited<ReturnType<typeof startReplica>>> = [];
let configPath: string;
const SCHEMA = 'shop';

beforeAll(async () => {
  expect(existsSync(path.join(ROOT, 'dist/cli/main.js'))).toBe(true); // npm test builds first
  postgres = await startPostgres();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-replicas-'));
  configPath = path.join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify({
    storeUrl: postgres.url, rateLimit: false, workers: 1, maxQueue: 64,
    accounts: [{ id: 'shop', keys: [KEY] }],
  }));
  replicas.push(...await Promise.all([0, 1, 2].map(() => startReplica({ configPath }))));
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  postgres?.stop();
});

async function usageTotals() {
  const s = await PgStore.open(postgres.url, { schema: SCHEMA });
  try { return (await s.usage({ subAccountId: 'replicas' })).totals; } finally { await s.close(); }
}

describe('replicas sharing one PostgreSQL store', () => {
  it('a campaign created through one replica is read, updated and used through the others', async () => {
    const [a, b, c] = replicas.map((r) => r.url);
    expect((await sendJson(`${a}${CAMPAIGN_SETTINGS}/create/spring`, KEY, { fraudDetection: { allowSimilarityCheck: true } })).status).toBe(201);
    expect((await sendJson(`${b}${CAMPAIGN_SETTINGS}/create/spring`, KEY, {})).status).toBe(409); // taken, seen from another replica
    expect((await request(`${b}${CAMPAIGN_SETTINGS}/spring`, { headers: { apikey: KEY } })).json).toEqual({ fraudDetection: { allowSimilarityCheck: true } });
    expect((await request(`${c}${CAMPAIGN_SETTINGS}/list`, { headers: { apikey: KEY } })).json).toEqual(['spring']);
    expect((await sendJson(`${c}${CAMPAIGN_SETTINGS}/update/spring`, KEY, { fraudDetection: { allowSimilarityCheck: true }, balanceOwing: { max: 0 } }, 'PUT')).status).toBe(200);
    expect((await request(`${a}${CAMPAIGN_SETTINGS}/spring`, { headers: { apikey: KEY } })).json).toMatchObject({ balanceOwing: { max: 0 } });
    const res = await postFile(`${c}${CAMPAIGN_VALIDATE}`, KEY, receipt(0), { campaignId: 'spring', subAccountId: 'replicas' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.passedValidations).toContain('fraud_detection_unique_receipt_validated');
  });

  it('every exact re-submission through a different replica is flagged as a duplicate of the first; usage adds up over the replicas', async () => {
    expect((await sendJson(`${replicas[1]!.url}${CAMPAIGN_SETTINGS}/create/dupes`, KEY, { fraudDetection: { allowSimilarityCheck: true } })).status).toBe(201);
    const before = await usageTotals();
    const N = 12;
    const first: string[] = [];
    // first submissions spread over the replicas
    for (let i = 1; i <= N; i++) {
      const r = await postFile(`${replicas[i % 3]!.url}${CAMPAIGN_VALIDATE}`, KEY, receipt(i), { campaignId: 'dupes', subAccountId: 'replicas', userId: `u${i}` });
      expect(r.status, r.text).toBe(200);
      expect(r.json.passedValidations, JSON.stringify(r.json)).toContain('fraud_detection_unique_receipt_validated'); // new receipts: not duplicates of each other
      first.push(r.json.trackingId);
    }
    // the same bytes again, each through another replica than the first time
    let flagged = 0;
    for (let i = 1; i <= N; i++) {
      const r = await postFile(`${replicas[(i + 1) % 3]!.url}${CAMPAIGN_VALIDATE}`, KEY, receipt(i), { campaignId: 'dupes', subAccountId: 'replicas', userId: `cheater${i}` });
      expect(r.status, r.text).toBe(200);
      const similar = r.json.similarReceipts as Array<{ trackingId: string; similarityScore: number }>;
      if (r.json.failedValidations.includes('fraud_detection_unique_receipt_validated') && similar.some((m) => m.trackingId === first[i - 1] && m.similarityScore === 1)) flagged++;
    }
    expect(flagged).toBe(N); // 100 %
    // verbose extraction: stored through one replica, listed as similar through another
    const v1 = await postFile(`${replicas[0]!.url}${VERBOSE_FILE}`, KEY, receipt(99), { subAccountId: 'replicas' });
    expect(v1.status, v1.text).toBe(200);
    const v2 = await postFile(`${replicas[2]!.url}${VERBOSE_FILE}`, KEY, receipt(99), { subAccountId: 'replicas' });
    // the same file first (score 1); receipts printed from the same template may follow, below 1
    expect(v2.json.similarReceipts[0]).toEqual({ trackingId: v1.json.trackingId, similarityScore: 1 });
    expect(v2.json.similarReceipts.slice(1).every((m: { similarityScore: number }) => m.similarityScore < 1)).toBe(true);
    const after = await usageTotals();
    expect(after.campaignValidation - before.campaignValidation).toBe(2 * N);
    expect(after.verbose - before.verbose).toBe(2);
  });

  it('a replica killed with SIGKILL during writes loses no write it acknowledged', async () => {
    const victim = await startReplica({ configPath });
    const acknowledged = { campaigns: [] as string[], scans: [] as string[] };
    let stop = false;
    let seq = 0;
    const client = async (w: number) => {
      while (!stop) {
        const n = seq++;
        try {
          if (n % 3 === 0) {
            const id = `kill-${w}-${n}`;
            const r = await sendJson(`${victim.url}${CAMPAIGN_SETTINGS}/create/${id}`, KEY, { balanceOwing: { max: n } });
            if (r.status === 201) acknowledged.campaigns.push(id);
          } else {
            const r = await postFile(`${victim.url}${VERBOSE_FILE}`, KEY, receipt(1000 + n), { subAccountId: 'kill' });
            if (r.status === 200) acknowledged.scans.push(r.json.trackingId);
          }
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const clients = Array.from({ length: 6 }, (_, w) => client(w));
    // let writes flow, then kill in the middle of them
    const deadline = Date.now() + 60_000;
    while (acknowledged.campaigns.length + acknowledged.scans.length < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    victim.child.kill('SIGKILL');
    const exit = await victim.exited;
    stop = true;
    await Promise.all(clients);
    expect(exit.signal).toBe('SIGKILL');
    expect(acknowledged.campaigns.length).toBeGreaterThan(5);
    expect(acknowledged.scans.length).toBeGreaterThan(5);
    const c = new pg.Client({ connectionString: postgres.url });
    await c.connect();
    try {
      const campaigns = new Set((await c.query(`SELECT id FROM "${SCHEMA}".campaigns WHERE id LIKE 'kill-%'`)).rows.map((r) => r.id));
      const scans = new Set((await c.query(`SELECT tracking_id FROM "${SCHEMA}".scans WHERE sub_account_id = 'kill'`)).rows.map((r) => r.tracking_id));
      expect(acknowledged.campaigns.filter((id) => !campaigns.has(id))).toEqual([]);
      expect(acknowledged.scans.filter((id) => !scans.has(id))).toEqual([]);
      // nothing half-written: every stored scan of the victim has its usage counted
      const usage = (await c.query(`SELECT coalesce(sum(count), 0)::int AS n FROM "${SCHEMA}".usage WHERE sub_account_id = 'kill'`)).rows[0].n;
      expect(usage).toBe(scans.size);
    } finally {
      await c.end();
    }
    // the other replicas were not disturbed
    expect((await request(`${replicas[1]!.url}${CAMPAIGN_SETTINGS}/list`, { headers: { apikey: KEY } })).json).toContain(acknowledged.campaigns[0]);
  });
});

describe('batch --shard i/n', () => {
  it('parses i/n and splits files deterministically by their path inside the folder, each file in exactly one shard', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '1/0', 'x/2', '1/2/3', '', '-1/2']) expect(parseShard(bad)).toBeUndefined();
    const files = Array.from({ length: 300 }, (_, i) => `/data/in/sub${i % 7}/r${i}.jpg`);
    const shards = [1, 2, 3].map((index) => selectShard(files, ['/data/in'], { index, count: 3 }));
    expect(shards.flat().sort()).toEqual([...files].sort());
    for (const sh of shards) expect(sh.length).toBeGreaterThan(60); // roughly even: 100 expected each
    // the same folder mounted elsewhere gives the same split
    const moved = files.map((f) => f.replace('/data/in', '/mnt/other/place'));
    expect(selectShard(moved, ['/mnt/other/place'], { index: 2, count: 3 })).toEqual(shards[1]!.map((f) => f.replace('/data/in', '/mnt/other/place')));
    expect(shardKey('/data/in/sub1/r1.jpg', ['/data/in'])).toBe(path.join('sub1', 'r1.jpg'));
    expect(shardOf('sub1/r1.jpg', 3)).toBe(shardOf('sub1/r1.jpg', 3));
    expect(selectShard(files, ['/data/in'], undefined)).toEqual(files);
  });

  it('two batch processes, shards 1/2 and 2/2 of one folder, together extract every file once into the shared store', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-shard-'));
    const input = path.join(dir, 'in');
    mkdirSync(path.join(input, 'a'), { recursive: true });
    mkdirSync(path.join(input, 'b'), { recursive: true });
    const names: string[] = [];
    for (let i = 0; i < 10; i++) {
      const rel = path.join(i % 2 ? 'a' : 'b', `r${i}.pdf`);
      writeFileSync(path.join(input, rel), receipt(500 + i));
      names.push(path.join(input, rel));
    }
    const schema = 'batch_shards';
    const run = (shard: string) => new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const out = path.join(dir, `out-${shard.replace('/', 'of')}.jsonl`);
      const child = spawn(process.execPath, [path.join(ROOT, 'dist/cli/main.js'), 'batch', input, '--out', out, '--shard', shard,
        '--store-url', postgres.url, '--store-schema', schema, '--workers', '1', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (c) => { err += c; });
      child.on('exit', (code) => resolve({ code, out, err }));
    });
    const [one, two] = await Promise.all([run('1/2'), run('2/2')]);
    expect(one.code, one.err).toBe(0);
    expect(two.code, two.err).toBe(0);
    const filesOf = (f: string) => readFileSync(f, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).file as string);
    const a = filesOf(one.out), b = filesOf(two.out);
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect([...a, ...b].sort()).toEqual([...names].sort());
    expect(a.filter((f) => b.includes(f))).toEqual([]);
    const s = await PgStore.open(postgres.url, { schema });
    try { expect(await s.scanCount()).toBe(10); } finally { await s.close(); }
  });
});

describe('server config: the store of each account', () => {
  const keys = ['k'.repeat(20)];
  it('storeUrl gives each account a schema named after its id; an account storePath or storeSchema wins; dataDir yields to storeUrl', () => {
    const config = parseServerConfig({
      storeUrl: 'postgres://u:p@db:5432/r', dataDir: '/data',
      accounts: [{ id: 'acme', keys }, { id: 'beta', keys: ['b'.repeat(20)], storeSchema: 'beta_prod' }, { id: 'solo', keys: ['s'.repeat(20)], storePath: '/x/solo.db' }],
    });
    const { accounts } = accountsOf(config);
    expect(accounts.map((a) => [a.id, a.storeUrl, a.storeSchema, a.storePath])).toEqual([
      ['acme', 'postgres://u:p@db:5432/r', 'acme', undefined],
      ['beta', 'postgres://u:p@db:5432/r', 'beta_prod', undefined],
      ['solo', undefined, undefined, '/x/solo.db'],
    ]);
    const plain = accountsOf(parseServerConfig({ dataDir: '/data', accounts: [{ id: 'acme', keys }] })).accounts[0]!;
    expect([plain.storePath, plain.storeUrl]).toEqual([path.join('/data', 'acme.db'), undefined]);
    expect(() => parseServerConfig({ storeUrl: 'mysql://x', accounts: [{ id: 'acme', keys }] })).toThrow(/storeUrl/);
  });

  it('RECEIPTKIT_STORE_URL sets storeUrl; the --store-url override wins', () => {
    const env = { RECEIPTKIT_API_KEYS: `acme:${keys[0]}`, RECEIPTKIT_STORE_URL: 'postgres://env@h/db' };
    expect(loadServerConfig({ env }).storeUrl).toBe('postgres://env@h/db');
    expect(loadServerConfig({ env, overrides: { storeUrl: 'postgres://flag@h/db' } }).storeUrl).toBe('postgres://flag@h/db');
    expect(loadServerConfig({ env: { RECEIPTKIT_API_KEYS: `acme:${keys[0]}` } }).storeUrl).toBeUndefined();
  });
});
