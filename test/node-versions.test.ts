/**
 * The supported Node.js versions (issue 32, docs/install.md "Node.js versions"): the suite itself runs on one of
 * them, `engines` says which, scripts/with-node.sh keeps a supported `node` as it is, and the store's
 * SQLite is the one built into that Node.
 */
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sqliteModule, NODE_SQLITE_NEEDS } from '../src/store/sqlite.js';

const ROOT = path.resolve(__dirname, '..');
const PKG = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; dependencies: Record<string, string> };
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];

describe('Node.js versions', () => {
  it('the tests run on a supported Node (22.13+, 24, 26), and engines names exactly those lines', () => {
    expect(major === 22 ? minor >= 13 : major >= 24).toBe(true);
    expect(PKG.engines.node).toBe('^22.13.0 || >=24');
    expect(NODE_SQLITE_NEEDS).toBe('Node.js >= 22.13');
  });

  it('no native SQLite addon is a dependency: the store uses node:sqlite', () => {
    expect(Object.keys(PKG.dependencies)).not.toContain('better-sqlite3');
    const { DatabaseSync } = sqliteModule();
    const db = new DatabaseSync(':memory:');
    expect((db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v).toMatch(/^3\.\d+/);
    db.close();
  });

  it('scripts/with-node.sh runs a command on the node first on PATH when that one is supported, printing nothing', () => {
    const onPath = spawnSync('node', ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim();
    const r = spawnSync('sh', [path.join(ROOT, 'scripts/with-node.sh'), 'node', '-p', 'process.version'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(onPath);
  });

  it('scripts/node-bin.sh refuses a version that is not a number, before installing anything', () => {
    const r = spawnSync('sh', [path.join(ROOT, 'scripts/node-bin.sh'), 'latest'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/MAJOR must be a number/);
  });
});
