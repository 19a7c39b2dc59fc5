/**
 * The GraphQL response cache: results of queries kept per data version (emptied when an ingestion
 * window commits), at most a minute (ranges relative to `now` move), so a repeated dashboard query
 * runs no SQL. Subscriptions are never cached. A cached answer still costs the caller the tokens of
 * a request, since the `@rateLimit` resolvers do not run.
 */
import { createInMemoryCache, type Cache, useResponseCache } from '@graphql-yoga/plugin-response-cache';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { DataVersion } from '../events/version.js';
import { RESPONSE_CACHE, REQUEST_COST_TOKENS } from '../limits.js';
import { accessOf, recordDecision } from '../security/client.js';
import { rateLimitMessage } from '../security/graphql.js';
import { retryAfterSeconds, type TokenBucketLimiter } from '../security/token-bucket.js';

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

/** Takes a request's tokens for results served from the cache; a refusal becomes the usual 429 error. */
function cachedHitsCost(limiter: TokenBucketLimiter): Plugin {
  return {
    async onResultProcess({ request, result, setResult }) {
      if (typeof result !== 'object' || result === null || !(SERVED_FROM_CACHE in result)) return;
      const access = accessOf(request);
      if (!access) return;
      const decision = await limiter.consume(access.client.id, REQUEST_COST_TOKENS);
      recordDecision(access.client, decision);
      if (decision.allowed) return;
      const retryAfter = retryAfterSeconds(decision);
      const extensions = { code: 'RATE_LIMITED', retryAfter, http: { status: 429, headers: { 'Retry-After': String(retryAfter) } } };
      setResult({ errors: [new GraphQLError(rateLimitMessage(retryAfter), { extensions })] });
    },
  };
}

/** The response cache plugins, keyed on the data version; install them after the access plugin. */
export function graphqlResponseCachePlugins(version: DataVersion, limiter: TokenBucketLimiter): Plugin[] {
  return [
    useResponseCache({
      session: () => `v${version.current}`,
      cache: versionedCache(version),
      ttl: RESPONSE_CACHE.recentMaxAgeS * 1_000,
    }) as Plugin,
    cachedHitsCost(limiter),
  ];
}
