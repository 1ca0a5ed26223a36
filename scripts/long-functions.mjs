#!/usr/bin/env node
// Lists the functions of src/ longer than a limit (issue 26: none over 100 lines, data tables aside),
// longest first: file:line, lines, name. A function's length is its lines from its first to its last,
// comments included; nested functions count in their parent and on their own. A data table (an object
// or array literal assigned to a constant) is not a function and is not listed.
//
//   node scripts/long-functions.mjs [--max 100] [--json] [DIR]
// Exit code 1 when any function is over the limit (a test runs it).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, d) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : d; };
const max = Number(opt('max', 100));
const root = path.resolve(args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1] === '--max')) ?? path.join(here, '../src'));

/** Every .ts/.cts file below dir, sorted. */
function files(dir) {
  return fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => /\.c?ts$/.test(f) && !f.endsWith('.d.ts')).sort().map((f) => path.join(dir, f));
}

/** A function-like node's name, for the list. */
function nameOf(node, sf) {
  if (node.name) return node.name.getText(sf);
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p)) return p.name.getText(sf);
  if (p && ts.isPropertyAssignment(p)) return p.name.getText(sf);
  if (p && ts.isCallExpression(p)) return `(callback of ${p.expression.getText(sf).slice(0, 40)})`;
  return '(anonymous)';
}

export function longFunctions(dir, limit) {
  const out = [];
  for (const file of files(dir)) {
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) {
        if (node.body) {
          const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
          const last = sf.getLineAndCharacterOfPosition(node.end).line + 1;
          const lines = last - first + 1;
          if (lines > limit) out.push({ file: path.relative(process.cwd(), file), line: first, lines, name: nameOf(node, sf) });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out.sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const long = longFunctions(root, max);
  if (args.includes('--json')) process.stdout.write(JSON.stringify(long, null, 1) + '\n');
  else {
    for (const f of long) console.log(`${f.file}:${f.line}  ${f.lines} lines  ${f.name}`);
    console.log(`${long.length} function(s) over ${max} lines in ${path.relative(process.cwd(), root) || '.'}`);
  }
  process.exitCode = long.length ? 1 : 0;
}
