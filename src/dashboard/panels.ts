/** The analytics panels: price KPIs, counter-intuitive share, imports/exports, duration curve and scatter. */
import type { EChartsType } from 'echarts/core';
import { ciOption, durationOption, scatterOption, tradeOption } from './charts-analytics.js';

const fmt = (v: number | null | undefined): string => (typeof v === 'number' ? v.toFixed(2) : '–');

function describe(chart: EChartsType, label: string, data: Record<string, string | number>): void {
  const dom = chart.getDom();
  dom.setAttribute('aria-label', label);
  for (const [key, value] of Object.entries(data)) dom.dataset[key] = String(value);
}

/** A row of the API's price KPIs. */
export interface KpiRow {
  readonly biddingZone: string;
  readonly hours: number;
  readonly meanPrice: number;
  readonly medianPrice: number;
  readonly minPrice: number;
  readonly maxPrice: number;
  readonly p05Price: number;
  readonly p95Price: number;
  readonly stdPrice: number;
  readonly negativeHours: number;
  readonly peakMeanPrice?: number | null;
  readonly offpeakMeanPrice?: number | null;
}

const cell = (tag: 'th' | 'td', text: string, props: Record<string, unknown> = {}) =>
  Object.assign(document.createElement(tag), { textContent: text, ...props });

/** The KPI table: a row per selected zone, in selection order; a zone without prices says so. */
export function renderKpis(body: HTMLElement, zones: readonly string[], rows: readonly KpiRow[]): void {
  const byZone = new Map(rows.map((r) => [r.biddingZone, r]));
  body.replaceChildren(
    ...zones.map((zone) => {
      const tr = document.createElement('tr');
      tr.dataset.zone = zone;
      const k = byZone.get(zone);
      tr.append(cell('th', zone, { scope: 'row' }));
      if (!k || k.hours === 0)
        tr.append(cell('td', 'no prices stored in this range', { colSpan: 10, className: 'no-data' }));
      else
        tr.append(
          ...[
            k.meanPrice,
            k.medianPrice,
            k.minPrice,
            k.maxPrice,
            k.p05Price,
            k.p95Price,
            k.stdPrice,
            k.peakMeanPrice,
            k.offpeakMeanPrice,
          ].map((v) => cell('td', fmt(v))),
          cell('td', `${k.negativeHours} / ${k.hours}`),
        );
      return tr;
    }),
  );
}

/** A day of a zone's counter-intuitive share. */
export interface CiRow {
  readonly biddingZone: string;
  readonly day: string;
  readonly ciPercentage: number;
  readonly totalHours: number;
}

/** Daily counter-intuitive share per zone (zones without assessed hours are named in the summary). */
export function renderCi(
  chart: EChartsType,
  summary: HTMLElement,
  zones: readonly string[],
  rows: readonly CiRow[],
): void {
  const series = new Map<string, [string, number][]>(zones.map((z) => [z, []]));
  for (const r of rows) if (r.totalHours > 0) series.get(r.biddingZone)?.push([r.day.slice(0, 10), r.ciPercentage]);
  const empty = [...series].filter(([, p]) => p.length === 0).map(([z]) => z);
  for (const z of empty) series.delete(z);
  summary.textContent = empty.length ? `No assessed flows for ${empty.join(', ')} in this range.` : '';
  chart.setOption(ciOption(series), { notMerge: true });
  const points = [...series.values()].reduce((n, s) => n + s.length, 0);
  describe(
    chart,
    `Line chart of the daily share of counter-intuitive flow hours per zone, percent: ${points} points.`,
    { points, zones: [...series.keys()].join(',') },
  );
}

/** A zone's imports and exports over the range. */
export interface TradeRow {
  readonly biddingZone: string;
  readonly importMwh: number;
  readonly exportMwh: number;
  readonly netExportMwh: number;
}

/** Import/export bars per zone. */
export function renderTrade(chart: EChartsType, rows: readonly TradeRow[]): void {
  chart.setOption(tradeOption(rows), { notMerge: true });
  describe(
    chart,
    `Bar chart of imports and exports per zone over the range, GWh: ${rows.map((r) => `${r.biddingZone} net ${Math.round(r.netExportMwh)} MWh`).join(', ')}.`,
    {
      zones: rows.map((r) => r.biddingZone).join(','),
      net: rows.map((r) => Math.round(r.netExportMwh)).join(','),
    },
  );
}

/** The flow duration curve and flow/price scatter of a border. */
export function renderBorderAnalytics(
  duration: EChartsType,
  scatter: EChartsType,
  a: string,
  b: string,
  data: { duration: readonly { percentage: number; flowMw: number }[]; scatter: readonly [number, number, number][] },
): void {
  for (const chart of [duration, scatter]) {
    chart.getDom().hidden = data.duration.length === 0;
    chart.resize();
  }
  duration.setOption(durationOption(data.duration, a, b), { notMerge: true });
  describe(duration, `Flow duration curve of ${a} – ${b}: ${data.duration.length} points.`, {
    points: data.duration.length,
    max: data.duration[0]?.flowMw ?? '',
  });
  scatter.setOption(scatterOption(data.scatter, a, b), { notMerge: true });
  const hours = data.scatter.reduce((n, x) => n + x[2], 0);
  const against = data.scatter.filter((x) => x[0] * x[1] < 0).reduce((n, x) => n + x[2], 0);
  describe(
    scatter,
    `Scatter of flow against price difference of ${a} – ${b}: ${hours} hours in ${data.scatter.length} bins, ${against} against the price signal.`,
    { hours, bins: data.scatter.length, against },
  );
}
