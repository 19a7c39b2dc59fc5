/**
 * The first start of a real server process on an empty embedded database, killed at several
 * moments of its demo load (SIGKILL: a crash exactly there) and interrupted with SIGINT (Ctrl-C,
 * acted on at the next turn of the event loop): the next start ends with the complete data set,
 * and is only ready once it is loaded. Meanwhile the server listens from the start: alive, not
 * ready, and the API answers 503 with Retry-After until the whole data set is there.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/db/client.js';
import { LOCK_FILE } from '../../src/db/dir-lock.js';
import { killStarted, READY_LINE, start, startServer } from '../support/processes.js';

const MOMENTS = [/demo data: generated/, /\[1\/\d+\] demo data \d{4}-\d\d: /, /\[2\/\d+\] demo data \d{4}-\d\d: /];

describe('an interrupted first start', () => {
  let root: string;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'first-start-'));
    dir = join(root, 'pglite');
    env = { PGLITE_DIR: dir, DEMO_HISTORY_DAYS: '60', LOG_LEVEL: 'info', PORT: '0' };
  });
  afterAll(() => {
    killStarted();
    rmSync(root, { recursive: true, force: true });
  });

  it('is completed by the next start, which is ready only with the whole demo data set', async () => {
    for (const moment of MOMENTS) {
      const crashed = start('src/main.ts', [], env);
      await crashed.waitFor(moment);
      crashed.child.kill('SIGKILL');
      await crashed.exited;
      expect(crashed.output()).not.toMatch(/demo data loaded|"msg":"ready"/);
    }
    const interrupted = start('src/main.ts', [], env);
    await interrupted.waitFor(MOMENTS[0] as RegExp);
    interrupted.child.kill('SIGINT');
    expect(await interrupted.exited).toEqual({ code: 0, signal: null });
    expect(interrupted.output()).not.toMatch(/demo data loaded|"msg":"ready"/);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);

    const server = await startServer(env);
    try {
      await server.waitFor(/"msg":"ready"/);
      const output = server.output();
      expect(output, output).toContain('"msg":"demo data loaded"');
      expect(output.indexOf('"msg":"ready"')).toBeGreaterThan(output.indexOf('demo data loaded'));
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }

    const db = await openPglite(dir);
    try {
      const [row] = await db.rawQuery<Record<string, number>>(
        `SELECT (SELECT count(*)::int FROM demo_load) AS loads,
                (SELECT count(DISTINCT zone_id)::int FROM price_point) AS zones,
                (SELECT count(*)::int FROM border_hour) AS border_hours,
                (SELECT count(DISTINCT border_id)::int * (SELECT extract(epoch FROM range_to - range_from)::int / 3600 FROM demo_load) FROM border_hour) AS expected_hours,
                (SELECT count(*)::int FROM border_hour WHERE flow_type IS NOT NULL) AS classified,
                (SELECT sum(hours)::int FROM border_daily) AS rolled_up,
                (SELECT count(*)::int FROM border_weekly) AS weekly,
                (SELECT count(*)::int FROM zone_daily) AS zone_days`,
      );
      expect(row).toMatchObject({ loads: 1, zones: 30, border_hours: row?.expected_hours, rolled_up: row?.classified });
      expect(row?.classified).toBeGreaterThan(59 * 60 * 24 * 0.9);
      expect(row?.weekly).toBeGreaterThan(0);
      expect(row?.zone_days).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  }, 600_000);
});

describe('a first start', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'first-start-listen-'));
  });
  afterAll(() => {
    killStarted();
    rmSync(root, { recursive: true, force: true });
  });

  it('listens at once: alive, not ready and 503 with Retry-After while the demo data loads, then serves it all', async () => {
    const env = { PGLITE_DIR: join(root, 'pglite'), DEMO_HISTORY_DAYS: '240', LOG_LEVEL: 'info', PORT: '0' };
    const server = start('src/main.ts', [], env);
    try {
      const [, url] = await server.waitFor(/"url":"(http:\/\/[^"]+)","msg":"listening"/);
      expect(server.output()).not.toContain('demo data: generated');
      expect((await fetch(`${url}/healthz`)).status).toBe(200);

      await server.waitFor(/\[1\/\d+\] demo data \d{4}-\d\d: /);
      expect(server.output()).not.toMatch(READY_LINE);
      const [readyz, prices, graphql] = await Promise.all([
        fetch(`${url}/readyz`),
        fetch(`${url}/api/v1/prices?zone=FR`),
        fetch(`${url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ __typename }' }),
        }),
      ]);
      expect([readyz.status, await readyz.json()]).toEqual([
        503,
        {
          status: 'starting',
          detail: expect.stringMatching(
            /^loading demo data: \d{4}-\d\d \(\d+\/\d+ months\)$|^loading demo data: committing/,
          ),
        },
      ]);
      expect([prices.status, prices.headers.get('retry-after'), await prices.json()]).toEqual([
        503,
        '5',
        { detail: expect.stringMatching(/^The service is starting \(loading demo data/) },
      ]);
      expect([graphql.status, graphql.headers.get('content-type')]).toEqual([503, 'application/json; charset=utf-8']);

      await server.waitFor(READY_LINE);
      await server.waitFor(/"msg":"ready"/);
      expect(server.output().indexOf('"msg":"ready"')).toBeGreaterThan(server.output().indexOf('demo data loaded'));
      const after = await Promise.all([
        fetch(`${url}/readyz`),
        fetch(`${url}/api/v1/prices?zone=FR`),
        fetch(`${url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ __typename }' }),
        }),
      ]);
      expect(after.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(((await after[1]!.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 300_000);
});
