import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { APPLIED_RESOLUTION, enumValues, PROVENANCE } from '../contract/enums.js';
import type { Endpoint } from './endpoint.js';
import { MEDIA_TYPES } from './negotiation.js';
import { META_HEADERS } from '../http/headers.js';
import { ErrorSchema, ValidationErrorSchema } from './schemas.js';

/** Name of the `x-api-key` security scheme in `components.securitySchemes`. */
export const API_KEY_SCHEME = 'apiKey';

/** Tags with a description, in the order the reference page lists them. */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Prices: 'Day-ahead prices per bidding zone (EUR/MWh).',
  Flows: 'Cross-border physical flows (MW) and their classification against the price gradient.',
  Aggregates:
    'Statistics over a range: flow-type shares, counter-intuitive shares, scatter, duration curves, price and exchange figures per zone.',
  Catalogue:
    'What exists before asking: bidding zones and borders with their codes, time zones, neighbours and stored coverage per data kind.',
};

const lastSegment = (path: string): string => path.split('/').filter(Boolean).at(-1) ?? 'root';
const words = (path: string): string[] =>
  lastSegment(path)
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
const capitalise = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** The endpoint's operationId: its own, else `get` + the last path segment in PascalCase. */
export function operationIdOf(e: Pick<Endpoint, 'path' | 'operationId'>): string {
  return e.operationId ?? `get${words(e.path).map(capitalise).join('')}`;
}

/** The endpoint's tag: its own, else the last path segment in Title Case (`/api/v1/zones` is `Zones`). */
export function tagOf(e: Pick<Endpoint, 'path' | 'tag'>): string {
  return e.tag ?? capitalise(words(e.path).join(' '));
}

/**
 * The tags used by `endpoints`: those of {@link TAG_DESCRIPTIONS} first, in its order, then the
 * others in endpoint order, described by the summary of their first endpoint.
 */
export function tagsOf(
  endpoints: readonly Pick<Endpoint, 'path' | 'tag' | 'summary'>[],
): { name: string; description: string }[] {
  const firstSummary = new Map<string, string>();
  for (const e of endpoints) if (!firstSummary.has(tagOf(e))) firstSummary.set(tagOf(e), e.summary);
  const known = Object.keys(TAG_DESCRIPTIONS).filter((t) => firstSummary.has(t));
  const others = [...firstSummary.keys()].filter((t) => !(t in TAG_DESCRIPTIONS));
  return [
    ...known.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? '' })),
    ...others.map((name) => ({ name, description: firstSummary.get(name) ?? '' })),
  ];
}

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': "Capacity of the caller's token bucket (requests).",
  'RateLimit-Remaining': "Tokens left in the caller's bucket after this request.",
  'RateLimit-Reset': 'Seconds until the bucket is full again.',
} as const;

const RETRY_AFTER = 'Retry-After';

const CACHING_HEADERS = {
  ETag: 'Strong validator of this response (data version, path, query and representation; `-gzip`/`-br` appended when compressed). Send it back in If-None-Match to get a 304 while the data is unchanged.',
  'Cache-Control':
    '`public, max-age=3600` for ranges ending more than 48 h ago, `public, max-age=60` for recent ranges, ranges relative to `now` and the catalogue (`private` when API keys are required).',
  'Surrogate-Key':
    'Cache tags, space-separated, for a shared cache to purge by: the dataset (`prices`, `flows`, `catalogue`) and the zones or borders filtered on (`prices:DE_LU`, `flows:DE_LU->FR`; `prices:all`, `flows:all` over every zone).',
  'Cache-Tag': 'The Surrogate-Key tags, comma-separated.',
} as const;

const text = (description: string, extra: { enum?: string[] } = {}) => ({
  description,
  schema: { type: 'string' as const, ...extra },
});
const count = (description: string) => ({ description, schema: { type: 'integer' as const, minimum: 0 } });

/** The meta response headers (every 200) and the paging ones (paged endpoints), as header components. */
const META_HEADER_DOCS = {
  [META_HEADERS.provenance]: text('meta.provenance.', { enum: enumValues(PROVENANCE) }),
  [META_HEADERS.upstreamSources]: text('meta.upstream_sources, comma-separated; absent when null.'),
  [META_HEADERS.from]: text('meta.resolved_datetime_from (UTC, no offset); absent when null.'),
  [META_HEADERS.to]: text('meta.resolved_datetime_to (UTC, no offset, exclusive); absent when null.'),
  [META_HEADERS.resolution]: text('meta.resolution; absent when null.', { enum: enumValues(APPLIED_RESOLUTION) }),
  [META_HEADERS.timeZone]: text(
    'meta.time_zone: the IANA time zone (or `local`) the tz parameter applied; absent without tz.',
  ),
} as const;

const PAGE_HEADER_DOCS = {
  [META_HEADERS.total]: count('meta.pagination.total: rows before slicing.'),
  [META_HEADERS.limit]: count('meta.pagination.limit.'),
  [META_HEADERS.offset]: count('meta.pagination.offset.'),
  [META_HEADERS.nextOffset]: count('meta.pagination.next_offset; absent on the last page.'),
  Link: text('`<this URL with offset=next_offset>; rel="next"`; absent on the last page.'),
} as const;

