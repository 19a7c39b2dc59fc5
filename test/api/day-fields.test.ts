import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

interface Body {
  meta: { resolution: string };
  data: { day: string; zone?: string }[];
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:00:00(\.000)?Z$/;
const HOUR = 3_600_000;

/** `count` UTC instants from `start`, `stepMs` apart, as epoch ms. */
const instants = (start: string, count: number, stepMs: number) =>
  Array.from({ length: count }, (_, i) => Date.parse(start) + i * stepMs);

describe('the day field of ci-share (a date-time) and of flow-type-summary (a date)', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const t = blockApp(it);

  const get = async (path: string) => {
    const res = await t.get(path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as Body;
  };

  it('gives ci-share buckets at native resolution as hourly UTC instants', async () => {
    const body = await get(
      '/api/v1/ci-share?zone=DE_LU&datetime_from=2025-11-03&datetime_to=2025-11-04&resolution=native',
    );
    expect(body.meta.resolution).toBe('native');
    for (const r of body.data) expect(r.day).toMatch(INSTANT);
    expect(body.data.map((r) => Date.parse(r.day))).toEqual(instants('2025-11-03T00:00:00Z', 24, HOUR));
  });

  it('gives ci-share buckets at 1D as midnight UTC instants, still date-times', async () => {
    const body = await get('/api/v1/ci-share?zone=DE_LU&datetime_from=2025-10-27&datetime_to=2025-11-03&resolution=1D');
    for (const r of body.data) expect(r.day).toMatch(/T00:00:00(\.000)?Z$/);
    expect(body.data.map((r) => Date.parse(r.day))).toEqual(instants('2025-10-27T00:00:00Z', 7, 24 * HOUR));
  });

  it('gives flow-type-summary days as calendar dates, also when native is asked for', async () => {
    const body = await get(
      '/api/v1/flow-type-summary?border=DE_LU->FR&datetime_from=2025-11-01&datetime_to=2025-11-03&resolution=native',
    );
    expect(body.meta.resolution).toBe('1D');
    expect(body.data.map((r) => r.day)).toEqual(['2025-11-01', '2025-11-02']);
  });

  it('publishes the two formats, and the difference, in the OpenAPI document', async () => {
    const doc = (await (await t.get('/api/v1/openapi.json')).json()) as {
      components: {
        schemas: Record<string, { properties: Record<string, { format?: string; description?: string }> }>;
      };
    };
    const ci = doc.components.schemas.ZoneCiShareRow!.properties.day!;
    const summary = doc.components.schemas.BorderFlowSummaryRow!.properties.day!;
    expect([ci.format, summary.format]).toEqual(['date-time', 'date']);
    expect(ci.description).toMatch(/the hour at native and 1H resolution/);
    expect(ci.description).toMatch(/calendar date `day` of flow-type-summary/);
    expect(summary.description).toMatch(/`day` of ci-share rows is a date-time/);
  });
});
