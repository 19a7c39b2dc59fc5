import { DAY_MS, HOUR_MS, MINUTE_MS, isEuSummerTime } from '../../domain/calendar.js';
import { EntsoeFormatError } from './errors.js';

export { DAY_MS, HOUR_MS, MINUTE_MS, isEuSummerTime };

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?Z$/;

/**
 * Parses an ENTSO-E instant such as `2024-10-07T22:00Z` (seconds optional, always UTC) into
 * epoch milliseconds.
 * @throws EntsoeFormatError for any other spelling or an impossible date.
 */
export function parseInstant(text: string, what: string): number {
  const m = INSTANT.exec(text.trim());
  if (!m) throw new EntsoeFormatError(`${what}: expected a UTC instant like 2024-10-07T22:00Z, got "${text}"`);
  const [, y, mo, d, h, mi, s = '00'] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const check = new Date(ms);
  if (check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59) {
    throw new EntsoeFormatError(`${what}: impossible instant "${text}"`);
  }
  return ms;
}

/** Parses the `date` + `time` pair of outage documents (`2020-10-15` + `05:30:00Z`) into epoch milliseconds (UTC). */
export function parseDateAndTime(date: string, time: string, what: string): number {
  const t = time.trim().replace(/Z$/, '');
  return parseInstant(`${date.trim()}T${t}Z`, what);
}

/**
 * Adds `days` calendar days in European market time: the result has the same local wall-clock
 * time, so a day that contains a DST change lasts 23 or 25 hours. All EU time zones switch at the
 * same UTC instant (01:00Z), so this holds for CET, WET and EET alike.
 */
export function addEuCalendarDays(ms: number, days: number): number {
  const wall = ms + (isEuSummerTime(ms) ? HOUR_MS : 0) + days * DAY_MS;
  const summer = wall - HOUR_MS;
  return isEuSummerTime(summer) ? summer : wall;
}

/** How a resolution advances: a fixed number of minutes, or whole calendar days in market time. */
export type ResolutionStep =
  | { readonly kind: 'fixed'; readonly ms: number }
  | { readonly kind: 'days'; readonly days: number };

/**
 * The ISO 8601 durations used as ENTSO-E resolutions. `P1D` is one calendar day of market time
 * (23 or 25 hours across a DST change), `P7D` seven of them.
 */
const RESOLUTIONS: Readonly<Record<string, ResolutionStep>> = {
  PT15M: { kind: 'fixed', ms: 15 * MINUTE_MS },
  PT30M: { kind: 'fixed', ms: 30 * MINUTE_MS },
  PT60M: { kind: 'fixed', ms: HOUR_MS },
  P1D: { kind: 'days', days: 1 },
  P7D: { kind: 'days', days: 7 },
};

/** Maps an ENTSO-E resolution (`PT15M`, `PT30M`, `PT60M`, `P1D`, `P7D`) to its {@link ResolutionStep}. */
export function parseResolution(text: string): ResolutionStep {
  const step = RESOLUTIONS[text.trim()];
  if (!step)
    throw new EntsoeFormatError(`unsupported resolution "${text}" (known: ${Object.keys(RESOLUTIONS).join(', ')})`);
  return step;
}

/**
 * Boundaries of the slots of a Period: `result[i]` is the start of position `i + 1` and the last
 * element is the period end, so there are `result.length - 1` positions.
 * @throws EntsoeFormatError when the period is not a whole number of steps.
 */
export function slotBoundaries(start: number, end: number, step: ResolutionStep): number[] {
  if (end <= start) throw new EntsoeFormatError(`empty or reversed period ${iso(start)} -> ${iso(end)}`);
  const out: number[] = [];
  if (step.kind === 'fixed') {
    const n = (end - start) / step.ms;
    if (!Number.isInteger(n)) {
      throw new EntsoeFormatError(
        `period ${iso(start)} -> ${iso(end)} is not a whole number of ${step.ms / MINUTE_MS}-minute steps`,
      );
    }
    for (let i = 0; i <= n; i++) out.push(start + i * step.ms);
    return out;
  }
  let t = start;
  out.push(t);
  while (t < end) {
    t = addEuCalendarDays(t, step.days);
    out.push(t);
  }
  if (t !== end)
    throw new EntsoeFormatError(`period ${iso(start)} -> ${iso(end)} is not a whole number of market days`);
  return out;
}

/** ISO text of an epoch-millisecond instant, for messages. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
