/**
 * Cache-Control of API responses: by the time range they cover (settled history may be kept an
 * hour, recent data a minute), `no-store` for errors, `private` when API keys are required.
 */
import type { Plugin } from 'graphql-yoga';
import type { TimeRange } from '../domain/time.js';
import { RESPONSE_CACHE } from '../limits.js';
import { baseEtag, listedEtags } from './compression.js';

/** What the Cache-Control of a successful response depends on. */
export interface CachePolicyInput {
  /** The resolved range [from, to), UTC; null for endpoints without one (catalogue). */
  readonly range: TimeRange | null;
  /** The server clock, ms since epoch. */
  readonly nowMs: number;
  /** The request's range is relative to `now`. */
  readonly relative: boolean;
  /** Responses depend on the caller's key (API_KEY_REQUIRED): shared caches must not keep them. */
  readonly privateOnly: boolean;
}

/** Whether a range ends more than 48 hours before now: later ingestion rarely corrects it. */
export function isSettled(range: TimeRange | null, nowMs: number, relative: boolean): boolean {
  return !relative && range !== null && range.to.getTime() <= nowMs - RESPONSE_CACHE.settledAfterMs;
}

/** The max-age of a successful response, seconds. */
export function maxAgeSeconds(input: Omit<CachePolicyInput, 'privateOnly'>): number {
  return isSettled(input.range, input.nowMs, input.relative) ? RESPONSE_CACHE.settledMaxAgeS : RESPONSE_CACHE.recentMaxAgeS;
}

/** The Cache-Control header of a successful response. */
export function cacheControl(input: CachePolicyInput): string {
  return `${input.privateOnly ? 'private' : 'public'}, max-age=${maxAgeSeconds(input)}`;
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
 * The entity-tags of an If-None-Match header compared weakly (RFC 9110 13.1.2): `W/` dropped, and the
 * coding suffix {@link baseEtag} strips, so each reads as the strong tag of the uncoded
 * representation (`"x"`); `*` stays `*`. Unquoted items are kept as given.
 */
export function ifNoneMatchTags(header: string | null): string[] {
  return listedEtags(header).map((t) => (t === '*' ? t : baseEtag(t)));
}

/** An opaque tag as a strong entity-tag: quoted (`"x"`); a tag already quoted or weak is left as is. */
export function quotedEtag(tag: string): string {
  return /^(W\/)?"[^"]*"$/.test(tag) ? tag : `"${tag.replace(/"/g, '')}"`;
}
