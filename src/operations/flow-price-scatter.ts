import { BORDERS, FLOW_BIN, PRICE_BIN, RANGE, RESOLUTION, TIME_ZONE, use } from '../contract/params.js';
import { SCATTER_ROW } from '../contract/rows/flow-aggregates.js';
import { getFlowPriceScatter } from '../services/aggregates.js';
import { SCATTER_EXAMPLE } from './examples.js';
import { TZ_NOTES } from './notes.js';
import { defineOperation } from './operation.js';

/** Binned flow versus price difference per border (docs/contract.md#endpoints). */
export const flowPriceScatter = defineOperation({
  path: '/api/v1/flow-price-scatter',
  reads: ['prices', 'flows'],
  summary: 'Flow versus price difference',
  description:
    'Observations of signed net flow and price difference per border (hourly at native/1H, bucket means at 1D/1W; outage hours left out), binned to flow_bin_mw MW and price_bin EUR/MWh. Without a border filter every border is returned in stored orientation.',
  params: [
    ...RANGE,
    use(RESOLUTION, {
      graphql:
        'Observations: hourly at NATIVE and HOURLY, means of UTC days at DAILY and of ISO weeks (Monday 00:00 UTC) at WEEKLY; AUTO picks by range width.',
    }),
    use(BORDERS, {
      graphql:
        'Each selects its border whatever the direction of flow; the written orientation signs the flow (positive = power from A to B, MW) and the price difference (price of B - price of A, EUR/MWh). Omitted: every border in stored orientation (codes sorted).',
    }),
    FLOW_BIN,
    PRICE_BIN,
    use(TIME_ZONE, { graphql: TZ_NOTES.scatter }),
  ],
  contract: SCATTER_ROW,
  tag: 'Aggregates',
  example: SCATTER_EXAMPLE,
  rows: getFlowPriceScatter,
  graphql: {
    kind: 'rows',
    field: 'flowPriceScatter',
    description:
      'Flow versus price difference per border, binned (REST /api/v1/flow-price-scatter); outage hours are left out.',
    result: {
      name: 'FlowPriceScatterResult',
      description: 'Binned flow versus price difference per border (REST /api/v1/flow-price-scatter).',
    },
    anyRange: true,
  },
});
