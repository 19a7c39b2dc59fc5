import type { z } from 'zod';
import { ARROW_CONTENT_TYPE, arrowWriter } from './arrow.js';
import type { RowContract } from '../contract/fields.js';
import type { RowTimeZone } from '../contract/json.js';
import { type Chunks, type RowWriter, writeRows } from './chunks.js';
import { csvWriter } from './csv.js';
import type { Endpoint, JsonRows } from './endpoint.js';
import { metaHeaders } from './meta-headers.js';
import { FORMATS, type Format, formatParam, negotiateFormat } from './negotiation.js';
import type { MetaSchema } from './schemas.js';

/** Content type of CSV responses (RFC 4180 with the header row, RFC 7111 parameters). */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8; header=present';

const withFormats = new WeakMap<z.ZodObject, z.ZodObject>();

/** An endpoint's query schema with the `format` parameter added (validated and documented with the others). */
export function queryWithFormat(query: z.ZodObject): z.ZodObject {
  let schema = withFormats.get(query);
  if (!schema) {
    schema = query.extend({ format: formatParam });
    withFormats.set(query, schema);
  }
  return schema;
}

/**
 * The representation a request asks for, negotiated once per request: its `format` parameter (the
 * last one) when it names a format, else by its Accept header. An invalid `format` is refused
 * with a 422 when the query is parsed.
 */
export function representation(request: Request, url: URL): Format {
  const given = url.searchParams.getAll('format').at(-1)?.toLowerCase();
  return FORMATS.find((f) => f === given) ?? negotiateFormat(request.headers.get('accept'));
}

/**
 * Streams chunks (text as UTF-8), one chunk per pull. The first chunk is taken before the response
 * exists, so that a failure to read the first rows is an error response, not a cut body.
 */
async function streamed(chunks: Chunks<string | Uint8Array>, headers: Record<string, string>): Promise<Response> {
  const encoder = new TextEncoder();
  let pending: IteratorResult<string | Uint8Array> | null = await chunks.next();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = pending ?? (await chunks.next());
      pending = null;
      if (next.done) controller.close();
      else controller.enqueue(typeof next.value === 'string' ? encoder.encode(next.value) : next.value);
    },
    async cancel() {
      await chunks.return?.();
    },
  });
  return new Response(body, { headers });
}

/** The file name offered for a download: the path's last segment and the format's extension. */
const fileName = (path: string, extension: string): string =>
  `${path.split('/').filter(Boolean).at(-1) ?? 'data'}.${extension}`;

/** A format served as a download: its row writer, content type and file extension. */
interface FileFormatDecl {
  readonly writer: <R>(contract: RowContract<R>, zoneOf?: RowTimeZone<R>) => RowWriter<R, string | Uint8Array>;
  readonly contentType: string;
  readonly extension: string;
}

/** The formats served as a download. */
const FILE_FORMATS = {
  csv: { writer: csvWriter, contentType: CSV_CONTENT_TYPE, extension: 'csv' },
  arrow: { writer: arrowWriter, contentType: ARROW_CONTENT_TYPE, extension: 'arrows' },
} as const satisfies Record<string, FileFormatDecl>;

/** A format served as a download. */
export type FileFormat = keyof typeof FILE_FORMATS;

/**
 * The CSV or Arrow IPC stream of an endpoint's rows, streamed a chunk of CSV lines or a record batch
 * per pull, its meta in headers.
 */
export function fileResponse(
  format: FileFormat,
  endpoint: Endpoint,
  meta: z.infer<typeof MetaSchema>,
  data: JsonRows,
  url: URL,
): Promise<Response> {
  const { writer, contentType, extension }: FileFormatDecl = FILE_FORMATS[format];
  return streamed(writeRows(data.table.rows, writer(data.table.contract, data.table.rowTimeZone)), {
    'content-type': contentType,
    'content-disposition': `attachment; filename="${fileName(endpoint.path, extension)}"`,
    ...metaHeaders(meta, url),
  });
}
