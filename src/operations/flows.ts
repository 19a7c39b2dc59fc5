import {
  BASIS,
  BORDERS,
  FLOW_TYPES_PARAM,
  LIMIT,
  OFFSET,
  RANGE,
  RESOLUTION,
  TIME_ZONE,
  use,
  ZONES,
} from '../contract/params.js';
import { FLOW_ROW } from '../contract/rows/flows.js';
import { PAGE_LIMITS } from '../limits.js';
import { getFlowOffsetPage } from '../services/flows.js';
import { FLOWS_EXAMPLE } from './examples.js';
import { defineOperation } from './operation.js';

/**
 * Classified border-hours (docs/contract.md#endpoints): on REST pages by limit/offset, on GraphQL a
 * keyset connection (graphql/schema/flows.ts) that also takes `basis`.
 */
export const flows = defineOperation({
  path: '/api/v1/flows',
  reads: ['flows'],
  summary: 'Hourly flow classifications',
  description:
    'One row per border-hour (native and 1H: flows are hourly), classified convergence, congestion, counter_intuitive or outage; at 1D/1W one row per bucket, border direction and flow type with the hour count and means. Rows are ordered by datetime, bidding_zone_from, bidding_zone_to, flow_type before slicing; meta.pagination gives total, limit, offset and next_offset (null on the last page). Filters combine with AND; a repeated filter is OR.',
  params: [
    ...RANGE,
    use(RESOLUTION, {
      graphql:
        'Aggregation, as REST /flows: NATIVE and HOURLY give one row per border-hour (flows are hourly); DAILY (UTC days) and WEEKLY (ISO weeks from Monday 00:00 UTC) one row per bucket, border direction and flow type with the hour count and means; AUTO picks by range width.',
    }),
    use(BORDERS, {
      graphql:
        'Each selects its border whatever the direction of flow; rows keep the direction of their flow. Omitted: every border.',
    }),
    use(ZONES, {
      rest: 'Zone on either side of the border (code or EIC); repeat for several.',
      graphql: 'Selects the borders with the zone on either side; combined with borders by AND. Omitted: every zone.',
    }),
    FLOW_TYPES_PARAM,
    LIMIT,
    OFFSET,
    use(TIME_ZONE, {
      graphql:
        'Hourly, daily and weekly buckets are local; datetime carries the offset. With local, a border is in the zone of its zone A (codes sorted).',
    }),
    BASIS,
  ],
  contract: FLOW_ROW,
  tag: 'Flows',
  example: FLOWS_EXAMPLE,
  rows: getFlowOffsetPage,
  graphql: {
    kind: 'connection',
    field: 'flows',
    description:
      'Classified border-hours ordered by datetime, from, to, flow type (REST /api/v1/flows) with opaque keyset cursors: stable under inserts, no OFFSET scans.',
    connection: {
      name: 'FlowConnection',
      description: 'A page of flow rows with the total row count and the response meta.',
    },
    maxPage: PAGE_LIMITS.flows,
  },
});
