/**
 * The zone and border catalogue in the database: idempotent insertion at start-up and lookups.
 */
import type { Database } from '../db/client.js';
import { BORDERS, ZONES } from '../domain/catalogue-data.js';
import { type Executor, inTransaction, query } from './sql.js';

/** A stored zone. */
export interface ZoneRecord {
  readonly id: number;
  readonly code: string;
  readonly eic: string;
  readonly name: string;
  readonly timeZone: string;
}

/** A stored border in its stored orientation (A's code sorts before B's). */
export interface BorderRecord {
  readonly id: number;
  readonly zoneAId: number;
  readonly zoneBId: number;
  readonly a: string;
  readonly b: string;
  /** `A->B` in stored orientation. */
  readonly key: string;
}

/** Lookups over the stored catalogue. */
export interface CatalogueLookup {
  readonly zones: readonly ZoneRecord[];
  readonly borders: readonly BorderRecord[];
  /** Zone short code → zone id. */
  readonly zoneIdByCode: ReadonlyMap<string, number>;
  /** Border key `A->B` (stored orientation) → border id. */
  readonly borderIdByKey: ReadonlyMap<string, number>;
}

/** The key of a border in stored orientation, e.g. `DE_LU->FR`. */
export function borderKey(a: string, b: string): string {
  return a < b ? `${a}->${b}` : `${b}->${a}`;
}

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

/** Reads the stored zones and borders into lookups. */
export async function readCatalogue(db: Executor): Promise<CatalogueLookup> {
  const zoneRows = await query<ZoneRow>(db, 'SELECT id, code, eic, name, time_zone FROM zone ORDER BY code');
  const borderRows = await query<BorderRow>(db, 'SELECT id, zone_a_id, zone_b_id FROM border ORDER BY id');
  const zones = zoneRows.map((z) => ({ id: z.id, code: z.code, eic: z.eic, name: z.name, timeZone: z.time_zone }));
  const codeById = new Map(zones.map((z) => [z.id, z.code]));
  const borders = borderRows.map((r) => {
    const a = codeById.get(r.zone_a_id) ?? '?';
    const b = codeById.get(r.zone_b_id) ?? '?';
    return { id: r.id, zoneAId: r.zone_a_id, zoneBId: r.zone_b_id, a, b, key: `${a}->${b}` };
  });
  return {
    zones,
    borders,
    zoneIdByCode: new Map(zones.map((z) => [z.code, z.id])),
    borderIdByKey: new Map(borders.map((b) => [b.key, b.id])),
  };
}

function isComplete(lookup: CatalogueLookup): boolean {
  const stored = new Map(lookup.zones.map((z) => [z.code, z]));
  const zonesOk = ZONES.every((z) => {
    const s = stored.get(z.code);
    return s !== undefined && s.eic === z.eic && s.name === z.name && s.timeZone === z.timeZone;
  });
  return zonesOk && BORDERS.every(([a, b]) => lookup.borderIdByKey.has(`${a}->${b}`));
}

async function insertCatalogue(db: Database): Promise<void> {
  await inTransaction(db, async (sql) => {
    await sql.query(
      `INSERT INTO zone (code, eic, name, time_zone)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
       ON CONFLICT (code) DO UPDATE SET eic = excluded.eic, name = excluded.name, time_zone = excluded.time_zone
       WHERE (zone.eic, zone.name, zone.time_zone) IS DISTINCT FROM (excluded.eic, excluded.name, excluded.time_zone)`,
      [ZONES.map((z) => z.code), ZONES.map((z) => z.eic), ZONES.map((z) => z.name), ZONES.map((z) => z.timeZone)],
    );
    await sql.query(
      `INSERT INTO border (zone_a_id, zone_b_id)
       SELECT za.id, zb.id FROM unnest($1::text[], $2::text[]) AS p(a, b)
       JOIN zone za ON za.code = p.a JOIN zone zb ON zb.code = p.b
       ON CONFLICT (zone_a_id, zone_b_id) DO NOTHING`,
      [BORDERS.map(([a]) => a), BORDERS.map(([, b]) => b)],
    );
  });
}

/**
 * Makes sure every catalogue zone and border is stored (borders in stored orientation A<B) and
 * returns the lookups. Idempotent and safe to call at every start: when everything is present it
 * costs two small SELECTs and writes nothing.
 */
export async function ensureCatalogue(db: Database): Promise<CatalogueLookup> {
  const current = await readCatalogue(db);
  if (isComplete(current)) return current;
  await insertCatalogue(db);
  return readCatalogue(db);
}
