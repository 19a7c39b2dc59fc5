/**
 * What each chart's export buttons download: the API's data of exactly the selection on screen
 * (`/api/v1/export/*` in every format, a few REST endpoints as CSV) or, for the scatter, the bins on
 * screen as CSV built in the page.
 */
import { readSelection } from './controls.js';
import { addExports, type DataFormat, type DataSource } from './export.js';
import { bounds, type Scope } from './fetch.js';
import { CHART_IDS, type ChartId, type Charts } from './page.js';
import type { ShownScatter } from './panel-views.js';
import type { ScopeReader } from './scope.js';

const REST_RES = { NATIVE: 'native', HOURLY: '1H', DAILY: '1D' } as const;
const ALL: readonly DataFormat[] = ['csv', 'arrow', 'parquet'];

/** Query parameters of a chart beside the range, a list repeating its name. */
export type ExtraParams = Record<string, string | string[]>;

/** The URL of `/api/v1/<path>` for `scope` in `format`, with the chart's own parameters. */
export function restUrl(path: string, extra: ExtraParams, scope: Scope, format: DataFormat): string {
  const b = bounds(scope.range, scope.tz);
  const p = new URLSearchParams({ datetime_from: b.from, datetime_to: b.to, format });
  if (b.timeZone) p.set('tz', b.timeZone);
  for (const [k, v] of Object.entries(extra)) for (const x of [v].flat()) p.append(k, x);
  return `/api/v1/${path}?${p.toString()}`;
}

/** The scatter's bins as CSV (the columns of the API's scatter rows), null while none is shown. */
export function scatterCsv(shown: ShownScatter | null): string | null {
  if (!shown) return null;
  const { a, b, bins } = shown;
  const lines = bins.map(([mw, delta, count]) => `${a},${b},${mw},${delta},${count}`);
  return ['bidding_zone_from,bidding_zone_to,net_flow_mw,price_delta,count', ...lines, ''].join('\n');
}

/** Adds the export buttons to every chart; the selection is read at each click. */
export function addChartExports(
  charts: Charts,
  form: HTMLFormElement,
  scope: ScopeReader,
  scatter: () => ShownScatter | null,
): void {
  /** The URL for the range on screen (or `fixed`), null while the range is invalid. */
  const rest = (path: string, extra: ExtraParams, fixed?: Scope) => (format: DataFormat) => {
    const view = fixed ?? scope.current();
    return view ? restUrl(path, extra, view, format) : null;
  };
  const sel = () => readSelection(form);
  /** Through `/api/v1/export/*`: any range, every format. */
  const exported = (path: string, extra: () => ExtraParams, fixed?: () => Scope): DataSource => ({
    formats: ALL,
    url: (format) => rest(`export/${path}`, extra(), fixed?.())(format),
  });
  const csvOnly = (path: string, extra: () => ExtraParams): DataSource => ({
    formats: ['csv'],
    url: (format) => rest(path, extra())(format),
  });
  const exports: Record<ChartId, [string, DataSource]> = {
    prices: [
      'the price chart',
      exported('prices', () => ({ zone: sel().zones, resolution: REST_RES[sel().resolution] })),
    ],
    heatmap: ['the hour-of-day heatmap', exported('prices', () => ({ zone: sel().zones, resolution: '1H' }))],
    tomorrow: [
      "tomorrow's prices",
      exported('prices', () => ({ zone: sel().zones, resolution: 'native' }), scope.tomorrow),
    ],
    flows: ['the border flows', exported('flows', () => ({ border: sel().border, resolution: '1H' }))],
    shares: [
      'the daily flow-type shares',
      exported('flow-type-summary', () => ({ border: sel().border, resolution: '1D' })),
    ],
    duration: ['the flow duration curve', csvOnly('flow-duration', () => ({ border: sel().border, points: '101' }))],
    scatter: ['the flow/price scatter', { formats: ['csv'], csv: () => scatterCsv(scatter()) }],
    ci: ['the counter-intuitive share', exported('ci-share', () => ({ zone: sel().zones, resolution: '1D' }))],
    trade: ['the imports and exports', csvOnly('zone-import-export', () => ({ zone: sel().zones }))],
  };
  for (const id of CHART_IDS) addExports(charts[id], exports[id][0], exports[id][1]);
}
