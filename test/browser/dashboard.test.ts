/**
 * The dashboard in a real browser: Debian's chromium driven by playwright-core, against the app on
 * a real port over the test demo data (clock pinned to DEMO_TEST_NOW). Without /usr/bin/chromium the
 * tests skip, except under CI=true where they fail.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../../bench/chromium.js';
import { afterAll, afterEach, beforeAll, describe, expect } from 'vitest';
import { createApiKey } from '../../src/security/api-keys.js';
import { blockApp, type TestApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { type BuiltDashboard, buildTestDashboard } from '../support/dashboard.js';
import { CI } from '../support/env.js';
import { type FakeUpstream, startFakeUpstream } from '../ingest-job/fake-upstream.js';
import { a44, EIC, fakeClient, ingest, key } from '../ingest-job/helpers.js';

const MISSING = `chromium not found at ${CHROMIUM} (apt-get install chromium): browser tests skipped`;
const ROOT = resolve(import.meta.dirname, '../..');
const SCREENSHOTS = {
  docs: join(ROOT, 'docs/dashboard.png'),
  docsPhone: join(ROOT, 'docs/dashboard-phone.png'),
  output: join(ROOT, 'test-output'),
};
/** The phone viewport of the screenshots (an iPhone 12-15 in portrait), CSS px. */
const PHONE = { width: 390, height: 844 };
const CHARTS = [
  'prices-chart',
  'heatmap-chart',
  'tomorrow-chart',
  'flows-chart',
  'shares-chart',
  'duration-chart',
  'scatter-chart',
  'ci-chart',
  'trade-chart',
];
/** Warm loads after the cold one in the first-render test; its figures are printed, `npm run bench -- --dashboard` measures them. */
const WARM_LOADS = 3;
/** A persisted document's id, as codegen's client preset writes it. */
const DOCUMENT_ID = /^sha256:[0-9a-f]{64}$/;

/**
 * `it`'s `beforeEach` where chromium is; elsewhere the tests skip themselves and nothing (bundle,
 * database, app, browser) is built for them.
 */
function hooksWhere(available: boolean): Pick<typeof it, 'beforeEach'> {
  return {
    beforeEach: ((fn, timeout) => {
      if (available) it.beforeEach(fn, timeout);
    }) as typeof it.beforeEach,
  };
}

/** Serves the app on a loopback port; returns its origin. */
async function listen(t: TestApp): Promise<{ server: Server; origin: string }> {
  const server = createServer(t.app.yoga);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A GraphQL request the page sent: its persisted document id and any query text. */
interface SentOperation {
  readonly method: string;
  readonly documentId: unknown;
  readonly query: unknown;
}

interface Visit {
  readonly page: Page;
  readonly errors: string[];
  readonly hosts: Set<string>;
  readonly graphql: SentOperation[];
}

/** What a GraphQL request carries, from its JSON body (POST) or its query string (GET). */
function sentOperation(method: string, url: URL, body: string | null): SentOperation {
  if (method === 'GET')
    return { method, documentId: url.searchParams.get('documentId'), query: url.searchParams.get('query') };
  const params = JSON.parse(body ?? '{}') as { documentId?: unknown; query?: unknown };
  return { method, documentId: params.documentId, query: params.query };
}

/** What {@link recordSaves} keeps in the page: each file the page saved through a download link. */
interface SavesWindow {
  __saves: { name: string; blob: Blob }[];
}

/**
 * Runs in the page before its scripts: records each file saved through an `<a download>` click
 * (its name and the Blob behind its object URL) instead of handing it to the browser's download
 * manager, whose events headless chromium does not always deliver under load.
 */
function recordSaves(): void {
  const w = window as unknown as SavesWindow;
  const blobs = new Map<string, Blob>();
  w.__saves = [];
  const createObjectURL = URL.createObjectURL.bind(URL);
  URL.createObjectURL = (obj: Blob | MediaSource) => {
    const url = createObjectURL(obj);
    if (obj instanceof Blob) blobs.set(url, obj);
    return url;
  };
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    const blob = this.download ? blobs.get(this.href) : undefined;
    if (blob) w.__saves.push({ name: this.download, blob });
    else click.call(this);
  };
}

