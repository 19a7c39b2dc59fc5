/**
 * A backfill's plan, progress and resumption, at reduced scale (3 zones, 2 borders, 3 months across a
 * year boundary) against the fake upstream serving documents of the requested period: the plan
 * stated up front counts exactly the requests the upstream receives; each window prints a progress
 * line against it; runs interrupted mid-way and resumed refetch no finished window and end with the
 * same tables as an uninterrupted run. Plan counts are checked by hand, with and without a ledger.
 */
import { Writable } from 'node:stream';
import { describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { statePlan } from '../../src/ingest/job.js';
import { deliveryDays, planLines, requestPlan, windowRequests } from '../../src/ingest/plan.js';
import { createProgress } from '../../src/ingest/progress.js';
import { ITEMS } from '../../src/domain/items.js';
import { type PlannedWindow, planWindows, targetsFor } from '../../src/ingest/windows.js';
import { recordWindow } from '../../src/repositories/ingest/ledger.js';
import { startRun } from '../../src/repositories/ingest/runs.js';
import { createTestDatabase, TEST_BACKENDS } from '../support/db.js';
import { upstreamTest as it } from '../support/fixtures.js';
import {
  BACKFILL,
  BACKFILL_PLAN,
  DONE_WINDOWS_SQL,
  FINGERPRINT_SQL,
  serveBackfill,
  windowOfLedger,
  windowOfRequest,
} from './backfill-upstream.js';
import type { FakeUpstream } from './fake-upstream.js';
import { fakeClient, ingest, rows } from './helpers.js';

const d = (s: string) => new Date(s);
const window = (item: PlannedWindow['item'], areaKey: string, start: string, end: string): PlannedWindow => ({
  item,
  areaKey,
  start: d(start),
  end: d(end),
});

function sink() {
  let text = '';
  const stream = Object.assign(new Writable({ write: (c, _e, cb) => ((text += String(c)), cb()) }), { isTTY: false });
  return { stream, lines: () => text.split('\n').filter(Boolean) };
}

const SELECTION = { what: [...ITEMS], zones: [...BACKFILL.zones], borders: [...BACKFILL.borders] };
const RANGE = { from: d(BACKFILL.from), to: d(BACKFILL.to) };

/** The reduced backfill; a long timeout, as a retry of a reply slowed by a loaded machine would be a request beyond the plan. */
const backfill = (db: Database, fake: FakeUpstream, rest: Parameters<typeof ingest>[4] = {}) =>
  ingest(db, fakeClient(fake, { timeoutMs: 60_000 }).client, BACKFILL.from, BACKFILL.to, { ...SELECTION, ...rest });

const fingerprint = (db: Database) => rows<{ t: string; v: string }>(db, FINGERPRINT_SQL);
const doneWindows = async (db: Database) =>
  new Set(
    (await rows<{ item: string; area_key: string; window_start: Date; window_end: Date }>(db, DONE_WINDOWS_SQL)).map(
      windowOfLedger,
    ),
  );

describe('request counts of a plan', () => {
  it('counts a page per 100 delivery days for prices and both directions for border items', () => {
    // 2015-01-01T00Z..2016-01-01T00Z touches delivery days 2015-01-01 to 2016-01-01 (CET): 366.
    expect(deliveryDays(window('prices', 'ES', '2015-01-01', '2016-01-01'))).toBe(366);
    expect(windowRequests(window('prices', 'ES', '2015-01-01', '2016-01-01'))).toBe(4); // offsets 0, 100, 200, 300
    expect(deliveryDays(window('prices', 'ES', '2024-01-01', '2024-04-09'))).toBe(100);
    expect(windowRequests(window('prices', 'ES', '2024-01-01', '2024-04-09'))).toBe(2); // a full page asks for the next
    expect(windowRequests(window('prices', 'ES', '2024-01-01', '2024-04-08'))).toBe(1);
    expect(windowRequests(window('flows', 'ES->FR', '2015-01-01', '2016-01-01'))).toBe(2);
    expect(windowRequests(window('outages', 'ES->FR', '2015-01-01', '2016-01-01'))).toBe(2);
  });

  it('plans every zone and border of the catalogue from 2015 to 2026-11-27, each over its period: 10,947 requests, 36m29s at 300/min', () => {
    const targets = targetsFor({ what: [...ITEMS] });
    const windows = planWindows(targets, { from: d('2015-01-01'), to: d('2026-11-27') }, []);
    const plan = requestPlan(windows, 300);
    // 51 zones (46 current, 5 historical) in UTC-year windows of up to 4 pages of 100 days, each zone
    // over its period: 552 windows of the 46 current zones less 3 each for AT, DE_LU and IE_SEM (from
    // 2018-09-30T22:00Z / 23:00Z: 2018..2026) and 5 for IT_CALA (from 2020-12-31T23:00Z: 2020..2026),
    // plus DE_AT_LU 4 (2015..2018) and the four Italian poles 6 each (2015..2020): 566 windows.
    // 106 borders (89 current, 17 historical), 2 directions per border item.
    expect(plan.kinds.map((k) => [k.item, k.document, k.areas, k.windows, k.requests])).toEqual([
      ['prices', 'A44', 51, 566, 2251],
      ['flows', 'A11', 106, 1087, 2174],
      ['schedules', 'A09', 106, 1087, 2174],
      ['ntc', 'A61', 106, 1087, 2174],
      ['outages', 'A78', 106, 1087, 2174],
    ]);
    expect(plan).toMatchObject({ windows: 4914, requests: 10947, requestsPerMinute: 300, paceMs: 2_189_400 });
    expect(planLines(plan)[0]).toBe(
      'plan: 4914 window(s), 10947 request(s); at 300 requests/min at least 36m29s (ENTSOE_REQUESTS_PER_MINUTE)',
    );
  });

  it('says there is nothing to fetch for an empty list', () => {
    expect(planLines(requestPlan([], 300), { loaded: 4, upToDate: 2 })).toEqual([
      'plan: nothing to fetch',
      '  ledger: 4 window(s) of the range already loaded, skipped; 2 target(s) up to date',
    ]);
  });
});

/** Whole backfills of 22 windows: about 15 s each on a loaded 2-core machine. */
const SLOW = 180_000;

describe.each(TEST_BACKENDS)('a reduced backfill on %s', (backend) => {
  it.override({ backend });

  it('plans from the ledger: windows earlier runs finished are neither planned nor counted', async ({ db }) => {
    const lease = await startRun(db, {}, d('2025-03-01'));
    try {
      const finished = { status: 'done' as const, rows: 1, error: null, at: d('2025-03-01') };
      await recordWindow(db, lease.id, window('prices', 'ES', '2024-11-01', '2025-01-01'), finished);
      await recordWindow(db, lease.id, window('prices', 'ES', '2025-01-01', '2025-02-01'), finished);
      await recordWindow(db, lease.id, window('flows', 'ES->FR', '2024-11-01', '2025-01-01'), finished);
      // A failed window is fetched again; a window of another zone is not this plan's business.
      await recordWindow(db, lease.id, window('ntc', 'ES->PT', '2024-11-01', '2025-01-01'), {
        ...finished,
        status: 'failed',
        error: 'boom',
      });
      await recordWindow(db, lease.id, window('prices', 'DE_LU', '2024-11-01', '2025-01-01'), finished);
    } finally {
      await lease.release();
    }
    const stated = await statePlan(db, SELECTION, RANGE, 300);
    // 22 windows less ES's 2 price windows and ES->FR's first flows window: 19; requests 38 - 2 - 2.
    expect(stated.requests).toMatchObject({ windows: 19, requests: 34 });
    expect(stated.lines).toEqual([
      'plan: 19 window(s), 34 request(s); at 300 requests/min at least 7s (ENTSOE_REQUESTS_PER_MINUTE)',
      '  prices    A44: 2 zone(s), 4 window(s), 4 request(s) (a page per 100 days)',
      '  flows     A11: 2 border(s), 3 window(s), 6 request(s) (2 directions)',
      '  schedules A09: 2 border(s), 4 window(s), 8 request(s) (2 directions)',
      '  ntc       A61: 2 border(s), 4 window(s), 8 request(s) (2 directions)',
      '  outages   A78: 2 border(s), 4 window(s), 8 request(s) or more (2 directions, and a page more per 200 outages)',
      '  ledger: 3 window(s) of the range already loaded, skipped; 1 target(s) up to date',
    ]);
    const none = await statePlan(null, SELECTION, RANGE, 300);
    expect(none.requests).toMatchObject({ windows: BACKFILL_PLAN.windows, requests: BACKFILL_PLAN.requests });
    expect(none.lines.at(-1)).toBe('  ledger: the database has no schema yet, nothing loaded');
  });

  it(
    'states its plan up front, makes exactly the planned requests and prints a progress line per window',
    async ({ db, upstream: fake }) => {
      serveBackfill(fake);
      const err = sink();
      const s = await backfill(db, fake, { progress: createProgress({ stream: err.stream }) });
      expect(s).toMatchObject({
        planned: BACKFILL_PLAN.windows,
        completed: BACKFILL_PLAN.windows,
        plannedRequests: BACKFILL_PLAN.requests,
        requests: BACKFILL_PLAN.requests,
        failed: [],
        unpublished: [],
        fatal: null,
      });
      expect(fake.requests).toHaveLength(BACKFILL_PLAN.requests);
      const lines = err.lines();
      expect(lines[0]).toBe(
        'plan: 22 window(s), 38 request(s); at 300 requests/min at least 8s (ENTSOE_REQUESTS_PER_MINUTE)',
      );
      expect(lines[1]).toBe('  prices    A44: 3 zone(s), 6 window(s), 6 request(s) (a page per 100 days)');
      const progress = lines
        .map((l) =>
          /^\[(\d+)\/22\] \S+ \S+ \S+: (\d+) row\(s\); requests (\d+)\/38, \d+\/min \(elapsed \d+s, ETA \d+s\)$/.exec(
            l,
          ),
        )
        .filter((m) => m !== null);
      expect(progress.map((m) => Number(m[1]))).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
      expect(progress.map((m) => Number(m[3]))).toEqual([
        1,
        2,
        3,
        4,
        5,
        6,
        ...Array.from({ length: 16 }, (_, i) => 8 + 2 * i),
      ]);
      // 2024-11-01..2025-01-01 is 61 days of 24 hours: prices, and flows of both directions.
      expect(progress[0]![0]).toContain('prices ES 2024-11-01..2025-01-01: 1464 row(s)');
      expect(progress[6]![0]).toContain('flows ES->FR 2024-11-01..2025-01-01: 1464 row(s)');

      const again = await backfill(db, fake);
      expect(again).toMatchObject({ planned: 0, plannedRequests: 0, requests: 0 });
      expect(fake.requests).toHaveLength(BACKFILL_PLAN.requests);
    },
    SLOW,
  );

  it(
    'resumes runs interrupted mid-window: no finished window fetched again, the same tables as one run',
    async ({ db, upstream: fake }) => {
      serveBackfill(fake);
      const reference = await createTestDatabase(backend, { seed: 'empty' });
      try {
        expect(await backfill(reference.db, fake)).toMatchObject({ completed: 22, fatal: null });
        const expected = await fingerprint(reference.db);
        expect(expected.find((r) => r.t === 'price_point')?.v).toMatch(/^6624 /); // 3 zones x 92 days x 24 h
        const before = fake.requests.length;

        // Interrupted while its 10th request is in flight (flows ES->FR's second window, B->A), then
        // a second run while its 13th is.
        let wasted = 0;
        for (const after of [9, 12]) {
          const held = fake.requests.length + after;
          let release = () => {};
          fake.failAt(held, { kind: 'hold', until: new Promise<void>((r) => (release = r)) });
          const controller = new AbortController();
          const doneBefore = await doneWindows(db);
          const from = fake.requests.length;
          const run = backfill(db, fake, { signal: controller.signal });
          while (fake.requests.length <= held) await new Promise((r) => setTimeout(r, 5));
          controller.abort(new Error('interrupted'));
          const s = await run;
          release();
          expect(s).toMatchObject({ interrupted: true, fatal: null, failed: [] });
          const sent = fake.requests.slice(from).map(windowOfRequest);
          expect(sent.filter((w) => doneBefore.has(w))).toEqual([]);
          const doneAfter = await doneWindows(db);
          wasted += sent.filter((w) => !doneAfter.has(w)).length;
        }
        expect(wasted).toBeGreaterThan(0);
        expect(wasted).toBeLessThanOrEqual(4); // at most the two requests of each abandoned window

        const doneBefore = await doneWindows(db);
        const from = fake.requests.length;
        const last = await backfill(db, fake);
        const sent = fake.requests.slice(from).map(windowOfRequest);
        expect(last).toMatchObject({ interrupted: false, fatal: null, requests: last.plannedRequests });
        expect(sent).toHaveLength(last.plannedRequests);
        expect(sent.filter((w) => doneBefore.has(w))).toEqual([]);
        expect(fake.requests.length - before).toBe(BACKFILL_PLAN.requests + wasted);
        expect(await fingerprint(db)).toEqual(expected);
      } finally {
        await reference.close();
      }
    },
    SLOW,
  );
});
