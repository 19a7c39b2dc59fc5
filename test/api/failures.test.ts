import { createYoga } from 'graphql-yoga';
import { describe, expect } from 'vitest';
import { z } from 'zod';
import { testConfig } from '../../src/config.js';
import { openPostgres } from '../../src/db/client.js';
import { databaseAppError } from '../../src/db/errors.js';
import { createLogger } from '../../src/logger.js';
import { type Endpoint, JsonRows } from '../../src/rest/endpoint.js';
import { PRICE_ROW } from '../../src/contract/rows/prices.js';
import { restPlugin } from '../../src/rest/router.js';
import type { ServiceDeps } from '../../src/services/context.js';
import { TEST_BACKENDS, TEST_DATABASE_URL } from '../support/env.js';
import { appOver } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

describe.each(TEST_BACKENDS)('failures answered as JSON, the server keeps serving, on %s', (backend) => {
  it.override({ backend, seed: 'empty' });

  it.runIf(backend === 'pglite')(
    'answers 503 and fails readiness when the database is gone, with /healthz still up',
    async ({ db }) => {
      const t = await appOver(db);
      await t.db.pglite!.close();
      try {
        const rest = await t.get('/api/v1/prices');
        expect(rest.status).toBe(503);
        expect(await rest.json()).toEqual({ detail: 'The database is unavailable; retry shortly' });
        const gql = await t.get('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ prices { totalCount } }' }),
        });
        expect(gql.status).toBe(503);
        const gqlBody = (await gql.json()) as any;
        expect(gqlBody.errors[0].extensions).toEqual({ code: 'DATABASE_UNAVAILABLE' });
        expect((await t.get('/readyz')).status).toBe(503);
        expect((await t.get('/healthz')).status).toBe(200);
      } finally {
        await t.close();
      }
    },
  );
});

describe('request time limit', () => {
  const slow: Endpoint = {
    path: '/api/v1/slow',
    reads: [],
    summary: 'test',
    description: 'test',
    query: z.object({ ms: z.coerce.number() }),
    row: z.object({}),
    handle: async (_deps, q) => {
      await new Promise((r) => setTimeout(r, q.ms as number));
      return {
        meta: { provenance: 'measured', upstreamSources: null, range: null, resolution: null, pagination: null },
        data: new JsonRows(() => [][Symbol.iterator](), { contract: PRICE_ROW, rows: [] }),
      };
    },
  };
  const yoga = createYoga({
    schema: undefined,
    plugins: [
      restPlugin({
        endpoints: [slow],
        deps: {} as ServiceDeps,
        logger: createLogger({ LOG_LEVEL: 'silent' }),
        routes: new Map(),
        timeoutMs: 100,
      }),
    ],
  });

  it('answers 504 with a JSON body past the limit and keeps serving', async () => {
    const res = await yoga.fetch('http://test/api/v1/slow?ms=1000');
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ detail: expect.stringMatching(/0.1 s time limit/) });
    expect((await yoga.fetch('http://test/api/v1/slow?ms=1')).status).toBe(200);
  });

  it.runIf(TEST_DATABASE_URL)('cancels the statement in PostgreSQL and maps it to TIMEOUT', async () => {
    const db = await openPostgres(testConfig({ REQUEST_TIMEOUT_MS: 100 }), TEST_DATABASE_URL!);
    try {
      const started = Date.now();
      const err = await db.rawQuery('SELECT pg_sleep(2)').catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(1500);
      expect(databaseAppError(err)?.code).toBe('TIMEOUT');
      expect(await db.rawQuery('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });

  it('maps an unreachable PostgreSQL to DATABASE_UNAVAILABLE', async () => {
    const db = await openPostgres(testConfig(), 'postgresql://postgres@127.0.0.1:1/none');
    try {
      const err = await db.rawQuery('SELECT 1').catch((e: unknown) => e);
      expect(databaseAppError(err)?.code).toBe('DATABASE_UNAVAILABLE');
    } finally {
      await db.close();
    }
  });
});

describe('an internal error on the real app', () => {
  it.override({ backend: 'pglite', seed: 'empty' });

  it('is 500 with an error id and nothing of the SQL or the stack, on both surfaces, and the server keeps serving', async ({
    db,
  }) => {
    const t = await appOver(db);
    try {
      await t.db.rawQuery('ALTER TABLE price_point RENAME TO price_point_gone');
      const rest = await t.get(
        '/api/v1/prices?zone=FR&datetime_from=2025-10-01&datetime_to=2025-10-02&resolution=native',
      );
      expect(rest.status).toBe(500);
      const restText = await rest.text();
      expect(JSON.parse(restText)).toEqual({
        detail: 'Internal Server Error',
        error_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      const gql = await t.get('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: '{ prices(zones: ["FR"], from: "2025-10-01", to: "2025-10-02", resolution: NATIVE) { totalCount } }',
        }),
      });
      const gqlText = await gql.text();
      expect(JSON.parse(gqlText).errors).toEqual([
        {
          message: 'Internal Server Error',
          path: ['prices'],
          extensions: { code: 'INTERNAL_SERVER_ERROR', errorId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
        },
      ]);
      for (const text of [restText, gqlText])
        expect(text).not.toMatch(/price_point|relation|SELECT|\bat \w+ \(|\.ts:\d+/);
      expect((await t.get('/healthz')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('paths the server does not have', () => {
  it.override({ backend: 'pglite', seed: 'empty' });

  it('answer 404 with a JSON body outside /api/v1 too, and /graphql/ still serves GraphQL', async ({ db }) => {
    const t = await appOver(db);
    try {
      for (const path of ['/nope', '/dashboard/missing-ABCDEFGH.js', '/api/v2/prices', '/graphqlx']) {
        const res = await t.get(path);
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/application\/json/);
        expect(await res.json()).toEqual({ detail: 'Not Found' });
      }
      const gql = await t.get('/graphql/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ zones { code } }' }),
      });
      expect(gql.status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
