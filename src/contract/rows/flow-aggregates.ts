import { MW_DECIMALS, PERCENT_DECIMALS, percentOf, WIRE_PRICE_DECIMALS } from '../../domain/rounding.js';
import type {
  getCiShare,
  getFlowDuration,
  getFlowPriceScatter,
  getFlowTypeSummary,
} from '../../services/aggregates.js';
import { defineRow, fieldsOf, type ServiceRow } from '../fields.js';

const summary = fieldsOf<ServiceRow<typeof getFlowTypeSummary>>();
const pct = (what: string) => ({ description: `Percent of the assessed hours classified ${what}.` });

/** A flow-type summary row (docs/contract.md#rows); percentages are exact ratios of hour counts at 0.0001 %. */
export const FLOW_TYPE_SUMMARY_ROW = defineRow<ServiceRow<typeof getFlowTypeSummary>>({
  rest: 'BorderFlowSummaryRow',
  graphql: 'FlowTypeSummaryRow',
  description: 'Flow-type breakdown of one border (stored orientation) in one UTC day or ISO week.',
  fields: [
    summary.day((r) => r.day, {
      rest: 'day',
      graphql: 'day',
      description:
        'UTC day (or ISO week start, a Monday), a calendar date YYYY-MM-DD (docs/contract.md#rows): this endpoint never buckets finer than a day. The `day` of ci-share rows is a date-time instead.',
    }),
    summary.string((r) => r.zoneA, {
      rest: 'bidding_zone_from',
      graphql: 'biddingZoneFrom',
      description: 'Zone A (codes sorted).',
    }),
    summary.string((r) => r.zoneB, { rest: 'bidding_zone_to', graphql: 'biddingZoneTo', description: 'Zone B.' }),
    summary.zone((r) => r.zoneA, { graphql: 'zoneFrom', description: 'Zone A.' }),
    summary.zone((r) => r.zoneB, { graphql: 'zoneTo', description: 'Zone B.' }),
    summary.float((r) => percentOf(r.convergence, r.hours), {
      rest: 'convergence',
      graphql: 'convergence',
      ...pct('convergence'),
    }),
    summary.float((r) => percentOf(r.congestion, r.hours), {
      rest: 'congestion',
      graphql: 'congestion',
      ...pct('congestion'),
    }),
    summary.float((r) => percentOf(r.counterIntuitive, r.hours), {
      rest: 'counter_intuitive',
      graphql: 'counterIntuitive',
      ...pct('counter_intuitive'),
    }),
    summary.float((r) => percentOf(r.outage, r.hours), { rest: 'outage', graphql: 'outage', ...pct('outage') }),
    summary.int((r) => r.hours, {
      rest: 'hours',
      graphql: 'hours',
      description: 'Assessed hours (the base of the percentages).',
    }),
  ],
});

const ci = fieldsOf<ServiceRow<typeof getCiShare>>();

/** A counter-intuitive share row (docs/contract.md#rows). */
export const CI_SHARE_ROW = defineRow<ServiceRow<typeof getCiShare>>({
  rest: 'ZoneCiShareRow',
  graphql: 'CiShareRow',
  description: 'Counter-intuitive share of one zone in one bucket.',
  fields: [
    ci.datetime((r) => r.day, {
      rest: 'day',
      graphql: 'day',
      description:
        'Bucket start, a UTC date-time (the contract types this field date-time): the hour at native and 1H resolution (2025-11-04T13:00:00Z), 00:00 UTC of the day at 1D, Monday 00:00 UTC at 1W. Unlike the calendar date `day` of flow-type-summary rows.',
    }),
    ci.string((r) => r.zone, { rest: 'zone', graphql: 'biddingZone', description: 'Bidding zone code.' }),
    ci.zone((r) => r.zone, { graphql: 'zone', description: 'The bidding zone.' }),
    ci.int((r) => r.ciHours, {
      rest: 'ci_hours',
      graphql: 'ciHours',
      description: 'Hours with a counter-intuitive flow leaving the zone.',
    }),
    ci.int((r) => r.totalHours, {
      rest: 'total_hours',
      graphql: 'totalHours',
      description: 'Hours with an assessed flow at any border of the zone.',
    }),
    ci.float((r) => r.ciPercentage, {
      rest: 'ci_percentage',
      graphql: 'ciPercentage',
      description: 'Percent: 100 * counter-intuitive hours / total hours, rounded to 0.0001 (0 when total hours is 0).',
    }),
  ],
});

const scatter = fieldsOf<ServiceRow<typeof getFlowPriceScatter>>();

/** A flow/price scatter bin (docs/contract.md#rows). */
export const SCATTER_ROW = defineRow<ServiceRow<typeof getFlowPriceScatter>>({
  rest: 'FlowPriceScatterRow',
  graphql: 'FlowPriceScatterPoint',
  description: 'A bin of (signed flow, price difference) observations of one border in its written orientation.',
  fields: [
    scatter.string((r) => r.zoneFrom, {
      rest: 'bidding_zone_from',
      graphql: 'biddingZoneFrom',
      description: 'Origin zone as written in the border filter.',
    }),
    scatter.string((r) => r.zoneTo, {
      rest: 'bidding_zone_to',
      graphql: 'biddingZoneTo',
      description: 'Destination zone as written.',
    }),
    scatter.float((r) => r.netFlowMw, {
      rest: 'net_flow_mw',
      graphql: 'netFlowMw',
      round: MW_DECIMALS,
      description: 'Flow bin centre, MW (positive from -> to).',
    }),
    scatter.float((r) => r.priceDelta, {
      rest: 'price_delta',
      graphql: 'priceDeltaEurMwh',
      round: WIRE_PRICE_DECIMALS,
      description: 'Price bin centre: price(to) - price(from), EUR/MWh.',
    }),
    scatter.int((r) => r.count, { rest: 'count', graphql: 'count', description: 'Observations in the bin.' }),
  ],
});

const duration = fieldsOf<ServiceRow<typeof getFlowDuration>>();

/** A flow duration curve point (docs/contract.md#rows). */
export const DURATION_ROW = defineRow<ServiceRow<typeof getFlowDuration>>({
  rest: 'FlowDurationRow',
  graphql: 'FlowDurationPoint',
  description: 'One point of a flow duration curve.',
  fields: [
    duration.string((r) => r.series, {
      rest: 'series',
      graphql: 'series',
      description: 'A->B for a border, the zone code for a zone net position.',
    }),
    duration.enum((r) => r.seriesType, {
      rest: 'series_type',
      graphql: 'seriesType',
      values: ['border', 'zone_net'],
      description: 'border or zone_net.',
    }),
    duration.float((r) => r.percentage, {
      rest: 'percentage',
      graphql: 'percentage',
      round: PERCENT_DECIMALS,
      description: 'Percent of hours with a flow at or above the flow of the point.',
    }),
    duration.float((r) => r.flowMw, {
      rest: 'flow_mw',
      graphql: 'flowMw',
      round: MW_DECIMALS,
      description: 'Signed flow, MW.',
    }),
  ],
});
