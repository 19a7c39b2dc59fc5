/**
 * Bulk loaders of market data: prices into `price_point` (keeping `price_daily` in step), hourly
 * border facts into `border_hour`, outages into `border_outage`. Never one row per statement;
 * upsert semantics, so reloading a window replaces its rows. After loading prices or border facts,
 * callers run `reclassify` over the window to refresh the stored classification.
 */
import { HOUR_MS, MINUTE_MS } from '../../domain/calendar.js';
import type { Database } from '../../db/client.js';
import type { BorderHourClassColumns } from '../../domain/border-class.js';
import { allowLongStatements } from './maintenance.js';
import { appendCopyPayloads, type BulkSpec, bulkUpsert, distinctIds, timeBounds } from './bulk.js';
import type { CopyType, CopyValue } from '../sql/copy-binary.js';
import { refreshCoverage, refreshOutageCoverage } from '../catalogue/coverage-rollup.js';
import { refreshPriceDaily } from '../prices/rollup.js';
import { Prisma } from '../../generated/prisma/client.js';
import { type Executor, type Sql, inTransaction, run } from '../../db/executor.js';

/** Where a stored value came from (`DataSource` enum). */
export type DataSource = 'demo' | 'entsoe';

/** One day-ahead price at native resolution; `ts` is the period start (UTC). */
export interface PricePointRow {
  readonly zoneId: number;
  readonly ts: Date;
  /** 15, 30 or 60. */
  readonly periodMinutes: number;
  /** EUR/MWh. */
  readonly priceEurMwh: number;
  readonly interpolated: boolean;
  readonly source: DataSource;
}

/** Hourly facts of one border (hour start UTC, stored orientation A<B), MW; null = not reported. */
export interface BorderHourRow {
  readonly borderId: number;
  readonly ts: Date;
  readonly physicalAbMw?: number | null;
  readonly physicalBaMw?: number | null;
  readonly physicalInterpolated?: boolean;
  readonly physicalSource?: DataSource | null;
  readonly scheduledAbMw?: number | null;
  readonly scheduledBaMw?: number | null;
  /** A scheduled value of the hour (either direction) fills a gap upstream. */
  readonly scheduledInterpolated?: boolean;
  readonly scheduledSource?: DataSource | null;
  readonly ntcAbMw?: number | null;
  readonly ntcBaMw?: number | null;
  readonly ntcSource?: DataSource | null;
  /** Precomputed classification columns (demo data); else null and `reclassify` fills them. */
  readonly classification?: BorderHourClassColumns | null;
}

/** Column groups of `border_hour` a load writes; groups not listed keep their stored values. */
export type BorderHourGroup = 'physical' | 'scheduled' | 'ntc' | 'classification';

/** An interval [startsAt, endsAt) UTC during which a border was unavailable. */
export interface BorderOutageRow {
  readonly borderId: number;
  readonly startsAt: Date;
  readonly endsAt: Date;
  readonly planned: boolean;
  readonly reason: string | null;
  readonly mrid: string | null;
  readonly source: DataSource;
}

/** The instants a load touched, [from, to) UTC. */
export interface LoadWindow {
  readonly from: Date;
  readonly to: Date;
}

