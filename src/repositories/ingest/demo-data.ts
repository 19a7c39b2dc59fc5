/**
 * The generated demo data set (source `demo`) as a whole: its completion record (`demo_load`,
 * written in the loading transaction), and its removal, for `db:seed --force` and to replace an
 * interrupted load. Upstream rows (source `entsoe`) stay; border-hours mixing both keep their
 * upstream column groups.
 */
import { HOUR_MS } from '../../domain/calendar.js';
import { rebuildCoverage } from '../catalogue/coverage-rollup.js';
import { refreshFlowRollups } from '../flows/rollup.js';
import type { LoadWindow } from './load.js';
import { refreshPriceDaily } from '../prices/rollup.js';
import { allowLongStatements, MARKET_TABLES } from './maintenance.js';
import { Prisma } from '../../generated/prisma/client.js';
import { type Executor, inTransaction, run, type Sql } from '../../db/executor.js';

/** Whether a complete demo data set is recorded, and whether upstream prices are stored. */
export interface DemoLoadState {
  readonly complete: boolean;
  readonly upstreamPrices: boolean;
}

/** Reads {@link DemoLoadState} (upstream prices are only looked for when no load is recorded). */
export async function demoLoadState(db: Executor): Promise<DemoLoadState> {
  const [row] = await run<{ complete: boolean; upstream: boolean }>(
    db,
    'demoLoadState',
    Prisma.sql`SELECT EXISTS (SELECT 1 FROM demo_load) AS complete,
            NOT EXISTS (SELECT 1 FROM demo_load) AND EXISTS (SELECT 1 FROM price_point WHERE source <> 'demo') AS upstream`,
  );
  return { complete: row?.complete === true, upstreamPrices: row?.upstream === true };
}

/**
 * Key of the transaction-scoped advisory lock serialising demo loads (concurrent starts on
 * PostgreSQL): a hash of the schema, so loads into different schemas of one database do not wait.
 */
const DEMO_LOAD_LOCK = Prisma.sql`hashtext('demo_load:' || current_schema())::bigint`;

/** Waits until no other transaction loads the demo data set into this schema; held until this transaction ends. */
export async function lockDemoLoad(sql: Sql): Promise<void> {
  await run(sql, 'lockDemoLoad', Prisma.sql`SELECT pg_advisory_xact_lock(${DEMO_LOAD_LOCK})`);
}

/** Records a complete demo data set over `window` [from, to) UTC; call last in its loading transaction. */
export async function recordDemoLoad(sql: Sql, window: LoadWindow): Promise<void> {
  await run(
    sql,
    'recordDemoLoad',
    Prisma.sql`
    INSERT INTO demo_load (range_from, range_to) VALUES (${window.from.toISOString()}::timestamptz, ${window.to.toISOString()}::timestamptz)`,
  );
}

/** Rows removed by {@link deleteDemoData}. */
export interface DeletedDemoData {
  readonly prices: number;
  readonly borderHours: number;
  readonly outages: number;
}

const ONLY_DEMO = Prisma.sql`coalesce(physical_source, 'demo') = 'demo' AND coalesce(scheduled_source, 'demo') = 'demo'
  AND coalesce(ntc_source, 'demo') = 'demo'`;

const CLEAR_GROUPS = [
  Prisma.sql`UPDATE border_hour SET physical_ab_mw = NULL, physical_ba_mw = NULL, physical_interpolated = false,
     physical_source = NULL WHERE physical_source = 'demo'`,
  Prisma.sql`UPDATE border_hour SET scheduled_ab_mw = NULL, scheduled_ba_mw = NULL, scheduled_interpolated = false,
     scheduled_source = NULL WHERE scheduled_source = 'demo'`,
  Prisma.sql`UPDATE border_hour SET ntc_ab_mw = NULL, ntc_ba_mw = NULL, ntc_source = NULL WHERE ntc_source = 'demo'`,
];

