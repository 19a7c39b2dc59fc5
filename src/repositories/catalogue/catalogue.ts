/**
 * The zone and border catalogue in the database: idempotent insertion at start-up, and the read
 * that builds the in-memory catalogue.
 */
import type { Database } from '../../db/client.js';
import { BORDERS, Catalogue, type StoredCatalogue, ZONES } from '../../domain/catalogue.js';
import { Prisma } from '../../generated/prisma/client.js';
import { type Executor, inTransaction, run } from '../../db/executor.js';

interface ZoneRow {
  id: number;
  code: string;
  eic: string;
  name: string;
  time_zone: string;
}

interface BorderRow {
  id: number;
  zone_a_id: number;
  zone_b_id: number;
}

/** Reads the stored zones (ordered by code) and borders (ordered by id) into the in-memory catalogue. */
export async function readCatalogue(db: Executor): Promise<StoredCatalogue> {
  const zoneRows = await run<ZoneRow>(
    db,
    'readZones',
    Prisma.sql`SELECT id, code, eic, name, time_zone FROM zone ORDER BY code`,
  );
  const borderRows = await run<BorderRow>(
    db,
    'readBorders',
    Prisma.sql`SELECT id, zone_a_id, zone_b_id FROM border ORDER BY id`,
  );
  const zones = zoneRows.map((z) => ({ id: z.id, code: z.code, eic: z.eic, name: z.name, timeZone: z.time_zone }));
  const codeById = new Map(zones.map((z) => [z.id, z.code]));
  const borders = borderRows.map((r) => {
    const a = codeById.get(r.zone_a_id) ?? '?';
    const b = codeById.get(r.zone_b_id) ?? '?';
    return { id: r.id, zoneAId: r.zone_a_id, zoneBId: r.zone_b_id, a, b, key: `${a}->${b}` };
  });
  return new Catalogue(zones, borders);
}

function isComplete(stored: StoredCatalogue): boolean {
  const zonesOk = ZONES.every((z) => {
    const s = stored.zone(z.code);
    return s !== undefined && s.eic === z.eic && s.name === z.name && s.timeZone === z.timeZone;
  });
  return zonesOk && BORDERS.every(([a, b]) => stored.border(`${a}->${b}`) !== undefined);
}

async function insertCatalogue(db: Database): Promise<void> {
  await inTransaction(db, async (sql) => {
    await run(
      sql,
      'insertZones',
      Prisma.sql`INSERT INTO zone (code, eic, name, time_zone)
       SELECT * FROM unnest(${ZONES.map((z) => z.code)}::text[], ${ZONES.map((z) => z.eic)}::text[], ${ZONES.map((z) => z.name)}::text[],
             ${ZONES.map((z) => z.timeZone)}::text[])
       ON CONFLICT (code) DO UPDATE SET eic = excluded.eic, name = excluded.name, time_zone = excluded.time_zone
       WHERE (zone.eic, zone.name, zone.time_zone) IS DISTINCT FROM (excluded.eic, excluded.name, excluded.time_zone)`,
    );
    await run(
      sql,
      'insertBorders',
      Prisma.sql`INSERT INTO border (zone_a_id, zone_b_id)
       SELECT za.id, zb.id FROM unnest(${BORDERS.map(([a]) => a)}::text[], ${BORDERS.map(([, b]) => b)}::text[]) AS p(a, b)
       JOIN zone za ON za.code = p.a JOIN zone zb ON zb.code = p.b
       ON CONFLICT (zone_a_id, zone_b_id) DO NOTHING`,
    );
  });
}

/**
 * Makes sure every catalogue zone and border is stored (borders in stored orientation A<B) and
 * returns the in-memory catalogue. Idempotent and safe to call at every start: when everything is present it
 * costs two small SELECTs and writes nothing.
 */
export async function ensureCatalogue(db: Database): Promise<StoredCatalogue> {
  const current = await readCatalogue(db);
  if (isComplete(current)) return current;
  await insertCatalogue(db);
  return readCatalogue(db);
}
