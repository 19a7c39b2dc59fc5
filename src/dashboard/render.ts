import type { EChartsType } from 'echarts/core';
import { FLOW_BASED_NOTE, isFlowBased } from './flow-based.js';
import {
  flowsOption,
  FLOW_LABELS,
  heatmapOption,
  priceLinesOption,
  type ShareRow,
  sharesOption,
  tomorrowOption,
} from './charts.js';
import type { BorderOption } from './controls.js';
import { DAY_MS, type DenseFlows, FLOW_TYPE_NAMES, isoDay, type Range } from './data.js';

const fmt = (v: number): string => v.toFixed(2);
const span = (r: Range): string => `${isoDay(r.from)} to ${isoDay(r.to - DAY_MS)}`;
const pointCount = (series: Iterable<readonly unknown[]>): number => [...series].reduce((n, s) => n + s.length, 0);

function describe(chart: EChartsType, label: string, data: Record<string, string | number>): void {
  const dom = chart.getDom();
  dom.setAttribute('aria-label', label);
  for (const [key, value] of Object.entries(data)) dom.dataset[key] = String(value);
}

function text(id: string, value: string): void {
  const node = document.getElementById(id);
  if (node) node.textContent = value;
}

/** What the price panels show. */
export interface PricesView {
  readonly zones: readonly string[];
  readonly range: Range;
  readonly series: Map<string, [number, number][]>;
  readonly cells: [number, number, number][];
  /** What the points are: `hourly`, `daily` or `native` prices. */
  readonly kind: string;
  /** The view's time zone name (UTC or the browser's IANA zone). */
  readonly tzName: string;
}

/** Price lines, the statistics table and the hour-of-day heatmap. */
export function renderPrices(lines: EChartsType, heatmap: EChartsType, view: PricesView): void {
  const points = pointCount(view.series.values());
  const zones = view.zones.join(', ') || 'no zone';
  const empty = [...view.series].filter(([, p]) => p.length === 0).map(([z]) => z);
  const note = empty.length ? ` No prices stored for ${empty.join(', ')} in this range.` : '';
  const summary = view.zones.length
    ? `${zones}: ${points} ${view.kind} prices, ${span(view.range)} (${view.tzName}).${note}`
    : 'Pick at least one bidding zone.';
  text('price-summary', summary);
  lines.setOption(priceLinesOption(view.series), { notMerge: true });
  describe(lines, `Line chart of ${view.kind} day-ahead prices, EUR/MWh. ${summary}`, {
    points,
    zones: view.zones.join(','),
  });
  heatmap.getDom().style.height = `${Math.max(160, 90 + 26 * view.zones.length)}px`;
  heatmap.resize();
  heatmap.setOption(heatmapOption(view.cells, view.zones, view.tzName), { notMerge: true });
  describe(
    heatmap,
    `Heatmap of the mean price per zone and ${view.tzName} hour of day over ${span(view.range)}: ${view.cells.length} cells.`,
    { cells: view.cells.length },
  );
}

/** What the tomorrow panel shows. */
export interface TomorrowView {
  readonly zones: readonly string[];
  /** The delivery day, wall-clock ms of market time (CET/CEST). */
  readonly day: Range;
  /** Points [wall-clock ms of the view's zone, EUR/MWh] per zone. */
  readonly series: Map<string, [number, number][]>;
  /** The view's time zone name, in which the axis reads. */
  readonly tzName: string;
}

/** Tomorrow's delivery day (a CET/CEST day) drawn in the view's zone, or a note that its prices are not published yet. */
export function renderTomorrow(chart: EChartsType, view: TomorrowView): void {
  const day = isoDay(view.day.from);
  const points = pointCount(view.series.values());
  text('tomorrow-title', `Tomorrow: delivery day ${day} (CET/CEST), times in ${view.tzName}`);
  const published = [...view.series].filter(([, p]) => p.length > 0);
  const summary =
    points === 0
      ? `Prices for ${day} are not published yet (the day-ahead auction publishes them around 12:45 CET the day before).`
      : `Published for ${published.map(([zone, p]) => `${zone} (mean ${fmt(p.reduce((a, x) => a + x[1], 0) / p.length)} EUR/MWh)`).join(', ')}.`;
  text('tomorrow-summary', summary);
  chart.getDom().hidden = points === 0;
  chart.setOption(tomorrowOption(view.series), { notMerge: true });
  chart.resize();
  describe(chart, `Step chart of tomorrow's day-ahead prices, EUR/MWh: ${points} prices.`, { points });
}

/** What the border panels show. */
export interface FlowsView {
  readonly border: BorderOption;
  readonly range: Range;
  readonly flows: DenseFlows;
  readonly hours: number;
  readonly shares: readonly ShareRow[];
  readonly tzName: string;
}

/** Hourly flows by flow type and the stacked daily flow-type shares of one border. */
export function renderFlows(flows: EChartsType, shares: EChartsType, view: FlowsView): void {
  const a = view.border.zoneA.code;
  const b = view.border.zoneB.code;
  const parts = FLOW_TYPE_NAMES.map((t) => [t, view.flows.types.filter((x) => x === t).length] as const)
    .filter(([, n]) => n > 0)
    .map(([t, n]) => `${FLOW_LABELS[t].toLowerCase()} ${Math.round((100 * n) / Math.max(1, view.hours))} %`);
  const summary = view.hours
    ? `${a} – ${b}: ${view.hours} hours, ${span(view.range)} (${view.tzName}); ${parts.join(', ')}. Positive flows go from ${a} to ${b}.${isFlowBased(a, b) ? ` ${FLOW_BASED_NOTE}` : ''}`
    : `${a} – ${b}: no flows published in ${span(view.range)} (${view.tzName}); pick another border or range.`;
  text('flows-title', `Border flows ${a} – ${b}`);
  text('flow-summary', summary);
  for (const chart of [flows, shares]) {
    chart.getDom().hidden = view.hours === 0;
    chart.resize();
  }
  flows.setOption(flowsOption(view.flows, a, b, flows.getWidth()), { notMerge: true });
  describe(flows, `Bar chart of hourly flows coloured by flow type, MW. ${summary}`, {
    points: view.hours,
    border: view.border.key,
  });
  shares.setOption(sharesOption(view.shares, shares.getWidth()), { notMerge: true });
  describe(shares, `Stacked bar chart of the daily flow-type shares of ${a} – ${b}: ${view.shares.length} days.`, {
    days: view.shares.length,
  });
}
