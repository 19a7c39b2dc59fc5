import type { Database } from '../db/client.js';
import type { BorderRecord, CatalogueLookup, ZoneRecord } from '../repositories/catalogue.js';

/** Stored zones and borders, looked up by code, id or border key without a query. */
export interface ZoneDirectory {
  readonly zones: readonly ZoneRecord[];
  readonly borders: readonly BorderRecord[];
  readonly byCode: ReadonlyMap<string, ZoneRecord>;
  readonly byId: ReadonlyMap<number, ZoneRecord>;
  /** Border key `A->B` in stored orientation → border. */
  readonly borderByKey: ReadonlyMap<string, BorderRecord>;
}

/** What every service function needs: the database, the zone directory and a clock (ms since epoch). */
export interface ServiceDeps {
  readonly db: Database;
  readonly directory: ZoneDirectory;
  readonly now: () => number;
}

/** Builds a {@link ZoneDirectory} from the stored catalogue. */
export function zoneDirectory(catalogue: CatalogueLookup): ZoneDirectory {
  return {
    zones: catalogue.zones,
    borders: catalogue.borders,
    byCode: new Map(catalogue.zones.map((z) => [z.code, z])),
    byId: new Map(catalogue.zones.map((z) => [z.id, z])),
    borderByKey: new Map(catalogue.borders.map((b) => [b.key, b])),
  };
}
