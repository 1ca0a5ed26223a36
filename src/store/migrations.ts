/**
 * The store's schema, as numbered migrations. `PRAGMA user_version` holds the number of migrations
 * applied; opening a store applies the missing ones, each in its own immediate transaction (so two
 * processes opening a new file at once migrate it once). Never edit a released migration: add one.
 */
export const MIGRATIONS: ReadonlyArray<{ version: number; description: string; sql: string }> = [
  {
    version: 1,
    description: 'scans, campaigns, usage',
    sql: `
      CREATE TABLE scans (
        id INTEGER PRIMARY KEY,
        tracking_id TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        endpoint TEXT NOT NULL CHECK (endpoint IN ('simple', 'verbose', 'validation', 'campaign-validation')),
        content_hash TEXT NOT NULL,
        result_key TEXT NOT NULL,
        extraction_key TEXT NOT NULL,
        perceptual_hash TEXT,
        fingerprint TEXT,
        fp_merchant TEXT,
        fp_date TEXT,
        fp_total REAL,
        fp_receipt_number TEXT,
        result_json TEXT NOT NULL,
        subject_json TEXT NOT NULL,
        user_id TEXT,
        reference_id TEXT,
        container_id TEXT,
        sub_account_id TEXT,
        campaign_id TEXT
      );
      CREATE INDEX scans_result ON scans (content_hash, result_key);
      CREATE INDEX scans_extraction ON scans (content_hash, extraction_key);
      CREATE INDEX scans_fingerprint ON scans (fingerprint) WHERE fingerprint IS NOT NULL;
      CREATE INDEX scans_container ON scans (container_id);
      CREATE INDEX scans_campaign ON scans (campaign_id) WHERE campaign_id IS NOT NULL;

      CREATE TABLE campaigns (
        id TEXT PRIMARY KEY,
        settings_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      -- aggregate counters: calls that returned a result, per sub-account ('' for none), UTC day and endpoint kind
      CREATE TABLE usage (
        sub_account_id TEXT NOT NULL,
        day TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (sub_account_id, day, endpoint)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    description: 'similarity signatures and lookup keys',
    sql: `
      -- the scan's similarity signature (src/similarity): image measures and content values, JSON
      ALTER TABLE scans ADD COLUMN similarity_json TEXT;

      -- inverted index of the signature's lookup keys (total, date, number, long digit runs, image
      -- hash bands): a new scan's candidates are the stored scans sharing keys with it
      CREATE TABLE scan_keys (
        key TEXT NOT NULL,
        scan_id INTEGER NOT NULL,
        PRIMARY KEY (key, scan_id)
      ) WITHOUT ROWID;
      CREATE INDEX scan_keys_scan ON scan_keys (scan_id);
    `,
  },
  {
    // 3, not 2: migration 2 (similarity signatures) is written in the shared tree and lands separately
    version: 3,
    description: 'enrichment lists (known merchants, product codes, categories)',
    sql: `
      -- one row per list entry, checked JSON (src/enrich/schema.ts), in the list's order
      CREATE TABLE enrichment_rows (
        list TEXT NOT NULL CHECK (list IN ('merchants', 'productCodes', 'categories')),
        seq INTEGER NOT NULL,
        row_key TEXT,
        row_json TEXT NOT NULL,
        PRIMARY KEY (list, seq)
      );
      CREATE UNIQUE INDEX enrichment_rows_key ON enrichment_rows (list, row_key) WHERE row_key IS NOT NULL;
      -- a list's revision (sha256 of its rows): readers reload a list when it changes
      CREATE TABLE enrichment_lists (
        list TEXT PRIMARY KEY,
        revision TEXT NOT NULL,
        row_count INTEGER NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/**
 * The same migrations for PostgreSQL (src/store/pg.ts): one to one with MIGRATIONS (same versions, same
 * tables, columns and indexes; types translated: BIGSERIAL ids, DOUBLE PRECISION, BIGINT counters).
 * `$S.` stands for the store's schema. The applied version lives in `$S.receiptkit_schema`.
 */
export const PG_MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE $S.scans (
        id BIGSERIAL PRIMARY KEY,
        tracking_id TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        endpoint TEXT NOT NULL CHECK (endpoint IN ('simple', 'verbose', 'validation', 'campaign-validation')),
        content_hash TEXT NOT NULL,
        result_key TEXT NOT NULL,
        extraction_key TEXT NOT NULL,
        perceptual_hash TEXT,
        fingerprint TEXT,
        fp_merchant TEXT,
        fp_date TEXT,
        fp_total DOUBLE PRECISION,
        fp_receipt_number TEXT,
        result_json TEXT NOT NULL,
        subject_json TEXT NOT NULL,
        user_id TEXT,
        reference_id TEXT,
        container_id TEXT,
        sub_account_id TEXT,
        campaign_id TEXT
      );
      CREATE INDEX scans_result ON $S.scans (content_hash, result_key);
      CREATE INDEX scans_extraction ON $S.scans (content_hash, extraction_key);
      CREATE INDEX scans_fingerprint ON $S.scans (fingerprint) WHERE fingerprint IS NOT NULL;
      CREATE INDEX scans_container ON $S.scans (container_id);
      CREATE INDEX scans_campaign ON $S.scans (campaign_id) WHERE campaign_id IS NOT NULL;

      CREATE TABLE $S.campaigns (
        id TEXT PRIMARY KEY,
        settings_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      CREATE TABLE $S.usage (
        sub_account_id TEXT NOT NULL,
        day TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        count BIGINT NOT NULL,
        PRIMARY KEY (sub_account_id, day, endpoint)
      );
    `,
  },
  {
    version: 2,
    sql: `
      ALTER TABLE $S.scans ADD COLUMN similarity_json TEXT;
      CREATE TABLE $S.scan_keys (
        key TEXT NOT NULL,
        scan_id BIGINT NOT NULL,
        PRIMARY KEY (key, scan_id)
      );
      CREATE INDEX scan_keys_scan ON $S.scan_keys (scan_id);
    `,
  },
  {
    version: 3,
    sql: `
      CREATE TABLE $S.enrichment_rows (
        list TEXT NOT NULL CHECK (list IN ('merchants', 'productCodes', 'categories')),
        seq INTEGER NOT NULL,
        row_key TEXT,
        row_json TEXT NOT NULL,
        PRIMARY KEY (list, seq)
      );
      CREATE UNIQUE INDEX enrichment_rows_key ON $S.enrichment_rows (list, row_key) WHERE row_key IS NOT NULL;
      CREATE TABLE $S.enrichment_lists (
        list TEXT PRIMARY KEY,
        revision TEXT NOT NULL,
        row_count INTEGER NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
  },
];
