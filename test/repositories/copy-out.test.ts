/**
 * An export's COPY on PostgreSQL ends when the export's signal aborts, also when the first cancel
 * request found nothing to cancel (sent in the instant before the server started the statement:
 * here the first request is dropped on its way, which is what the server sees then).
 */
import { describe, expect, vi } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { withRequestSignal } from '../../src/deadline.js';
import { copyEach } from '../../src/repositories/sql/copy-out.js';
import { TEST_DATABASE_URL } from '../support/env.js';
import { dbTest as it } from '../support/fixtures.js';
import { until } from '../support/wait.js';

const dropped = vi.hoisted(() => ({ cancels: 0, sent: 0 }));

vi.mock('../../src/db/pooler.js', async (original) => {
  const real = await original<typeof import('../../src/db/pooler.js')>();
  return {
    ...real,
    cancelRequest: (client: Parameters<typeof real.cancelRequest>[0]) => {
      dropped.sent++;
      if (dropped.cancels > 0) {
        dropped.cancels--;
        return Promise.resolve();
      }
      return real.cancelRequest(client);
    },
  };
});

const SLOW_COPY = 'COPY (SELECT pg_sleep(30), 1) TO STDOUT';

async function copyRunning(db: Database): Promise<number> {
  const rows = await db.rawQuery<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%/* copyOutTest */%' AND pid <> pg_backend_pid()`,
  );
  return rows[0]?.n ?? 0;
}

describe.skipIf(!TEST_DATABASE_URL)('COPY out of PostgreSQL', () => {
  it.override({ backend: 'postgres' });

  it('ends its statement at once when aborted although the first cancel request found nothing', async ({ db }) => {
    const controller = new AbortController();
    const reading = withRequestSignal(controller.signal, async () => {
      for await (const _ of copyEach(db, 'copyOutTest', [SLOW_COPY])) {
        // the statement writes nothing before it is cancelled
      }
    });
    reading.catch(() => undefined);
    await until('the COPY runs', async () => (await copyRunning(db)) === 1, 10_000, 20);
    dropped.cancels = 1;
    const sentBefore = dropped.sent;
    const abortedAt = performance.now();
    controller.abort(new DOMException('client closed', 'AbortError'));
    await expect(reading).rejects.toThrow(/user request/);
    expect(performance.now() - abortedAt).toBeLessThan(5_000);
    expect(dropped.sent - sentBefore).toBeGreaterThanOrEqual(2);
    await until('no COPY runs', async () => (await copyRunning(db)) === 0, 2_000, 20);
  });
});
