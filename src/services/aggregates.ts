import { atLeastDaily } from '../domain/resolution.js';
import { percentOf } from '../domain/rounding.js';
import { resolveRange } from '../domain/time.js';
import { IssueCollector } from '../errors.js';
import { findCiCounts, flowTypeCountBatches } from '../repositories/flows/aggregates.js';
import { findDurationCurves, findScatter, type OrientedBorder } from '../repositories/flows/stats.js';
import { findFlowSources } from '../repositories/flows/sources.js';
import { findPriceSources } from '../repositories/prices/rows.js';
import { findPriceKpis, findZoneExchange } from '../repositories/prices/zone-stats.js';
import type { ServiceDeps } from './context.js';
import { resolveFlowSelection, type FlowSelection, type ResolvedFlowSelection } from './flow-filter.js';
import { type Meta, sourceLabels } from './meta.js';
import { applyTimeZone, rowZoneOf } from './time-zone.js';

/** Aggregates are computed from other signals: provenance `derived` (DESIGN.md). */
async function derivedMeta(
  deps: ServiceDeps,
  sel: Pick<ResolvedFlowSelection, 'filter' | 'range'> & { timeZone?: ResolvedFlowSelection['timeZone'] },
  resolution: Meta['resolution'],
): Promise<Meta> {
  const sources = await findFlowSources(deps.db, sel.filter, deps.memo);
  return {
    provenance: 'derived',
    upstreamSources: sourceLabels(sources),
    range: sel.range,
    resolution,
    pagination: null,
    timeZone: sel.timeZone?.label,
  };
}

function zoneIds(deps: ServiceDeps, zones: readonly string[] | undefined): number[] | null {
  if (!zones?.length) return null;
  return deps.catalogue.resolveZones(zones).flatMap((c) => deps.catalogue.zone(c)?.id ?? []);
}

/** Borders as series: the written ones, else every border in stored orientation. */
function orientedBorders(deps: ServiceDeps, sel: ResolvedFlowSelection, fallbackAll: boolean): OrientedBorder[] {
  if (sel.written.length) {
    return sel.written.map((w) => ({ borderId: w.borderId, flip: w.from > w.to, name: `${w.from}->${w.to}` }));
  }
  if (!fallbackAll) return [];
  const ids = sel.filter.borderIds ? new Set(sel.filter.borderIds) : null;
  return deps.catalogue.borders
    .filter((b) => !ids || ids.has(b.id))
    .map((b) => ({ borderId: b.id, flip: false, name: b.key }));
}

/** Rows a batch of a whole-span aggregate aims at: its reads and its text stay a few MB, whatever the range. */
export const AGGREGATE_BATCH_ROWS = 8_000;

/**
 * Daily (or weekly) flow-type breakdown per border, in the border's stored orientation: the hour
 * counts as read, each row built once (the row contract writes the percentages of them); in
 * batches of about {@link AGGREGATE_BATCH_ROWS} rows (whole days or weeks), read as they are written.
 */
export async function getFlowTypeSummary(deps: ServiceDeps, input: FlowSelection) {
  const sel = resolveFlowSelection(deps, { ...input, flowTypes: [] }, atLeastDaily);
  const borders = sel.filter.borderIds?.length ?? deps.catalogue.borders.length;
  const bucketsPerBatch = Math.ceil(AGGREGATE_BATCH_ROWS / Math.max(1, borders));
  const rows = flowTypeCountBatches(deps.db, sel.filter, sel.resolution, bucketsPerBatch, sel.borderTimeZones);
  const meta = await derivedMeta(deps, sel, sel.resolution);
  const perZone = sel.timeZone.perZone;
  return { meta, rows, rowTimeZone: perZone ? (r: { zoneA: string }) => perZone.get(r.zoneA) ?? 'UTC' : undefined };
}

