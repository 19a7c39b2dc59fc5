/** Tooltip texts shared by the dashboard's charts (ECharts options of charts.ts and charts-analytics.ts). */

/** A value with `digits` decimals and its unit (`12.5 %`), `-` where a series has no value. */
export const fixedIn =
  (unit: string, digits: number) =>
  (v: unknown): string =>
    typeof v === 'number' ? `${v.toFixed(digits)} ${unit}` : '-';

/** A price, EUR/MWh with two decimals. */
export const eur = fixedIn('EUR/MWh', 2);

/** A power, whole MW. */
export const mw = (v: unknown): string => (typeof v === 'number' ? `${Math.round(v)} MW` : '-');

/** The tooltip of an axis chart: each series' value at the pointer as plain text, kept inside the chart. */
export const axisTooltip = (valueFormatter: (v: unknown) => string) => ({
  trigger: 'axis' as const,
  renderMode: 'richText' as const,
  confine: true,
  valueFormatter,
});
