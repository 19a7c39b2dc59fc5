import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { Endpoint } from './endpoint.js';
import {
  addParameterExamples,
  API_KEY_SCHEME,
  operationIdOf,
  registerSharedComponents,
  responsesOf,
  tagOf,
  tagsOf,
} from './openapi-parts.js';
import { MetaSchema } from './schemas.js';
import { csvOfWireRows, schemaColumns } from './csv.js';
import type { WireRow } from '../contract/json.js';
import { queryWithFormat } from './formats.js';
import type { ExportEndpoint } from './export/endpoints.js';
import { EXPORT_TAG, exportParameterExamples, registerExports } from './openapi-export.js';

/** The CSV body of an endpoint's example response. */
const csvExampleOf = (e: Endpoint): string | undefined =>
  e.example && csvOfWireRows(schemaColumns(e.row), e.example.response.data as WireRow[]);

/**
 * Builds the OpenAPI 3.1 document from the endpoints' own query and row schemas: one operation per
 * endpoint with its operationId, tag, example (JSON and CSV), meta headers and error responses, and the optional `x-api-key`
 * security scheme (`security: [{}, {apiKey: []}]`: anonymous or keyed).
 */
export function buildOpenApi(endpoints: readonly Endpoint[], exports: readonly ExportEndpoint[] = []): object {
  const registry = new OpenAPIRegistry();
  registerSharedComponents(registry);
  for (const e of endpoints) {
    const envelope = z.object({ meta: MetaSchema, data: z.array(e.row) }).strict();
    registry.registerPath({
      method: 'get',
      path: e.path,
      operationId: operationIdOf(e),
      tags: [tagOf(e)],
      summary: e.summary,
      description: e.description,
      request: { query: queryWithFormat(e.query) },
      responses: responsesOf(envelope, e.example?.response, csvExampleOf(e), 'offset' in e.query.shape),
    });
  }
  registerExports(registry, exports);
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'European electricity market analytics API',
      version: '1.0.0',
      description:
        'Day-ahead prices, cross-border flows and their classification against the price gradient. Datetimes are UTC unless `tz` is given: then rows carry the local offset of the requested zone (meta.resolved_* stay UTC); prices in EUR/MWh, flows in MW.',
    },
    servers: [{ url: '/' }],
    tags: [
      ...tagsOf(endpoints),
      ...(exports.length
        ? [
            {
              name: EXPORT_TAG,
              description: 'Any range at any resolution as one streamed file (CSV, NDJSON, Arrow, Parquet).',
            },
          ]
        : []),
    ],
    security: [{}, { [API_KEY_SCHEME]: [] }],
  });
  for (const e of endpoints) addParameterExamples(doc.paths?.[e.path]?.get ?? {}, e.example?.query);
  exportParameterExamples(doc, exports);
  return doc;
}
