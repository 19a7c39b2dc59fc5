/**
 * Cache-Control of API responses: by the time range they cover (settled history may be kept an
 * hour, recent data a minute), `no-store` for errors, `private` when API keys are required or the
 * request sent one; every answer varies by the key header, so a shared cache keeps the anonymous
 * answer apart from keyed requests.
 */
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { TimeRange } from '../domain/time.js';
import { RESPONSE_CACHE } from '../limits.js';
import { API_KEY_HEADER } from './headers.js';
import { baseEtag, listedEtags } from './compression.js';
import { addVary } from './vary.js';

/** What the Cache-Control of a successful response depends on. */
export interface CachePolicyInput {
  /** The resolved range [from, to), UTC; null for endpoints without one (catalogue). */
  readonly range: TimeRange | null;
  /** The server clock, ms since epoch. */
  readonly nowMs: number;
  /** The request's range is relative to `now`. */
  readonly relative: boolean;
  /** The answer is for one caller (API_KEY_REQUIRED, or the request sent a key): shared caches must not keep it. */
  readonly privateOnly: boolean;
}

/** Whether a range ends more than 48 hours before now: later ingestion rarely corrects it. */
export function isSettled(range: TimeRange | null, nowMs: number, relative: boolean): boolean {
  return !relative && range !== null && range.to.getTime() <= nowMs - RESPONSE_CACHE.settledAfterMs;
}

/** The max-age of a successful response, seconds. */
export function maxAgeSeconds(input: Omit<CachePolicyInput, 'privateOnly'>): number {
  return isSettled(input.range, input.nowMs, input.relative)
    ? RESPONSE_CACHE.settledMaxAgeS
    : RESPONSE_CACHE.recentMaxAgeS;
}

/** The Cache-Control header of a successful response. */
export function cacheControl(input: CachePolicyInput): string {
  return cacheControlOf(maxAgeSeconds(input), input.privateOnly);
}

/** The Cache-Control of a successful response kept `maxAgeS` seconds, by the caller's cache only when `privateOnly`. */
export function cacheControlOf(maxAgeS: number, privateOnly: boolean): string {
  return `${privateOnly ? 'private' : 'public'}, max-age=${maxAgeS}`;
}

/** Whether an answer to `request` is for its caller only: keys are required, or it sent one. */
export function isForCaller(request: Request, keysRequired: boolean): boolean {
  return keysRequired || request.headers.has(API_KEY_HEADER);
}

/** Cache-Control of error responses. */
export const ERROR_CACHE_CONTROL = 'no-store';

/** Sets `Cache-Control: no-store` on every error response (status 400 and above). */
export function errorCacheControlPlugin(): Plugin {
  return {
    onResponse({ response }) {
      if (response.status >= 400) response.headers.set('cache-control', ERROR_CACHE_CONTROL);
    },
  };
}

/**
 * Cache-Control and Vary of GraphQL answers, by REST's rules: a GET answered with data and no
 * errors is `public` (`private` when keys are required or the request sent one) for the recent
 * max-age (the answer does not report the ranges its fields read, so it is never taken as settled);
 * an answer with errors, a batch, a stream, and every POST answer are `no-store`. Each varies by
 * Accept (it picks the media type), Accept-Encoding (its 304 too: JSON is compressed) and the key
 * header. Install it before the response cache's
 * plugins, so that their 304 carries what the 200 would.
 */
export function graphqlCacheControlPlugin(keysRequired: boolean): Plugin {
  const cacheable = new WeakMap<Request, boolean>();
  return {
    onResultProcess({ request, result }) {
      const single = !isAsyncIterable(result) && !Array.isArray(result);
      cacheable.set(request, single && !result.errors?.length && request.method === 'GET');
    },
    onResponse({ request, response }) {
      const readable = cacheable.get(request);
      if (readable === undefined) return;
      addVary(response.headers, 'Accept', 'Accept-Encoding', API_KEY_HEADER);
      const keep = readable && response.status === 200;
      response.headers.set(
        'cache-control',
        keep ? cacheControlOf(RESPONSE_CACHE.recentMaxAgeS, isForCaller(request, keysRequired)) : ERROR_CACHE_CONTROL,
      );
    },
  };
}

/**
 * The entity-tags of an If-None-Match header compared weakly (RFC 9110 13.1.2): `W/` dropped, and the
 * coding suffix {@link baseEtag} strips, so each reads as the strong tag of the uncoded
 * representation (`"x"`); `*` stays `*`. Unquoted items are kept as given.
 */
export function ifNoneMatchTags(header: string | null): string[] {
  return listedEtags(header).map((t) => (t === '*' ? t : baseEtag(t)));
}
