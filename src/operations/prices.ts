import { LINEAGE, RANGE, RESOLUTION, TIME_ZONE, use, ZONES } from '../contract/params.js';
import { PRICE_LINEAGE_ROW, PRICE_ROW } from '../contract/rows/prices.js';
import { PAGE_LIMITS } from '../limits.js';
import { getPrices } from '../services/prices.js';
import { PRICES_EXAMPLE } from './examples.js';
import { defineOperation } from './operation.js';

/** Day-ahead prices (docs/contract.md#endpoints); on GraphQL a keyset connection (graphql/schema/prices.ts). */
export const prices = defineOperation({
  path: '/api/v1/prices',
  reads: ['prices'],
  summary: 'Day-ahead prices',
  description:
    'Day-ahead prices per bidding zone in EUR/MWh. Native rows are 15-minute where the market cleared in 15-minute periods (from 2025-10-01) and hourly before; 1H, 1D and 1W rows are time-weighted means per UTC bucket (local with `tz`), stamped with the bucket start. Rows are ordered by datetime, then zone (with lineage: datetime, series, zone). A named zone asked for a range outside its period is a 422 naming the zone before or after it; lineage=true answers the zone it came from instead, each row marked with its actual zone (`bidding_zone`) and, with lineage=true only, the requested zone (`series`); without lineage rows have exactly the fields below.',
  params: [
    ...RANGE,
    use(RESOLUTION, {
      graphql:
        'Aggregation: time-weighted means of the native prices per UTC hour, day or ISO week (local ones with timeZone); AUTO picks by range width.',
    }),
    use(ZONES, { graphql: 'Omitted means all zones.' }),
    use(TIME_ZONE, {
      graphql:
        'Hourly, daily and weekly means are of local hours, days and weeks; datetime carries the offset (2026-03-29T00:00:00+01:00).',
    }),
    use(LINEAGE, { graphql: 'Rows keep their actual zone in biddingZone and the requested one in series.' }),
  ],
  contract: PRICE_ROW,
  contractOf: (input) => (input.lineage === true ? PRICE_LINEAGE_ROW : PRICE_ROW),
  tag: 'Prices',
  example: PRICES_EXAMPLE,
  rows: getPrices,
  graphql: {
    kind: 'connection',
    field: 'prices',
    description:
      'Day-ahead prices in EUR/MWh, ordered by datetime then zone; the same rows as REST /api/v1/prices. Forward keyset pagination (first/after).',
    connection: {
      name: 'PriceConnection',
      description: 'A page of prices with the total row count and the response meta.',
    },
    maxPage: PAGE_LIMITS.prices,
    argOrder: ['zones', 'from', 'to', 'resolution', 'timeZone', 'lineage'],
  },
});
