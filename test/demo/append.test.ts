/**
 * A demo that stays current: a demo database loaded with the clock DEMO_TEST_NOW (its set ends at
 * the end of the next UTC day, 2025-11-07T00:00Z), started again two simulated days later, has
 * the two new days appended (to 2025-11-09T00:00Z) for every zone and border, no stored row
 * rewritten, and a third start on the same day appends nothing (no duplicates).
 */
import { describe, expect } from 'vitest';
import { prepareDatabase } from '../../src/bootstrap.js';
import { testConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { DEMO_TEST_NOW, TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { dbTest as it } from '../support/fixtures.js';

const LATER = new Date(DEMO_TEST_NOW.getTime() + 2 * 86_400_000);
const OLD_END = '2025-11-07T00:00:00.000Z';
const NEW_END = '2025-11-09T00:00:00.000Z';
const config = testConfig({ SEED_DEMO: true });
const start = (db: Parameters<typeof prepareDatabase>[0], now: Date) =>
  prepareDatabase(db, config, createLogger(config), now);

describe.each(TEST_BACKENDS)('the demo appended on a later start (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  let db!: Database;
  it.beforeEach(({ fileDb }) => {
    db = fileDb;
  });
  const q = <T>(sql: string) => db.rawQuery<T>(sql);
  const fingerprint = () =>
    q<{ n: number; s: number; f: string }>(
      `SELECT count(*)::int AS n, round(sum(coalesce(scheduled_ab_mw, 0) - coalesce(scheduled_ba_mw, 0) + coalesce(physical_ab_mw, 0))::numeric, 1)::float8 AS s,
              md5(string_agg(border_id || ':' || extract(epoch FROM ts) || ':' || coalesce(flow_type::text, '-'), ',' ORDER BY border_id, ts)) AS f
       FROM border_hour WHERE ts < '${OLD_END}'`,
    );
  const window = async () =>
    (await q<{ to: Date }>(`SELECT range_to AS "to" FROM demo_load`)).map((r) => new Date(r.to).toISOString());

  it('a start two simulated days later appends the two new days for every zone and border, rewriting nothing; the next start none', async () => {
    expect(await window()).toEqual([OLD_END]);
    const before = await fingerprint();
    const bordersAtEnd = await q<{ n: number }>(
      `SELECT count(DISTINCT border_id)::int AS n FROM border_hour WHERE ts = '2025-11-06T23:00Z'`,
    );
    const zonesAtEnd = await q<{ n: number }>(
      `SELECT count(DISTINCT zone_id)::int AS n FROM price_point WHERE ts = '2025-11-06T23:45Z'`,
    );
    await start(db, LATER);
    expect(await window()).toEqual([NEW_END]);
    expect(await fingerprint()).toEqual(before);
    const perBorder = await q<{ n: number; hours: number; first: Date; last: Date }>(
      `SELECT count(DISTINCT border_id)::int AS n, min(c)::int AS hours, min(first) AS first, max(last) AS last
       FROM (SELECT border_id, count(*) AS c, min(ts) AS first, max(ts) AS last FROM border_hour
             WHERE ts >= '${OLD_END}' GROUP BY border_id) x`,
    );
    expect(perBorder[0]?.n).toBe(bordersAtEnd[0]?.n);
    expect(perBorder[0]?.hours).toBe(48);
    expect([new Date(perBorder[0]!.first).toISOString(), new Date(perBorder[0]!.last).toISOString()]).toEqual([
      OLD_END,
      '2025-11-08T23:00:00.000Z',
    ]);
    // 15-minute prices: 2 days x 96 periods for every zone that had a price at the old end.
    const prices = await q<{ zones: number; min: number; max: number }>(
      `SELECT count(*)::int AS zones, min(c)::int AS min, max(c)::int AS max
       FROM (SELECT zone_id, count(*) AS c FROM price_point WHERE ts >= '${OLD_END}' GROUP BY zone_id) x`,
    );
    expect(prices[0]).toEqual({ zones: zonesAtEnd[0]?.n, min: 192, max: 192 });
    const daily = await q<{ n: number }>(
      `SELECT count(DISTINCT zone_id)::int AS n FROM price_daily WHERE day >= '2025-11-07' AND day < '2025-11-09'`,
    );
    expect(daily[0]?.n).toBe(zonesAtEnd[0]?.n);

    const counts = await q<{ h: number; p: number; o: number }>(
      `SELECT (SELECT count(*) FROM border_hour)::int AS h, (SELECT count(*) FROM price_point)::int AS p, (SELECT count(*) FROM border_outage)::int AS o`,
    );
    await start(db, new Date(LATER.getTime() + 3_600_000));
    expect(await window()).toEqual([NEW_END]);
    expect(
      await q<{ h: number; p: number; o: number }>(
        `SELECT (SELECT count(*) FROM border_hour)::int AS h, (SELECT count(*) FROM price_point)::int AS p, (SELECT count(*) FROM border_outage)::int AS o`,
      ),
    ).toEqual(counts);
  });
});
