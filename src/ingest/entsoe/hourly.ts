import type { Sample } from './series.js';
import { HOUR_MS } from './time.js';
import type { HourlyPoint } from './types.js';

/**
 * Turns samples (sorted, non-overlapping, any resolution) into hourly means keyed by the UTC hour
 * start.
 *
 * The value of an hour is the time-weighted mean of the samples covering it: for PT15M the plain
 * mean of its four quarter-hours, for PT30M of its two halves, for PT60M the value itself, and a
 * P1D sample gives its value to every hour of its day. An hour is emitted only when samples cover
 * all of it (after gap filling); a partly covered hour is left out rather than represented by a
 * fraction of itself. `interpolated` is true when any part of the hour was interpolated.
 */
export function toHourly(samples: readonly Sample[]): HourlyPoint[] {
  const out: HourlyPoint[] = [];
  let hour = Number.NaN;
  let weighted = 0;
  let covered = 0;
  let interpolated = false;
  const flush = (): void => {
    if (covered === HOUR_MS) out.push({ ts: new Date(hour), mw: weighted / HOUR_MS, interpolated });
  };
  for (const s of samples) {
    for (let h = Math.floor(s.start / HOUR_MS) * HOUR_MS; h < s.end; h += HOUR_MS) {
      if (h !== hour) {
        flush();
        hour = h;
        weighted = 0;
        covered = 0;
        interpolated = false;
      }
      const overlap = Math.min(s.end, h + HOUR_MS) - Math.max(s.start, h);
      weighted += s.value * overlap;
      covered += overlap;
      interpolated ||= s.interpolated;
    }
  }
  flush();
  return out;
}
