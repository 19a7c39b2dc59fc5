import type { ObjectRef } from '@pothos/core';
import { CI_SHARE_ROW, DURATION_ROW, FLOW_TYPE_SUMMARY_ROW, SCATTER_ROW } from '../../contract/rows/flow-aggregates.js';
import { PRICE_KPI_ROW, ZONE_EXCHANGE_ROW } from '../../contract/rows/zone-aggregates.js';
import {
  BORDERS,
  FLOW_BIN,
  KPI_BASIS,
  POINTS,
  PRICE_BIN,
  RANGE,
  RESOLUTION,
  TIME_ZONE,
  use,
  ZONES,
  LINEAGE,
} from '../../contract/params.js';
import type { Meta } from '../../services/meta.js';
import {
  getCiShare,
  getFlowDuration,
  getFlowPriceScatter,
  getFlowTypeSummary,
  getPriceKpis,
  getZoneImportExport,
} from '../../services/aggregates.js';
import { builder } from '../builder.js';
import { enumType, graphqlArgs, withArgs } from './args.js';
import { PRICE_BASIS } from '../../contract/enums.js';
import { MetaRef } from './common.js';
import { rowObjectType } from '../rows/object-type.js';
import type { RowTimeZone } from '../../contract/json.js';
import { inTimeZone } from '../rows/zoned.js';
import { allRows, type Rows } from '../../domain/row-batches.js';

/** A service result as GraphQL parent: rows tagged with their time zone under `timeZone`. */
async function zoned<R>(
  result: Promise<{ meta: Meta; rows: Rows<R>; rowTimeZone?: RowTimeZone<R> }>,
): Promise<{ meta: Meta; rows: R[] }> {
  const { meta, rows, rowTimeZone } = await result;
  return { meta, rows: inTimeZone([...(await allRows(rows))], rowTimeZone) };
}

/** A `{ meta, rows }` result type named `name` around a row type. */
function resultType<R>(name: string, description: string, row: ObjectRef<any, R>) {
  return builder.objectRef<{ meta: Meta; rows: R[] }>(name).implement({
    description,
    fields: (t) => ({
      meta: t.field({
        type: MetaRef,
        description: 'Provenance, sources, resolved range and resolution.',
        resolve: (r) => r.meta,
      }),
      rows: t.field({ type: [row], description: 'The rows, ordered as REST orders them.', resolve: (r) => r.rows }),
    }),
  });
}

const TZ_DOC =
  'Buckets are local hours, days and weeks; row instants carry the offset (2026-03-29T00:00:00+01:00), days are local dates. With local, a border is in the zone of its zone A.';
const TZ_SCATTER =
  'DAILY and WEEKLY observations are means of local days and weeks (a border in the zone of its zone A with local).';
const TZ_TOTALS = 'Rows hold no instants: it sets how from/to without offset are read and meta.timeZone.';

const SummaryRow = rowObjectType(FLOW_TYPE_SUMMARY_ROW);
const CiRow = rowObjectType(CI_SHARE_ROW);
const ScatterRow = rowObjectType(SCATTER_ROW);
const DurationRow = rowObjectType(DURATION_ROW);
const KpiRow = rowObjectType(PRICE_KPI_ROW);

/** What the price KPIs are statistics of: hourly means (default) or the published periods. */
export const PriceBasisEnum = enumType(PRICE_BASIS);
const ExchangeRow = rowObjectType(ZONE_EXCHANGE_ROW);

const SUMMARY_PARAMS = [
  ...RANGE,
  use(TIME_ZONE, { graphql: TZ_DOC }),
  use(RESOLUTION, {
    graphql:
      'Bucket, never finer than DAILY: DAILY (UTC days) or WEEKLY (ISO weeks from Monday 00:00 UTC); NATIVE, HOURLY and an AUTO below DAILY apply DAILY, and meta.resolution says so.',
  }),
  use(BORDERS, {
    graphql:
      'Each selects its border whatever the direction of flow; rows stay in stored orientation (codes sorted). Omitted: every border.',
  }),
] as const;

const CI_PARAMS = [
  ...RANGE,
  use(TIME_ZONE, { graphql: TZ_DOC }),
  use(RESOLUTION, {
    graphql:
      'Bucket: UTC hours at NATIVE and HOURLY, UTC days at DAILY, ISO weeks from Monday 00:00 UTC at WEEKLY; AUTO picks by range width. Counts are hours (flows are hourly).',
  }),
  use(ZONES, {
    graphql:
      'The zones whose share is returned: hours in which a counter-intuitive flow left the zone over hours with an assessed flow at any of its borders. Omitted: every zone.',
  }),
] as const;

const SCATTER_PARAMS = [
  ...RANGE,
  use(TIME_ZONE, { graphql: TZ_SCATTER }),
  use(RESOLUTION, {
    graphql:
      'Observations: hourly at NATIVE and HOURLY, means of UTC days at DAILY and of ISO weeks (Monday 00:00 UTC) at WEEKLY; AUTO picks by range width.',
  }),
  use(BORDERS, {
    graphql:
      'Each selects its border whatever the direction of flow; the written orientation signs the flow (positive = power from A to B, MW) and the price difference (price of B - price of A, EUR/MWh). Omitted: every border in stored orientation (codes sorted).',
  }),
  FLOW_BIN,
  PRICE_BIN,
] as const;

