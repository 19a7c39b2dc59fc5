import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';

interface Detail {
  detail: { loc: string[]; msg: string; type: string }[];
}

describe('a 422 lists every invalid parameter, in the order the endpoint declares them', () => {
  it.override({ backend: 'pglite', seed: 'empty' });
  const t = blockApp(it);

  async function locs(path: string, params: [string, string][]): Promise<string[]> {
    const res = await t.get(`${path}?${new URLSearchParams(params)}`);
    expect(res.status).toBe(422);
    const body = (await res.json()) as Detail;
    return body.detail.map((d) => d.loc.join('.'));
  }

  it('prices: an unknown zone and an unknown tz are both reported', async () => {
    expect(
      await locs('/api/v1/prices', [
        ['zone', 'XX'],
        ['tz', 'bad'],
      ]),
    ).toEqual(['query.zone', 'query.tz']);
  });

  it('prices: a bad datetime, an unknown zone and an unknown tz come in parameter order', async () => {
    expect(
      await locs('/api/v1/prices', [
        ['tz', 'bad'],
        ['zone', 'XX'],
        ['datetime_from', 'yesterday'],
      ]),
    ).toEqual(['query.datetime_from', 'query.zone', 'query.tz']);
  });

  it('prices: a resolution over its cap is reported beside an unknown tz', async () => {
    const got = await locs('/api/v1/prices', [
      ['datetime_from', '2026-01-01T00:00:00Z'],
      ['datetime_to', '2026-02-01T00:00:00Z'],
      ['resolution', 'native'],
      ['tz', 'bad'],
    ]);
    expect(got).toEqual(['query.resolution', 'query.tz']);
  });

  it('flows and flow aggregates: an unknown border and an unknown tz are both reported', async () => {
    expect(
      await locs('/api/v1/flows', [
        ['border', 'XX->FR'],
        ['tz', 'bad'],
      ]),
    ).toEqual(['query.border', 'query.tz']);
    expect(
      await locs('/api/v1/flow-type-summary', [
        ['border', 'XX->FR'],
        ['tz', 'bad'],
      ]),
    ).toEqual(['query.border', 'query.tz']);
    expect(
      await locs('/api/v1/flow-price-scatter', [
        ['border', 'XX->FR'],
        ['tz', 'bad'],
      ]),
    ).toEqual(['query.border', 'query.tz']);
  });

  it('zone aggregates: an unknown zone and an unknown tz are both reported', async () => {
    for (const path of ['/api/v1/ci-share', '/api/v1/price-kpis', '/api/v1/zone-import-export']) {
      expect(
        await locs(path, [
          ['tz', 'bad'],
          ['zone', 'XX'],
        ]),
        path,
      ).toEqual(['query.zone', 'query.tz']);
    }
  });

  it('GraphQL: an unknown timeZone is reported beside an unknown zone and a bad range argument', async () => {
    const res = await t.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: '{ prices(zones: ["XX"], from: "yesterday", timeZone: "Europe/Berln") { totalCount } }',
      }),
    });
    const body = (await res.json()) as {
      errors: { message: string; extensions: { code: string; issues: { param: string }[] } }[];
    };
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]!.extensions.code).toBe('BAD_USER_INPUT');
    expect(body.errors[0]!.extensions.issues.map((i) => i.param).sort()).toEqual(['from', 'timeZone', 'zones.0']);
    expect(body.errors[0]!.message).toContain("timeZone: Unknown time zone 'Europe/Berln'");
  });

  it('GraphQL: an unknown timeZone alone is still a BAD_USER_INPUT on timeZone', async () => {
    const res = await t.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ priceKpis(timeZone: "nowhere") { meta { timeZone } } }' }),
    });
    const body = (await res.json()) as { errors: { extensions: { code: string; issues: { param: string }[] } }[] };
    expect(body.errors[0]!.extensions.issues.map((i) => i.param)).toEqual(['timeZone']);
  });
});
