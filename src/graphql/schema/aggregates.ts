import type { ObjectRef } from '@pothos/core';
import { z } from 'zod';
import { roundMw, roundPercent, roundPrice } from '../../domain/rounding.js';
import { isoDay } from '../../domain/time.js';
import { FLOW_BIN_MW, PRICE_BIN_EUR_MWH } from '../../limits.js';
import type { Meta } from '../../services/meta.js';
import {
  getCiShare, getFlowDuration, getFlowPriceScatter, getFlowTypeSummary, getPriceKpis, getZoneImportExport,
} from '../../services/aggregates.js';
import { builder } from '../builder.js';
import { bordersArg, rangeArgs, rangeInput, resolutionArg, zonesArg } from './args.js';
import { MetaRef, withArgNames } from './common.js';
import { ZoneRef } from './zones.js';

type Rows<F extends (...a: never[]) => Promise<{ rows: unknown[] }>> = Awaited<ReturnType<F>>['rows'][number];

/** A `{ meta, rows }` result type named `name` around a row type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function resultType<R>(name: string, description: string, row: ObjectRef<any, R>) {
  return builder.objectRef<{ meta: Meta; rows: R[] }>(name).implement({
    description,
    fields: (t) => ({
      meta: t.field({ type: MetaRef, description: 'Provenance, sources, resolved range and resolution.', resolve: (r) => r.meta }),
      rows: t.field({ type: [row], description: 'The rows, ordered as REST orders them.', resolve: (r) => r.rows }),
    }),
  });
}

const pctField = (what: string) => ({ description: `Percent of the assessed hours classified ${what}.` });

const SummaryRow = builder.objectRef<Rows<typeof getFlowTypeSummary>>('FlowTypeSummaryRow').implement({
  description: 'Flow-type breakdown of one border (stored orientation) in one UTC day or ISO week.',
  fields: (t) => ({
    day: t.string({ description: 'UTC day (or ISO week start), YYYY-MM-DD.', resolve: (r) => isoDay(r.day) }),
    biddingZoneFrom: t.exposeString('zoneA', { description: 'Zone A (codes sorted).' }),
    biddingZoneTo: t.exposeString('zoneB', { description: 'Zone B.' }),
    zoneFrom: t.field({ type: ZoneRef, description: 'Zone A.', resolve: (r) => r.zoneA }),
    zoneTo: t.field({ type: ZoneRef, description: 'Zone B.', resolve: (r) => r.zoneB }),
    convergence: t.exposeFloat('convergencePct', pctField('convergence')),
    congestion: t.exposeFloat('congestionPct', pctField('congestion')),
    counterIntuitive: t.exposeFloat('counterIntuitivePct', pctField('counter_intuitive')),
    outage: t.exposeFloat('outagePct', pctField('outage')),
    hours: t.exposeInt('hours', { description: 'Assessed hours (the base of the percentages).' }),
  }),
});

const CiRow = builder.objectRef<Rows<typeof getCiShare>>('CiShareRow').implement({
  description: 'Counter-intuitive share of one zone in one bucket.',
  fields: (t) => ({
    day: t.field({ type: 'DateTime', description: 'Bucket start, UTC.', resolve: (r) => r.day }),
    biddingZone: t.exposeString('zone', { description: 'Bidding zone code.' }),
    zone: t.field({ type: ZoneRef, description: 'The bidding zone.', resolve: (r) => r.zone }),
    ciHours: t.exposeInt('ciHours', { description: 'Hours with a counter-intuitive flow leaving the zone.' }),
    totalHours: t.exposeInt('totalHours', { description: 'Hours with an assessed flow at any border of the zone.' }),
    ciPercentage: t.exposeFloat('ciPercentage', { description: 'Percent: 100 * ciHours / totalHours, rounded to 0.0001 (0 when totalHours is 0).' }),
  }),
});

const ScatterRow = builder.objectRef<Rows<typeof getFlowPriceScatter>>('FlowPriceScatterPoint').implement({
  description: 'A bin of (signed flow, price difference) observations of one border in its written orientation.',
  fields: (t) => ({
    biddingZoneFrom: t.exposeString('zoneFrom', { description: 'Origin zone as written in the border filter.' }),
    biddingZoneTo: t.exposeString('zoneTo', { description: 'Destination zone as written.' }),
    netFlowMw: t.float({ description: 'Flow bin centre, MW (positive from -> to).', resolve: (r) => roundMw(r.netFlowMw) }),
    priceDeltaEurMwh: t.float({ description: 'Price bin centre: price(to) - price(from), EUR/MWh.', resolve: (r) => roundPrice(r.priceDelta) }),
    count: t.exposeInt('count', { description: 'Observations in the bin.' }),
  }),
});

const DurationRow = builder.objectRef<Rows<typeof getFlowDuration>>('FlowDurationPoint').implement({
  description: 'One point of a flow duration curve.',
  fields: (t) => ({
    series: t.exposeString('series', { description: 'A->B for a border, the zone code for a zone net position.' }),
    seriesType: t.exposeString('seriesType', { description: 'border or zone_net.' }),
    percentage: t.float({ description: 'Percent of hours with a flow at or above flowMw.', resolve: (r) => roundPercent(r.percentage) }),
    flowMw: t.float({ description: 'Signed flow, MW.', resolve: (r) => roundMw(r.flowMw) }),
  }),
});

const eur = (d: string) => ({ description: `${d}, EUR/MWh.` });
const KpiRow = builder.objectRef<Rows<typeof getPriceKpis>>('PriceKpis').implement({
  description: 'Statistics of a zone’s hourly day-ahead prices over the range.',
  fields: (t) => ({
    biddingZone: t.exposeString('zone', { description: 'Bidding zone code.' }),
    zone: t.field({ type: ZoneRef, description: 'The bidding zone.', resolve: (r) => r.zone }),
    meanPrice: t.float({ ...eur('Mean'), resolve: (r) => roundPrice(r.mean) }),
    minPrice: t.float({ ...eur('Lowest hourly price'), resolve: (r) => roundPrice(r.min) }),
    maxPrice: t.float({ ...eur('Highest hourly price'), resolve: (r) => roundPrice(r.max) }),
    stdPrice: t.float({ ...eur('Population standard deviation'), resolve: (r) => roundPrice(r.std) }),
    p05Price: t.float({ ...eur('5th percentile'), resolve: (r) => roundPrice(r.p05) }),
    medianPrice: t.float({ ...eur('Median'), resolve: (r) => roundPrice(r.median) }),
    p95Price: t.float({ ...eur('95th percentile'), resolve: (r) => roundPrice(r.p95) }),
    peakMeanPrice: t.float({ nullable: true, ...eur('Mean over Mon-Fri 08:00-20:00 local time'), resolve: (r) => (r.peakMean === null ? null : roundPrice(r.peakMean)) }),
    offpeakMeanPrice: t.float({ nullable: true, ...eur('Mean over the other hours'), resolve: (r) => (r.offpeakMean === null ? null : roundPrice(r.offpeakMean)) }),
    negativeHours: t.exposeInt('negativeHours', { description: 'Hours with a negative price.' }),
    hours: t.exposeInt('hours', { description: 'Hours with a price.' }),
    interpolatedHours: t.exposeInt('interpolatedHours', { description: 'Hours with an interpolated constituent.' }),
  }),
});

const mwh = (d: string) => ({ description: `${d}, MWh.` });
const ExchangeRow = builder.objectRef<Rows<typeof getZoneImportExport>>('ZoneImportExport').implement({
  description: 'Cross-border exchange of a zone over the range.',
  fields: (t) => ({
    biddingZone: t.exposeString('zone', { description: 'Bidding zone code.' }),
    zone: t.field({ type: ZoneRef, description: 'The bidding zone.', resolve: (r) => r.zone }),
    importMwh: t.float({ ...mwh('Imported energy'), resolve: (r) => roundMw(r.importMwh) }),
    exportMwh: t.float({ ...mwh('Exported energy'), resolve: (r) => roundMw(r.exportMwh) }),
    netExportMwh: t.float({ ...mwh('Export minus import'), resolve: (r) => roundMw(r.netExportMwh) }),
    peakImportMw: t.float({ description: 'Largest hourly net import, MW.', resolve: (r) => roundMw(r.peakImportMw) }),
    peakExportMw: t.float({ description: 'Largest hourly net export, MW.', resolve: (r) => roundMw(r.peakExportMw) }),
    netImporterHours: t.exposeInt('netImporterHours', { description: 'Hours in which the zone imported on balance.' }),
    netExporterHours: t.exposeInt('netExporterHours', { description: 'Hours in which the zone exported on balance.' }),
  }),
});

builder.queryFields((t) => ({
  flowTypeSummary: t.field({
    description: 'Daily (or weekly) flow-type breakdown per border (REST /api/v1/flow-type-summary).',
    type: resultType('FlowTypeSummaryResult', 'Daily (or weekly) flow-type breakdown per border (REST /api/v1/flow-type-summary).', SummaryRow),
    args: {
      ...rangeArgs(t.arg),
      resolution: resolutionArg(t.arg, 'Bucket, never finer than DAILY: DAILY (UTC days) or WEEKLY (ISO weeks from Monday 00:00 UTC); NATIVE, HOURLY and an AUTO below DAILY apply DAILY, and meta.resolution says so.'),
      borders: bordersArg(t.arg, 'Each selects its border whatever the direction of flow; rows stay in stored orientation (codes sorted). Omitted: every border.'),
    },
    resolve: (_r, a, ctx) => withArgNames(() => getFlowTypeSummary(ctx.deps, { ...rangeInput(a), resolution: a.resolution ?? 'auto', borders: a.borders ?? undefined })),
  }),
  ciShare: t.field({
    description: 'Counter-intuitive flow share per zone and bucket (REST /api/v1/ci-share).',
    type: resultType('CiShareResult', 'Counter-intuitive share per zone and bucket (REST /api/v1/ci-share).', CiRow),
    args: {
      ...rangeArgs(t.arg),
      resolution: resolutionArg(t.arg, 'Bucket: UTC hours at NATIVE and HOURLY, UTC days at DAILY, ISO weeks from Monday 00:00 UTC at WEEKLY; AUTO picks by range width. Counts are hours (flows are hourly).'),
      zones: zonesArg(t.arg, 'The zones whose share is returned: hours in which a counter-intuitive flow left the zone over hours with an assessed flow at any of its borders. Omitted: every zone.'),
    },
    resolve: (_r, a, ctx) => withArgNames(() => getCiShare(ctx.deps, { ...rangeInput(a), resolution: a.resolution ?? 'auto', zones: a.zones ?? undefined })),
  }),
  flowPriceScatter: t.field({
    description: 'Flow versus price difference per border, binned (REST /api/v1/flow-price-scatter); outage hours are left out.',
    type: resultType('FlowPriceScatterResult', 'Binned flow versus price difference per border (REST /api/v1/flow-price-scatter).', ScatterRow),
    args: {
      ...rangeArgs(t.arg),
      resolution: resolutionArg(t.arg, 'Observations: hourly at NATIVE and HOURLY, means of UTC days at DAILY and of ISO weeks (Monday 00:00 UTC) at WEEKLY; AUTO picks by range width.'),
      borders: bordersArg(t.arg, 'Each selects its border whatever the direction of flow; the written orientation signs the flow (positive = power from A to B, MW) and the price difference (price of B - price of A, EUR/MWh). Omitted: every border in stored orientation (codes sorted).'),
      flowBinMw: t.arg.float({ required: true, defaultValue: FLOW_BIN_MW.default, description: `Width of the flow bins, MW (${FLOW_BIN_MW.min} to ${FLOW_BIN_MW.max}), REST flow_bin_mw.`, validate: z.number().min(FLOW_BIN_MW.min).max(FLOW_BIN_MW.max) }),
      priceBin: t.arg.float({ required: true, defaultValue: PRICE_BIN_EUR_MWH.default, description: `Width of the price-difference bins, EUR/MWh (${PRICE_BIN_EUR_MWH.min} to ${PRICE_BIN_EUR_MWH.max}), REST price_bin.`, validate: z.number().min(PRICE_BIN_EUR_MWH.min).max(PRICE_BIN_EUR_MWH.max) }),
    },
    resolve: (_r, a, ctx) => withArgNames(() => getFlowPriceScatter(ctx.deps, {
      ...rangeInput(a), resolution: a.resolution ?? 'auto', borders: a.borders ?? undefined, flowBinMw: a.flowBinMw, priceBin: a.priceBin,
    })),
  }),
  flowDuration: t.field({
    description: 'Flow duration curves of hourly flows per border and zone net position (REST /api/v1/flow-duration); takes no resolution, meta.resolution is null.',
    type: resultType('FlowDurationResult', 'Flow duration curves per border and zone net position (REST /api/v1/flow-duration).', DurationRow),
    args: {
      ...rangeArgs(t.arg),
      borders: bordersArg(t.arg, 'One curve per border, its hourly flows signed in the written orientation (positive = power from A to B), MW. Without borders and zones: every border in stored orientation (codes sorted).'),
      zones: zonesArg(t.arg, 'One curve per zone: its hourly net position (sum of its border flows, export positive), MW.'),
      points: t.arg.int({ required: true, defaultValue: 101, description: 'Points per curve at evenly spaced percentages from 0 to 100 (2 to 1001; 101 = every whole percent).', validate: z.number().int().min(2).max(1001) }),
    },
    resolve: (_r, a, ctx) => withArgNames(() => getFlowDuration(ctx.deps, { ...rangeInput(a), borders: a.borders ?? undefined, zones: a.zones ?? undefined, points: a.points })),
  }),
  priceKpis: t.field({
    description: 'Statistics of hourly day-ahead prices per zone over the whole range (REST /api/v1/price-kpis); takes no resolution, meta.resolution is null.',
    type: resultType('PriceKpisResult', 'Price statistics per zone over the range (REST /api/v1/price-kpis).', KpiRow),
    args: { ...rangeArgs(t.arg), zones: zonesArg(t.arg, 'One row per zone. Omitted: every zone.') },
    resolve: (_r, a, ctx) => withArgNames(() => getPriceKpis(ctx.deps, { ...rangeInput(a), zones: a.zones ?? undefined })),
  }),
  zoneImportExport: t.field({
    description: 'Imports and exports per zone over the whole range from its hourly border flows (REST /api/v1/zone-import-export); takes no resolution, meta.resolution is null.',
    type: resultType('ZoneImportExportResult', 'Imports and exports per zone over the range (REST /api/v1/zone-import-export).', ExchangeRow),
    args: { ...rangeArgs(t.arg), zones: zonesArg(t.arg, 'One row per zone, from the flows at every border of the zone. Omitted: every zone.') },
    resolve: (_r, a, ctx) => withArgNames(() => getZoneImportExport(ctx.deps, { ...rangeInput(a), zones: a.zones ?? undefined })),
  }),
}));
