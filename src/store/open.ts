/**
 * Opens the store an engine's options name: `storeUrl` (postgres://...) for a PostgreSQL store shared
 * by many processes, `storePath` for a SQLite file, neither for an in-memory SQLite store. The PostgreSQL
 * store (and the `pg` driver) is loaded only when a `storeUrl` asks for it, so the library alone loads no
 * database driver (test/entry-points.test.ts).
 */
import { ReceiptKitError } from '../errors.js';
import { ReceiptStore } from './store.js';
import type { Store } from './types.js';

export interface StoreOptions {
  storePath?: string | undefined;
  storeUrl?: string | undefined;
  /** PostgreSQL schema (default `receiptkit`): several accounts share one database in their own schemas. */
  storeSchema?: string | undefined;
}

export async function openStore(o: StoreOptions): Promise<Store> {
  if (o.storeUrl !== undefined && o.storePath !== undefined) {
    throw new ReceiptKitError('INVALID_OPTION', 'storeUrl and storePath: give one store, not both', { field: 'storeUrl' });
  }
  if (o.storeSchema !== undefined && o.storeUrl === undefined) {
    throw new ReceiptKitError('INVALID_OPTION', 'storeSchema: only with a PostgreSQL storeUrl', { field: 'storeSchema' });
  }
  if (o.storeUrl !== undefined) {
    const { PgStore } = await import('./pg.js');
    return PgStore.open(o.storeUrl, { schema: o.storeSchema });
  }
  return new ReceiptStore(o.storePath);
}
