/** The follower's cycle outcomes as /readyz reports them: failures in a row, and failing from the third. */
import { describe, expect, it } from 'vitest';
import { ingestReport } from '../../src/ops/ingest-status.js';
import { cycleRecorder, FOLLOWER_FAILING_CYCLES, type FollowerStatus } from '../../src/ingest/server-follow.js';

describe('follower cycles', () => {
  const status = (cycles: FollowerStatus['cycles']): FollowerStatus => ({
    cycles,
    isLeader: () => true,
    freshness: async () => [],
  });

  it('counts failed cycles in a row, a success resetting the count', () => {
    let t = 1_000;
    const cycles = cycleRecorder(() => t);
    expect(cycles.read()).toEqual({ consecutiveFailures: 0 });
    cycles.failed();
    t = 2_000;
    cycles.failed();
    expect(cycles.read()).toEqual({ lastAt: 2_000, lastOk: false, consecutiveFailures: 2 });
    cycles.ok();
    expect(cycles.read()).toEqual({ lastAt: 2_000, lastOk: true, consecutiveFailures: 0 });
  });

  it(`reports the follower failing from ${FOLLOWER_FAILING_CYCLES} failed cycles in a row, and not before`, async () => {
    const cycles = cycleRecorder(() => Date.parse('2025-10-01T00:00:00Z'));
    for (let i = 1; i < FOLLOWER_FAILING_CYCLES; i++) cycles.failed();
    expect((await ingestReport(status(cycles.read), 0)).cycles).toEqual({
      last_at: '2025-10-01T00:00:00.000Z',
      last_ok: false,
      consecutive_failures: FOLLOWER_FAILING_CYCLES - 1,
      failing: false,
    });
    cycles.failed();
    expect((await ingestReport(status(cycles.read), 0)).cycles).toMatchObject({
      consecutive_failures: FOLLOWER_FAILING_CYCLES,
      failing: true,
    });
  });

  it('reports no cycle before the first', async () => {
    expect((await ingestReport(status(cycleRecorder().read), 0)).cycles).toEqual({
      last_at: null,
      last_ok: null,
      consecutive_failures: 0,
      failing: false,
    });
  });
});
