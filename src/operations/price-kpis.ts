import { KPI_BASIS, LINEAGE, RANGE, TIME_ZONE, use, ZONES } from '../contract/params.js';
import { PRICE_KPI_ROW } from '../contract/rows/zone-aggregates.js';
import { getPriceKpis } from '../services/aggregates.js';
import { PRICE_KPIS_EXAMPLE } from './examples.js';
import { TZ_NOTES } from './notes.js';
import { defineOperation } from './operation.js';

/** Price statistics per zone over the range (docs/contract.md#endpoints). */
export const priceKpis = defineOperation({
  path: '/api/v1/price-kpis',
  reads: ['prices'],
  summary: 'Price statistics per zone',
  description:
    'One row per zone over the whole range. `basis=hourly` (default): statistics of the hourly time-weighted mean prices, one sample per UTC hour, hour counts in whole hours. `basis=native`: statistics of the published 15-minute or hourly prices weighted by duration (a 60-minute price counts as four quarter-hours; percentiles of the series sampled at the shortest period), min/max the real period extremes, hour counts as durations in hours (0.25 per quarter-hour). With lineage=true a named zone is one row over the hours of the zones it came from and its own (series_zones lists them; hourly basis only). No resolution parameter; meta.resolution is null.',
  params: [
    ...RANGE,
    use(ZONES, { graphql: 'One row per zone. Omitted: every zone.' }),
    use(TIME_ZONE, { graphql: TZ_NOTES.totals }),
    KPI_BASIS,
    use(LINEAGE, { graphql: 'One row per named zone over the hours of its series; seriesZones lists the zones.' }),
  ],
  contract: PRICE_KPI_ROW,
  tag: 'Aggregates',
  example: PRICE_KPIS_EXAMPLE,
  rows: getPriceKpis,
  graphql: {
    kind: 'rows',
    field: 'priceKpis',
    description:
      'Statistics of day-ahead prices per zone over the whole range (REST /api/v1/price-kpis): of the hourly means (basis HOURLY, default) or of the published periods weighted by duration (NATIVE); takes no resolution, meta.resolution is null.',
    result: {
      name: 'PriceKpisResult',
      description: 'Price statistics per zone over the range (REST /api/v1/price-kpis).',
    },
  },
});
