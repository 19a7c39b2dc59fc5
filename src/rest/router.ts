import type { Plugin } from 'graphql-yoga';
import { remainingMs, requestLife } from '../deadline.js';
import { clientClosedResponse, isClientGone } from '../http/client-closed.js';
import { errorResponse, json } from '../http/errors.js';
import type { Logger } from '../logger.js';
import type { ServiceDeps } from '../services/context.js';
import type { RestCache, ServedResponse } from './cache.js';
import type { Endpoint, JsonRows } from './endpoint.js';
import { inQueryOrder, parseQuery, readQuery } from './query.js';
import { fileResponse, queryWithFormat, representation } from './formats.js';
import { metaHeaders } from './meta-headers.js';
import { type Format, varyOf } from './negotiation.js';
import { metaToWire } from './schemas.js';
import { REST_PREFIX, routePath } from '../http/paths.js';
import { addVary } from '../http/vary.js';
import { responseTags, setCacheTags } from '../http/cache-tags.js';

/** Extra GET routes (OpenAPI document, reference page, assets) answered under the prefix. */
export type StaticRoutes = ReadonlyMap<string, () => Response | Promise<Response>>;

/** Bodies up to about this many characters are sent as one string: a stream costs more than it saves. */
const WHOLE_BODY_CHARS = 128 * 1024;

/** Headers of a JSON response: a new object each time, as the server's Response adds to the one it is given. */
const jsonHeaders = (): Record<string, string> => ({ 'content-type': 'application/json; charset=utf-8' });

/** The Response class of the server's fetch API (Yoga's `fetchAPI`). */
type ResponseClass = typeof Response;

/**
 * The envelope `{"meta":…,"data":[…]}` around pre-serialised rows, byte for byte what
 * `JSON.stringify` gives: whole when the rows' first {@link WHOLE_BODY_CHARS} characters hold them
 * all, else streamed chunk by chunk as the client reads (pull-based). A whole body is a text in a
 * Response of the server's own fetch API, which the Node adapter writes to the socket as it is,
 * where the global Response's body would be read back through a stream of encoded chunks.
 */
async function streamedJson(
  meta: unknown,
  rows: JsonRows,
  ServerResponse: ResponseClass,
): Promise<{ response: Response; text?: string }> {
  const chunks = rows.chunks();
  const taken: string[] = [];
  let size = 0;
  let next = await chunks.next();
  while (!next.done && size < WHOLE_BODY_CHARS) {
    taken.push(next.value);
    size += next.value.length;
    next = await chunks.next();
  }
  const head = `{"meta":${JSON.stringify(meta)},"data":[${taken.join(',')}`;
  if (next.done) {
    const text = `${head}]}`;
    return { response: new ServerResponse(text, { headers: jsonHeaders() }), text };
  }
  const encoder = new TextEncoder();
  let pending: IteratorResult<string> | null = next;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(head));
    },
    async pull(controller) {
      const chunk = pending ?? (await chunks.next());
      pending = null;
      if (chunk.done) {
        controller.enqueue(encoder.encode(']}'));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(`,${chunk.value}`));
    },
    async cancel() {
      await chunks.return?.();
    },
  });
  return { response: new Response(body, { headers: jsonHeaders() }) };
}

/**
 * The query of a request parsed by the endpoint's schema and `format` (every parameter checked, so
 * nothing invalid reaches the response cache). @throws InputError (422) for an invalid parameter.
 */
function parsedQuery(endpoint: Endpoint, url: URL): Record<string, unknown> {
  const schema = queryWithFormat(endpoint.query);
  const { format: _format, ...query } = parseQuery(schema, readQuery(schema, url.searchParams)) as { format?: Format };
  return query;
}

