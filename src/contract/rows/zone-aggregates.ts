import { HOUR_DECIMALS, MW_DECIMALS, WIRE_PRICE_DECIMALS } from '../../domain/rounding.js';
import type { getPriceKpis, getZoneImportExport } from '../../services/aggregates.js';
import { defineRow, fieldsOf, type ServiceRow } from '../fields.js';

const kpi = fieldsOf<ServiceRow<typeof getPriceKpis>>();
const eur = (rest: string, graphql: string, description: string) => ({
  rest,
  graphql,
  round: WIRE_PRICE_DECIMALS,
  description: `${description}, EUR/MWh.`,
});
const hours = (rest: string, graphql: string, description: string) => ({
  rest,
  graphql,
  round: HOUR_DECIMALS,
  description: `${description}: whole hours on the hourly basis, a duration in hours on the native basis (a quarter-hour counts 0.25).`,
});

/** A price KPI row (docs/contract.md#rows). */
export const PRICE_KPI_ROW = defineRow<ServiceRow<typeof getPriceKpis>>({
  rest: 'PriceKpiRow',
  graphql: 'PriceKpis',
  description:
    'Statistics of a zone’s day-ahead prices over the range: of its hourly means (basis hourly) or of its published periods weighted by duration (basis native).',
  fields: [
    kpi.string((r) => r.zone, { rest: 'bidding_zone', graphql: 'biddingZone', description: 'Bidding zone code.' }),
    kpi.zone((r) => r.zone, { graphql: 'zone', description: 'The bidding zone.' }),
    kpi.float((r) => r.mean, eur('mean_price', 'meanPrice', 'Mean')),
    kpi.float((r) => r.min, eur('min_price', 'minPrice', 'Lowest hourly (or, native, period) price')),
    kpi.float((r) => r.max, eur('max_price', 'maxPrice', 'Highest hourly (or, native, period) price')),
    kpi.float((r) => r.std, eur('std_price', 'stdPrice', 'Population standard deviation')),
    kpi.float((r) => r.p05, eur('p05_price', 'p05Price', '5th percentile')),
    kpi.float((r) => r.median, eur('median_price', 'medianPrice', 'Median')),
    kpi.float((r) => r.p95, eur('p95_price', 'p95Price', '95th percentile')),
    kpi.float((r) => r.peakMean, {
      ...eur(
        'peak_mean_price',
        'peakMeanPrice',
        'Mean over Mon-Fri 08:00-20:00 zone local time (native: by period start)',
      ),
      nullable: true,
    }),
    kpi.float((r) => r.offpeakMean, {
      ...eur('offpeak_mean_price', 'offpeakMeanPrice', 'Mean over the other hours (native: periods)'),
      nullable: true,
    }),
    kpi.float((r) => r.negativeHours, hours('negative_hours', 'negativeHours', 'Time with a negative price')),
    kpi.float((r) => r.hours, hours('hours', 'hours', 'Time with a price')),
    kpi.float(
      (r) => r.interpolatedHours,
      hours('interpolated_hours', 'interpolatedHours', 'Time with an interpolated price (hourly: an hour with any)'),
    ),
    kpi.strings((r) => r.seriesZones, {
      rest: 'series_zones',
      graphql: 'seriesZones',
      description:
        'Zones whose prices the row covers, oldest first: bidding_zone alone, or with lineage=true the zones it came from over the part of the range before it existed, then itself (DE_AT_LU, DE_LU).',
    }),
  ],
});

const exchange = fieldsOf<ServiceRow<typeof getZoneImportExport>>();
const mwh = (rest: string, graphql: string, description: string) => ({
  rest,
  graphql,
  round: MW_DECIMALS,
  description: `${description}, MWh.`,
});

/** A zone import/export row (docs/contract.md#rows). */
export const ZONE_EXCHANGE_ROW = defineRow<ServiceRow<typeof getZoneImportExport>>({
  rest: 'ZoneImportExportRow',
  graphql: 'ZoneImportExport',
  description: 'Cross-border exchange of a zone over the range.',
  fields: [
    exchange.string((r) => r.zone, { rest: 'zone', graphql: 'biddingZone', description: 'Bidding zone code.' }),
    exchange.zone((r) => r.zone, { graphql: 'zone', description: 'The bidding zone.' }),
    exchange.float((r) => r.importMwh, mwh('import_mwh', 'importMwh', 'Imported energy')),
    exchange.float((r) => r.exportMwh, mwh('export_mwh', 'exportMwh', 'Exported energy')),
    exchange.float((r) => r.netExportMwh, mwh('net_export_mwh', 'netExportMwh', 'Export minus import')),
    exchange.float((r) => r.peakImportMw, {
      rest: 'peak_import_mw',
      graphql: 'peakImportMw',
      round: MW_DECIMALS,
      description: 'Largest hourly net import, MW.',
    }),
    exchange.float((r) => r.peakExportMw, {
      rest: 'peak_export_mw',
      graphql: 'peakExportMw',
      round: MW_DECIMALS,
      description: 'Largest hourly net export, MW.',
    }),
    exchange.int((r) => r.netImporterHours, {
      rest: 'net_importer_hours',
      graphql: 'netImporterHours',
      description: 'Hours in which the zone imported on balance.',
    }),
    exchange.int((r) => r.netExporterHours, {
      rest: 'net_exporter_hours',
      graphql: 'netExporterHours',
      description: 'Hours in which the zone exported on balance.',
    }),
  ],
});
