/** Export buttons of a chart: its data as the API's CSV (REST, with the stored API key) and the chart as PNG or SVG. */
import type { EChartsType } from 'echarts/core';
import { keyHeaders } from './api-key.js';
import { chartSvg } from './charts.js';

/** Downloads `href` (a blob URL) as `name`. */
function save(href: string, name: string): void {
  const a = Object.assign(document.createElement('a'), { href, download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

/** Saves `blob` as `name` through a short-lived object URL. */
function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  save(url, name);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function button(kind: string, label: string): HTMLButtonElement {
  const b = Object.assign(document.createElement('button'), { type: 'button', textContent: kind.toUpperCase() });
  b.setAttribute('aria-label', label);
  b.dataset.export = kind;
  return b;
}

/** Adds "CSV", "PNG" and "SVG" buttons above `chart`; `csvPath` gives the REST path (with query) of the chart's current data. */
export function addExports(chart: EChartsType, name: string, csvPath: () => string | null): void {
  const dom = chart.getDom();
  const bar = Object.assign(document.createElement('div'), { className: 'exports' });
  const file = dom.id.replace('-chart', '');
  const csv = button('csv', `Download the data of ${name} as CSV`);
  const png = button('png', `Download ${name} as PNG`);
  const svg = button('svg', `Download ${name} as SVG`);
  csv.addEventListener('click', async () => {
    const path = csvPath();
    if (!path) return;
    const res = await fetch(path, { headers: { accept: 'text/csv', ...keyHeaders() } });
    if (!res.ok) {
      csv.textContent = `CSV failed (HTTP ${res.status})`;
      return;
    }
    saveBlob(await res.blob(), `${file}.csv`);
  });
  png.addEventListener('click', () => {
    const bytes = Uint8Array.from(
      atob(chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' }).split(',')[1] ?? ''),
      (c) => c.charCodeAt(0),
    );
    saveBlob(new Blob([bytes], { type: 'image/png' }), `${file}.png`);
  });
  svg.addEventListener('click', () => saveBlob(new Blob([chartSvg(chart)], { type: 'image/svg+xml' }), `${file}.svg`));
  bar.append(csv, png, svg);
  dom.before(bar);
}
