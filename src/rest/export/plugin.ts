import { setTimeout as delay } from 'node:timers/promises';
import { createHash, randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { timeoutError, untilAborted, withRequestSignal } from '../../deadline.js';
import type { TimeRange } from '../../domain/time.js';
import { RowBatches } from '../../domain/row-batches.js';
import type { DataVersion } from '../../events/version.js';
import { errorResponse, json } from '../../http/errors.js';
import { routePath } from '../../http/paths.js';
import type { Logger } from '../../logger.js';
import { accessOf } from '../../security/client.js';
import type { TokenBucketLimiter } from '../../security/token-bucket.js';
import type { ServiceDeps } from '../../services/context.js';
import { matchesIfNoneMatch } from '../cache.js';
import type { RowContract } from '../../contract/fields.js';
import type { ColumnBatch } from '../../domain/columns.js';
import { arrowColumnWriter } from '../arrow.js';
import { type Chunks, writeRows } from '../chunks.js';
import { csvColumns, csvHeader } from '../csv.js';
import { metaHeaders } from '../meta-headers.js';
import { columnsOfCsv, csvColumnBatches } from './columns-of-csv.js';
import { linesIn } from './csv-lines.js';
import { ndjsonOfCsv } from './ndjson-of-csv.js';
import { parseQuery, readQuery } from '../query.js';
import { metaToWire } from '../schemas.js';
import { EXPORTS, type ExportEndpoint } from './endpoints.js';
import {
  EXPORT_CONTENT_TYPES,
  EXPORT_EXTENSIONS,
  type ExportFormat,
  type ExportWriter,
  exportWriter,
  typedContract,
} from './formats.js';
import { type Covered, type ExportRows, FIRST_COLUMN_ROWS } from '../../services/export.js';
import { parquetChunks, parquetOfColumns } from './parquet.js';

/** Fair-use settings of the exports. */
export interface ExportPolicy {
  /** Exports one client (API key, else address) may run at once (EXPORTS_PER_CLIENT). */
  readonly perClient: number;
  /** Rows an export writes per rate-limit token, charged as it streams (EXPORT_ROWS_PER_TOKEN). */
  readonly rowsPerToken: number;
}

/** Response headers telling a client the fair-use rules of the exports. */
export const EXPORT_LIMIT_HEADERS = {
  concurrency: 'X-Export-Concurrency-Limit',
  tokens: 'X-Export-Tokens-Per-Rows',
} as const;

/** This process's instances of the data version are told apart from another's (restarts start at 1). */
const INSTANCE = randomUUID().slice(0, 8);

/** A bound of the offered file name: the UTC date at midnight, else date and time to the minute. */
function fileStamp(d: Date): string {
  const iso = d.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 13)}${iso.slice(14, 16)}Z`;
}

/** The offered file name: `<name>_<from>_<to>.<ext>`. */
export function exportFileName(name: string, range: TimeRange, format: ExportFormat): string {
  return `${name}_${fileStamp(range.from)}_${fileStamp(range.to)}.${EXPORT_EXTENSIONS[format]}`;
}

/**
 * The strong ETag of an export: the data version of this instance, the path, the query as sent
 * (parameters sorted) and the resolved range (relative bounds such as `now-7d` move with time).
 */
function exportTag(version: number, url: URL, range: TimeRange): string {
  const params = [...url.searchParams].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  const hash = createHash('sha256')
    .update(JSON.stringify([routePath(url.pathname), params, range.from.getTime(), range.to.getTime()]))
    .digest('base64url')
    .slice(0, 22);
  return `"x${INSTANCE}-${version}-${hash}"`;
}

/** Waits `ms`, or less when `signal` aborts first; leaves no listener on the signal either way. */
const sleep = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }).catch(() => undefined);

/** The rows of `rows`, counting each batch into `count` as it is taken. */
function counted<R>(rows: RowBatches<R>, count: (n: number) => void): RowBatches<R> {
  async function* batches(): AsyncGenerator<readonly R[]> {
    for await (const batch of rows) {
      count(batch.length);
      yield batch;
    }
  }
  return new RowBatches(batches());
}

/** A CSV body of the database's lines: the header, then the lines as they come, counted into `count`. */
async function* copiedCsv(
  header: string,
  lines: AsyncIterable<Uint8Array>,
  count: (n: number) => void,
): AsyncGenerator<string | Uint8Array> {
  yield header;
  for await (const chunk of lines) {
    count(linesIn(chunk));
    yield chunk;
  }
}

/** An NDJSON body of the database's CSV lines, each chunk written by `ndjson` as it comes, counted into `count`. */
async function* copiedNdjson(
  ndjson: (chunk: Uint8Array) => string,
  lines: AsyncIterable<Uint8Array>,
  count: (n: number) => void,
): AsyncGenerator<string> {
  for await (const chunk of lines) {
    count(linesIn(chunk));
    yield ndjson(chunk);
  }
}

/**
 * The chunks of an export's body: the database's CSV lines where it writes them (CSV, and NDJSON
 * made of them), its column batches for Arrow and Parquet where it gives them, else the rows
 * written by `out` (Parquet: from the row batches). Rows taken by the database's paths are counted into `count`.
 */
function exportBody(
  format: ExportFormat,
  contract: RowContract<Covered<unknown>>,
  exported: ExportRows<unknown>,
  rows: RowBatches<Covered<unknown>>,
  out: ExportWriter<Covered<unknown>> | undefined,
  count: (n: number) => void,
): Chunks<string | Uint8Array> {
  const lines = exported.csvLines;
  if (format === 'csv' && lines) return copiedCsv(csvHeader(csvColumns(contract)), lines(), count);
  const ndjson = format === 'ndjson' && lines && ndjsonOfCsv(contract);
  if (ndjson) return copiedNdjson(ndjson, lines(), count);
  const typed = typedContract(contract, exported.rowTimeZone);
  const columns =
    (format === 'arrow' || format === 'parquet') && (exported.columns ?? copiedColumns(contract, exported));
  if (columns)
    return format === 'arrow' ? arrowOfColumns(typed, columns(), count) : parquetOfColumns(typed, columns(), count);
  return out ? writeRows(rows, out.writer) : parquetChunks(typed, rows, exported.rowTimeZone);
}

/**
 * Rows of a column batch read from CSV lines: 3 years of every border's hourly flows grew a fresh
 * server's RSS by 26-27 MB as Arrow at 10,000 (122 MB at 50,000, 27 at 4,096); as Parquet 67-76 MB
 * at 10,000 and 72 at 4,096 (bench/README.md).
 */
const COPIED_COLUMN_ROWS = 10_000;

/** The column batches of the database's CSV lines (UTC rows), where the contract's fields are read from CSV. */
function copiedColumns(
  contract: RowContract<Covered<unknown>>,
  exported: ExportRows<unknown>,
): (() => AsyncIterable<ColumnBatch>) | undefined {
  const lines = exported.csvLines;
  if (!lines || exported.rowTimeZone) return undefined;
  const read = columnsOfCsv(contract, new Map([['time_zone', { kind: 'constant', value: 'UTC' }]]));
  return read && (() => csvColumnBatches(lines(), read, FIRST_COLUMN_ROWS, COPIED_COLUMN_ROWS));
}

/** An Arrow IPC body of column batches, each counted into `count` as it is taken; the end marker after the last. */
async function* arrowOfColumns<R>(
  contract: RowContract<R>,
  batches: AsyncIterable<ColumnBatch>,
  count: (n: number) => void,
): AsyncGenerator<Uint8Array> {
  const writer = arrowColumnWriter(contract);
  for await (const batch of batches) {
    count(batch.length);
    if (batch.length) yield writer.batch(batch);
  }
  yield writer.tail();
}

/**
 * Answers `/api/v1/export/*`: the rows of a `/api/v1` twin over any range, streamed in the
 * asked format as they are read, never through the response cache. Each read of a batch has
 * the request time limit of its own; the client leaving cancels the running statement.
 */