const DURATION_PARAMS = [
  ...RANGE,
  use(TIME_ZONE, { graphql: TZ_TOTALS }),
  use(BORDERS, {
    graphql:
      'One curve per border, its hourly flows signed in the written orientation (positive = power from A to B), MW. Without borders and zones: every border in stored orientation (codes sorted).',
  }),
  use(ZONES, {
    graphql: 'One curve per zone: its hourly net position (sum of its border flows, export positive), MW.',
  }),
  POINTS,
] as const;

const KPI_PARAMS = [
  ...RANGE,
  use(TIME_ZONE, { graphql: TZ_TOTALS }),
  use(ZONES, { graphql: 'One row per zone. Omitted: every zone.' }),
  use(LINEAGE, { graphql: 'One row per named zone over the hours of its series; seriesZones lists the zones.' }),
  KPI_BASIS,
] as const;

const EXCHANGE_PARAMS = [
  ...RANGE,
  use(TIME_ZONE, { graphql: TZ_TOTALS }),
  use(ZONES, { graphql: 'One row per zone, from the flows at every border of the zone. Omitted: every zone.' }),
] as const;

builder.queryFields((t) => ({
  flowTypeSummary: t.field({
    description: 'Daily (or weekly) flow-type breakdown per border (REST /api/v1/flow-type-summary).',
    type: resultType(
      'FlowTypeSummaryResult',
      'Daily (or weekly) flow-type breakdown per border (REST /api/v1/flow-type-summary).',
      SummaryRow,
    ),
    args: graphqlArgs(t.arg, SUMMARY_PARAMS),
    resolve: (_r, a, ctx) =>
      withArgs(SUMMARY_PARAMS, a, (input) => zoned(getFlowTypeSummary(ctx.deps, { ...input, anyRange: true }))),
  }),
  ciShare: t.field({
    description: 'Counter-intuitive flow share per zone and bucket (REST /api/v1/ci-share).',
    type: resultType('CiShareResult', 'Counter-intuitive share per zone and bucket (REST /api/v1/ci-share).', CiRow),
    args: graphqlArgs(t.arg, CI_PARAMS),
    resolve: (_r, a, ctx) =>
      withArgs(CI_PARAMS, a, (input) => zoned(getCiShare(ctx.deps, { ...input, anyRange: true }))),
  }),
  flowPriceScatter: t.field({
    description:
      'Flow versus price difference per border, binned (REST /api/v1/flow-price-scatter); outage hours are left out.',
    type: resultType(
      'FlowPriceScatterResult',
      'Binned flow versus price difference per border (REST /api/v1/flow-price-scatter).',
      ScatterRow,
    ),
    args: graphqlArgs(t.arg, SCATTER_PARAMS),
    resolve: (_r, a, ctx) =>
      withArgs(SCATTER_PARAMS, a, (input) => zoned(getFlowPriceScatter(ctx.deps, { ...input, anyRange: true }))),
  }),
  flowDuration: t.field({
    description:
      'Flow duration curves of hourly flows per border and zone net position (REST /api/v1/flow-duration); takes no resolution, meta.resolution is null.',
    type: resultType(
      'FlowDurationResult',
      'Flow duration curves per border and zone net position (REST /api/v1/flow-duration).',
      DurationRow,
    ),
    args: graphqlArgs(t.arg, DURATION_PARAMS),
    resolve: (_r, a, ctx) => withArgs(DURATION_PARAMS, a, (input) => zoned(getFlowDuration(ctx.deps, input))),
  }),
  priceKpis: t.field({
    description:
      'Statistics of day-ahead prices per zone over the whole range (REST /api/v1/price-kpis): of the hourly means (basis HOURLY, default) or of the published periods weighted by duration (NATIVE); takes no resolution, meta.resolution is null.',
    type: resultType('PriceKpisResult', 'Price statistics per zone over the range (REST /api/v1/price-kpis).', KpiRow),
    args: graphqlArgs(t.arg, KPI_PARAMS),
    resolve: (_r, a, ctx) => withArgs(KPI_PARAMS, a, (input) => zoned(getPriceKpis(ctx.deps, input))),
  }),
  zoneImportExport: t.field({
    description:
      'Imports and exports per zone over the whole range from its hourly border flows (REST /api/v1/zone-import-export); takes no resolution, meta.resolution is null.',
    type: resultType(
      'ZoneImportExportResult',
      'Imports and exports per zone over the range (REST /api/v1/zone-import-export).',
      ExchangeRow,
    ),
    args: graphqlArgs(t.arg, EXCHANGE_PARAMS),
    resolve: (_r, a, ctx) => withArgs(EXCHANGE_PARAMS, a, (input) => zoned(getZoneImportExport(ctx.deps, input))),
  }),
}));
