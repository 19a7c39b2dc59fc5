import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { EXPORT_LIMIT_HEADERS } from './export/plugin.js';
import type { ExportEndpoint } from './export/endpoints.js';
import { EXPORT_CONTENT_TYPES } from './export/formats.js';
import { IGNORED_PARAMETERS_HEADER } from './ignored-params.js';
import { responsesOf } from './openapi-parts.js';

/** Tag of the exports in the OpenAPI document. */
export const EXPORT_TAG = 'Export';

/** Example bodies of the prices export, one per text format (`covered_hours` at 1H). */
const EXAMPLES: Readonly<Record<string, { query: Record<string, string>; csv: string; ndjson: string }>> = {
  prices: {
    query: { zone: 'DE_LU', datetime_from: '2025-01-01', datetime_to: '2026-01-01', resolution: '1H' },
    csv: 'datetime,bidding_zone,price_mwh,interpolated,year,covered_hours\r\n2025-01-01T00:00:00Z,DE_LU,2.16,false,2025,1\r\n2025-01-01T01:00:00Z,DE_LU,1.6,false,2025,1\r\n',
    ndjson:
      '{"datetime":"2025-01-01T00:00:00Z","bidding_zone":"DE_LU","price_mwh":2.16,"interpolated":false,"year":2025,"covered_hours":1}\n',
  },
};

const header = (description: string, example?: string) => ({
  description,
  schema: { type: 'string' as const, ...(example ? { example } : {}) },
});

/**
 * Registers the export operations: their query (the twin's parameters and `format`), the file
 * formats of their 200 (with a CSV and NDJSON example for prices), their headers, and the
 * twin's error answers (JSON, before the first byte) plus a 429 for too many exports at once.
 */
export function registerExports(registry: OpenAPIRegistry, exports: readonly ExportEndpoint[]): void {
  for (const e of exports) {
    const example = EXAMPLES[e.name];
    const errors = responsesOf(z.object({}), undefined);
    delete (errors as Record<number, unknown>)[200];
    const binary = { schema: { type: 'string' as const, format: 'binary' } };
    registry.registerPath({
      method: 'get',
      path: e.path,
      operationId: `export${e.name
        .split('-')
        .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
        .join('')}`,
      tags: [EXPORT_TAG],
      summary: e.summary,
      description: `${e.description} Same rows as ${e.twin} in CSV (default), NDJSON, Arrow IPC stream or Parquet; never cached server-side; ETag from the data version (If-None-Match answers 304). A CSV body cut by an error ends with a line starting \`#error:\`, NDJSON with a line \`{"error":…}\`; an Arrow or Parquet body cut by an error has no end marker or footer (readers fail). Rate-limit tokens are charged as rows stream (X-Export-Tokens-Per-Rows), and a client runs at most X-Export-Concurrency-Limit exports at once (429 beyond).`,
      request: { query: e.query },
      responses: {
        ...errors,
        200: {
          description: 'The rows as a named file, streamed.',
          headers: {
            'Content-Disposition': header(
              'attachment; filename="<name>_<from>_<to>.<ext>" (bounds as UTC dates, or date and time to the minute)',
              'attachment; filename="prices_2025-01-01_2026-01-01.csv"',
            ),
            ETag: header('Strong ETag of the data version, path, query and resolved range.'),
            [EXPORT_LIMIT_HEADERS.tokens]: header('Rate-limit tokens charged per rows written: `1;rows=10000`.'),
            [EXPORT_LIMIT_HEADERS.concurrency]: header('Exports one client may run at once.', '2'),
            [IGNORED_PARAMETERS_HEADER]: header(
              'Query parameters ignored, each with a suggestion.',
              'zones (did you mean zone?)',
            ),
          },
          content: {
            [EXPORT_CONTENT_TYPES.csv]: { schema: { type: 'string' }, ...(example ? { example: example.csv } : {}) },
            [EXPORT_CONTENT_TYPES.ndjson]: {
              schema: { type: 'string' },
              ...(example ? { example: example.ndjson } : {}),
            },
            [EXPORT_CONTENT_TYPES.arrow]: binary,
            [EXPORT_CONTENT_TYPES.parquet]: binary,
          },
        },
      },
    });
  }
}

/** Copies the example queries onto the export operations' parameters. */
export function exportParameterExamples(doc: { paths?: Record<string, any> }, exports: readonly ExportEndpoint[]) {
  for (const e of exports) {
    const query = EXAMPLES[e.name]?.query;
    for (const p of doc.paths?.[e.path]?.get?.parameters ?? []) if (query && p.name in query) p.example = query[p.name];
  }
}
