import { describe, expect } from 'vitest';
import { graphql } from '../gql/index.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

const ZonedPrices = graphql(`
  query ZonedPrices($zones: [String!], $from: String, $to: String, $resolution: Resolution, $timeZone: String) {
    prices(zones: $zones, from: $from, to: $to, resolution: $resolution, timeZone: $timeZone, first: 1000) {
      meta { timeZone }
      edges { node { datetime biddingZone priceEurMwh interpolated year } }
    }
  }
`);

const ZonedFlows = graphql(`
  query ZonedFlows($borders: [String!], $from: String, $to: String, $resolution: Resolution, $timeZone: String) {
    flows(borders: $borders, from: $from, to: $to, resolution: $resolution, timeZone: $timeZone, first: 1000) {
      meta { timeZone }
      edges { node { datetime biddingZoneFrom biddingZoneTo flowType netFlowMw hours } }
    }
  }
`);

interface RestPrice {
  datetime: string;
  bidding_zone: string;
  price_mwh: number;
  interpolated: boolean;
  year: number;
}
interface RestFlow {
  datetime: string;
  bidding_zone_from: string;
  bidding_zone_to: string;
  flow_type: string;
  net_flow_mw: number;
  hours: number;
}

const OFFSET_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

describe.each(TEST_BACKENDS)('GraphQL timeZone on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it, { config: { RATE_LIMIT_CAPACITY: 10_000 } });

  async function rest<R>(
    path: string,
    params: Record<string, string | string[]>,
  ): Promise<{ meta: Record<string, unknown>; data: R[] }> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) for (const x of [v].flat()) qs.append(k, x);
    const res = await t.get(`${path}?${qs}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as { meta: Record<string, unknown>; data: R[] };
  }

  it('writes daily Berlin prices across the autumn switch as REST tz does, field by field', async () => {
    const range = { from: '2025-10-25', to: '2025-10-28' };
    const r = await rest<RestPrice>('/api/v1/prices', {
      zone: ['DE_LU', 'FR'],
      datetime_from: range.from,
      datetime_to: range.to,
      resolution: '1D',
      tz: 'Europe/Berlin',
    });
    const g = await t.graphql(ZonedPrices, {
      zones: ['DE_LU', 'FR'],
      ...range,
      resolution: 'DAILY',
      timeZone: 'Europe/Berlin',
    });
    expect(g.errors).toBeUndefined();
    const rows = g.data!.prices.edges.map((e) => e.node);
    expect(rows.length).toBeGreaterThan(0);
    expect(
      rows.map((n) => ({
        datetime: n.datetime,
        bidding_zone: n.biddingZone,
        price_mwh: n.priceEurMwh,
        interpolated: n.interpolated,
        year: n.year,
      })),
    ).toEqual(r.data);
    expect(rows.map((n) => n.datetime)).toContain('2025-10-26T00:00:00+02:00');
    expect(rows.map((n) => n.datetime)).toContain('2025-10-27T00:00:00+01:00');
    expect(g.data!.prices.meta.timeZone).toBe('Europe/Berlin');
  });

  it('writes flows under local in the time zone of each border, as REST does', async () => {
    const params = { borders: ['FR->ES', 'DE_LU->PL'], from: '2025-10-25T00:00:00Z', to: '2025-10-28T00:00:00Z' };
    const r = await rest<RestFlow>('/api/v1/flows', {
      border: params.borders,
      datetime_from: params.from,
      datetime_to: params.to,
      resolution: '1D',
      tz: 'local',
      limit: '1000',
    });
    const g = await t.graphql(ZonedFlows, { ...params, resolution: 'DAILY', timeZone: 'local' });
    expect(g.errors).toBeUndefined();
    const rows = g.data!.flows.edges.map((e) => e.node);
    expect(rows.length).toBeGreaterThan(0);
    for (const n of rows) expect(n.datetime).toMatch(OFFSET_TEXT);
    expect(
      rows.map((n) => ({
        datetime: n.datetime,
        bidding_zone_from: n.biddingZoneFrom,
        bidding_zone_to: n.biddingZoneTo,
        flow_type: n.flowType.toLowerCase(),
        net_flow_mw: n.netFlowMw,
        hours: n.hours,
      })),
    ).toEqual(
      r.data.map((x) => ({
        datetime: x.datetime,
        bidding_zone_from: x.bidding_zone_from,
        bidding_zone_to: x.bidding_zone_to,
        flow_type: x.flow_type,
        net_flow_mw: x.net_flow_mw,
        hours: x.hours,
      })),
    );
    expect(g.data!.flows.meta.timeZone).toBe('local');
  });

  it('refuses an unknown zone with BAD_USER_INPUT naming timeZone and a suggestion', async () => {
    const g = await t.graphql(ZonedPrices, {
      zones: ['DE_LU'],
      from: '2025-10-25',
      to: '2025-10-28',
      resolution: 'DAILY',
      timeZone: 'Europe/Berln',
    });
    expect(g.data?.prices ?? null).toBeNull();
    const err = g.errors![0]!;
    expect(err.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(err)).toContain('timeZone');
    expect(err.message).toContain('Europe/Berlin');
  });

  it('leaves the output unchanged without timeZone: UTC instants with Z and a null meta.timeZone', async () => {
    const range = { from: '2025-10-25', to: '2025-10-28' };
    const r = await rest<RestPrice>('/api/v1/prices', {
      zone: 'DE_LU',
      datetime_from: range.from,
      datetime_to: range.to,
      resolution: '1D',
    });
    const g = await t.graphql(ZonedPrices, { zones: ['DE_LU'], ...range, resolution: 'DAILY' });
    expect(g.errors).toBeUndefined();
    const rows = g.data!.prices.edges.map((e) => e.node);
    expect(rows.map((n) => n.datetime)).toEqual([
      '2025-10-25T00:00:00Z',
      '2025-10-26T00:00:00Z',
      '2025-10-27T00:00:00Z',
    ]);
    expect(rows.map((n) => n.priceEurMwh)).toEqual(r.data.map((x) => x.price_mwh));
    expect(g.data!.prices.meta.timeZone).toBeNull();
  });
});

const ZonedCiShare = graphql(`
  query ZonedCiShare($zones: [String!], $from: String, $to: String, $timeZone: String) {
    ciShare(zones: $zones, from: $from, to: $to, resolution: DAILY, timeZone: $timeZone) {
      meta { timeZone }
      rows { day biddingZone ciHours totalHours }
    }
  }
`);

describe.each(TEST_BACKENDS)('GraphQL timeZone on aggregates on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it, { config: { RATE_LIMIT_CAPACITY: 10_000 } });

  it('writes ci-share buckets of Helsinki days with their offset, as REST tz does', async () => {
    const range = { from: '2025-10-25', to: '2025-10-28' };
    const res = await t.get(
      `/api/v1/ci-share?zone=FI&datetime_from=${range.from}&datetime_to=${range.to}&resolution=1D&tz=Europe/Helsinki`,
    );
    expect(res.status).toBe(200);
    const r = (await res.json()) as { data: { day: string; zone: string; ci_hours: number; total_hours: number }[] };
    const g = await t.graphql(ZonedCiShare, { zones: ['FI'], ...range, timeZone: 'europe/helsinki' });
    expect(g.errors).toBeUndefined();
    expect(g.data!.ciShare.rows.map((x) => x.day)).toEqual([
      '2025-10-25T00:00:00+03:00',
      '2025-10-26T00:00:00+03:00',
      '2025-10-27T00:00:00+02:00',
    ]);
    expect(g.data!.ciShare.rows.map((x) => [x.day, x.biddingZone, x.ciHours, x.totalHours])).toEqual(
      r.data.map((x) => [x.day, x.zone, x.ci_hours, x.total_hours]),
    );
    expect(g.data!.ciShare.meta.timeZone).toBe('Europe/Helsinki');
  });

  it('bins the scatter of local days under timeZone, as REST tz does', async () => {
    const res = await t.get(
      '/api/v1/flow-price-scatter?border=DE_LU->FR&datetime_from=2025-10-20&datetime_to=2025-10-28&resolution=1D&tz=America/New_York',
    );
    expect(res.status).toBe(200);
    const r = (await res.json()) as {
      meta: { time_zone: string };
      data: { net_flow_mw: number; price_delta: number; count: number }[];
    };
    const utc = (await (
      await t.get(
        '/api/v1/flow-price-scatter?border=DE_LU->FR&datetime_from=2025-10-20&datetime_to=2025-10-28&resolution=1D',
      )
    ).json()) as { data: unknown[] };
    expect(r.data).not.toEqual(utc.data);
    const query =
      '{ flowPriceScatter(borders: ["DE_LU->FR"], from: "2025-10-20", to: "2025-10-28", resolution: DAILY, timeZone: "America/New_York") { meta { timeZone } rows { netFlowMw priceDeltaEurMwh count } } }';
    const g = (await (
      await t.get('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      })
    ).json()) as {
      errors?: unknown[];
      data: {
        flowPriceScatter: {
          meta: { timeZone: string };
          rows: { netFlowMw: number; priceDeltaEurMwh: number; count: number }[];
        };
      };
    };
    expect(g.errors).toBeUndefined();
    expect(g.data.flowPriceScatter.meta.timeZone).toBe(r.meta.time_zone);
    expect(g.data.flowPriceScatter.rows.map((x) => [x.netFlowMw, x.priceDeltaEurMwh, x.count])).toEqual(
      r.data.map((x) => [x.net_flow_mw, x.price_delta, x.count]),
    );
  });
});
