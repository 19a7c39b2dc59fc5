import type { Database } from '../db/client.js';
import type { StoredCatalogue } from '../domain/catalogue.js';
import type { ReadMemo } from '../repositories/sql/read-memo.js';

/** What every service function needs: the database, the stored catalogue and a clock (ms since epoch). */
export interface ServiceDeps {
  readonly db: Database;
  /** Zones and borders with their ids, read once at start-up: lookups cost no query. */
  readonly catalogue: StoredCatalogue;
  readonly now: () => number;
  /** Keeps the upstream sources of ranges until the data changes; omitted: every request reads them. */
  readonly memo?: ReadMemo;
}
