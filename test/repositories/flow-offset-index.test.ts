/**
 * Offset pages of /flows read through the count rollups (border_period_count, border_daily,
 * border_weekly) against the rows of the plain query sliced by offset, on two years of three
 * borders with gaps (a missing month, ten days across a new year, a border starting mid-day), hours
 * without a classification, derived flows and both DST switches; and border_period_count against
 * border_hour counted directly, after loads month by month, a reclassification and the migration's
 * backfill.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.js';
import type { FlowRecord } from '../../src/domain/records.js';
import type { Resolution } from '../../src/domain/resolution.js';
import { findFlowOffsetPage, summarizeFlows } from '../../src/repositories/flows/positions.js';
import { refreshFlowRollups } from '../../src/repositories/flows/rollup.js';
import type { FlowQuery } from '../../src/repositories/flows/row-query.js';
import { findFlowRows } from '../../src/repositories/flows/read-rows.js';
import { TEST_BACKENDS } from '../support/db.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';

const FIRST_HOUR = '2023-12-14T00:00:00Z';
const END_HOUR = '2026-02-11T00:00:00Z';

/**
 * Border-hours of borders $1, $2, $3 over [FIRST_HOUR, END_HOUR): flow types, directions and
 * scheduled classification vary hour by hour; every 37th hour is unclassified. Gaps: $1 has no
 * March 2024 and no 2025-03-30 01:00-06:00 (the spring DST day); $2 has nothing from 2024-12-25
 * 05:00 to 2025-01-04 17:00; $3 starts on 2024-06-17 at 07:00. Derived flows: $2 from 2025-10-15 to
 * 2025-10-22, $1 on 2024-07-04 03:00-06:00.
 */
const INSERT_HOURS = `
  INSERT INTO border_hour (border_id, ts, physical_ab_mw, physical_source, flow_type, export_from_a, net_flow_mw,
                           price_a_eur_mwh, price_b_eur_mwh, ntc_ab_mw, ntc_ba_mw, flow_derived,
                           scheduled_ab_mw, scheduled_ba_mw, scheduled_source, scheduled_flow_type, scheduled_export_from_a)
  SELECT b.id, t, (k % 500)::float8, 'demo',
         CASE WHEN k % 37 = 0 THEN NULL
              ELSE (ARRAY['convergence', 'congestion', 'counter_intuitive', 'outage'])[1 + (k / 5) % 4]::"FlowType" END,
         CASE WHEN k % 11 = 0 THEN NULL ELSE (k / 7) % 2 = 0 END,
         (k % 500)::float8, 40 + k % 30, CASE WHEN k % 13 = 0 THEN NULL ELSE 45 + k % 20 END,
         CASE WHEN k % 17 = 0 THEN NULL ELSE 1000 + k % 7 END, 900,
         (b.id = $2 AND t >= '2025-10-15' AND t < '2025-10-22') OR (b.id = $1 AND t >= '2024-07-04T03:00Z' AND t < '2024-07-04T06:00Z'),
         (k % 400)::float8, (k % 300)::float8, 'demo',
         CASE WHEN k % 3 = 0 THEN NULL
              ELSE (ARRAY['convergence', 'congestion', 'counter_intuitive', 'outage'])[1 + (k / 4) % 4]::"FlowType" END,
         (k / 3) % 2 = 0
  FROM (SELECT unnest(ARRAY[$1, $2, $3]::smallint[]) AS id) b
  CROSS JOIN generate_series('${FIRST_HOUR}'::timestamptz, '${END_HOUR}'::timestamptz - interval '1 hour', interval '1 hour') AS t
  CROSS JOIN LATERAL (SELECT (extract(epoch FROM t)::bigint / 3600 + b.id * 13)::int AS k) x
  WHERE NOT (b.id = $1 AND ((t >= '2024-03-01' AND t < '2024-04-01') OR (t >= '2025-03-30T01:00Z' AND t < '2025-03-30T06:00Z')))
    AND NOT (b.id = $2 AND t >= '2024-12-25T05:00Z' AND t < '2025-01-04T17:00Z')
    AND NOT (b.id = $3 AND t < '2024-06-17T07:00Z')`;

