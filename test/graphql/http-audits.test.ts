import { serverAudits } from 'graphql-http';
import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

describe('GraphQL over HTTP conformance (graphql-http server audits)', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const t = blockApp(it, { config: { RATE_LIMIT_CAPACITY: 1_000_000 } });

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
