/**
 * What `/readyz` answers besides the database's state: the drain after SIGTERM and the data events
 * listener's state make an instance unready; the follower's failing cycles are reported only.
 */
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { testConfig } from '../../src/config.js';
import type { ListenerState } from '../../src/db/listener.js';
import { EVENTS_DOWN_UNREADY_MS, healthPlugin, type ReadySources } from '../../src/ops/health.js';
import { createLogger } from '../../src/logger.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

const NOW = Date.parse('2025-10-01T12:00:00Z');

describe('/readyz', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const t = blockApp(it);
  let bare!: Database;
  it.beforeEach(({ fileDb }) => {
    bare = fileDb;
  });

  const readyz = async (sources: ReadySources) => {
    const schema = createSchema({ typeDefs: 'type Query { ok: Boolean }' });
    const yoga = createYoga({
      schema,
      logging: false,
      plugins: [healthPlugin(bare, createLogger(testConfig()), { now: () => NOW, ...sources })],
    });
    const res = await yoga.fetch('http://test/readyz');
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const events = (state: ListenerState['state'], downMs: number) => () => ({ state, since: NOW - downMs });

  it('answers 503 draining once the drain began, while the API still answers', async () => {
    expect((await t.get('/readyz')).status).toBe(200);
    t.app.startDraining();
    const res = await t.get('/readyz');
    expect([res.status, await res.json()]).toEqual([503, expect.objectContaining({ status: 'draining' })]);
    expect((await t.get('/api/v1/zones')).status).toBe(200);
  });

  it('reports the data events listener, and answers 503 once it has been reconnecting for longer than the bound', async () => {
    expect(await readyz({ events: events('listening', 3_600_000) })).toEqual({
      status: 200,
      body: expect.objectContaining({
        status: 'ready',
        events: { state: 'listening', since: '2025-10-01T11:00:00.000Z' },
      }),
    });
    expect(await readyz({ events: events('reconnecting', EVENTS_DOWN_UNREADY_MS - 1000) })).toMatchObject({
      status: 200,
      body: { status: 'ready', events: { state: 'reconnecting' } },
    });
    const down = await readyz({ events: events('reconnecting', EVENTS_DOWN_UNREADY_MS + 1000) });
    expect(down).toMatchObject({ status: 503, body: { status: 'unavailable', events: { state: 'reconnecting' } } });
    expect(down.body.detail).toMatch(/data events listener down since .*stale/);
  });
});
