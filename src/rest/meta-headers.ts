import { META_HEADERS } from '../http/headers.js';
import type { WireMeta } from './schemas.js';

/** Header-safe text: characters outside printable ASCII percent-encoded. */
const headerText = (text: string): string => text.replace(/[^\x20-\x7e]/g, (c) => encodeURIComponent(c));

/**
 * The meta as response headers: provenance, sources (comma-separated), resolved range (UTC without
 * offset, as meta writes it), applied resolution, the time zone under `tz`; on paged endpoints total, limit, offset, next offset
 * and a `Link` to the next page (this URL with `offset` replaced). A null meta value has no header.
 */
export function metaHeaders(meta: WireMeta, url: URL): Record<string, string> {
  const headers: Record<string, string> = { [META_HEADERS.provenance]: meta.provenance };
  if (meta.upstream_sources) headers[META_HEADERS.upstreamSources] = headerText(meta.upstream_sources.join(', '));
  if (meta.resolved_datetime_from) headers[META_HEADERS.from] = meta.resolved_datetime_from;
  if (meta.resolved_datetime_to) headers[META_HEADERS.to] = meta.resolved_datetime_to;
  if (meta.resolution) headers[META_HEADERS.resolution] = meta.resolution;
  if (meta.time_zone) headers[META_HEADERS.timeZone] = meta.time_zone;
  const page = meta.pagination;
  if (page) {
    headers[META_HEADERS.total] = String(page.total);
    headers[META_HEADERS.limit] = String(page.limit);
    headers[META_HEADERS.offset] = String(page.offset);
    if (page.next_offset !== null) {
      headers[META_HEADERS.nextOffset] = String(page.next_offset);
      const next = new URLSearchParams(url.searchParams);
      next.set('offset', String(page.next_offset));
      headers.link = `<${url.pathname}?${next.toString()}>; rel="next"`;
    }
  }
  return headers;
}
