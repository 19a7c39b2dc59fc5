import { DAY_MS, HOUR_MS, WEEK_MS } from '../domain/calendar.js';
import { atLeastDaily, type Resolution } from '../domain/resolution.js';
import { percentOf } from '../domain/rounding.js';
import { InputError, IssueCollector } from '../errors.js';
import { ciCountBatches, flowTypeCountBatches } from '../repositories/flows/aggregates.js';
import { findDurationCurves, type OrientedBorder, scatterBatches } from '../repositories/flows/stats.js';
import { findFlowSources } from '../repositories/flows/sources.js';
import { findPriceSources } from '../repositories/prices/rows.js';
import {
  findPriceKpis,
  findSeriesPriceKpis,
  findZoneExchange,
  type PriceBasis,
} from '../repositories/prices/zone-stats.js';
import { lineageSegments } from '../domain/lineage.js';
import { intersect } from '../domain/validity.js';
import type { TimeRange } from '../domain/time.js';
import type { ServiceDeps } from './context.js';
import { resolveFlowSelection, type FlowSelection, type ResolvedFlowSelection } from './flow-filter.js';
import { type Meta, sourceLabels } from './meta.js';
import { rowZoneOf } from './time-zone.js';
import { checkZonePeriods } from './validity.js';
import { resolveZoneSelection } from './zone-selection.js';

/** Aggregates are computed from other signals: provenance `derived` (docs/contract.md#envelope-and-meta). */
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

/**
 * Counter-intuitive share per zone and bucket, in batches of about {@link AGGREGATE_BATCH_ROWS}
 * rows (whole UTC days, or ISO weeks at 1W), read as they are written.
 */
