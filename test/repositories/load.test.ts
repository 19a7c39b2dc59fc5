import { describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { readCatalogue } from '../../src/repositories/catalogue/catalogue.js';
import {
  type BorderHourRow,
  type PricePointRow,
  loadBorderHours,
  loadOutages,
  loadPrices,
} from '../../src/repositories/ingest/load.js';
import { TEST_BACKENDS } from '../support/db.js';
import { dbTest as it } from '../support/fixtures.js';

const COUNTS_SQL = `SELECT (SELECT count(*)::int FROM price_point) AS prices, (SELECT count(*)::int FROM price_daily) AS days,
  (SELECT count(*)::int FROM border_hour) AS hours, (SELECT count(*)::int FROM border_outage) AS outages`;

async function counts(db: Database) {
  return (await db.rawQuery(COUNTS_SQL))[0];
}

async function storedPrices(db: Database, from: string, to: string): Promise<PricePointRow[]> {
  const rows = await db.rawQuery<{
    zone_id: number;
    ts: Date;
    period_minutes: number;
    price_eur_mwh: number;
    interpolated: boolean;
    source: 'demo';
  }>(
    `SELECT zone_id, ts, period_minutes, price_eur_mwh, interpolated, source::text AS source
     FROM price_point WHERE ts >= $1::timestamptz AND ts < $2::timestamptz ORDER BY zone_id, ts`,
    [from, to],
  );
  return rows.map((r) => ({
    zoneId: r.zone_id,
    ts: r.ts,
    periodMinutes: r.period_minutes,
    priceEurMwh: r.price_eur_mwh,
    interpolated: r.interpolated,
    source: r.source,
  }));
}

const HOURS_SQL = `SELECT border_id, ts, physical_ab_mw, physical_ba_mw, physical_interpolated, physical_source::text,
  scheduled_ab_mw, scheduled_ba_mw, scheduled_source::text, ntc_ab_mw, ntc_ba_mw, ntc_source::text, flow_type::text,
  export_from_a, net_flow_mw, price_a_eur_mwh, price_b_eur_mwh, flow_derived, scheduled_flow_type::text, scheduled_export_from_a
  FROM border_hour WHERE ts >= $1::timestamptz AND ts < $2::timestamptz ORDER BY border_id, ts`;

type HourRecord = Record<string, unknown> & { border_id: number; ts: Date };

function toRow(r: HourRecord): BorderHourRow {
  const v = (k: string) => r[k] as never;
  return {
    borderId: r.border_id,
    ts: r.ts,
    physicalAbMw: v('physical_ab_mw'),
    physicalBaMw: v('physical_ba_mw'),
    physicalInterpolated: v('physical_interpolated'),
    physicalSource: v('physical_source'),
    scheduledAbMw: v('scheduled_ab_mw'),
    scheduledBaMw: v('scheduled_ba_mw'),
    scheduledSource: v('scheduled_source'),
    ntcAbMw: v('ntc_ab_mw'),
    ntcBaMw: v('ntc_ba_mw'),
    ntcSource: v('ntc_source'),
    classification: {
      flowType: v('flow_type'),
      exportFromA: v('export_from_a'),
      netFlowMw: v('net_flow_mw'),
      priceAEurMwh: v('price_a_eur_mwh'),
      priceBEurMwh: v('price_b_eur_mwh'),
      flowDerived: v('flow_derived'),
      scheduledFlowType: v('scheduled_flow_type'),
      scheduledExportFromA: v('scheduled_export_from_a'),
    },
  };
}

describe.each([...TEST_BACKENDS, 'wire' as const])('bulk loaders (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });

  it('reloading a window of prices and border-hours is idempotent', async ({ db }) => {
    const before = await counts(db);
    const rollup = await db.rawQuery('SELECT * FROM price_daily ORDER BY zone_id, day');
    const prices = await storedPrices(db, '2025-10-20', '2025-10-22');
    const hours = await db.rawQuery<HourRecord>(HOURS_SQL, ['2025-10-20', '2025-10-22']);
    expect(prices.length).toBe(30 * 96 * 2);
    await loadPrices(db, prices);
    await loadBorderHours(db, hours.map(toRow));
    expect(await counts(db)).toEqual(before);
    expect(await storedPrices(db, '2025-10-20', '2025-10-22')).toEqual(prices);
    expect(await db.rawQuery(HOURS_SQL, ['2025-10-20', '2025-10-22'])).toEqual(hours);
    expect(await db.rawQuery('SELECT * FROM price_daily ORDER BY zone_id, day')).toEqual(rollup);
  });

  it('reloading a window replaces its values and keeps the daily rollup in step', async ({ db }) => {
    const prices = await storedPrices(db, '2025-10-21', '2025-10-22');
    await loadPrices(
      db,
      prices.map((p) => ({ ...p, priceEurMwh: 42.5, source: 'entsoe' })),
    );
    const days = await db.rawQuery<{ mean: number; sources: string }>(
      `SELECT weighted_sum / minutes AS mean, array_to_string(sources, ',') AS sources FROM price_daily WHERE day = '2025-10-21'`,
    );
    expect(days).toHaveLength(30);
    for (const d of days) expect(d).toEqual({ mean: 42.5, sources: 'entsoe' });
  });

  it('loading one column group leaves the other groups untouched', async ({ db }) => {
    const hours = await db.rawQuery<HourRecord>(HOURS_SQL, ['2025-10-20T00:00Z', '2025-10-20T06:00Z']);
    await loadBorderHours(
      db,
      hours.map((h) => ({
        borderId: h.border_id,
        ts: h.ts,
        physicalAbMw: 1,
        physicalBaMw: 0,
        physicalSource: 'entsoe',
      })),
      ['physical'],
    );
    const after = await db.rawQuery<HourRecord>(HOURS_SQL, ['2025-10-20T00:00Z', '2025-10-20T06:00Z']);
    after.forEach((a, i) => {
      const b = hours[i] as HourRecord;
      expect(a).toEqual({
        ...b,
        physical_ab_mw: 1,
        physical_ba_mw: 0,
        physical_interpolated: false,
        physical_source: 'entsoe',
      });
    });
  });

  describe('on an empty database', () => {
    it.override({ seed: 'empty' });

    it('loads into an empty database and rejects rows of unknown zones without writing anything', async ({ db }) => {
      const zoneId = (await readCatalogue(db)).zone('FR')?.id as number;
      const rows: PricePointRow[] = Array.from({ length: 96 }, (_, i) => ({
        zoneId,
        ts: new Date(Date.UTC(2025, 10, 1) + i * 900_000),
        periodMinutes: 15,
        priceEurMwh: i,
        interpolated: false,
        source: 'entsoe',
      }));
      await loadPrices(db, rows);
      expect(await counts(db)).toEqual({ prices: 96, days: 1, hours: 0, outages: 0 });
      await expect(
        loadPrices(db, [{ ...rows[0], zoneId: 999, ts: new Date('2025-11-02T00:00Z') } as PricePointRow]),
      ).rejects.toThrow(/unknown zone ids: 999/);
      expect(await counts(db)).toEqual({ prices: 96, days: 1, hours: 0, outages: 0 });
    });

    it('replaces what a series covers: an hourly price loaded over quarter-hours leaves no quarter-hour behind in its hour', async ({
      db,
    }) => {
      const zoneId = (await readCatalogue(db)).zone('FR')?.id as number;
      const quarters: PricePointRow[] = Array.from({ length: 8 }, (_, i) => ({
        zoneId,
        ts: new Date(Date.UTC(2025, 10, 1, 10) + i * 900_000),
        periodMinutes: 15,
        priceEurMwh: 10 * (i + 1),
        interpolated: false,
        source: 'demo',
      }));
      await loadPrices(db, quarters);
      const hourly: PricePointRow = {
        zoneId,
        ts: new Date('2025-11-01T10:00Z'),
        periodMinutes: 60,
        priceEurMwh: 9999,
        interpolated: false,
        source: 'entsoe',
      };
      await loadPrices(db, [hourly]);
      const stored = await storedPrices(db, '2025-11-01T10:00Z', '2025-11-01T12:00Z');
      expect(stored.map((r) => [r.ts.toISOString(), r.periodMinutes, r.priceEurMwh])).toEqual([
        ['2025-11-01T10:00:00.000Z', 60, 9999],
        ...quarters.slice(4).map((q) => [q.ts.toISOString(), 15, q.priceEurMwh]),
      ]);
      const [daily] = await db.rawQuery<{ n: number }>(
        'SELECT count(*)::int AS n FROM price_daily WHERE zone_id = $1',
        [zoneId],
      );
      expect(daily?.n).toBe(1);
    });

    it('fails a batch with duplicate keys as a whole and keeps the database usable', async ({ db }) => {
      const zoneId = (await readCatalogue(db)).zone('ES')?.id as number;
      const row: PricePointRow = {
        zoneId,
        ts: new Date('2025-11-01T00:00Z'),
        periodMinutes: 60,
        priceEurMwh: 1,
        interpolated: false,
        source: 'entsoe',
      };
      await expect(loadPrices(db, [row, row])).rejects.toThrow(/duplicate key/);
      await loadPrices(db, [row]);
      await expect(loadPrices(db, [row, row])).rejects.toThrow(/cannot affect row a second time/);
      await expect(loadPrices(db, [{ ...row, priceEurMwh: Number.NaN }])).rejects.toThrow(/Non-finite/);
      expect(await counts(db)).toEqual({ prices: 1, days: 1, hours: 0, outages: 0 });
    });
  });

  it('upserts outages by border and interval', async ({ db }) => {
    const stored = await db.rawQuery<{
      border_id: number;
      starts_at: Date;
      ends_at: Date;
      planned: boolean;
      reason: string;
      mrid: string;
    }>('SELECT border_id, starts_at, ends_at, planned, reason, mrid FROM border_outage ORDER BY id');
    const rows = stored.map((o) => ({
      borderId: o.border_id,
      startsAt: o.starts_at,
      endsAt: o.ends_at,
      planned: !o.planned,
      reason: o.reason,
      mrid: o.mrid,
      source: 'demo' as const,
    }));
    const before = await counts(db);
    await loadOutages(db, rows);
    expect(await counts(db)).toEqual(before);
    const flipped = await db.rawQuery<{ planned: boolean }>('SELECT planned FROM border_outage ORDER BY id');
    expect(flipped.map((r) => r.planned)).toEqual(stored.map((o) => !o.planned));
  });
});
