import { z } from 'zod';
import { formatUtc } from '../../domain/time.js';
import type { FlowRecord } from '../../repositories/flows.js';
import { FLOW_TYPES } from '../../services/flow-filter.js';
import { getFlows } from '../../services/flows.js';
import { defineEndpoint, JsonRows } from '../endpoint.js';
import { borderParam, flowTypeParam, limitParam, offsetParam } from '../flow-params.js';
import { orNull, roundedPriceDelta, roundMw, roundPrice } from '../../domain/rounding.js';
import { resolutionParam, sharedTimeParams, zoneParam } from '../schemas.js';

/** FlowTypeRow (spec 2.7, DESIGN.md). */
export const FlowRowSchema = z
  .object({
    datetime: z.string().meta({ format: 'date-time', description: 'Hour start (or 1D/1W bucket start), UTC.' }),
    bidding_zone_from: z.string().meta({ description: 'Exporting zone (where the power came from).' }),
    bidding_zone_to: z.string().meta({ description: 'Importing zone.' }),
    flow_type: z.enum(FLOW_TYPES),
    flow_interpolated: z.boolean().meta({ description: 'true when the flow value (any hour of a bucket) fills a gap upstream.' }),
    net_flow_mw: z.number().meta({ description: 'Net flow from -> to in MW (>= 0); bucket mean at 1D/1W.' }),
    price_from: z.number().nullable().meta({ description: 'Price of the exporting zone, EUR/MWh (hourly time-weighted mean; bucket mean).' }),
    price_to: z.number().nullable().meta({ description: 'Price of the importing zone, EUR/MWh.' }),
    price_delta: z.number().nullable().meta({ description: 'price_to - price_from, EUR/MWh.' }),
    capacity_mw: z.number().nullable().meta({ description: 'NTC in the row direction, MW; null when not published.' }),
    hours: z.int().meta({ description: 'Hours in the row: 1 at hourly resolution, the hour count of the bucket at 1D/1W.' }),
  })
  .strict()
  .meta({ id: 'FlowTypeRow' });

/** The wire row of a flow record: the reference for {@link flowRowJson}. */
export function toRow(r: FlowRecord): z.infer<typeof FlowRowSchema> {
  return {
    datetime: formatUtc(r.datetime),
    bidding_zone_from: r.zoneFrom,
    bidding_zone_to: r.zoneTo,
    flow_type: r.flowType as z.infer<typeof FlowRowSchema>['flow_type'],
    flow_interpolated: r.flowInterpolated,
    net_flow_mw: roundMw(r.netFlowMw),
    price_from: orNull(roundPrice)(r.priceFrom),
    price_to: orNull(roundPrice)(r.priceTo),
    price_delta: roundedPriceDelta(r.priceFrom, r.priceTo),
    capacity_mw: orNull(roundMw)(r.capacityMw),
    hours: r.hours,
  };
}

const num = (v: number | null): string => (v === null || !Number.isFinite(v) ? 'null' : String(v));
const orNullRound = (f: (v: number) => number, v: number | null): string => (v === null ? 'null' : num(f(v)));

/**
 * `JSON.stringify(toRow(r))` without the intermediate object: the same keys in the same order,
 * the same rounding, numbers written as `JSON.stringify` writes them (a test compares the two).
 */
export function flowRowJson(r: FlowRecord, datetime = formatUtc(r.datetime)): string {
  return `{"datetime":"${datetime}","bidding_zone_from":${JSON.stringify(r.zoneFrom)},"bidding_zone_to":${JSON.stringify(r.zoneTo)},`
    + `"flow_type":${JSON.stringify(r.flowType)},"flow_interpolated":${r.flowInterpolated},"net_flow_mw":${num(roundMw(r.netFlowMw))},`
    + `"price_from":${orNullRound(roundPrice, r.priceFrom)},"price_to":${orNullRound(roundPrice, r.priceTo)},`
    + `"price_delta":${num(roundedPriceDelta(r.priceFrom, r.priceTo))},`
    + `"capacity_mw":${orNullRound(roundMw, r.capacityMw)},"hours":${num(r.hours)}}`;
}

/** Rows per streamed chunk of a /flows page. */
const CHUNK_ROWS = 1_000;

/** JSON texts of CHUNK_ROWS rows at a time; a row's datetime is formatted once per instant (59 borders share an hour). */
function* flowRowChunks(rows: readonly FlowRecord[]): Generator<string> {
  let lastMs = Number.NaN;
  let lastText = '';
  for (let at = 0; at < rows.length; at += CHUNK_ROWS) {
    const parts: string[] = [];
    for (let i = at; i < Math.min(rows.length, at + CHUNK_ROWS); i++) {
      const r = rows[i] as FlowRecord;
      const ms = r.datetime.getTime();
      if (ms !== lastMs) {
        lastMs = ms;
        lastText = formatUtc(r.datetime);
      }
      parts.push(flowRowJson(r, lastText));
    }
    yield parts.join(',');
  }
}

/** GET /api/v1/flows (spec 4.6). */
export const flowsEndpoint = defineEndpoint({
  path: '/api/v1/flows',
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
  }),
  row: FlowRowSchema,
  async handle(deps, q) {
    const { meta, rows } = await getFlows(deps, {
      borders: q.border, zones: q.zone, flowTypes: q.flow_type,
      datetimeFrom: q.datetime_from, datetimeTo: q.datetime_to, resolution: q.resolution,
      limit: q.limit, offset: q.offset,
    });
    return { meta, data: new JsonRows(() => flowRowChunks(rows)) };
  },
});
