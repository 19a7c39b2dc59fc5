import { WIRE_PRICE_DECIMALS } from '../../domain/rounding.js';
import type { PriceRecord } from '../../domain/records.js';
import { defineRow, fieldsOf } from '../fields.js';

const f = fieldsOf<PriceRecord>();

const SERIES_DOC = {
  description:
    'The requested zone the row belongs to: bidding_zone, except with lineage=true before the requested zone existed, where bidding_zone names the predecessor whose price this is (series DE_LU, bidding_zone DE_AT_LU before 2018-10-01).',
  example: 'DE_LU',
} as const;
const seriesOf = (p: PriceRecord) => p.series ?? p.zone;
const SERIES_GRAPHQL = f.string(seriesOf, { ...SERIES_DOC, graphql: 'series' });

/** A price row (docs/contract.md#rows): REST /prices rows and GraphQL PricePoint. */
export const PRICE_ROW = defineRow<PriceRecord>({
  rest: 'PriceRow',
  graphql: 'PricePoint',
  description: 'A day-ahead price of one zone: a native period (15-minute or hourly) or a UTC bucket.',
  fields: [
    f.datetime((p) => p.datetime, {
      rest: 'datetime',
      graphql: 'datetime',
      description:
        'Start of the period or bucket: UTC (Z), or with the offset of the requested time zone (tz) at that instant.',
      example: '2026-11-01T00:00:00Z',
    }),
    f.string((p) => p.zone, {
      rest: 'bidding_zone',
      graphql: 'biddingZone',
      description: 'Bidding zone short code: the zone whose price this is.',
      example: 'DE_LU',
    }),
    f.zone((p) => p.zone, { graphql: 'zone', description: 'The bidding zone.' }),
    SERIES_GRAPHQL,
    f.float((p) => p.price, {
      rest: 'price_mwh',
      graphql: 'priceEurMwh',
      round: WIRE_PRICE_DECIMALS,
      description: 'Price in EUR/MWh (time-weighted mean for buckets), rounded to 0.0001.',
    }),
    f.boolean((p) => p.interpolated, {
      rest: 'interpolated',
      graphql: 'interpolated',
      description: 'true when the value (or any value of the bucket) fills a gap upstream.',
    }),
    f.year((p) => p.datetime, {
      rest: 'year',
      graphql: 'year',
      description:
        'Calendar year of datetime: UTC, or local in the requested time zone (tz), e.g. 2026 for 2025-12-31T23:00:00Z under Europe/Berlin.',
    }),
  ],
});

/**
 * The REST price row with lineage=true: the contract's fields and `series` after `bidding_zone` (a row
 * without lineage has exactly the contract's fields: it allows no other).
 */
export const PRICE_LINEAGE_ROW = defineRow<PriceRecord>({
  ...PRICE_ROW,
  fields: PRICE_ROW.fields.flatMap((field) =>
    field === SERIES_GRAPHQL ? [f.string(seriesOf, { ...SERIES_DOC, rest: 'series' })] : [field],
  ),
});
