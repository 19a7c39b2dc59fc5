/**
 * `npm run ingest` as a real process on PostgreSQL, backfilling 3 zones and 2 borders over 3 months
 * from the fake upstream at the fastest allowed pace (399 requests/min): `--plan` states the
 * requests without fetching; a run states the same plan up front, prints a progress line per window
 * and makes exactly the planned requests; a run stopped by SIGTERM and one killed with SIGKILL while
 * a request is in flight are resumed by the next run, which fetches no window finished before and
 * leaves the same tables as the uninterrupted run (counts, exact sums and digests by SQL).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { type Database, openPostgres } from '../../src/db/client.js';
import {
  BACKFILL_ARGS,
  BACKFILL_PLAN,
  DONE_WINDOWS_SQL,
  FINGERPRINT_SQL,
  serveBackfill,
  windowOfLedger,
  windowOfRequest,
} from '../ingest-job/backfill-upstream.js';
import { type FakeUpstream, startFakeUpstream, TOKEN } from '../ingest-job/fake-upstream.js';
import { TEST_DATABASE_URL } from '../support/env.js';
import { type Child, killGroup, start } from './children.js';

const PACE = 399;
/** The plan's first line for `requests` requests at 399/min. */
const planHead = (windows: number, requests: number) =>
  new RegExp(
    `^plan: ${windows} window\\(s\\), ${requests} request\\(s\\); at ${PACE} requests/min at least \\d+s \\(ENTSOE_REQUESTS_PER_MINUTE\\)$`,
    'm',
  );
const PROGRESS =
  /^\[(\d+)\/(\d+)\] \S+ \S+ \S+: \d+ row\(s\); requests (\d+)\/(\d+), \d+\/min \(elapsed \d+s, ETA \d+s\)$/gm;

