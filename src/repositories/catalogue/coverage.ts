/**
 * What the database holds per zone and border: first and last instants and sources per data kind.
 * The catalogue reads them from the `coverage` rollup (`readPriceSpans`, `readBorderSpans`: a few
 * rows per subject); `findPriceSpans` and `findBorderSpans` compute them from the facts (a pass over
 * every stored border-hour), the independent path the rollup is checked against.
 */
import { Prisma } from '../../generated/prisma/client.js';
import { DataSource } from '../../generated/prisma/enums.js';
import type { Database } from '../../db/client.js';
import { read } from '../../db/executor.js';

/** Stored span of one data kind: [from, to) in UTC, with the stored source names (e.g. `entsoe`). */
export interface StoredSpan {
  readonly from: Date;
  readonly to: Date;
  readonly sources: readonly string[];
  /** Length of the latest stored period in minutes; null when the kind has no periods (outages). */
  readonly periodMinutes: number | null;
}

/** Price span of one zone by short code. */
export interface ZonePriceSpan extends StoredSpan {
  readonly zone: string;
}

/** Spans of one border (key `A->B` in stored orientation) per data kind; null when none is stored. */
export interface BorderSpans {
  readonly border: string;
  readonly physical: StoredSpan | null;
  readonly scheduled: StoredSpan | null;
  readonly ntc: StoredSpan | null;
  readonly outages: StoredSpan | null;
}

/**
 * Price spans of the given zones (ids) that have prices: `from` is the start of the first period,
 * `to` the end of the last one (exclusive), `periodMinutes` the length of the last; sources come
 * from the price_daily rollup.
 */
export async function findPriceSpans(db: Database, zoneIds: readonly number[]): Promise<ZonePriceSpan[]> {
  return read<ZonePriceSpan>(
    db,
    'findPriceSpans',
    Prisma.sql`
    SELECT z.code AS zone, f.ts AS "from", l.ts + make_interval(mins => l.period_minutes) AS "to",
           l.period_minutes::int AS "periodMinutes",
           (SELECT coalesce(array_agg(DISTINCT u.source::text ORDER BY u.source::text), '{}')
            FROM price_daily d CROSS JOIN LATERAL unnest(d.sources) AS u(source) WHERE d.zone_id = z.id) AS sources
    FROM zone z
    JOIN LATERAL (SELECT p.ts FROM price_point p WHERE p.zone_id = z.id ORDER BY p.ts LIMIT 1) f ON true
    JOIN LATERAL (SELECT p.ts, p.period_minutes FROM price_point p WHERE p.zone_id = z.id ORDER BY p.ts DESC LIMIT 1) l ON true
    WHERE z.id = ANY(${zoneIds.map(Number)}::smallint[])
    ORDER BY z.code COLLATE "C"`,
  );
}

/** Every stored source name, in byte order (the order of the `sources` arrays). */
const SOURCE_NAMES = Object.values(DataSource).sort();

/**
 * Aggregates of one hourly kind of border_hour: columns `<kind>_from`, `<kind>_to`, `<kind>_sources`.
 * The sources come from one `bool_or` per source name, not `array_agg(DISTINCT …)`: no sort per
 * group, so the pass over border_hour is a plain streaming aggregate (the same arrays).
 */
function hourlyKind(kind: string, present: string, source: string): string {
  const seen = SOURCE_NAMES.map(
    (name) => `CASE WHEN bool_or(h.${source} = '${name}') FILTER (WHERE ${present}) THEN '${name}' END`,
  );
  return `min(h.ts) FILTER (WHERE ${present}) AS ${kind}_from,
          max(h.ts) FILTER (WHERE ${present}) + interval '1 hour' AS ${kind}_to,
          array_remove(ARRAY[${seen.join(', ')}]::text[], NULL) AS ${kind}_sources`;
}

const HOURLY_KINDS = [
  ['physical', 'h.physical_ab_mw IS NOT NULL OR h.physical_ba_mw IS NOT NULL', 'physical_source'],
  ['scheduled', 'h.scheduled_ab_mw IS NOT NULL OR h.scheduled_ba_mw IS NOT NULL', 'scheduled_source'],
  ['ntc', 'h.ntc_ab_mw IS NOT NULL OR h.ntc_ba_mw IS NOT NULL', 'ntc_source'],
] as const;

type SpanColumns = Record<string, Date | string[] | null | string>;

function spanOf(row: SpanColumns, kind: string, periodMinutes: number | null): StoredSpan | null {
  const [from, to] = [row[`${kind}_from`], row[`${kind}_to`]];
  if (!(from instanceof Date) || !(to instanceof Date)) return null;
  return { from, to, sources: (row[`${kind}_sources`] as string[] | null) ?? [], periodMinutes };
}

/**
 * Spans of the given borders (ids) per kind: hourly kinds (physical flows, scheduled exchanges,
 * NTC) from border_hour hours with a value in either direction, `to` = end of the last such hour;
 * outages from border_outage, [earliest start, latest end).
 */