export function exportPlugin(opts: {
  deps: ServiceDeps;
  logger: Logger;
  timeoutMs: number;
  version: DataVersion;
  limiter?: TokenBucketLimiter;
  policy: ExportPolicy;
  endpoints?: readonly ExportEndpoint[];
}): Plugin {
  const byPath = new Map((opts.endpoints ?? EXPORTS).map((e) => [e.path, e]));
  const running = new Map<string, number>();
  const limitHeaders = {
    [EXPORT_LIMIT_HEADERS.concurrency]: String(opts.policy.perClient),
    [EXPORT_LIMIT_HEADERS.tokens]: `1;rows=${opts.policy.rowsPerToken}`,
  };
  return {
    onRequest({ url, request, endResponse }) {
      const endpoint = byPath.get(routePath(url.pathname));
      if (!endpoint) return;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return endResponse(json({ detail: 'Method Not Allowed' }, 405, { allow: 'GET, HEAD' }));
      }
      let query: Record<string, unknown>;
      try {
        query = parseQuery(endpoint.query, readQuery(endpoint.query, url.searchParams));
      } catch (err) {
        return endResponse(errorResponse(err, opts.logger));
      }
      const client = accessOf(request)?.client.id ?? 'anonymous';
      const now = running.get(client) ?? 0;
      if (now >= opts.policy.perClient) {
        const detail = `At most ${opts.policy.perClient} exports may run at once per client; retry when one has finished`;
        return endResponse(json({ detail }, 429, { 'retry-after': '1', ...limitHeaders }));
      }
      running.set(client, now + 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const left = (running.get(client) ?? 1) - 1;
        if (left > 0) running.set(client, left);
        else running.delete(client);
      };
      return startExport(endpoint, query, url, request, client, release).then(
        (response) => {
          for (const [name, value] of Object.entries(limitHeaders)) response.headers.set(name, value);
          endResponse(response);
        },
        (err: unknown) => {
          release();
          endResponse(errorResponse(err, opts.logger));
        },
      );
    },
  };

  async function startExport(
    endpoint: ExportEndpoint,
    query: Record<string, unknown>,
    url: URL,
    request: Request,
    client: string,
    release: () => void,
  ): Promise<Response> {
    const format = query.format as ExportFormat;
    const controller = new AbortController();
    const onClientGone = () => controller.abort(request.signal.reason);
    if (request.signal.aborted) onClientGone();
    request.signal.addEventListener('abort', onClientGone, { once: true });
    const finish = () => {
      request.signal.removeEventListener('abort', onClientGone);
      release();
    };
    /** Runs one step (resolving, a batch) in the export's scope, under the time limit of its own. */
    const step = async <T>(work: () => Promise<T>): Promise<T> => {
      const timer = setTimeout(() => controller.abort(timeoutError(opts.timeoutMs)), opts.timeoutMs);
      try {
        return await untilAborted(controller.signal, withRequestSignal(controller.signal, work));
      } finally {
        clearTimeout(timer);
      }
    };
    let rowsWritten = 0;
    let tokensCharged = 0;
    const charge = async () => {
      if (!opts.limiter) return;
      const due = Math.floor(rowsWritten / opts.policy.rowsPerToken) - tokensCharged;
      if (due <= 0) return;
      for (;;) {
        const decision = await opts.limiter.consume(client, due);
        if (decision.allowed || controller.signal.aborted) break;
        await sleep(Math.max(50, Math.min(decision.retryAfterMs, 5_000)), controller.signal);
      }
      tokensCharged += due;
    };
    let chunks: Chunks<string | Uint8Array> | undefined;
    try {
      const { exported, contract } = await step(() => endpoint.run(opts.deps, query));
      const etag = exportTag(opts.version.current, url, exported.range);
      const headers: Record<string, string> = {
        etag,
        'cache-control': 'private, no-cache',
        'content-type': EXPORT_CONTENT_TYPES[format],
        'content-disposition': `attachment; filename="${exportFileName(endpoint.name, exported.range, format)}"`,
        ...metaHeaders(metaToWire(exported.meta), url),
      };
      const rows = counted(exported.rows, (n) => void (rowsWritten += n));
      if (matchesIfNoneMatch(request.headers.get('if-none-match'), etag) || request.method === 'HEAD') {
        const status = request.method === 'HEAD' ? 200 : 304;
        await rows[Symbol.asyncIterator]().return?.();
        finish();
        return new Response(null, { status, headers });
      }
      const out = format === 'parquet' ? undefined : exportWriter(format, contract, exported.rowTimeZone);
      const written = exportBody(format, contract, exported, rows, out, (n) => void (rowsWritten += n));
      chunks = written;
      let pending: IteratorResult<string | Uint8Array> | null = await step(() => Promise.resolve(written.next()));
      const encoder = new TextEncoder();
      const encode = (c: string | Uint8Array) => (typeof c === 'string' ? encoder.encode(c) : c);
      let ended = false;
      const end = () => {
        ended = true;
        finish();
      };
      const body = new ReadableStream<Uint8Array>({
        async pull(stream) {
          try {
            await charge();
            const next = pending ?? (await step(() => Promise.resolve(written.next())));
            pending = null;
            if (next.done) {
              end();
              stream.close();
            } else stream.enqueue(encode(next.value));
          } catch (err) {
            end();
            controller.abort(err);
            await Promise.resolve(written.return?.()).catch(() => undefined);
            const message = err instanceof Error ? err.message : String(err);
            opts.logger.warn({ err, path: endpoint.path }, 'export ended by an error after its first byte');
            if (out?.failure) {
              stream.enqueue(encoder.encode(out.failure(`export truncated: ${message}`)));
              stream.close();
            } else stream.error(err);
          }
        },
        async cancel(reason) {
          controller.abort(reason ?? new Error('client gone'));
          if (!ended) end();
          await Promise.resolve(written.return?.()).catch(() => undefined);
        },
      });
      return new Response(body, { status: 200, headers });
    } catch (err) {
      controller.abort(err);
      await Promise.resolve(chunks?.return?.()).catch(() => undefined);
      finish();
      throw err;
    }
  }
}
