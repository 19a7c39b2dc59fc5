import type { Sample } from './series.js';
import { MINUTE_MS } from './time.js';
import { DEFAULT_MAX_GAP_MINUTES, type GapOptions } from './types.js';

/**
 * Sorts samples by start and removes overlaps: when two samples overlap, the one that starts
 * first is kept, and for equal starts the one given first (earlier TimeSeries / Period of the
 * document). Overlaps do not occur in well-formed replies once series have been selected.
 */
export function mergeSamples(samples: readonly Sample[]): Sample[] {
  const sorted = samples.map((s, i) => ({ s, i })).sort((a, b) => a.s.start - b.s.start || a.i - b.i);
  const out: Sample[] = [];
  let lastEnd = -Infinity;
  for (const { s } of sorted) {
    if (s.start < lastEnd) continue;
    out.push(s);
    lastEnd = s.end;
  }
  return out;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** The gap limit in milliseconds from the options (default 3 hours; negative values mean 0). */
export function maxGapMs(options?: GapOptions): number {
  return Math.max(0, options?.maxGapMinutes ?? DEFAULT_MAX_GAP_MINUTES) * MINUTE_MS;
}

/**
 * Fills real gaps between consecutive samples (sorted, non-overlapping) by linear interpolation.
 *
 * A gap is the time between the end of a sample and the start of the next one: missing A01
 * positions, or the hole between split TimeSeries or Periods. A gap no longer than `maxGap`
 * milliseconds is filled with samples on a grid of the neighbours' resolution (the finer one, or a
 * common divisor that fits the gap), flagged `interpolated`. Each filled value lies on the straight
 * line through the two neighbours taken at their start instants:
 * `v(t) = a + (b - a) * (t - a.start) / (b.start - a.start)`.
 * Longer gaps are left empty; nothing is extrapolated before the first or after the last sample.
 */
export function fillGaps(samples: readonly Sample[], maxGap: number): Sample[] {
  if (maxGap <= 0 || samples.length < 2) return [...samples];
  const out: Sample[] = [];
  for (let i = 0; i < samples.length; i++) {
    const a = samples[i]!;
    out.push(a);
    const b = samples[i + 1];
    if (!b) break;
    const gap = b.start - a.end;
    if (gap <= 0 || gap > maxGap) continue;
    const grid = gcd(gap, Math.min(a.end - a.start, b.end - b.start));
    const span = b.start - a.start;
    for (let t = a.end; t < b.start; t += grid) {
      out.push({
        start: t,
        end: t + grid,
        value: a.value + ((b.value - a.value) * (t - a.start)) / span,
        interpolated: true,
      });
    }
  }
  return out;
}
