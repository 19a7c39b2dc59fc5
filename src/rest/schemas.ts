import { z } from 'zod';
import { REQUESTED_RESOLUTIONS } from '../domain/resolution.js';
import { formatUtcNaive } from '../domain/time.js';
import type { Meta } from '../services/meta.js';

const datetimeParam = (fallback: string, what: string) =>
  z
    .string()
    .optional()
    .meta({
      description: `${what}. ISO 8601 datetime (UTC when no offset is given; a bare date is 00:00 UTC) or relative: \`now\`, optionally followed by \`-<n><unit>\` with unit m (minutes), H or h (hours), d, w, M (months), y. Offsets must lie within ±14:00; instants from 1900-01-01T00:00:00Z to 2200-01-01T00:00:00Z. Default \`${fallback}\`. Ranges are half-open [from, to).`,
      example: fallback,
    });

/** Query parameters shared by the time-series endpoints (spec 4.1). */
export const sharedTimeParams = {
  datetime_from: datetimeParam('now-30d', 'Start of the range'),
  datetime_to: datetimeParam('now', 'End of the range (exclusive)'),
};

/** The `tz` parameter: how naive bounds are read, where buckets start, which offset rows carry. */
export const tzParam = z
  .string()
  .optional()
  .meta({
    description:
      'Time zone: an IANA name (case-insensitive, e.g. Europe/Berlin), `UTC`, or `local` for each bidding zone\'s own time zone (a border: its first zone in stored orientation). Sets how datetime_from/datetime_to without offset are read (under `local` only when the selected zones share one time zone; otherwise give an offset), and where 1H/1D/1W buckets start: a local day has 23, 24 or 25 hours, a local week starts Monday 00:00 local. Row datetimes are the same instants written with the zone\'s offset (`2026-03-29T00:00:00+01:00`) and meta.time_zone names the zone. Omitted or `UTC`: UTC, unchanged.',
      example: 'Europe/Berlin',
    });

/** The resolution parameter (spec 4.1 and 8). */
export const resolutionParam = z
  .enum(REQUESTED_RESOLUTIONS)
  .default('auto')
  .meta({
    description:
      'Aggregation: auto (by range width: <= 2 days native, <= 14 days 1H, <= 90 days 1D, else 1W), native (range at most 2 days), 1H (at most 14 days), 1D, 1W. Buckets are UTC; 1W buckets are ISO weeks starting Monday 00:00 UTC (with `tz`: local hours, days and Monday-to-Monday weeks); aggregates are time-weighted means.',
  });

/** A repeatable zone filter: short code (`DE_LU`) or EIC, case-insensitive. */
export const zoneParam = z
  .array(z.string())
  .optional()
  .meta({ description: 'Bidding zone short code (e.g. DE_LU) or EIC, case-insensitive. Repeat to select several; omitted means all zones.', example: ['DE_LU', 'FR'] });

/** The response meta (spec 2.2). */
export const MetaSchema = z
  .object({
    provenance: z.enum(['measured', 'derived']).meta({ description: '`measured`: upstream observations; `derived`: computed from other signals, or generated (the demo data set, upstream_sources `demo`).' }),
    upstream_sources: z.array(z.string()).nullable().meta({ description: 'Where the data came from, e.g. "ENTSO-E Transparency Platform", or "demo" for the generated demo data set.' }),
    resolved_datetime_from: z.string().nullable().meta({ description: 'Start of the range used, UTC, without offset.', example: '2026-10-23T12:00:00' }),
    resolved_datetime_to: z.string().nullable().meta({ description: 'End of the range used (exclusive), UTC, without offset.' }),
    resolution: z.enum(['native', '1H', '1D', '1W']).nullable().meta({ description: 'Applied resolution; null on endpoints without a resolution parameter.' }),
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
