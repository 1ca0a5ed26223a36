/**
 * The enrichment lists in the engine's store (migration 3, SQLite or PostgreSQL): one row per list
 * entry, as JSON (the schema in src/enrich/schema.ts checks every row before it is written), in the
 * list's order, and one revision per list (sha256 of its rows) so that readers know when a list
 * changed, also when another engine, process or machine sharing the store changed it. An engine
 * without a store option has an in-memory store: the lists then live as long as the engine.
 */
import type { ListKind, ListSpec } from './schema.js';
import type { Store } from '../store/types.js';

export const LIST_KINDS: readonly ListKind[] = ['merchants', 'productCodes', 'categories'];

export class EnrichmentStore {
  constructor(private readonly store: Store) {}

  /** The rows of a list, in order. */
  async rows<T>(kind: ListKind): Promise<T[]> {
    return (await this.store.listRows(kind)).map((json) => JSON.parse(json) as T);
  }

  /** Revision of each list that was ever written ('' for an empty list). */
  revisions(): Promise<Partial<Record<ListKind, string>>> {
    return this.store.listRevisions();
  }

  /** Changes committed by another connection since the last call return a different number; null: unknown (re-read the revisions). */
  dataVersion(): Promise<number | null> {
    return this.store.dataVersion();
  }

  /**
   * Writes checked rows: `replace` makes them the whole list; `append` adds them, a row whose key (id,
   * code, category and level) is listed already replacing that row in place. One transaction. Returns
   * the list's row count.
   */
  write<T>(spec: ListSpec<T>, rows: readonly T[], mode: 'replace' | 'append'): Promise<number> {
    const keyOf = (row: T) => {
      const k = spec.key(row);
      return k === undefined ? null : spec.kind === 'productCodes' ? k.toUpperCase() : k;
    };
    return this.store.writeList(spec.kind, rows.map((row) => ({ key: keyOf(row), json: JSON.stringify(row) })), mode);
  }

  /** Same rows as stored already (no write needed)? */
  async same<T>(spec: ListSpec<T>, rows: readonly T[]): Promise<boolean> {
    const stored = await this.store.listRows(spec.kind);
    return stored.length === rows.length && stored.every((json, i) => json === JSON.stringify(rows[i]));
  }
}
