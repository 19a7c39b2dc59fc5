import type { FlowType } from '../domain/classification.js';
import { applyResolution, type RequestedResolution, type Resolution } from '../domain/resolution.js';
import { resolveRange, type TimeRange } from '../domain/time.js';
import { IssueCollector } from '../errors.js';
import type { FlowFilter } from '../repositories/flows/filter.js';
import type { BorderTimeZones } from '../repositories/sql/time.js';
import type { ServiceDeps } from './context.js';
import { type AppliedTimeZone, applyTimeZone } from './time-zone.js';
import { checkBorderPeriods, checkZonePeriods } from './validity.js';

/** Flow request parameters as both surfaces receive them (REST semantics). */
export interface FlowSelection {
  readonly borders?: readonly string[];
  readonly zones?: readonly string[];
  readonly flowTypes?: readonly FlowType[];
  readonly datetimeFrom?: string;
  readonly datetimeTo?: string;
  readonly resolution?: RequestedResolution;
  /** `tz`: an IANA zone, `UTC` or `local` (a border: its zone A's time zone); omitted: UTC. */
  readonly tz?: string | undefined;
  /** Any range at any resolution (exports, GraphQL connections and binned aggregates): the spec's caps do not apply. */
  readonly anyRange?: boolean;
}

/** A resolved selection: SQL filter, UTC range, applied resolution, written border orientations. */
export interface ResolvedFlowSelection {
  readonly filter: FlowFilter;
  readonly range: TimeRange;
  readonly resolution: Resolution;
  /** Borders as written (`from`/`to`), in order; empty when no border filter was given. */
  readonly written: readonly { from: string; to: string; borderId: number }[];
  /** The time zone applied, keyed by the zone A code of each selected border. */
  readonly timeZone: AppliedTimeZone;
  /** Each selected border's time zone, for local buckets; undefined for UTC. */
  readonly borderTimeZones: BorderTimeZones | undefined;
}

function borderIdsOf(
  deps: ServiceDeps,
  sel: FlowSelection,
  check: IssueCollector,
): { ids: number[] | null; written: ResolvedFlowSelection['written']; zoneCodes: string[] | null } {
  const refs = (sel.borders?.length && check.attempt(() => deps.catalogue.resolveBorders(sel.borders!))) || [];
  const written = refs.flatMap((r) => {
    const b = deps.catalogue.border(r.key);
    return b ? [{ from: r.from, to: r.to, borderId: b.id }] : [];
  });
  let ids: number[] | null = refs.length ? written.map((w) => w.borderId) : null;
  const zoneCodes = sel.zones?.length ? (check.attempt(() => deps.catalogue.resolveZones(sel.zones!)) ?? []) : null;
  if (zoneCodes) {
    const zones = new Set(zoneCodes);
    const touching = deps.catalogue.borders.filter((b) => zones.has(b.a) || zones.has(b.b)).map((b) => b.id);
    ids = ids ? ids.filter((id) => touching.includes(id)) : touching;
  }
  return { ids: ids && [...new Set(ids)], written, zoneCodes };
}

/**
 * Resolves a flow selection: borders (`A->B`, either direction) AND zones (either side of a border),
 * flow types, range and resolution. `tz` applies per border (its zone A's time zone), or with
 * `tzOnZones` to the selected zones, all when none is given (per-zone aggregates).
 * @throws InputError listing every invalid input, a named zone or border that does not exist over
 * the whole range among them.
 */
export function resolveFlowSelection(
  deps: ServiceDeps,
  sel: FlowSelection,
  lift: (r: Resolution) => Resolution = (r) => r,
  tzOnZones = false,
): ResolvedFlowSelection {
  const check = new IssueCollector();
  const { ids, written, zoneCodes } = borderIdsOf(deps, sel, check);
  const idSet = ids && new Set(ids);
  const borders = deps.catalogue.borders.filter((b) => !idSet || idSet.has(b.id));
  const tzZones = tzOnZones
    ? (zoneCodes ?? deps.catalogue.zones.map((z) => z.code))
    : [...new Set(borders.map((b) => b.a))];
  const timeZone = check.attempt(() => applyTimeZone(deps, sel.tz, tzZones));
  const range = check.attempt(() => resolveRange(sel.datetimeFrom, sel.datetimeTo, deps.now(), timeZone?.naive));
  const applied = range && check.attempt(() => applyResolution(sel.resolution ?? 'auto', range, sel.anyRange));
  if (range) {
    check.attempt(() => checkBorderPeriods(deps, written, range));
    if (zoneCodes) check.attempt(() => checkZonePeriods(deps, zoneCodes, range));
  }
  check.done();
  const resolution = lift(applied!);
  const perZone = timeZone!.perZone;
  const borderTimeZones = perZone
    ? { borderIds: borders.map((b) => b.id), names: borders.map((b) => perZone.get(b.a) ?? 'UTC') }
    : undefined;
  return {
    filter: { from: range!.from, to: range!.to, borderIds: ids, flowTypes: sel.flowTypes ?? [] },
    range: range!,
    resolution,
    written,
    timeZone: timeZone!,
    borderTimeZones,
  };
}
