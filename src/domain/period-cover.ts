/**
 * Covering a time range with calendar periods (UTC years, months, days) for the row counts of the
 * flow queries: each row of a query sits at its datetime (an hour, a day or an ISO week's Monday),
 * so the rows of a range are those of its whole periods plus those of the pieces left at its ends.
 * At 1W a period holds the weeks whose Monday falls in it, so it runs from the first Monday on or
 * after its first day to the first Monday on or after the next period's. Epoch ms UTC. Pure.
 */
import { DAY_MS, isoWeekStart } from './calendar.js';

/** A calendar period of the count rollups: a UTC year, month or day. */
export type PeriodLevel = 'year' | 'month' | 'day';

/** One piece of a covered range, in time order. */
export type CoverPart =
  | {
      /** Whole periods of one level: the units starting in [firstUnit, endUnit) (first days, ms). */
      readonly level: PeriodLevel;
      readonly firstUnit: number;
      readonly endUnit: number;
      /** The instants the rows of those periods lie in, [from, to). */
      readonly from: number;
      readonly to: number;
    }
  | { readonly level: 'fine'; readonly from: number; readonly to: number };

/** Calendar arithmetic of one level: unit starts (first days) and where their rows begin. */
export interface PeriodUnits {
  /** Start of the unit holding an instant. */
  floor(ms: number): number;
  /** Start of the unit after the one starting at `unit`. */
  next(unit: number): number;
  /** Start of the unit before the one starting at `unit`. */
  prev(unit: number): number;
  /** The instant the rows of the unit starting at `unit` begin: the unit start, at 1W its first Monday. */
  boundary(unit: number): number;
}

const firstMondayFrom = (ms: number): number => isoWeekStart(ms + 6 * DAY_MS);

/** The units of a level; `weekly` for the rows of 1W queries (weeks belong to their Monday's period). */
export function periodUnits(level: PeriodLevel, weekly: boolean): PeriodUnits {
  const months = level === 'year' ? 12 : 1;
  const shift = (unit: number, n: number) => {
    if (level === 'day') return unit + n * DAY_MS;
    const d = new Date(unit);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n * months, 1);
  };
  return {
    floor(ms) {
      if (level === 'day') return Math.floor(ms / DAY_MS) * DAY_MS;
      const d = new Date(ms);
      return Date.UTC(d.getUTCFullYear(), level === 'year' ? 0 : d.getUTCMonth(), 1);
    },
    next: (unit) => shift(unit, 1),
    prev: (unit) => shift(unit, -1),
    boundary: (unit) => (weekly ? firstMondayFrom(unit) : unit),
  };
}

/**
 * Covers [from, to) with the whole periods of `levels` (coarsest first) and, at the ends, finer
 * periods, down to `fine` pieces (which hold less than one period of the finest level).
 */
export function coverRange(from: number, to: number, levels: readonly PeriodLevel[], weekly: boolean): CoverPart[] {
  if (from >= to) return [];
  const [level, ...finer] = levels;
  if (!level) return [{ level: 'fine', from, to }];
  const u = periodUnits(level, weekly);
  let first = u.floor(from);
  if (u.boundary(first) < from) first = u.next(first);
  let end = u.floor(to);
  if (u.boundary(end) > to) end = u.prev(end);
  if (first >= end) return coverRange(from, to, finer, weekly);
  const [a, b] = [u.boundary(first), u.boundary(end)];
  return [
    ...coverRange(from, a, finer, weekly),
    { level, firstUnit: first, endUnit: end, from: a, to: b },
    ...coverRange(b, to, finer, weekly),
  ];
}

/** The levels finer than `level` of a resolution's `levels`. */
export function finerLevels(levels: readonly PeriodLevel[], level: PeriodLevel): PeriodLevel[] {
  return levels.slice(levels.indexOf(level) + 1);
}

/**
 * Indices of the entries holding a row of the page [offset, offset + limit), of those `coarse`
 * says are coarse; entries in order, each holding `rows` rows.
 */
export function coarseInPage<E extends { readonly rows: number }>(
  entries: readonly E[],
  coarse: (e: E) => boolean,
  page: { offset: number; limit: number },
): number[] {
  const hit: number[] = [];
  let before = 0;
  for (const [i, e] of entries.entries()) {
    if (before >= page.offset + page.limit) break;
    if (before + e.rows > page.offset && e.rows > 0 && coarse(e)) hit.push(i);
    before += e.rows;
  }
  return hit;
}
