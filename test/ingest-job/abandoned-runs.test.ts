/**
 * Runs left `running` by a process that ended (killed out of memory, SIGKILL) are closed as
 * abandoned by the next run; a run whose process is alive keeps its row `running`, however old.
 * Liveness is the run's advisory lock, dropped by the server when the holding session ends.
 */
import { describe, expect } from 'vitest';
import { ABANDONED_MESSAGE, startRun } from '../../src/repositories/ingest/runs.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { upstreamTest as it } from '../support/fixtures.js';
import type { FakeUpstream } from './fake-upstream.js';
import { fakeClient, ingest, iso, rows } from './helpers.js';

const NOW = new Date('2025-10-10T12:00:00Z');

describe.each(TEST_BACKENDS)('runs left running on %s', (kind) => {
  it.override({ backend: kind, seed: 'empty' });
  let db!: Database;
  let fake!: FakeUpstream;
  it.beforeEach(({ fileDb, fileUpstream }) => {
    db = fileDb;
    fake = fileUpstream;
  });
  const runOnce = () =>
    ingest(db, fakeClient(fake).client, '2025-09-29', '2025-09-30', { zones: ['ES'], now: () => NOW });
  const runRows = () =>
    rows<{ id: number; status: string; error: string | null; finished_at: Date | null }>(
      db,
      `SELECT id, status::text AS status, error, finished_at FROM ingestion_run ORDER BY id`,
    );

  it.beforeEach(async () => {
    await db.execScript('DELETE FROM ingestion_window; DELETE FROM ingestion_run;');
  });

  it('closes a run whose process died (row running, no lock held) as abandoned at the start of the next run', async () => {
    const [dead] = await rows<{ id: number }>(
      db,
      `INSERT INTO ingestion_run (started_at, status, args) VALUES ('2025-10-10T11:00Z', 'running', '{}') RETURNING id`,
    );
    const s = await runOnce();
    expect(s.abandonedRuns).toEqual([dead!.id]);
    const [closed, next] = await runRows();
    expect(closed).toMatchObject({ id: dead!.id, status: 'failed', error: ABANDONED_MESSAGE });
    expect(iso(closed!.finished_at)).toBe(NOW.toISOString());
    expect(next).toMatchObject({ id: s.runId, status: 'done', error: null });
  });

  it('leaves the row of a live run running, and closes it once its session ends without finishing', async () => {
    const live = await startRun(db, { live: true }, new Date('2025-10-01T00:00Z'));
    try {
      const s = await runOnce();
      expect(s.abandonedRuns).toEqual([]);
      expect((await runRows()).find((r) => r.id === live.id)).toMatchObject({
        status: 'running',
        error: null,
        finished_at: null,
      });
    } finally {
      await live.release();
    }
    const s = await runOnce();
    expect(s.abandonedRuns).toEqual([live.id]);
    expect((await runRows()).find((r) => r.id === live.id)).toMatchObject({
      status: 'failed',
      error: ABANDONED_MESSAGE,
    });
  });
});
