/**
 * Durability and concurrency of the store file, with real processes on the built package (dist/,
 * built by `npm test`): a writer is SIGKILLed in the middle of its writes and everything it reported
 * committed is still there in a file that opens cleanly; two processes (each with a store connection
 * and an engine) writing the same file at once lose nothing and corrupt nothing.
 */
import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteDb } from '../src/store/sqlite.js';
import { ReceiptStore } from '../src/store/store.js';

const ROOT = path.resolve(__dirname, '..');
const WRITER = path.join(ROOT, 'test/helpers/store-writer.mjs');

interface Writer {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  /** Resolves when `pred` holds for the lines printed so far. */
  until(pred: (lines: string[]) => boolean, timeoutMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startWriter(file: string, tag: string, count: number, extractEvery = 0): Writer {
  const child = spawn(process.execPath, [WRITER, file, tag, String(count), String(extractEvery)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    for (const w of waiters.splice(0)) w();
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (c: string) => { err += c; });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const until = (pred: (l: string[]) => boolean, timeoutMs = 60_000) => new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`writer ${tag} timed out; stderr: ${err}; last: ${lines.slice(-3).join(' | ')}`)), timeoutMs);
    const check = () => {
      if (pred(lines)) { clearTimeout(timer); resolve(); return; }
      if (child.exitCode !== null || child.signalCode !== null) { clearTimeout(timer); reject(new Error(`writer ${tag} exited early: ${err}`)); return; }
      waiters.push(check);
    };
    check();
  });
  return { child, lines, stderr: () => err, until, exited };
}

const reported = (lines: string[], kind: string) => lines.filter((l) => l.startsWith(`${kind} `)).map((l) => l.slice(kind.length + 1));

/** Opens the file as a fresh process would and checks it against what the writers reported. */
function verify(file: string, writers: Array<{ tag: string; lines: string[] }>): { scans: number } {
  const db = new SqliteDb(file);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    const hasScan = { get: (id: string) => db.value('SELECT 1 FROM scans WHERE tracking_id = ?', id) };
    const hasCampaign = { get: (id: string) => db.value('SELECT 1 FROM campaigns WHERE id = ?', id) };
    let scans = 0;
    for (const w of writers) {
      const s = reported(w.lines, 'scan');
      for (const id of [...s, ...reported(w.lines, 'extract')]) expect(hasScan.get(id), `scan ${id} reported committed`).toBe(1);
      for (const id of reported(w.lines, 'campaign')) expect(hasCampaign.get(id), `campaign ${id} reported committed`).toBe(1);
      // the scan row and its usage count are one transaction: both or neither
      const stored = db.value<number>('SELECT count(*) FROM scans WHERE sub_account_id = ?', w.tag)!;
      const counted = db.value<number>('SELECT coalesce(sum(count), 0) FROM usage WHERE sub_account_id = ?', w.tag)!;
      expect(counted).toBe(stored);
      // at most the one write in flight at the kill may be there without having been reported
      expect(stored - s.length).toBeGreaterThanOrEqual(0);
      expect(stored - s.length).toBeLessThanOrEqual(1);
      scans += stored;
    }
    return { scans };
  } finally {
    db.close();
  }
}

describe('store durability (child processes on dist/)', () => {
  it('is built', () => {
    expect(existsSync(path.join(ROOT, 'dist/store/store.js'))).toBe(true);
  });

  it('a writer SIGKILLed mid-write loses nothing it reported committed, and the file opens cleanly (three kills)', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'rk-kill-')), 'store.db');
    const done: Array<{ tag: string; lines: string[] }> = [];
    for (const [tag, after, extractEvery] of [['k1', 25, 0], ['k2', 90, 7], ['k3', 160, 0]] as const) {
      const w = startWriter(file, tag, 100_000, extractEvery);
      await w.until((l) => reported(l, 'scan').length >= after);
      w.child.kill('SIGKILL');
      const exit = await w.exited;
      expect(exit.signal).toBe('SIGKILL'); // killed mid-way, it did not finish
      expect(w.lines).not.toContain('done');
      done.push({ tag, lines: w.lines });
      const { scans } = verify(file, done);
      expect(scans).toBeGreaterThanOrEqual(done.reduce((a, d) => a + reported(d.lines, 'scan').length, 0));
      if (extractEvery) expect(reported(w.lines, 'extract').length).toBeGreaterThan(0);
    }
    // and the library opens it again and goes on writing
    const s = new ReceiptStore(file);
    expect(await s.integrityCheck()).toBe('ok');
    expect(await s.createCampaign('after-kills', {})).toBe(true);
    expect(await s.listCampaigns()).toContain('k3-c0');
    await s.close();
  });

  it('two processes writing the same new file at once: every write is there, no corruption, no busy errors', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'rk-two-')), 'store.db');
    const a = startWriter(file, 'pa', 120, 20);
    const b = startWriter(file, 'pb', 120, 20);
    const [ea, eb] = await Promise.all([a.exited, b.exited]);
    expect(ea, a.stderr()).toEqual({ code: 0, signal: null });
    expect(eb, b.stderr()).toEqual({ code: 0, signal: null });
    for (const w of [a, b]) {
      expect(w.lines.at(-1)).toBe('done');
      expect(reported(w.lines, 'scan')).toHaveLength(120);
      expect(reported(w.lines, 'campaign')).toHaveLength(12);
      expect(reported(w.lines, 'extract')).toHaveLength(6);
    }
    const { scans } = verify(file, [{ tag: 'pa', lines: a.lines }, { tag: 'pb', lines: b.lines }]);
    expect(scans).toBe(240);
    const db = new SqliteDb(file, { readOnly: true });
    try {
      expect(db.value("SELECT count(*) FROM scans WHERE endpoint = 'verbose'")).toBe(12);
      expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(1);
    } finally { db.close(); }
  });
});
