import type { ObjectRef } from '@pothos/core';
import { z } from 'zod';
import { CI_SHARE_ROW, DURATION_ROW, FLOW_TYPE_SUMMARY_ROW, SCATTER_ROW } from '../../contract/rows/flow-aggregates.js';
import { PRICE_KPI_ROW, ZONE_EXCHANGE_ROW } from '../../contract/rows/zone-aggregates.js';
import { FLOW_BIN_MW, PRICE_BIN_EUR_MWH } from '../../limits.js';
import type { Meta } from '../../services/meta.js';
import {
  getCiShare, getFlowDuration, getFlowPriceScatter, getFlowTypeSummary, getPriceKpis, getZoneImportExport,
} from '../../services/aggregates.js';
import { builder } from '../builder.js';
import { bordersArg, rangeArgs, rangeInput, resolutionArg, timeZoneArg, timeZoneInput, zonesArg } from './args.js';
import { MetaRef, withArgNames } from './common.js';
import { rowObjectType } from '../rows/object-type.js';
import type { RowTimeZone } from '../../contract/json.js';
import { inTimeZone } from '../rows/zoned.js';

/** A service result as GraphQL parent: rows tagged with their time zone under `timeZone`. */
async function zoned<R>(result: Promise<{ meta: Meta; rows: R[]; rowTimeZone?: RowTimeZone<R> }>): Promise<{ meta: Meta; rows: R[] }> {
  const { meta, rows, rowTimeZone } = await result;
  return { meta, rows: inTimeZone(rows, rowTimeZone) };
}

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

const TZ_DOC = 'Buckets are local hours, days and weeks; row instants carry the offset (2026-03-29T00:00:00+01:00), days are local dates. With local, a border is in the zone of its zone A.';
const TZ_SCATTER = 'DAILY and WEEKLY observations are means of local days and weeks (a border in the zone of its zone A with local).';
const TZ_TOTALS = 'Rows hold no instants: it sets how from/to without offset are read and meta.timeZone.';

const SummaryRow = rowObjectType(FLOW_TYPE_SUMMARY_ROW);
const CiRow = rowObjectType(CI_SHARE_ROW);
const ScatterRow = rowObjectType(SCATTER_ROW);
const DurationRow = rowObjectType(DURATION_ROW);
const KpiRow = rowObjectType(PRICE_KPI_ROW);
const ExchangeRow = rowObjectType(ZONE_EXCHANGE_ROW);

