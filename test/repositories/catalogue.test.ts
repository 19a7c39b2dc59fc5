import { describe, expect } from 'vitest';
import { BORDERS, borderKey, ZONES } from '../../src/domain/catalogue.js';
import { ensureCatalogue, readCatalogue } from '../../src/repositories/catalogue/catalogue.js';
import { TEST_BACKENDS } from '../support/db.js';
import { dbTest as it } from '../support/fixtures.js';

describe.each(TEST_BACKENDS)('zone and border catalogue (%s)', (kind) => {
  it.override({ backend: kind });

  it('stores every catalogue zone and border in stored orientation and returns lookups', async ({ db }) => {
    const lookup = await ensureCatalogue(db);
    expect(lookup.zones).toHaveLength(ZONES.length);
    expect(lookup.borders).toHaveLength(BORDERS.length);
    for (const b of lookup.borders) expect(b.a < b.b).toBe(true);
    const de = lookup.zone('DE_LU')?.id;
    const fr = lookup.zone('FR')?.id;
    const border = lookup.borders.find((b) => b.key === 'DE_LU->FR');
    expect(border).toMatchObject({ zoneAId: de, zoneBId: fr });
    expect(lookup.border(borderKey('FR', 'DE_LU'))?.id).toBe(border?.id);
  });

  it('is idempotent: a second call keeps the ids and writes nothing', async ({ db }) => {
    const first = await ensureCatalogue(db);
    const again = await ensureCatalogue(db);
    expect(again).toEqual(first);
    const counts = await db.rawQuery<{ zones: number; borders: number }>(
      'SELECT (SELECT count(*)::int FROM zone) AS zones, (SELECT count(*)::int FROM border) AS borders',
    );
    expect(counts[0]).toEqual({ zones: ZONES.length, borders: BORDERS.length });
  });

  it('repairs a zone whose stored attributes drifted from the catalogue', async ({ db }) => {
    await db.rawQuery(`UPDATE zone SET name = 'wrong', time_zone = 'UTC' WHERE code = 'FR'`);
    const before = await readCatalogue(db);
    const lookup = await ensureCatalogue(db);
    expect(lookup.zones.find((z) => z.code === 'FR')).toMatchObject({ name: 'France', timeZone: 'Europe/Paris' });
    expect(lookup.zone('FR')?.id).toBe(before.zone('FR')?.id);
  });
});
