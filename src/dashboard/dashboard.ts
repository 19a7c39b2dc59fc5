/**
 * The dashboard: builds the pickers and the map from the catalogue and the URL, loads every panel,
 * and reloads panels (and the URL) when the selection changes. The parts are composed here.
 */
import { request } from './api.js';
import { type Catalogue, catalogueOf, mapPicks, selectedBorder } from './catalogue.js';
import { addChartExports } from './chart-exports.js';
import { createServerClock, type ServerClock } from './clock.js';
import { applyState, readSelection, renderBorderPicker, renderZonePicker } from './controls.js';
import { drawMap, type EuropeMap } from './map.js';
import { byId, mountCharts } from './page.js';
import { createPanelViews } from './panel-views.js';
import { createPanelLoader } from './panels-load.js';
import { createPlayback, hourParam, type MapPlayback } from './playback.js';
import { createRangeGuard } from './range-notice.js';
import { createReloader } from './reload.js';
import { createScopeReader } from './scope.js';
import { StartQuery } from './queries.js';
import { readState, writeState } from './state.js';
import { createLoadTracker } from './status.js';
import { browserZone } from './time.js';

/** The running dashboard. */
export interface Dashboard {
  /** Re-reads the server clock and reloads every panel (the hook for live updates). */
  refresh(): Promise<void>;
}

/** Performance mark set once every panel of the first view shows its data (ms since navigation start in `startTime`). */
export const FIRST_RENDER_MARK = 'dashboard:first-render';

/** What the page learns from its first request; empty until then. */
interface Loaded {
  catalogue: Catalogue;
  map: EuropeMap | null;
}

/** Loads the catalogue and the server clock, applies the URL's state to the pickers and draws the map. */
async function begin(doc: Document, form: HTMLFormElement, loaded: Loaded, clock: ServerClock, playback: MapPlayback) {
  const start = await request(StartQuery, {});
  const catalogue = catalogueOf(start);
  loaded.catalogue = catalogue;
  clock.set(start.clock);
  const state = readState(doc.defaultView?.location.search ?? '', {
    zones: new Set(catalogue.zones.map((z) => z.code)),
    borders: new Set(catalogue.borders.map((b) => b.key)),
  });
  playback.setHour(state.hour ? Date.parse(state.hour) : null);
  applyState(form, state);
  renderZonePicker(byId('zone-list'), catalogue.zones, new Set(state.zones));
  const select = byId<HTMLSelectElement>('border-select');
  renderBorderPicker(select, catalogue.borders, state.border);
  const keys = catalogue.borders.map((b) => b.key);
  loaded.map = drawMap(byId('map'), catalogue.zones, keys, mapPicks(form, select));
}

/** Builds the page's parts and wires them, loads the first view and marks FIRST_RENDER_MARK. */
export async function startDashboard(doc: Document): Promise<Dashboard> {
  const form = byId<HTMLFormElement>('controls');
  const status = byId('status');
  const charts = mountCharts();
  const loaded: Loaded = { catalogue: { zones: [], borders: [] }, map: null };
  const clock = createServerClock(byId('sources'));
  byId('tz-local').textContent = `Local (${browserZone()})`;
  const tracker = createLoadTracker(doc, status, clock.now);
  const scope = createScopeReader(form, byId('range-error'), clock.now);
  const border = () => selectedBorder(form, loaded.catalogue.borders);
  const map = () => loaded.map;
  const views = createPanelViews({ doc, form, charts, scope, map });
  const slider = byId<HTMLInputElement>('map-hour');
  const controls = { form, slider, play: byId<HTMLButtonElement>('map-play'), label: byId('map-label') };
  const playback = createPlayback(controls, scope, clock.now, () => reloader.later('map'));
  addChartExports(charts, form, scope, views.shownScatter);
  const zones = () => loaded.catalogue.zones;
  const notice = byId('range-notice');
  const guard = createRangeGuard({ doc, form, notice, scope, tracker, clear: views.clear, zones, border });
  const loader = createPanelLoader({ form, tracker, scope, views, playback, guard, border, map });
  const syncUrl = () =>
    history.replaceState(null, '', writeState({ ...readSelection(form), hour: hourParam(playback.hour()) }));
  const reloader = createReloader({ doc, form, load: loader.load, guard, syncUrl, markSelection: views.markSelection });
  await tracker.track(async () => {
    await begin(doc, form, loaded, clock, playback);
    await loader.loadAll();
    syncUrl();
    performance.mark(FIRST_RENDER_MARK);
  });
  const refresh = () =>
    tracker.track(async () => {
      await clock.read();
      await loader.loadAll();
    });
  return { refresh };
}