async function windowHasRows(
  sql: Sql,
  table: string,
  idColumn: string,
  ids: number[],
  from: number,
  to: number,
): Promise<boolean> {
  const rows = await run<{ found: boolean }>(
    sql,
    'windowHasRows',
    Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM ${Prisma.raw(table)} WHERE ${Prisma.raw(idColumn)} = ANY(${ids}::int2[]) AND ts >= ${new Date(from).toISOString()}::timestamptz AND ts < ${new Date(to).toISOString()}::timestamptz) AS found`,
  );
  return rows[0]?.found === true;
}

const PRICE_COLUMNS: readonly (readonly [string, CopyType])[] = [
  ['zone_id', 'int2'],
  ['ts', 'timestamptz'],
  ['period_minutes', 'int2'],
  ['price_eur_mwh', 'float8'],
  ['interpolated', 'bool'],
  ['source', 'text'],
];

function priceSpec(zoneIds: readonly number[], targetEmpty: boolean): BulkSpec<PricePointRow> {
  const encode = (r: PricePointRow) => [r.zoneId, r.ts, r.periodMinutes, r.priceEurMwh, r.interpolated, r.source];
  return {
    table: 'price_point',
    columns: PRICE_COLUMNS,
    key: ['zone_id', 'ts'],
    encode,
    targetEmpty,
    references: { table: 'zone', ids: zoneIds },
  };
}

/**
 * Stores prices (EUR/MWh): each zone's rows replace what is stored inside the span they cover, and
 * refreshes the `price_daily` rollup of the touched UTC days and the zones' `coverage`, in one
 * transaction (the caller's when given an {@link Sql}). Keys (zone, ts) must be unique within the
 * batch; a duplicate, an unknown zone or a non-finite price fails the whole batch.
 * @returns the window touched, or null for an empty batch.
 */
export async function loadPrices(db: Executor, rows: readonly PricePointRow[]): Promise<LoadWindow | null> {
  const bounds = timeBounds(rows, (r) => r.ts);
  if (!bounds) return null;
  const zoneIds = distinctIds(rows, (r) => r.zoneId);
  const window = { from: new Date(bounds.min), to: new Date(bounds.max + HOUR_MS) };
  await inTransaction(db, async (sql) => {
    await allowLongStatements(sql);
    const targetEmpty = !(await windowHasRows(sql, 'price_point', 'zone_id', zoneIds, bounds.min, bounds.max + 1));
    if (!targetEmpty) await clearPriceSpans(sql, rows);
    await bulkUpsert(sql, priceSpec(zoneIds, targetEmpty), rows);
    await refreshPriceDaily(sql, { ...window, zoneIds });
    await refreshCoverage(sql, { kinds: ['prices'], subjectIds: zoneIds, ...window });
  });
  return window;
}

/**
 * Removes the stored prices of each zone inside the span its rows cover (first period start to
 * last period end), so a series replaces what it covers: hourly prices loaded over 15-minute ones
 * leave no quarter-hour behind to skew the hourly means.
 */
async function clearPriceSpans(sql: Sql, rows: readonly PricePointRow[]): Promise<void> {
  const spans = new Map<number, { from: number; to: number }>();
  for (const r of rows) {
    const start = r.ts.getTime();
    const end = start + r.periodMinutes * MINUTE_MS;
    const span = spans.get(r.zoneId);
    if (!span) spans.set(r.zoneId, { from: start, to: end });
    else {
      span.from = Math.min(span.from, start);
      span.to = Math.max(span.to, end);
    }
  }
  const zones = [...spans.keys()];
  await run(
    sql,
    'clearPriceSpans',
    Prisma.sql`
    DELETE FROM price_point p USING unnest(${zones}::int[], ${zones.map((z) => new Date(spans.get(z)!.from).toISOString())}::timestamptz[],
          ${zones.map((z) => new Date(spans.get(z)!.to).toISOString())}::timestamptz[]) AS s(zone_id, from_ts, to_ts)
     WHERE p.zone_id = s.zone_id AND p.ts >= s.from_ts AND p.ts < s.to_ts`,
  );
}

type Column = readonly [string, CopyType];

const GROUP_COLUMNS: Record<BorderHourGroup, readonly Column[]> = {
  physical: [
    ['physical_ab_mw', 'float8'],
    ['physical_ba_mw', 'float8'],
    ['physical_interpolated', 'bool'],
    ['physical_source', 'text'],
  ],
  scheduled: [
    ['scheduled_ab_mw', 'float8'],
    ['scheduled_ba_mw', 'float8'],
    ['scheduled_interpolated', 'bool'],
    ['scheduled_source', 'text'],
  ],
  ntc: [
    ['ntc_ab_mw', 'float8'],
    ['ntc_ba_mw', 'float8'],
    ['ntc_source', 'text'],
  ],
  classification: [
    ['flow_type', 'text'],
    ['export_from_a', 'bool'],
    ['net_flow_mw', 'float8'],
    ['price_a_eur_mwh', 'float8'],
    ['price_b_eur_mwh', 'float8'],
    ['flow_derived', 'bool'],
    ['scheduled_flow_type', 'text'],
    ['scheduled_export_from_a', 'bool'],
  ],
};

type Value = CopyValue;

function groupValues(r: BorderHourRow, group: BorderHourGroup): Value[] {
  switch (group) {
    case 'physical':
      return [
        r.physicalAbMw ?? null,
        r.physicalBaMw ?? null,
        r.physicalInterpolated ?? false,
        r.physicalSource ?? null,
      ];
    case 'scheduled':
      return [
        r.scheduledAbMw ?? null,
        r.scheduledBaMw ?? null,
        r.scheduledInterpolated ?? false,
        r.scheduledSource ?? null,
      ];
    case 'ntc':
      return [r.ntcAbMw ?? null, r.ntcBaMw ?? null, r.ntcSource ?? null];
    default: {
      const c = r.classification;
      if (!c) return [null, null, null, null, null, false, null, null];
      return [
        c.flowType,
        c.exportFromA,
        c.netFlowMw,
        c.priceAEurMwh,
        c.priceBEurMwh,
        c.flowDerived,
        c.scheduledFlowType,
        c.scheduledExportFromA,
      ];
    }
  }
}

function borderHourSpec(
  ids: readonly number[],
  groups: readonly BorderHourGroup[],
  targetEmpty: boolean,
): BulkSpec<BorderHourRow> {
  const columns: Column[] = [['border_id', 'int2'], ['ts', 'timestamptz'], ...groups.flatMap((g) => GROUP_COLUMNS[g])];
  const encode = (r: BorderHourRow): Value[] => {
    const values: Value[] = [r.borderId, r.ts];
    for (const g of groups) for (const v of groupValues(r, g)) values.push(v);
    return values;
  };
  return {
    table: 'border_hour',
    columns,
    key: ['border_id', 'ts'],
    encode,
    targetEmpty,
    references: { table: 'border', ids },
  };
}

/**
 * Appends prices (EUR/MWh) to a `price_point` holding none of their keys (a load into a table
 * emptied in its transaction, indexes deferred): one binary COPY, no probe, no rollup: run
 * `refreshPriceDaily` over the window afterwards. A duplicate key fails when the key is rebuilt.
 */
export async function appendPrices(sql: Sql, rows: readonly PricePointRow[]): Promise<void> {
  await bulkUpsert(
    sql,
    priceSpec(
      distinctIds(rows, (r) => r.zoneId),
      true,
    ),
    rows,
  );
}

const ALL_GROUPS: readonly BorderHourGroup[] = ['physical', 'scheduled', 'ntc', 'classification'];

/** As {@link appendPrices}, for border-hours (MW) with every column group, into `border_hour`. */
export async function appendBorderHours(sql: Sql, rows: readonly BorderHourRow[]): Promise<void> {
  await bulkUpsert(
    sql,
    borderHourSpec(
      distinctIds(rows, (r) => r.borderId),
      ALL_GROUPS,
      true,
    ),
    rows,
  );
}

/**
 * Appends binary COPY payloads of `price_point` rows (the columns of {@link appendPrices}, in its
 * order) of zones `zoneIds` to a table holding none of their keys, as {@link appendPrices} does.
 */
export async function appendPricePayloads(
  sql: Sql,
  payloads: readonly Uint8Array<ArrayBuffer>[],
  zoneIds: readonly number[],
): Promise<void> {
  await appendCopyPayloads(sql, priceSpec(zoneIds, true), payloads);
}

/**
 * As {@link appendPricePayloads}, for `border_hour` rows of borders `borderIds` with every column
 * group, in the column order of {@link appendBorderHours}.
 */
export async function appendBorderHourPayloads(
  sql: Sql,
  payloads: readonly Uint8Array<ArrayBuffer>[],
  borderIds: readonly number[],
): Promise<void> {
  await appendCopyPayloads(sql, borderHourSpec(borderIds, ALL_GROUPS, true), payloads);
}

/**
 * Upserts hourly border facts (MW). `groups` selects the column groups written (default all four);
 * e.g. loading physical flows alone leaves schedules and NTC untouched. Run `reclassify` over the
 * window afterwards unless the rows carry their classification. Refreshes the borders' `coverage`
 * of the groups written.
 * @returns the window touched, or null for an empty batch.
 */
export async function loadBorderHours(
  db: Executor,
  rows: readonly BorderHourRow[],
  groups: readonly BorderHourGroup[] = ALL_GROUPS,
): Promise<LoadWindow | null> {
  const bounds = timeBounds(rows, (r) => r.ts);
  if (!bounds) return null;
  const ids = distinctIds(rows, (r) => r.borderId);
  const window = { from: new Date(bounds.min), to: new Date(bounds.max + HOUR_MS) };
  const kinds = groups.filter((g): g is Exclude<BorderHourGroup, 'classification'> => g !== 'classification');
  await inTransaction(db, async (sql) => {
    await allowLongStatements(sql);
    const targetEmpty = !(await windowHasRows(sql, 'border_hour', 'border_id', ids, bounds.min, bounds.max + 1));
    await bulkUpsert(sql, borderHourSpec(ids, groups, targetEmpty), rows);
    await refreshCoverage(sql, { kinds, subjectIds: ids, ...window });
  });
  return window;
}

/** Upserts outages, keyed by (border, start, end), and refreshes the borders' outage `coverage`. @returns the number of rows written. */
export async function loadOutages(db: Executor, rows: readonly BorderOutageRow[]): Promise<number> {
  const chunk = 10_000;
  await inTransaction(db, async (sql) => {
    for (let at = 0; at < rows.length; at += chunk) {
      const part = rows.slice(at, at + chunk);
      await run(
        sql,
        'upsertOutages',
        Prisma.sql`INSERT INTO border_outage (border_id, starts_at, ends_at, planned, reason, mrid, source)
         SELECT b, s, e, p, r, m, src::"DataSource"
         FROM unnest(${part.map((r) => r.borderId)}::int2[], ${part.map((r) => r.startsAt.toISOString())}::timestamptz[],
               ${part.map((r) => r.endsAt.toISOString())}::timestamptz[], ${part.map((r) => r.planned)}::bool[], ${part.map((r) => r.reason)}::text[],
               ${part.map((r) => r.mrid)}::text[], ${part.map((r) => r.source)}::text[])
           AS u(b, s, e, p, r, m, src)
         ON CONFLICT (border_id, starts_at, ends_at)
         DO UPDATE SET planned = excluded.planned, reason = excluded.reason, mrid = excluded.mrid, source = excluded.source`,
      );
    }
    await refreshOutageCoverage(
      sql,
      distinctIds(rows, (r) => r.borderId),
    );
  });
  return rows.length;
}

/** Whether any price is stored (the demo seed only loads into a database without prices). */
export async function hasPrices(db: Database): Promise<boolean> {
  const rows = await run<{ found: boolean }>(
    db,
    'hasPrices',
    Prisma.sql`SELECT EXISTS (SELECT 1 FROM price_point) AS found`,
  );
  return rows[0]?.found === true;
}
