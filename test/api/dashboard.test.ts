import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { ConfigError, testConfig } from '../../src/config.js';
import { useOperationPolicy } from '../../src/graphql/plugins/use-operation-policy.js';
import { schema } from '../../src/graphql/schema/index.js';
import { DASHBOARD_OPERATIONS_FILE } from '../../src/http/paths.js';
import { API_CSP, DASHBOARD_CSP } from '../../src/http/security-headers.js';
import { appOver, blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { type BuiltDashboard, buildTestDashboard } from '../support/dashboard.js';

describe('the dashboard route with a built bundle', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  let bundle: BuiltDashboard;
  beforeAll(async () => {
    bundle = await buildTestDashboard();
  });
  afterAll(() => {
    bundle?.remove();
  });
  // The bundle's folder is read when the app is built, after the bundle above.
  const t = blockApp(it, {
    get dashboardDir() {
      return bundle.dir;
    },
  });

  it('answers / with the page, revalidated on every load, under a CSP that allows only this origin and no inline code', async () => {
    const res = await t.get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).not.toContain('unsafe-inline');
    const page = await res.text();
    expect(page).toMatch(/<script type="module" src="\/dashboard\/main-[A-Z0-9]{8}\.js"><\/script>/);
    expect(page).not.toMatch(/<script>|<style>|style="|https?:\/\//);
    for (const link of ['/graphql', '/api/v1/docs', '/api/v1/openapi.json']) expect(page).toContain(`href="${link}"`);
  });

  it('serves the hashed assets with their content types, cached for a year, and the icon for an hour', async () => {
    const page = await (await t.get('/')).text();
    const js = /src="(\/dashboard\/main-[A-Z0-9]{8}\.js)"/.exec(page)?.[1];
    const css = /href="(\/dashboard\/main-[A-Z0-9]{8}\.css)"/.exec(page)?.[1];
    for (const [path, type] of [
      [js, 'text/javascript; charset=utf-8'],
      [css, 'text/css; charset=utf-8'],
    ] as const) {
      const res = await t.get(path ?? '/missing');
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-security-policy')).toBe(API_CSP);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    const icon = await t.get('/dashboard/favicon.svg');
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('answers /favicon.ico with the icon, public and cacheable, for pages that do not link one', async () => {
    const res = await t.get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await res.text()).toContain('<svg');
  });

  it('answers 404 for names outside the bundle, other methods and path tricks', async () => {
    for (const path of [
      '/dashboard/nope.js',
      '/dashboard/.hidden.js',
      '/dashboard/..%2Fpackage.json',
      '/dashboard/../package.json',
      '/dashboard/sub/main.js',
      '/dashboard/index.html',
      '/dashboard/',
    ]) {
      const res = await t.get(path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not Found' });
    }
    expect((await t.get('/', { method: 'POST', body: '{}' })).status).toBe(404);
    const head = await t.get('/', { method: 'HEAD' });
    expect(head.status).toBe(200);
  });
});

describe("the dashboard's persisted GraphQL documents", () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  let bundle: BuiltDashboard;
  let manifest: Record<string, string>;
  const other = join(mkdtempSync(join(tmpdir(), 'manifest-')), 'clients.json');
  const post = async (body: unknown) => {
    const res = await t.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json()) as { data?: Record<string, unknown>; errors?: { extensions?: { code?: string } }[] },
    };
  };
  beforeAll(async () => {
    bundle = await buildTestDashboard();
    manifest = JSON.parse(readFileSync(join(bundle.dir, DASHBOARD_OPERATIONS_FILE), 'utf8')) as Record<string, string>;
    writeFileSync(other, JSON.stringify({ 'sha256:other': '{ zones { code } }' }));
  });
  afterAll(() => {
    bundle?.remove();
  });
  // The bundle's folder is read when the app is built, after the bundle above.
  const t = blockApp(it, {
    config: { PERSISTED_OPERATIONS_FILE: other, PERSISTED_OPERATIONS_ONLY: true },
    get dashboardDir() {
      return bundle.dir;
    },
  });

  it('ships the manifest beside the bundle, never served, and no query text in the script', async () => {
    expect(Object.keys(manifest).length).toBeGreaterThan(5);
    expect((await t.get(`/dashboard/${DASHBOARD_OPERATIONS_FILE}`)).status).toBe(404);
    const js = bundle.files.find((f) => f.endsWith('.js')) ?? '';
    const script = readFileSync(join(bundle.dir, js), 'utf8');
    for (const [id, text] of Object.entries(manifest)) {
      expect(script).toContain(id);
      expect(script).not.toContain(text.slice(0, 40));
    }
    expect(script).not.toMatch(/query Dashboard|subscription Dashboard/);
  });

  it("runs the dashboard's documents by id beside the configured manifest, with only persisted operations allowed", async () => {
    const catalogue = Object.keys(manifest).find((id) => manifest[id]?.startsWith('query DashboardStart'));
    const ran = await post({ documentId: catalogue });
    expect(ran.status).toBe(200);
    expect(ran.body.data?.['zones']).toBeInstanceOf(Array);
    expect((await post({ documentId: 'sha256:other' })).body.data?.['zones']).toBeInstanceOf(Array);
    const text = await post({ query: manifest[catalogue ?? ''] });
    expect(text.status).toBe(400);
    expect(text.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
  });

  it('refuses to start on a bundle whose documents no longer fit the schema, naming the rebuild', async () => {
    const stale = mkdtempSync(join(tmpdir(), 'eumarket-stale-dashboard-'));
    writeFileSync(
      join(stale, DASHBOARD_OPERATIONS_FILE),
      JSON.stringify({ 'sha256:gone': '{ zones { removedField } }' }),
    );
    try {
      const start = () => useOperationPolicy(testConfig({}), schema, join(stale, DASHBOARD_OPERATIONS_FILE));
      expect(start).toThrow(ConfigError);
      expect(start).toThrow(/dashboard bundle \(rebuild it: npm run build:dashboard\).*removedField/s);
    } finally {
      rmSync(stale, { recursive: true, force: true });
    }
  });
});

describe('the dashboard with API_KEY_REQUIRED=true', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  let bundle: BuiltDashboard;
  beforeAll(async () => {
    bundle = await buildTestDashboard();
  });
  afterAll(() => {
    bundle?.remove();
  });
  // The bundle's folder is read when the app is built, after the bundle above.
  const t = blockApp(it, {
    config: { API_KEY_REQUIRED: true },
    get dashboardDir() {
      return bundle.dir;
    },
  });

  it('serves the page, its assets and the icon without a key, and still answers the API 401 without one', async () => {
    const page = await t.get('/');
    expect(page.status).toBe(200);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/dashboard\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBe(3);
    for (const path of [...assets, '/index.html', '/favicon.ico']) expect((await t.get(path)).status, path).toBe(200);
    expect((await t.get('/api/v1/prices')).status).toBe(401);
    const gql = await t.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(gql.status).toBe(401);
    expect((await t.get('/dashboard/nope.js')).status).toBe(404);
  });
});

describe('the dashboard route without a build', () => {
  it.override({ backend: 'pglite', seed: 'empty' });

  it('answers / with 503 and a short page saying how to build the dashboard', async ({ db }) => {
    const empty = mkdtempSync(join(tmpdir(), 'eumarket-no-dashboard-'));
    const t = await appOver(db, { dashboardDir: join(empty, 'absent') });
    try {
      const res = await t.get('/');
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('npm run build:dashboard');
      expect((await t.get('/dashboard/main-ABCDEFGH.js')).status).toBe(404);
      expect((await t.get('/healthz')).status).toBe(200);
    } finally {
      await t.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
