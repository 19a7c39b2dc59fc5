import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

const THREE = '{ zones { code } borders { key } again: zones { code } }';
const dir = mkdtempSync(join(tmpdir(), 'hit-cost-'));
const MANIFEST = join(dir, 'manifest.json');
writeFileSync(MANIFEST, JSON.stringify({ three: THREE }));

describe('a GraphQL response-cache hit is charged like its miss', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const t = blockApp(it, {
    config: {
      RATE_LIMIT_CAPACITY: 100,
      RATE_LIMIT_REFILL_PER_SECOND: 0.001,
      PERSISTED_OPERATIONS_FILE: MANIFEST,
      TRUST_PROXY_HOPS: 1,
    },
  });

  let client = 0;
  /** Tokens left after sending `body` from its own address (one bucket per case). */
  const remainingAfter = async (body: unknown, address: string) => {
    const res = await t.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return Number(res.headers.get('ratelimit-remaining'));
  };

  it.each([
    ['three root fields, one aliased', 3, { query: THREE }],
    [
      'a field skipped by a variable',
      1,
      { query: 'query ($s: Boolean!) { zones { code } borders @skip(if: $s) { key } }', variables: { s: true } },
    ],
    [
      'the same field included',
      2,
      { query: 'query ($s: Boolean!) { zones { code } borders @skip(if: $s) { key } }', variables: { s: false } },
    ],
    [
      'fields spread from a fragment',
      2,
      { query: 'query { ...F } fragment F on Query { zones { code } borders { key } }' },
    ],
    ['a persisted id', 3, { documentId: 'three' }],
  ] as const)('%s: the miss and the hit each cost %i tokens', async (_name, cost, body) => {
    const address = `198.51.100.${++client}`;
    const afterMiss = await remainingAfter(body, address);
    const afterHit = await remainingAfter(body, address);
    expect([100 - afterMiss, afterMiss - afterHit]).toEqual([cost, cost]);
  });
});
