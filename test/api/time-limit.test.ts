import pg from 'pg';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { TEST_DATABASE_URL } from '../support/env.js';
import { blockApp, type TestApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

const LIMIT_MS = 300;
const PRICES_REST = '/api/v1/prices?zone=FR&datetime_from=2025-10-01&datetime_to=2025-10-02&resolution=native';
const PRICES_GQL = {
  query:
    '{ prices(zones: ["FR"], from: "2025-10-01", to: "2025-10-02", resolution: NATIVE, first: 10) { totalCount } }',
};

const postGraphql = (t: TestApp, body: unknown) =>
  t.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function expectTimeouts(t: TestApp): Promise<void> {
  const rest = await t.get(PRICES_REST);
  expect(rest.status).toBe(504);
  expect(await rest.json()).toEqual({
    detail: 'The request exceeded the 0.3 s time limit; narrow the range or page through it',
  });
  const gql = await postGraphql(t, PRICES_GQL);
  expect(gql.status).toBe(504);
  const body = (await gql.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
  expect(body.errors).toEqual([
    { message: expect.stringMatching(/0.3 s time limit/), extensions: { code: 'TIMEOUT' } },
  ]);
}

describe('the request time limit on the embedded database', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const t = blockApp(it, { config: { REQUEST_TIMEOUT_MS: LIMIT_MS } });

  it('answers 504 on both surfaces while the engine is held past the limit, then serves again', async () => {
    const busy = t.db.pglite!.transaction(() => new Promise((r) => setTimeout(r, 1_500)));
    const started = Date.now();
    await expectTimeouts(t);
    expect(Date.now() - started).toBeLessThan(1_400);
    await busy;
    expect((await t.get(PRICES_REST)).status).toBe(200);
    expect((await postGraphql(t, PRICES_GQL)).status).toBe(200);
  });
});

describe.runIf(TEST_DATABASE_URL)('the request time limit on PostgreSQL', () => {
  it.override({ backend: 'postgres', seed: 'empty' });
  const t = blockApp(it, { config: { REQUEST_TIMEOUT_MS: LIMIT_MS } });
  let locker: pg.Client;
  beforeAll(async () => {
    locker = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await locker.connect();
  });
  afterAll(async () => {
    await locker?.end();
  });

  const blockedBy = async (pid: number) => {
    const { rows } = await locker.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
      [pid],
    );
    return rows[0]!.n;
  };

  it('answers 504, cancels the statements left waiting in the server, and serves again', async () => {
    const pid = (await locker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE "${t.db.schema}".price_point IN ACCESS EXCLUSIVE MODE`);
    try {
      await expectTimeouts(t);
      const deadline = Date.now() + 3_000;
      while ((await blockedBy(pid)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await blockedBy(pid)).toBe(0);
    } finally {
      await locker.query('ROLLBACK');
    }
    expect((await t.get(PRICES_REST)).status).toBe(200);
    expect((await postGraphql(t, PRICES_GQL)).status).toBe(200);
  });
});
