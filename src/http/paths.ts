/**
 * The route a request path names, the one rule every route of the server (health, metrics, REST,
 * documents, GraphQL) matches on: one trailing slash is ignored, so `/healthz/` is `/healthz` and
 * `/api/v1/prices/` is `/api/v1/prices`; `/` stays `/`, and `/healthz//` names no route.
 */
export function routePath(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
}

/** Prefix of the REST API. */
export const REST_PREFIX = '/api/v1';
/** The GraphQL endpoint (GraphiQL on a browser GET). */
export const GRAPHQL_PATH = '/graphql';
/** Liveness probe: the process is up. */
export const HEALTH_PATH = '/healthz';
/**
 * Yoga's `healthCheckEndpoint`, chosen so that its built-in check never answers: it matches any
 * request URL ending with the text (by default `/health`, so `/health`, `/x/health` and
 * `/api/v1/prices?zone=/health` got an empty 200), and a serialized URL never ends with a space.
 * The service's probes are {@link HEALTH_PATH} and {@link READY_PATH}; `/health` is a 404 like any
 * unknown path.
 */
export const YOGA_HEALTH_CHECK_OFF = ' ';
/** Readiness probe: the database answers. */
export const READY_PATH = '/readyz';
/** Prometheus metrics. */
export const METRICS_PATH = '/metrics';
/** The OpenAPI document of the REST API. */
export const OPENAPI_PATH = `${REST_PREFIX}/openapi.json`;
/** The REST API reference page (Swagger UI); its assets are served below it. */
export const DOCS_PATH = `${REST_PREFIX}/docs`;
/** The dashboard page. */
export const DASHBOARD_PATH = '/';
/** The persisted-operations manifest of the dashboard's GraphQL documents, beside its bundle (never served). */
export const DASHBOARD_OPERATIONS_FILE = 'persisted-documents.json';
/** Path prefix of the dashboard's assets. */
export const DASHBOARD_ASSET_PREFIX = '/dashboard/';
/** The server icon (the dashboard's SVG), for pages that link none: browsers ask for it by this name. */
export const FAVICON_PATH = '/favicon.ico';

/**
 * The dashboard's page, its assets and the icon: public even when a key is required, since a page
 * cannot send a header before it has run (the page then asks for the key and sends it).
 */
export function isDashboardPath(pathname: string): boolean {
  return (
    pathname === DASHBOARD_PATH ||
    pathname === '/index.html' ||
    pathname === FAVICON_PATH ||
    pathname.startsWith(DASHBOARD_ASSET_PREFIX)
  );
}
