/**
 * The job against a misbehaving upstream: 429 with Retry-After, 503, slow replies, cut connections,
 * truncated documents, acknowledgements and a rejected token. Waits run on a fake clock (recorded,
 * not slept); only the timeout test waits for real (300 ms).
 */
import { describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { EntsoeAuthError } from '../../src/ingest/entsoe/index.js';
import { EntsoeTransportError } from '../../src/ingest/client.js';
import { upstreamTest as it } from '../support/fixtures.js';
import { fixture, TOKEN } from './fake-upstream.js';
import { EIC, fakeClient, ingest, key, rows } from './helpers.js';

const ES_REPLY = fixture('A44_ES_2025-09-29_to_10-02_PT60M_then_PT15M.xml');
const ES = key('A44', EIC.ES, EIC.ES);
const PT = key('A44', EIC.PT, EIC.PT);

it.beforeEach(({ upstream }) => upstream.serve(ES, { body: ES_REPLY }));

async function storedPrices(db: Database, zone: string): Promise<number> {
  const r = await rows<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM price_point p JOIN zone z ON z.id = p.zone_id WHERE z.code = $1`,
    [zone],
  );
  return r[0]!.n;
}

async function windowsByStatus(db: Database): Promise<Record<string, string>> {
  const r = await rows<{ area_key: string; status: string }>(
    db,
    `SELECT area_key, status::text AS status FROM ingestion_window ORDER BY id`,
  );
  return Object.fromEntries(r.map((w) => [w.area_key, w.status]));
}

describe('transient failures are retried', () => {
  it('waits as long as Retry-After says after a 429, then succeeds', async ({ db, upstream: fake }) => {
    fake.fail(ES, { kind: 'status', status: 429, headers: { 'retry-after': '2' } });
    const { client, retries, waits } = fakeClient(fake);
    const s = await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['ES'] });
    expect(s).toMatchObject({ completed: 1, rows: 240, requests: 2, fatal: null });
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, reason: 'HTTP 429', delayMs: 2000 })]);
    expect(waits).toContain(2000);
    expect(await storedPrices(db, 'ES')).toBe(240);
  });

  it('backs off exponentially with jitter on 503', async ({ db, upstream: fake }) => {
    fake.fail(ES, { kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    const { client, retries } = fakeClient(fake, { backoffBaseMs: 1000 });
    const s = await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['ES'] });
    expect(s).toMatchObject({ completed: 1, requests: 3 });
    expect(retries.map((r) => r.reason)).toEqual(['HTTP 503', 'HTTP 503']);
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(500);
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(1000);
    expect(retries[1]!.delayMs).toBeGreaterThanOrEqual(1000);
    expect(retries[1]!.delayMs).toBeLessThanOrEqual(2000);
  });

  it('gives up on a slow reply at the timeout and retries', async ({ db, upstream: fake }) => {
    fake.fail(ES, { kind: 'slow', delayMs: 3000 });
    const { client, retries } = fakeClient(fake, { timeoutMs: 300 });
    const started = Date.now();
    const s = await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['ES'] });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(s).toMatchObject({ completed: 1, rows: 240, requests: 2 });
    expect(retries[0]!.reason).toBe('timed out after 300 ms');
  });

  it('retries a body cut short by the connection closing, and a reset connection', async ({ db, upstream: fake }) => {
    fake.fail(ES, { kind: 'truncate' }, { kind: 'reset' });
    const { client, retries } = fakeClient(fake);
    const s = await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['ES'] });
    expect(s).toMatchObject({ completed: 1, rows: 240, requests: 3 });
    expect(retries).toHaveLength(2);
    expect(await storedPrices(db, 'ES')).toBe(240);
  });

  it('stops with a clear error when retries are exhausted, keeping the windows committed before', async ({
    db,
    upstream: fake,
  }) => {
    fake.fail(PT, ...Array.from({ length: 4 }, () => ({ kind: 'status' as const, status: 503 })));
    const { client } = fakeClient(fake);
    const s = await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['ES', 'PT', 'FR'] });
    expect(s.completed).toBe(1);
    expect(s.fatal).toBeInstanceOf(EntsoeTransportError);
    expect(s.fatal!.message).toMatch(/A44 in=10YPT-REN------W .* gave up after 4 attempts, last: HTTP 503/);
    expect(fake.requests.some((r) => r.key.includes(EIC.FR))).toBe(false);
    expect(await windowsByStatus(db)).toEqual({ ES: 'done', PT: 'failed' });
    expect(await storedPrices(db, 'ES')).toBe(240);
  });
});

describe('replies that are not data', () => {
  it('treats a complete but truncated document as a failed window, writing nothing of it', async ({
    db,
    upstream: fake,
  }) => {
    const half = ES_REPLY.subarray(0, Math.floor(ES_REPLY.length / 2));
    fake.serve(ES, { body: half });
    const { client } = fakeClient(fake);
    const s = await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['ES', 'PT'] });
    expect(s.failed).toEqual([
      { window: 'prices ES 2025-09-29..2025-10-03', error: expect.stringContaining('unreadable XML') },
    ]);
    expect(s.fatal).toBeNull();
    expect(s.unpublished.map((u) => u.window)).toEqual(['prices PT 2025-09-29..2025-10-03']); // "No matching data"
    expect(await storedPrices(db, 'ES')).toBe(0);
    expect(await windowsByStatus(db)).toEqual({ ES: 'failed' });
    const run = await rows<{ status: string; error: string }>(
      db,
      `SELECT status::text AS status, error FROM ingestion_run`,
    );
    expect(run[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('prices ES') });
  });

  it('counts "No matching data" as not published yet: no failure, but not done either', async ({
    db,
    upstream: fake,
  }) => {
    const { client } = fakeClient(fake);
    const s = await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['PT'] });
    expect(s).toMatchObject({ completed: 0, rows: 0, failed: [], fatal: null });
    expect(s.unpublished).toHaveLength(1);
    expect(await windowsByStatus(db)).toEqual({});
  });

  it('reports another acknowledgement with its reason and goes on with the other windows', async ({
    db,
    upstream: fake,
  }) => {
    fake.serve(ES, { body: fixture('ACK_bad_request_2023.xml'), status: 400 });
    const { client } = fakeClient(fake);
    const s = await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['ES', 'PT'] });
    expect(s.failed).toEqual([
      {
        window: 'prices ES 2025-09-29..2025-10-03',
        error: 'ENTSO-E refused the request (reason 999): Bad request message from API',
      },
    ]);
    expect(s.unpublished).toHaveLength(1);
  });

  it('stops at a rejected token with a message that does not contain it', async ({ db, upstream: fake }) => {
    const { client } = fakeClient(fake, { token: 'wrong-token-value-123' });
    const s = await ingest(db, client, '2025-09-29', '2025-10-03', { zones: ['ES', 'PT'] });
    expect(s.fatal).toBeInstanceOf(EntsoeAuthError);
    expect(s.fatal!.message).toMatch(/rejected the security token/);
    expect(fake.requests).toHaveLength(1); // no retry, no further window
    const run = await rows<{ error: string }>(db, `SELECT error FROM ingestion_run`);
    const windows = await rows<{ error: string }>(db, `SELECT error FROM ingestion_window`);
    for (const text of [s.fatal!.message, run[0]!.error, windows[0]!.error]) {
      expect(text).not.toContain('wrong-token-value-123');
      expect(text).not.toContain(TOKEN);
    }
  });
});
