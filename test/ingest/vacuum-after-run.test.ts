import { describe, expect } from 'vitest';
import { VACUUM_MIN_ROWS, tablesWritten, vacuumAfterRun } from '../../src/ingest/vacuum.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { dbTest as it } from '../support/fixtures.js';

describe('tables an ingestion run writes', () => {
  it('are the flow tables and coverage for border items, plus the price tables for prices, each once', () => {
    expect(tablesWritten(['flows', 'schedules'])).toEqual([
      'border_hour',
      'border_daily',
      'border_weekly',
      'border_period_count',
      'zone_daily',
      'coverage',
    ]);
    expect(tablesWritten(['prices', 'outages']).sort()).toEqual(
      [
        'price_point',
        'price_daily',
        'price_hourly',
        'border_outage',
        'border_hour',
        'border_daily',
        'border_weekly',
        'border_period_count',
        'zone_daily',
        'coverage',
      ].sort(),
    );
  });
});

describe.each(TEST_BACKENDS)('VACUUM (ANALYZE) after an ingestion run (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });

  /** Vacuums and analyzes of border_hour and price_point so far (PostgreSQL's statistics views). */
  async function counts(): Promise<Record<string, number>> {
    if (kind !== 'postgres') return {};
    await db.rawQuery('SELECT pg_stat_clear_snapshot()');
    const rows = await db.rawQuery<{ relname: string; vacuums: number; analyzes: number }>(
      `SELECT relname, vacuum_count::int AS vacuums, analyze_count::int AS analyzes FROM pg_stat_user_tables
        WHERE schemaname = current_schema() AND relname IN ('border_hour', 'price_point')`,
    );
    return Object.fromEntries(
      rows.flatMap((r) => [
        [`${r.relname} vacuums`, r.vacuums],
        [`${r.relname} analyzes`, r.analyzes],
      ]),
    );
  }

  it('is skipped below the row threshold and when interrupted', async () => {
    const lines: string[] = [];
    const before = await counts();
    expect(
      await vacuumAfterRun(db, { rows: VACUUM_MIN_ROWS - 1, interrupted: false }, ['flows'], (l) => lines.push(l)),
    ).toBeNull();
    expect(
      await vacuumAfterRun(db, { rows: 10 * VACUUM_MIN_ROWS, interrupted: true }, ['flows'], (l) => lines.push(l)),
    ).toBeNull();
    expect(lines).toEqual([]);
    expect(await counts()).toEqual(before);
  });

  it('vacuums and analyzes the tables the run wrote, logged with its duration, from the threshold on', async () => {
    const lines: string[] = [];
    const before = await counts();
    const seconds = await vacuumAfterRun(db, { rows: VACUUM_MIN_ROWS, interrupted: false }, ['flows'], (l) =>
      lines.push(l),
    );
    expect(seconds).toBeGreaterThanOrEqual(0);
    expect(lines).toEqual([
      `ingest: VACUUM (ANALYZE) border_hour, border_daily, border_weekly, border_period_count, zone_daily, coverage in ${seconds!.toFixed(1)} s (100000 rows loaded, threshold 100000)`,
    ]);
    if (kind === 'postgres') {
      const after = await counts();
      expect(after['border_hour vacuums']).toBe(before['border_hour vacuums']! + 1);
      expect(after['border_hour analyzes']).toBe(before['border_hour analyzes']! + 1);
      expect(after['price_point vacuums']).toBe(before['price_point vacuums']);
    }
  });
});
