import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { Endpoint } from './endpoint.js';
import { ErrorSchema, MetaSchema, ValidationErrorSchema } from './schemas.js';

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });

/** Builds the OpenAPI 3.1 document from the endpoints' own query and row schemas. */
export function buildOpenApi(endpoints: readonly Endpoint[]): object {
  const registry = new OpenAPIRegistry();
  for (const e of endpoints) {
    const envelope = z.object({ meta: MetaSchema, data: z.array(e.row) }).strict();
    registry.registerPath({
      method: 'get',
      path: e.path,
      summary: e.summary,
      description: e.description,
      request: { query: e.query },
      responses: {
        200: json(envelope, 'The envelope: meta and rows.'),
        401: json(ErrorSchema, 'Unknown API key.'),
        422: json(ValidationErrorSchema, 'Invalid query input.'),
        429: json(ErrorSchema, 'Request budget exceeded; see Retry-After.'),
        503: json(ErrorSchema, 'Database unreachable.'),
        504: json(ErrorSchema, 'The request exceeded the 30 s timeout.'),
      },
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'European electricity market analytics API',
      version: '1.0.0',
      description:
        'Day-ahead prices, cross-border flows and their classification against the price gradient. All datetimes are UTC; prices in EUR/MWh, flows in MW.',
    },
    servers: [{ url: '/' }],
  });
}
