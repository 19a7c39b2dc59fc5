import pg from 'pg';
import { afterEach, describe, expect, vi } from 'vitest';
import { TEST_DATABASE_URL } from '../support/env.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

/** Each batch read waits `delayMs` first (and each after an answer's first runs `slow` inside the request, if set); reads are counted. */
const batches = vi.hoisted(() => ({
  delayMs: 0,
  started: 0,
  slow: undefined as undefined | (() => Promise<unknown>),
}));

/** Bodies up to `maxTaggedBytes` are read whole (to be tagged) before their first byte is sent. */
const tagged = vi.hoisted(() => ({ maxTaggedBytes: 8 * 1_024 * 1_024 }));

vi.mock('../../src/limits.js', async (original) => {
  const actual = await original<typeof import('../../src/limits.js')>();
  return {
    ...actual,
    RESPONSE_CACHE: {
      ...actual.RESPONSE_CACHE,
      get maxTaggedBytes() {
        return tagged.maxTaggedBytes;
      },
    },
  };
});

vi.mock('../../src/domain/row-batches.js', async (original) => {
  const actual = await original<typeof import('../../src/domain/row-batches.js')>();
  return {
    ...actual,
    readInBatches: <P, R>(parts: readonly P[], read: (part: P) => Promise<readonly R[]>, signal?: AbortSignal) => {
      let n = 0;
      return actual.readInBatches(
        parts,
        async (p) => {
          n += 1;
          batches.started += 1;
          if (batches.slow && n > 1) await batches.slow();
          await new Promise((r) => setTimeout(r, batches.delayMs));
          return read(p);
        },
        signal,
      );
    },
  };
});

vi.mock('../../src/repositories/flows/aggregates.js', async (original) => {
  const actual = await original<typeof import('../../src/repositories/flows/aggregates.js')>();
  return {
    ...actual,
    ciCountBatches: (...args: Parameters<typeof actual.ciCountBatches>) => {
      args[4] = 1;
      return actual.ciCountBatches(...args);
    },
  };
});

/** 42 days at 1D, one day a batch: 42 batch reads. */
const CI_SHARE = '/api/v1/ci-share?datetime_from=2025-09-23T00:00:00Z&datetime_to=2025-11-04T00:00:00Z&resolution=1D';
const CSV = { accept: 'text/csv' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterEach(() => {
  Object.assign(batches, { delayMs: 0, started: 0, slow: undefined });
  tagged.maxTaggedBytes = 8 * 1_024 * 1_024;
});

describe.each(TEST_BACKENDS)('one time limit over every batch of a streamed answer (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  const t = blockApp(it, { config: { REQUEST_TIMEOUT_MS: 400, RESPONSE_CACHE: true } });

  it('answers 504 when the batches read before the first byte (to tag the body) outlast the limit', async () => {
    batches.delayMs = 40;
    const res = await t.get(CI_SHARE, { headers: CSV });
    expect(res.status).toBe(504);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/0\.4 s time limit/);
    await sleep(300);
    expect(batches.started).toBeLessThan(42);
  });

  it('cuts the body (the stream fails) when later batches outlast the limit, and reads no further batch', async () => {
    batches.delayMs = 40;
    tagged.maxTaggedBytes = 0;
    const res = await t.get(CI_SHARE, { headers: CSV });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    const started = batches.started;
    expect(started).toBeLessThan(42);
    await sleep(300);
    expect(batches.started).toBe(started);
  });
});

describe.each(TEST_BACKENDS)('a client that leaves a streamed answer (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  const t = blockApp(it, { config: { REQUEST_TIMEOUT_MS: 30_000, RESPONSE_CACHE: true } });

  it('is served whole when its batches fit in the limit', async () => {
    const res = await t.get(CI_SHARE, { headers: CSV });
    expect(res.status).toBe(200);
    expect((await res.text()).trim().split('\n').length).toBeGreaterThan(42);
    expect(batches.started).toBe(42);
  });

  it('stops the batch reads at once and is logged once at info as `client closed`, counted apart from 5xx', async () => {
    const info = vi.spyOn(t.app.logger, 'info');
    const error = vi.spyOn(t.app.logger, 'error');
    batches.delayMs = 30;
    const aborts = Array.from({ length: 5 }, () => new AbortController());
    const answers = aborts.map((a) =>
      t.get(CI_SHARE, { signal: a.signal }).then(
        (r) => r.status,
        () => 'aborted' as const,
      ),
    );
    await sleep(150);
    for (const a of aborts) a.abort();
    const statuses = await Promise.all(answers);
    const closedLines = () => info.mock.calls.filter((c) => c[1] === 'client closed').length;
    for (const until = Date.now() + 5_000; closedLines() < 5 && Date.now() < until; ) await sleep(20);
    const started = batches.started;
    await sleep(400);
    expect(batches.started).toBe(started);
    expect(started).toBeLessThan(5 * 20);
    for (const s of statuses) expect(s === 'aborted' || s === 499).toBe(true);
    const closed = info.mock.calls.filter((c) => c[1] === 'client closed');
    expect(closed).toHaveLength(5);
    for (const [line] of closed) expect(JSON.stringify(line)).not.toMatch(/stack|err/);
    expect(error).not.toHaveBeenCalled();
    const metrics = await t.app.metrics.registry.getSingleMetricAsString('http_requests_total');
    expect(metrics).not.toMatch(/status="5\d\d"/);
    const counted = await t.app.metrics.registry.getSingleMetricAsString('http_client_closed_total');
    expect(counted).toMatch(/ci-share"} 5/);
  });

  it.runIf(kind === 'postgres')("cancels a later batch's running statement on PostgreSQL within a second", async () => {
    const watcher = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await watcher.connect();
    try {
      batches.slow = () => t.db.pool!.query('/* lifetime_probe */ SELECT pg_sleep(2)');
      const aborts = Array.from({ length: 4 }, () => new AbortController());
      // Another range than the tests above: their answers are in the response cache.
      const url = CI_SHARE.replace('2025-11-04', '2025-11-05');
      const answers = aborts.map((a) => t.get(url, { signal: a.signal, headers: CSV }).catch(() => null));
      const running = async () =>
        (
          await watcher.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '/* lifetime_probe */%'",
          )
        ).rows[0]!.n;
      const since = Date.now();
      while ((await running()) < aborts.length && Date.now() - since < 5_000) await sleep(20);
      expect(await running()).toBe(aborts.length);
      for (const a of aborts) a.abort();
      await Promise.all(answers);
      const deadline = Date.now() + 1_000;
      while ((await running()) > 0 && Date.now() < deadline) await sleep(50);
      expect(await running()).toBe(0);
      const started = batches.started;
      await sleep(2_500);
      expect(await running()).toBe(0);
      expect(batches.started).toBe(started);
    } finally {
      await watcher.end();
    }
  });
});
