/**
 * The models the package installs in `models/` (fitted by the scripts in `scripts/`), each read once on first
 * use and checked. A model that is not installed is undefined (the rules decide without it); a malformed one
 * throws (a packaging fault, not a user's).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A loader of `models/<name>`: the checked model, or undefined when the file is absent. */
export function installedModel<T>(name: string, check: (m: unknown) => T): () => T | undefined {
  let cached: T | null | undefined;
  return () => {
    if (cached === undefined) {
      try {
        cached = check(JSON.parse(readFileSync(fileURLToPath(new URL(`../../models/${name}`, import.meta.url)), 'utf8')));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        cached = null;
      }
    }
    return cached ?? undefined;
  };
}
