import { z } from 'zod';
import { APPLIED_RESOLUTION, enumValues, PROVENANCE } from '../contract/enums.js';
import { formatUtcNaive } from '../domain/time.js';
import type { Meta } from '../services/meta.js';

/** The response meta (spec 2.2). */
export const MetaSchema = z
  .object({
    provenance: z.enum(enumValues(PROVENANCE)).meta({ description: '`measured`: upstream observations; `derived`: computed from other signals, or generated (the demo data set, upstream_sources `demo`).' }),
    upstream_sources: z.array(z.string()).nullable().meta({ description: 'Where the data came from, e.g. "ENTSO-E Transparency Platform", or "demo" for the generated demo data set.' }),
    resolved_datetime_from: z.string().nullable().meta({ description: 'Start of the range used, UTC, without offset.', example: '2026-10-23T12:00:00' }),
    resolved_datetime_to: z.string().nullable().meta({ description: 'End of the range used (exclusive), UTC, without offset.' }),
    resolution: z.enum(enumValues(APPLIED_RESOLUTION)).nullable().meta({ description: 'Applied resolution; null on endpoints without a resolution parameter.' }),
    pagination: z
      .object({
        total: z.int(),
        limit: z.int(),
        offset: z.int(),
        next_offset: z.int().nullable(),
      })
      .nullable()
      .meta({ description: 'On /flows only: the unsliced row count and the page; null elsewhere.' }),
    time_zone: z
      .string()
      .optional()
      .meta({ description: 'Only when `tz` was given: the applied time zone, its canonical IANA name (`Europe/Berlin`, `UTC`) or `local`.', example: 'Europe/Berlin' }),
  })
  .strict()
  .meta({ id: 'Meta' });

/** FastAPI-style validation error body (spec 2.10). */
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

/** Serialises a {@link Meta} to the wire shape of {@link MetaSchema}. */
export function metaToWire(meta: Meta): z.infer<typeof MetaSchema> {
  return {
    provenance: meta.provenance,
    upstream_sources: meta.upstreamSources,
    resolved_datetime_from: meta.range ? formatUtcNaive(meta.range.from) : null,
    resolved_datetime_to: meta.range ? formatUtcNaive(meta.range.to) : null,
    resolution: meta.resolution,
    pagination: meta.pagination && {
      total: meta.pagination.total,
      limit: meta.pagination.limit,
      offset: meta.pagination.offset,
      next_offset: meta.pagination.nextOffset,
    },
    ...(meta.timeZone !== undefined && { time_zone: meta.timeZone }),
  };
}
