/**
 * The GraphQL response cache: results of queries kept per data version (emptied when an ingestion
 * window commits), at most a minute (ranges relative to `now` move), so a repeated dashboard query
 * runs no SQL. Subscriptions are never cached. A cached answer costs the caller what the miss cost,
 * the `@rateLimit` cost of each root field it selects (see operationCost), though its resolvers do not run.
 */
import { hash as digest } from 'node:crypto';
import { createInMemoryCache, type Cache, useResponseCache } from '@graphql-yoga/plugin-response-cache';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { DataVersion } from '../../events/version.js';
import { ifNoneMatchTags } from '../../http/cache-control.js';
import { RESPONSE_CACHE, REQUEST_COST_TOKENS } from '../../limits.js';
import { accessOf, recordDecision } from '../../security/client.js';
import { operationCost, rateLimitMessage } from '../../security/graphql.js';
import { retryAfterSeconds, type TokenBucketLimiter } from '../../security/token-bucket.js';

/** A cache whose entries all go when the data version moves. */
function versionedCache(version: DataVersion): Cache {
  const fresh = () => createInMemoryCache({ max: RESPONSE_CACHE.graphqlEntries });
  let inner = fresh();
  version.onChange(() => (inner = fresh()));
  return {
    get: (key) => inner.get(key),
    set: (key, value, entities, ttl) => inner.set(key, value, entities, ttl),
    invalidate: (entities) => inner.invalidate(entities),
  };
}

const SERVED_FROM_CACHE = Symbol.for('servedFromResponseCache');

/** Most operation costs remembered; the memo is emptied when it grows past this. */
const MAX_REMEMBERED_COSTS = 10_000;

/**
 * The `@rateLimit` cost of the operations this instance executed, by what the response cache keys
 * them on (document text or persisted id, operation name, variables), so that a hit, answered before
 * its document is parsed, is charged what its miss spent.
 */
interface OperationCosts {
  readonly keyOf: WeakMap<Request, string>;
  readonly byKey: Map<string, number>;
}

/** Records the key of each request's operation, and its `@rateLimit` cost when it executes; install it before the response cache. */
function operationCosts(limiter: TokenBucketLimiter, costs: OperationCosts): Plugin {
  return {
    onParams({ request, params }) {
      costs.keyOf.set(
        request,
        JSON.stringify([params.query ?? '', params.operationName ?? null, params.variables ?? null]),
      );
    },
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request } | undefined)?.request;
      const key = request && costs.keyOf.get(request);
      if (key === undefined) return;
      const variables = args.variableValues as Record<string, unknown> | null | undefined;
      if (costs.byKey.size >= MAX_REMEMBERED_COSTS) costs.byKey.clear();
      costs.byKey.set(key, operationCost(args.schema, args.document, args.operationName, variables, limiter));
    },
  };
}

/**
 * Takes a request's tokens for results served from the cache, as many as the miss spent (at least
 * one request's); a refusal becomes the usual 429 error.
 */
function cachedHitsCost(limiter: TokenBucketLimiter, costs: OperationCosts): Plugin {
  return {
    async onResultProcess({ request, result, setResult }) {
      if (typeof result !== 'object' || result === null || !(SERVED_FROM_CACHE in result)) return;
      const access = accessOf(request);
      if (!access) return;
      const key = costs.keyOf.get(request);
      const spent = key === undefined ? undefined : costs.byKey.get(key);
      const cost = Math.min(limiter.capacity, Math.max(REQUEST_COST_TOKENS, spent ?? 0));
      const decision = await limiter.consume(access.client.id, cost);
      recordDecision(access.client, decision);
      if (decision.allowed) return;
      const retryAfter = retryAfterSeconds(decision);
      const extensions = {
        code: 'RATE_LIMITED',
        retryAfter,
        http: { status: 429, headers: { 'Retry-After': String(retryAfter) } },
      };
      setResult({ errors: [new GraphQLError(rateLimitMessage(retryAfter), { extensions })] });
    },
  };
}

/** A strong entity-tag of a result: a hash of its data and errors, alike on every instance and after restarts. */
export function resultTag(result: { data?: unknown; errors?: unknown }): string {
  return `"${digest('sha256', JSON.stringify([result.data ?? null, result.errors ?? null]), 'base64url').slice(0, 27)}"`;
}

/**
 * RFC 9110 entity-tags of cacheable results in place of the plugin's, which were its cache keys
 * (salted with this process's data version): a hash of the result, set on the miss and on the cached
 * answer, and no Last-Modified (the plugin's was the time it cached the result, not the data's). A
 * 200 whose tag an If-None-Match names (quoted or not, `W/`, in a list, with the coding suffix
 * compression adds) becomes a 304 with that tag: decided on the answer to this very request, once
 * its parameters were read and checked, never on the tag alone. If-Modified-Since is ignored beside
 * If-None-Match (RFC 9110 13.1.3).
 */
function resultEtags(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (typeof result !== 'object' || result === null || !('extensions' in result) || !result.extensions) return;
      const http = result.extensions.http as { headers?: Record<string, string> } | undefined;
      if (http?.headers?.['ETag'] === undefined) return;
      const { ETag: _key, 'Last-Modified': _cachedAt, ...headers } = http.headers;
      const etag = resultTag(result as { data?: unknown; errors?: unknown });
      setResult({
        ...result,
        extensions: { ...result.extensions, http: { ...http, headers: { ...headers, ETag: etag } } },
      });
    },
    onResponse({ request, response, setResponse }) {
      const etag = response.status === 200 ? response.headers.get('etag') : null;
      if (!etag || !ifNoneMatchTags(request.headers.get('if-none-match')).includes(etag)) return;
      const keep = ['etag', 'cache-control', 'vary'];
      setResponse(
        new Response(null, {
          status: 304,
          headers: [...response.headers].filter(([k]) => keep.includes(k.toLowerCase())),
        }),
      );
    },
  };
}

/**
 * Yoga's response cache without its early 304, which answered an If-None-Match naming any cached
 * key before the request's path, parameters or document were read.
 */
function responseCache(options: Parameters<typeof useResponseCache>[0]): Plugin {
  const { onRequest: _earlyNotModified, ...plugin } = useResponseCache(options) as Plugin;
  return plugin;
}

/** The response cache plugins, keyed on the data version; install them after the access plugin. */
export function useGraphqlResponseCache(version: DataVersion, limiter: TokenBucketLimiter): Plugin[] {
  const cache = versionedCache(version);
  const costs: OperationCosts = { keyOf: new WeakMap(), byKey: new Map() };
  return [
    operationCosts(limiter, costs),
    resultEtags(),
    responseCache({
      session: () => `v${version.current}`,
      cache,
      ttl: RESPONSE_CACHE.recentMaxAgeS * 1_000,
    }),
    cachedHitsCost(limiter, costs),
  ];
}
