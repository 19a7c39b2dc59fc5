import { BarChart, HeatmapChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import { type ComposeOption, type EChartsType, init, use } from 'echarts/core';
import type { BarSeriesOption, HeatmapSeriesOption, LineSeriesOption } from 'echarts/charts';
import type {
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
  VisualMapComponentOption,
} from 'echarts/components';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';
import { axisTooltip, eur, fixedIn, mw } from './chart-format.js';
import { zoneColour } from './colours.js';
import { type DenseFlows, FLOW_TYPE_NAMES, type FlowTypeName } from './data.js';

use([
  LineChart,
  HeatmapChart,
  BarChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
  CanvasRenderer,
  SVGRenderer,
]);

type Option = ComposeOption<
  | LineSeriesOption
  | HeatmapSeriesOption
  | BarSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
  | VisualMapComponentOption
>;

/** Colour-blind safe (Okabe-Ito) colours of the flow types. */
export const FLOW_COLOURS: Record<FlowTypeName, string> = {
  CONVERGENCE: '#009E73',
  CONGESTION: '#E69F00',
  COUNTER_INTUITIVE: '#CC3311',
  OUTAGE: '#8C8C8C',
};

/** Display names of the flow types. */
export const FLOW_LABELS: Record<FlowTypeName, string> = {
  CONVERGENCE: 'Convergence',
  CONGESTION: 'Congestion',
  COUNTER_INTUITIVE: 'Counter-intuitive',
  OUTAGE: 'Outage',
};

/**
 * Shared settings: canvas rendering, tooltips drawn on the canvas (no HTML, so no inline styles
 * under the page's CSP), no animation. Time axes read their ms as UTC: the dashboard passes
 * wall-clock ms of the view's zone (see time.ts), so axes and tooltips read in that zone.
 */
const base = (): Option => ({
  useUTC: true,
  animation: false,
  textStyle: { fontFamily: 'system-ui, sans-serif' },
  tooltip: { trigger: 'axis', renderMode: 'richText', confine: true },
  legend: { type: 'scroll', top: 0 },
  grid: { left: 8, right: 16, top: 56, bottom: 8, containLabel: true },
});

/**
 * The chart as an SVG document: its current option drawn by ECharts' server-side SVG renderer at
 * the chart's size, in a detached instance (the page's charts keep the faster canvas renderer).
 */
export function chartSvg(chart: EChartsType): string {
  const copy = init(null, null, { renderer: 'svg', ssr: true, width: chart.getWidth(), height: chart.getHeight() });
  try {
    copy.setOption(chart.getOption());
    return copy.renderToSVGString();
  } finally {
    copy.dispose();
  }
}

/** A chart in `el`, resized with its container. */
export function mountChart(el: HTMLElement): EChartsType {
  const chart = init(el, null, { renderer: 'canvas' });
  new ResizeObserver(() => chart.resize()).observe(el);
  return chart;
}

/** Price lines, one per zone in its own colour, EUR/MWh over wall-clock time of the view's zone. */
export function priceLinesOption(series: Map<string, [number, number][]>): Option {
  return {
    ...base(),
    tooltip: axisTooltip(eur),
    xAxis: { type: 'time' },
    yAxis: { type: 'value', name: 'EUR/MWh', nameTextStyle: { align: 'left' }, scale: true },
    series: [...series].map(([zone, points]) => ({
      type: 'line',
      name: zone,
      data: points,
      showSymbol: false,
      sampling: 'lttb',
      color: zoneColour(zone),
      lineStyle: { width: 1.5 },
    })),
  };
}

/** Heatmap of mean price per zone (rows) and UTC hour of day (columns). */
export function heatmapOption(cells: [number, number, number][], zones: readonly string[], tzName = 'UTC'): Option {
  const values = cells.map((c) => c[2]);
  const min = values.length ? Math.floor(Math.min(...values)) : 0;
  const max = values.length ? Math.ceil(Math.max(...values)) : 1;
  return {
    ...base(),
    legend: { show: false },
    grid: { left: 8, right: 16, top: 8, bottom: 64, containLabel: true },
    tooltip: {
      trigger: 'item',
      renderMode: 'richText',
      confine: true,
      formatter: (p) => heatmapLabel(p, zones, tzName),
    },
    xAxis: {
      type: 'category',
      name: `hour (${tzName})`,
      nameLocation: 'middle',
      nameGap: 24,
      data: Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0')),
      splitArea: { show: true },
    },
    yAxis: { type: 'category', data: [...zones], inverse: true, splitArea: { show: true } },
    visualMap: {
      min,
      max,
      orient: 'horizontal',
      left: 'center',
      bottom: 0,
      itemHeight: 160,
      itemWidth: 12,
      text: [`${max} EUR/MWh`, `${min}`],
      inRange: { color: ['#2166ac', '#67a9cf', '#f7f7f7', '#ef8a62', '#b2182b'] },
    },
    series: [
      {
        type: 'heatmap',
        name: 'Mean price',
        data: cells,
        emphasis: { itemStyle: { borderColor: '#000', borderWidth: 1 } },
      },
    ],
  };
}

function heatmapLabel(params: unknown, zones: readonly string[], tzName: string): string {
  const value = (params as { value?: [number, number, number] }).value;
  if (!value) return '';
  return `${zones[value[1]] ?? ''} ${String(value[0]).padStart(2, '0')}:00 ${tzName}: ${eur(value[2])}`;
}

/** Tomorrow's prices per zone at their published resolution, as steps. */
export function tomorrowOption(series: Map<string, [number, number][]>): Option {
  const option = priceLinesOption(series);
  option.xAxis = { type: 'time', axisLabel: { formatter: '{HH}:{mm}' } };
  option.series = [...series].map(([zone, points]) => ({
    type: 'line',
    name: zone,
    data: points,
    showSymbol: false,
    step: 'start',
    color: zoneColour(zone),
    lineStyle: { width: 1.5 },
  }));
  return option;
}

/** A legend of every flow type on one or (narrow charts, under 520 px) two lines, the plot below it. */
const flowLegend = (width: number): Option => ({
  legend: { type: 'plain', top: 0, itemGap: 8 },
  grid: { left: 8, right: 16, top: width < 520 ? 76 : 56, bottom: 8, containLabel: true },
});

/**
 * Hourly signed flows of a border, MW (positive from zone A to zone B): one bar per hour at the
 * API's value, coloured by its flow type. Each flow type is a dense series over every hour of the
 * border (null where the hour has another type), drawn over one another (`barGap: -100%`) and never
 * stacked, so a bar's height is exactly its hour's flow. `width` of the chart, px.
 */
export function flowsOption(flows: DenseFlows, zoneA: string, zoneB: string, width: number): Option {
  return {
    ...base(),
    ...flowLegend(width),
    tooltip: axisTooltip(mw),
    xAxis: { type: 'time' },
    yAxis: { type: 'value', name: `MW, + = ${zoneA} → ${zoneB}`, nameTextStyle: { align: 'left' } },
    series: FLOW_TYPE_NAMES.map((t) => ({
      type: 'bar',
      name: FLOW_LABELS[t],
      data: flows.hours.map((ms, i) => [ms, flows.types[i] === t ? (flows.mw[i] ?? null) : null]),
      itemStyle: { color: FLOW_COLOURS[t] },
      barGap: '-100%',
      barMaxWidth: 6,
    })),
  };
}

/** A day of flow-type shares, percent of assessed hours. */
export interface ShareRow {
  readonly day: string;
  readonly convergence: number;
  readonly congestion: number;
  readonly counterIntuitive: number;
  readonly outage: number;
}

const SHARE_FIELD: Record<FlowTypeName, keyof Omit<ShareRow, 'day'>> = {
  CONVERGENCE: 'convergence',
  CONGESTION: 'congestion',
  COUNTER_INTUITIVE: 'counterIntuitive',
  OUTAGE: 'outage',
};

/** Stacked daily shares of the flow types, percent; `width` of the chart, px. */
export function sharesOption(rows: readonly ShareRow[], width: number): Option {
  return {
    ...base(),
    ...flowLegend(width),
    tooltip: axisTooltip(fixedIn('%', 1)),
    xAxis: { type: 'category', data: rows.map((r) => r.day.slice(5)) },
    yAxis: { type: 'value', max: 100, name: '% of hours', nameTextStyle: { align: 'left' } },
    series: FLOW_TYPE_NAMES.map((t) => ({
      type: 'bar',
      name: FLOW_LABELS[t],
      stack: 'share',
      data: rows.map((r) => r[SHARE_FIELD[t]]),
      itemStyle: { color: FLOW_COLOURS[t] },
    })),
  };
}
