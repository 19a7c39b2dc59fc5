/**
 * Response compression negotiated from Accept-Encoding (br, gzip): a body that ends within 256 KiB
 * is compressed whole at the best levels; a longer one is streamed, compressed as it is written at
 * the bulk levels (never held whole; see {@link COMPRESSION}). Bodies under a small threshold, HEAD, 1xx/204/304, event
 * streams and incremental (multipart) responses go out as they are. Bodies already held whole (the
 * REST response cache's) are compressed in one pass by the same rules ({@link wholeBodyCoding}).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'graphql-yoga';
import { COMPRESSION } from '../limits.js';
import { addVary } from './vary.js';

/** A content coding this server writes. */
export type Coding = 'br' | 'gzip';

const PREFERENCE: readonly Coding[] = ['br', 'gzip'];

/**
 * The coding to use for an Accept-Encoding header: the acceptable one (q > 0) with the highest q,
 * br before gzip on ties; `*` stands for any coding not named. Null: send the identity.
 */
export function negotiateCoding(acceptEncoding: string | null): Coding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    if (name) q.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(value) ? value : 0);
  }
  const weight = (c: Coding) => q.get(c) ?? q.get('*') ?? 0;
  let best: Coding | null = null;
  for (const c of PREFERENCE) if (weight(c) > 0 && (best === null || weight(c) > weight(best))) best = c;
  return best;
}

const COMPRESSIBLE =
  /^(text\/(?!event-stream)|application\/(json|graphql-response\+json|javascript|xml|ld\+json|problem\+json)|image\/svg\+xml)/i;

/**
 * Whether a response may be compressed at all (its type, status, method and coding allow it). The
 * body is not read here: a fetch API that keeps a text body as it is creates its stream on access.
 */
export function isCompressible(method: string, response: Response): boolean {
  if (response.status < 200 || response.status === 204 || response.status === 304) return false;
  return headersAllow(method, (name) => response.headers.get(name));
}

/** Whether the method and the headers (content type, no coding yet, no `no-transform`) allow compression. */
function headersAllow(method: string, header: (name: string) => string | null | undefined): boolean {
  if (method === 'HEAD' || header('content-encoding') != null || /no-transform/i.test(header('cache-control') ?? ''))
    return false;
  return COMPRESSIBLE.test(header('content-type') ?? '');
}

const gzipWhole = promisify(zlib.gzip);
const brotliWhole = promisify(zlib.brotliCompress);

/**
 * The coding to send a 200's whole body of `size` bytes with `headers` in: null when the request,
 * the headers or the size call for the identity (the rules of {@link compressionPlugin}).
 */
export function wholeBodyCoding(
  request: Request,
  headers: readonly (readonly [string, string])[],
  size: number,
): Coding | null {
  const header = (name: string) => headers.find(([k]) => k === name)?.[1];
  if (size < COMPRESSION.thresholdBytes || !headersAllow(request.method, header)) return null;
  return negotiateCoding(request.headers.get('accept-encoding'));
}

/**
 * A whole body compressed in one pass off the main thread, at the levels of the streamed path, in
 * a buffer of its own size (zlib's output can be a view of a larger or pooled buffer).
 */
export async function compressWhole(body: Uint8Array, coding: Coding): Promise<Uint8Array<ArrayBuffer>> {
  const out =
    coding === 'gzip'
      ? await gzipWhole(body, { level: COMPRESSION.gzipLevel })
      : await brotliWhole(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
          },
        });
  return new Uint8Array(out);
}

/**
 * The headers of a body compressed for `coding`: Content-Encoding, the coded ETag, Vary on
 * Accept-Encoding, and no Content-Length (the response computes its own). A new list each call.
 */
export function codedHeaders(headers: Iterable<readonly [string, string]>, coding: Coding): [string, string][] {
  const out = new Headers();
  for (const [k, v] of headers) out.append(k, v);
  out.delete('content-length');
  out.set('content-encoding', coding);
  const etag = codedEtag(out.get('etag'), coding);
  if (etag) out.set('etag', etag);
  addVary(out, 'Accept-Encoding');
  return [...out];
}

/** A streaming compressor for `coding` at the bulk levels of long bodies. */
function compressor(coding: Coding): zlib.Gzip | zlib.BrotliCompress {
  if (coding === 'gzip') return zlib.createGzip({ level: COMPRESSION.gzipBulkLevel });
  return zlib.createBrotliCompress({
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliBulkQuality },
  });
}

/**
 * A transform over a zlib stream that takes the next input chunk only once the previous one is
 * compressed and the reader wants more: the source is read at the pace of the client. The
 * compressor is flushed every {@link COMPRESSION}.flushEveryBytes of input, so bytes leave while
 * a long body is still being written (brotli would otherwise hold megabytes).
 */
