import { getPriceKpis, getZoneImportExport } from '../../services/aggregates.js';
import { PRICE_KPI_ROW, ZONE_EXCHANGE_ROW } from '../../contract/rows/zone-aggregates.js';
import { rowsEndpoint } from '../endpoint.js';
import { PRICE_KPIS_EXAMPLE, ZONE_IMPORT_EXPORT_EXAMPLE } from './examples.js';
import { KPI_BASIS, LINEAGE, RANGE, TIME_ZONE, ZONES } from '../../contract/params.js';

/** GET /api/v1/price-kpis (docs/contract.md#endpoints). */
export const priceKpisEndpoint = rowsEndpoint({
  path: '/api/v1/price-kpis',
  reads: ['prices'],
  summary: 'Price statistics per zone',
  description:
    'One row per zone over the whole range. `basis=hourly` (default): statistics of the hourly time-weighted mean prices, one sample per UTC hour, hour counts in whole hours. `basis=native`: statistics of the published 15-minute or hourly prices weighted by duration (a 60-minute price counts as four quarter-hours; percentiles of the series sampled at the shortest period), min/max the real period extremes, hour counts as durations in hours (0.25 per quarter-hour). With lineage=true a named zone is one row over the hours of the zones it came from and its own (series_zones lists them; hourly basis only). No resolution parameter; meta.resolution is null.',
  params: [...RANGE, ZONES, TIME_ZONE, KPI_BASIS, LINEAGE],
  contract: PRICE_KPI_ROW,
  tag: 'Aggregates',
  example: PRICE_KPIS_EXAMPLE,
  rows: getPriceKpis,
});

/** GET /api/v1/zone-import-export (docs/contract.md#endpoints). */
export const zoneImportExportEndpoint = rowsEndpoint({
  path: '/api/v1/zone-import-export',
  reads: ['flows'],
  summary: 'Imports and exports per zone',
  description:
    'One row per zone over the range from the hourly net flows of its borders (physical; scheduled where physical is missing). No resolution parameter; meta.resolution is null.',
  params: [...RANGE, ZONES, TIME_ZONE],
  contract: ZONE_EXCHANGE_ROW,
  tag: 'Aggregates',
  example: ZONE_IMPORT_EXPORT_EXAMPLE,
  rows: getZoneImportExport,
});
