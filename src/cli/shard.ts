/**
 * `receiptkit batch --shard i/n`: n machines (or processes) split one folder without talking to each
 * other. Each file belongs to shard 1 + (the first 4 bytes of sha256(its relative path), as an unsigned
 * big-endian number) mod n, where the relative path is the file's path inside the folder given on the
 * command line, with `/` separators (a file given by name: its path as given). So every machine,
 * whatever the folder is mounted as, puts each file in the same shard; the shards together are the
 * whole folder, each file in exactly one; adding files moves no other file to another shard.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { normalizeKey } from '../input/files.js';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** Parses `i/n` (1 <= i <= n <= 100000); undefined when it is not that. */
export function parseShard(text: string): Shard | undefined {
  const m = /^(\d{1,6})\/(\d{1,6})$/.exec(text.trim());
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return index >= 1 && count >= 1 && count <= 100_000 && index <= count ? { index, count } : undefined;
}

/** The shard (1-based) of a relative path. */
export function shardOf(relativePath: string, count: number): number {
  return 1 + (createHash('sha256').update(normalizeKey(relativePath), 'utf8').digest().readUInt32BE(0) % count);
}

/** The path a file is sharded by: inside the folder argument that holds it, else as given. */
export function shardKey(file: string, args: readonly string[]): string {
  for (const a of args) {
    const rel = path.relative(a, file);
    if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel;
  }
  return file;
}

/** The files of one shard (all of them without a shard), order kept. */
export function selectShard(files: readonly string[], args: readonly string[], shard: Shard | undefined): string[] {
  if (!shard || shard.count === 1) return [...files];
  return files.filter((f) => shardOf(shardKey(f, args), shard.count) === shard.index);
}
