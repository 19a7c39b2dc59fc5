import { randomUUID } from 'node:crypto';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga, type GraphiQLOptions, type YogaServerInstance } from 'graphql-yoga';
import { GraphQLError } from 'graphql';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { AppError } from './errors.js';
import type { GraphQLContext } from './graphql/builder.js';
import { schema } from './graphql/schema/index.js';
import { healthPlugin } from './http/health.js';
import { createLogger, type Logger } from './logger.js';
import { readCatalogue } from './repositories/catalogue.js';
import { docsRoutes } from './rest/docs.js';
import { ENDPOINTS } from './rest/endpoints/index.js';
import { buildOpenApi } from './rest/openapi.js';
import { API_PREFIX, restPlugin } from './rest/router.js';
import { type ServiceDeps, zoneDirectory } from './services/context.js';

/** Everything the server needs, built once. */
export interface AppOptions {
  readonly config: Config;
  readonly db: Database;
  readonly logger?: Logger;
  /** Clock in ms since epoch (tests pin it). */
  readonly now?: () => number;
}

/** The built server: a fetch handler for GraphQL (/graphql) and REST (/api/v1), not listening. */
export interface App {
  readonly yoga: YogaServerInstance<Record<string, never>, GraphQLContext>;
  readonly deps: ServiceDeps;
  readonly logger: Logger;
}

function memoGraphiQL(): (opts?: GraphiQLOptions) => string {
  let html: string | undefined;
  return (opts) => (html ??= renderGraphiQL(opts));
}

function maskError(logger: Logger) {
  return (error: unknown): Error => {
    const original = error instanceof GraphQLError ? error.originalError : error;
    if (original instanceof AppError) return error as Error;
    if (error instanceof GraphQLError && !original) return error;
    const errorId = randomUUID();
    logger.error({ err: original, errorId }, 'unhandled GraphQL error');
    return new GraphQLError('Internal Server Error', { extensions: { code: 'INTERNAL_SERVER_ERROR', errorId } });
  };
}

/** Builds the Yoga server with the REST adapter mounted on it. */
export async function createApp(opts: AppOptions): Promise<App> {
  const logger = opts.logger ?? createLogger(opts.config);
  const deps: ServiceDeps = { db: opts.db, directory: zoneDirectory(await readCatalogue(opts.db)), now: opts.now ?? Date.now };
  const routes = docsRoutes(API_PREFIX, buildOpenApi(ENDPOINTS));
  const yoga = createYoga<Record<string, never>, GraphQLContext>({
    schema,
    context: () => ({ deps }),
    graphqlEndpoint: '/graphql',
    graphiql: opts.config.GRAPHIQL ? { title: 'European electricity market API' } : false,
    renderGraphiQL: memoGraphiQL(),
    landingPage: false,
    maskedErrors: { maskError: maskError(logger) },
    logging: false,
    plugins: [healthPlugin(opts.db, logger), restPlugin({ endpoints: ENDPOINTS, deps, logger, routes })],
  });
  return { yoga, deps, logger };
}
