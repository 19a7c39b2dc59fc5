import { z } from 'zod';
import { APPLIED_RESOLUTION, enumValues, PROVENANCE } from '../contract/enums.js';
import { formatUtcNaive } from '../domain/time.js';
import type { Meta } from '../services/meta.js';

/** meta.pagination of /flows: the unsliced row count and the page. */
const PaginationSchema = z.object({
  total: z.int(),
  limit: z.int(),
  offset: z.int(),
  next_offset: z.int().nullable(),
});

/**
 * The REST response meta (docs/contract.md#envelope-and-meta) and its OpenAPI component; GraphQL's
 * `Meta` (graphql/schema/common.ts) carries the same values under its own names, which
 * test/unit/response-meta.test.ts holds to this one.
 */
export const MetaSchema = z
  .object({
    provenance: z.enum(enumValues(PROVENANCE)).meta({
      description:
        '`measured`: upstream observations; `derived`: computed from other signals, or generated (the demo data set, upstream_sources `demo`).',
    }),
    upstream_sources: z.array(z.string()).nullable().meta({
      description:
        'Where the data came from, e.g. "ENTSO-E Transparency Platform", or "demo" for the generated demo data set.',
    }),
    resolved_datetime_from: z
      .string()
      .nullable()
      .meta({ description: 'Start of the range used, UTC, without offset.', example: '2026-10-23T12:00:00' }),
    resolved_datetime_to: z
      .string()
      .nullable()
      .meta({ description: 'End of the range used (exclusive), UTC, without offset.' }),
    resolution: z
      .enum(enumValues(APPLIED_RESOLUTION))
      .nullable()
      .meta({ description: 'Applied resolution; null on endpoints without a resolution parameter.' }),
    pagination: PaginationSchema.nullable().meta({
      description: 'On /flows only: the unsliced row count and the page; null elsewhere.',
    }),
    time_zone: z.string().optional().meta({
      description:
        'Only when `tz` was given: the applied time zone, its canonical IANA name (`Europe/Berlin`, `UTC`) or `local`.',
      example: 'Europe/Berlin',
    }),
  })
  .strict()
  .meta({ id: 'Meta' });

/** The REST JSON meta. */
export type WireMeta = z.infer<typeof MetaSchema>;

/** FastAPI-style validation error body (docs/contract.md#validation-errors). */
export const ValidationErrorSchema = z
  .object({
    detail: z.array(
      z.object({
        loc: z.array(z.union([z.string(), z.int()])),
        msg: z.string(),
        type: z.string(),
        input: z.unknown().optional().meta({ description: 'The offending value as received, when there was one.' }),
      }),
    ),
  })
  .meta({ id: 'HTTPValidationError' });

/** Body of every other error: `{"detail": "..."}`. */
export const ErrorSchema = z.object({ detail: z.string() }).meta({ id: 'Error' });

/**
 * The REST JSON of a {@link Meta} ({@link MetaSchema}): instants as UTC text without offset, absent
 * values null, `time_zone` left out without `tz`.
 */
export function metaToWire(meta: Meta): WireMeta {
  const page = meta.pagination;
  return {
    provenance: meta.provenance,
    upstream_sources: meta.upstreamSources,
    resolved_datetime_from: meta.range ? formatUtcNaive(meta.range.from) : null,
    resolved_datetime_to: meta.range ? formatUtcNaive(meta.range.to) : null,
    resolution: meta.resolution,
    pagination: page && { total: page.total, limit: page.limit, offset: page.offset, next_offset: page.nextOffset },
    ...(meta.timeZone == null ? {} : { time_zone: meta.timeZone }),
  };
}