async function runEndpoint(
  endpoint: Endpoint,
  deps: ServiceDeps,
  url: URL,
  query: Record<string, unknown>,
  chosen: Format,
  ServerResponse: ResponseClass,
): Promise<ServedResponse> {
  const { meta, data } = await inQueryOrder(queryWithFormat(endpoint.query), () => endpoint.handle(deps, query));
  const wireMeta = metaToWire(meta);
  const { response, text } =
    chosen === 'json'
      ? await streamedJson(wireMeta, data, ServerResponse)
      : { response: await fileResponse(chosen, endpoint, wireMeta, data, url) };
  if (chosen === 'json') withHeaders(response, metaHeaders(wireMeta, url));
  addVary(response.headers, varyOf(chosen));
  return { response, range: meta.range, ...(text !== undefined ? { text } : {}) };
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * The request's URL with its declared query parameters only (the endpoint's and `format`, in the
 * order given): what responses are computed, cached and linked (`Link: rel="next"`) from, so one
 * requester's undeclared parameters never reach another's answer.
 */
function declaredUrl(endpoint: Endpoint, url: URL): URL {
  const names = new Set(Object.keys(queryWithFormat(endpoint.query).shape));
  const kept = new URL(url.pathname, url.origin);
  for (const [name, value] of url.searchParams) if (names.has(name)) kept.searchParams.append(name, value);
  return kept;
}

/** A successful answer with its cache tags (see cache-tags.ts). */
function tagged(response: Response, endpoint: Endpoint, query: Record<string, unknown>, deps: ServiceDeps): Response {
  if (response.status < 300 || response.status === 304)
    setCacheTags(response.headers, responseTags(endpoint.reads, query, deps.catalogue));
  return response;
}

/**
 * Mounts the REST endpoints on the Yoga server: GET and HEAD only (405 with Allow otherwise),
 * JSON 404 for unknown paths under the prefix, coded errors mapped to HTTP status.
 */
export function restPlugin(opts: {
  endpoints: readonly Endpoint[];
  deps: ServiceDeps;
  logger: Logger;
  routes: StaticRoutes;
  /** Request time limit, ms (REQUEST_TIMEOUT_MS): past it 504, and the request's statements are cancelled. */
  timeoutMs: number;
  /** ETags, Cache-Control and the server-side response cache; without it responses carry none. */
  cache?: RestCache;
}): Plugin {
  const byPath = new Map(opts.endpoints.map((e) => [e.path, e]));
  return {
    onRequest({ url, request, endResponse, fetchAPI }) {
      if (url.pathname !== REST_PREFIX && !url.pathname.startsWith(`${REST_PREFIX}/`)) return;
      const path = routePath(url.pathname);
      const endpoint = byPath.get(path);
      const route = opts.routes.get(path);
      if (!endpoint && !route) return endResponse(json({ detail: 'Not Found' }, 404));
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return endResponse(json({ detail: 'Method Not Allowed' }, 405, { allow: 'GET, HEAD' }));
      }
      if (!endpoint)
        return Promise.resolve(route!()).then(endResponse, (err: unknown) =>
          endResponse(errorResponse(err, opts.logger)),
        );
      let query: Record<string, unknown>;
      try {
        query = parsedQuery(endpoint, url);
      } catch (err) {
        return endResponse(errorResponse(err, opts.logger));
      }
      const format = representation(request, url);
      const declared = declaredUrl(endpoint, url);
      const life = requestLife(remainingMs(request, opts.timeoutMs), request.signal, opts.timeoutMs);
      const run = () => life.run(() => runEndpoint(endpoint, opts.deps, declared, query, format, fetchAPI.Response));
      const work =
        opts.cache?.respond(
          {
            path,
            query: queryWithFormat(endpoint.query),
            url: declared,
            request,
            format,
            responseClass: fetchAPI.Response,
          },
          run,
        ) ?? run().then((r) => r.response);
      return work.then(
        (response) => {
          endResponse(tagged(response, endpoint, query, opts.deps));
        },
        (err: unknown) => {
          life.end();
          endResponse(
            isClientGone(request, err) ? clientClosedResponse(request, opts.logger) : errorResponse(err, opts.logger),
          );
        },
      );
    },
  };
}
