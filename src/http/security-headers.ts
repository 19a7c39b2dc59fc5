import { getCORSHeadersByRequestAndOptions, useCORS } from '@whatwg-node/server';
import type { CORSOptions, Plugin } from 'graphql-yoga';
import { EXPOSED_RESPONSE_HEADERS } from './headers.js';
import { DASHBOARD_PATH, DOCS_PATH, GRAPHQL_PATH, routePath } from './paths.js';
import { addVary } from './vary.js';

/** CSP of every API response (JSON, the OpenAPI file, assets): nothing may load, nothing may frame. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * CSP of the GraphiQL page: its bundle is inlined (inline scripts and styles), its editor starts web
 * workers from blob: URLs, queries go to this origin.
 */
export const GRAPHIQL_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline' blob:",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** CSP of the Swagger UI page: local script and stylesheet, one inline start-up script, inline styles. */
export const SWAGGER_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/**
 * CSP of the dashboard page (`/`): its script and stylesheet from this origin, no inline script or
 * style, GraphQL requests to this origin only.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Headers every response carries. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/** Options of {@link securityHeadersPlugin}. */
export interface SecurityHeadersOptions {
  readonly graphqlPath?: string;
  /** Path of the Swagger UI page. Default `/api/v1/docs`. */
  readonly docsPath?: string;
}

/** The CSP for a response: relaxed only for the HTML pages (dashboard, GraphiQL, Swagger UI). */
export function contentSecurityPolicy(
  pathname: string,
  contentType: string | null,
  opts: SecurityHeadersOptions = {},
): string {
  if (!(contentType ?? '').includes('text/html')) return API_CSP;
  const path = routePath(pathname);
  if (path === (opts.graphqlPath ?? GRAPHQL_PATH)) return GRAPHIQL_CSP;
  if (path === (opts.docsPath ?? DOCS_PATH)) return SWAGGER_CSP;
  if (path === DASHBOARD_PATH || path === '/index.html') return DASHBOARD_CSP;
  return API_CSP;
}

/** Adds X-Content-Type-Options, Referrer-Policy, X-Frame-Options and a CSP to every response. */
export function securityHeadersPlugin(opts: SecurityHeadersOptions = {}): Plugin {
  return {
    onResponse({ request, response }) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
      const { pathname } = new URL(request.url, 'http://localhost');
      response.headers.set(
        'Content-Security-Policy',
        contentSecurityPolicy(pathname, response.headers.get('content-type'), opts),
      );
    },
  };
}

/** Splits a comma-separated origin list (`*` or empty: any origin). */
export function parseOrigins(value: string): string[] {
  const origins = value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return origins.length === 0 || origins.includes('*') ? ['*'] : origins;
}

/**
 * Yoga's `cors` option for an origin list. `*`: any origin, without credentials (Yoga answers with
 * the caller's origin and `Vary: Origin`, which a browser treats like `*`). A list: only those origins.
 * Credentials are never allowed (keys travel in a header, not cookies). The key header may be sent;
 * the rate limit, meta and Link headers may be read.
 */
export function corsOptions(origins: readonly string[]): Exclude<CORSOptions, false> {
  return {
    origin: origins.includes('*') ? '*' : [...origins],
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    allowedHeaders: ['content-type', 'x-api-key'],
    exposedHeaders: [
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
      ...EXPOSED_RESPONSE_HEADERS,
    ],
    maxAge: 600,
  };
}

/** Methods a browser may use across origins outside the GraphQL endpoint: reads only. */
const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/**
 * Yoga's `cors` option: {@link corsOptions} on the GraphQL endpoint (POST allowed); every other
 * path (REST, probes, documents, the dashboard) allows reads only, so a preflight for a POST there
 * is told GET, HEAD and OPTIONS.
 */
export function corsPolicy(origins: readonly string[]): (request: Request) => CORSOptions {
  const graphql = corsOptions(origins);
  const reads: CORSOptions = { ...graphql, methods: READ_METHODS };
  return (request) => {
    if (!request.headers.has('origin')) return graphql;
    return routePath(new URL(request.url).pathname) === GRAPHQL_PATH ? graphql : reads;
  };
}

/**
 * CORS by {@link corsPolicy} (install it first, with Yoga's own `cors` off): preflights answered as
 * Yoga would, the CORS headers set on every response with the Vary they need merged into the
 * response's own (Yoga's plugin overwrites it). Every response varies by Origin, with or without
 * one: the allow headers are there only for a request that sent it.
 */
export function corsPlugin(origins: readonly string[]): Plugin {
  const policy = corsPolicy(origins);
  const preflight = useCORS(policy);
  return {
    onRequest: preflight.onRequest,
    onResponse({ request, response }) {
      const headers = getCORSHeadersByRequestAndOptions(request, policy(request)) ?? {};
      for (const [name, value] of Object.entries(headers)) {
        if (name.toLowerCase() === 'vary') addVary(response.headers, value);
        else response.headers.set(name, value);
      }
      addVary(response.headers, 'Origin');
    },
  };
}
