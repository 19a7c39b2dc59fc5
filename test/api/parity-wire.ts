/**
 * GraphQL results in the REST wire shape, and GraphQL arguments as REST query strings, for the
 * parity tests: every mapping names every field, and each datum GraphQL gives twice (a zone's code
 * and its object) must agree with itself.
 */
import { getNamedType, isEnumType } from 'graphql';
import { schema } from '../../src/graphql/schema/index.js';
import type { AggregatesQuery, FlowRowsQuery, MetaFieldsFragment } from '../gql/graphql.js';
import { pathOfField, REST_NAME } from '../support/api-names.js';

/** The aggregate root fields, each the counterpart of one REST endpoint. */
export type AggregateField = Exclude<keyof AggregatesQuery, '__typename'>;
type Rows<F extends AggregateField> = AggregatesQuery[F]['rows'][number];
type FlowRow = FlowRowsQuery['flows']['edges'][number]['node'];

const AGGREGATE_FIELDS: readonly AggregateField[] = [
  'flowTypeSummary',
  'ciShare',
  'flowPriceScatter',
  'flowDuration',
  'priceKpis',
  'zoneImportExport',
];
/** The REST endpoint of each aggregate field. */
export const REST_PATH = Object.fromEntries(AGGREGATE_FIELDS.map((f) => [f, pathOfField(f)])) as Record<
  AggregateField,
  string
>;
const REST_ENUM: Record<string, string> = { AUTO: 'auto', NATIVE: 'native', HOURLY: '1H', DAILY: '1D', WEEKLY: '1W' };

/** The REST query string of a GraphQL field's arguments: only those the field takes, REST names and spellings (an enum value's REST spelling is its internal value). */
export function restQuery(field: 'flows' | AggregateField, vars: Record<string, unknown>): string {
  const qs = new URLSearchParams();
  for (const { name, type } of schema.getQueryType()!.getFields()[field]!.args) {
    const named = getNamedType(type);
    const spell = (v: unknown) => (isEnumType(named) ? String(named.getValue(String(v))?.value ?? v) : String(v));
    for (const v of [vars[name] ?? []].flat()) qs.append(REST_NAME[name] ?? name, spell(v));
  }
  return qs.toString();
}

/** A GraphQL DateTime as REST writes it: milliseconds only when set, `Z`, or with `naive` no offset. */
const utc = (d: string, naive = false) => d.replace(/\.000Z$|Z$/, naive ? '' : 'Z');
/** The value both spellings of one datum share, or the two values when they differ. */
const same = <T>(a: T, b: T) => (a === b ? a : { differs: [a, b] });

/** GraphQL meta as REST writes it (aggregates and GraphQL flows carry no pagination). */
export const wireMeta = (m: MetaFieldsFragment) => ({
  provenance: m.provenance.toLowerCase(),
  upstream_sources: m.upstreamSources,
  resolved_datetime_from: m.resolvedFrom && utc(m.resolvedFrom, true),
  resolved_datetime_to: m.resolvedTo && utc(m.resolvedTo, true),
  resolution: m.resolution && REST_ENUM[m.resolution],
  pagination: null,
  ...(m.timeZone == null ? {} : { time_zone: m.timeZone }),
});

/** Every field of each aggregate row as the REST row writes it. */
export const WIRE: { [F in AggregateField]: (r: Rows<F>) => Record<string, unknown> } = {
  flowTypeSummary: (r) => ({
    day: r.day,
    bidding_zone_from: same(r.biddingZoneFrom, r.zoneFrom.code),
    bidding_zone_to: same(r.biddingZoneTo, r.zoneTo.code),
    convergence: r.convergence,
    congestion: r.congestion,
    counter_intuitive: r.counterIntuitive,
    outage: r.outage,
    hours: r.hours,
  }),
  ciShare: (r) => ({
    day: utc(r.day),
    zone: same(r.biddingZone, r.zone.code),
    ci_hours: r.ciHours,
    total_hours: r.totalHours,
    ci_percentage: r.ciPercentage,
  }),
  flowPriceScatter: (r) => ({
    bidding_zone_from: r.biddingZoneFrom,
    bidding_zone_to: r.biddingZoneTo,
    net_flow_mw: r.netFlowMw,
    price_delta: r.priceDeltaEurMwh,
    count: r.count,
  }),
  flowDuration: (r) => ({ series: r.series, series_type: r.seriesType, percentage: r.percentage, flow_mw: r.flowMw }),
  priceKpis: (r) => ({
    bidding_zone: same(r.biddingZone, r.zone.code),
    mean_price: r.meanPrice,
    min_price: r.minPrice,
    max_price: r.maxPrice,
    std_price: r.stdPrice,
    p05_price: r.p05Price,
    median_price: r.medianPrice,
    p95_price: r.p95Price,
    peak_mean_price: r.peakMeanPrice,
    offpeak_mean_price: r.offpeakMeanPrice,
    negative_hours: r.negativeHours,
    hours: r.hours,
    interpolated_hours: r.interpolatedHours,
    series_zones: r.seriesZones,
  }),
  zoneImportExport: (r) => ({
    zone: same(r.biddingZone, r.zone.code),
    import_mwh: r.importMwh,
    export_mwh: r.exportMwh,
    net_export_mwh: r.netExportMwh,
    peak_import_mw: r.peakImportMw,
    peak_export_mw: r.peakExportMw,
    net_importer_hours: r.netImporterHours,
    net_exporter_hours: r.netExporterHours,
  }),
};

/** Every field of a GraphQL flow row as the REST /flows row writes it. */
export const wireFlow = (r: FlowRow) => ({
  datetime: utc(r.datetime),
  bidding_zone_from: same(r.biddingZoneFrom, r.from.code),
  bidding_zone_to: same(r.biddingZoneTo, r.to.code),
  flow_type: r.flowType.toLowerCase(),
  flow_interpolated: r.flowInterpolated,
  net_flow_mw: r.netFlowMw,
  price_from: r.priceFromEurMwh,
  price_to: r.priceToEurMwh,
  price_delta: r.priceDeltaEurMwh,
  capacity_mw: r.capacityMw,
  hours: r.hours,
});
