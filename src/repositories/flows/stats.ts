import { currentRequestSignal } from '../../deadline.js';
import type { Database } from '../../db/client.js';
import type { Resolution } from '../../domain/resolution.js';
import type { TimeRange } from '../../domain/time.js';
import { Prisma } from '../../generated/prisma/client.js';
import { readInBatches, type RowBatches, runsOf } from '../../domain/row-batches.js';
import { read, readWithSettings } from '../../db/executor.js';
import { bucketSums } from './daily-sums.js';
import { DIR, type FlowFilter, hourConditions } from './filter.js';
import { type BorderTimeZones, borderTimeZoneTable, bucketUnit, dayBucket, localBucket } from '../sql/time.js';

/** A border as a series in its written orientation: flip when written B->A. */
export interface OrientedBorder {
  readonly borderId: number;
  readonly flip: boolean;
  readonly name: string;
}

const oriented = (borders: readonly OrientedBorder[]) => Prisma.sql`
  unnest(${borders.map((b) => b.borderId)}::smallint[], ${borders.map((b) => b.flip)}::bool[], ${borders.map((b) => b.name)}::text[])
    AS w(border_id, flip, name)`;

/** Signed A->B flow of border_hour `h` in MW (positive A->B). */
const SIGNED_AB = Prisma.sql`(CASE WHEN coalesce(h.export_from_a, true) THEN h.net_flow_mw ELSE -h.net_flow_mw END)`;

/** One scatter point: a bin of (signed flow, price delta) observations of one written border. */
export interface ScatterPoint {
  readonly zoneFrom: string;
  readonly zoneTo: string;
  readonly netFlowMw: number;
  readonly priceDelta: number;
  readonly count: number;
}

/**
 * The scatter bins of hourly observations (native/1H), counted per border and bin of the A->B
 * orientation on narrow keys first (one pass over the hours, no sort of every observation's
 * names), then written per oriented border: a border written B->A takes the negated bins, as
 * `round` (rint, ties to even) is symmetric, so the bin of -x is minus the bin of x.
 */
function hourlyScatter(
  f: FlowFilter,
  borders: readonly OrientedBorder[],
  bins: { flowBinMw: number; priceBin: number },
): Prisma.Sql {
  const ids = [...new Set(borders.map((b) => b.borderId))];
  return Prisma.sql`
    SELECT split_part(w.name, '->', 1) COLLATE "C" AS "zoneFrom", split_part(w.name, '->', 2) COLLATE "C" AS "zoneTo",
           (CASE WHEN w.flip THEN -g.flow_bin ELSE g.flow_bin END * ${bins.flowBinMw})::float8 + 0 AS "netFlowMw",
           (CASE WHEN w.flip THEN -g.delta_bin ELSE g.delta_bin END * ${bins.priceBin})::float8 + 0 AS "priceDelta",
           sum(g.n)::int AS count
    FROM (SELECT h.border_id, round(${SIGNED_AB} / ${bins.flowBinMw}) AS flow_bin,
                 round((h.price_b_eur_mwh - h.price_a_eur_mwh) / ${bins.priceBin}) AS delta_bin, count(*)::int AS n
          FROM border_hour h
          WHERE h.border_id = ANY(${ids}::smallint[]) AND h.ts >= ${f.from} AND h.ts < ${f.to}
            AND h.flow_type IS NOT NULL AND h.flow_type <> 'outage'
            AND h.net_flow_mw IS NOT NULL AND h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL
          GROUP BY 1, 2, 3) g
    JOIN ${oriented(borders)} ON w.border_id = g.border_id
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4`;
}

/**
 * A bucket mean (MW or EUR/MWh) rounded to a millionth: float sums added in the plan's order
 * (parallel workers, one border or all) differ in their last bits, and a mean on a bin's edge
 * would fall in either bin from one run to the next; rounded, it always falls in the same one.
 */
