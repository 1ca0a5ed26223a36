/**
 * Where a worker thread's built script is, for the modules that run work in threads (input/pdf-thread.ts,
 * ocr/onnx.ts), and the Node flags such a thread inherits.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built script `name` (e.g. 'input/pdf-worker.js') for the module at `moduleUrl`: beside it in dist/;
 * when running from the TypeScript sources (vitest), the built copy in dist/ (`npm test` builds first).
 * Undefined when neither exists: the caller then does the work in its own thread.
 */
export function builtWorkerScript(moduleUrl: string, name: string): URL | undefined {
  const here = new URL(`./${path.basename(name)}`, moduleUrl);
  if (here.protocol === 'file:' && fs.existsSync(fileURLToPath(here))) return here;
  const self = fileURLToPath(moduleUrl);
  const m = /^(.*)[\\/]src[\\/][^\\/]+[\\/][^\\/]+\.ts$/.exec(self);
  if (m) {
    const built = path.join(m[1]!, 'dist', ...name.split('/'));
    if (fs.existsSync(built)) return new URL(`file://${built}`);
  }
  return undefined;
}

/**
 * The process's Node flags for a worker thread, less those about the main script (`--input-type` with
 * `-e`/`-p`: a thread started from a file refuses them, as in `node --input-type=module -e '...'`).
 */
export function workerExecArgv(argv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-e' || a === '--eval' || a === '-p' || a === '--print' || a === '--input-type') { i++; continue; }
    if (a.startsWith('--input-type=') || a.startsWith('--eval=') || a.startsWith('--print=') || a === '-pe') continue;
    out.push(a);
  }
  return out;
}
