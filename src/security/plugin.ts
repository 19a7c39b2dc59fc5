import { markArrival, remainingMs, withDeadline } from '../deadline.js';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { AppError } from '../errors.js';
import { errorResponse, json } from '../http/errors.js';
import type { Logger } from '../logger.js';
import { API_KEY_HEADER } from '../http/headers.js';
import type { ApiKeyAuthenticator } from './api-keys.js';
import {
  type AccessContext,
  accessOf,
  addressClient,
  attachAccess,
  clientAddress,
  type ClientIdentity,
  keyClient,
  type RequestAccess,
} from './client.js';
import { rateLimitMessage } from './graphql.js';
import { type LimitDecision, rateLimitHeaders, retryAfterSeconds, type TokenBucketLimiter } from './token-bucket.js';
import {
  GRAPHQL_PATH,
  HEALTH_PATH,
  isDashboardPath,
  METRICS_PATH,
  READY_PATH,
  REST_PREFIX,
  routePath,
} from '../http/paths.js';
import { REQUEST_COST_TOKENS } from '../limits.js';

/** Counters the access layer reports to (see `src/ops/metrics.ts`). */
export interface AccessMetrics {
  rateLimitRejected(surface: 'rest' | 'graphql'): void;
}

/** Options of {@link accessPlugin}. */
export interface AccessPluginOptions {
  readonly limiter: TokenBucketLimiter;
  readonly keys: Pick<ApiKeyAuthenticator, 'authenticate'>;
  /** A request without `x-api-key` is answered 401 (documentation pages and the dashboard's page, assets and icon excepted). */
  readonly requireKey: boolean;
  /**
   * Proxies in front of the server whose X-Forwarded-For is trusted: false/0 uses the socket address
   * only, true means 1, n takes the n-th entry from the right.
   */
  readonly trustProxy: boolean | number;
  readonly logger: Logger;
  readonly metrics?: AccessMetrics;
  /** REST prefix whose requests cost one token. Default `/api/v1`. */
  readonly restPrefix?: string;
  /** GraphQL endpoint. Default `/graphql`. */
  readonly graphqlPath?: string;
  /** The request time limit (ms, REQUEST_TIMEOUT_MS), counted from arrival: the key lookup spends from it too. */
  readonly timeoutMs: number;
  /** GraphiQL is served (GRAPHIQL): only then is a bare browser GET of the GraphQL endpoint a public page. */
  readonly graphiql: boolean;
}

/** Paths that are never identified nor charged (probes, scraping); their responses still carry the caller's RateLimit-* headers. */
export const UNMETERED_PATHS: ReadonlySet<string> = new Set([HEALTH_PATH, READY_PATH, METRICS_PATH]);

type PathKind = 'rest' | 'graphql' | 'document' | 'other';

/** Query-string parameters of a GraphQL GET that make it an operation request rather than the GraphiQL page. */
const OPERATION_PARAMS = ['query', 'documentId', 'extensions', 'operationName', 'variables'] as const;

/**
 * What a request is, by what it would execute: only a GET of the GraphQL endpoint asking for HTML
 * with no operation parameter at all is the GraphiQL page, and only while GraphiQL is served; any
 * other request to the endpoint (any method, persisted id, SSE, whatever its Accept) is `graphql`.
 */
function classify(request: Request, url: URL, rest: string, graphql: string, graphiql: boolean): PathKind {
  const path = routePath(url.pathname);
  if (path === `${rest}/openapi.json` || path === `${rest}/docs` || path.startsWith(`${rest}/docs/`)) return 'document';
  if (path === rest || path.startsWith(`${rest}/`)) return 'rest';
  if (isDashboardPath(url.pathname)) return 'document';
  if (path !== graphql) return 'other';
  const page =
    graphiql &&
    request.method === 'GET' &&
    (request.headers.get('accept') ?? '').includes('text/html') &&
    !OPERATION_PARAMS.some((name) => url.searchParams.has(name));
  return page ? 'document' : 'graphql';
}

/** The token of an `Authorization: Bearer <key>` header (MCP clients send keys so), else null. */
function bearerToken(authorization: string | null): string | null {
  const match = authorization === null ? null : /^Bearer[ \t]+(\S+)\s*$/i.exec(authorization);
  return match ? match[1]! : null;
}

/** The challenge of a 401 (RFC 9110 asks for one): the key goes in the {@link API_KEY_HEADER} header. */
const WWW_AUTHENTICATE = `ApiKey header="${API_KEY_HEADER}"`;

/**
 * The body of a refusal: REST's `{"detail": ...}`, or on GraphQL a GraphQL response whose one
 * error carries the code (as GraphQL clients read errors).
 */
function errorBody(kind: PathKind, message: string, code: string, extensions: Record<string, unknown> = {}): unknown {
  return kind === 'graphql' ? { errors: [{ message, extensions: { code, ...extensions } }] } : { detail: message };
}

/**
 * Identifies the client of every request except probes and /metrics, answers 401 for a bad or
 * (with `requireKey`) missing key, takes one token per REST request (documents excepted: the OpenAPI
 * file, the reference page and its assets, the GraphiQL page, the dashboard page, its assets and icon), answers 429 when the bucket is empty,
 * and puts `client` into the GraphQL context for the `@rateLimit` directive. Every response carries
 * RateLimit-Limit / -Remaining / -Reset (and Retry-After on a 429): of the request's decision, else a
 * read of its bucket (its address's bucket for probes, preflights and requests refused before the
 * key was known).
 * A request answered 401 spends one token from its address's bucket, so guessing keys is rate limited
 * too (and gets 429 once that bucket is empty). With `requireKey`, an operation about to run (its
 * parameters parsed) for a request that brought no valid key is refused 401 as well, whatever the
 * request looked like, so no header can make the endpoint execute for an anonymous caller.
 * Install it before the REST plugin.
 */
