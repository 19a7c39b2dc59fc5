import { describe, expect } from 'vitest';
import { z } from 'zod';
import { EXPORTS } from '../../src/rest/export/endpoints.js';
import { ENDPOINTS } from '../../src/rest/endpoints/index.js';
import { MetaSchema } from '../../src/rest/schemas.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

describe('the OpenAPI document and the reference page', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const t = blockApp(it);

  it('describes every endpoint at version 1.0.0 with its parameters', async () => {
    const doc = (await (await t.get('/api/v1/openapi.json')).json()) as any;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(Object.keys(doc.paths).sort()).toEqual([...ENDPOINTS, ...EXPORTS].map((e) => e.path).sort());
    const params = doc.paths['/api/v1/flows'].get.parameters.map((p: any) => p.name);
    expect(params).toEqual([
      'datetime_from',
      'datetime_to',
      'resolution',
      'border',
      'zone',
      'flow_type',
      'limit',
      'offset',
      'tz',
      'format',
    ]);
    expect(doc.components.schemas.PriceRow.additionalProperties).toBe(false);
    expect(doc.paths['/api/v1/prices'].get.responses['422'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/HTTPValidationError',
    );
  });

  it.each(ENDPOINTS.map((e) => [e.path, e] as const))(
    '%s answers with rows its published schema accepts',
    async (path, endpoint) => {
      const res = await t.get(`${path}?datetime_from=2025-10-20&datetime_to=2025-10-22`);
      expect(res.status).toBe(200);
      const body = await res.json();
      const envelope = z.object({ meta: MetaSchema, data: z.array(endpoint.row) }).strict();
      const parsed = envelope.safeParse(body);
      expect(parsed.success, JSON.stringify(parsed.error?.issues?.slice(0, 3))).toBe(true);
      expect((body as any).data.length).toBeGreaterThan(0);
    },
  );

  it('serves the reference page and its assets from the installed package, and GraphiQL without a CDN', async () => {
    const page = await (await t.get('/api/v1/docs')).text();
    expect(page).toContain('docs/swagger-ui-bundle.js');
    expect(page).not.toMatch(/https?:\/\//);
    expect(page).toContain('persistAuthorization: true');
    const asset = await t.get('/api/v1/docs/swagger-ui-bundle.js');
    expect(asset.status).toBe(200);
    expect((await asset.text()).length).toBeGreaterThan(100_000);
    const graphiql = await (await t.get('/graphql', { headers: { accept: 'text/html' } })).text();
    expect(graphiql).toContain('YogaGraphiQL');
    expect(graphiql).not.toMatch(/<(script|link)[^>]+(src|href)="https?:\/\//);
  });

  it('links the reference page to the server icon, so the browser asks for no other favicon', async () => {
    const page = await (await t.get('/api/v1/docs')).text();
    expect(page).toContain('<link rel="icon" href="/favicon.ico" type="image/svg+xml" />');
  });

  it('does not claim every datetime is UTC: rows under tz carry the local offset', async () => {
    const doc = (await (await t.get('/api/v1/openapi.json')).json()) as any;
    expect(doc.info.description).not.toContain('All datetimes are UTC');
    expect(doc.info.description).toMatch(/UTC unless `tz`/);
  });

  it.each(['/api/v1/docs', '/api/v1/docs/'])(
    'resolves every asset of the reference page requested as %s',
    async (pagePath) => {
      const res = await t.get(pagePath);
      expect(res.status).toBe(200);
      const page = await res.text();
      const refs = [...page.matchAll(/(?:href|src)="([^"]+)"|url: '([^']+)'/g)].map((m) => m[1] ?? m[2] ?? '');
      expect(refs).toHaveLength(4);
      for (const ref of refs) {
        const url = new URL(ref, `http://test${pagePath}`);
        const asset = await t.get(url.pathname);
        expect(asset.status, `${ref} from ${pagePath}`).toBe(200);
      }
    },
  );

  it('answers health and readiness', async () => {
    expect((await t.get('/healthz')).status).toBe(200);
    const ready = await t.get('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready' });
  });
});
