import { InputError } from '../errors.js';
import { DAY_MS as DAY } from './calendar.js';
import type { TimeRange } from './time.js';

/** Requested resolution (REST spelling). */
export const REQUESTED_RESOLUTIONS = ['auto', 'native', '1H', '1D', '1W'] as const;
export type RequestedResolution = (typeof REQUESTED_RESOLUTIONS)[number];
/** Applied resolution, as reported in meta.resolution. */
export type Resolution = Exclude<RequestedResolution, 'auto'>;

/** Widest range accepted for an explicit resolution (docs/contract.md#resolution); undefined = no cap. */
export const RESOLUTION_CAP_MS: Partial<Record<Resolution, number>> = { native: 2 * DAY, '1H': 14 * DAY };

/** The `auto` table (docs/contract.md#resolution): width <= 2 d native, <= 14 d 1H, <= 90 d 1D, else 1W. */
export function autoResolution(widthMs: number): Resolution {
  if (widthMs <= 2 * DAY) return 'native';
  if (widthMs <= 14 * DAY) return '1H';
  if (widthMs <= 90 * DAY) return '1D';
  return '1W';
}

/**
 * Applies the resolution rules: `auto` picks by width; explicit `native` (> 48 h) and `1H`
 * (> 14 days) beyond their caps are a 422 on `resolution`, unless `anyRange` (exports and
 * GraphQL connections, whose answers are streamed or paged) lifts the caps.
 */
export function applyResolution(requested: RequestedResolution, range: TimeRange, anyRange = false): Resolution {
  const width = range.to.getTime() - range.from.getTime();
  if (requested === 'auto') return autoResolution(width);
  const cap = anyRange ? undefined : RESOLUTION_CAP_MS[requested];
  if (cap !== undefined && width > cap) {
    const days = cap / DAY;
    const shown = (width / DAY).toFixed(2);
    const actual = Number(shown) > days ? `${shown} days` : `longer than ${days} days`;
    throw InputError.of(
      'resolution',
      `resolution=${requested} allows a range of at most ${days} days; this range is ${actual} (use a coarser resolution, auto, or a shorter range)`,
      'value_error',
      requested,
    );
  }
  return requested;
}

/** Daily endpoints never bucket finer than 1D: native and 1H become 1D. */
export function atLeastDaily(resolution: Resolution): Resolution {
  return resolution === 'native' || resolution === '1H' ? '1D' : resolution;
}
