import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga, type GraphiQLOptions, type YogaServerInstance } from 'graphql-yoga';
import { classificationThresholds, type Config } from './config.js';
import type { Database } from './db/client.js';
import { useBodyLimit } from './graphql/plugins/use-body-limit.js';
import type { GraphQLContext } from './graphql/builder.js';
import { useComplexityLimit } from './graphql/plugins/use-complexity-limit.js';
import { GRAPHIQL_OPTIONS } from './graphql/graphiql.js';
import { useJit } from './graphql/plugins/use-jit.js';
import { maskError } from './graphql/mask-error.js';
import { useOperationPolicy } from './graphql/plugins/use-operation-policy.js';
import { useParseLimits } from './graphql/plugins/use-parse-limits.js';
import { useRefusalBodies } from './graphql/plugins/use-refusal-bodies.js';
import { useRequestErrors } from './graphql/plugins/use-request-errors.js';
import { schema } from './graphql/schema/index.js';
import { useTimeLimit } from './graphql/plugins/use-time-limit.js';
import { useUnservedStreams } from './graphql/plugins/use-unserved-streams.js';
import { useVariableLimits } from './graphql/plugins/use-variable-limits.js';
import { dashboardOperationsFile, dashboardPlugin } from './http/dashboard.js';
import { notFoundPlugin } from './http/errors.js';
import { healthPlugin } from './ops/health.js';
import { GRAPHQL_PATH, REST_PREFIX, YOGA_HEALTH_CHECK_OFF } from './http/paths.js';
import { createMetrics, metricsPlugin, registerPoolMetrics, type ServiceMetrics } from './ops/metrics.js';
import { requestLogPlugin } from './ops/request-log.js';
import { useInflightLimit } from './security/use-inflight-limit.js';
import { corsPlugin, parseOrigins, securityHeadersPlugin } from './http/security-headers.js';
import { ApiKeyAuthenticator } from './security/api-keys.js';
import { graphqlRateLimit } from './security/graphql.js';
import { createRateLimiter } from './security/limiter.js';
import { accessPlugin } from './security/plugin.js';
import { instancePurger } from './events/cache-purge.js';
import { startLiveEvents } from './events/live.js';
import { createDataVersion, type DataVersion } from './events/version.js';
import { errorCacheControlPlugin, graphqlCacheControlPlugin } from './http/cache-control.js';
import { compressionPlugin } from './http/compression.js';
import { useGraphqlResponseCache } from './graphql/plugins/use-response-cache.js';
import { RestCache } from './rest/cache.js';
import { registerIngestMetrics } from './ops/ingest-status.js';
import { type ServerFollowerOptions, startServerFollower } from './ingest/server-follow.js';
import { createLogger, type Logger } from './logger.js';
import { readCatalogue } from './repositories/catalogue/catalogue.js';
import { readTimeZoneNames } from './repositories/catalogue/time-zones.js';
import { restrictTimeZones } from './domain/time-zone.js';
import { createReadMemo, type ReadMemo } from './repositories/sql/read-memo.js';
import { docsRoutes } from './rest/docs.js';
import { ENDPOINTS } from './rest/endpoints/index.js';
import { buildOpenApi } from './rest/openapi.js';
import { restPlugin } from './rest/router.js';
import { MCP_PATH } from './mcp/limits.js';
import { createMcpMetrics } from './mcp/server.js';
import { toolsOf } from './mcp/tools.js';
import { useMcp, parseMcpOrigins } from './mcp/use-mcp.js';
import { exportPlugin } from './rest/export/plugin.js';
import { EXPORTS } from './rest/export/endpoints.js';
import { ignoredParametersPlugin } from './rest/ignored-params.js';
import type { ServiceDeps } from './services/context.js';

/** Everything the server needs, built once. */
export interface AppOptions {
  readonly config: Config;
  readonly db: Database;
  readonly logger?: Logger;
  /** Directory of the built dashboard; default dist/web (see `npm run build:dashboard`). */
  readonly dashboardDir?: string;
  /** Clock in ms since epoch (tests pin it). */
  readonly now?: () => number;
  /** Overrides of the in-server follower (INGEST_FOLLOW): its upstream client and selection (tests). */
  readonly follower?: Pick<ServerFollowerOptions, 'client' | 'selection'>;
}