/** border_period_count counted from border_hour directly (days, weeks and periods by date_trunc). */
const DIRECT_COUNTS = `
  WITH h AS (SELECT border_id, flow_type, ts AT TIME ZONE 'UTC' AS t, coalesce(export_from_a, true) AS dir, flow_derived
             FROM border_hour WHERE flow_type IS NOT NULL),
  days AS (SELECT border_id, flow_type, date_trunc('day', t) AS day, count(*) AS hours,
                  count(*) FILTER (WHERE flow_derived) AS derived_hours
           FROM h GROUP BY border_id, flow_type, date_trunc('day', t), dir),
  weeks AS (SELECT border_id, flow_type, date_trunc('week', t) AS week, count(*) FILTER (WHERE flow_derived) AS derived_hours
            FROM h GROUP BY border_id, flow_type, date_trunc('week', t), dir),
  keyed AS (SELECT border_id, flow_type, day AS pos, hours, derived_hours, 1 AS days, 0 AS weeks, 0 AS week_derived_hours FROM days
           UNION ALL
           SELECT border_id, flow_type, week, 0, 0, 0, 1, derived_hours FROM weeks),
  periods AS (SELECT 1 AS span_months, date_trunc('month', pos) AS start, k.* FROM keyed k
              UNION ALL
              SELECT 12, date_trunc('year', pos), k.* FROM keyed k)
  SELECT span_months, to_char(start, 'YYYY-MM-DD') AS start, border_id, flow_type::text AS flow_type,
         sum(hours)::int AS hours, sum(derived_hours)::int AS derived_hours, sum(days)::int AS days,
         sum(weeks)::int AS weeks, sum(week_derived_hours)::int AS week_derived_hours
  FROM periods GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;

const STORED_COUNTS = `
  SELECT span_months, to_char(start, 'YYYY-MM-DD') AS start, border_id, flow_type::text AS flow_type, hours,
         derived_hours, days, weeks, week_derived_hours
  FROM border_period_count ORDER BY 1, 2, 3, 4`;

const MIGRATIONS = fileURLToPath(new URL('../../prisma/migrations/', import.meta.url));
/** The backfill of migration 20261127142000_border_period_count (its INSERTs). */
const BACKFILL = (() => {
  const name = readdirSync(MIGRATIONS).find((n) => n.endsWith('_border_period_count')) as string;
  const sql = readFileSync(`${MIGRATIONS}${name}/migration.sql`, 'utf8');
  return sql.slice(sql.indexOf('INSERT INTO "border_period_count"'));
})();

const r6 = (x: number | null) => (x === null ? null : Math.round(x * 1e6) / 1e6);
/** A flow row as compared: its key, its hour count and flags exactly, its means to 1e-6. */
const wire = (rows: readonly FlowRecord[]) =>
  rows.map((r) => [
    r.datetime.toISOString(),
    r.zoneFrom,
    r.zoneTo,
    r.flowType,
    r.hours,
    r.derived,
    r.flowInterpolated,
    r6(r.netFlowMw),
    r6(r.priceFrom),
    r6(r.priceTo),
    r6(r.capacityMw),
  ]);

/** Offsets around every place a page can fall: the start, the middle, deep in, the end and past it. */
const offsetsOf = (total: number) =>
  [
    ...new Set([
      0,
      1,
      137,
      Math.floor(total / 3),
      Math.floor(total / 2) + 3,
      total - 1000,
      total - 7,
      total - 1,
      total,
      total + 5,
    ]),
  ].filter((o) => o >= 0);

const WHOLE = { from: new Date('2023-12-14T05:00:00Z'), to: new Date('2026-02-10T19:00:00Z') };

describe.each(TEST_BACKENDS)('offset pages by the count rollups (%s)', (kind) => {
  it.override({ backend: kind, seed: 'empty' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });
  /** Three borders' hours over two years and their rollups, stored once in the file's database. */
  const borders = blockSetup<number[]>();
  it.beforeEach(
    ({ fileDb: db }) =>
      borders.run(async () => {
        const ids = (await db.rawQuery<{ id: number }>('SELECT id FROM border ORDER BY id LIMIT 3')).map((r) => r.id);
        await db.rawQuery(INSERT_HOURS, ids);
        // As the loaders do: one window at a time, in time order.
        for (let m = new Date('2023-12-01T00:00:00Z'); m < new Date(END_HOUR); ) {
          const next = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1));
          await refreshFlowRollups(db, { from: m, to: next });
          m = next;
        }
        return ids;
      }),
    120_000,
  );

  const filters = () => [
    { borderIds: null, flowTypes: [] },
    { borderIds: [borders.value[0] as number, borders.value[2] as number], flowTypes: [] },
    { borderIds: null, flowTypes: ['congestion', 'outage'] },
    { borderIds: [borders.value[1] as number], flowTypes: ['counter_intuitive'] },
  ];

  /** Every offset page of `q` (limits 1,000 and 7) against the plain query's rows sliced by offset. */
  async function expectPagesOfPlainRows(db: Database, q: FlowQuery): Promise<void> {
    const all = await findFlowRows(db, q);
    expect(all.length).toBeGreaterThan(5);
    const derived = all.some((r) => r.derived);
    expect(await summarizeFlows(db, q)).toEqual({ total: all.length, derived });
    for (const offset of offsetsOf(all.length)) {
      for (const limit of [1000, 7]) {
        const page = await findFlowOffsetPage(db, q, { offset, limit });
        expect({ total: page.total, derived: page.derived }).toEqual({ total: all.length, derived });
        expect(wire(page.rows)).toEqual(wire(all.slice(offset, offset + limit)));
      }
    }
    const deep = Math.max(0, all.length - 1000);
    const plain = await findFlowRows(db, { ...q, offset: deep, limit: 1000 });
    expect(wire((await findFlowOffsetPage(db, q, { offset: deep, limit: 1000 })).rows)).toEqual(wire(plain));
  }

  const CASES: readonly [Resolution, { from: Date; to: Date }][] = [
    ['1D', WHOLE],
    ['1W', WHOLE],
    ['1H', { from: new Date('2025-10-20T05:00:00Z'), to: new Date('2025-11-03T05:00:00Z') }],
    ['native', { from: new Date('2025-03-29T22:00:00Z'), to: new Date('2025-03-31T22:00:00Z') }],
  ];

  it.each(CASES)(
    'at %s: every page and total equal the plain query sliced by offset',
    async (resolution, range) => {
      for (const f of filters()) await expectPagesOfPlainRows(db, { resolution, ...range, ...f });
    },
    120_000,
  );

  it('reads whole years and months of 1D rows from border_period_count, and a last page in two statements', async () => {
    const statements: string[] = [];
    const record = <F extends (sql: string, params?: unknown[]) => Promise<unknown>>(run: F): F =>
      ((sql: string, params?: unknown[]) => (statements.push(sql), run(sql, params))) as F;
    const rec = { ...db, rawQuery: record(db.rawQuery), preparedQuery: record(db.preparedQuery) };
    const q: FlowQuery = { resolution: '1D', ...WHOLE, borderIds: null, flowTypes: [] };
    const all = await findFlowRows(db, q);
    const page = await findFlowOffsetPage(rec, q, { offset: all.length - 50, limit: 50 });
    expect(wire(page.rows)).toEqual(wire(all.slice(-50)));
    expect(statements[0]).toMatch(/FROM border_period_count c\s+WHERE c\.span_months = 12/);
    expect(statements).toHaveLength(2);
  });

  it('gives the scheduled basis and local buckets (no count rollup) the same pages as before', async () => {
    const range = { from: new Date('2025-09-20T05:00:00Z'), to: new Date('2025-12-02T07:00:00Z') };
    const [a, b, c] = borders.value as [number, number, number];
    const timeZones = { borderIds: [a, b, c], names: ['Europe/Berlin', 'Europe/Lisbon', 'Europe/Helsinki'] };
    await expectPagesOfPlainRows(db, { resolution: '1D', basis: 'scheduled', ...range, ...filters()[1]! });
    await expectPagesOfPlainRows(db, { resolution: '1D', timeZones, ...range, borderIds: null, flowTypes: [] });
  }, 120_000);

  it('keeps border_period_count equal to border_hour counted directly: loads, a reclassification, the backfill', async () => {
    const direct = () => db.rawQuery(DIRECT_COUNTS);
    const stored = () => db.rawQuery(STORED_COUNTS);
    const loaded = await stored();
    expect(loaded.length).toBeGreaterThan(3 * 26);
    expect(loaded).toEqual(await direct());
    const window = { from: new Date('2024-12-30T13:00:00Z'), to: new Date('2025-01-02T02:00:00Z') };
    await db.rawQuery(
      `UPDATE border_hour SET flow_type = 'outage', flow_derived = true WHERE ts >= $1 AND ts < $2 AND border_id = $3`,
      [window.from, window.to, borders.value[0]],
    );
    await db.rawQuery('DELETE FROM border_hour WHERE ts >= $1 AND ts < $2 AND border_id = $3', [
      window.from,
      window.to,
      borders.value[2],
    ]);
    await refreshFlowRollups(db, window);
    const after = await stored();
    expect(after).not.toEqual(loaded);
    expect(after).toEqual(await direct());
    await db.execScript(`DELETE FROM border_period_count; ${BACKFILL}`);
    expect(await stored()).toEqual(after);
  }, 120_000);
});
