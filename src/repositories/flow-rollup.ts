import { widenToDays } from '../domain/time.js';
import { Prisma } from '../generated/prisma/client.js';
import { DIR, HOUR_AGGREGATES } from './flow-sql.js';
import { type Executor, query } from './sql.js';

const borderDaily = (from: Date, to: Date) => Prisma.sql`
  INSERT INTO border_daily (border_id, day, flow_type, export_from_a, hours, interpolated_hours, derived_hours,
                            net_flow_sum, price_hours, price_from_sum, price_to_sum, capacity_sum, capacity_hours, sources)
  SELECT h.border_id, (h.ts AT TIME ZONE 'UTC')::date, h.flow_type, ${DIR}, ${HOUR_AGGREGATES}
  FROM border_hour h
  WHERE h.ts >= ${from} AND h.ts < ${to} AND h.flow_type IS NOT NULL
  GROUP BY 1, 2, 3, 4`;

const zoneDaily = (from: Date, to: Date) => Prisma.sql`
  INSERT INTO zone_daily (zone_id, day, ci_hours, assessed_hours)
  SELECT zh.zone_id, (zh.ts AT TIME ZONE 'UTC')::date, count(*) FILTER (WHERE zh.ci)::int, count(*)::int
  FROM (${zoneHours(from, to)}) zh
  GROUP BY 1, 2`;

/**
 * Per zone and hour over [from, to): `ci` is true when a counter-intuitive flow left the zone at
 * any of its borders; one row exists when at least one of its borders was assessed.
 */
export function zoneHours(from: Date, to: Date, zoneIds: readonly number[] = []): Prisma.Sql {
  const zones = zoneIds.length ? Prisma.sql`AND z.zone_id = ANY(${zoneIds.map(Number)}::smallint[])` : Prisma.empty;
  return Prisma.sql`
    SELECT z.zone_id, h.ts,
           bool_or(h.flow_type = 'counter_intuitive'
                   AND ((h.export_from_a AND z.zone_id = b.zone_a_id) OR (NOT h.export_from_a AND z.zone_id = b.zone_b_id))) AS ci
    FROM border_hour h
    JOIN border b ON b.id = h.border_id
    CROSS JOIN LATERAL (VALUES (b.zone_a_id), (b.zone_b_id)) AS z(zone_id)
    WHERE h.ts >= ${from} AND h.ts < ${to} AND h.flow_type IS NOT NULL ${zones}
    GROUP BY 1, 2`;
}

async function run(db: Executor, statement: Prisma.Sql): Promise<void> {
  await query(db, statement.text, statement.values);
}

/**
 * Recomputes border_daily and zone_daily for the UTC days touching [from, to) from border_hour's
 * stored classification. Hours without a reported flow (outages) count as 0 MW in the A->B
 * direction. Run it in the same transaction as the reclassification it follows.
 */
export async function refreshFlowRollups(db: Executor, range: { from: Date; to: Date }): Promise<void> {
  const { from, to } = widenToDays(range);
  const days = [from.toISOString().slice(0, 10), to.toISOString().slice(0, 10)];
  await query(db, 'DELETE FROM border_daily WHERE day >= $1::date AND day < $2::date', days);
  await query(db, 'DELETE FROM zone_daily WHERE day >= $1::date AND day < $2::date', days);
  await run(db, borderDaily(from, to));
  await run(db, zoneDaily(from, to));
}
