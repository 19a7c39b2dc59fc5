/**
 * The names of the headers the API defines: the key a client sends, the meta a REST response carries,
 * and which response headers a browser script may read across origins.
 */

/** Header carrying the API key. */
export const API_KEY_HEADER = 'x-api-key';

/** Response headers carrying the meta (CSV has no envelope; JSON responses carry them too). */
export const META_HEADERS = {
  provenance: 'X-Provenance',
  upstreamSources: 'X-Upstream-Sources',
  from: 'X-Resolved-Datetime-From',
  to: 'X-Resolved-Datetime-To',
  resolution: 'X-Resolution',
  timeZone: 'X-Time-Zone',
  total: 'X-Total-Count',
  limit: 'X-Limit',
  offset: 'X-Offset',
  nextOffset: 'X-Next-Offset',
} as const;

/** Headers a browser script may read across origins (Access-Control-Expose-Headers). */
export const EXPOSED_RESPONSE_HEADERS: readonly string[] = [
  ...Object.values(META_HEADERS),
  'Link',
  'Content-Disposition',
  'X-Ignored-Parameters',
  'X-Export-Concurrency-Limit',
  'X-Export-Tokens-Per-Rows',
];