function zlibTransform(z: zlib.Gzip | zlib.BrotliCompress, flushKind: number): TransformStream<Uint8Array, Uint8Array> {
  let pending = 0;
  const write = (chunk: Uint8Array) =>
    new Promise<void>((resolve, reject) => z.write(chunk, (err) => (err ? reject(err) : resolve())));
  return new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      const stop = (err?: Error) => {
        z.destroy();
        if (err) controller.error(err);
      };
      z.on('data', (d: Buffer) => {
        try {
          controller.enqueue(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
        } catch {
          stop();
        }
      });
      z.on('error', (err) => {
        try {
          stop(err);
        } catch {
          z.destroy();
        }
      });
    },
    async transform(chunk) {
      await write(chunk);
      pending += chunk.byteLength;
      if (pending < COMPRESSION.flushEveryBytes) return;
      pending = 0;
      await new Promise<void>((resolve) => z.flush(flushKind, resolve));
    },
    flush: () =>
      new Promise<void>((resolve, reject) => {
        z.once('end', resolve).once('error', reject);
        z.end();
      }),
  });
}

/** `body` compressed chunk by chunk as it is read, at the bulk levels. */
export function compressStream(body: ReadableStream<Uint8Array>, coding: Coding): ReadableStream<Uint8Array> {
  const flushKind = coding === 'gzip' ? zlib.constants.Z_SYNC_FLUSH : zlib.constants.BROTLI_OPERATION_FLUSH;
  return body.pipeThrough(zlibTransform(compressor(coding), flushKind));
}

/** The first bytes of a stream, read until `threshold` bytes or its end, and the rest of it. */
async function peek(
  body: ReadableStream<Uint8Array>,
  threshold: number,
): Promise<{ head: Uint8Array[]; size: number; done: boolean; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = body.getReader();
  const head: Uint8Array[] = [];
  let size = 0;
  while (size < threshold) {
    const next = await reader.read();
    if (next.done) return { head, size, done: true, reader };
    head.push(next.value);
    size += next.value.byteLength;
  }
  return { head, size, done: false, reader };
}

/** The chunks, in order, in one array of `size` bytes (their total). */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The peeked head followed by the rest of the stream, read on demand. */
function rejoined(head: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const first = head.shift();
      if (first) return controller.enqueue(first);
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** A strong ETag of the compressed representation: `"x"` becomes `"x-gzip"`; weak or unquoted tags stay. */
function codedEtag(etag: string | null, coding: Coding): string | null {
  return etag && /^"[^"]*"$/.test(etag) ? `${etag.slice(0, -1)}-${coding}"` : etag;
}

/**
 * The response compressed for `coding`: the same bytes uncompressed under the threshold, compressed
 * whole at the best levels when it ends within {@link COMPRESSION}.wholeUpToBytes, else streamed at
 * the bulk levels (its first bytes leave once that much is written).
 */
async function encode(response: Response, coding: Coding): Promise<Response> {
  const headers = new Headers(response.headers);
  const length = Number(headers.get('content-length') ?? NaN);
  if (length < COMPRESSION.thresholdBytes || !response.body) return response;
  const { head, size, done, reader } = await peek(response.body, COMPRESSION.wholeUpToBytes);
  const init = { status: response.status, statusText: response.statusText, headers };
  if (done && size < COMPRESSION.thresholdBytes) {
    headers.set('content-length', String(size));
    return new Response(concatBytes(head, size), init);
  }
  headers.set('content-encoding', coding);
  const etag = codedEtag(headers.get('etag'), coding);
  if (etag) headers.set('etag', etag);
  if (done) {
    const body = await compressWhole(concatBytes(head, size), coding);
    headers.set('content-length', String(body.byteLength));
    return new Response(body, init);
  }
  headers.delete('content-length');
  return new Response(compressStream(rejoined(head, reader), coding), init);
}

/**
 * Compresses compressible responses for clients that accept br or gzip, adding
 * `Vary: Accept-Encoding`. Install it last, so that it sees every header the others set.
 */
export function compressionPlugin(): Plugin {
  return {
    onResponse({ request, response, setResponse }) {
      dropNoneCoding(response);
      if (response.status === 304) return keepCodedEtag(request, response);
      if (!isCompressible(request.method, response)) return;
      addVary(response.headers, 'Accept-Encoding');
      const coding = negotiateCoding(request.headers.get('accept-encoding'));
      if (!coding) return;
      return encode(response, coding).then(setResponse);
    },
  };
}

/** Removes `Content-Encoding: none` (Yoga's event streams send it; `none` is not a content coding). */
function dropNoneCoding(response: Response): void {
  if (response.headers.get('content-encoding')?.trim().toLowerCase() === 'none')
    response.headers.delete('content-encoding');
}

/**
 * A 304 names the representation the client holds: when its If-None-Match lists the coded ETag of
 * the coding this request negotiates (`"x-gzip"` for `"x"`), the 304 carries that tag, as the 200
 * it revalidates did; a client holding the identity body keeps the base tag.
 */
function keepCodedEtag(request: Request, response: Response): void {
  const coding = negotiateCoding(request.headers.get('accept-encoding'));
  const coded = coding && codedEtag(response.headers.get('etag'), coding);
  if (
    coded &&
    coded !== response.headers.get('etag') &&
    listedEtags(request.headers.get('if-none-match')).includes(coded)
  ) {
    response.headers.set('etag', coded);
  }
}

/** The entity-tags an If-None-Match header lists, as sent (coding suffixes kept), `W/` dropped. */
export function listedEtags(header: string | null): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .filter(Boolean);
}

/** Strips the coding suffix {@link compressionPlugin} adds to strong ETags (`"x-br"` is `"x"`). */
export function baseEtag(etag: string): string {
  return etag.replace(/-(br|gzip)"$/, '"');
}