export async function findBorderSpans(db: Database, borderIds: readonly number[]): Promise<BorderSpans[]> {
  const ids = borderIds.map(Number);
  const rows = await read<SpanColumns & { border: string }>(
    db,
    'findBorderSpans',
    Prisma.sql`
    WITH hours AS (
      SELECT h.border_id, ${Prisma.raw(HOURLY_KINDS.map(([k, p, s]) => hourlyKind(k, p, s)).join(',\n'))}
      FROM border_hour h WHERE h.border_id = ANY(${ids}::smallint[])
      GROUP BY h.border_id
    ), outages AS (
      SELECT o.border_id, min(o.starts_at) AS outages_from, max(o.ends_at) AS outages_to,
             array_agg(DISTINCT o.source::text ORDER BY o.source::text) AS outages_sources
      FROM border_outage o WHERE o.border_id = ANY(${ids}::smallint[])
      GROUP BY o.border_id
    )
    SELECT a.code || '->' || z.code AS border, h.*, o.*
    FROM border b JOIN zone a ON a.id = b.zone_a_id JOIN zone z ON z.id = b.zone_b_id
    LEFT JOIN hours h ON h.border_id = b.id LEFT JOIN outages o ON o.border_id = b.id
    WHERE b.id = ANY(${ids}::smallint[])`,
  );
  return rows.map((r) => ({
    border: r.border,
    physical: spanOf(r, 'physical', 60),
    scheduled: spanOf(r, 'scheduled', 60),
    ntc: spanOf(r, 'ntc', 60),
    outages: spanOf(r, 'outages', null),
  }));
}

interface RollupRow {
  readonly subject: string;
  readonly kind: string;
  readonly from: Date;
  readonly to: Date;
  readonly periodMinutes: number;
  readonly sources: string[];
}

/**
 * Per subject (key `subject`) and kind of the `coverage` rollup: [first start, end of the last
 * period), the length in minutes of the latest period, and the named sources in byte order.
 */
function rollupSql(
  kinds: readonly string[],
  ids: readonly number[],
  subject: Prisma.Sql,
  join: Prisma.Sql,
): Prisma.Sql {
  return Prisma.sql`
    SELECT ${subject} AS subject, c.kind::text AS kind, min(c.first_start) AS "from", max(c.last_end) AS "to",
           (extract(epoch FROM (array_agg(c.last_end - c.last_start ORDER BY c.last_start DESC))[1]) / 60)::int AS "periodMinutes",
           coalesce(array_agg(c.source ORDER BY c.source COLLATE "C") FILTER (WHERE c.source <> ''), '{}') AS sources
    FROM coverage c ${join}
    WHERE c.kind::text = ANY(${[...kinds]}::text[]) AND c.subject_id = ANY(${ids.map(Number)}::smallint[])
    GROUP BY 1, 2`;
}

/** As {@link findPriceSpans}, from the `coverage` rollup: a few rows per zone whatever the stored history. */
export async function readPriceSpans(db: Database, zoneIds: readonly number[]): Promise<ZonePriceSpan[]> {
  const rows = await read<RollupRow>(
    db,
    'readPriceSpans',
    rollupSql(['prices'], zoneIds, Prisma.sql`z.code`, Prisma.sql`JOIN zone z ON z.id = c.subject_id`),
  );
  return rows.map((r) => ({
    zone: r.subject,
    from: r.from,
    to: r.to,
    periodMinutes: r.periodMinutes,
    sources: r.sources,
  }));
}

const BORDER_KEY = Prisma.sql`a.code || '->' || z.code`;
const BORDER_JOIN = Prisma.sql`JOIN border b ON b.id = c.subject_id JOIN zone a ON a.id = b.zone_a_id JOIN zone z ON z.id = b.zone_b_id`;

/** As {@link findBorderSpans}, from the `coverage` rollup: a few rows per border whatever the stored history. */
export async function readBorderSpans(db: Database, borderIds: readonly number[]): Promise<BorderSpans[]> {
  const ids = borderIds.map(Number);
  const [rows, keys] = await Promise.all([
    read<RollupRow>(
      db,
      'readBorderSpans',
      rollupSql(['physical', 'scheduled', 'ntc', 'outages'], ids, BORDER_KEY, BORDER_JOIN),
    ),
    read<{ border: string }>(
      db,
      'readBorderKeys',
      Prisma.sql`SELECT ${BORDER_KEY} AS border FROM border b JOIN zone a ON a.id = b.zone_a_id
      JOIN zone z ON z.id = b.zone_b_id WHERE b.id = ANY(${ids}::smallint[])`,
    ),
  ]);
  const spans = new Map(rows.map((r) => [`${r.subject}|${r.kind}`, r]));
  const spanOfKind = (border: string, kind: string, periodMinutes: number | null): StoredSpan | null => {
    const r = spans.get(`${border}|${kind}`);
    return r ? { from: r.from, to: r.to, sources: r.sources, periodMinutes } : null;
  };
  return keys.map(({ border }) => ({
    border,
    physical: spanOfKind(border, 'physical', 60),
    scheduled: spanOfKind(border, 'scheduled', 60),
    ntc: spanOfKind(border, 'ntc', 60),
    outages: spanOfKind(border, 'outages', null),
  }));
}
