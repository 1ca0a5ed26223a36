/**
 * The library writes nothing to stdout or stderr by itself (built package, child processes): a verbose
 * extraction of a rotated photo (once printed Node's DEP0005 Buffer() warning from the fraud raster's
 * rotation) and a HEIC file libheif cannot read (libheif prints its failures with console.log).
 */
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const DIST = JSON.stringify(path.join(ROOT, 'dist/index.js'));

/** Runs an ESM script; its result comes back through a file, so stdout and stderr hold only what the library printed. */
function run(body: string): { stdout: string; stderr: string; status: number | null; result: unknown } {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'rk-quiet-')), 'result.json');
  const script = `import fs from 'node:fs';\n${body}\nfs.writeFileSync(${JSON.stringify(out)}, JSON.stringify(result));`;
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 150_000 });
  let result: unknown;
  try { result = JSON.parse(readFileSync(out, 'utf8')); } catch { result = undefined; }
  return { stdout: res.stdout, stderr: res.stderr, status: res.status, result };
}

describe('the library prints nothing by itself', () => {
  it('a verbose extraction of a rotated photo: empty stdout and stderr', () => {
    const r = run(`import { extract } from ${DIST};
      const v = await extract(${JSON.stringify(path.join(ROOT, 'fixtures/receipt-id-rotated.jpg'))}, { verbose: true });
      const result = { total: v.totalAmount.data, rotation: v.pages?.[0]?.rotation ?? null };`);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('');
    expect(r.status).toBe(0);
    expect((r.result as { total: number }).total).toBeGreaterThan(0);
  }, 180_000);

  it('a HEIC file libheif cannot read: UNREADABLE_FILE, empty stdout and stderr', () => {
    const r = run(`import { extract } from ${DIST};
      const box = (t, b) => { const h = Buffer.alloc(8); h.writeUInt32BE(8 + b.length); h.write(t, 4, 'latin1'); return Buffer.concat([h, b]); };
      const heic = Buffer.concat([box('ftyp', Buffer.from('heic\\0\\0\\0\\0mif1heic', 'latin1')), box('mdat', Buffer.alloc(200, 7))]);
      let result;
      try { await extract(heic); result = 'no error'; } catch (e) { result = e.code; }
      console.log('the app logs too');`);
    expect(r.result).toBe('UNREADABLE_FILE');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('the app logs too\n'); // the app's own console.log still works
  }, 180_000);
});
