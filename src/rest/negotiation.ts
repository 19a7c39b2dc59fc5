import { z } from 'zod';
import { boundedMemo } from '../bounded-memo.js';

/** Response formats of the REST endpoints. */
export const FORMATS = ['json', 'csv', 'arrow'] as const;

/** A response format of {@link FORMATS}. */
export type Format = (typeof FORMATS)[number];

/** Media type of each format's 200 response. */
export const MEDIA_TYPES: Readonly<Record<Format, string>> = {
  json: 'application/json',
  csv: 'text/csv',
  arrow: 'application/vnd.apache.arrow.stream',
};

/** The `format` query parameter of every endpoint; omitted, the Accept header decides. */
export const formatParam = z.enum(FORMATS).optional().meta({
  description:
    'Response format: `json` (the envelope), `csv` (RFC 4180, a header row of the JSON field names, nested fields dotted, lists joined with `;`) or `arrow` (Arrow IPC stream, typed columns: UTC millisecond timestamps, float64, int32, bool, utf8, lists, structs); CSV and Arrow carry the meta in X-* response headers. Wins over the Accept header; omitted, Accept decides by q-value (`text/csv`, `application/vnd.apache.arrow.stream`; `*/*` gives JSON). Errors are always JSON.',
});

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
  readonly position: number;
}

function parseRange(text: string, position: number): MediaRange | null {
  const [range = '', ...params] = text.split(';').map((p) => p.trim());
  const [type, subtype] = range.toLowerCase().split('/');
  if (!type || !subtype) return null;
  const qParam = params.find((p) => /^q\s*=/i.test(p));
  const q = qParam === undefined ? 1 : Number(qParam.replace(/^q\s*=\s*/i, ''));
  return Number.isFinite(q) ? { type, subtype, q: Math.min(1, Math.max(0, q)), position } : null;
}

/** How well a range matches a media type: 3 exact, 2 `type/*`, 1 `*\/*`, 0 not at all. */
function specificity(range: MediaRange, mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  if (range.type === type && range.subtype === subtype) return 3;
  if (range.type === type && range.subtype === '*') return 2;
  return range.type === '*' && range.subtype === '*' ? 1 : 0;
}

/**
 * The format an Accept header asks for (RFC 9110 12.5.1): each format takes the q-value of its most
 * specific matching range; the highest q wins, then the more specific match, then the range listed
 * first, then JSON. No header, or nothing acceptable: JSON (errors and defaults stay JSON).
 */
export function negotiateFormat(accept: string | null): Format {
  return accept ? negotiated(accept) : 'json';
}

/** Most distinct Accept headers whose format {@link negotiateFormat} remembers: a client sends the same one each time. */
const REMEMBERED_ACCEPTS = 256;
/** Longest Accept header remembered, characters. */
const REMEMBERED_ACCEPT_CHARS = 512;
const negotiated = boundedMemo(
  REMEMBERED_ACCEPTS,
  formatOfAccept,
  (accept) => accept.length <= REMEMBERED_ACCEPT_CHARS,
);

function formatOfAccept(accept: string): Format {
  const ranges = accept
    .split(',')
    .map((r, i) => parseRange(r, i))
    .filter((r): r is MediaRange => r !== null);
  const scored = FORMATS.map((format) => {
    const best = ranges
      .map((r) => ({ r, s: specificity(r, MEDIA_TYPES[format]) }))
      .filter((m) => m.s > 0)
      .sort((a, b) => b.s - a.s)[0];
    return { format, q: best?.r.q ?? 0, s: best?.s ?? 0, position: best?.r.position ?? Infinity };
  }).filter((c) => c.q > 0);
  scored.sort((a, b) => b.q - a.q || b.s - a.s || a.position - b.position);
  return scored[0]?.format ?? 'json';
}

/**
 * The Vary of a REST representation: it is chosen by Accept, and JSON and CSV are compressed by
 * Accept-Encoding (Arrow is sent as is). Set once, on the 200 and on the 304 that stands for it.
 */
export function varyOf(format: Format): string {
  return format === 'arrow' ? 'Accept' : 'Accept, Accept-Encoding';
}
