/**
 * Export buttons of a chart: its data (CSV, Arrow or Parquet, as the API's export endpoints write
 * them for exactly the selection on screen, with the stored API key) and the chart as PNG or SVG.
 * A failed download names the API's reason under the buttons until the selection changes.
 */
import type { EChartsType } from 'echarts/core';
import { keyHeaders } from './api-key.js';
import { chartSvg } from './charts.js';

/** File formats of the data exports. */
export type DataFormat = 'csv' | 'arrow' | 'parquet';

const MEDIA: Record<DataFormat, string> = {
  csv: 'text/csv',
  arrow: 'application/vnd.apache.arrow.stream',
  parquet: 'application/vnd.apache.parquet',
};

/** Where a chart's data comes from: a URL per format (null while nothing is selected) or CSV built in the page. */
export type DataSource =
  | { readonly formats: readonly DataFormat[]; readonly url: (format: DataFormat) => string | null }
  | { readonly formats: readonly ['csv']; readonly csv: () => string | null };

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

/**
 * The reason of a failed API answer in words for the page: the messages of a 422 body
 * (`detail[].msg`), an error body's `message` or `error`, else the HTTP status.
 */
export async function apiReason(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as {
    detail?: { msg?: string }[] | string;
    message?: string;
    error?: string;
  } | null;
  const detail = body?.detail;
  const messages = Array.isArray(detail) ? detail.map((d) => d.msg).filter((m): m is string => !!m) : [];
  if (messages.length) return messages.join('; ');
  if (typeof detail === 'string') return detail;
  return body?.message ?? body?.error ?? `the server answered HTTP ${res.status}`;
}

/** Clears every export's error message (the selection changed). */
export function clearExportErrors(doc: Document): void {
  for (const p of doc.querySelectorAll<HTMLElement>('.export-error')) p.textContent = '';
}

/** Adds data buttons (each format of `source`), "PNG" and "SVG" above `chart`. */
export function addExports(chart: EChartsType, name: string, source: DataSource): void {
  const dom = chart.getDom();
  const bar = Object.assign(document.createElement('div'), { className: 'exports' });
  const error = Object.assign(document.createElement('p'), { className: 'export-error error' });
  error.setAttribute('role', 'alert');
  const file = dom.id.replace('-chart', '');
  const data = source.formats.map((format) => {
    const b = button(format, `Download the data of ${name} as ${format === 'csv' ? 'CSV' : format}`);
    b.addEventListener('click', async () => {
      error.textContent = '';
      if ('csv' in source) {
        const text = source.csv();
        if (text !== null) saveBlob(new Blob([text], { type: MEDIA.csv }), `${file}.csv`);
        return;
      }
      const url = source.url(format);
      if (!url) return;
      b.disabled = true;
      try {
        const res = await fetch(url, { headers: { accept: MEDIA[format], ...keyHeaders() } });
        if (!res.ok) {
          error.textContent = `Could not export ${name} as ${format.toUpperCase()}: ${await apiReason(res)}.`;
          return;
        }
        saveBlob(await res.blob(), `${file}.${format}`);
      } catch (err) {
        error.textContent = `Could not export ${name}: ${err instanceof Error ? err.message : String(err)}.`;
      } finally {
        b.disabled = false;
      }
    });
    return b;
  });
  const png = button('png', `Download ${name} as PNG`);
  const svg = button('svg', `Download ${name} as SVG`);
  png.addEventListener('click', () => {
    const bytes = Uint8Array.from(
      atob(chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' }).split(',')[1] ?? ''),
      (c) => c.charCodeAt(0),
    );
    saveBlob(new Blob([bytes], { type: 'image/png' }), `${file}.png`);
  });
  svg.addEventListener('click', () => saveBlob(new Blob([chartSvg(chart)], { type: 'image/svg+xml' }), `${file}.svg`));
  bar.append(...data, png, svg);
  dom.before(bar);
  dom.after(error);
}
