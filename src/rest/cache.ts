/**
 * HTTP caching of REST responses: strong ETags that hash the representation (its headers and body
 * bytes), so every instance and every restart tags the same answer alike and changed data gets a new
 * tag; 304 for a matching If-None-Match, Cache-Control by range, and a server-side cache of response
 * bodies bounded by bytes, keyed on (data version, path, canonical query, representation). A streamed
 * body is read to its end before its headers go, to be tagged (then sent in the pieces it was made
 * of); one that outgrows RESPONSE_CACHE.maxTaggedBytes goes on streaming without an ETag. Bodies
 * under the entry cap are kept.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import type { TimeRange } from '../domain/time.js';
import type { DataVersion } from '../events/version.js';
import { cacheControlOf, ifNoneMatchTags, isForCaller, maxAgeSeconds } from '../http/cache-control.js';
import { type Coding, codedHeaders, compressWhole, concatBytes, wholeBodyCoding } from '../http/compression.js';
import { addVary } from '../http/vary.js';
import { RESPONSE_CACHE } from '../limits.js';
import { API_KEY_HEADER } from '../http/headers.js';
import type { Format } from './negotiation.js';

/**
 * A cached response: its body (uncompressed; hits send these bytes themselves: read only), the
 * headers it was sent with but Cache-Control (public or private by the request), its max-age, and
 * the body compressed per coding once a client asked for it.
 */
interface Entry {
  readonly body: Uint8Array<ArrayBuffer>;
  readonly headers: readonly (readonly [string, string])[];
  /** Seconds. */
  readonly maxAge: number;
  readonly etag: string;
  readonly coded: Partial<Record<Coding, Promise<Uint8Array<ArrayBuffer>>>>;
}

/** What caching needs to know of a request. */
export interface CacheRequest {
  readonly path: string;
  readonly query: z.ZodObject;
  readonly url: URL;
  readonly request: Request;
  /** The representation asked for (see `representation`). */
  readonly format: Format;
  /**
   * The Response class of the server's fetch API: its byte and text bodies go to the socket as they
   * are. It adds to the headers object it is given, so it is given copies.
   */
  readonly responseClass: typeof Response;
}

/** A response and the resolved range its Cache-Control depends on. */
export interface ServedResponse {
  readonly response: Response;
  readonly range: TimeRange | null;
  /** The whole body as text, when the response is not streamed: kept and sent without a stream. */
  readonly text?: string;
}

/** Options of {@link RestCache}. */
export interface RestCacheOptions {
  readonly version: DataVersion;
  /** The server clock, ms since epoch. */
  readonly now: () => number;
  /** API keys are required: `Cache-Control: private` (as for any request that sends a key). */
  readonly privateOnly: boolean;
  /** Keep bodies server-side (RESPONSE_CACHE); without it only ETags, 304s and Cache-Control. Default true. */
  readonly store?: boolean;
  readonly maxBytes?: number;
  readonly maxEntryBytes?: number;
  /** Bodies up to this size get an ETag (RESPONSE_CACHE.maxTaggedBytes), bytes. */
  readonly maxTaggedBytes?: number;
}

/** The declared parameters of a query string, sorted by name, values in their order: equal for equivalent URLs. */
export function canonicalQuery(schema: z.ZodObject, params: URLSearchParams): string {
  const names = Object.keys(schema.shape)
    .filter((n) => params.has(n))
    .sort();
  return new URLSearchParams(names.flatMap((n) => params.getAll(n).map((v) => [n, v]))).toString();
}

/** Whether the request's range depends on the clock (`now…` or a defaulted bound). */
export function isRelative(schema: z.ZodObject, params: URLSearchParams): boolean {
  return ['datetime_from', 'datetime_to'].some((p) => {
    if (!(p in schema.shape)) return false;
    const value = params.get(p)?.trim() ?? '';
    return value === '' || /^now/i.test(value);
  });
}

/** Whether an If-None-Match header matches `etag` (weak comparison, `*`, lists; coding suffixes ignored). */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  return ifNoneMatchTags(header).some((tag) => tag === '*' || tag === etag);
}

const utf8 = new TextEncoder();

/** A strong entity-tag of a representation: a hash of its headers (in order) and body bytes. */
export function representationTag(headers: readonly (readonly [string, string])[], body: Iterable<Uint8Array>): string {
  const hash = createHash('sha256').update(`${JSON.stringify(headers)}\n`);
  for (const chunk of body) hash.update(chunk);
  return `"${hash.digest('base64url').slice(0, 27)}"`;
}

/** The first chunks of a body: all of them when `done`, else those read until they outgrew the cap. */
interface BodyStart {
  readonly chunks: readonly Uint8Array[];
  readonly size: number;
  readonly done: boolean;
  readonly reader: ReadableStreamDefaultReader<Uint8Array>;
}

/** Reads `body` to its end unless it outgrows `cap` bytes. */
export async function readUpTo(body: ReadableStream<Uint8Array>, cap: number): Promise<BodyStart> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) return { chunks, size, done: true, reader };
    chunks.push(next.value);
    size += next.value.byteLength;
    if (size > cap) return { chunks, size, done: false, reader };
  }
}

