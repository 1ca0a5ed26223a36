// No function in src/ is longer than 100 lines (issue 26; scripts/long-functions.mjs lists them).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { longFunctions } from '../scripts/long-functions.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('function length', () => {
  it('no function in src/ is over 100 lines', () => {
    expect(longFunctions(path.join(ROOT, 'src'), 100)).toEqual([]);
  });

  it('the lister finds a long function (it would catch one)', () => {
    const found = longFunctions(path.join(ROOT, 'src'), 40) as Array<{ lines: number; name: string }>;
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((f) => f.lines > 40 && f.name.length > 0)).toBe(true);
  });
});