export async function getCiShare(deps: ServiceDeps, input: FlowSelection) {
  const sel = resolveFlowSelection(deps, { ...input, borders: [], flowTypes: [] }, undefined, true);
  const ids = zoneIds(deps, input.zones);
  const zones = ids?.length ?? deps.catalogue.zones.length;
  const perDayOrWeek = zones * (sel.resolution === 'native' || sel.resolution === '1H' ? 24 : 1);
  const size = Math.ceil(AGGREGATE_BATCH_ROWS / Math.max(1, perDayOrWeek));
  const counts = ciCountBatches(deps.db, sel.range, ids, sel.resolution, size, sel.timeZone.byZoneId ?? undefined);
  const meta = await derivedMeta(deps, sel, sel.resolution);
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

/**
 * Statements an hourly (native/1H) scatter is read in, at most: each one over a part of the
 * borders reads the range's pages of the whole hourly table (a border's hours are spread across
 * it), so over a long range batches of one border each would read it once a border (about 2 s a
 * border at 20 years). Daily and weekly observations come from rollups read by border.
 */
const HOURLY_SCATTER_STATEMENTS = 4;

/**
 * Flow/price scatter bins (MW, EUR/MWh) per written border, in batches of whole borders of about
 * {@link AGGREGATE_BATCH_ROWS} rows, counting a bin per observation at most (an observation an
 * hour at native/1H, a day at 1D, a week at 1W), read as they are written; at native/1H over
 * more hours than that a border, in {@link HOURLY_SCATTER_STATEMENTS} batches.
 */
export async function getFlowPriceScatter(
  deps: ServiceDeps,
  input: FlowSelection & { flowBinMw: number; priceBin: number },
) {
  const sel = resolveFlowSelection(deps, { ...input, zones: [], flowTypes: [] });
  const borders = orientedBorders(deps, sel, true);
  const observations = observationsPerBorder(sel.range, sel.resolution);
  const longHourly = (sel.resolution === 'native' || sel.resolution === '1H') && observations > AGGREGATE_BATCH_ROWS;
  const size = longHourly
    ? Math.ceil(borders.length / HOURLY_SCATTER_STATEMENTS)
    : Math.floor(AGGREGATE_BATCH_ROWS / Math.max(1, observations));
  const rows = scatterBatches(deps.db, sel.filter, borders, sel.resolution, input, size, sel.borderTimeZones);
  const meta = await derivedMeta(deps, sel, sel.resolution);
  return { meta, rows };
}

/** Observations of one border over a range at a resolution, at most: its hours, days or weeks (started ones counted). */
function observationsPerBorder(range: TimeRange, resolution: Resolution): number {
  const bucket = resolution === '1W' ? WEEK_MS : resolution === '1D' ? DAY_MS : HOUR_MS;
  return Math.ceil((range.to.getTime() - range.from.getTime()) / bucket) + 1;
}

/** Duration curves per border (written orientation) and per zone net position; no resolution. */
export async function getFlowDuration(deps: ServiceDeps, input: FlowSelection & { points: number }) {
  const sel = resolveFlowSelection(deps, { ...input, zones: [], flowTypes: [], resolution: '1W' });
  if (input.zones?.length) checkZonePeriods(deps, deps.catalogue.resolveZones(input.zones), sel.range);
  const zones = zoneIds(deps, input.zones) ?? [];
  const borders = orientedBorders(deps, sel, zones.length === 0);
  const [rows, meta] = await Promise.all([
    findDurationCurves(deps.db, sel.range, borders, zones, input.points),
    derivedMeta(deps, sel, null),
  ]);
  return { meta, rows };
}

/**
 * Zones and range of a per-zone aggregate; `tz` only sets how naive bounds are read (rows hold no
 * instants). Named zones must exist over the range (with `lineage`, their series must).
 */
function zoneRangeInput(
  deps: ServiceDeps,
  input: FlowSelection & { tz?: string; lineage?: boolean },
  lineageOffered = false,
) {
  const check = new IssueCollector();
  const { explicit, codes, lineage, timeZone, range } = resolveZoneSelection(deps, check, input);
  const ids = codes.flatMap((c) => deps.catalogue.zone(c)?.id ?? []);
  if (range && explicit) check.attempt(() => checkZonePeriods(deps, codes, range, { lineage, lineageOffered }));
  check.done();
  return { codes, ids, lineage, range: range!, timeZone: timeZone!.label };
}

/** A lineage series' parts over a range: each chained zone (code, id) over the part it stands for. */
function seriesParts(deps: ServiceDeps, code: string, range: TimeRange) {
  const whole = { from: range.from.getTime(), to: range.to.getTime() };
  return lineageSegments(code).flatMap((s) => {
    const p = intersect(s.period, whole);
    const zone = deps.catalogue.zone(s.zone);
    return p && zone
      ? [{ series: code, zone: s.zone, zoneId: zone.id, range: { from: new Date(p.from), to: new Date(p.to) } }]
      : [];
  });
}

/**
 * Price KPIs per zone over the range (EUR/MWh); no resolution. Basis `hourly` (default): statistics
 * of the hourly means, hour counts in whole hours; `native`: of the published periods weighted by
 * duration, hour counts as durations in hours. Lineage series are computed on the hourly basis only.
 * @throws InputError for `lineage=true` with `basis=native` when a series chains another zone.
 */
export async function getPriceKpis(
  deps: ServiceDeps,
  input: FlowSelection & { tz?: string; lineage?: boolean; priceBasis?: PriceBasis | undefined },
) {
  const { codes, ids: zoneIds, lineage, range, timeZone } = zoneRangeInput(deps, input, true);
  const basis = input.priceBasis ?? 'hourly';
  const chained = lineage ? codes.map((c) => seriesParts(deps, c, range)) : [];
  const parts = chained.filter((p) => !(p.length === 1 && p[0]!.zone === p[0]!.series)).flat();
  if (parts.length && basis === 'native') throw nativeLineageError();
  const chainedCodes = new Set(parts.map((p) => p.series));
  const ids = lineage
    ? codes.filter((c) => !chainedCodes.has(c)).flatMap((c) => deps.catalogue.zone(c)?.id ?? [])
    : zoneIds;
  const sourceIds = [...new Set([...ids, ...parts.map((p) => p.zoneId)])];
  const [plain, series, sources] = await Promise.all([
    ids.length ? findPriceKpis(deps.db, range, ids, basis) : [],
    findSeriesPriceKpis(deps.db, parts),
    findPriceSources(deps.db, { zoneIds: sourceIds, from: range.from, to: range.to, resolution: '1D' }, deps.memo),
  ]);
  const zonesOf = (code: string) => {
    const own = parts.filter((p) => p.series === code).map((p) => p.zone);
    return own.length ? own : [code];
  };
  const rows = [...plain, ...series]
    .sort((x, y) => (x.zone < y.zone ? -1 : x.zone > y.zone ? 1 : 0))
    .map((r) => ({ ...r, seriesZones: zonesOf(r.zone) }));
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

function nativeLineageError(): InputError {
  const msg =
    'basis=native is not available with lineage=true over a range where a series chains another zone: ask each zone of the series with basis=native, or the series with basis=hourly';
  return new InputError([{ param: 'priceBasis', msg, type: 'value_error', input: 'native' }]);
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