/** The body again, chunk by chunk as it was read (so compression and clients still get pieces), then the unread rest. */
function replay(start: BodyStart): ReadableStream<Uint8Array> {
  const chunks = [...start.chunks];
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = chunks.shift() ?? (start.done ? undefined : (await start.reader.read()).value);
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
    cancel: (reason) => start.reader.cancel(reason),
  });
}

const notModified = (headers: Iterable<readonly [string, string]>): Response => {
  const keep = ['etag', 'cache-control', 'vary'];
  return new Response(null, {
    status: 304,
    headers: [...headers].filter(([k]) => keep.includes(k)) as [string, string][],
  });
};

/**
 * A 200 of a whole body: compressed when the client accepts br or gzip (compressed once per entry
 * and coding, off the main thread; the bytes as they are if that fails), else the bytes as they
 * are. New header lists each time: the server's Response adds to the headers it is given.
 */
async function whole(req: CacheRequest, entry: Entry, cacheControl: string): Promise<Response> {
  const headers = [...entry.headers, ['cache-control', cacheControl] as const];
  const identity = () =>
    new req.responseClass(entry.body, { status: 200, headers: headers.map(([k, v]) => [k, v] as [string, string]) });
  const coding = wholeBodyCoding(req.request, headers, entry.body.byteLength);
  if (!coding) return identity();
  const pending = (entry.coded[coding] ??= compressWhole(entry.body, coding));
  try {
    return new req.responseClass(await pending, { status: 200, headers: codedHeaders(headers, coding) });
  } catch {
    if (entry.coded[coding] === pending) delete entry.coded[coding];
    return identity();
  }
}

/** The REST response cache of one app. */
export class RestCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly maxEntryBytes: number;

  constructor(private readonly opts: RestCacheOptions) {
    this.maxEntryBytes = opts.maxEntryBytes ?? RESPONSE_CACHE.maxEntryBytes;
    this.entries = new LRUCache<string, Entry>({
      maxSize: opts.maxBytes ?? RESPONSE_CACHE.maxBytes,
      sizeCalculation: (e) => Math.max(1, e.body.byteLength),
    });
    opts.version.onChange(() => this.entries.clear());
  }

  /** Cached bodies, bytes. */
  get size(): number {
    return this.entries.calculatedSize;
  }

  /**
   * Answers from the cache (200, or 304 for a matching If-None-Match); on a miss, runs `serve` and
   * sends its response with ETag and Cache-Control (304 when the ETag matches), keeping its body.
   */
  async respond(req: CacheRequest, serve: () => Promise<ServedResponse>): Promise<Response> {
    const version = this.opts.version.current;
    const relative = isRelative(req.query, req.url.searchParams);
    const keyParts = [version, req.path, canonicalQuery(req.query, req.url.searchParams), req.format];
    const key = JSON.stringify(keyParts);
    const hit = this.opts.store === false ? undefined : this.entries.get(key);
    const ifNoneMatch = req.request.headers.get('if-none-match');
    const privateOnly = isForCaller(req.request, this.opts.privateOnly);
    if (hit) {
      const cacheControl = cacheControlOf(hit.maxAge, privateOnly);
      return matchesIfNoneMatch(ifNoneMatch, hit.etag)
        ? notModified([...hit.headers, ['cache-control', cacheControl]])
        : whole(req, hit, cacheControl);
    }
    const { response, range, text } = await serve();
    if (response.status !== 200 || (text === undefined && !response.body)) return response;
    const wholeText = text !== undefined ? utf8.encode(text) : null;
    const start = wholeText
      ? null
      : await readUpTo(response.body!, this.opts.maxTaggedBytes ?? RESPONSE_CACHE.maxTaggedBytes);
    const maxAge = maxAgeSeconds({ range, nowMs: this.opts.now(), relative });
    const cacheControl = cacheControlOf(maxAge, privateOnly);
    addVary(response.headers, API_KEY_HEADER);
    if (start && !start.done) {
      response.headers.set('cache-control', cacheControl);
      return new Response(replay(start), { status: 200, headers: response.headers });
    }
    const etag = representationTag([...response.headers], wholeText ? [wholeText] : start!.chunks);
    response.headers.set('etag', etag);
    const headers = [...response.headers];
    response.headers.set('cache-control', cacheControl);
    if (matchesIfNoneMatch(ifNoneMatch, etag)) return notModified(response.headers);
    const size = wholeText?.byteLength ?? start!.size;
    const keep = this.opts.store !== false && this.opts.version.current === version && size <= this.maxEntryBytes;
    const entryOf = (body: Uint8Array<ArrayBuffer>): Entry => ({ body, etag, headers, maxAge, coded: {} });
    const entry = wholeText ? entryOf(wholeText) : keep ? entryOf(concatBytes(start!.chunks, size)) : null;
    if (keep && entry) this.entries.set(key, entry, relative ? { ttl: maxAge * 1_000 } : {});
    return start
      ? new Response(replay(start), { status: 200, headers: response.headers })
      : whole(req, entry!, cacheControl);
  }
}
