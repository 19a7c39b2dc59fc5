import { z } from 'zod';
import { getPriceKpis, getZoneImportExport } from '../../services/aggregates.js';
import { defineEndpoint } from '../endpoint.js';
import { orNull, roundMw, roundPrice } from '../../domain/rounding.js';
import { sharedTimeParams, zoneParam } from '../schemas.js';

const eur = (d: string) => z.number().meta({ description: `${d}, EUR/MWh.` });

/** price-kpis row (DESIGN.md). */
export const PriceKpiRowSchema = z
  .object({
    bidding_zone: z.string(),
    mean_price: eur('Mean of the hourly prices'),
    min_price: eur('Lowest hourly price'),
    max_price: eur('Highest hourly price'),
    std_price: eur('Population standard deviation of the hourly prices'),
    p05_price: eur('5th percentile of the hourly prices'),
    median_price: eur('Median hourly price'),
    p95_price: eur('95th percentile of the hourly prices'),
    peak_mean_price: eur('Mean over peak hours (Mon-Fri 08:00-20:00 zone local time)').nullable(),
    offpeak_mean_price: eur('Mean over the other hours').nullable(),
    negative_hours: z.int().meta({ description: 'Hours with a negative price.' }),
    hours: z.int().meta({ description: 'Hours with a price (hourly time-weighted means of native prices).' }),
    interpolated_hours: z.int().meta({ description: 'Hours with an interpolated constituent.' }),
  })
  .meta({ id: 'PriceKpiRow' });

/** GET /api/v1/price-kpis (spec 4.8). */
export const priceKpisEndpoint = defineEndpoint({
  path: '/api/v1/price-kpis',
  summary: 'Price statistics per zone',
  description: 'One row per zone over the whole range, computed from hourly time-weighted mean prices. No resolution parameter; meta.resolution is null.',
  query: z.object({ ...sharedTimeParams, zone: zoneParam }),
  row: PriceKpiRowSchema,
  async handle(deps, q) {
    const { meta, rows } = await getPriceKpis(deps, { zones: q.zone, datetimeFrom: q.datetime_from, datetimeTo: q.datetime_to });
    return {
      meta,
      data: rows.map((r) => ({
        bidding_zone: r.zone, mean_price: roundPrice(r.mean), min_price: roundPrice(r.min), max_price: roundPrice(r.max),
        std_price: roundPrice(r.std), p05_price: roundPrice(r.p05), median_price: roundPrice(r.median), p95_price: roundPrice(r.p95),
        peak_mean_price: orNull(roundPrice)(r.peakMean), offpeak_mean_price: orNull(roundPrice)(r.offpeakMean),
        negative_hours: r.negativeHours, hours: r.hours, interpolated_hours: r.interpolatedHours,
      })),
    };
  },
});

/** zone-import-export row (DESIGN.md). */
export const ZoneExchangeRowSchema = z
  .object({
    zone: z.string(),
    import_mwh: z.number().meta({ description: 'Energy imported over the range, MWh (sum of hourly net border imports).' }),
    export_mwh: z.number().meta({ description: 'Energy exported, MWh.' }),
    net_export_mwh: z.number().meta({ description: 'export_mwh - import_mwh.' }),
    peak_import_mw: z.number().meta({ description: 'Largest hourly net import of the zone, MW.' }),
    peak_export_mw: z.number().meta({ description: 'Largest hourly net export, MW.' }),
    net_importer_hours: z.int(),
    net_exporter_hours: z.int(),
  })
  .meta({ id: 'ZoneImportExportRow' });

/** GET /api/v1/zone-import-export (spec 4.9). */
export const zoneImportExportEndpoint = defineEndpoint({
  path: '/api/v1/zone-import-export',
  summary: 'Imports and exports per zone',
  description: 'One row per zone over the range from the hourly net flows of its borders (physical; scheduled where physical is missing). No resolution parameter; meta.resolution is null.',
  query: z.object({ ...sharedTimeParams, zone: zoneParam }),
  row: ZoneExchangeRowSchema,
  async handle(deps, q) {
    const { meta, rows } = await getZoneImportExport(deps, { zones: q.zone, datetimeFrom: q.datetime_from, datetimeTo: q.datetime_to });
    return {
      meta,
      data: rows.map((r) => ({
        zone: r.zone, import_mwh: roundMw(r.importMwh), export_mwh: roundMw(r.exportMwh), net_export_mwh: roundMw(r.netExportMwh),
        peak_import_mw: roundMw(r.peakImportMw), peak_export_mw: roundMw(r.peakExportMw),
        net_importer_hours: r.netImporterHours, net_exporter_hours: r.netExporterHours,
      })),
    };
  },
});
