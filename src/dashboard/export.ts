/** Export buttons of a chart: its data as the API's CSV (REST, with the stored API key) and the chart as PNG. */
import type { EChartsType } from 'echarts/core';
import { keyHeaders } from './api-key.js';

/** Downloads `href` (a blob URL) as `name`. */
function save(href: string, name: string): void {
  const a = Object.assign(document.createElement('a'), { href, download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

/** Adds "CSV" and "PNG" buttons above `chart`; `csvPath` gives the REST path (with query) of the chart's current data. */
export function addExports(chart: EChartsType, name: string, csvPath: () => string | null): void {
  const dom = chart.getDom();
  const bar = Object.assign(document.createElement('div'), { className: 'exports' });
  const csv = Object.assign(document.createElement('button'), { type: 'button', textContent: 'CSV' });
  const png = Object.assign(document.createElement('button'), { type: 'button', textContent: 'PNG' });
  csv.setAttribute('aria-label', `Download the data of ${name} as CSV`);
  png.setAttribute('aria-label', `Download ${name} as PNG`);
  csv.dataset.export = 'csv';
  png.dataset.export = 'png';
  csv.addEventListener('click', async () => {
    const path = csvPath();
    if (!path) return;
    const res = await fetch(path, { headers: { accept: 'text/csv', ...keyHeaders() } });
    if (!res.ok) {
      csv.textContent = `CSV failed (HTTP ${res.status})`;
      return;
    }
    const url = URL.createObjectURL(await res.blob());
    save(url, `${dom.id.replace('-chart', '')}.csv`);
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  });
  png.addEventListener('click', () => {
    const bytes = Uint8Array.from(atob(chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' }).split(',')[1] ?? ''), (c) => c.charCodeAt(0));
    const url = URL.createObjectURL(new Blob([bytes], { type: 'image/png' }));
    save(url, `${dom.id.replace('-chart', '')}.png`);
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  });
  bar.append(csv, png);
  dom.before(bar);
}
