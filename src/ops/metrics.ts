import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ERROR_STATUS } from '../errors.js';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AccessMetrics } from '../security/plugin.js';
import { GRAPHQL_PATH, HEALTH_PATH, METRICS_PATH, READY_PATH, routePath } from '../http/paths.js';

/** Latency buckets in seconds, up to the 30 s request timeout. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Distinct GraphQL operation names tracked; later names share the label `other` (clients choose names). */
const MAX_OPERATION_NAMES = 200;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']);

/** The service metrics, in a registry of their own (one per app, so tests can build several). */
export interface ServiceMetrics extends AccessMetrics {
  readonly registry: Registry;
  /** Records one finished HTTP request (latency only when known). */
  observeRequest(method: string, route: string, status: number, seconds: number | undefined): void;
  /** Records one executed GraphQL operation. */
  observeOperation(operation: string, type: string, seconds: number): void;
  /** Counts areas of data-event notifications dropped as not in the catalogue. */
  dataEventAreasDropped(count: number): void;
}

let processMetrics: Registry | undefined;

/**
 * prom-client's process metrics (CPU, memory, event loop), made once per process: each set starts an
 * event-loop delay monitor that nothing stops, so apps built one after another in one process (tests)
 * share the one set.
 */
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

/** Builds the metrics; `defaultMetrics` adds prom-client's process metrics (CPU, memory, event loop). */
export function createMetrics(opts: { defaultMetrics?: boolean } = {}): ServiceMetrics {
  const registry = new Registry();
  if (opts.defaultMetrics ?? true) {
    const shared = processRegistry();
    for (const { name } of shared.getMetricsAsArray()) {
      const metric = shared.getSingleMetric(name);
      if (metric) registry.registerMetric(metric);
    }
  }
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const rejections = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused by the rate limit (429).',
    labelNames: ['surface'],
    registers: [registry],
  });
  const operations = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'GraphQL execution time by operation name.',
    labelNames: ['operation', 'type'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const unknownAreas = new Counter({
    name: 'data_event_unknown_areas_total',
    help: 'Areas of data-event notifications dropped as not in the catalogue (anyone may NOTIFY).',
    registers: [registry],
  });
  const closed = new Counter({
    name: 'http_client_closed_total',
    help: 'Requests whose client left before the answer was ready (status 499, not a server error).',
    labelNames: ['route'],
    registers: [registry],
  });
  const names = new Set<string>();
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      const labels = { method: METHODS.has(method) ? method : 'other', route, status: String(status) };
      requests.inc(labels);
      if (status === ERROR_STATUS.CLIENT_CLOSED) closed.inc({ route });
      if (seconds !== undefined) latency.observe(labels, seconds);
    },
    rateLimitRejected(surface) {
      rejections.inc({ surface });
    },
    observeOperation(operation, type, seconds) {
      if (!names.has(operation) && names.size < MAX_OPERATION_NAMES) names.add(operation);
      operations.observe({ operation: names.has(operation) ? operation : 'other', type }, seconds);
    },
    dataEventAreasDropped(count) {
      unknownAreas.inc(count);
    },
  };
}

/** The counters of a connection pool, as node-postgres' `pg.Pool` exposes them. */
export interface PoolCounters {
  /** Connections open. */
  readonly totalCount: number;
  /** Connections open and idle. */
  readonly idleCount: number;
  /** Requests waiting for a connection. */
  readonly waitingCount: number;
  readonly options: { readonly max?: number };
}

/**
 * Adds the database pool gauges, read at scrape time: `db_pool_connections{state}` (open, idle,
 * in use) and `db_pool_waiting_requests` (queries queued for a connection), plus `db_pool_max`.
 * The embedded database has no pool (one in-process connection) and exposes none of them.
 */
export function registerPoolMetrics(metrics: ServiceMetrics, pool: PoolCounters): void {
  const registers = [metrics.registry];
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database connections by state (open = idle + in use).',
    labelNames: ['state'],
    registers,
    collect() {
      this.set({ state: 'open' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Queries waiting for a free database connection.',
    registers,
    collect() {
      this.set(pool.waitingCount);
    },
  });
  new Gauge({
    name: 'db_pool_max',
    help: 'Configured maximum of database connections (DATABASE_POOL_SIZE).',
    registers,
    collect() {
      this.set(pool.options.max ?? 10);
    },
  });
}

/**
 * The route label of a path: a known REST route ({@link routePath}), `/graphql`, the probe and
 * metrics paths, else `other` (unknown paths must not create label values).
 */
export function routeLabel(pathname: string, known: ReadonlySet<string>): string {
  const path = routePath(pathname);
  return known.has(path) ? path : 'other';
}

/** Options of {@link metricsPlugin}. */
export interface MetricsPluginOptions {
  /** REST routes (paths) to label by name, e.g. the endpoints' paths and the docs routes. */
  readonly routes: Iterable<string>;
  readonly graphqlPath?: string;
  /** Path of the Prometheus endpoint. Default `/metrics`. */
  readonly path?: string;
}

/**
 * Serves the registry at `/metrics` (Prometheus text format), times every request (count and latency
 * by method, route and status) and every GraphQL execution (by operation name and type).
 * Install it right after the request log: requests answered by earlier plugins (and Yoga's own
 * CORS preflight and GraphiQL page) are counted without a latency.
 */
export function metricsPlugin(metrics: ServiceMetrics, opts: MetricsPluginOptions): Plugin {
  const path = opts.path ?? METRICS_PATH;
  const known = new Set([...opts.routes, opts.graphqlPath ?? GRAPHQL_PATH, HEALTH_PATH, READY_PATH, path]);
  const started = new WeakMap<Request, number>();
  return {
    onRequest({ request, url, endResponse }) {
      started.set(request, performance.now());
      if (routePath(url.pathname) !== path || request.method !== 'GET') return;
      return metrics.registry
        .metrics()
        .then((body) => endResponse(new Response(body, { headers: { 'content-type': metrics.registry.contentType } })));
    },
    onExecute({ args }) {
      const start = performance.now();
      const op = getOperationAST(args.document, args.operationName);
      const name = op?.name?.value ?? args.operationName ?? 'anonymous';
      return {
        onExecuteDone() {
          metrics.observeOperation(name, op?.operation ?? 'unknown', (performance.now() - start) / 1000);
        },
      };
    },
    onResponse({ request, response }) {
      const start = started.get(request);
      const url = new URL(request.url, 'http://localhost');
      const seconds = start === undefined ? undefined : (performance.now() - start) / 1000;
      metrics.observeRequest(request.method, routeLabel(url.pathname, known), response.status, seconds);
    },
  };
}
