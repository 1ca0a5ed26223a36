/**
 * SQLite for the store: Node's built-in `node:sqlite` (`DatabaseSync`), behind the few calls the
 * store makes (prepare, run/get/all, exec, pragmas, immediate transactions).
 *
 * Why the built-in module and not better-sqlite3 (issue 32, measured on Node 22.23, 24.21 and 26.12):
 * - better-sqlite3 12.x aborts the process on Node 24.19+ when the garbage collector finalizes a
 *   statement (`Assertion failed: (env) != nullptr` in `RemoveEnvironmentCleanupHook`, SIGABRT);
 * - better-sqlite3 compiles from source wherever its prebuilt-binary host is unreachable (70-140 s,
 *   python3, make and a C++ compiler) and needs an install script; `node:sqlite` needs nothing installed;
 * - better-sqlite3 13.2 ships prebuilt binaries and does not abort, but it is 27 MB of binaries per install
 *   for a module Node already has; `node:sqlite` was no slower (docs/decisions/2026-11-27-node-sqlite-store.md);
 * - `node:sqlite` writes the same SQLite file format (the same SQLite library), so stores written before
 *   open unchanged (test/store.test.ts opens fixtures/store-better-sqlite3-v3.db).
 *
 * `node:sqlite` is loaded on first use, never at import, so that importing the library stays cheap and a
 * Node without it gets a typed error naming the versions it needs. Node 24 prints an `ExperimentalWarning`
 * when the module is first loaded; the library prints nothing of its own, so that one warning (and only
 * that one) is held back while the module loads.
 */
import { ReceiptKitError } from '../errors.js';

/** A value SQLite binds or returns. */
export type SqlValue = null | number | bigint | string | Uint8Array;
export type SqlRow = Record<string, SqlValue>;

/** The calls of `node:sqlite`'s `StatementSync` the store uses. */
export interface SqlStatement {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

interface DatabaseSyncLike {
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}

interface SqliteModule {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean; open?: boolean }) => DatabaseSyncLike;
}

/** The Node versions whose `node:sqlite` works without a flag. */
export const NODE_SQLITE_NEEDS = 'Node.js >= 22.13';

let loaded: SqliteModule | undefined;

/** `node:sqlite`, loaded once, with Node 24's one-time ExperimentalWarning for it held back. */
export function sqliteModule(): SqliteModule {
  if (loaded) return loaded;
  const emit = process.emitWarning;
  // the warning is emitted synchronously while the module loads; every other warning passes through
  process.emitWarning = function quiet(this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning?.message ?? '';
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type ?? (warning as Error)?.name;
    if (type === 'ExperimentalWarning' && /sqlite/i.test(text)) return;
    return (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
    const mod = getBuiltin?.call(process, 'node:sqlite') as SqliteModule | undefined;
    if (!mod?.DatabaseSync) throw new Error('node:sqlite is not available');
    loaded = mod;
    return mod;
  } catch (e) {
    throw new ReceiptKitError('INTERNAL', `the store needs SQLite from ${NODE_SQLITE_NEEDS} (node:sqlite); this is Node.js ${process.versions.node}`, { cause: e });
  } finally {
    process.emitWarning = emit;
  }
}

/** SQLite's primary result code of an error from `node:sqlite` (e.g. 26 = SQLITE_NOTADB), when it has one. */
export function sqliteErrcode(e: unknown): number | undefined {
  const code = (e as { errcode?: unknown })?.errcode;
  return typeof code === 'number' ? code & 0xff : undefined;
}

export const SQLITE_BUSY = 5;
export const SQLITE_CORRUPT = 11;
export const SQLITE_CANTOPEN = 14;
export const SQLITE_NOTADB = 26;

/** Rows of `node:sqlite` have a null prototype; the store hands out plain objects. */
function plain<T>(row: unknown): T {
  return (row && typeof row === 'object' ? { ...(row as object) } : row) as T;
}

/**
 * One connection. Statements belong to the connection and are finalized by `close()`; the store keeps
 * its prepared statements for the connection's life and closes it explicitly.
 */
export class SqliteDb {
  private readonly db: DatabaseSyncLike;
  private isOpen = true;
  private depth = 0;

  constructor(readonly path: string, options: { readOnly?: boolean; busyTimeoutMs?: number } = {}) {
    const { DatabaseSync } = sqliteModule();
    this.db = new DatabaseSync(path, options.readOnly ? { readOnly: true } : {});
    // set before any statement that may wait for another connection's lock
    if (options.busyTimeoutMs !== undefined) this.db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs))}`);
  }

  get open(): boolean { return this.isOpen; }

  exec(sql: string): void { this.db.exec(sql); }

  prepare(sql: string): SqlStatement { return this.db.prepare(sql); }

  /** First row of a query as a plain object. */
  get<T = SqlRow>(sql: string, ...params: unknown[]): T | undefined {
    const row = this.db.prepare(sql).get(...params);
    return row === undefined ? undefined : plain<T>(row);
  }

  /** Every row of a query as plain objects. */
  all<T = SqlRow>(sql: string, ...params: unknown[]): T[] {
    return this.db.prepare(sql).all(...params).map((r) => plain<T>(r));
  }

  /** The first column of the first row (better-sqlite3's `pluck().get()`). */
  value<T = SqlValue>(sql: string, ...params: unknown[]): T | undefined {
    const row = this.db.prepare(sql).get(...params) as Record<string, unknown> | undefined;
    if (!row) return undefined;
    for (const k in row) return row[k] as T;
    return undefined;
  }

  /** `PRAGMA name`: its single value (`simple`), or every row. */
  pragma(sql: string, opts: { simple: true }): SqlValue | undefined;
  pragma(sql: string, opts?: { simple?: false }): SqlRow[];
  pragma(sql: string, opts: { simple?: boolean } = {}): SqlValue | undefined | SqlRow[] {
    return opts.simple ? this.value(`PRAGMA ${sql}`) : this.all(`PRAGMA ${sql}`);
  }

  /**
   * Runs `fn` in one immediate transaction (the write lock taken first), committed when `fn` returns,
   * rolled back when it throws. A nested call runs in a savepoint of the outer transaction.
   */
  transaction<T>(fn: () => T): T {
    const nested = this.depth > 0;
    const savepoint = `rk_sp_${this.depth}`;
    this.db.exec(nested ? `SAVEPOINT ${savepoint}` : 'BEGIN IMMEDIATE');
    this.depth++;
    let result: T;
    try {
      result = fn();
    } catch (e) {
      this.depth--;
      try {
        this.db.exec(nested ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : 'ROLLBACK');
      } catch { /* the transaction was already rolled back by SQLite */ }
      throw e;
    }
    this.depth--;
    try {
      this.db.exec(nested ? `RELEASE ${savepoint}` : 'COMMIT');
    } catch (e) {
      // a failed COMMIT (e.g. the disk is full) leaves the transaction open: end it, then report
      if (!nested) try { this.db.exec('ROLLBACK'); } catch { /* already ended */ }
      throw e;
    }
    return result;
  }

  close(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.db.close();
  }
}
