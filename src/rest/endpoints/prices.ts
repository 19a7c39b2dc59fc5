import { z } from 'zod';
import type { PriceRecord } from '../../repositories/prices.js';
import { getPrices } from '../../services/prices.js';
import { formatUtc } from '../../domain/time.js';
import { defineEndpoint } from '../endpoint.js';
import { roundPrice } from '../../domain/rounding.js';
import { resolutionParam, sharedTimeParams, zoneParam } from '../schemas.js';

/** PriceRow of spec 2.3. */
export const PriceRowSchema = z
  .object({
    datetime: z.string().meta({ format: 'date-time', description: 'Start of the price period or bucket, UTC (RFC 3339 with Z).', example: '2026-11-01T00:00:00Z' }),
    bidding_zone: z.string().meta({ description: 'Bidding zone short code.', example: 'DE_LU' }),
    price_mwh: z.number().meta({ description: 'Day-ahead price in EUR/MWh; a time-weighted mean at 1H, 1D and 1W.' }),
    interpolated: z.boolean().meta({ description: 'true when the value (or any value of the bucket) fills a gap in the upstream data.' }),
    year: z.int().meta({ description: 'Calendar year (UTC) of the row.' }),
  })
  .strict()
  .meta({ id: 'PriceRow' });

function toRow(r: PriceRecord): z.infer<typeof PriceRowSchema> {
  return {
    datetime: formatUtc(r.datetime),
    bidding_zone: r.zone,
    price_mwh: roundPrice(r.price),
    interpolated: r.interpolated,
    year: r.datetime.getUTCFullYear(),
  };
}

/** GET /api/v1/prices (spec 4.2). */
export const pricesEndpoint = defineEndpoint({
  path: '/api/v1/prices',
  summary: 'Day-ahead prices',
  description:
    'Day-ahead prices per bidding zone in EUR/MWh. Native rows are 15-minute where the market cleared in 15-minute periods (from 2025-10-01) and hourly before; 1H, 1D and 1W rows are time-weighted means per UTC bucket, stamped with the bucket start. Rows are ordered by datetime, then zone.',
  query: z.object({ ...sharedTimeParams, resolution: resolutionParam, zone: zoneParam }),
  row: PriceRowSchema,
  async handle(deps, q) {
    const { meta, rows } = await getPrices(deps, {
      zones: q.zone,
      datetimeFrom: q.datetime_from,
      datetimeTo: q.datetime_to,
      resolution: q.resolution,
    });
    return { meta, data: rows.map(toRow) };
  },
});
