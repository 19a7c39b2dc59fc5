import { CI_SHARE_ROW, DURATION_ROW, FLOW_TYPE_SUMMARY_ROW, SCATTER_ROW } from '../../contract/rows/flow-aggregates.js';
import { getCiShare, getFlowDuration, getFlowPriceScatter, getFlowTypeSummary } from '../../services/aggregates.js';
import { rowsEndpoint } from '../endpoint.js';
import { CI_SHARE_EXAMPLE, DURATION_EXAMPLE, FLOW_TYPE_SUMMARY_EXAMPLE, SCATTER_EXAMPLE } from './examples.js';
import {
  BORDERS,
  FLOW_BIN,
  POINTS,
  PRICE_BIN,
  RANGE,
  RESOLUTION,
  TIME_ZONE,
  use,
  ZONES,
} from '../../contract/params.js';

/** GET /api/v1/flow-type-summary (docs/contract.md#endpoints). */
export const flowTypeSummaryEndpoint = rowsEndpoint({
  path: '/api/v1/flow-type-summary',
  reads: ['flows'],
  summary: 'Daily flow-type breakdown per border',
  description:
    "Per UTC day (local day with `tz`: the border's zone A's time zone under `local`) and border, the share of assessed hours of each flow type (percentages summing to ~100). Never finer than 1D: native, 1H and auto below 1D apply 1D (meta.resolution says so); 1W gives ISO weeks.",
  params: [...RANGE, RESOLUTION, BORDERS, TIME_ZONE],
  contract: FLOW_TYPE_SUMMARY_ROW,
  tag: 'Aggregates',
  example: FLOW_TYPE_SUMMARY_EXAMPLE,
  rows: getFlowTypeSummary,
});

/** GET /api/v1/ci-share (docs/contract.md#endpoints). */
export const ciShareEndpoint = rowsEndpoint({
  path: '/api/v1/ci-share',
  reads: ['flows'],
  summary: 'Counter-intuitive flow share per zone',
  description:
    "Per zone and bucket: hours in which a counter-intuitive flow left the zone, over hours with an assessed flow at any of its borders. Buckets are hours at native/1H; UTC days/weeks at 1D/1W, local ones (the zone's time zone under `local`) with `tz`.",
  params: [...RANGE, RESOLUTION, ZONES, TIME_ZONE],
  contract: CI_SHARE_ROW,
  tag: 'Aggregates',
  example: CI_SHARE_EXAMPLE,
  rows: getCiShare,
});

/** GET /api/v1/flow-price-scatter (docs/contract.md#endpoints). */
export const scatterEndpoint = rowsEndpoint({
  path: '/api/v1/flow-price-scatter',
  reads: ['prices', 'flows'],
  summary: 'Flow versus price difference',
  description:
    'Observations of signed net flow and price difference per border (hourly at native/1H, bucket means at 1D/1W; outage hours left out), binned to flow_bin_mw MW and price_bin EUR/MWh. Without a border filter every border is returned in stored orientation.',
  params: [...RANGE, RESOLUTION, BORDERS, FLOW_BIN, PRICE_BIN, TIME_ZONE],
  contract: SCATTER_ROW,
  tag: 'Aggregates',
  example: SCATTER_EXAMPLE,
  rows: getFlowPriceScatter,
});

/** GET /api/v1/flow-duration (docs/contract.md#endpoints). */
export const durationEndpoint = rowsEndpoint({
  path: '/api/v1/flow-duration',
  reads: ['flows'],
  summary: 'Flow duration curves',
  description:
    'Duration curves of hourly flows at evenly spaced percentages, per border (`border`, signed in the written orientation) and per zone net position (`zone`). Without filters: every border. No resolution parameter; meta.resolution is null.',
  params: [
    ...RANGE,
    BORDERS,
    use(ZONES, { rest: 'Zone whose net position (sum of its border flows, export positive) forms a series.' }),
    POINTS,
    TIME_ZONE,
  ],
  contract: DURATION_ROW,
  tag: 'Aggregates',
  example: DURATION_EXAMPLE,
  rows: getFlowDuration,
});