export function accessPlugin(opts: AccessPluginOptions): Plugin<Partial<AccessContext>> {
  const rest = opts.restPrefix ?? REST_PREFIX;
  const graphql = opts.graphqlPath ?? GRAPHQL_PATH;
  const hops = opts.trustProxy === true ? 1 : opts.trustProxy === false ? 0 : opts.trustProxy;
  const surface = (kind: PathKind) => (kind === 'graphql' ? 'graphql' : 'rest');
  const counted = new WeakSet<RequestAccess>();

  const refuse = (access: RequestAccess, kind: PathKind): Response => {
    opts.metrics?.rateLimitRejected(surface(kind));
    counted.add(access);
    const decision = access.decision as LimitDecision;
    const retryAfter = retryAfterSeconds(decision);
    return json(
      errorBody(kind, rateLimitMessage(retryAfter), 'RATE_LIMITED', { retryAfter }),
      429,
      rateLimitHeaders(decision),
    );
  };

  const reject401 = async (request: Request, address: string, kind: PathKind, err: AppError): Promise<Response> => {
    const access: RequestAccess = { client: addressClient(address) };
    attachAccess(request, access);
    access.decision = await opts.limiter.consume(access.client.id, REQUEST_COST_TOKENS);
    if (!access.decision.allowed) return refuse(access, kind);
    return json(errorBody(kind, err.message, 'UNAUTHENTICATED'), 401, {
      ...rateLimitHeaders(access.decision),
      'WWW-Authenticate': WWW_AUTHENTICATE,
    });
  };

  const identify = async (request: Request, address: string, kind: PathKind): Promise<ClientIdentity | AppError> => {
    const header = request.headers.get(API_KEY_HEADER) ?? bearerToken(request.headers.get('authorization'));
    if (kind === 'document' || header === null) {
      if (opts.requireKey && kind !== 'document')
        return new AppError('UNAUTHENTICATED', `Missing API key: send it in the ${API_KEY_HEADER} header`);
      return addressClient(address);
    }
    try {
      const keyId = await withDeadline(
        remainingMs(request, opts.timeoutMs),
        request.signal,
        () => opts.keys.authenticate(header),
        opts.timeoutMs,
      );
      return keyClient(keyId, address);
    } catch (err) {
      if (err instanceof AppError && err.code === 'UNAUTHENTICATED') return err;
      throw err;
    }
  };

  const handle = async (request: Request, url: URL, serverContext: unknown): Promise<Response | undefined> => {
    const kind = classify(request, url, rest, graphql, opts.graphiql);
    const address = clientAddress(serverContext, request.headers.get('x-forwarded-for'), hops);
    const client = await identify(request, address, kind);
    if (client instanceof AppError) return reject401(request, address, kind, client);
    const access: RequestAccess = { client };
    attachAccess(request, access);
    if (kind !== 'rest') return undefined;
    access.decision = await opts.limiter.consume(client.id, REQUEST_COST_TOKENS);
    return access.decision.allowed ? undefined : refuse(access, kind);
  };

  return {
    onRequest({ request, url, serverContext, endResponse }) {
      markArrival(request);
      if (UNMETERED_PATHS.has(routePath(url.pathname)) || request.method === 'OPTIONS') return;
      return handle(request, url, serverContext).then(
        (response) => response && endResponse(response),
        (err: unknown) => endResponse(errorResponse(err, opts.logger)),
      );
    },
    onParams({ request }) {
      if (opts.requireKey && accessOf(request)?.client.keyId == null)
        throw createGraphQLError(`Missing API key: send it in the ${API_KEY_HEADER} header`, {
          extensions: {
            code: 'UNAUTHENTICATED',
            http: { status: 401, headers: { 'WWW-Authenticate': WWW_AUTHENTICATE } },
          },
        });
    },
    onContextBuilding({ context, extendContext }) {
      const access = context.request ? accessOf(context.request) : undefined;
      if (access) extendContext({ client: access.client });
    },
    onResponse({ request, response, serverContext }) {
      const access = accessOf(request) ?? {
        client: addressClient(clientAddress(serverContext, request.headers.get('x-forwarded-for'), hops)),
      };
      if (access.decision && !access.decision.allowed && !counted.has(access))
        opts.metrics?.rateLimitRejected('graphql');
      return withHeaders(access, opts.limiter, response).catch((err: unknown) => {
        opts.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'rate limit headers unavailable');
      });
    },
  };
}

/**
 * Sets the RateLimit-* headers from the request's decision, or from a read of its bucket.
 * Retry-After is deleted before it is set: a GraphQL error's `http.headers` may already hold it,
 * and the server's Headers, built from a plain object, would add the lower-case name beside it
 * (two Retry-After fields on the wire) where a delete first rebuilds them case-insensitively.
 */
async function withHeaders(access: RequestAccess, limiter: TokenBucketLimiter, response: Response): Promise<void> {
  const decision = access.decision ?? (await limiter.peek(access.client.id));
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) {
    if (name === 'Retry-After') response.headers.delete(name);
    response.headers.set(name, value);
  }
}
