import { RANGE, RESOLUTION, TIME_ZONE, use, ZONES } from '../contract/params.js';
import { CI_SHARE_ROW } from '../contract/rows/flow-aggregates.js';
import { getCiShare } from '../services/aggregates.js';
import { CI_SHARE_EXAMPLE } from './examples.js';
import { TZ_NOTES } from './notes.js';
import { defineOperation } from './operation.js';

/** Counter-intuitive flow share per zone and bucket (docs/contract.md#endpoints). */
export const ciShare = defineOperation({
  path: '/api/v1/ci-share',
  reads: ['flows'],
  summary: 'Counter-intuitive flow share per zone',
  description:
    "Per zone and bucket: hours in which a counter-intuitive flow left the zone, over hours with an assessed flow at any of its borders. Buckets are hours at native/1H; UTC days/weeks at 1D/1W, local ones (the zone's time zone under `local`) with `tz`.",
  params: [
    ...RANGE,
    use(RESOLUTION, {
      graphql:
        'Bucket: UTC hours at NATIVE and HOURLY, UTC days at DAILY, ISO weeks from Monday 00:00 UTC at WEEKLY; AUTO picks by range width. Counts are hours (flows are hourly).',
    }),
    use(ZONES, {
      graphql:
        'The zones whose share is returned: hours in which a counter-intuitive flow left the zone over hours with an assessed flow at any of its borders. Omitted: every zone.',
    }),
    use(TIME_ZONE, { graphql: TZ_NOTES.buckets }),
  ],
  contract: CI_SHARE_ROW,
  tag: 'Aggregates',
  example: CI_SHARE_EXAMPLE,
  rows: getCiShare,
  graphql: {
    kind: 'rows',
    field: 'ciShare',
    description: 'Counter-intuitive flow share per zone and bucket (REST /api/v1/ci-share).',
    result: {
      name: 'CiShareResult',
      description: 'Counter-intuitive share per zone and bucket (REST /api/v1/ci-share).',
    },
    anyRange: true,
  },
});