describe('the dashboard in chromium', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const available = existsSync(CHROMIUM);
  const hooks = hooksWhere(available);
  let bundle: BuiltDashboard;
  let server: Server;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    if (!available) {
      if (CI) throw new Error(`${MISSING.replace('skipped', 'cannot run')}; CI=true requires them`);
      return;
    }
    bundle = await buildTestDashboard();
  });

  afterAll(() => {
    bundle?.remove();
  });

  // A database of its own: the live update test ingests prices, which the next block's page shows.
  const t = blockApp(hooks, {
    config: { RATE_LIMIT_CAPACITY: 10_000 },
    get dashboardDir() {
      return bundle.dir;
    },
    own: true,
  });

  const served = blockSetup(async () => {
    await browser?.close();
    await new Promise((done) => (server ? server.close(done) : done(undefined)));
  });
  hooks.beforeEach(() =>
    served.run(async () => {
      ({ server, origin } = await listen(t));
      browser = await launchChromium();
      context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'en-GB',
        timezoneId: 'Europe/Berlin',
        acceptDownloads: true,
      });
    }),
  );

  const open = new Set<Page>();
  afterEach(async () => {
    for (const page of open) if (!page.isClosed()) await page.close();
    open.clear();
  });

  /** The API's REST answer (JSON data) for the same selection as the page. */
  const api = async (path: string) => ((await (await t.get(path)).json()) as { data: Record<string, unknown>[] }).data;

  async function visit(path = '/', on: BrowserContext = context): Promise<Visit> {
    const page = await on.newPage();
    open.add(page);
    const errors: string[] = [];
    const hosts = new Set<string>();
    const graphql: SentOperation[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => {
      const url = new URL(r.url());
      hosts.add(url.host);
      if (url.pathname === '/graphql') graphql.push(sentOperation(r.method(), url, r.postData()));
    });
    page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
    await page.goto(`${origin}${path}`);
    await page.waitForSelector('body[data-state=ready]');
    await page.waitForSelector('#map[data-hour]');
    return { page, errors, hosts, graphql };
  }

  const attr = (page: Page, id: string, name: string) => page.getAttribute(`#${id}`, `data-${name}`);
  /** The page's first-render mark (ms after navigation start), once set. */
  const firstRenderMs = async (page: Page) => {
    await page.waitForFunction(() => performance.getEntriesByName('dashboard:first-render').length > 0);
    return page.evaluate(() => performance.getEntriesByName('dashboard:first-render')[0]?.startTime ?? Number.NaN);
  };

  it("saves each chart's data as the API's CSV for the selection, and the charts as PNG and as SVG holding their series", async ({
    onTestFinished,
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const saving = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'en-GB',
      timezoneId: 'UTC',
    });
    onTestFinished(() => saving.close());
    await saving.addInitScript(recordSaves);
    const { page, errors } = await visit('/', saving);
    const range = 'datetime_from=2025-10-30T00:00:00&datetime_to=2025-11-06T00:00:00&tz=Europe/Berlin';
    const save = async (id: string, kind: 'csv' | 'png' | 'svg') => {
      const before = await page.evaluate(() => (window as unknown as SavesWindow).__saves.length);
      await page.click(`.exports:has(+ #${id}) button[data-export=${kind}]`);
      await page.waitForFunction((n) => (window as unknown as SavesWindow).__saves.length > n, before);
      return page.evaluate(async (n) => {
        const saved = (window as unknown as SavesWindow).__saves[n]!;
        return {
          name: saved.name,
          type: saved.blob.type,
          text: await saved.blob.text(),
          head: [...new Uint8Array(await saved.blob.arrayBuffer()).subarray(1, 4)],
        };
      }, before);
    };
    const tradeCsv = await save('trade-chart', 'csv');
    expect(tradeCsv.name).toBe('trade.csv');
    expect(tradeCsv.text).toBe(
      await (
        await t.get(`/api/v1/zone-import-export?${range}&zone=DE_LU&zone=ES&zone=FR&zone=NL&zone=PL&format=csv`)
      ).text(),
    );
    const png = await save('duration-chart', 'png');
    expect(png.name).toBe('duration.png');
    expect(String.fromCharCode(...png.head)).toBe('PNG');
    for (const id of ['duration-chart', 'scatter-chart'])
      expect((await save(id, 'csv')).text.split('\n').length, id).toBeGreaterThan(1);
    const scatterCsv = (await save('scatter-chart', 'csv')).text.trim().split('\n');
    const bins = await api(`/api/v1/flow-price-scatter?${range}&border=DE_LU->FR&flow_bin_mw=100&price_bin=2`);
    expect(scatterCsv.slice(1).sort()).toEqual(
      bins.map((r) => [r.bidding_zone_from, r.bidding_zone_to, r.net_flow_mw, r.price_delta, r.count].join(',')).sort(),
    );
    const svg = await save('prices-chart', 'svg');
    expect(svg.name).toBe('prices.svg');
    expect(svg.type).toBe('image/svg+xml');
    expect(XMLValidator.validate(svg.text)).toBe(true);
    const root = new XMLParser({ ignoreAttributes: false }).parse(svg.text) as { svg?: { '@_xmlns'?: string } };
    expect(root.svg?.['@_xmlns']).toBe('http://www.w3.org/2000/svg');
    const texts = [...svg.text.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    for (const zone of ['DE_LU', 'ES', 'FR', 'NL', 'PL']) expect(texts, zone).toContain(zone);
    const lines = [...svg.text.matchAll(/<path[^>]* d="([^"]*)"/g)].filter(
      (m) => (m[1] ?? '').split(/[ML]/).length > 100,
    );
    expect(lines.length, 'a path of more than 100 points per zone line').toBeGreaterThanOrEqual(5);
    for (const id of CHARTS) {
      const saved = await save(id, 'svg');
      expect(XMLValidator.validate(saved.text), id).toBe(true);
      expect(saved.text, id).toMatch(/^<svg[\s\S]*<\/svg>$/);
      expect(saved.name).toBe(`${id.replace('-chart', '')}.svg`);
    }
    expect(errors).toEqual([]);
  });

  it('[needs the export endpoints] exports exactly what the panels show over every preset, as CSV, Arrow and Parquet', async ({
    onTestFinished,
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const saving = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'en-GB',
      timezoneId: 'UTC',
    });
    onTestFinished(() => saving.close());
    await saving.addInitScript(recordSaves);
    const { page } = await visit('/?range=30&res=HOURLY', saving);
    const save = async (id: string, kind: string) => {
      const before = await page.evaluate(() => (window as unknown as SavesWindow).__saves.length);
      await page.click(`.exports:has(+ #${id}) button[data-export=${kind}]`);
      await page.waitForFunction((n) => (window as unknown as SavesWindow).__saves.length > n, before);
      return page.evaluate(async (n) => {
        const saved = (window as unknown as SavesWindow).__saves[n]!;
        return { name: saved.name, text: await saved.blob.text(), size: saved.blob.size };
      }, before);
    };
    const range = 'datetime_from=2025-10-07T00:00:00&datetime_to=2025-11-06T00:00:00&tz=Europe/Berlin';
    const zones = 'zone=DE_LU&zone=ES&zone=FR&zone=NL&zone=PL';
    const prices = await save('prices-chart', 'csv');
    expect(prices.text).toBe(
      await (await t.get(`/api/v1/export/prices?${range}&${zones}&resolution=1H&format=csv`)).text(),
    );
    expect(prices.text.trim().split('\n').length - 1).toBe(Number(await attr(page, 'prices-chart', 'points')));
    const flows = await save('flows-chart', 'csv');
    expect(flows.text.trim().split('\n').length - 1).toBe(Number(await attr(page, 'flows-chart', 'points')));
    expect((await save('prices-chart', 'arrow')).name).toBe('prices.arrow');
    expect((await save('shares-chart', 'parquet')).size).toBeGreaterThan(0);
    await page.check('input[name=range][value="7"]');
    await page.check('input[name=res][value=NATIVE]');
    await page.waitForFunction(
      () => document.body.dataset.state === 'ready' && new URL(location.href).searchParams.get('res') === 'NATIVE',
    );
    const native = await save('prices-chart', 'csv');
    expect(native.text.trim().split('\n').length - 1).toBe(Number(await attr(page, 'prices-chart', 'points')));
    await page.close();
  });

  it('clears the panels of a range before a zone existed and offers its first day, which then loads', async ({
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const { page } = await visit('/');
    await page.goto(`${origin}/?zones=DE_LU&range=custom&from=2018-09-20&to=2018-10-07`);
    await page.waitForSelector('body[data-state=error]');
    const notice = page.locator('#range-notice');
    expect(await notice.textContent()).toContain('DE_LU exists from 2018-10-01; before, it was part of DE_AT_LU');
    for (const id of CHARTS) expect(await page.getAttribute(`#${id}`, 'data-points'), id).toBeNull();
    expect(await page.locator('#kpi-table tbody tr').count()).toBe(0);
    expect(await page.textContent('#price-summary')).toBe('');
    await notice.locator('button').click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('from') === '2018-10-01');
    await page.waitForSelector('body[data-state=ready]');
    expect(await notice.textContent()).toBe('');
    expect(await page.inputValue('#range-from')).toBe('2018-10-01');
    await page.goto(`${origin}/?zones=DE_LU&border=ES-%3EFR&range=custom&from=2018-09-20&to=2018-10-07`);
    await page.waitForSelector('body[data-state=error]');
    expect(await page.textContent('#flow-summary')).toBe('');
    await page.locator('#zone-list input[value=FR]').check();
    await page.locator('#zone-list input[value=DE_LU]').uncheck();
    await page.waitForSelector('body[data-state=ready]');
    expect(await notice.textContent()).toBe('');
    for (const id of ['price-summary', 'flow-summary', 'map-summary'])
      expect((await page.textContent(`#${id}`))?.length, id).toBeGreaterThan(0);
    await page.close();
  });

  it('names the API reason of a failed export under its buttons, and clears it when the selection changes', async ({
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const page = await context.newPage();
    open.add(page);
    await page.goto(`${origin}/?zones=DE_LU&range=custom&from=2018-01-01&to=2018-01-07`);
    await page.waitForSelector('body[data-state=error]');
    await page.click('.exports:has(+ #trade-chart) button[data-export=csv]');
    const reason = page.locator('#trade-chart + .export-error');
    await expect.poll(() => reason.textContent()).toContain('DE_LU exists from 2018-10-01');
    expect(await reason.textContent()).not.toMatch(/HTTP|zones\.0/);
    await page.check('input[name=range][value="7"]');
    await expect.poll(() => reason.textContent()).toBe('');
    await page.close();
  });

  it('renders the default view from two GraphQL requests and marks its first render', async ({ skip }) => {
    if (!available) return skip(MISSING);
    const cold = await visit();
    const figures = [await firstRenderMs(cold.page)];
    expect(cold.graphql.filter((o) => o.method === 'POST').length).toBe(2);
    await cold.page.close();
    for (let i = 0; i < WARM_LOADS; i++) {
      const warm = await visit();
      figures.push(await firstRenderMs(warm.page));
      expect(warm.graphql.filter((o) => o.method === 'POST').length).toBe(2);
      await warm.page.close();
    }
    const warm = figures.slice(1).sort((a, b) => a - b);
    const median = warm[Math.floor(warm.length / 2)] ?? Number.NaN;
    console.log(
      `dashboard first render: cold ${Math.round(figures[0] ?? 0)} ms, warm ${warm.map(Math.round).join(', ')} ms (median ${Math.round(median)})`,
    );
    for (const ms of figures) expect(ms).toBeGreaterThan(0);
  });

  it('sends every GraphQL operation, subscriptions included, as a persisted document id without query text', async ({
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const { page, graphql, errors } = await visit();
    await page.waitForSelector('#live[data-live=on]');
    await page.check('input[name=range][value="30"]');
    await page.waitForFunction(
      () =>
        document.body.dataset.state === 'ready' &&
        document.querySelector('#shares-chart')?.getAttribute('data-days') === '30',
    );
    await page.selectOption('#border-select', 'BE->NL');
    await page.locator('#map-hour').fill('0');
    await page.waitForFunction(
      () =>
        document.body.dataset.state === 'ready' &&
        document.querySelector('#flows-chart')?.getAttribute('data-border') === 'BE->NL',
    );
    expect(graphql.filter((o) => o.method === 'GET').length, 'the two subscription streams').toBe(2);
    expect(graphql.length).toBeGreaterThan(6);
    for (const op of graphql) {
      expect(op.documentId, op.method).toMatch(DOCUMENT_ID);
      expect(op.query, op.method).toBeFalsy();
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('loads with no console error and no request leaving the server, and renders every chart with data', async ({
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const { page, errors, hosts } = await visit();
    for (const id of CHARTS) {
      const size = await page.$eval(`#${id} canvas`, (c) => ({
        w: (c as HTMLCanvasElement).width,
        h: (c as HTMLCanvasElement).height,
      }));
      expect(size.w, id).toBeGreaterThan(100);
      expect(size.h, id).toBeGreaterThan(100);
    }
    expect(await attr(page, 'prices-chart', 'zones')).toBe('DE_LU,ES,FR,NL,PL');
    expect(Number(await attr(page, 'prices-chart', 'points'))).toBe(5 * 7 * 24);
    expect(Number(await attr(page, 'heatmap-chart', 'cells'))).toBe(5 * 24);
    expect(Number(await attr(page, 'tomorrow-chart', 'points'))).toBe(5 * 96);
    expect(await page.textContent('#tomorrow-title')).toContain('2025-11-06');
    expect(Number(await attr(page, 'flows-chart', 'points'))).toBeGreaterThan(6 * 24);
    expect(await attr(page, 'flows-chart', 'border')).toBe('DE_LU->FR');
    expect(Number(await attr(page, 'shares-chart', 'days'))).toBe(7);
    expect(await page.locator('#kpi-table tbody tr').count()).toBe(5);
    expect(new URL(page.url()).searchParams.get('zones')).toBe('DE_LU,ES,FR,NL,PL');
    mkdirSync(SCREENSHOTS.output, { recursive: true });
    if (process.env.UPDATE_SCREENSHOTS === '1') await page.screenshot({ path: SCREENSHOTS.docs, fullPage: true });
    await page.screenshot({ path: join(SCREENSHOTS.output, 'dashboard.png'), fullPage: true });
    for (const id of ['prices-chart', 'heatmap-chart', 'flows-chart'])
      await page.hover(`#${id}`, { position: { x: 300, y: 150 } });
    expect(errors).toEqual([]);
    expect([...hosts]).toEqual([new URL(origin).host]);
    await page.close();
  });

  it('changes the data when a zone is toggled by keyboard or pointer, and when the border or the range changes', async ({
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const { page, errors } = await visit();
    const before = await page.textContent('#price-summary');
    await page.focus('#zone-list input[value=FR]');
    await page.keyboard.press('Space');
    await page.waitForFunction(
      () =>
        document.body.dataset.state === 'ready' &&
        document.querySelector('#prices-chart')?.getAttribute('data-zones') === 'DE_LU,ES,NL,PL',
    );
    expect(Number(await attr(page, 'heatmap-chart', 'cells'))).toBe(4 * 24);
    expect(await page.textContent('#price-summary')).not.toBe(before);
    await page.locator('#zone-list').getByLabel('BE', { exact: false }).first().check();
    await page.waitForFunction(
      () =>
        document.body.dataset.state === 'ready' &&
        document.querySelector('#prices-chart')?.getAttribute('data-zones')?.includes('BE'),
    );
    expect(Number(await attr(page, 'prices-chart', 'points'))).toBe(5 * 7 * 24);
    await page.selectOption('#border-select', 'BE->NL');
    await page.waitForFunction(
      () =>
        document.body.dataset.state === 'ready' &&
        document.querySelector('#flows-chart')?.getAttribute('data-border') === 'BE->NL',
    );
    await page.check('input[name=range][value="30"]');
    await page.waitForFunction(
      () =>
        document.body.dataset.state === 'ready' &&
        document.querySelector('#shares-chart')?.getAttribute('data-days') === '30',
    );
    expect(Number(await attr(page, 'prices-chart', 'points')), '30 market days, 26 October of 25 hours').toBe(
      5 * (30 * 24 + 1),
    );
    await page.check('input[name=range][value=custom]');
    await page.fill('#range-from', '2025-11-01');
    await page.fill('#range-to', '2025-11-03');
    await page.waitForFunction(
      () =>
        document.body.dataset.state === 'ready' &&
        document.querySelector('#shares-chart')?.getAttribute('data-days') === '3',
    );
    expect(Number(await attr(page, 'prices-chart', 'points'))).toBe(5 * 3 * 24);
    await page.fill('#range-to', '2025-10-01');
    await expect.poll(() => page.textContent('#range-error')).toContain('must not be before');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("places the map's zone labels apart, on desktop and phone: none covers another label or another zone's marker", async ({
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const { page, errors } = await visit();
    type Rect = { code: string; x0: number; y0: number; x1: number; y1: number };
    const rects = (selector: string) =>
      page.$$eval(selector, (els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return {
            code: e.closest('.zone')?.getAttribute('data-zone') ?? '',
            x0: r.left,
            y0: r.top,
            x1: r.right,
            y1: r.bottom,
          };
        }),
      );
    const hit = (a: Rect, b: Rect) =>
      Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0.5 && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 0.5;
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForFunction((w) => window.innerWidth === w, width);
      const labels = await rects('#map .zone text');
      const markers = await rects('#map .zone circle');
      const [frame] = await rects('#map svg.europe');
      expect(labels.length).toBeGreaterThan(40);
      const clashes: string[] = [];
      for (const l of labels)
        if (l.x0 < frame!.x0 || l.x1 > frame!.x1 || l.y0 < frame!.y0 || l.y1 > frame!.y1)
          clashes.push(`${l.code} label off the map`);
      for (const [i, a] of labels.entries()) {
        for (const b of labels.slice(i + 1)) if (hit(a, b)) clashes.push(`${a.code} label on ${b.code} label`);
        for (const m of markers)
          if (m.code !== a.code && hit(a, m)) clashes.push(`${a.code} label on ${m.code} marker`);
      }
      expect(clashes, `at ${width} px`).toEqual([]);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws every current catalogue zone and border on the map with a label naming its code, zones without data drawn as such', async ({
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const { page, errors } = await visit();
    const zones = await page.$$eval('#map .zone', (gs) =>
      gs.map((g) => ({
        code: g.getAttribute('data-zone'),
        label: g.getAttribute('aria-label'),
        title: g.querySelector('title')?.textContent,
        empty: g.classList.contains('no-data'),
      })),
    );
    const catalogue = (await api('/api/v1/zones')).filter((z) => z.valid_to === null);
    expect(catalogue.length).toBeGreaterThan(40);
    expect(zones.map((z) => z.code).sort()).toEqual(catalogue.map((z) => z.zone).sort());
    for (const z of zones) {
      expect(z.label).toContain(z.code);
      expect(z.title).toBe(z.label);
    }
    const hour = (await page.getAttribute('#map', 'data-hour')) ?? '';
    const prices = await api(
      `/api/v1/prices?datetime_from=${hour}&datetime_to=${new Date(Date.parse(hour) + 3_600_000).toISOString()}&resolution=1H`,
    );
    const priced = new Set(prices.map((p) => p.bidding_zone));
    expect(
      zones
        .filter((z) => !z.empty)
        .map((z) => z.code)
        .sort(),
    ).toEqual([...priced].sort());
    expect(zones.some((z) => z.empty)).toBe(true);
    const borders = await page.$$eval('#map .border', (gs) =>
      gs.map((g) => ({
        key: g.getAttribute('data-border'),
        label: g.getAttribute('aria-label'),
        type: g.getAttribute('data-type'),
      })),
    );
    expect(borders.length).toBe((await api('/api/v1/borders')).filter((b) => b.valid_to === null).length);
    for (const b of borders) expect(b.label).toContain(`${b.key?.split('->')[0]} – ${b.key?.split('->')[1]}`);
    const flows = await api(
      `/api/v1/flows?datetime_from=${hour}&datetime_to=${new Date(Date.parse(hour) + 3_600_000).toISOString()}&resolution=1H`,
    );
    const byBorder = new Map(
      flows.map((f) => [[f.bidding_zone_from, f.bidding_zone_to].sort().join('->'), f.flow_type]),
    );
    for (const b of borders)
      expect(b.type, b.key ?? '').toBe(
        byBorder.has(b.key ?? '') ? String(byBorder.get(b.key ?? '')).toUpperCase() : 'none',
      );
    await page.click('#map .border[data-border="BE->NL"]');
    await page.waitForFunction(
      () =>
        document.body.dataset.state === 'ready' &&
        document.querySelector('#flows-chart')?.getAttribute('data-border') === 'BE->NL',
    );
    expect(new URL(page.url()).searchParams.get('border')).toBe('BE->NL');
    await page.click('#map .zone[data-zone=BE]');
    await page.waitForFunction(
      () =>
        document.body.dataset.state === 'ready' &&
        document.querySelector('#prices-chart')?.getAttribute('data-zones')?.includes('BE'),
    );
    const before = await page.getAttribute('#map', 'data-hour');
    await page.locator('#map-hour').fill('0');
    await page.waitForFunction(
      (b) => document.body.dataset.state === 'ready' && document.querySelector('#map')?.getAttribute('data-hour') !== b,
      before,
    );
    expect(await page.getAttribute('#map', 'data-hour')).toBe('2025-10-29T23:00:00.000Z');
    expect(new URL(page.url()).searchParams.get('t')).toBe('2025-10-29T23:00:00Z');
    expect(errors).toEqual([]);
    await page.close();
  });

  /** What an ECharts chart of the page plots: each series' name, stack and data, and the category data of its axes. */
  const plotted = (page: Page, id: string) =>
    page.evaluate((id) => {
      const echarts = (
        globalThis as unknown as { echarts: { getInstanceByDom(el: Element): { getOption(): unknown } } }
      ).echarts;
      const option = echarts.getInstanceByDom(document.getElementById(id)!).getOption() as {
        series: { name: string; stack?: string; data: unknown[] }[];
        xAxis: { data?: unknown[] }[];
      };
      return {
        series: option.series.map((s) => ({ name: s.name, stack: s.stack ?? null, data: s.data })),
        categories: option.xAxis[0]?.data ?? [],
      };
    }, id);
  const num = (v: unknown) => v as number;
  const extremes = (values: number[]) => [Math.min(...values), Math.max(...values)];

  it("plots the API's numbers in every chart, the table and the map: extremes and every point compared with the API's answer", async ({
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const { page, errors } = await visit('/?zones=DE_LU,ES,FR,NL,PL&border=DE_LU->FR&range=7&res=HOURLY&tz=UTC');
    const range = 'datetime_from=2025-10-30T00:00:00Z&datetime_to=2025-11-06T00:00:00Z';
    const zones = 'zone=DE_LU&zone=ES&zone=FR&zone=NL&zone=PL';

    const prices = await api(`/api/v1/prices?${range}&${zones}&resolution=1H&limit=10000`);
    const priceAt = new Map(
      prices.map((p) => [`${p.bidding_zone}|${Date.parse(String(p.datetime))}`, num(p.price_mwh)]),
    );
    const lines = await plotted(page, 'prices-chart');
    expect(lines.series.map((s) => s.name).sort()).toEqual(['DE_LU', 'ES', 'FR', 'NL', 'PL']);
    for (const s of lines.series) {
      const points = s.data as [number, number][];
      const api = prices.filter((p) => p.bidding_zone === s.name).map((p) => num(p.price_mwh));
      expect(points.length, s.name).toBe(api.length);
      expect(extremes(points.map((p) => p[1])), s.name).toEqual(extremes(api));
      for (const [ms, v] of points)
        expect(v, `${s.name} ${new Date(ms).toISOString()}`).toBe(priceAt.get(`${s.name}|${ms}`));
    }

    const heat = await plotted(page, 'heatmap-chart');
    const cells = heat.series[0]!.data as [number, number, number][];
    const order = ['DE_LU', 'ES', 'FR', 'NL', 'PL'];
    const means = new Map<string, number[]>();
    for (const p of prices) {
      const key = `${new Date(String(p.datetime)).getUTCHours()}|${order.indexOf(String(p.bidding_zone))}`;
      means.set(key, [...(means.get(key) ?? []), num(p.price_mwh)]);
    }
    expect(cells.length).toBe(means.size);
    for (const [h, z, v] of cells) {
      const values = means.get(`${h}|${z}`) ?? [];
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      expect(Math.abs(v - mean), `${order[z]} ${h}h: ${v} for ${mean}`).toBeLessThanOrEqual(0.005 + 1e-9);
    }

    const next = await api(
      `/api/v1/prices?datetime_from=2025-11-06T00:00:00&datetime_to=2025-11-07T00:00:00&tz=Europe/Berlin&${zones}&resolution=native&limit=10000`,
    );
    const tomorrow = await plotted(page, 'tomorrow-chart');
    const nextAt = new Map(next.map((p) => [`${p.bidding_zone}|${Date.parse(String(p.datetime))}`, num(p.price_mwh)]));
    expect(tomorrow.series.flatMap((s) => s.data).length).toBe(next.length);
    for (const s of tomorrow.series) {
      const points = s.data as [number, number][];
      expect(extremes(points.map((p) => p[1])), s.name).toEqual(
        extremes(next.filter((p) => p.bidding_zone === s.name).map((p) => num(p.price_mwh))),
      );
      for (const [ms, v] of points)
        expect(v, `${s.name} ${new Date(ms).toISOString()}`).toBe(nextAt.get(`${s.name}|${ms}`));
    }

    const flows = await api(`/api/v1/flows?${range}&border=DE_LU->FR&resolution=1H&limit=5000`);
    const signed = flows.map((f) => ({
      ms: Date.parse(String(f.datetime)),
      mw: (f.bidding_zone_from === 'DE_LU' ? 1 : -1) * num(f.net_flow_mw),
      type: String(f.flow_type),
    }));
    const bars = await plotted(page, 'flows-chart');
    for (const s of bars.series) expect(s.stack, `${s.name} is not stacked`).toBeNull();
    const drawn = bars.series
      .flatMap((s) =>
        (s.data as [number, number | null][])
          .filter((p) => p[1] !== null)
          .map((p) => ({ ms: p[0], mw: p[1], type: s.name.toLowerCase().replace('-', '_') })),
      )
      .sort((a, b) => a.ms - b.ms);
    expect(drawn).toEqual(signed.sort((a, b) => a.ms - b.ms));
    expect(extremes(drawn.map((d) => d.mw as number))).toEqual(extremes(signed.map((s) => s.mw)));

    const shares = await api(`/api/v1/flow-type-summary?${range}&border=DE_LU->FR&resolution=1D`);
    const shareBars = await plotted(page, 'shares-chart');
    expect(shareBars.categories).toEqual(shares.map((r) => String(r.day).slice(5)));
    for (const s of shareBars.series)
      expect(s.data, s.name).toEqual(shares.map((r) => r[s.name.toLowerCase().replace('-', '_')]));

    const duration = await api(`/api/v1/flow-duration?${range}&border=DE_LU->FR&points=101`);
    expect((await plotted(page, 'duration-chart')).series[0]!.data).toEqual(
      duration.map((r) => [r.percentage, r.flow_mw]),
    );

    const scatter = await api(`/api/v1/flow-price-scatter?${range}&border=DE_LU->FR&flow_bin_mw=100&price_bin=2`);
    const bins = ((await plotted(page, 'scatter-chart')).series[0]!.data as number[][]).map((b) => b.join('|')).sort();
    expect(bins).toEqual(scatter.map((r) => [r.net_flow_mw, r.price_delta, r.count].join('|')).sort());

    const ci = await api(`/api/v1/ci-share?${range}&${zones}&resolution=1D`);
    for (const s of (await plotted(page, 'ci-chart')).series)
      expect(s.data, s.name).toEqual(
        ci
          .filter((r) => r.zone === s.name && num(r.total_hours) > 0)
          .map((r) => [String(r.day).slice(0, 10), r.ci_percentage]),
      );

    const trade = await api(`/api/v1/zone-import-export?${range}&${zones}`);
    const gwh = (mwh: unknown) => Math.round(num(mwh) / 10) / 100;
    const tradeBars = await plotted(page, 'trade-chart');
    expect(tradeBars.categories).toEqual(trade.map((r) => r.zone));
    expect(tradeBars.series.map((s) => [s.name, s.data])).toEqual([
      ['Export', trade.map((r) => gwh(r.export_mwh))],
      ['Import', trade.map((r) => -gwh(r.import_mwh))],
      ['Net export', trade.map((r) => gwh(r.net_export_mwh))],
    ]);

    const kpis = await api(`/api/v1/price-kpis?${range}&${zones}`);
    const columns = ['mean', 'median', 'min', 'max', 'p05', 'p95', 'std', 'peak_mean', 'offpeak_mean'];
    for (const k of kpis) {
      const row = await page.locator(`#kpi-table tbody tr[data-zone=${String(k.bidding_zone)}] td`).allTextContents();
      expect(row, String(k.bidding_zone)).toEqual([
        ...columns.map((c) => num(k[`${c}_price`]).toFixed(2)),
        `${k.negative_hours} / ${k.hours}`,
      ]);
    }

    const hour = (await page.getAttribute('#map', 'data-hour')) ?? '';
    const hourRange = `datetime_from=${hour}&datetime_to=${new Date(Date.parse(hour) + 3_600_000).toISOString()}`;
    const mapPrices = await api(`/api/v1/prices?${hourRange}&resolution=1H&limit=10000`);
    const shown = await page.$$eval('#map .zone', (gs) =>
      gs.map((g) => [g.getAttribute('data-zone'), g.getAttribute('data-price')]),
    );
    const priceOf = new Map(mapPrices.map((p) => [p.bidding_zone, num(p.price_mwh).toFixed(2)]));
    for (const [zone, price] of shown) expect(price, zone ?? '').toBe(priceOf.get(zone ?? '') ?? '');
    const mapFlows = await api(`/api/v1/flows?${hourRange}&resolution=1H&limit=5000`);
    const mwOf = new Map(
      mapFlows.map((f) => [
        [f.bidding_zone_from, f.bidding_zone_to].sort().join('->'),
        String(Math.round(num(f.net_flow_mw))),
      ]),
    );
    const borderMw = await page.$$eval('#map .border', (gs) =>
      gs.map((g) => [g.getAttribute('data-border'), g.getAttribute('data-mw')]),
    );
    expect(borderMw.filter(([, mw]) => mw !== '').length).toBeGreaterThan(10);
    for (const [key, mw] of borderMw) expect(mw, key ?? '').toBe(mwOf.get(key ?? '') ?? '');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('reads market time (CET/CEST) by default: a DST week of 169 hours on wall-clock axes, the slider over exactly its hours, tomorrow the next delivery day', async ({
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const home = await visit('/');
    expect(await home.page.isChecked('input[name=tz][value=market]')).toBe(true);
    expect(await home.page.textContent('#tomorrow-title')).toBe(
      'Tomorrow: delivery day 2025-11-06 (CET/CEST), times in Europe/Berlin',
    );
    await home.page.close();
    const { page, errors } = await visit(
      '/?zones=DE_LU,FR&border=DE_LU->FR&range=custom&from=2025-10-23&to=2025-10-29&res=HOURLY&tz=market',
    );
    const week = 'datetime_from=2025-10-23T00:00:00&datetime_to=2025-10-30T00:00:00&tz=Europe/Berlin';
    const prices = await api(`/api/v1/prices?${week}&zone=DE_LU&zone=FR&resolution=1H&limit=10000`);
    expect(prices.length).toBe(2 * (7 * 24 + 1));
    const berlin = (iso: string) => {
      const p = Object.fromEntries(
        new Intl.DateTimeFormat('en-US', {
          timeZone: 'Europe/Berlin',
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
        })
          .formatToParts(Date.parse(iso))
          .map((x) => [x.type, Number(x.value)]),
      );
      return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!);
    };
    const lines = await plotted(page, 'prices-chart');
    const de = lines.series.find((s) => s.name === 'DE_LU')!.data as [number, number][];
    expect(de[0]).toEqual([
      Date.UTC(2025, 9, 23),
      prices.find(
        (p) => p.bidding_zone === 'DE_LU' && Date.parse(String(p.datetime)) === Date.parse('2025-10-22T22:00:00Z'),
      )?.price_mwh,
    ]);
    const twice = de.filter((p) => p[0] === Date.UTC(2025, 9, 26, 2)).map((p) => p[1]);
    expect(twice, 'the repeated 02:00 of 26 October, CEST then CET').toEqual(
      ['2025-10-26T00:00:00Z', '2025-10-26T01:00:00Z'].map(
        (t) =>
          prices.find((p) => p.bidding_zone === 'DE_LU' && Date.parse(String(p.datetime)) === Date.parse(t))?.price_mwh,
      ),
    );
    expect(de.map((p) => p[0])).toEqual(
      prices.filter((p) => p.bidding_zone === 'DE_LU').map((p) => berlin(String(p.datetime))),
    );
    const cells = (await plotted(page, 'heatmap-chart')).series[0]!.data as [number, number, number][];
    const deAt2 = prices.filter(
      (p) => p.bidding_zone === 'DE_LU' && new Date(berlin(String(p.datetime))).getUTCHours() === 2,
    );
    expect(deAt2.length).toBe(8);
    const mean = deAt2.reduce((a, p) => a + num(p.price_mwh), 0) / deAt2.length;
    expect(Math.abs(cells.find((c) => c[0] === 2 && c[1] === 0)![2] - mean)).toBeLessThanOrEqual(0.005 + 1e-9);
    const bars = await plotted(page, 'flows-chart');
    expect(Math.min(...bars.series.flatMap((s) => (s.data as [number, number | null][]).map((p) => p[0])))).toBe(
      Date.UTC(2025, 9, 23),
    );
    expect(await page.getAttribute('#map-hour', 'max')).toBe('168');
    const slide = async (to: string, hour: string) => {
      await page.locator('#map-hour').fill(to);
      await page.waitForFunction(
        (h) =>
          document.body.dataset.state === 'ready' && document.querySelector('#map')?.getAttribute('data-hour') === h,
        hour,
      );
      return page.textContent('#map-label');
    };
    expect(await slide('0', '2025-10-22T22:00:00.000Z')).toBe('23 Oct 2025, 00:00 Europe/Berlin');
    expect(await slide('168', '2025-10-29T22:00:00.000Z')).toBe('29 Oct 2025, 23:00 Europe/Berlin');
    const tomorrow = await plotted(page, 'tomorrow-chart');
    const first = (series: typeof tomorrow.series) =>
      Math.min(...series.flatMap((s) => (s.data as [number, number][]).map((p) => p[0])));
    expect(first(tomorrow.series)).toBe(Date.UTC(2025, 10, 6));
    expect(tomorrow.series.flatMap((s) => s.data).length).toBe(2 * 96);
    await page.check('input[name=tz][value=UTC]');
    await page.waitForFunction(() => document.querySelector('#tomorrow-title')?.textContent?.endsWith('times in UTC'));
    await page.waitForFunction(() => document.body.dataset.state === 'ready');
    expect(await page.textContent('#tomorrow-title')).toBe(
      'Tomorrow: delivery day 2025-11-06 (CET/CEST), times in UTC',
    );
    expect(first((await plotted(page, 'tomorrow-chart')).series)).toBe(Date.UTC(2025, 10, 5, 23));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('defines each flow class where the map draws it, and flags Core borders as flow-based and groups the borders by stored flows in the list', async ({
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const { page, errors } = await visit();
    const drawn = await page.locator('.map-legend li:not(.lg-price)').allTextContents();
    expect(await page.locator('#class-definitions dt').allTextContents()).toEqual(drawn);
    for (const d of await page.locator('#class-definitions dd').allTextContents()) expect(d.length).toBeGreaterThan(30);
    const label = (key: string) => page.locator(`#border-select option[value="${key}"]`).textContent();
    expect(await label('DE_LU->FR')).toBe('DE_LU – FR (flow-based)');
    expect(await label('ES->FR')).toBe('ES – FR');
    const stored = (await api('/api/v1/borders')).filter((b) => b.valid_to === null);
    const empty = stored.filter((b) => {
      const c = b.coverage as { physical_flows: unknown; scheduled_flows: unknown };
      return c.physical_flows === null && c.scheduled_flows === null;
    });
    expect(empty.length).toBeGreaterThan(0);
    const group = (name: string) =>
      page.$$eval(`#border-select optgroup[label^="${name}"] option`, (os) =>
        os.map((o) => (o as HTMLOptionElement).value),
      );
    expect((await group('No flow data stored')).sort()).toEqual(empty.map((b) => String(b.border)).sort());
    expect((await group('With flow data')).length).toBe(stored.length - empty.length);
    expect(await page.textContent('#flow-summary')).toContain('Core border: capacity is allocated flow-based');
    await page.selectOption('#border-select', 'ES->FR');
    await expect.poll(() => page.textContent('#flows-title')).toBe('Border flows ES – FR');
    expect(await page.textContent('#flow-summary')).not.toContain('flow-based');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the API numbers of the selection in every analytics panel', async ({ skip }) => {
    if (!available) return skip(MISSING);
    const { page, errors } = await visit();
    const range = 'datetime_from=2025-10-30T00:00:00&datetime_to=2025-11-06T00:00:00&tz=Europe/Berlin';
    const kpis = await api(`/api/v1/price-kpis?${range}&zone=DE_LU&zone=FR&zone=NL&zone=ES&zone=PL`);
    for (const k of kpis) {
      const cells = await page.locator(`#kpi-table tbody tr[data-zone=${String(k.bidding_zone)}] td`).allTextContents();
      expect(cells[0]).toBe((k.mean_price as number).toFixed(2));
      expect(cells[2]).toBe((k.min_price as number).toFixed(2));
    }
    const trade = await api(`/api/v1/zone-import-export?${range}&zone=DE_LU&zone=FR&zone=NL&zone=ES&zone=PL`);
    expect(await attr(page, 'trade-chart', 'net')).toBe(
      trade.map((r) => Math.round(r.net_export_mwh as number)).join(','),
    );
    const duration = await api(`/api/v1/flow-duration?${range}&border=DE_LU->FR&points=101`);
    expect(Number(await attr(page, 'duration-chart', 'points'))).toBe(101);
    expect(Number(await attr(page, 'duration-chart', 'max'))).toBe(duration[0]?.flow_mw);
    const flows = await api(`/api/v1/flows?${range}&border=DE_LU->FR&resolution=1H&limit=5000`);
    const assessed = flows.filter((f) => f.flow_type !== 'OUTAGE').length;
    expect(Number(await attr(page, 'scatter-chart', 'hours'))).toBe(assessed);
    const ci = await api(`/api/v1/ci-share?${range}&zone=DE_LU&zone=FR&zone=NL&zone=ES&zone=PL&resolution=1D`);
    expect(Number(await attr(page, 'ci-chart', 'points'))).toBe(ci.filter((r) => (r.total_hours as number) > 0).length);
    expect(Number(await attr(page, 'flows-chart', 'points'))).toBe(flows.length);
    const shares = await api(`/api/v1/flow-type-summary?${range}&border=DE_LU->FR&resolution=1D`);
    expect(Number(await attr(page, 'shares-chart', 'days'))).toBe(shares.length);
    const prices = await api(
      `/api/v1/prices?${range}&zone=DE_LU&zone=FR&zone=NL&zone=ES&zone=PL&resolution=1H&limit=10000`,
    );
    expect(Number(await attr(page, 'prices-chart', 'points'))).toBe(prices.length);
    const tomorrow = await api(
      '/api/v1/prices?datetime_from=2025-11-06T00:00:00&datetime_to=2025-11-07T00:00:00&tz=Europe/Berlin&zone=DE_LU&zone=FR&zone=NL&zone=ES&zone=PL&resolution=native&limit=10000',
    );
    expect(Number(await attr(page, 'tomorrow-chart', 'points'))).toBe(tomorrow.length);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('restores a view from its URL: zones, border, range, 15-minute resolution, local time and the map hour', async ({
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const query =
      '?zones=AL,BE,NL&border=BE->NL&range=custom&from=2025-11-01&to=2025-11-03&res=NATIVE&tz=local&t=2025-11-02T13:00:00Z';
    const { page, errors } = await visit(`/${query}`);
    expect(await page.$$eval('#zone-list input:checked', (is) => is.map((i) => (i as HTMLInputElement).value))).toEqual(
      ['AL', 'BE', 'NL'],
    );
    expect(await page.inputValue('#border-select')).toBe('BE->NL');
    expect(await page.isChecked('input[name=res][value=NATIVE]')).toBe(true);
    expect(await page.isChecked('input[name=tz][value=local]')).toBe(true);
    expect(await page.getAttribute('#map', 'data-hour')).toBe('2025-11-02T13:00:00.000Z');
    expect(await page.textContent('#map-label')).toContain('14:00 Europe/Berlin');
    const local = 'datetime_from=2025-11-01T00:00:00&datetime_to=2025-11-04T00:00:00&tz=Europe/Berlin';
    const nativeOf = (from: string, to: string) =>
      api(
        `/api/v1/prices?datetime_from=${from}&datetime_to=${to}&tz=Europe/Berlin&zone=BE&zone=NL&zone=AL&resolution=native&limit=10000`,
      );
    const native = [
      ...(await nativeOf('2025-11-01T00:00:00', '2025-11-03T00:00:00')),
      ...(await nativeOf('2025-11-03T00:00:00', '2025-11-04T00:00:00')),
    ];
    expect(native.length).toBeGreaterThan(0);
    expect(Number(await attr(page, 'prices-chart', 'points'))).toBe(native.length);
    expect(await page.textContent('#price-summary')).toContain('No prices stored for AL');
    expect(await page.textContent('#kpi-table tbody tr[data-zone=AL]')).toContain('no prices stored');
    const kpis = await api(`/api/v1/price-kpis?${local}&zone=BE`);
    expect(await page.locator('#kpi-table tbody tr[data-zone=BE] td').first().textContent()).toBe(
      (kpis[0]!.mean_price as number).toFixed(2),
    );
    expect(new URLSearchParams(new URL(page.url()).search)).toEqual(new URLSearchParams(query));
    await page.check('input[name=tz][value=UTC]');
    await page.check('input[name=res][value=DAILY]');
    await page.waitForFunction(
      () => document.body.dataset.state === 'ready' && new URL(location.href).searchParams.get('res') === 'DAILY',
    );
    await page.waitForFunction(() => document.querySelector('#prices-chart')?.getAttribute('data-points') === '6');
    expect(new URL(page.url()).searchParams.get('tz')).toBe('UTC');
    const utc = await api(
      '/api/v1/price-kpis?datetime_from=2025-11-01T00:00:00Z&datetime_to=2025-11-04T00:00:00Z&zone=BE',
    );
    expect(utc[0]?.mean_price).not.toBe(kpis[0]?.mean_price);
    await expect
      .poll(() => page.locator('#kpi-table tbody tr[data-zone=BE] td').first().textContent())
      .toBe((utc[0]!.mean_price as number).toFixed(2));
    expect(await page.textContent('#map-label')).toContain('13:00 UTC');
    expect(await page.textContent('#price-summary')).toContain('(UTC)');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('fits a 360 px wide phone screen without horizontal scrolling', async ({ skip }) => {
    if (!available) return skip(MISSING);
    await context.close();
    context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'en-GB', timezoneId: 'UTC' });
    const { page, errors } = await visit();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('fits a 390 px phone screen, every chart and the map drawn at its width, and keeps its screenshot', async ({
    onTestFinished,
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const phone = await browser.newContext({
      viewport: PHONE,
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
      locale: 'en-GB',
      timezoneId: 'UTC',
    });
    onTestFinished(() => phone.close());
    const { page, errors } = await visit('/', phone);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    for (const id of [...CHARTS, 'map']) {
      const box = await page.locator(`#${id}`).boundingBox();
      expect(box?.width, id).toBeGreaterThan(PHONE.width * 0.75);
      expect(box && box.x + box.width, id).toBeLessThanOrEqual(PHONE.width);
    }
    if (process.env.UPDATE_SCREENSHOTS === '1') await page.screenshot({ path: SCREENSHOTS.docsPhone, fullPage: true });
    await page.screenshot({ path: join(SCREENSHOTS.output, 'dashboard-phone.png'), fullPage: true });
    const cards = page.locator('main section');
    for (let i = 0; i < (await cards.count()); i++)
      await cards.nth(i).screenshot({ path: join(SCREENSHOTS.output, `dashboard-phone-${i + 1}.png`) });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('updates the view live when an ingestion commits new prices', async ({ skip }) => {
    if (!available) return skip(MISSING);
    const { page, errors } = await visit();
    await page.waitForSelector('#live[data-live=on]');
    const frRow = () => page.locator('#kpi-table tbody tr[data-zone=FR]').textContent();
    const before = await frRow();
    let fake: FakeUpstream | undefined;
    try {
      fake = await startFakeUpstream();
      fake.serve(key('A44', EIC.FR, EIC.FR), { body: a44(EIC.FR, '2025-11-01T00:00Z', Array(24).fill(9999)) });
      const summary = await ingest(t.db, fakeClient(fake).client, '2025-11-01', '2025-11-02', { zones: ['FR'] });
      expect(summary.completed).toBe(1);
    } finally {
      await fake?.close();
    }
    await page.waitForSelector('#live[data-events]', { timeout: 3_000 });
    await expect.poll(frRow, { timeout: 5_000 }).not.toBe(before);
    expect(await page.textContent('#live')).toMatch(/prices updated at \d\d:\d\d:\d\d UTC/);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('the dashboard in chromium with API_KEY_REQUIRED=true', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const available = existsSync(CHROMIUM);
  const hooks = hooksWhere(available);
  let bundle: BuiltDashboard;
  let server: Server;
  let origin: string;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    if (!available) return;
    bundle = await buildTestDashboard();
  });

  afterAll(() => {
    bundle?.remove();
  });

  const t = blockApp(hooks, {
    config: { API_KEY_REQUIRED: true },
    get dashboardDir() {
      return bundle.dir;
    },
  });

  const served = blockSetup(async () => {
    await browser?.close();
    await new Promise((done) => (server ? server.close(done) : done(undefined)));
  });
  hooks.beforeEach(() =>
    served.run(async () => {
      key = (await createApiKey(t.db, 'dashboard')).key;
      ({ server, origin } = await listen(t));
      browser = await launchChromium();
    }),
  );

  it('asks for a key, keeps it in the browser, sends it as x-api-key and then shows the data, live updates included', async ({
    skip,
  }) => {
    if (!available) return skip(MISSING);
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'en-GB',
      timezoneId: 'UTC',
    });
    const page = await context.newPage();
    await page.goto(origin);
    await page.waitForSelector('body[data-state=key]');
    expect(await page.isVisible('#api-key')).toBe(true);
    const errors: string[] = [];
    const sentKeys = new Set<string | undefined>();
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
    page.on('request', (r) => new URL(r.url()).pathname === '/graphql' && sentKeys.add(r.headers()['x-api-key']));
    await page.fill('#api-key', key);
    await page.press('#api-key', 'Enter');
    await page.waitForSelector('body[data-state=ready]');
    expect(await page.evaluate(() => localStorage.getItem('eumarket.apiKey'))).toBe(key);
    expect(await page.isVisible('#api-key')).toBe(false);
    expect(Number(await page.getAttribute('#prices-chart', 'data-points'))).toBe(5 * 7 * 24);
    await page.waitForSelector('#live[data-live=on]');
    await page.reload();
    await page.waitForSelector('body[data-state=ready]');
    expect([...sentKeys]).toEqual([key]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
