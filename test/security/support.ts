/** Helpers for the security tests: a manual clock, a log sink, a migrated database, a minimal server. */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { GraphQLError } from 'graphql';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { pino } from 'pino';
import { testConfig } from '../../src/config.js';
import { type Database, openPglite, openPostgres } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { createMetrics, metricsPlugin, type ServiceMetrics } from '../../src/ops/metrics.js';
import { requestLogPlugin } from '../../src/ops/request-log.js';
import { corsPolicy, securityHeadersPlugin } from '../../src/http/security-headers.js';
import type { Logger } from '../../src/logger.js';
import type { AccessContext } from '../../src/security/client.js';
import { graphqlRateLimit } from '../../src/security/graphql.js';
import { accessPlugin, type AccessPluginOptions } from '../../src/security/plugin.js';
import type { TokenBucketLimiter } from '../../src/security/token-bucket.js';
import { TEST_DATABASE_URL } from '../support/env.js';

/** A clock that moves only when told. */
export function manualClock(start = Date.UTC(2026, 0, 1)): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

/** A pino logger writing JSON lines into `lines`. */
export function captureLogger(level = 'debug'): {
  logger: Logger;
  lines: string[];
  records: () => Record<string, unknown>[];
} {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level, base: undefined }, sink);
  return { logger, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

/** A migrated, empty database (a throw-away schema on PostgreSQL); `close` drops it. */
export async function migratedDatabase(
  kind: 'pglite' | 'postgres',
): Promise<{ db: Database; close: () => Promise<void> }> {
  if (kind === 'pglite') {
    const db = await openPglite('memory://');
    await migrate(db);
    return { db, close: () => db.close() };
  }
  const schema = `sec_test_${randomBytes(4).toString('hex')}`;
  const db = await openPostgres(testConfig({ DATABASE_SCHEMA: schema }), TEST_DATABASE_URL!);
  await migrate(db);
  return {
    db,
    async close() {
      await db.rawQuery(`DROP SCHEMA ${schema} CASCADE`);
      await db.close();
    },
  };
}

/** The app's masking: client errors pass, anything else becomes a 500-style error with an id. */
function maskLikeTheApp(error: unknown, logger: Logger): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof GraphQLError || (error instanceof GraphQLError && !original)) return error as Error;
  const errorId = randomBytes(8).toString('hex');
  logger.error({ err: original, errorId }, 'unhandled GraphQL error');
  return new GraphQLError('Internal Server Error', { extensions: { code: 'INTERNAL_SERVER_ERROR', errorId } });
}

const typeDefs = /* GraphQL */ `
  directive @rateLimit(limit: Int, duration: Int! = 60) on OBJECT | FIELD_DEFINITION
  type Query {
    hello: String! @rateLimit
    world: String! @rateLimit
    heavy: String! @rateLimit(limit: 12, duration: 60)
    free: String!
    boom: String!
  }
`;

/** Options of {@link testServer}. */
export interface TestServerOptions extends Partial<Omit<AccessPluginOptions, 'limiter'>> {
  readonly limiter: TokenBucketLimiter;
  readonly metrics?: ServiceMetrics;
  readonly origins?: string[];
}

/**
 * A minimal Yoga server with the access plugin, the directive, the observability plugins, a dummy
 * schema and a dummy REST route `GET /api/v1/ping` (plus a docs route and a 500 route).
 */
export function testServer(opts: TestServerOptions) {
  const logger = opts.logger ?? captureLogger().logger;
  const metrics = opts.metrics ?? createMetrics({ defaultMetrics: false });
  const schema = graphqlRateLimit(opts.limiter).rateLimitDirectiveTransformer(
    createSchema<AccessContext>({
      typeDefs,
      resolvers: {
        Query: {
          hello: () => 'hi',
          world: () => 'earth',
          heavy: () => 'ton',
          free: () => 'yes',
          boom: () => {
            throw new Error('kaboom');
          },
        },
      },
    }),
  );
  const rest: Plugin = {
    onRequest({ url, endResponse }) {
      if (url.pathname === '/api/v1/ping') endResponse(Response.json({ pong: true }));
      else if (url.pathname === '/api/v1/docs')
        endResponse(new Response('<html></html>', { headers: { 'content-type': 'text/html' } }));
      else if (url.pathname === '/api/v1/fail')
        endResponse(Response.json({ detail: 'Internal Server Error', error_id: 'err-123' }, { status: 500 }));
      else if (url.pathname === '/healthz') endResponse(Response.json({ status: 'ok' }));
    },
  };
  const yoga = createYoga({
    schema,
    logging: false,
    landingPage: false,
    maskedErrors: { maskError: (error) => maskLikeTheApp(error, logger) },
    cors: corsPolicy(opts.origins ?? ['*']),
    plugins: [
      requestLogPlugin(logger),
      metricsPlugin(metrics, { routes: ['/api/v1/ping', '/api/v1/docs'] }),
      securityHeadersPlugin(),
      accessPlugin({
        keys: { authenticate: async () => Promise.reject(new Error('no keys')) },
        requireKey: false,
        trustProxy: false,
        timeoutMs: 30_000,
        graphiql: true,
        metrics,
        ...opts,
        logger,
      }),
      rest,
    ],
  });
  /** Sends a request as if from `address` (the socket's peer). */
  const send = (path: string, init: RequestInit = {}, address = '203.0.113.7') =>
    Promise.resolve(yoga.fetch(new URL(path, 'http://test'), init, { req: { socket: { remoteAddress: address } } }));
  const gql = (query: string, headers: Record<string, string> = {}, address?: string) =>
    send(
      '/graphql',
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) },
      address,
    );
  return { yoga, metrics, send, gql };
}
