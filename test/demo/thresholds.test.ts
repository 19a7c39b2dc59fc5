import { afterEach, describe, expect, it, vi } from 'vitest';
import { prepareDatabase } from '../../src/bootstrap.js';
import { testConfig } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import type { ClassificationThresholds } from '../../src/domain/classification.js';
import { seedDemo } from '../../src/demo/seed.js';
import { createLogger } from '../../src/logger.js';
import { reclassify } from '../../src/repositories/flows/reclassify.js';
import { DEMO_TEST_FROM, DEMO_TEST_NOW, TEST_BACKENDS, type TestDatabase, createTestDatabase } from '../support/db.js';

vi.mock('../../src/demo/seed.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/demo/seed.js')>();
  return { ...actual, seedDemo: vi.fn(actual.seedDemo) };
});

interface ClassRow {
  border: string;
  ts: string;
  flow_type: string | null;
  scheduled_flow_type: string | null;
  gap: number | null;
}

const CLASS_SQL = `
SELECT za.code || '->' || zb.code AS border, to_char(h.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24') AS ts,
       h.flow_type::text AS flow_type, h.scheduled_flow_type::text AS scheduled_flow_type,
       abs(h.price_a_eur_mwh - h.price_b_eur_mwh) AS gap
FROM border_hour h JOIN border b ON b.id = h.border_id
JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
ORDER BY 1, 2`;

const classes = (db: Database) => db.rawQuery<ClassRow>(CLASS_SQL);

describe.each(TEST_BACKENDS)('demo seeding with configured classification thresholds (%s)', (kind) => {
  const open: TestDatabase[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  });
  async function database(seed: 'demo' | 'empty'): Promise<Database> {
    const t = await createTestDatabase(kind, { seed });
    open.push(t);
    return t.db;
  }
  async function seededWith(thresholds: ClassificationThresholds): Promise<Database> {
    const db = await database('empty');
    expect(await seedDemo(db, { now: DEMO_TEST_NOW, from: DEMO_TEST_FROM, thresholds })).not.toBeNull();
    return db;
  }

  it('turns counter-intuitive and congested hours whose price gap is within a wider eps into convergence', async () => {
    // Off the 0.0025 EUR/MWh grid of hourly mean prices, so no hour sits on the boundary.
    const eps = 4.9987;
    const wide = await classes(await seededWith({ epsEurMwh: eps, congestionShare: 0.97, minFlowMw: 1 }));
    const standard = await classes(await database('demo'));
    const expected = (type: string | null, gap: number | null) =>
      (type === 'counter_intuitive' || type === 'congestion') && !(gap !== null && gap > eps) ? 'convergence' : type;
    expect(wide.length).toBe(standard.length);
    expect(wide.map((r) => [r.border, r.ts, r.flow_type, r.scheduled_flow_type])).toEqual(
      standard.map((r) => [r.border, r.ts, expected(r.flow_type, r.gap), expected(r.scheduled_flow_type, r.gap)]),
    );
    const count = (rows: ClassRow[], type: string) => rows.filter((r) => r.flow_type === type).length;
    expect(count(wide, 'counter_intuitive')).toBeLessThan(count(standard, 'counter_intuitive'));
    expect(count(wide, 'congestion')).toBeLessThan(count(standard, 'congestion'));
    expect(count(wide, 'outage')).toBe(count(standard, 'outage'));
  });

  it('stores what reclassifying the default demo data with the same thresholds gives', async () => {
    const thresholds = { epsEurMwh: 0.5, congestionShare: 0.8, minFlowMw: 50 };
    const seeded = await classes(await seededWith(thresholds));
    const reclassified = await database('demo');
    const result = await reclassify(reclassified, {
      from: DEMO_TEST_FROM,
      to: new Date('2025-11-07T00:00:00Z'),
      thresholds,
    });
    expect(result.changed).toBeGreaterThan(1_000);
    expect(seeded).toEqual(await classes(reclassified));
  });
});

describe('start-up seeding', () => {
  it('hands the CLASSIFY_* settings to the demo seed', async () => {
    const t = await createTestDatabase('pglite', { seed: 'empty' });
    try {
      vi.mocked(seedDemo).mockResolvedValueOnce(null);
      const config = testConfig({
        SEED_DEMO: true,
        CLASSIFY_EPS_EUR_MWH: 2.5,
        CLASSIFY_CONGESTION_SHARE: 0.9,
        CLASSIFY_MIN_FLOW_MW: 10,
      });
      await prepareDatabase(t.db, config, createLogger(config), DEMO_TEST_NOW);
      expect(seedDemo).toHaveBeenLastCalledWith(
        t.db,
        expect.objectContaining({
          now: DEMO_TEST_NOW,
          thresholds: { epsEurMwh: 2.5, congestionShare: 0.9, minFlowMw: 10 },
        }),
      );
    } finally {
      await t.close();
    }
  });
});
