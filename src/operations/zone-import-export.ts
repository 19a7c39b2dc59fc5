import { RANGE, TIME_ZONE, use, ZONES } from '../contract/params.js';
import { ZONE_EXCHANGE_ROW } from '../contract/rows/zone-aggregates.js';
import { getZoneImportExport } from '../services/aggregates.js';
import { ZONE_IMPORT_EXPORT_EXAMPLE } from './examples.js';
import { TZ_NOTES } from './notes.js';
import { defineOperation } from './operation.js';

/** Imports and exports per zone over the range (docs/contract.md#endpoints). */
export const zoneImportExport = defineOperation({
  path: '/api/v1/zone-import-export',
  reads: ['flows'],
  summary: 'Imports and exports per zone',
  description:
    'One row per zone over the range from the hourly net flows of its borders (physical; scheduled where physical is missing). No resolution parameter; meta.resolution is null.',
  params: [
    ...RANGE,
    use(ZONES, { graphql: 'One row per zone, from the flows at every border of the zone. Omitted: every zone.' }),
    use(TIME_ZONE, { graphql: TZ_NOTES.totals }),
  ],
  contract: ZONE_EXCHANGE_ROW,
  tag: 'Aggregates',
  example: ZONE_IMPORT_EXPORT_EXAMPLE,
  rows: getZoneImportExport,
  graphql: {
    kind: 'rows',
    field: 'zoneImportExport',
    description:
      'Imports and exports per zone over the whole range from its hourly border flows (REST /api/v1/zone-import-export); takes no resolution, meta.resolution is null.',
    result: {
      name: 'ZoneImportExportResult',
      description: 'Imports and exports per zone over the range (REST /api/v1/zone-import-export).',
    },
  },
});
