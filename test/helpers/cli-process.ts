/**
 * The built CLI (dist/cli/main.js) as a child process for the queue tests: `startCli` collects the JSON log
 * lines of its stdout as they come; `runCli` runs one command to its end; `until` waits for a condition.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

export const CLI = path.resolve(__dirname, '../../dist/cli/main.js');

export interface Proc { child: ChildProcess; id: string; lines: Array<Record<string, any>>; exited: Promise<{ code: number | null; signal: string | null }>; stderr: () => string }

/** Starts the CLI; its stdout JSON lines are collected as they come; `id` is the worker id it logs (host:pid). */
export function startCli(args: string[]): Proc {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Array<Record<string, any>> = [];
  let partial = '', stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    for (const l of parts) { try { lines.push(JSON.parse(l)); } catch { /* not a log line */ } }
  });
  child.stderr!.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, id: `${os.hostname()}:${child.pid}`, lines, exited, stderr: () => stderr };
}

/** Runs one CLI command to its end (at most 60 s). */
export const runCli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `cond` holds (checked every `everyMs`), at most `ms`; then throws naming `what`. */
export async function until(cond: () => boolean | Promise<boolean>, ms: number, what: string, everyMs = 100): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
