/**
 * Zones and borders over time: what the catalogue says of each one's period, the check that a
 * request stays inside the period of every zone and border it names (else a message naming the
 * period and the zones before or after it), and the lineage of a zone: its single predecessors,
 * chained, each over the part of the record before its successor started. Instants are UTC ms;
 * periods half-open [from, to).
 */
import { ZONE_HISTORY } from './catalogue-history.js';
import { formatInZone } from './time-zone.js';
import { borderPeriod, boundIso, covers, type Period, zonePeriod } from './validity.js';

/** A zone's period and neighbours in time, as the catalogue rows write them. */
export interface ZoneValidity {
  /** First instant (UTC) of the zone; null: served from the platform's first data. */
  readonly validFrom: Date | null;
  /** End (exclusive, UTC) of the zone; null: the zone is current. */
  readonly validTo: Date | null;
  /** Zones it replaced (all or part of their area), codes. */
  readonly predecessors: readonly string[];
  /** Zones that replaced it, codes. */
  readonly successors: readonly string[];
}

const dateOf = (ms: number): Date | null => (Number.isFinite(ms) ? new Date(ms) : null);

/** The period and neighbours in time of a zone (by code). */
export function zoneValidity(code: string): ZoneValidity {
  const p = zonePeriod(code);
  const h = ZONE_HISTORY[code];
  return {
    validFrom: dateOf(p.from),
    validTo: dateOf(p.to),
    predecessors: h?.predecessors ?? [],
    successors: h?.successors ?? [],
  };
}

/** A border's period: where both its zones exist (null bounds are open). */
export function borderValidity(a: string, b: string): Pick<ZoneValidity, 'validFrom' | 'validTo'> {
  const p = borderPeriod(a, b) ?? { from: 0, to: 0 };
  return { validFrom: dateOf(p.from), validTo: dateOf(p.to) };
}

/** What the messages need of a zone: its name and IANA time zone. */
export interface ZoneInfo {
  readonly name: string;
  readonly timeZone: string;
}

/** `2018-10-01T00:00:00+02:00 (2018-09-30T22:00:00Z)`: a bound in the zone's local time, then UTC. */
function bound(ms: number, timeZone: string): string {
  return `${formatInZone(new Date(ms), timeZone)} (${boundIso(ms)})`;
}

const orList = (codes: readonly string[]) => codes.join(' or ');
const andList = (codes: readonly string[]) => codes.join(' and ');

/** `from X` / `until Y` / `from X until Y`: the closed bounds of a period. */
function periodText(p: Period, timeZone: string): string {
  const from = Number.isFinite(p.from) ? `from ${bound(p.from, timeZone)}` : '';
  const to = Number.isFinite(p.to) ? `until ${bound(p.to, timeZone)}` : '';
  return [from, to].filter(Boolean).join(' ');
}

/** The single predecessor a zone chains to under lineage, or undefined (none, or several). */
export function chainedPredecessor(code: string): string | undefined {
  const preds = ZONE_HISTORY[code]?.predecessors ?? [];
  return preds.length === 1 ? preds[0] : undefined;
}

/** A zone's lineage, oldest first: its chained predecessors, then the zone itself. */
export function lineageZones(code: string): string[] {
  const out = [code];
  for (let p = chainedPredecessor(code); p !== undefined && !out.includes(p); p = chainedPredecessor(p)) out.unshift(p);
  return out;
}

/** One zone's part of a lineage series: its prices stand for the series over [from, to). */
export interface LineageSegment {
  readonly zone: string;
  readonly period: Period;
}

/**
 * The segments of a zone's lineage, oldest first: each zone over its own period, cut where the
 * next one starts. The series' whole period is from the first segment's start to the zone's end.
 */
export function lineageSegments(code: string): LineageSegment[] {
  const zones = lineageZones(code);
  const out: LineageSegment[] = [];
  for (const [i, zone] of zones.entries()) {
    const own = zonePeriod(zone);
    const next = zones[i + 1];
    const to = next === undefined ? own.to : Math.min(own.to, zonePeriod(next).from);
    if (own.from < to) out.push({ zone, period: { from: own.from, to } });
  }
  return out;
}

/** The period a zone's series covers: its own, or with lineage from its oldest chained predecessor. */
export function seriesPeriod(code: string, lineage: boolean): Period {
  if (!lineage) return zonePeriod(code);
  const segments = lineageSegments(code);
  return { from: segments[0]?.period.from ?? -Infinity, to: segments.at(-1)?.period.to ?? Infinity };
}

/**
 * Why a zone cannot answer `range`, or null when the range lies inside its period (with `lineage`,
 * inside its series' period). `lineageOffered` adds the hint to ask with lineage where it would help.
 */
export function zoneRangeProblem(
  code: string,
  info: ZoneInfo,
  range: Period,
  opts: { lineage?: boolean; lineageOffered?: boolean } = {},
): string | null {
  const period = seriesPeriod(code, opts.lineage === true);
  if (covers(period, range)) return null;
  const h = ZONE_HISTORY[code];
  const parts = [`${code} exists ${periodText(period, info.timeZone)}`];
  if (range.from < period.from) {
    const first = opts.lineage ? (lineageZones(code)[0] ?? code) : code;
    const preds = ZONE_HISTORY[first]?.predecessors ?? [];
    if (!preds.length) parts.push('no earlier zone is in the catalogue');
    else {
      const chains = !opts.lineage && opts.lineageOffered && chainedPredecessor(code) !== undefined;
      parts.push(
        `before, ${info.name} was in ${andList(preds)}: ask ${orList(preds)} for earlier periods${chains ? ' or set lineage=true' : ''}`,
      );
    }
  }
  if (range.to > period.to) {
    const succ = h?.successors ?? [];
    parts.push(
      succ.length
        ? `after, ${andList(succ)} replaced it: ask ${orList(succ)} for later periods`
        : 'no later zone is in the catalogue',
    );
  }
  return parts.join('; ');
}

/**
 * Why a border cannot answer `range`, or null when the range lies inside the period of both its
 * zones. `from`/`to` as written; `exists` tells which pairs of zones share a border.
 */
export function borderRangeProblem(
  from: string,
  to: string,
  info: ZoneInfo,
  range: Period,
  exists: (a: string, b: string) => boolean,
): string | null {
  const period = borderPeriod(from, to) ?? { from: 0, to: 0 };
  if (covers(period, range)) return null;
  const parts = [`${from}->${to} exists ${periodText(period, info.timeZone)}, while both zones do`];
  const alternatives = (side: 'predecessors' | 'successors', before: boolean) => {
    const out: string[] = [];
    for (const [z, other, first] of [
      [from, to, true],
      [to, from, false],
    ] as const) {
      const p = zonePeriod(z);
      if (before ? range.from >= p.from : range.to <= p.to) continue;
      for (const alt of ZONE_HISTORY[z]?.[side] ?? []) {
        if (alt !== other && exists(alt, other)) out.push(first ? `${alt}->${other}` : `${other}->${alt}`);
      }
    }
    return out;
  };
  if (range.from < period.from) {
    const alts = alternatives('predecessors', true);
    parts.push(
      alts.length ? `before, ask ${orList(alts)} for earlier periods` : 'no earlier border is in the catalogue',
    );
  }
  if (range.to > period.to) {
    const alts = alternatives('successors', false);
    parts.push(alts.length ? `after, ask ${orList(alts)} for later periods` : 'no later border is in the catalogue');
  }
  return parts.join('; ');
}