/** The built server: a fetch handler for GraphQL (/graphql) and REST (/api/v1), not listening. */
export interface App {
  readonly yoga: YogaServerInstance<Record<string, never>, GraphQLContext>;
  readonly deps: ServiceDeps;
  readonly logger: Logger;
  readonly metrics: ServiceMetrics;
  /** The served data's version: bumped by every committed ingestion window; caches and ETags follow it. */
  readonly version: DataVersion;
  /** Begins the drain: `/readyz` answers 503 `draining` from now on; every request is still served. */
  startDraining(): void;
  /** Ends every open subscription stream (their SSE responses complete) and stops the follower, so the HTTP server can close. */
  endStreams(): Promise<void>;
  /** Releases what the app holds besides the database (streams, the events listener, the Redis connection of the limiter). */
  close(): Promise<void>;
}

function memoGraphiQL(): (opts?: GraphiQLOptions) => string {
  let html: string | undefined;
  return (opts) => (html ??= renderGraphiQL(opts));
}

/**
 * The read memo of the services, emptied at every data version bump. Kept with response caching
 * off too: like the ETags, it relies on the data version only, and holds a few short lists.
 */
function readMemo(version: DataVersion): ReadMemo {
  const memo = createReadMemo();
  version.onChange(() => memo.clear());
  return memo;
}

/**
 * Builds the Yoga server with the REST adapter mounted on it. Reads the database's time zone names
 * first: `tz` accepts only names both it and Intl know.
 */