/** Counter-intuitive share per zone and bucket. */
export async function getCiShare(deps: ServiceDeps, input: FlowSelection) {
  const sel = resolveFlowSelection(deps, { ...input, borders: [], flowTypes: [] }, undefined, true);
  const ids = zoneIds(deps, input.zones);
  const [counts, meta] = await Promise.all([
    findCiCounts(deps.db, sel.range, ids, sel.resolution, sel.timeZone.byZoneId ?? undefined),
    derivedMeta(deps, sel, sel.resolution),
  ]);
  const rows = counts.map((r) => ({
    day: r.day,
    zone: r.zone,
    ciHours: r.ciHours,
    totalHours: r.totalHours,
    ciPercentage: percentOf(r.ciHours, r.totalHours),
  }));
  const zoneOf = rowZoneOf(sel.timeZone);
  return { meta, rows, rowTimeZone: zoneOf && ((r: { zone: string }) => zoneOf(r.zone)) };
}

/** Flow/price scatter bins (MW, EUR/MWh) per written border. */
export async function getFlowPriceScatter(
  deps: ServiceDeps,
  input: FlowSelection & { flowBinMw: number; priceBin: number },
) {
  const sel = resolveFlowSelection(deps, { ...input, zones: [], flowTypes: [] });
  const borders = orientedBorders(deps, sel, true);
  const [rows, meta] = await Promise.all([
    findScatter(deps.db, sel.filter, borders, sel.resolution, input, sel.borderTimeZones),
    derivedMeta(deps, sel, sel.resolution),
  ]);
  return { meta, rows };
}

/** Duration curves per border (written orientation) and per zone net position; no resolution. */
export async function getFlowDuration(deps: ServiceDeps, input: FlowSelection & { points: number }) {
  const sel = resolveFlowSelection(deps, { ...input, zones: [], flowTypes: [], resolution: '1W' });
  const zones = zoneIds(deps, input.zones) ?? [];
  const borders = orientedBorders(deps, sel, zones.length === 0);
  const [rows, meta] = await Promise.all([
    findDurationCurves(deps.db, sel.range, borders, zones, input.points),
    derivedMeta(deps, sel, null),
  ]);
  return { meta, rows };
}

/** Zones and range of a per-zone aggregate; `tz` only sets how naive bounds are read (rows hold no instants). */
function zoneRangeInput(deps: ServiceDeps, input: FlowSelection & { tz?: string }) {
  const check = new IssueCollector();
  const codes =
    check.attempt(() =>
      input.zones?.length ? deps.catalogue.resolveZones(input.zones) : deps.catalogue.zones.map((z) => z.code),
    ) ?? [];
  const ids = codes.flatMap((c) => deps.catalogue.zone(c)?.id ?? []);
  const timeZone = check.attempt(() => applyTimeZone(deps, input.tz, codes));
  const range = check.attempt(() => resolveRange(input.datetimeFrom, input.datetimeTo, deps.now(), timeZone?.naive));
  check.done();
  return { ids, range: range!, timeZone: timeZone!.label };
}

/** Price KPIs per zone over the range (EUR/MWh); no resolution. */
export async function getPriceKpis(deps: ServiceDeps, input: FlowSelection & { tz?: string }) {
  const { ids, range, timeZone } = zoneRangeInput(deps, input);
  const [rows, sources] = await Promise.all([
    findPriceKpis(deps.db, range, ids),
    findPriceSources(deps.db, { zoneIds: ids, from: range.from, to: range.to, resolution: '1D' }, deps.memo),
  ]);
  const meta: Meta = {
    provenance: 'derived',
    upstreamSources: sourceLabels(sources),
    range,
    resolution: null,
    pagination: null,
    timeZone,
  };
  return { meta, rows };
}

/** Imports and exports per zone over the range (MWh, MW); no resolution. */
export async function getZoneImportExport(deps: ServiceDeps, input: FlowSelection & { tz?: string }) {
  const { ids, range, timeZone } = zoneRangeInput(deps, input);
  const zoneSet = new Set(ids);
  const borderIds = deps.catalogue.borders
    .filter((b) => zoneSet.has(b.zoneAId) || zoneSet.has(b.zoneBId))
    .map((b) => b.id);
  const [rows, meta] = await Promise.all([
    findZoneExchange(deps.db, range, ids),
    derivedMeta(deps, { range, filter: { from: range.from, to: range.to, borderIds, flowTypes: [] } }, null),
  ]);
  return { meta: { ...meta, timeZone }, rows };
}