/**
 * Deletes every demo price, demo outage and demo border-hour and the completion record in one
 * transaction (the caller's when given an {@link Sql}), refreshing the price and flow rollups of
 * the affected days and rebuilding `coverage`. Mixed border-hours lose their demo groups only; run
 * `reclassify` over the data afterwards if any upstream border-hours remain.
 */
export async function deleteDemoData(db: Executor): Promise<DeletedDemoData> {
  return inTransaction(db, async (sql) => {
    await allowLongStatements(sql);
    await run(sql, 'deleteDemoLoad', Prisma.sql`DELETE FROM demo_load`);
    const [span] = await run<{ n: number; first: Date | null; last: Date | null }>(
      sql,
      'deleteDemoPrices',
      Prisma.sql`
      WITH gone AS (DELETE FROM price_point WHERE source = 'demo' RETURNING ts)
       SELECT count(*)::int AS n, min(ts) AS first, max(ts) AS last FROM gone`,
    );
    if (span?.first && span.last) {
      await refreshPriceDaily(sql, { from: span.first, to: new Date(span.last.getTime() + HOUR_MS) });
    }
    const [hours] = await run<{ n: number; first: Date | null; last: Date | null }>(
      sql,
      'deleteDemoBorderHours',
      Prisma.sql`
      WITH gone AS (DELETE FROM border_hour WHERE ${ONLY_DEMO} RETURNING ts)
       SELECT count(*)::int AS n, min(ts) AS first, max(ts) AS last FROM gone`,
    );
    for (const statement of CLEAR_GROUPS) await run(sql, 'clearDemoColumnGroup', statement);
    if (hours?.first && hours.last) {
      await refreshFlowRollups(sql, { from: hours.first, to: new Date(hours.last.getTime() + HOUR_MS) });
    }
    const [outages] = await run<{ n: number }>(
      sql,
      'deleteDemoOutages',
      Prisma.sql`
      WITH gone AS (DELETE FROM border_outage WHERE source = 'demo' RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    );
    await rebuildCoverage(sql);
    return { prices: span?.n ?? 0, borderHours: hours?.n ?? 0, outages: outages?.n ?? 0 };
  });
}

/** The market tables the demo load writes: all but the catalogue, which foreign keys reference. */
const DEMO_LOAD_TABLES = MARKET_TABLES.filter((t) => t !== 'zone' && t !== 'border');

/**
 * TRUNCATEs each market table that holds no row, inside the caller's loading transaction: the
 * table gets new files, so under the embedded engine's `wal_level = minimal` the load's pages skip
 * the WAL (written once, at commit). Nothing visible changes; a rollback restores the old files.
 * @returns the tables truncated.
 */
export async function truncateEmptyMarketTables(sql: Sql): Promise<string[]> {
  const probes = DEMO_LOAD_TABLES.map((t) => Prisma.raw(`SELECT '${t}' AS name WHERE NOT EXISTS (SELECT 1 FROM ${t})`));
  const empty = (await run<{ name: string }>(sql, 'findEmptyMarketTables', Prisma.join(probes, ' UNION ALL '))).map(
    (r) => r.name,
  );
  if (empty.length) await run(sql, 'truncateEmptyMarketTables', Prisma.raw(`TRUNCATE ${empty.join(', ')}`));
  return empty;
}

/** The window [from, to) UTC of the recorded demo data set, or null when none is recorded. */
export async function demoLoadWindow(db: Executor): Promise<LoadWindow | null> {
  const [row] = await run<{ from: Date; to: Date }>(
    db,
    'demoLoadWindow',
    Prisma.sql`SELECT min(range_from) AS "from", max(range_to) AS "to" FROM demo_load HAVING count(*) > 0`,
  );
  return row ? { from: new Date(row.from), to: new Date(row.to) } : null;
}

/** Moves the end of the recorded demo data set to `to` (UTC); call last in its appending transaction. */
export async function extendDemoLoad(sql: Sql, to: Date): Promise<void> {
  await run(sql, 'extendDemoLoad', Prisma.sql`UPDATE demo_load SET range_to = ${to.toISOString()}::timestamptz`);
}