export async function createApp(opts: AppOptions): Promise<App> {
  const logger = opts.logger ?? createLogger(opts.config);
  const { config } = opts;
  const version = createDataVersion();
  restrictTimeZones(await readTimeZoneNames(opts.db));
  const deps: ServiceDeps = {
    db: opts.db,
    catalogue: await readCatalogue(opts.db),
    now: opts.now ?? Date.now,
    memo: readMemo(version),
  };
  const routes = docsRoutes(REST_PREFIX, buildOpenApi(ENDPOINTS, EXPORTS));
  const policy = useOperationPolicy(config, schema, dashboardOperationsFile(opts.dashboardDir));
  const limiter = createRateLimiter(config, { logger });
  const metrics = createMetrics();
  if (opts.db.pool) registerPoolMetrics(metrics, opts.db.pool);
  const live = await startLiveEvents({
    db: opts.db,
    limiter,
    perClient: config.SUBSCRIPTIONS_PER_CLIENT,
    logger,
    version,
    purge: instancePurger(config.CACHE_PURGE_URL, (line) => logger.warn(line)),
    catalogue: deps.catalogue,
    onUnknownAreas: (count) => metrics.dataEventAreasDropped(count),
  });
  const restCache = new RestCache({
    version,
    now: deps.now,
    privateOnly: config.API_KEY_REQUIRED,
    store: config.RESPONSE_CACHE,
  });
  const follower = config.INGEST_FOLLOW ? startServerFollower({ config, db: opts.db, logger, ...opts.follower }) : null;
  if (follower) registerIngestMetrics(metrics, follower);
  let draining = false;
  const keys = new ApiKeyAuthenticator(opts.db, { cacheTtlMs: config.API_KEY_CACHE_TTL_MS, logger });
  const yoga = createYoga<Record<string, never>, GraphQLContext>({
    schema: graphqlRateLimit(limiter).rateLimitDirectiveTransformer(schema),
    context: () => ({ deps, live }),
    graphqlEndpoint: GRAPHQL_PATH,
    healthCheckEndpoint: YOGA_HEALTH_CHECK_OFF,
    graphiql: config.GRAPHIQL ? GRAPHIQL_OPTIONS : false,
    renderGraphiQL: memoGraphiQL(),
    landingPage: false,
    cors: false,
    maskedErrors: { maskError: maskError(logger) },
    logging: false,
    maxRequestBodySize: false,
    // Order matters: `onRequest` hooks run in this order and the first to answer ends the request
    // (later ones never see it); `onResponse` hooks run in this order too, each seeing the headers
    // the earlier ones set.
    plugins: [
      // 1. Every request, whoever answers it: CORS first (it answers preflights and must add its
      //    headers to every response), then the request log and metrics, which time and count the
      //    requests the plugins after them answer, and the security headers.
      corsPlugin(parseOrigins(config.CORS_ORIGINS)),
      requestLogPlugin(logger),
      metricsPlugin(metrics, {
        routes: [
          ...ENDPOINTS.map((e) => e.path),
          ...EXPORTS.map((e) => e.path),
          ...routes.keys(),
          GRAPHQL_PATH,
          MCP_PATH,
        ],
      }),
      securityHeadersPlugin(),
      // 2. Probes, then access: health checks are never refused by a key or a rate limit; everything
      //    after accessPlugin (REST, dashboard, GraphQL) is authenticated and rate limited.
      healthPlugin(opts.db, logger, {
        ...(follower ? { follower } : {}),
        events: live.listenerState,
        draining: () => draining,
      }),
      accessPlugin({
        limiter,
        keys,
        requireKey: config.API_KEY_REQUIRED,
        trustProxy: config.TRUST_PROXY_HOPS,
        logger,
        metrics,
        timeoutMs: config.REQUEST_TIMEOUT_MS,
        graphiql: config.GRAPHIQL,
      }),
      // Then the work in flight per client and per instance (after access, which names the client).
      useInflightLimit({
        perClient: config.INFLIGHT_PER_CLIENT,
        perInstance: config.INFLIGHT_PER_INSTANCE,
        idleWriteMs: config.IDLE_WRITE_TIMEOUT_MS,
      }),
      // 3. Routes answered before GraphQL: the exports (streamed, never cached), REST, MCP (/mcp), the
      //    dashboard, then a JSON 404 for any other path
      //    but the GraphQL endpoint.
      exportPlugin({
        deps,
        logger,
        timeoutMs: config.REQUEST_TIMEOUT_MS,
        version,
        limiter,
        policy: { perClient: config.EXPORTS_PER_CLIENT, rowsPerToken: config.EXPORT_ROWS_PER_TOKEN },
      }),
      restPlugin({
        endpoints: ENDPOINTS,
        deps,
        logger,
        routes,
        timeoutMs: config.REQUEST_TIMEOUT_MS,
        cache: restCache,
      }),
      useMcp({
        tools: toolsOf(ENDPOINTS),
        deps,
        thresholds: classificationThresholds(config),
        logger,
        limiter,
        metrics: createMcpMetrics(metrics.registry),
        timeoutMs: config.REQUEST_TIMEOUT_MS,
        allowedOrigins: parseMcpOrigins(config.MCP_ALLOWED_ORIGINS),
        inFlightPerClient: config.MCP_REQUESTS_IN_FLIGHT_PER_CLIENT,
      }),
      dashboardPlugin(opts.dashboardDir),
      notFoundPlugin(GRAPHQL_PATH),
      // 4. GraphQL refusals, before any work they guard: the body's declared size before
      //    requestErrors wraps the body parser (both on onRequestParse), the variables, the
      //    document's size while it is parsed, validation, the operation policy, and the
      //    complexity score, whose onExecute must stop a refused operation before JIT runs it.
      useBodyLimit(),
      useVariableLimits(),
      useParseLimits(),
      useRequestErrors(),
      ...policy,
      useComplexityLimit(),
      // 5. Execution: JIT replaces the execute function, so the time limit, which wraps whatever
      //    execute function is installed, comes after it.
      ...useJit(),
      useTimeLimit(config.REQUEST_TIMEOUT_MS, logger),
      useUnservedStreams(),
      // 6. Responses: JSON bodies for GraphQL refusals without one, cache headers (the error rule
      //    after the GraphQL rule, so that it has the last word on 4xx/5xx), the response cache,
      //    and compression last, so that it sees every header the others set (Vary, ETag, cache-control).
      useRefusalBodies(GRAPHQL_PATH),
      graphqlCacheControlPlugin(config.API_KEY_REQUIRED),
      ...(config.RESPONSE_CACHE ? useGraphqlResponseCache(version, limiter) : []),
      errorCacheControlPlugin(),
      ignoredParametersPlugin(
        new Map([...ENDPOINTS, ...EXPORTS].map((e) => [e.path, [...Object.keys(e.query.shape), 'format']] as const)),
      ),
      compressionPlugin(),
    ],
  });
  const endStreams = async () => {
    await Promise.all([live.close(), follower?.close()]);
  };
  const startDraining = () => void (draining = true);
  return {
    yoga,
    deps,
    logger,
    metrics,
    version,
    startDraining,
    endStreams,
    close: () => endStreams().then(() => limiter.close()),
  };
}
