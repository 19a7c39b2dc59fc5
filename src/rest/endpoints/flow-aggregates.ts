import { z } from 'zod';
import { formatUtc, isoDay } from '../../domain/time.js';
import { getCiShare, getFlowDuration, getFlowPriceScatter, getFlowTypeSummary } from '../../services/aggregates.js';
import { defineEndpoint } from '../endpoint.js';
import { borderParam, flowBinParam, priceBinParam } from '../flow-params.js';
import { roundMw, roundPercent, roundPrice } from '../../domain/rounding.js';
import { resolutionParam, sharedTimeParams, zoneParam } from '../schemas.js';

const percentage = (what: string) => z.number().meta({ description: `Percentage of the assessed hours classified ${what}.` });

/** BorderFlowSummaryRow (spec 2.8). */
export const FlowTypeSummaryRowSchema = z
  .object({
    day: z.string().meta({ format: 'date', description: 'UTC day (or ISO week start at 1W), YYYY-MM-DD.' }),
    bidding_zone_from: z.string().meta({ description: 'Zone A of the border (stored orientation: codes sorted).' }),
    bidding_zone_to: z.string().meta({ description: 'Zone B of the border.' }),
    convergence: percentage('convergence'),
    congestion: percentage('congestion'),
    counter_intuitive: percentage('counter_intuitive'),
    outage: percentage('outage'),
    hours: z.int().meta({ description: 'Assessed hours of the border in the bucket (the base of the percentages).' }),
  })
  .meta({ id: 'BorderFlowSummaryRow' });

/** isoDay with a cache: a 5-year weekly summary holds 15,000 rows but only 261 distinct buckets. */
function memoDay(): (d: Date) => string {
  const seen = new Map<number, string>();
  return (d) => {
    const ms = d.getTime();
    let text = seen.get(ms);
    if (text === undefined) seen.set(ms, (text = isoDay(d)));
    return text;
  };
}

/** GET /api/v1/flow-type-summary (spec 4.7). */
export const flowTypeSummaryEndpoint = defineEndpoint({
  path: '/api/v1/flow-type-summary',
  summary: 'Daily flow-type breakdown per border',
  description: 'Per UTC day and border, the share of assessed hours of each flow type (percentages summing to ~100). Never finer than 1D: native, 1H and auto below 1D apply 1D (meta.resolution says so); 1W gives ISO weeks.',
  query: z.object({ ...sharedTimeParams, resolution: resolutionParam, border: borderParam }),
  row: FlowTypeSummaryRowSchema,
  async handle(deps, q) {
    const { meta, rows } = await getFlowTypeSummary(deps, { borders: q.border, datetimeFrom: q.datetime_from, datetimeTo: q.datetime_to, resolution: q.resolution });
    const day = memoDay();
    return {
      meta,
      data: rows.map((r) => ({
        day: day(r.day), bidding_zone_from: r.zoneA, bidding_zone_to: r.zoneB,
        convergence: r.convergencePct, congestion: r.congestionPct,
        counter_intuitive: r.counterIntuitivePct, outage: r.outagePct, hours: r.hours,
      })),
    };
  },
});

/** ZoneCiShareRow (spec 2.5). */
export const CiShareRowSchema = z
  .object({
    day: z.string().meta({ format: 'date-time', description: 'Bucket start, UTC (a UTC day at 1D).' }),
    zone: z.string(),
    ci_hours: z.int().meta({ description: 'Hours in which at least one counter-intuitive flow left the zone.' }),
    total_hours: z.int().meta({ description: 'Hours with at least one assessed flow at any border of the zone.' }),
    ci_percentage: z.number().meta({ description: '100 * ci_hours / total_hours.' }),
  })
  .meta({ id: 'ZoneCiShareRow' });

