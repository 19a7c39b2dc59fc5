import { LineChart, ScatterChart, BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { use } from 'echarts/core';
import type { BarSeriesOption, LineSeriesOption, ScatterSeriesOption } from 'echarts/charts';
import type {
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
  VisualMapComponentOption,
} from 'echarts/components';
import { axisTooltip, fixedIn, mw } from './chart-format.js';
import { zoneColour } from './colours.js';

use([LineChart, ScatterChart, BarChart, GridComponent, LegendComponent, TooltipComponent, VisualMapComponent]);

type Option = ComposeOption<
  | LineSeriesOption
  | ScatterSeriesOption
  | BarSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
  | VisualMapComponentOption
>;

const common = (): Option => ({
  animation: false,
  textStyle: { fontFamily: 'system-ui, sans-serif' },
  legend: { type: 'scroll', top: 0 },
  grid: { left: 8, right: 16, top: 52, bottom: 8, containLabel: true },
});

/** Flow duration curve: signed flow (MW, + = A → B) against the percent of hours with at least that flow. */
export function durationOption(
  points: readonly { percentage: number; flowMw: number }[],
  a: string,
  b: string,
): Option {
  return {
    ...common(),
    legend: { show: false },
    grid: { left: 8, right: 16, top: 32, bottom: 28, containLabel: true },
    tooltip: axisTooltip(mw),
    xAxis: { type: 'value', min: 0, max: 100, name: '% of hours', nameLocation: 'middle', nameGap: 22 },
    yAxis: { type: 'value', name: `MW, + = ${a} → ${b}`, nameTextStyle: { align: 'left' } },
    series: [
      {
        type: 'line',
        name: `${a} – ${b}`,
        data: points.map((p) => [p.percentage, p.flowMw]),
        showSymbol: false,
        areaStyle: { opacity: 0.15 },
        color: '#1f4e79',
      },
    ],
  };
}

/** An axis label in MW: thousands as `k` (`-3k`), so labels fit a phone-wide chart. */
const thousands = (v: number): string => (Math.abs(v) >= 1000 ? `${v / 1000}k` : String(v));

/**
 * Binned flow (MW, + = A → B) against price difference (price of B − price of A, EUR/MWh), sized by
 * the hours in each bin; the quadrants where power flows towards the cheaper zone are the
 * counter-intuitive ones.
 */

export function scatterOption(bins: readonly [number, number, number][], a: string, b: string): Option {
  const most = Math.max(1, ...bins.map((x) => x[2]));
  return {
    ...common(),
    legend: { show: false },
    grid: { left: 8, right: 16, top: 32, bottom: 28, containLabel: true },
    tooltip: { trigger: 'item', renderMode: 'richText', confine: true, formatter: (p) => scatterLabel(p, a, b) },
    xAxis: {
      type: 'value',
      name: `MW, + = ${a} → ${b}`,
      nameLocation: 'middle',
      nameGap: 22,
      axisLine: { onZero: false },
      axisLabel: { formatter: thousands, hideOverlap: true },
    },
    yAxis: {
      type: 'value',
      name: `EUR/MWh, price ${b} − ${a}`,
      nameTextStyle: { align: 'left' },
      axisLine: { onZero: false },
    },
    series: [
      {
        type: 'scatter',
        name: 'Hours',
        data: bins.map((x) => [...x]),
        symbolSize: (v: number[]) => 4 + 14 * Math.sqrt((v[2] ?? 0) / most),
        itemStyle: {
          color: (p: { value?: unknown }) =>
            (p.value as number[])[0]! * (p.value as number[])[1]! < 0 ? '#CC3311' : '#1f4e79',
          opacity: 0.7,
        },
      },
    ],
  };
}

function scatterLabel(params: unknown, a: string, b: string): string {
  const v = (params as { value?: number[] }).value;
  if (!v) return '';
  return `${Math.round(v[0] ?? 0)} MW ${a} → ${b}, price ${b} − ${a} ${(v[1] ?? 0).toFixed(1)} EUR/MWh: ${v[2]} hours`;
}

/** Daily counter-intuitive share per zone, percent of the zone's assessed hours. */
export function ciOption(series: Map<string, [string, number][]>): Option {
  return {
    ...common(),
    tooltip: axisTooltip(fixedIn('%', 1)),
    xAxis: { type: 'category', data: [...new Set([...series.values()].flatMap((s) => s.map((p) => p[0])))].sort() },
    yAxis: { type: 'value', name: '% counter-intuitive', nameTextStyle: { align: 'left' }, min: 0 },
    series: [...series].map(([zone, points]) => ({
      type: 'line',
      name: zone,
      data: points.map((p) => [p[0], p[1]]),
      color: zoneColour(zone),
      showSymbol: points.length < 40,
    })),
  };
}

/** Imports (negative) and exports (positive) per zone over the range, GWh. */
export function tradeOption(
  rows: readonly { biddingZone: string; importMwh: number; exportMwh: number; netExportMwh: number }[],
): Option {
  const gwh = (v: number) => Math.round(v / 10) / 100;
  return {
    ...common(),
    tooltip: axisTooltip(fixedIn('GWh', 2)),
    xAxis: { type: 'category', data: rows.map((r) => r.biddingZone) },
    yAxis: { type: 'value', name: 'GWh', nameTextStyle: { align: 'left' } },
    series: [
      { type: 'bar', name: 'Export', stack: 'trade', data: rows.map((r) => gwh(r.exportMwh)), color: '#009E73' },
      { type: 'bar', name: 'Import', stack: 'trade', data: rows.map((r) => -gwh(r.importMwh)), color: '#E69F00' },
      {
        type: 'line',
        name: 'Net export',
        data: rows.map((r) => gwh(r.netExportMwh)),
        color: '#1b2430',
        symbolSize: 8,
        lineStyle: { width: 0 },
      },
    ],
  };
}
