import type { ObjectRef } from '@pothos/core';
import { z } from 'zod';
import { round, roundMw, roundPrice } from '../../domain/rounding.js';
import { isoDay } from '../../domain/time.js';
import type { Meta } from '../../services/meta.js';
import {
  getCiShare, getFlowDuration, getFlowPriceScatter, getFlowTypeSummary, getPriceKpis, getZoneImportExport,
} from '../../services/aggregates.js';
import { builder } from '../builder.js';
import { MetaRef, withArgNames } from './common.js';
import { flowArgs } from './flows.js';
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
    ciPercentage: t.exposeFloat('ciPercentage', { description: '100 * ciHours / totalHours.' }),
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
    percentage: t.float({ description: 'Percent of hours with a flow at or above flowMw.', resolve: (r) => round(r.percentage, 4) }),
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

const sel = (a: Record<string, unknown>) => ({
  borders: (a.borders as string[] | null) ?? undefined,
  zones: (a.zones as string[] | null) ?? undefined,
  datetimeFrom: (a.from as string | null) ?? undefined,
  datetimeTo: (a.to as string | null) ?? undefined,
  resolution: ((a.resolution as string | null) ?? 'auto') as 'auto',
});

builder.queryFields((t) => ({
  flowTypeSummary: t.field({
    description: 'Daily (or weekly) flow-type breakdown per border.',
    type: resultType('FlowTypeSummaryResult', 'Daily (or weekly) flow-type breakdown per border (REST /api/v1/flow-type-summary).', SummaryRow),
    args: flowArgs(t.arg),
    resolve: (_r, a, ctx) => withArgNames(() => getFlowTypeSummary(ctx.deps, sel(a))),
  }),
  ciShare: t.field({
    description: 'Counter-intuitive flow share per zone and bucket.',
    type: resultType('CiShareResult', 'Counter-intuitive share per zone and bucket (REST /api/v1/ci-share).', CiRow),
    args: flowArgs(t.arg),
    resolve: (_r, a, ctx) => withArgNames(() => getCiShare(ctx.deps, sel(a))),
  }),
  flowPriceScatter: t.field({
    description: 'Flow versus price difference, binned.',
    type: resultType('FlowPriceScatterResult', 'Binned flow versus price difference per border (REST /api/v1/flow-price-scatter).', ScatterRow),
    args: {
      ...flowArgs(t.arg),
      flowBinMw: t.arg.float({ required: true, defaultValue: 50, description: 'Flow bin width, MW.', validate: z.number().min(1).max(10_000) }),
      priceBin: t.arg.float({ required: true, defaultValue: 1, description: 'Price bin width, EUR/MWh.', validate: z.number().min(0.01).max(1_000) }),
    },
    resolve: (_r, a, ctx) => withArgNames(() => getFlowPriceScatter(ctx.deps, { ...sel(a), flowBinMw: a.flowBinMw, priceBin: a.priceBin })),
  }),
  flowDuration: t.field({
    description: 'Flow duration curves (resolution is ignored).',
    type: resultType('FlowDurationResult', 'Flow duration curves per border and zone net position (REST /api/v1/flow-duration; resolution ignored).', DurationRow),
    args: { ...flowArgs(t.arg), points: t.arg.int({ required: true, defaultValue: 101, description: 'Points per curve.', validate: z.number().int().min(2).max(1001) }) },
    resolve: (_r, a, ctx) => withArgNames(() => getFlowDuration(ctx.deps, { ...sel(a), points: a.points })),
  }),
  priceKpis: t.field({
    description: 'Price statistics per zone (resolution is ignored).',
    type: resultType('PriceKpisResult', 'Price statistics per zone over the range (REST /api/v1/price-kpis; resolution ignored).', KpiRow),
    args: flowArgs(t.arg),
    resolve: (_r, a, ctx) => withArgNames(() => getPriceKpis(ctx.deps, sel(a))),
  }),
  zoneImportExport: t.field({
    description: 'Imports and exports per zone (resolution is ignored).',
    type: resultType('ZoneImportExportResult', 'Imports and exports per zone over the range (REST /api/v1/zone-import-export; resolution ignored).', ExchangeRow),
    args: flowArgs(t.arg),
    resolve: (_r, a, ctx) => withArgNames(() => getZoneImportExport(ctx.deps, sel(a))),
  }),
}));
