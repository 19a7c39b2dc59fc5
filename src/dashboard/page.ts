/** The dashboard page's elements: lookup by id and the charts, one per chart panel. */
import type { EChartsType } from 'echarts/core';
import { mountChart } from './charts.js';

/** The chart panels, in page order; each is drawn into `#<id>-chart`. */
export const CHART_IDS = [
  'prices',
  'heatmap',
  'tomorrow',
  'flows',
  'shares',
  'duration',
  'scatter',
  'ci',
  'trade',
] as const;
export type ChartId = (typeof CHART_IDS)[number];

/** Every chart of the page by its panel. */
export type Charts = Readonly<Record<ChartId, EChartsType>>;

/** The page's element `#id`; throws when the page has none. */
export const byId = <T extends HTMLElement>(id: string): T => {
  const node = document.getElementById(id);
  if (!node) throw new Error(`dashboard page without #${id}`);
  return node as T;
};

/** Mounts a chart into each chart panel. */
export const mountCharts = (): Charts =>
  Object.fromEntries(CHART_IDS.map((id) => [id, mountChart(byId(`${id}-chart`))])) as Record<ChartId, EChartsType>;
