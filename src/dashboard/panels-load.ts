/**
 * Loading the panels: each panel group (prices, zones, flows, map) on its own, or every panel from
 * one request when the API serves the view whole. Each load is tracked; an answer is drawn only if
 * no later load of its panel started meanwhile.
 */
import { type BorderOption, readSelection } from './controls.js';
import {
  fetchBorderAnalytics,
  fetchFlows,
  fetchMapHour,
  fetchPrices,
  fetchView,
  fetchZoneAnalytics,
  fitsOneRequest,
} from './fetch.js';
import type { EuropeMap } from './map.js';
import type { PanelViews } from './panel-views.js';
import type { MapPlayback } from './playback.js';
import type { RangeGuard } from './range-notice.js';
import type { ScopeReader } from './scope.js';
import type { LoadTracker } from './status.js';

/** A group of panels that loads together. */
export type Panel = 'prices' | 'zones' | 'flows' | 'map';
/** Every panel group, in load order. */
export const PANELS: readonly Panel[] = ['prices', 'zones', 'flows', 'map'];

/** Loads the panels. */
export interface PanelLoader {
  /** Loads one panel group. */
  readonly load: Readonly<Record<Panel, () => Promise<void>>>;
  /** Checks the range, then loads every panel: from one request when the API serves the view whole, else panel by panel. */
  loadAll(): Promise<void>;
}

/** The page's context of the loads. */
export interface LoadContext {
  readonly form: HTMLFormElement;
  readonly tracker: LoadTracker;
  readonly scope: ScopeReader;
  readonly views: PanelViews;
  readonly playback: MapPlayback;
  readonly guard: RangeGuard;
  /** The selected border (undefined before the catalogue loaded). */
  readonly border: () => BorderOption | undefined;
  /** The map once drawn. */
  readonly map: () => EuropeMap | null;
}

/** The loads of the page's panels. */
export function createPanelLoader(ctx: LoadContext): PanelLoader {
  const { form, tracker, scope, views, playback } = ctx;
  const seq: Record<Panel, number> = { prices: 0, zones: 0, flows: 0, map: 0 };
  const prices = () =>
    tracker.track(async () => {
      const id = ++seq.prices;
      const view = scope.current();
      if (!view) return;
      const { zones, resolution } = readSelection(form);
      const [rows, next] = await Promise.all([
        fetchPrices(zones, view, resolution),
        fetchPrices(zones, scope.tomorrow(), 'NATIVE'),
      ]);
      if (id === seq.prices) views.prices(view, rows, next);
    });
  const zones = () =>
    tracker.track(async () => {
      const id = ++seq.zones;
      const view = scope.current();
      if (!view) return;
      const data = await fetchZoneAnalytics(readSelection(form).zones, view);
      if (id === seq.zones) views.zones(data);
    });
  const flows = () =>
    tracker.track(async () => {
      const id = ++seq.flows;
      const view = scope.current();
      const border = ctx.border();
      if (!view || !border) return;
      const [loaded, analytics] = await Promise.all([
        fetchFlows(border.key, view),
        fetchBorderAnalytics(border.key, view),
      ]);
      if (id === seq.flows) views.flows(view, border, loaded, analytics);
    });
  const map = () =>
    tracker.track(async () => {
      const id = ++seq.map;
      const view = scope.current();
      if (!view || !ctx.map()) return;
      const at = playback.place(view);
      const hour = await fetchMapHour(at.hourMs, at.label);
      if (id === seq.map) views.map(hour, at.hourMs);
    });
  const loadAll = (): Promise<void> => {
    if (ctx.guard.check()) return Promise.resolve();
    const view = scope.current();
    const border = ctx.border();
    const { zones: codes, resolution } = readSelection(form);
    if (!view || !border || !ctx.map() || !codes.length || !fitsOneRequest(view, resolution)) {
      return Promise.all([prices(), zones(), flows(), map()]).then(() => undefined);
    }
    return tracker.track(async () => {
      const ids = { prices: ++seq.prices, zones: ++seq.zones, flows: ++seq.flows, map: ++seq.map };
      const at = playback.place(view);
      const all = await fetchView({
        zones: codes,
        border: border.key,
        scope: view,
        resolution,
        tomorrow: scope.tomorrow(),
        hourMs: at.hourMs,
        hourLabel: at.label,
      });
      if (ids.prices === seq.prices) views.prices(view, all.prices, all.tomorrow);
      if (ids.zones === seq.zones) views.zones(all.zones);
      if (ids.flows === seq.flows) views.flows(view, border, all.flows, all.border);
      if (ids.map === seq.map) views.map(all.map, at.hourMs);
    });
  };
  return { load: { prices, zones, flows, map }, loadAll };
}
