/**
 * Session settings and table maintenance around bulk loads: the statement time limit lifted, more
 * memory for the sorts of a large load, planner statistics and the visibility map refreshed after it.
 */
import type { Database } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { run, type Sql, withConnection } from '../../db/executor.js';

/** A market table loads write: facts, their rollups, the coverage rollup, and the catalogue they reference. */
export type MarketTable =
  | 'zone'
  | 'border'
  | 'price_point'
  | 'price_daily'
  | 'price_hourly'
  | 'border_hour'
  | 'border_outage'
  | 'border_daily'
  | 'border_weekly'
  | 'border_period_count'
  | 'zone_daily'
  | 'coverage';

/** The market tables a bulk load fills (with their rollups and the catalogue they reference). */
export const MARKET_TABLES: readonly MarketTable[] = [
  'zone',
  'border',
  'price_point',
  'price_daily',
  'price_hourly',
  'border_hour',
  'border_outage',
  'border_daily',
  'border_weekly',
  'border_period_count',
  'zone_daily',
];

/** Lifts the per-request statement timeout for the rest of the transaction (bulk work is long). */
export async function allowLongStatements(sql: Sql): Promise<void> {
  await run(sql, 'allowLongStatements', Prisma.sql`SET LOCAL statement_timeout = 0`);
}

/**
 * Gives the rest of the transaction `memory` (a PostgreSQL size, e.g. `256MB`) for sorts and hash
 * tables (`work_mem`) and index builds (`maintenance_work_mem`) before they spill to disk.
 */
export async function allowLoadMemory(sql: Sql, memory: string): Promise<void> {
  await run(
    sql,
    'allowLoadMemory',
    Prisma.sql`SELECT set_config('work_mem', ${memory}, true), set_config('maintenance_work_mem', ${memory}, true)`,
  );
}

/**
 * Refreshes planner statistics of the market tables after a large load (PGlite runs no
 * autovacuum; without statistics the planner guesses row counts wildly).
 */
export async function analyzeMarketTables(db: Database): Promise<void> {
  await run(
    db,
    'analyzeMarketTables',
    Prisma.sql`ANALYZE price_point, price_daily, price_hourly, border_hour, border_outage`,
  );
}

/**
 * VACUUM ANALYZE of the market tables after the bulk load, on PostgreSQL (a pool): statistics for
 * the planner, and a visibility map so index-only scans need no heap visits (autovacuum would get
 * there later). Runs outside a transaction, without the statement time limit.
 */
export async function vacuumAnalyzeMarketTables(db: Database): Promise<void> {
  await vacuumAnalyze(db, MARKET_TABLES);
}

/**
 * `VACUUM (ANALYZE)` of the given tables in one statement, outside any transaction: on PostgreSQL
 * on a connection of its own without the statement time limit, on PGlite (single session, no
 * autovacuum, no time limit) on the engine.
 */
export async function vacuumAnalyze(db: Database, tables: readonly MarketTable[]): Promise<void> {
  if (tables.length === 0) return;
  const statement = Prisma.sql`VACUUM (ANALYZE) ${Prisma.raw([...new Set(tables)].join(', '))}`;
  if (db.pglite) {
    await run(db, 'vacuumAnalyzeTables', statement);
    return;
  }
  await withConnection(db, async (sql) => {
    await run(sql, 'liftStatementTimeout', Prisma.sql`SET statement_timeout = 0`);
    try {
      await run(sql, 'vacuumAnalyzeTables', statement);
    } finally {
      await run(sql, 'resetStatementTimeout', Prisma.sql`RESET statement_timeout`).catch(() => undefined);
    }
  });
}