/** Registers the `x-api-key` security scheme and the rate-limit response headers. */
export function registerSharedComponents(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', API_KEY_SCHEME, {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description:
      'Optional by default (requests without a key are limited per client address); an unknown key is 401. Servers started with API_KEY_REQUIRED=true answer 401 without one.',
  });
  for (const [name, description] of Object.entries(RATE_LIMIT_HEADERS)) {
    registry.registerComponent('headers', name, { description, schema: { type: 'integer', minimum: 0 } });
  }
  for (const [name, description] of Object.entries(CACHING_HEADERS))
    registry.registerComponent('headers', name, { description, schema: { type: 'string' } });
  for (const [name, header] of Object.entries({ ...META_HEADER_DOCS, ...PAGE_HEADER_DOCS }))
    registry.registerComponent('headers', name, header);
  registry.registerComponent('headers', RETRY_AFTER, {
    description: 'Whole seconds to wait before the request can succeed (at least 1).',
    schema: { type: 'integer', minimum: 1 },
  });
}

const headerRefs = (names: readonly string[]) =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

const rateLimitRefs = () => headerRefs(Object.keys(RATE_LIMIT_HEADERS));

const response = (
  description: string,
  schema: z.ZodType,
  example: unknown,
  headers = rateLimitRefs(),
): ResponseConfig => ({
  description,
  headers,
  content: { 'application/json': { schema, example } },
});

/** The CSV alternative of a 200 response (`format=csv` or `Accept: text/csv`), with the example's rows as CSV. */
const csvContent = (example: string | undefined) => ({
  [MEDIA_TYPES.csv]: {
    schema: {
      type: 'string' as const,
      description:
        'RFC 4180 with CRLF line ends: a header row of the JSON field names (nested fields dotted, `coverage.prices.datetime_from`), one record per row; null is an empty field, lists are joined with `;`, numbers are written as in JSON. The meta is in the X-* headers.',
    },
    ...(example === undefined ? {} : { example }),
  },
});

/** The Arrow alternative of a 200 response (`format=arrow` or its media type in Accept). */
const arrowContent = () => ({
  [MEDIA_TYPES.arrow]: {
    schema: {
      type: 'string' as const,
      format: 'binary',
      description:
        'Arrow IPC stream: the schema, one record batch per 1,000 rows, typed columns named as the JSON fields (datetimes UTC millisecond timestamps, days dates, numbers float64 or int32, objects structs, lists of utf8). The meta is in the X-* headers.',
    },
  },
});

/** The 200 response: the JSON envelope or CSV, the meta headers (and paging headers on a paged endpoint). */
function okResponse(
  envelope: z.ZodType,
  example: unknown,
  csvExample: string | undefined,
  paged: boolean,
): ResponseConfig {
  const ok = response(
    'The envelope: meta and rows (JSON), or the rows as CSV or Arrow with the meta in headers; compressed (br, gzip) as Accept-Encoding allows.',
    envelope,
    example,
    {
      ...headerRefs(Object.keys(CACHING_HEADERS)),
      ...rateLimitRefs(),
      ...headerRefs(Object.keys(META_HEADER_DOCS)),
      ...(paged ? headerRefs(Object.keys(PAGE_HEADER_DOCS)) : {}),
    },
  );
  return { ...ok, content: { ...ok.content, ...csvContent(csvExample), ...arrowContent() } };
}

/**
 * The responses of an endpoint: 200 with its envelope and example (and its CSV form), and the error
 * bodies it can get (always JSON).
 */
export function responsesOf(
  envelope: z.ZodType,
  example: unknown,
  csvExample?: string,
  paged = false,
): Record<number, ResponseConfig> {
  return {
    200: okResponse(envelope, example, csvExample, paged),
    304: {
      description: 'Not modified: If-None-Match names the current ETag (or is `*`); no body.',
      headers: headerRefs(Object.keys(CACHING_HEADERS)),
    },
    401: response('Unknown API key (or none, when the server requires one).', ErrorSchema, {
      detail: 'Invalid API key',
    }),
    422: response('Invalid query input: one entry per offending parameter.', ValidationErrorSchema, {
      detail: [
        {
          loc: ['query', 'resolution'],
          msg: "Input should be 'auto', 'native', '1H', '1D' or '1W'",
          type: 'enum',
          input: '2H',
        },
      ],
    }),
    429: response(
      'Request budget exceeded; retry after Retry-After seconds.',
      ErrorSchema,
      { detail: 'Too many requests: the rate limit is exceeded, retry in 3 s' },
      headerRefs([RETRY_AFTER, ...Object.keys(RATE_LIMIT_HEADERS)]),
    ),
    503: response('Database unreachable.', ErrorSchema, { detail: 'The database is unavailable; retry shortly' }),
    504: response('The request exceeded the 30 s timeout; narrow the range or page.', ErrorSchema, {
      detail: 'The request exceeded the 30 s time limit; narrow the range or page through it',
    }),
  };
}

/** Copies the example's query values onto the matching parameters of a generated operation. */
export function addParameterExamples(
  operation: { parameters?: ({ name: string; example?: unknown } | { $ref: string })[] },
  query: Readonly<Record<string, unknown>> = {},
): void {
  for (const p of operation.parameters ?? []) {
    if ('name' in p && p.name in query) p.example = query[p.name];
  }
}
