// One-way imports (issue 26): madge finds no import cycle in src/, type-only imports included.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import madge from 'madge';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('imports', () => {
  it('src/ has no import cycle', async () => {
    const graph = await madge(path.join(ROOT, 'src'), {
      fileExtensions: ['ts'],
      tsConfig: path.join(ROOT, 'tsconfig.json'),
      detectiveOptions: { ts: { skipTypeImports: false } },
    });
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(100); // the whole tree was read
    expect(graph.circular()).toEqual([]);
  }, 60_000);
});
