/**
 * The enrichment lists in the engine's SQLite store (migration 3): one row per list entry, as JSON
 * (the schema in src/enrich/schema.ts checks every row before it is written), in the list's order, and
 * one revision per list (sha256 of its rows) so that readers know when a list changed, also when
 * another engine or process sharing the file changed it. An engine without `storePath` has an
 * in-memory store: the lists then live as long as the engine.
 */
import { createHash } from 'node:crypto';
import type { Database as Db, Statement } from 'better-sqlite3';
import type { ListKind, ListSpec } from './schema.js';

export const LIST_KINDS: readonly ListKind[] = ['merchants', 'productCodes', 'categories'];

export class EnrichmentStore {
  private readonly stmt: Record<string, Statement>;

  constructor(private readonly db: Db, private readonly transaction: <T>(fn: () => T) => T) {
    this.stmt = {
      rows: db.prepare('SELECT row_json AS json FROM enrichment_rows WHERE list = ? ORDER BY seq'),
      clear: db.prepare('DELETE FROM enrichment_rows WHERE list = ?'),
      insert: db.prepare('INSERT INTO enrichment_rows (list, seq, row_key, row_json) VALUES (?, ?, ?, ?)'),
      maxSeq: db.prepare('SELECT coalesce(max(seq), 0) AS n FROM enrichment_rows WHERE list = ?'),
      byKey: db.prepare('SELECT seq FROM enrichment_rows WHERE list = ? AND row_key = ?'),
      replaceRow: db.prepare('UPDATE enrichment_rows SET row_json = ? WHERE list = ? AND seq = ?'),
      count: db.prepare('SELECT count(*) AS n FROM enrichment_rows WHERE list = ?'),
      setRevision: db.prepare(`INSERT INTO enrichment_lists (list, revision, row_count, updated_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (list) DO UPDATE SET revision = excluded.revision, row_count = excluded.row_count, updated_at = excluded.updated_at`),
      revisions: db.prepare('SELECT list, revision FROM enrichment_lists'),
    };
  }

  /** The rows of a list, in order. */
  rows<T>(kind: ListKind): T[] {
    return (this.stmt.rows!.all(kind) as Array<{ json: string }>).map((r) => JSON.parse(r.json) as T);
  }

  /** Revision of each list that was ever written ('' for an empty list). */
  revisions(): Partial<Record<ListKind, string>> {
    const out: Partial<Record<ListKind, string>> = {};
    for (const r of this.stmt.revisions!.all() as Array<{ list: ListKind; revision: string }>) out[r.list] = r.revision;
    return out;
  }

  /** Changes committed by another connection since the last call return a different number. */
  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  /**
   * Writes checked rows: `replace` makes them the whole list; `append` adds them, a row whose key (id,
   * code, category and level) is listed already replacing that row in place. One transaction. Returns
   * the list's row count.
   */
  write<T>(spec: ListSpec<T>, rows: readonly T[], mode: 'replace' | 'append'): number {
    const keyOf = (row: T) => {
      const k = spec.key(row);
      return k === undefined ? null : spec.kind === 'productCodes' ? k.toUpperCase() : k;
    };
    return this.transaction(() => {
      if (mode === 'replace') this.stmt.clear!.run(spec.kind);
      let seq = (this.stmt.maxSeq!.get(spec.kind) as { n: number }).n;
      for (const row of rows) {
        const key = keyOf(row);
        const json = JSON.stringify(row);
        const existing = key === null || mode === 'replace' ? undefined : this.stmt.byKey!.get(spec.kind, key) as { seq: number } | undefined;
        if (existing) this.stmt.replaceRow!.run(json, spec.kind, existing.seq);
        else this.stmt.insert!.run(spec.kind, ++seq, key, json);
      }
      const all = this.stmt.rows!.all(spec.kind) as Array<{ json: string }>;
      const hash = createHash('sha256');
      for (const r of all) hash.update(r.json).update('\n');
      this.stmt.setRevision!.run(spec.kind, all.length ? hash.digest('hex') : '', all.length, new Date().toISOString());
      return all.length;
    });
  }

  /** Same rows as stored already (no write needed)? */
  same<T>(spec: ListSpec<T>, rows: readonly T[]): boolean {
    const stored = this.stmt.rows!.all(spec.kind) as Array<{ json: string }>;
    return stored.length === rows.length && stored.every((r, i) => r.json === JSON.stringify(rows[i]));
  }
}
