import { lineageZones } from '../domain/lineage.js';
import { resolveRange, type TimeRange } from '../domain/time.js';
import type { IssueCollector } from '../errors.js';
import type { ServiceDeps } from './context.js';
import { type AppliedTimeZone, applyTimeZone } from './time-zone.js';

/** The zone selection of a per-zone request (prices, price KPIs, imports/exports), as both surfaces receive it. */
export interface ZoneSelectionInput {
  readonly zones?: readonly string[];
  readonly datetimeFrom?: string;
  readonly datetimeTo?: string;
  /** `tz`: an IANA zone, `UTC` or `local`; omitted: UTC. */
  readonly tz?: string;
  /** Each named zone answers with its lineage (its chained predecessors before it existed). */
  readonly lineage?: boolean;
}

/** A zone selection resolved; a part that failed is undefined, its issue kept by the collector. */
export interface ZoneSelection {
  /** Whether the request named zones (else: every zone of the catalogue). */
  readonly explicit: boolean;
  readonly codes: readonly string[];
  /** Lineage applies: asked for, with named zones. */
  readonly lineage: boolean;
  readonly timeZone: AppliedTimeZone | undefined;
  readonly range: TimeRange | undefined;
}

/**
 * Resolves the zones, `tz` (over the lineage's zones too when it applies) and the range, collecting
 * each invalid part's issue into `check` in that order.
 */
export function resolveZoneSelection(
  deps: ServiceDeps,
  check: IssueCollector,
  input: ZoneSelectionInput,
): ZoneSelection {
  const explicit = (input.zones?.length ?? 0) > 0;
  const codes =
    check.attempt(() =>
      explicit ? deps.catalogue.resolveZones(input.zones!) : deps.catalogue.zones.map((z) => z.code),
    ) ?? [];
  const lineage = explicit && input.lineage === true;
  const tzCodes = lineage ? [...new Set(codes.flatMap(lineageZones))] : codes;
  const timeZone = check.attempt(() => applyTimeZone(deps, input.tz, tzCodes));
  const range = check.attempt(() => resolveRange(input.datetimeFrom, input.datetimeTo, deps.now(), timeZone?.naive));
  return { explicit, codes, lineage, timeZone, range };
}
