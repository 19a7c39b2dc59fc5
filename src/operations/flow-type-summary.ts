import { BORDERS, RANGE, RESOLUTION, TIME_ZONE, use } from '../contract/params.js';
import { FLOW_TYPE_SUMMARY_ROW } from '../contract/rows/flow-aggregates.js';
import { getFlowTypeSummary } from '../services/aggregates.js';
import { FLOW_TYPE_SUMMARY_EXAMPLE } from './examples.js';
import { TZ_NOTES } from './notes.js';
import { defineOperation } from './operation.js';

/** Daily (or weekly) flow-type breakdown per border (docs/contract.md#endpoints). */
export const flowTypeSummary = defineOperation({
  path: '/api/v1/flow-type-summary',
  reads: ['flows'],
  summary: 'Daily flow-type breakdown per border',
  description:
    "Per UTC day (local day with `tz`: the border's zone A's time zone under `local`) and border, the share of assessed hours of each flow type (percentages summing to ~100). Never finer than 1D: native, 1H and auto below 1D apply 1D (meta.resolution says so); 1W gives ISO weeks.",
  params: [
    ...RANGE,
    use(RESOLUTION, {
      graphql:
        'Bucket, never finer than DAILY: DAILY (UTC days) or WEEKLY (ISO weeks from Monday 00:00 UTC); NATIVE, HOURLY and an AUTO below DAILY apply DAILY, and meta.resolution says so.',
    }),
    use(BORDERS, {
      graphql:
        'Each selects its border whatever the direction of flow; rows stay in stored orientation (codes sorted). Omitted: every border.',
    }),
    use(TIME_ZONE, { graphql: TZ_NOTES.buckets }),
  ],
  contract: FLOW_TYPE_SUMMARY_ROW,
  tag: 'Aggregates',
  example: FLOW_TYPE_SUMMARY_EXAMPLE,
  rows: getFlowTypeSummary,
  graphql: {
    kind: 'rows',
    field: 'flowTypeSummary',
    description: 'Daily (or weekly) flow-type breakdown per border (REST /api/v1/flow-type-summary).',
    result: {
      name: 'FlowTypeSummaryResult',
      description: 'Daily (or weekly) flow-type breakdown per border (REST /api/v1/flow-type-summary).',
    },
    anyRange: true,
  },
});
