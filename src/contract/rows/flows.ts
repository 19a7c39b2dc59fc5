import { MW_DECIMALS, WIRE_PRICE_DECIMALS } from '../../domain/rounding.js';
import type { FlowRecord } from '../../domain/records.js';
import { FLOW_TYPES } from '../../domain/classification.js';
import { defineRow, fieldsOf } from '../fields.js';

const f = fieldsOf<FlowRecord>();

/** `to - from` of two unrounded prices (EUR/MWh); null when either is missing. */
const priceDelta = (r: FlowRecord): number | null =>
  r.priceFrom === null || r.priceTo === null ? null : r.priceTo - r.priceFrom;

/** A flow row (docs/contract.md#rows): REST /flows rows (FlowTypeRow) and GraphQL FlowRow. */
export const FLOW_ROW = defineRow<FlowRecord>({
  rest: 'FlowTypeRow',
  graphql: 'FlowRow',
  description: 'One border-hour (or, at daily or weekly resolution, one bucket of a border direction and flow type).',
  fields: [
    f.datetime((r) => r.datetime, {
      rest: 'datetime',
      graphql: 'datetime',
      description:
        'Hour (or bucket) start: UTC (Z), or with the offset of the requested time zone (tz) at that instant.',
    }),
    f.zone((r) => r.zoneFrom, { graphql: 'from', description: 'Exporting zone.' }),
    f.zone((r) => r.zoneTo, { graphql: 'to', description: 'Importing zone.' }),
    f.string((r) => r.zoneFrom, {
      rest: 'bidding_zone_from',
      graphql: 'biddingZoneFrom',
      description: 'Exporting zone code (where the power came from).',
    }),
    f.string((r) => r.zoneTo, {
      rest: 'bidding_zone_to',
      graphql: 'biddingZoneTo',
      description: 'Importing zone code.',
    }),
    f.enum((r) => r.flowType, {
      rest: 'flow_type',
      graphql: 'flowType',
      values: FLOW_TYPES,
      graphqlEnum: 'FlowType',
      description: 'Classification of the hour (the bucket).',
    }),
    f.boolean((r) => r.flowInterpolated, {
      rest: 'flow_interpolated',
      graphql: 'flowInterpolated',
      description: 'true when the flow (any hour of a bucket) fills an upstream gap.',
    }),
    f.boolean((r) => r.derived, {
      graphql: 'derived',
      description: 'true when the flow was derived from scheduled exchanges (physical flow missing).',
    }),
    f.float((r) => r.netFlowMw, {
      rest: 'net_flow_mw',
      graphql: 'netFlowMw',
      round: MW_DECIMALS,
      description: 'Net flow from -> to, MW (>= 0; the bucket mean at daily or weekly resolution), rounded to 0.001.',
    }),
    f.float((r) => r.priceFrom, {
      rest: 'price_from',
      graphql: 'priceFromEurMwh',
      round: WIRE_PRICE_DECIMALS,
      nullable: true,
      description:
        'Exporter price, EUR/MWh: hourly time-weighted mean of the native prices (bucket mean), rounded to 0.0001; null when not published.',
    }),
    f.float((r) => r.priceTo, {
      rest: 'price_to',
      graphql: 'priceToEurMwh',
      round: WIRE_PRICE_DECIMALS,
      nullable: true,
      description: 'Importer price, EUR/MWh, computed and rounded as the exporter price; null when not published.',
    }),
    f.float(priceDelta, {
      rest: 'price_delta',
      graphql: 'priceDeltaEurMwh',
      round: WIRE_PRICE_DECIMALS,
      nullable: true,
      description:
        'Importer price - exporter price, EUR/MWh, from the unrounded prices, rounded to 0.0001; null when either price is missing.',
    }),
    f.float((r) => r.capacityMw, {
      rest: 'capacity_mw',
      graphql: 'capacityMw',
      round: MW_DECIMALS,
      nullable: true,
      description: 'NTC in the row direction, MW (bucket mean), rounded to 0.001; null when not published.',
    }),
    f.int((r) => r.hours, {
      rest: 'hours',
      graphql: 'hours',
      description:
        'Hours in the row: 1 at native or hourly resolution, the hour count of the bucket at daily or weekly resolution.',
    }),
  ],
});
