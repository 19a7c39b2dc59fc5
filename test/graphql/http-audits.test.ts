import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';

describe('GraphQL over HTTP conformance (graphql-http server audits)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', 'empty', { RATE_LIMIT_CAPACITY: 1_000_000 });
  });
  afterAll(() => t.close());

  const audits = serverAudits({
    url: 'http://test/graphql',
    fetchFn: (input: string, init?: RequestInit) => t.get(new URL(input).pathname + new URL(input).search, init),
  });

  it.each(audits.map((a) => [`${a.id} ${a.name}`, a] as const))('%s', async (_name, audit) => {
    const result = await audit.fn();
    expect({ status: result.status, reason: 'reason' in result ? result.reason : undefined }).toEqual({
      status: 'ok',
      reason: undefined,
    });
  });
});
