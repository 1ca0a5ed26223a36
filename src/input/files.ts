/**
 * The files a command line names: folders walked into a sorted list of images and PDFs (batch, the job
 * queue's enqueue), and a file's path inside the folder given for it (the key `batch --shard` splits by
 * and, with the content's sha256, a queued file's identity).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Extensions of the files taken from folders (images and PDFs); other files in a folder are skipped and counted. */
export const INPUT_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.jpe', '.jfif', '.webp', '.tif', '.tiff', '.gif', '.bmp', '.pdf', '.heic', '.heif', '.avif']);

/**
 * Expands directories (recursively, skipping dot-files; symbolic links followed, each real folder
 * walked once so a link loop ends) into a sorted file list of images and PDFs; files given by name
 * are kept as given. `skipped` counts the other files found in folders.
 */
export async function listInputs(args: string[]): Promise<{ files: string[]; skipped: number }> {
  const out: string[] = [];
  const seenDirs = new Set<string>();
  let skipped = 0;
  async function walk(dir: string): Promise<void> {
    let real: string;
    try { real = await fs.realpath(dir); } catch { return; }
    if (seenDirs.has(real)) return;
    seenDirs.add(real);
    const entries = await fs.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const p = path.join(dir, e.name);
      let isDir = e.isDirectory(), isFile = e.isFile();
      if (e.isSymbolicLink()) {
        try {
          const st = await fs.stat(p); // follows the link
          isDir = st.isDirectory(); isFile = st.isFile();
        } catch { skipped++; continue; } // a dangling link
      }
      if (isDir) await walk(p);
      else if (isFile) {
        if (INPUT_EXTENSIONS.has(path.extname(e.name).toLowerCase())) out.push(p);
        else skipped++;
      }
    }
  }
  for (const a of args) {
    let st;
    try { st = await fs.stat(a); } catch { out.push(a); continue; } // reported as an error line later
    if (st.isDirectory()) await walk(a); else out.push(a);
  }
  return { files: out, skipped };
}

/**
 * The path a file is known by: its path inside the folder argument that holds it, with `/` separators,
 * else the path as given. Every machine computes the same key whatever the folder is mounted as.
 */
export function relativeKey(file: string, args: readonly string[]): string {
  for (const a of args) {
    const rel = path.relative(a, file);
    if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return normalizeKey(rel);
  }
  return normalizeKey(file);
}

/** `/` separators, no leading `./`. */
export function normalizeKey(key: string): string {
  return key.split(path.sep).join('/').replace(/^\.\//, '');
}
