import { tableFromIPC } from 'apache-arrow';
import { describe, expect, vi } from 'vitest';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

/** Batch sizes the services ask for are replaced by these (Infinity: one batch, the one-statement answer). */
const sizes = vi.hoisted(() => ({ days: 1, borders: 1, started: 0 }));

// Bodies under maxTaggedBytes are read whole to be tagged before they are sent: tag none here.
vi.mock('../../src/limits.js', async (original) => {
  const actual = await original<typeof import('../../src/limits.js')>();
  return { ...actual, RESPONSE_CACHE: { ...actual.RESPONSE_CACHE, maxTaggedBytes: 0 } };
});

vi.mock('../../src/domain/row-batches.js', async (original) => {
  const actual = await original<typeof import('../../src/domain/row-batches.js')>();
  return {
    ...actual,
    readInBatches: <P, R>(parts: readonly P[], read: (part: P) => Promise<readonly R[]>) =>
      actual.readInBatches(parts, (p) => ((sizes.started += 1), read(p))),
  };
});

vi.mock('../../src/repositories/flows/aggregates.js', async (original) => {
  const actual = await original<typeof import('../../src/repositories/flows/aggregates.js')>();
  return {
    ...actual,
    ciCountBatches: (...args: Parameters<typeof actual.ciCountBatches>) => {
      args[4] = sizes.days;
      return actual.ciCountBatches(...args);
    },
  };
});

vi.mock('../../src/repositories/flows/stats.js', async (original) => {
  const actual = await original<typeof import('../../src/repositories/flows/stats.js')>();
  return {
    ...actual,
    scatterBatches: (...args: Parameters<typeof actual.scatterBatches>) => {
      args[5] = sizes.borders;
      return actual.scatterBatches(...args);
    },
  };
});

const RANGE = 'datetime_from=2025-09-23T05:00:00Z&datetime_to=2025-11-04T07:00:00Z';

describe.each(TEST_BACKENDS)('whole-span aggregates written as their batches are read (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  const t = blockApp(it, { config: { RESPONSE_CACHE: false } });

  /** How many batch reads had started when the body's first chunk came, the body's bytes and all reads. */
  async function streamed(path: string, accept: string) {
    sizes.started = 0;
    const res = await t.get(path, { headers: { accept } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const chunks = [(await reader.read()).value!];
    const early = sizes.started;
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    return { early, body: Buffer.concat(chunks), started: sizes.started };
  }

  /** The same request answered by one statement. */
  async function whole(path: string, accept: string): Promise<Buffer> {
    Object.assign(sizes, { days: Infinity, borders: Infinity });
    try {
      const { body, started } = await streamed(path, accept);
      expect(started).toBe(1);
      return body;
    } finally {
      Object.assign(sizes, { days: 1, borders: 1 });
    }
  }

  // JSON bodies under WHOLE_BODY_CHARS (rest/router.ts) go whole, so the demo's stream as CSV and Arrow
  // (Arrow's bytes hold one record batch per batch read: its rows, not its bytes, are the same).
  const CSV = 'text/csv';
  const ARROW = 'application/vnd.apache.arrow.stream';
  it.each([
    ['/api/v1/ci-share', `${RANGE}&resolution=1D`, CSV],
    ['/api/v1/ci-share', `${RANGE}&resolution=1W&tz=local`, CSV],
    ['/api/v1/ci-share', `${RANGE}&resolution=1D&tz=Europe/Helsinki&zones=FI&zones=PT`, CSV],
    ['/api/v1/flow-price-scatter', `${RANGE}&resolution=1D`, CSV],
    ['/api/v1/flow-price-scatter', `${RANGE}&resolution=1W&tz=local`, CSV],
  ])(
    '%s?%s (%s) starts its body after a batch or two, and ends it as one statement would',
    async (path, query, accept) => {
      const url = `${path}?${query}`;
      const { early, body, started } = await streamed(url, accept);
      expect(started).toBeGreaterThan(5);
      expect(early).toBeLessThanOrEqual(3);
      expect(body.equals(await whole(url, accept))).toBe(true);
      expect(body.length).toBeGreaterThan(1_000);
    },
  );

  it('writes Arrow record batches as the scatter batches are read, the same table as one statement', async () => {
    const url = `/api/v1/flow-price-scatter?${RANGE}&resolution=1D`;
    const { early, body, started } = await streamed(url, ARROW);
    expect(early).toBeLessThan(started / 4);
    const rows = (b: Buffer) =>
      tableFromIPC(b)
        .toArray()
        .map((r) => r.toJSON());
    expect(rows(body)).toEqual(rows(await whole(url, ARROW)));
  });
});
