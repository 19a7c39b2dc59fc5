/**
 * The route a request path names, the one rule every route of the server (health, metrics, REST,
 * documents, GraphQL) matches on: one trailing slash is ignored, so `/healthz/` is `/healthz` and
 * `/api/v1/prices/` is `/api/v1/prices`; `/` stays `/`, and `/healthz//` names no route.
 */
export function routePath(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
}
