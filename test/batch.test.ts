/**
 * Batch mode (issue 15): --resume, an unwritable --out, --out -, symbolic links in folders, files that
 * are not images skipped and counted, progress lines without a terminal. runBatch is driven with a
 * stand-in engine (what is tested is the batch, not the extraction); the CLI runs the built dist/.
 */
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, copyFileSync, symlinkSync, appendFileSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { runBatch, listInputs } from '../src/cli/batch.js';
import { ReceiptKitError } from '../src/errors.js';
import type { Engine } from '../src/engine.js';

const ROOT = path.resolve(__dirname, '..');
const FIX = path.join(ROOT, 'fixtures');

/** Extracts "files" whose text is a number: the number is the total; anything else is unreadable. */
function fakeEngine(calls: string[]): Engine {
  return {
    extract: async (file: string) => {
      calls.push(file);
      const text = readFileSync(file, 'utf8');
      if (!/^\d+$/.test(text)) throw new ReceiptKitError('UNREADABLE_FILE', 'not a number');
      return { totalAmount: { data: Number(text) } };
    },
  } as unknown as Engine;
}

/** A stream that collects what is written to it (stands for stderr, not a TTY). */
function collector(): NodeJS.WriteStream & { text: () => string } {
  const s = new PassThrough();
  let text = '';
  s.on('data', (d) => { text += d; });
  return Object.assign(s, { text: () => text, isTTY: false }) as unknown as NodeJS.WriteStream & { text: () => string };
}

function folder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-batch15-'));
  for (let i = 1; i <= 6; i++) writeFileSync(path.join(dir, `r${i}.png`), String(i * 10));
  return dir;
}

const readLines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('batch', () => {
  it('--resume skips the files with a result, redoes failed ones, appends', async () => {
    const dir = folder();
    const out = path.join(os.tmpdir(), `rk-resume-${process.pid}-${Date.now()}.jsonl`);
    writeFileSync(path.join(dir, 'r3.png'), 'broken');
    let calls: string[] = [];
    let summary = await runBatch(fakeEngine(calls), [dir], { out, options: {}, concurrency: 2, progressStream: collector() });
    expect(summary).toMatchObject({ total: 6, ok: 5, failed: 1 });
    // an interrupted run leaves a cut line: it must not break the resume
    appendFileSync(out, '{"file":"cut');
    writeFileSync(path.join(dir, 'r3.png'), '30');
    writeFileSync(path.join(dir, 'r7.png'), '70');
    calls = [];
    const err = collector();
    summary = await runBatch(fakeEngine(calls), [dir], { out, options: {}, concurrency: 2, resume: true, progressStream: err });
    expect(calls.map((f) => path.basename(f)).sort()).toEqual(['r3.png', 'r7.png']);
    expect(summary).toMatchObject({ total: 2, resumed: 5, ok: 2, failed: 0 });
    expect(err.text()).toMatch(/5 already done \(resume\)/);
    const lines = readFileSync(out, 'utf8').split('\n').filter(Boolean);
    const parsed = lines.flatMap((l) => { try { return [JSON.parse(l)]; } catch { return []; } });
    const withResult = new Set(parsed.filter((l) => l.result).map((l) => path.basename(l.file)));
    expect([...withResult].sort()).toEqual(['r1.png', 'r2.png', 'r3.png', 'r4.png', 'r5.png', 'r6.png', 'r7.png']);
    // without --resume the output is rewritten
    summary = await runBatch(fakeEngine([]), [dir], { out, options: {}, concurrency: 2, progressStream: collector() });
    expect(readLines(out)).toHaveLength(7);
  });

  it('an unwritable --out is a clean INVALID_OPTION naming the file', async () => {
    const dir = folder();
    const missing = path.join(dir, 'no', 'such', 'dir', 'out.jsonl');
    await expect(runBatch(fakeEngine([]), [dir], { out: missing, options: {}, concurrency: 1, progressStream: collector() }))
      .rejects.toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining(`cannot write the output file ${missing} (ENOENT)`) });
    await expect(runBatch(fakeEngine([]), [dir], { out: dir, options: {}, concurrency: 1, progressStream: collector() }))
      .rejects.toMatchObject({ code: 'INVALID_OPTION', message: expect.stringMatching(/EISDIR/) });
  });

  it('--out - writes the lines to stdout', async () => {
    const dir = folder();
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (d) => { text += d; });
    const summary = await runBatch(fakeEngine([]), [dir], { out: '-', stdout, options: {}, concurrency: 2, progressStream: collector() });
    expect(summary.ok).toBe(6);
    expect(text.trim().split('\n').map((l) => JSON.parse(l).result.totalAmount.data).sort((a, b) => a - b)).toEqual([10, 20, 30, 40, 50, 60]);
  });

  it('follows symbolic links to files and folders, without looping', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-links-'));
    const real = folder();
    mkdirSync(path.join(dir, 'sub'));
    symlinkSync(path.join(real, 'r1.png'), path.join(dir, 'link1.png'));
    symlinkSync(real, path.join(dir, 'sub', 'linked-folder'));
    symlinkSync(dir, path.join(dir, 'sub', 'loop')); // a folder linking to its parent
    symlinkSync(path.join(dir, 'gone.png'), path.join(dir, 'dangling.png'));
    const { files } = await listInputs([dir]);
    expect(files.map((f) => path.relative(dir, f)).sort()).toEqual([
      'link1.png', ...[1, 2, 3, 4, 5, 6].map((i) => path.join('sub', 'linked-folder', `r${i}.png`)),
    ].sort());
  });

  it('skips files that are not images or PDFs, says how many, and prints progress lines without a terminal', async () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'notes.txt'), 'hello');
    writeFileSync(path.join(dir, 'results.json'), '{}');
    writeFileSync(path.join(dir, 'README'), 'x');
    const err = collector();
    const out = path.join(dir, 'out.jsonl');
    const summary = await runBatch(fakeEngine([]), [dir], { out, options: {}, concurrency: 1, progressEvery: 2, progressStream: err });
    expect(summary).toMatchObject({ total: 6, skipped: 3, ok: 6, failed: 0 });
    expect(err.text()).toMatch(/3 skipped \(not an image or PDF\)/);
    const progress = err.text().split('\n').filter((l) => l.startsWith('receiptkit batch: '));
    expect(progress.map((l) => l.match(/(\d+)\/6 files/)![1])).toEqual(['2', '4', '6']);
  });

  it('CLI: an unwritable --out exits 1 with one line, no stack trace; --out - prints JSON lines', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-cli15-'));
    copyFileSync(path.join(FIX, 'invoice.pdf'), path.join(dir, 'a.pdf'));
    const ro = path.join(dir, 'ro');
    mkdirSync(ro);
    chmodSync(ro, 0o500);
    const cli = path.join(ROOT, 'dist/cli/main.js');
    const bad = spawnSync(process.execPath, [cli, 'batch', dir, '--out', path.join(dir, 'missing', 'out.jsonl')], { encoding: 'utf8', timeout: 90_000 });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^receiptkit: INVALID_OPTION: cannot write the output file .*out\.jsonl \(ENOENT\)\n$/);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    const good = spawnSync(process.execPath, [cli, 'batch', path.join(dir, 'a.pdf'), '--out', '-', '--quiet'], { encoding: 'utf8', timeout: 90_000 });
    expect(good.status).toBe(0);
    const lines = good.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0].result.totalAmount.data).toBeGreaterThan(0);
  });
});
