import { z } from 'zod';
import { FLOW_ROW } from '../../contract/rows/flows.js';
import { getFlowOffsetPage } from '../../services/flows.js';
import { rowsEndpoint } from '../endpoint.js';
import { FLOWS_EXAMPLE } from './examples.js';
import { borderParam, flowTypeParam, limitParam, offsetParam } from '../flow-params.js';
import { resolutionParam, sharedTimeParams, tzParam, zoneParam } from '../schemas.js';

/** GET /api/v1/flows (spec 4.6). */
export const flowsEndpoint = rowsEndpoint({
  path: '/api/v1/flows',
  reads: ['flows'],
  summary: 'Hourly flow classifications',
  description:
    'One row per border-hour (native and 1H: flows are hourly), classified convergence, congestion, counter_intuitive or outage; at 1D/1W one row per bucket, border direction and flow type with the hour count and means. Rows are ordered by datetime, bidding_zone_from, bidding_zone_to, flow_type before slicing; meta.pagination gives total, limit, offset and next_offset (null on the last page). Filters combine with AND; a repeated filter is OR.',
  query: z.object({
    ...sharedTimeParams,
    resolution: resolutionParam,
    border: borderParam,
    zone: zoneParam.meta({ description: 'Zone on either side of the border (code or EIC); repeat for several.' }),
    flow_type: flowTypeParam,
    limit: limitParam,
    offset: offsetParam,
    tz: tzParam,
  }),
  contract: FLOW_ROW,
  tag: 'Flows',
  example: FLOWS_EXAMPLE,
  rows: (deps, q) => getFlowOffsetPage(deps, {
    borders: q.border, zones: q.zone, flowTypes: q.flow_type,
    datetimeFrom: q.datetime_from, datetimeTo: q.datetime_to, resolution: q.resolution,
    limit: q.limit, offset: q.offset, tz: q.tz,
  }),
});