builder.queryFields((t) => ({
  flowTypeSummary: t.field({
    description: 'Daily (or weekly) flow-type breakdown per border (REST /api/v1/flow-type-summary).',
    type: resultType('FlowTypeSummaryResult', 'Daily (or weekly) flow-type breakdown per border (REST /api/v1/flow-type-summary).', SummaryRow),
    args: {
      ...rangeArgs(t.arg),
      timeZone: timeZoneArg(t.arg, TZ_DOC),
      resolution: resolutionArg(t.arg, 'Bucket, never finer than DAILY: DAILY (UTC days) or WEEKLY (ISO weeks from Monday 00:00 UTC); NATIVE, HOURLY and an AUTO below DAILY apply DAILY, and meta.resolution says so.'),
      borders: bordersArg(t.arg, 'Each selects its border whatever the direction of flow; rows stay in stored orientation (codes sorted). Omitted: every border.'),
    },
    resolve: (_r, a, ctx) => withArgNames(() => zoned(getFlowTypeSummary(ctx.deps, { ...rangeInput(a), ...timeZoneInput(a), resolution: a.resolution ?? 'auto', borders: a.borders ?? undefined }))),
  }),
  ciShare: t.field({
    description: 'Counter-intuitive flow share per zone and bucket (REST /api/v1/ci-share).',
    type: resultType('CiShareResult', 'Counter-intuitive share per zone and bucket (REST /api/v1/ci-share).', CiRow),
    args: {
      ...rangeArgs(t.arg),
      timeZone: timeZoneArg(t.arg, TZ_DOC),
      resolution: resolutionArg(t.arg, 'Bucket: UTC hours at NATIVE and HOURLY, UTC days at DAILY, ISO weeks from Monday 00:00 UTC at WEEKLY; AUTO picks by range width. Counts are hours (flows are hourly).'),
      zones: zonesArg(t.arg, 'The zones whose share is returned: hours in which a counter-intuitive flow left the zone over hours with an assessed flow at any of its borders. Omitted: every zone.'),
    },
    resolve: (_r, a, ctx) => withArgNames(() => zoned(getCiShare(ctx.deps, { ...rangeInput(a), ...timeZoneInput(a), resolution: a.resolution ?? 'auto', zones: a.zones ?? undefined }))),
  }),
  flowPriceScatter: t.field({
    description: 'Flow versus price difference per border, binned (REST /api/v1/flow-price-scatter); outage hours are left out.',
    type: resultType('FlowPriceScatterResult', 'Binned flow versus price difference per border (REST /api/v1/flow-price-scatter).', ScatterRow),
    args: {
      ...rangeArgs(t.arg),
      timeZone: timeZoneArg(t.arg, TZ_SCATTER),
      resolution: resolutionArg(t.arg, 'Observations: hourly at NATIVE and HOURLY, means of UTC days at DAILY and of ISO weeks (Monday 00:00 UTC) at WEEKLY; AUTO picks by range width.'),
      borders: bordersArg(t.arg, 'Each selects its border whatever the direction of flow; the written orientation signs the flow (positive = power from A to B, MW) and the price difference (price of B - price of A, EUR/MWh). Omitted: every border in stored orientation (codes sorted).'),
      flowBinMw: t.arg.float({ required: true, defaultValue: FLOW_BIN_MW.default, description: `Width of the flow bins, MW (${FLOW_BIN_MW.min} to ${FLOW_BIN_MW.max}), REST flow_bin_mw.`, validate: z.number().min(FLOW_BIN_MW.min).max(FLOW_BIN_MW.max) }),
      priceBin: t.arg.float({ required: true, defaultValue: PRICE_BIN_EUR_MWH.default, description: `Width of the price-difference bins, EUR/MWh (${PRICE_BIN_EUR_MWH.min} to ${PRICE_BIN_EUR_MWH.max}), REST price_bin.`, validate: z.number().min(PRICE_BIN_EUR_MWH.min).max(PRICE_BIN_EUR_MWH.max) }),
    },
    resolve: (_r, a, ctx) => withArgNames(() => zoned(getFlowPriceScatter(ctx.deps, {
      ...rangeInput(a), resolution: a.resolution ?? 'auto', borders: a.borders ?? undefined, flowBinMw: a.flowBinMw, priceBin: a.priceBin,
    }))),
  }),
  flowDuration: t.field({
    description: 'Flow duration curves of hourly flows per border and zone net position (REST /api/v1/flow-duration); takes no resolution, meta.resolution is null.',
    type: resultType('FlowDurationResult', 'Flow duration curves per border and zone net position (REST /api/v1/flow-duration).', DurationRow),
    args: {
      ...rangeArgs(t.arg),
      timeZone: timeZoneArg(t.arg, TZ_TOTALS),
      borders: bordersArg(t.arg, 'One curve per border, its hourly flows signed in the written orientation (positive = power from A to B), MW. Without borders and zones: every border in stored orientation (codes sorted).'),
      zones: zonesArg(t.arg, 'One curve per zone: its hourly net position (sum of its border flows, export positive), MW.'),
      points: t.arg.int({ required: true, defaultValue: 101, description: 'Points per curve at evenly spaced percentages from 0 to 100 (2 to 1001; 101 = every whole percent).', validate: z.number().int().min(2).max(1001) }),
    },
    resolve: (_r, a, ctx) => withArgNames(() => zoned(getFlowDuration(ctx.deps, { ...rangeInput(a), ...timeZoneInput(a), borders: a.borders ?? undefined, zones: a.zones ?? undefined, points: a.points }))),
  }),
  priceKpis: t.field({
    description: 'Statistics of hourly day-ahead prices per zone over the whole range (REST /api/v1/price-kpis); takes no resolution, meta.resolution is null.',
    type: resultType('PriceKpisResult', 'Price statistics per zone over the range (REST /api/v1/price-kpis).', KpiRow),
    args: { ...rangeArgs(t.arg), timeZone: timeZoneArg(t.arg, TZ_TOTALS), zones: zonesArg(t.arg, 'One row per zone. Omitted: every zone.') },
    resolve: (_r, a, ctx) => withArgNames(() => zoned(getPriceKpis(ctx.deps, { ...rangeInput(a), ...timeZoneInput(a), zones: a.zones ?? undefined }))),
  }),
  zoneImportExport: t.field({
    description: 'Imports and exports per zone over the whole range from its hourly border flows (REST /api/v1/zone-import-export); takes no resolution, meta.resolution is null.',
    type: resultType('ZoneImportExportResult', 'Imports and exports per zone over the range (REST /api/v1/zone-import-export).', ExchangeRow),
    args: { ...rangeArgs(t.arg), timeZone: timeZoneArg(t.arg, TZ_TOTALS), zones: zonesArg(t.arg, 'One row per zone, from the flows at every border of the zone. Omitted: every zone.') },
    resolve: (_r, a, ctx) => withArgNames(() => zoned(getZoneImportExport(ctx.deps, { ...rangeInput(a), ...timeZoneInput(a), zones: a.zones ?? undefined }))),
  }),
}));
