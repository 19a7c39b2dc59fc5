/**
 * Demo border outages: at least one in every ISO week of the range (so every week has outage hours),
 * about six a month in all, lasting 2-30 hours, some starting on the half hour.
 */
import { DAY_MS, HOUR_MS, isoWeekStart } from './calendar.js';
import type { BorderProfile } from './profiles.js';
import { Rng } from './rng.js';

/** One generated outage of a demo border, [startsAt, endsAt) epoch ms UTC. */
export interface DemoOutage {
  /** Index into the demo border list. */
  readonly border: number;
  readonly startsAt: number;
  readonly endsAt: number;
  readonly planned: boolean;
  readonly reason: string;
  readonly mrid: string;
}

function oneOutage(
  rng: Rng,
  borders: readonly BorderProfile[],
  from: number,
  to: number,
  latestStart: number,
): DemoOutage {
  const border = rng.int(0, borders.length - 1);
  const spanHours = Math.floor((to - from) / HOUR_MS);
  const hours = Math.min(rng.int(2, 30), Math.max(1, Math.floor(spanHours / 2)));
  const lastStartHour = Math.max(0, Math.min(Math.floor((latestStart - from) / HOUR_MS), spanHours - hours - 1));
  const halfHour = rng.chance(0.3) ? HOUR_MS / 2 : 0;
  const startsAt = from + rng.int(0, lastStartHour) * HOUR_MS + halfHour;
  const planned = rng.chance(0.7);
  const b = borders[border] as BorderProfile;
  return {
    border,
    startsAt,
    endsAt: startsAt + hours * HOUR_MS,
    planned,
    reason: planned ? 'Planned maintenance (demo)' : 'Forced outage (demo)',
    mrid: `DEMO-${b.a}-${b.b}-${new Date(startsAt).toISOString().slice(0, 16)}`,
  };
}

/** Outages over [start, end): one early in every ISO week, a second one in most weeks. */
export function demoOutages(borders: readonly BorderProfile[], start: number, end: number, seed: number): DemoOutage[] {
  const rng = new Rng(seed, 'outages');
  const out: DemoOutage[] = [];
  for (let week = isoWeekStart(start); week < end; week += 7 * DAY_MS) {
    const from = Math.max(week, start);
    const to = Math.min(week + 7 * DAY_MS, end);
    out.push(oneOutage(rng, borders, from, to, from + 2 * DAY_MS));
    if (rng.chance(0.6)) out.push(oneOutage(rng, borders, from, to, to));
  }
  const seen = new Set<string>();
  return out.filter((o) => {
    const key = `${o.border}:${o.startsAt}:${o.endsAt}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Per border, one flag per hour from `start`: 1 where an outage overlaps the hour. */
export function outageHours(
  outages: readonly DemoOutage[],
  borderCount: number,
  start: number,
  hours: number,
): Uint8Array[] {
  const flags = Array.from({ length: borderCount }, () => new Uint8Array(hours));
  for (const o of outages) {
    const first = Math.max(0, Math.floor((o.startsAt - start) / HOUR_MS));
    const last = Math.min(hours - 1, Math.ceil((o.endsAt - start) / HOUR_MS) - 1);
    for (let k = first; k <= last; k++) (flags[o.border] as Uint8Array)[k] = 1;
  }
  return flags;
}