function settledMean(mean: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(round((${mean}) * 1e6) / 1e6)`;
}

/** Bucket means of each written border's flow (MW) and price difference (EUR/MWh) in UTC days or ISO weeks. */
function bucketObservations(f: FlowFilter, borders: readonly OrientedBorder[], resolution: Resolution): Prisma.Sql {
  return Prisma.sql`
    SELECT w.name, w.flip,
           ${settledMean(Prisma.sql`sum(CASE WHEN d.export_from_a THEN d.net_flow_sum ELSE -d.net_flow_sum END) / sum(d.hours)`)} AS flow_ab,
           ${settledMean(Prisma.sql`sum(CASE WHEN d.export_from_a THEN d.price_to_sum - d.price_from_sum ELSE d.price_from_sum - d.price_to_sum END)
             / nullif(sum(d.price_hours), 0)`)} AS delta_ab
    FROM ${oriented(borders)} JOIN (${bucketSums(f, resolution)}) d ON d.border_id = w.border_id
    WHERE d.flow_type <> 'outage'
    GROUP BY w.name, w.flip, ${dayBucket(resolution, Prisma.sql`d.day`)}`;
}

/** Bucket means of {@link bucketObservations} over local days or weeks of each border's time zone, from border_hour. */
function localBucketObservations(
  f: FlowFilter,
  borders: readonly OrientedBorder[],
  resolution: Resolution,
  tz: BorderTimeZones,
): Prisma.Sql {
  const both = Prisma.sql`h.price_a_eur_mwh IS NOT NULL AND h.price_b_eur_mwh IS NOT NULL`;
  return Prisma.sql`
    SELECT w.name, w.flip,
           ${settledMean(Prisma.sql`sum(CASE WHEN ${DIR} THEN coalesce(h.net_flow_mw, 0) ELSE -coalesce(h.net_flow_mw, 0) END) / count(*)`)} AS flow_ab,
           ${settledMean(Prisma.sql`sum(h.price_b_eur_mwh - h.price_a_eur_mwh) FILTER (WHERE ${both}) / nullif(count(*) FILTER (WHERE ${both}), 0)`)} AS delta_ab
    FROM ${oriented(borders)} JOIN border_hour h ON h.border_id = w.border_id JOIN ${borderTimeZoneTable(tz)} ON tz.border_id = h.border_id
    WHERE ${hourConditions(f)} AND h.flow_type <> 'outage'
    GROUP BY w.name, w.flip, ${localBucket(bucketUnit(resolution), Prisma.sql`h.ts`, Prisma.sql`tz.name`)}`;
}

/**
 * Flow/price scatter: observations (hourly at native/1H, bucket means at 1D/1W; outage hours left
 * out) binned to `flowBinMw` MW and `priceBin` EUR/MWh, signed in each border's written orientation.
 * With `tz`, 1D/1W buckets are local days or weeks of each border's time zone. A bin at zero is
 * +0 (`+ 0`): a bin's -0 and +0 observations group together, and without it the one the plan
 * met first named the bin.
 */
export async function findScatter(
  db: Database,
  f: FlowFilter,
  borders: readonly OrientedBorder[],
  resolution: Resolution,
  bins: { flowBinMw: number; priceBin: number },
  tz?: BorderTimeZones,
): Promise<ScatterPoint[]> {
  if (resolution === 'native' || resolution === '1H')
    return read<ScatterPoint>(db, 'findScatter', hourlyScatter(f, borders, bins));
  const obs = tz ? localBucketObservations(f, borders, resolution, tz) : bucketObservations(f, borders, resolution);
  return read<ScatterPoint>(
    db,
    'findScatter',
    Prisma.sql`
    SELECT split_part(o.name, '->', 1) COLLATE "C" AS "zoneFrom", split_part(o.name, '->', 2) COLLATE "C" AS "zoneTo",
           (round(o.flow / ${bins.flowBinMw}) * ${bins.flowBinMw})::float8 + 0 AS "netFlowMw",
           (round(o.delta / ${bins.priceBin}) * ${bins.priceBin})::float8 + 0 AS "priceDelta", count(*)::int AS count
    FROM (SELECT name, CASE WHEN flip THEN -flow_ab ELSE flow_ab END AS flow,
                 CASE WHEN flip THEN -delta_ab ELSE delta_ab END AS delta
          FROM (${obs}) x WHERE delta_ab IS NOT NULL) o
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4`,
  );
}

/** The zones of a written border's name (`FROM->TO`). */
function nameZones(name: string): [string, string] {
  const at = name.indexOf('->');
  return [name.slice(0, at), name.slice(at + 2)];
}

/** Orders names as the scatter's rows are ordered: by origin, then destination zone, in byte order (COLLATE "C"). */
function byNameZones(x: OrientedBorder, y: OrientedBorder): number {
  const [a, b] = [nameZones(x.name), nameZones(y.name)];
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

/**
 * {@link findScatter} in batches of about `bordersPerBatch` written borders each, read one after
 * the other as the batches are taken. A bin gathers observations of the whole range, so the rows
 * cannot be cut by time; they are ordered by border first, so each batch is the same statement over
 * the next borders in that order (borders written alike always in one batch).
 */
export function scatterBatches(
  db: Database,
  f: FlowFilter,
  borders: readonly OrientedBorder[],
  resolution: Resolution,
  bins: { flowBinMw: number; priceBin: number },
  bordersPerBatch: number,
  tz?: BorderTimeZones,
): RowBatches<ScatterPoint> {
  const runs = runsOf([...borders].sort(byNameZones), bordersPerBatch, (b) => b.name);
  return readInBatches(
    runs,
    (run) => {
      const borderIds = [...new Set(run.map((b) => b.borderId))];
      return findScatter(db, { ...f, borderIds }, run, resolution, bins, tz);
    },
    currentRequestSignal(),
  );
}

/** One point of a duration curve: `percentage` of hours had a flow at or above `flowMw`. */
export interface DurationPoint {
  readonly series: string;
  readonly seriesType: 'border' | 'zone_net';
  readonly percentage: number;
  readonly flowMw: number;
}

function zoneNetSeries(range: TimeRange, zoneIds: readonly number[]): Prisma.Sql {
  return Prisma.sql`
    SELECT z.code AS series, 'zone_net' AS series_type,
           sum(CASE WHEN b.zone_a_id = z.id THEN h.signed_ab_mw ELSE -h.signed_ab_mw END) AS flow
    FROM zone z JOIN border b ON z.id IN (b.zone_a_id, b.zone_b_id) JOIN border_hour h ON h.border_id = b.id
    WHERE z.id = ANY(${zoneIds.map(Number)}::smallint[]) AND h.ts >= ${range.from} AND h.ts < ${range.to}
      AND h.signed_ab_mw IS NOT NULL
    GROUP BY z.code, h.ts`;
}

/** Most statements of border percentiles run side by side (PostgreSQL's Parallel Append hands them to its workers). */
const PERCENTILE_PARTS = 6;

/**
 * One statement of {@link borderPercentiles}: the percentiles of borders `ids`' signed A->B flows
 * (MW) sorted descending (`descending`) or ascending. The flows come in that order from the index
 * on (border_id, signed_ab_mw DESC, ts): forwards for descending, backwards for ascending (an
 * index-only scan, no sort). Grouped in the scan's border order (GROUP BY takes the direction of
 * the ORDER BY), each border's rows reach the aggregate sorted, and its sort ends after one pass
 * checking the order.
 */
function percentileStatement(
  range: TimeRange,
  ids: readonly number[],
  fractions: readonly number[],
  descending: boolean,
): Prisma.Sql {
  const flowDir = descending ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const borderDir = descending ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  return Prisma.sql`(
    SELECT o.border_id, ${descending}::bool AS descending,
           percentile_disc(${fractions}::float8[]) WITHIN GROUP (ORDER BY o.flow ${flowDir}) AS flows
    FROM (SELECT h.border_id, h.signed_ab_mw AS flow FROM border_hour h
          WHERE h.border_id = ANY(${ids}::smallint[])
            AND h.ts >= ${range.from} AND h.ts < ${range.to} AND h.signed_ab_mw IS NOT NULL
          ORDER BY h.border_id ${borderDir}, h.signed_ab_mw ${flowDir}) o
    GROUP BY o.border_id ORDER BY o.border_id ${borderDir})`;
}

/**
 * Percentiles of each border's signed A->B flows over the range (`flows`): sorted descending for
 * the borders written unflipped, ascending (a flipped series' values negated) for the flipped ones,
 * `descending` telling which. The borders of each direction are dealt into up to
 * {@link PERCENTILE_PARTS} statements between them, joined by UNION ALL: over a long range
 * PostgreSQL runs them in parallel workers (reading and checking 10 M hours for 20 years of 59
 * borders is most of the work).
 */
function borderPercentiles(
  range: TimeRange,
  borders: readonly OrientedBorder[],
  fractions: readonly number[],
): Prisma.Sql {
  const ids = (flip: boolean) => [...new Set(borders.filter((b) => b.flip === flip).map((b) => Number(b.borderId)))];
  const groups = [
    { descending: true, ids: ids(false) },
    { descending: false, ids: ids(true) },
  ].filter((g) => g.ids.length);
  const total = groups.reduce((n, g) => n + g.ids.length, 0);
  const statements = groups.flatMap((g) => {
    const parts = Math.max(1, Math.min(g.ids.length, Math.round((PERCENTILE_PARTS * g.ids.length) / total)));
    return Array.from({ length: parts }, (_, p) =>
      percentileStatement(
        range,
        g.ids.filter((_, i) => i % parts === p),
        fractions,
        g.descending,
      ),
    );
  });
  return Prisma.join(statements, ' UNION ALL ');
}

/** Settings of the duration curves' statement: no JIT compile (it cost more than it saved), and memory for one border's sort. */
const DURATION_SETTINGS = { jit: 'off', work_mem: '32MB' } as const;

/**
 * Flow duration curves at `points` evenly spaced percentages (0 = the largest flow, 100 = the
 * smallest): per border (signed in the written orientation) and per zone net position (export > 0).
 * A flipped border's value at a percentage is the negated value at the same rank of its flows
 * sorted ascending: the same number as sorting the negated flows descending.
 */
export async function findDurationCurves(
  db: Database,
  range: TimeRange,
  borders: readonly OrientedBorder[],
  zoneIds: readonly number[],
  points: number,
): Promise<DurationPoint[]> {
  const fractions = Array.from({ length: points }, (_, i) => i / (points - 1));
  const parts: Prisma.Sql[] = [];
  if (borders.length) {
    parts.push(Prisma.sql`
      SELECT w.name AS series, 'border' AS series_type, w.flip, unnest(${fractions}::float8[]) AS fraction,
             unnest(a.flows) AS flow
      FROM (${borderPercentiles(range, borders, fractions)}) a
      JOIN ${oriented(borders)} ON w.border_id = a.border_id AND w.flip <> a.descending`);
  }
  if (zoneIds.length) {
    parts.push(Prisma.sql`
      SELECT s.series, s.series_type, false AS flip, unnest(${fractions}::float8[]) AS fraction,
             unnest(percentile_disc(${fractions}::float8[]) WITHIN GROUP (ORDER BY s.flow DESC)) AS flow
      FROM (${zoneNetSeries(range, zoneIds)}) s
      GROUP BY s.series, s.series_type`);
  }
  if (!parts.length) return [];
  return readWithSettings<DurationPoint>(
    db,
    'findDurationCurves',
    DURATION_SETTINGS,
    Prisma.sql`
    SELECT c.series, c.series_type AS "seriesType", (c.fraction * 100)::float8 AS percentage,
           (CASE WHEN c.flip THEN -c.flow ELSE c.flow END)::float8 AS "flowMw"
    FROM (${Prisma.join(parts, ' UNION ALL ')}) c
    ORDER BY c.series_type, c.series COLLATE "C", c.fraction`,
  );
}
