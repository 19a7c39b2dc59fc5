import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { maskError } from '../../src/graphql/mask-error.js';

const schema = createSchema({
  typeDefs: 'type Query { boom: String}',
  resolvers: {
    Query: {
      boom: () => {
        throw new Error('secret detail');
      },
    },
  },
});

function yogaWith(plugins: Plugin[] = []) {
  return createYoga({
    schema,
    plugins,
    logging: false,
    maskedErrors: { maskError: maskError(createLogger({ LOG_LEVEL: 'silent' })) },
  });
}

async function post(yoga: ReturnType<typeof yogaWith>, query: string) {
  const res = await yoga.fetch('http://test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query }),
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      data?: unknown;
      errors?: { message: string; extensions?: Record<string, unknown> }[];
    },
  };
}

describe('GraphQL error masking', () => {
  it('answers an internal failure before execution (no data) with 500, masked, the marker not shown', async () => {
    const failing: Plugin = {
      onExecute: () => {
        throw new Error('secret detail');
      },
    };
    const { status, body } = await post(yogaWith([failing]), '{ boom }');
    expect(status).toBe(500);
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      { message: 'Internal Server Error', extensions: { code: 'INTERNAL_SERVER_ERROR', errorId: expect.any(String) } },
    ]);
  });

  it('keeps 200 when a field fails internally but the response has data', async () => {
    const { status, body } = await post(yogaWith(), '{ boom }');
    expect(status).toBe(200);
    expect(body.data).toEqual({ boom: null });
    expect(body.errors?.[0]?.message).toBe('Internal Server Error');
  });
});
