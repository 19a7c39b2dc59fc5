import { BORDERS, POINTS, RANGE, TIME_ZONE, use, ZONES } from '../contract/params.js';
import { DURATION_ROW } from '../contract/rows/flow-aggregates.js';
import { getFlowDuration } from '../services/aggregates.js';
import { DURATION_EXAMPLE } from './examples.js';
import { TZ_NOTES } from './notes.js';
import { defineOperation } from './operation.js';

/** Flow duration curves per border and zone net position (docs/contract.md#endpoints). */
export const flowDuration = defineOperation({
  path: '/api/v1/flow-duration',
  reads: ['flows'],
  summary: 'Flow duration curves',
  description:
    'Duration curves of hourly flows at evenly spaced percentages, per border (`border`, signed in the written orientation) and per zone net position (`zone`). Without filters: every border. No resolution parameter; meta.resolution is null.',
  params: [
    ...RANGE,
    use(BORDERS, {
      graphql:
        'One curve per border, its hourly flows signed in the written orientation (positive = power from A to B), MW. Without borders and zones: every border in stored orientation (codes sorted).',
    }),
    use(ZONES, {
      rest: 'Zone whose net position (sum of its border flows, export positive) forms a series.',
      graphql: 'One curve per zone: its hourly net position (sum of its border flows, export positive), MW.',
    }),
    POINTS,
    use(TIME_ZONE, { graphql: TZ_NOTES.totals }),
  ],
  contract: DURATION_ROW,
  tag: 'Aggregates',
  example: DURATION_EXAMPLE,
  rows: getFlowDuration,
  graphql: {
    kind: 'rows',
    field: 'flowDuration',
    description:
      'Flow duration curves of hourly flows per border and zone net position (REST /api/v1/flow-duration); takes no resolution, meta.resolution is null.',
    result: {
      name: 'FlowDurationResult',
      description: 'Flow duration curves per border and zone net position (REST /api/v1/flow-duration).',
    },
  },
});
