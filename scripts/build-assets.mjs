// After tsc (npm run build): copies the data files src/ reads at run time into dist/ beside the compiled
// modules (each language folder's words.json), and makes the CLI executable.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const from = path.join(root, 'src/locale/languages');
const to = path.join(root, 'dist/locale/languages');
for (const d of fs.readdirSync(from, { withFileTypes: true })) {
  const words = path.join(from, d.name, 'words.json');
  if (!d.isDirectory() || !fs.existsSync(words)) continue;
  fs.mkdirSync(path.join(to, d.name), { recursive: true });
  fs.copyFileSync(words, path.join(to, d.name, 'words.json'));
}
// a folder removed from src/ goes from dist/ too (tsc leaves old output behind)
for (const d of fs.existsSync(to) ? fs.readdirSync(to, { withFileTypes: true }) : []) {
  if (d.isDirectory() && !fs.existsSync(path.join(from, d.name, 'words.json'))) fs.rmSync(path.join(to, d.name), { recursive: true, force: true });
}
fs.chmodSync(path.join(root, 'dist/cli/main.js'), 0o755);