/** GET /api/v1/ci-share (spec 4.4). */
export const ciShareEndpoint = defineEndpoint({
  path: '/api/v1/ci-share',
  summary: 'Counter-intuitive flow share per zone',
  description: 'Per zone and bucket: hours in which a counter-intuitive flow left the zone, over hours with an assessed flow at any of its borders. Buckets are hours at native/1H.',
  query: z.object({ ...sharedTimeParams, resolution: resolutionParam, zone: zoneParam }),
  row: CiShareRowSchema,
  async handle(deps, q) {
    const { meta, rows } = await getCiShare(deps, { zones: q.zone, datetimeFrom: q.datetime_from, datetimeTo: q.datetime_to, resolution: q.resolution });
    return {
      meta,
      data: rows.map((r) => ({ day: formatUtc(r.day), zone: r.zone, ci_hours: r.ciHours, total_hours: r.totalHours, ci_percentage: r.ciPercentage })),
    };
  },
});

/** Scatter row (spec 2.4). */
export const ScatterRowSchema = z
  .object({
    bidding_zone_from: z.string().meta({ description: 'Origin zone of the border as written in the filter.' }),
    bidding_zone_to: z.string(),
    net_flow_mw: z.number().meta({ description: 'Centre of the flow bin, MW; positive = from -> to.' }),
    price_delta: z.number().meta({ description: 'Centre of the price bin: price(to) - price(from), EUR/MWh.' }),
    count: z.int().meta({ description: 'Observations in the bin (hours at native/1H, buckets at 1D/1W).' }),
  })
  .meta({ id: 'FlowPriceScatterRow' });

/** GET /api/v1/flow-price-scatter (spec 4.3). */
export const scatterEndpoint = defineEndpoint({
  path: '/api/v1/flow-price-scatter',
  summary: 'Flow versus price difference',
  description: 'Observations of signed net flow and price difference per border (hourly at native/1H, bucket means at 1D/1W; outage hours left out), binned to flow_bin_mw MW and price_bin EUR/MWh. Without a border filter every border is returned in stored orientation.',
  query: z.object({
    ...sharedTimeParams,
    resolution: resolutionParam,
    border: borderParam,
    flow_bin_mw: flowBinParam,
    price_bin: priceBinParam,
  }),
  row: ScatterRowSchema,
  async handle(deps, q) {
    const { meta, rows } = await getFlowPriceScatter(deps, {
      borders: q.border, datetimeFrom: q.datetime_from, datetimeTo: q.datetime_to, resolution: q.resolution, flowBinMw: q.flow_bin_mw, priceBin: q.price_bin,
    });
    return {
      meta,
      data: rows.map((r) => ({ bidding_zone_from: r.zoneFrom, bidding_zone_to: r.zoneTo, net_flow_mw: roundMw(r.netFlowMw), price_delta: roundPrice(r.priceDelta), count: r.count })),
    };
  },
});

/** Flow duration row (spec 2.6). */
export const DurationRowSchema = z
  .object({
    series: z.string().meta({ description: '`A->B` for a border, the zone code for a zone net position.' }),
    series_type: z.enum(['border', 'zone_net']),
    percentage: z.number().meta({ description: 'Share of hours (%) with a flow at or above flow_mw.' }),
    flow_mw: z.number().meta({ description: 'Signed flow, MW: positive from -> to for a border, export for a zone.' }),
  })
  .meta({ id: 'FlowDurationRow' });

/** GET /api/v1/flow-duration (spec 4.5). */
export const durationEndpoint = defineEndpoint({
  path: '/api/v1/flow-duration',
  summary: 'Flow duration curves',
  description: 'Duration curves of hourly flows at evenly spaced percentages, per border (`border`, signed in the written orientation) and per zone net position (`zone`). Without filters: every border. No resolution parameter; meta.resolution is null.',
  query: z.object({
    ...sharedTimeParams,
    border: borderParam,
    zone: zoneParam.meta({ description: 'Zone whose net position (sum of its border flows, export positive) forms a series.' }),
    points: z.coerce.number().int().min(2).max(1001).default(101).meta({ description: 'Points per curve (101 = every whole percent).' }),
  }),
  row: DurationRowSchema,
  async handle(deps, q) {
    const { meta, rows } = await getFlowDuration(deps, { borders: q.border, zones: q.zone, datetimeFrom: q.datetime_from, datetimeTo: q.datetime_to, points: q.points });
    return {
      meta,
      data: rows.map((r) => ({ series: r.series, series_type: r.seriesType, percentage: roundPercent(r.percentage), flow_mw: roundMw(r.flowMw) })),
    };
  },
});
