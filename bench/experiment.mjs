// Shared plumbing of the bench scripts (run, speed, second-reader, tamper, phone-photos, paper-crops; once the OCR experiments):
// `--flag value` arguments, the corpus location, the built library's modules, and samples spread over a dataset.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

/** `--name value` pairs into an object; a flag without a value is 'true'. */
export function parseFlags(argv = process.argv.slice(2)) {
  return Object.fromEntries(argv.reduce((acc, a, i, all) => {
    if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith('--') ? all[i + 1] : 'true']);
    return acc;
  }, []));
}

/** A module of the built library: `--dist` (relative to the repository; default dist/), e.g. distModule(flags, 'ocr/pool.js'). */
export function distModule(flags, rel) {
  return import(pathToFileURL(path.join(path.resolve(BENCH_DIR, '..', flags.dist ?? 'dist'), rel)).href);
}

/** The corpus folder: `--corpus`, else ../shared/corpus beside the repository. */
export function corpusDir(flags) {
  return path.resolve(flags.corpus ?? path.join(BENCH_DIR, '../../shared/corpus'));
}

/**
 * A sample spread over each dataset: `spec` is `ds:n,ds:n`; every k-th JPEG/PNG of the sorted image list,
 * starting `offset` steps in (0 = first file, 0.5 = middle of the first step). Items: { ds, id, name, file }.
 */
export function spreadSample(corpus, spec, offset = 0) {
  return spec.split(',').map((s) => s.split(':')).flatMap(([ds, count]) => {
    const n = Number(count);
    const dir = path.join(corpus, ds, 'images');
    const files = fs.readdirSync(dir).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort();
    const step = Math.max(1, files.length / n);
    const out = [];
    for (let i = offset * step; out.length < Math.min(n, files.length); i += step) out.push(files[Math.min(files.length - 1, Math.floor(i))]);
    return out.map((name) => ({ ds, id: name.replace(/\.[^.]+$/, ''), name, file: path.join(dir, name) }));
  });
}

/**
 * Command-line errors of a bench script: `fail` prints `<prefix>: <message>` and exits 2; `int` parses
 * a whole number of at least `min` or fails naming the flag.
 */
export function cliErrors(prefix) {
  const fail = (msg) => {
    process.stderr.write(`${prefix}: ${msg}\n`);
    process.exit(2);
  };
  const int = (v, name, min) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) fail(`${name} must be an integer >= ${min}`);
    return n;
  };
  /** The value after flag `argv[i]`, or a failure naming the flag. */
  const value = (argv, i, name) => {
    if (i + 1 >= argv.length || argv[i + 1].startsWith('--')) fail(`${name} needs a value`);
    return argv[i + 1];
  };
  return { fail, int, value };
}

/** The ways a labelled total may be printed (2 decimals, grouped thousands, whole), spaces removed. */
export function totalForms(v) {
  const two = v.toFixed(2);
  const grouped = v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return [...new Set([two, grouped, Number.isInteger(v) ? String(v) : two, grouped.replace(/\.00$/, '')])].map((t) => t.replace(/\s+/g, ''));
}

/** The digit runs a labelled date (YYYY-MM-DD) may be printed as, in the usual orders. */
export function dateForms(iso) {
  const [y, m, d] = iso.split('-');
  const yy = y.slice(2);
  return [d + m + yy, d + m + y, y + m + d, m + d + yy, m + d + y, yy + m + d];
}

/**
 * Whether a reading's lines contain the expected total (as a number of its own) and date (as digits);
 * undefined for a field with no expected forms.
 */
export function foundInReading(lines, ex) {
  const compact = lines.map((l) => l.replace(/\s+/g, ''));
  const digits = lines.map((l) => l.replace(/\D+/g, ''));
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    total: ex.totals.length ? ex.totals.some((t) => compact.some((c) => new RegExp(`(^|[^0-9])${esc(t)}($|[^0-9])`).test(c))) : undefined,
    date: ex.dates.length ? ex.dates.some((d) => digits.some((c) => c.includes(d))) : undefined,
  };
}
