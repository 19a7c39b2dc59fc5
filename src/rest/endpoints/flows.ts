import { FLOW_ROW } from '../../contract/rows/flows.js';
import { getFlowOffsetPage } from '../../services/flows.js';
import { rowsEndpoint } from '../endpoint.js';
import { FLOWS_EXAMPLE } from '../../operations/examples.js';
import {
  BORDERS,
  FLOW_TYPES_PARAM,
  LIMIT,
  OFFSET,
  RANGE,
  RESOLUTION,
  TIME_ZONE,
  use,
  ZONES,
} from '../../contract/params.js';

/** GET /api/v1/flows (docs/contract.md#endpoints). */
export const flowsEndpoint = rowsEndpoint({
  path: '/api/v1/flows',
  reads: ['flows'],
  summary: 'Hourly flow classifications',
  description:
    'One row per border-hour (native and 1H: flows are hourly), classified convergence, congestion, counter_intuitive or outage; at 1D/1W one row per bucket, border direction and flow type with the hour count and means. Rows are ordered by datetime, bidding_zone_from, bidding_zone_to, flow_type before slicing; meta.pagination gives total, limit, offset and next_offset (null on the last page). Filters combine with AND; a repeated filter is OR.',
  params: [
    ...RANGE,
    RESOLUTION,
    BORDERS,
    use(ZONES, { rest: 'Zone on either side of the border (code or EIC); repeat for several.' }),
    FLOW_TYPES_PARAM,
    LIMIT,
    OFFSET,
    TIME_ZONE,
  ],
  contract: FLOW_ROW,
  tag: 'Flows',
  example: FLOWS_EXAMPLE,
  rows: getFlowOffsetPage,
});