describe.skipIf(!TEST_DATABASE_URL)('a backfill interrupted and resumed (npm run ingest on PostgreSQL)', () => {
  const suffix = randomBytes(5).toString('hex');
  const REFERENCE = `backfill_ref_${suffix}`;
  const RESUMED = `backfill_run_${suffix}`;
  let fake: FakeUpstream;
  const open: Database[] = [];
  const children: Child[] = [];

  const database = async (schema: string) => {
    const db = await openPostgres(testConfig({ DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: 1 }), TEST_DATABASE_URL!);
    open.push(db);
    return db;
  };
  const ingest = (schema: string, extra: readonly string[] = []) => {
    const child = start(process.execPath, ['--import', 'tsx', 'src/cli/ingest.ts', ...BACKFILL_ARGS, ...extra], {
      DATABASE_URL: TEST_DATABASE_URL!,
      DATABASE_SCHEMA: schema,
      ENTSOE_API_URL: fake.url,
      ENTSOE_SECURITY_TOKEN: TOKEN,
      ENTSOE_REQUESTS_PER_MINUTE: String(PACE),
    });
    children.push(child);
    return child;
  };
  /** The done windows of the ledger (none before the first run migrated the schema). */
  const doneWindows = async (db: Database) => {
    const [ledger] = await db.rawQuery<{ t: string | null }>(`SELECT to_regclass('ingestion_window')::text AS t`);
    if (!ledger?.t) return new Set<string>();
    const done = await db.rawQuery<{ item: string; area_key: string; window_start: Date; window_end: Date }>(
      DONE_WINDOWS_SQL,
    );
    return new Set(done.map(windowOfLedger));
  };
  /** Runs a backfill that is stopped by `signal` while its request number `nth` (1-based) is in flight. */
  const interrupted = async (db: Database, nth: number, signal: NodeJS.Signals) => {
    const held = fake.requests.length + nth - 1;
    let release = () => {};
    fake.failAt(held, { kind: 'hold', until: new Promise<void>((r) => (release = r)) });
    const before = await doneWindows(db);
    const from = fake.requests.length;
    const child = ingest(RESUMED);
    while (fake.requests.length <= held) {
      if (child.process.exitCode !== null) throw new Error(`ingest exited early: ${child.stderr()}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    child.process.kill(signal);
    const code = await child.exited;
    release();
    const sent = fake.requests.slice(from).map(windowOfRequest);
    const after = await doneWindows(db);
    return {
      code,
      child,
      refetched: sent.filter((w) => before.has(w)),
      wasted: sent.filter((w) => !after.has(w)).length,
      sent: sent.length,
    };
  };

  beforeAll(async () => {
    fake = await startFakeUpstream();
    serveBackfill(fake);
  });
  afterAll(async () => {
    for (const c of children) if (c.process.pid) killGroup(c.process.pid);
    const admin = open[0];
    for (const schema of [REFERENCE, RESUMED])
      await admin?.execScript(`SET statement_timeout = 0; DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    for (const db of open) await db.close();
    await fake?.close();
  });

  it('states the plan, shows progress, and after SIGTERM and SIGKILL resumes to the same tables without refetching', async () => {
    // --plan: fetches nothing, on a schema that does not exist yet.
    const plan = ingest(RESUMED, ['--plan']);
    expect(await plan.exited, plan.stderr()).toBe(0);
    expect(plan.stdout()).toMatch(planHead(BACKFILL_PLAN.windows, BACKFILL_PLAN.requests));
    expect(plan.stdout()).toContain('  ledger: the database has no schema yet, nothing loaded');
    expect(fake.requests).toHaveLength(0);

    // The uninterrupted run: the plan up front, a progress line per window, exactly the planned requests.
    const whole = ingest(REFERENCE);
    expect(await whole.exited, whole.stderr()).toBe(0);
    expect(whole.stderr().split('\n')[0]).toMatch(planHead(BACKFILL_PLAN.windows, BACKFILL_PLAN.requests));
    const lines = [...whole.stderr().matchAll(PROGRESS)];
    expect(lines.map((m) => Number(m[1]))).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    expect(lines.at(-1)?.slice(3, 5)).toEqual(['38', '38']);
    expect(whole.stdout()).toMatch(/^ingest: 22\/22 window\(s\), \d+ row\(s\), 38 request\(s\) in \d+\.\d s\n$/);
    expect(fake.requests).toHaveLength(BACKFILL_PLAN.requests);
    const reference = await database(REFERENCE);
    const expected = await reference.rawQuery(FINGERPRINT_SQL);

    // SIGTERM while the 10th request is in flight: the window is abandoned, the run closed, exit 130.
    const db = await database(RESUMED);
    const before = fake.requests.length;
    const term = await interrupted(db, 10, 'SIGTERM');
    expect(term.code, term.child.stderr()).toBe(130);
    expect(term.child.stderr()).toContain('Stopping: the current window is abandoned');
    expect(term.child.stdout()).toContain('interrupted (re-run to resume)');
    expect(term.sent).toBe(10);

    // --plan counts what is left.
    const left = ingest(RESUMED, ['--plan']);
    expect(await left.exited).toBe(0);
    const [, windowsLeft, requestsLeft] = /^plan: (\d+) window\(s\), (\d+) request\(s\)/m.exec(left.stdout())!;
    expect(left.stdout()).toMatch(/ledger: \d+ window\(s\) of the range already loaded, skipped/);
    expect(fake.requests.length - before).toBe(10);
    expect(Number(requestsLeft)).toBe(BACKFILL_PLAN.requests - (10 - term.wasted));

    // SIGKILL while the run's 13th request is in flight: its run row stays `running`.
    const kill = await interrupted(db, 13, 'SIGKILL');
    expect(kill.code).toBe('SIGKILL');
    expect(kill.refetched).toEqual([]);
    expect(kill.sent).toBe(13);

    // The resuming run closes the killed run, plans exactly what is left and fetches only that.
    const done = await doneWindows(db);
    const from = fake.requests.length;
    const last = ingest(RESUMED);
    expect(await last.exited, last.stderr()).toBe(0);
    const sent = fake.requests.slice(from).map(windowOfRequest);
    const [, w, r] = /^plan: (\d+) window\(s\), (\d+) request\(s\)/m.exec(last.stderr())!;
    expect(Number(r)).toBe(sent.length);
    expect(Number(w)).toBe(BACKFILL_PLAN.windows - done.size);
    expect(Number(windowsLeft)).toBeGreaterThan(Number(w));
    expect(sent.filter((x) => done.has(x))).toEqual([]);
    expect(last.stderr()).toMatch(/run\(s\) \d+ left running by a process that ended: closed as abandoned/);
    expect(last.stdout()).toMatch(new RegExp(`^ingest: ${w}/${w} window\\(s\\), \\d+ row\\(s\\), ${r} request\\(s\\)`));
    expect(fake.requests.length - before).toBe(BACKFILL_PLAN.requests + term.wasted + kill.wasted);
    expect(term.wasted + kill.wasted).toBeGreaterThan(0);

    expect(await db.rawQuery(FINGERPRINT_SQL)).toEqual(expected);
    const runs = await db.rawQuery<{ status: string; error: string | null }>(
      `SELECT status::text AS status, error FROM ingestion_run ORDER BY id`,
    );
    expect(runs.map((x) => x.status)).toEqual(['failed', 'failed', 'done']);
    expect(runs[0]!.error).toBe('interrupted');
    expect(runs[1]!.error).toMatch(/^abandoned: its process ended/);
  }, 300_000);
});
