/**
 * Removal of the generated demo data set (source `demo`), for `db:seed --force`. Upstream rows
 * (source `entsoe`) stay; border-hours mixing both keep their upstream column groups.
 */
import { HOUR_MS } from '../domain/calendar.js';
import type { Database } from '../db/client.js';
import { refreshFlowRollups } from './flow-rollup.js';
import { refreshPriceDaily } from './price-rollup.js';
import { allowLongStatements } from './bulk.js';
import { inTransaction } from './sql.js';

/** Rows removed by {@link deleteDemoData}. */
export interface DeletedDemoData {
  readonly prices: number;
  readonly borderHours: number;
  readonly outages: number;
}

const ONLY_DEMO = `coalesce(physical_source, 'demo') = 'demo' AND coalesce(scheduled_source, 'demo') = 'demo'
  AND coalesce(ntc_source, 'demo') = 'demo'`;

const CLEAR_GROUPS = [
  `UPDATE border_hour SET physical_ab_mw = NULL, physical_ba_mw = NULL, physical_interpolated = false,
     physical_source = NULL WHERE physical_source = 'demo'`,
  `UPDATE border_hour SET scheduled_ab_mw = NULL, scheduled_ba_mw = NULL, scheduled_interpolated = false,
     scheduled_source = NULL WHERE scheduled_source = 'demo'`,
  `UPDATE border_hour SET ntc_ab_mw = NULL, ntc_ba_mw = NULL, ntc_source = NULL WHERE ntc_source = 'demo'`,
];

/**
 * Deletes every demo price, demo outage and demo border-hour in one transaction, refreshing the
 * price and flow rollups of the affected days. Mixed border-hours lose their demo groups only; run
 * `reclassify` over the data afterwards if any upstream border-hours remain.
 */
export async function deleteDemoData(db: Database): Promise<DeletedDemoData> {
  return inTransaction(db, async (sql) => {
    await allowLongStatements(sql);
    const [span] = await sql.query<{ n: number; first: Date | null; last: Date | null }>(
      `WITH gone AS (DELETE FROM price_point WHERE source = 'demo' RETURNING ts)
       SELECT count(*)::int AS n, min(ts) AS first, max(ts) AS last FROM gone`,
    );
    if (span?.first && span.last) {
      await refreshPriceDaily(sql, { from: span.first, to: new Date(span.last.getTime() + HOUR_MS) });
    }
    const [hours] = await sql.query<{ n: number; first: Date | null; last: Date | null }>(
      `WITH gone AS (DELETE FROM border_hour WHERE ${ONLY_DEMO} RETURNING ts)
       SELECT count(*)::int AS n, min(ts) AS first, max(ts) AS last FROM gone`,
    );
    for (const statement of CLEAR_GROUPS) await sql.query(statement);
    if (hours?.first && hours.last) {
      await refreshFlowRollups(sql, { from: hours.first, to: new Date(hours.last.getTime() + HOUR_MS) });
    }
    const [outages] = await sql.query<{ n: number }>(
      `WITH gone AS (DELETE FROM border_outage WHERE source = 'demo' RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    );
    return { prices: span?.n ?? 0, borderHours: hours?.n ?? 0, outages: outages?.n ?? 0 };
  });
}
