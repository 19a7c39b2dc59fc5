/**
 * `npm run ingest` end to end on an empty embedded database in a temporary directory: the issue's
 * example fills it with exactly what the (fake) upstream sent, in process and as a real child
 * process configured by its environment only; usage errors exit 2 with one line.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/ingest.js';
import { testConfig } from '../../src/config.js';
import { openPglite } from '../../src/db/client.js';
import { parseDayAheadPrices } from '../../src/ingest/entsoe/index.js';
import { CHILD_PATH } from '../support/env.js';
import { type FakeUpstream, fixture, startFakeUpstream, TOKEN } from './fake-upstream.js';
import { EIC, key, rows } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ES_REPLY = 'A44_ES_2025-09-29_to_10-02_PT60M_then_PT15M.xml';

function capture() {
  let text = '';
  const stream = Object.assign(new Writable({ write: (c, _e, cb) => ((text += String(c)), cb()) }), { isTTY: false });
  return { stream, text: () => text };
}

describe('npm run ingest', () => {
  let fake: FakeUpstream;
  let dir: string;
  const config = () => ({
    ...testConfig({ PGLITE_DIR: join(dir, 'db') }),
    ENTSOE_SECURITY_TOKEN: TOKEN,
    ENTSOE_API_URL: fake.url,
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ingest-cli-'));
    fake = await startFakeUpstream();
    fake.serve(key('A44', EIC.ES, EIC.ES), { body: fixture(ES_REPLY) });
  });
  afterAll(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fills an empty database with what the upstream sent and exits 0', async () => {
    const out = capture();
    const err = capture();
    const code = await main(['--from', '2025-09-29', '--to', '2025-10-03', '--zones', 'ES', '--what', 'prices'], {
      config: config(),
      stdout: out.stream,
      stderr: err.stream,
      signal: new AbortController().signal,
    });
    expect(code).toBe(0);
    expect(out.text()).toMatch(/^ingest: 1\/1 window\(s\), 240 row\(s\), 1 request\(s\) in \d+\.\d s\n$/);
    expect(err.text()).toContain('[1/1] prices ES 2025-09-29..2025-10-03: 240 row(s)');
    expect(out.text() + err.text()).not.toContain(TOKEN);
    const db = await openPglite(join(dir, 'db'));
    try {
      const stored = await rows<{ n: number; sources: string }>(
        db,
        `SELECT count(*)::int AS n, string_agg(DISTINCT source::text, ',') AS sources FROM price_point`,
      );
      expect(stored[0]).toEqual({ n: 240, sources: 'entsoe' });
    } finally {
      await db.close();
    }
  });

  it('run as `npx tsx src/cli/ingest.ts` with only its environment, fills PGLITE_DIR with exactly the served rows', async () => {
    const pgliteDir = join(dir, 'child-db');
    const env = {
      PATH: CHILD_PATH,
      ENTSOE_API_URL: fake.url,
      ENTSOE_SECURITY_TOKEN: TOKEN,
      PGLITE_DIR: pgliteDir,
      SEED_DEMO: 'false',
    };
    const before = fake.requests.length;
    const argv = [
      'src/cli/ingest.ts',
      '--from',
      '2025-09-29',
      '--to',
      '2025-10-03',
      '--zones',
      'ES',
      '--what',
      'prices',
    ];
    const { stdout, stderr } = await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'tsx'), argv, {
      cwd: ROOT,
      env,
      timeout: 60_000,
    });
    expect(stdout).toMatch(/^ingest: 1\/1 window\(s\), 240 row\(s\), 1 request\(s\) in \d+\.\d s\n$/);
    expect(stdout + stderr).not.toContain(TOKEN);
    expect(fake.requests.slice(before).map((r) => r.params.periodStart)).toEqual(['202509290000']);

    const parsed = parseDayAheadPrices(fixture(ES_REPLY));
    if (parsed.kind !== 'data') throw new Error('the ES fixture holds prices');
    const served = parsed.data.series.flatMap((s) =>
      s.points.map((p) => [p.ts.toISOString(), p.periodMinutes, p.priceEurMwh, p.interpolated]),
    );
    const db = await openPglite(pgliteDir);
    try {
      const stored = await rows<{
        ts: Date;
        period_minutes: number;
        price_eur_mwh: number;
        interpolated: boolean;
        zone: string;
        source: string;
      }>(
        db,
        `SELECT p.ts, p.period_minutes, p.price_eur_mwh, p.interpolated, z.code AS zone, p.source::text AS source
         FROM price_point p JOIN zone z ON z.id = p.zone_id ORDER BY p.ts`,
      );
      expect(
        stored.map((r) => [new Date(r.ts).toISOString(), r.period_minutes, r.price_eur_mwh, r.interpolated]),
      ).toEqual(served);
      expect(new Set(stored.map((r) => `${r.zone}/${r.source}`))).toEqual(new Set(['ES/entsoe']));
      const windows = await rows<{ status: string; rows: number }>(
        db,
        `SELECT status::text AS status, rows FROM ingestion_window`,
      );
      expect(windows).toEqual([{ status: 'done', rows: 240 }]);
    } finally {
      await db.close();
    }
  });

  it.each([
    [['--to', '2025-10-03'], /--from is required/],
    [['--from', 'yesterday-ish'], /--from: cannot read 'yesterday-ish' as a date/],
    [['--from', '2025-01-01', '--zones', 'XX'], /Unknown bidding zone: XX/],
    [['--from', '2025-01-01', '--borders', 'ES->DE_LU'], /ES and DE_LU do not share a border/],
    [['--from', '2025-01-01', '--what', 'prices,weather'], /--what: unknown item\(s\) weather/],
    [['--from', '2025-01-01', '--bogus'], /Unknown option '--bogus'/],
    [['--follow', '--plan'], /--plan plans a range: use it with --from, not --follow/],
  ])('exits 2 on %j', async (argv, message) => {
    const err = capture();
    const code = await main(argv, { config: config(), stdout: capture().stream, stderr: err.stream });
    expect(code).toBe(2);
    expect(err.text().split('\n')[0]).toMatch(message);
  });

  it('--plan prints the plan without a token, sends nothing and writes no schema; after a run it skips what was loaded', async () => {
    const plain = { ...config(), PGLITE_DIR: join(dir, 'plan-db') };
    const plan = async (to: string) => {
      const out = capture();
      const before = fake.requests.length;
      const argv = ['--from', '2025-09-29', '--to', to, '--zones', 'ES', '--what', 'prices', '--plan'];
      const code = await main(argv, {
        config: { ...plain, ENTSOE_SECURITY_TOKEN: undefined },
        stdout: out.stream,
        stderr: capture().stream,
      });
      expect(code).toBe(0);
      expect(fake.requests.length).toBe(before);
      return out.text();
    };
    expect(await plan('2025-10-03')).toBe(
      'plan: 1 window(s), 1 request(s); at 300 requests/min at least 0s (ENTSOE_REQUESTS_PER_MINUTE)\n' +
        '  prices    A44: 1 zone(s), 1 window(s), 1 request(s) (a page per 100 days)\n' +
        '  ledger: the database has no schema yet, nothing loaded\n',
    );
    const db = await openPglite(join(dir, 'plan-db'));
    try {
      expect(await rows(db, `SELECT to_regclass('ingestion_window')::text AS t`)).toEqual([{ t: null }]);
    } finally {
      await db.close();
    }
    const err = capture();
    const argv = ['--from', '2025-09-29', '--to', '2025-10-03', '--zones', 'ES', '--what', 'prices'];
    expect(await main(argv, { config: plain, stdout: capture().stream, stderr: err.stream })).toBe(0);
    expect(err.text().split('\n')[0]).toBe(
      'plan: 1 window(s), 1 request(s); at 300 requests/min at least 0s (ENTSOE_REQUESTS_PER_MINUTE)',
    );
    expect(err.text()).toMatch(
      /^\[1\/1\] prices ES 2025-09-29\.\.2025-10-03: 240 row\(s\); requests 1\/1, \d+\/min \(elapsed \d+s, ETA 0s\)$/m,
    );
    // 2025-10-03..2025-10-10 is left: 8 delivery days, one page.
    expect(await plan('2025-10-10')).toBe(
      'plan: 1 window(s), 1 request(s); at 300 requests/min at least 0s (ENTSOE_REQUESTS_PER_MINUTE)\n' +
        '  prices    A44: 1 zone(s), 1 window(s), 1 request(s) (a page per 100 days)\n' +
        '  ledger: 1 window(s) of the range already loaded, skipped\n',
    );
  });

  it('exits 2 when the token is not configured', async () => {
    const err = capture();
    const code = await main(['--from', '2025-01-01'], {
      config: { ...config(), ENTSOE_SECURITY_TOKEN: undefined },
      stderr: err.stream,
      stdout: capture().stream,
    });
    expect(code).toBe(2);
    expect(err.text()).toMatch(/^ingest: ENTSOE_SECURITY_TOKEN is not set/);
  });
});
