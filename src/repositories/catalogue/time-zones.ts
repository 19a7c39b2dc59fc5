/** The time zone names the database engine knows (its own copy of the IANA data). */
import { Prisma } from '../../generated/prisma/client.js';
import { type Executor, run } from '../../db/executor.js';

/**
 * Every name in the engine's `pg_timezone_names` (zones and links, as spelled there; PostgreSQL
 * also lists its `posix/` and `right/` copies). Read once at start: the view scans the engine's
 * time zone files.
 */
export async function readTimeZoneNames(db: Executor): Promise<string[]> {
  const rows = await run<{ name: string }>(db, 'readTimeZoneNames', Prisma.sql`SELECT name FROM pg_timezone_names`);
  return rows.map((r) => r.name);
}
