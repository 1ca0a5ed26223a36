// A throwaway PostgreSQL server for the store tests and bench/replicas.mjs: Debian's `postgresql`
// package (initdb, pg_ctl), a temporary data directory, a free port on 127.0.0.1 only, the unix
// socket in the temporary directory, trust authentication. initdb and postgres refuse to run as root:
// as root (CI), they run as the `postgres` system user (created by the package) through runuser, in a
// directory it owns. stop() stops the server (immediate mode) and removes the directory.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The folder with initdb, pg_ctl and postgres, or undefined when PostgreSQL is not installed. */
export function postgresBinDir() {
  const candidates = [];
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (dir) candidates.push(dir);
  } catch { /* no pg_config */ }
  try {
    const versions = readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(`/usr/lib/postgresql/${v}/bin`);
  } catch { /* not Debian's layout */ }
  return candidates.find((d) => existsSync(path.join(d, 'initdb')) && existsSync(path.join(d, 'pg_ctl')));
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function userIds(name) {
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/**
 * Starts a PostgreSQL server. Returns { url, port, dir, bin, stop() } where url is
 * postgres://postgres@127.0.0.1:<port>/postgres.
 */
export async function startPostgres(opts = {}) {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (Debian: apt-get install postgresql); the store tests need initdb and pg_ctl');
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-pg-'));
  const data = path.join(dir, 'data');
  const run = (cmd, args) => {
    const full = path.join(bin, cmd);
    const r = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8', cwd: dir })
      : spawnSync(full, args, { encoding: 'utf8', cwd: dir });
    if (r.status !== 0) throw new Error(`${cmd} failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout || r.error?.message || '').slice(-2000)}`);
    return r.stdout;
  };
  try {
    if (asRoot) {
      const { uid, gid } = userIds('postgres');
      chownSync(dir, uid, gid);
      chmodSync(dir, 0o700);
    }
    run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    let lastError;
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      try {
        const settings = [
          `-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', `-c max_connections=${opts.maxConnections ?? 200}`,
          '-c shared_buffers=32MB', '-c fsync=on', '-c logging_collector=off',
        ].join(' ');
        run('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', settings, '-w', '-t', '60', 'start']);
        let stopped = false;
        const stop = () => {
          if (stopped) return;
          stopped = true;
          try { run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']); } catch { /* already down */ }
          rmSync(dir, { recursive: true, force: true });
        };
        return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, bin, stop };
      } catch (e) {
        lastError = e; // the port was taken between freePort() and the start: try another
      }
    }
    throw lastError;
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
