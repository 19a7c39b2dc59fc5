/**
 * Planning of upstream request windows: which (item, area) pairs to fetch, which parts of the
 * requested range earlier runs already finished, and how the rest splits under the platform's
 * limits. Pure: no I/O. Instants are UTC.
 */
import { DAY_MS, HOUR_MS as HOUR } from '../domain/calendar.js';
import { DATA_CATALOGUE } from '../domain/catalogue.js';
import { ITEMS, type Item, ZONE_ITEMS } from '../domain/items.js';
import { type Period, borderPeriod, intersect, zonePeriod } from '../domain/validity.js';

/**
 * How long after a window was finished its data may still change upstream, ms. A finished window
 * covers its range only up to `finished_at - margin`: the rest (the future, recent hours) is fetched
 * again by the next run. Day-ahead prices and NTC are final once published; flows and schedules
 * are revised for a few hours; outages are re-announced at any time before they start.
 */
export const SETTLE_MARGIN_MS: Readonly<Record<Item, number>> = {
  prices: 0,
  ntc: 0,
  flows: 6 * HOUR,
  schedules: 6 * HOUR,
  outages: 0,
};

/** A half-open interval [start, end) in epoch ms (UTC). */
export interface Interval {
  readonly start: number;
  readonly end: number;
}

/** What to fetch for: an item and its area (zone code, or border key `A->B` in stored orientation). */
export interface Target {
  readonly item: Item;
  readonly areaKey: string;
}

/** One request window of a target. */
export interface PlannedWindow extends Target {
  readonly start: Date;
  readonly end: Date;
}

/** A window recorded as done by an earlier run. */
export interface DoneWindow extends PlannedWindow {
  readonly finishedAt: Date;
}

/** Selection of areas; codes are catalogue short codes, borders `A->B` in stored orientation. */
export interface TargetSelection {
  readonly what: readonly Item[];
  readonly zones?: readonly string[];
  readonly borders?: readonly string[];
}

/**
 * Expands a selection into targets. Zones default to the explicit zones, else the endpoints of the
 * explicit borders, else every zone. Borders default to the explicit borders, else every border
 * touching a selected zone, else every border.
 */
export function targetsFor(sel: TargetSelection): Target[] {
  const borderKeys = DATA_CATALOGUE.borders.map((b) => b.key);
  const zones = sel.zones?.length
    ? [...sel.zones]
    : sel.borders?.length
      ? [...new Set(sel.borders.flatMap((k) => k.split('->')))]
      : DATA_CATALOGUE.zones.map((z) => z.code);
  const selected = new Set(zones);
  const borders = sel.borders?.length
    ? [...sel.borders]
    : sel.zones?.length
      ? DATA_CATALOGUE.borders.filter((b) => selected.has(b.a) || selected.has(b.b)).map((b) => b.key)
      : borderKeys;
  return ITEMS.filter((item) => sel.what.includes(item)).flatMap((item) =>
    (ZONE_ITEMS.has(item) ? zones : borders).map((areaKey) => ({ item, areaKey })),
  );
}

/** The part of a done window that later runs may skip, or null. */
export function coverageOf(done: DoneWindow): Interval | null {
  const end = Math.min(done.end.getTime(), done.finishedAt.getTime() - SETTLE_MARGIN_MS[done.item]);
  const start = done.start.getTime();
  return end > start ? { start, end } : null;
}

/** `range` minus the union of `covered`, as sorted disjoint intervals. */
export function subtract(range: Interval, covered: readonly Interval[]): Interval[] {
  const sorted = [...covered].sort((x, y) => x.start - y.start);
  const out: Interval[] = [];
  let at = range.start;
  for (const c of sorted) {
    if (c.end <= at) continue;
    if (c.start >= range.end) break;
    if (c.start > at) out.push({ start: at, end: c.start });
    at = Math.max(at, c.end);
    if (at >= range.end) break;
  }
  if (at < range.end) out.push({ start: at, end: range.end });
  return out;
}

/** Widens an interval to whole UTC hours (the platform takes minutes, but data comes by the hour). */
export function alignToHours(iv: Interval): Interval {
  return { start: Math.floor(iv.start / HOUR) * HOUR, end: Math.ceil(iv.end / HOUR) * HOUR };
}

/**
 * Splits an interval at the starts of UTC calendar years: the platform serves at most one year per
 * request for every item ingested here, and a fixed grid keeps windows stable across runs.
 */
export function splitOnYears(iv: Interval): Interval[] {
  const out: Interval[] = [];
  let start = iv.start;
  while (start < iv.end) {
    const next = Math.min(Date.UTC(new Date(start).getUTCFullYear() + 1, 0, 1), iv.end);
    out.push({ start, end: next });
    start = next;
  }
  return out;
}

function mergeTouching(ivs: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const iv of [...ivs].sort((x, y) => x.start - y.start)) {
    const last = out[out.length - 1];
    if (last && iv.start <= last.end) out[out.length - 1] = { start: last.start, end: Math.max(last.end, iv.end) };
    else out.push(iv);
  }
  return out;
}

/** The period in which a target's zone or border exists (catalogue history); null when never. */
function targetPeriod(t: Target): Period | null {
  if (ZONE_ITEMS.has(t.item)) return zonePeriod(t.areaKey);
  const [a = '', b = ''] = t.areaKey.split('->');
  return borderPeriod(a, b);
}

/**
 * Plans the windows still to fetch for each target over [from, to): the range clipped to the
 * period in which the target's zone or border exists (DE_AT_LU up to 2018-09-30T22:00Z, DE_LU and
 * AT from then), minus what done windows cover, widened to whole hours, split on UTC years.
 * Ordered by target, then time.
 */
export function planWindows(
  targets: readonly Target[],
  range: { from: Date; to: Date },
  done: readonly DoneWindow[],
): PlannedWindow[] {
  const whole = { from: range.from.getTime(), to: range.to.getTime() };
  const coverage = new Map<string, Interval[]>();
  for (const d of done) {
    const c = coverageOf(d);
    const key = `${d.item}|${d.areaKey}`;
    if (c) coverage.set(key, [...(coverage.get(key) ?? []), c]);
  }
  return targets.flatMap((t) => {
    const period = targetPeriod(t);
    const valid = period && intersect(whole, period);
    if (!valid) return [];
    const missing = subtract({ start: valid.from, end: valid.to }, coverage.get(`${t.item}|${t.areaKey}`) ?? []);
    return mergeTouching(missing.map(alignToHours))
      .flatMap(splitOnYears)
      .map((iv) => ({ ...t, start: new Date(iv.start), end: new Date(iv.end) }));
  });
}

/** A short label of a window for progress lines, e.g. `prices ES 2025-09-29..2025-10-03`. */
export function windowLabel(w: PlannedWindow): string {
  const day = (d: Date) =>
    d.getTime() % DAY_MS === 0 ? d.toISOString().slice(0, 10) : d.toISOString().slice(0, 16) + 'Z';
  return `${w.item} ${w.areaKey} ${day(w.start)}..${day(w.end)}`;
}
