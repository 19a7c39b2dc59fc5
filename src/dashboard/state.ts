/**
 * The view's state in the page URL: every selection is a query parameter, so a view can be
 * bookmarked and shared. `readState` ignores what it does not know and falls back to the defaults.
 */
import type { RangeChoice } from './data.js';
import type { ViewTz } from './time.js';

export type { ViewTz };

/** Price resolutions the dashboard offers: the native (15- or 60-minute) prices, hourly or daily means. */
export const RESOLUTIONS = ['NATIVE', 'HOURLY', 'DAILY'] as const;
export type DashboardResolution = (typeof RESOLUTIONS)[number];

/** Everything the URL holds. */
export interface ViewState {
  readonly zones: readonly string[];
  readonly border: string;
  readonly range: RangeChoice;
  readonly resolution: DashboardResolution;
  readonly tz: ViewTz;
  /** The map's hour, ISO 8601 UTC, or null for the latest hour of the range. */
  readonly hour: string | null;
}

/** What the page shows when the URL says nothing. */
export const DEFAULT_STATE: ViewState = {
  zones: ['DE_LU', 'FR', 'NL', 'ES', 'PL'],
  border: 'DE_LU->FR',
  range: { kind: 'days', days: 7 },
  resolution: 'HOURLY',
  tz: 'market',
  hour: null,
};

/** The zone codes and border keys the catalogue knows. */
export interface Known {
  readonly zones: ReadonlySet<string>;
  readonly borders: ReadonlySet<string>;
}

const PRESETS = new Set([1, 7, 30]);
const TZS = new Set<string>(['UTC', 'market', 'local']);
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const HOUR = /^\d{4}-\d{2}-\d{2}T\d{2}:00:00Z$/;

function readRange(p: URLSearchParams): RangeChoice {
  const range = p.get('range');
  const from = p.get('from') ?? '';
  const to = p.get('to') ?? '';
  if (range === 'custom' && DAY.test(from) && DAY.test(to)) return { kind: 'custom', from, to };
  const days = Number(range);
  return PRESETS.has(days) ? { kind: 'days', days } : DEFAULT_STATE.range;
}

/** The state of a query string (`?zones=DE_LU,FR&border=DE_LU->FR&range=7&res=HOURLY&tz=UTC&t=…`). */
export function readState(search: string, known: Known): ViewState {
  const p = new URLSearchParams(search);
  const zones = p.has('zones')
    ? [...new Set((p.get('zones') ?? '').split(',').filter((z) => known.zones.has(z)))]
    : DEFAULT_STATE.zones.filter((z) => known.zones.has(z));
  const border = p.get('border') ?? '';
  const res = p.get('res') as DashboardResolution | null;
  const hour = p.get('t');
  return {
    zones,
    border: known.borders.has(border) ? border : DEFAULT_STATE.border,
    range: readRange(p),
    resolution: res && RESOLUTIONS.includes(res) ? res : DEFAULT_STATE.resolution,
    tz: TZS.has(p.get('tz') ?? '') ? (p.get('tz') as ViewTz) : DEFAULT_STATE.tz,
    hour: hour && HOUR.test(hour) && !Number.isNaN(Date.parse(hour)) ? hour : null,
  };
}

/** The query string of a state (with the leading `?`). */
export function writeState(state: ViewState): string {
  const p = new URLSearchParams();
  p.set('zones', state.zones.join(','));
  p.set('border', state.border);
  if (state.range.kind === 'days') p.set('range', String(state.range.days));
  else {
    p.set('range', 'custom');
    p.set('from', state.range.from);
    p.set('to', state.range.to);
  }
  p.set('res', state.resolution);
  p.set('tz', state.tz);
  if (state.hour) p.set('t', state.hour);
  return `?${p.toString()}`;
}
