import { describe, expect } from 'vitest';
import { BORDERS, ZONES } from '../../src/domain/catalogue.js';
import { readCatalogue } from '../../src/repositories/catalogue/catalogue.js';
import { loadPrices, type PricePointRow } from '../../src/repositories/ingest/load.js';
import { graphql } from '../gql/index.js';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

const HOUR = 3_600_000;
/** 2018-10-01 00:00 Europe/Berlin: DE-AT-LU became DE-LU and AT. */
const SPLIT = Date.UTC(2018, 8, 30, 22);

/**
 * The hand-built data: DE_AT_LU's Berlin day 2018-09-30 (24 hours before the split, 10 + i EUR/MWh
 * in hour i) and DE_LU's Berlin day 2018-10-01 (24 hours after it, 100 + i EUR/MWh).
 */
const AT_LU = Array.from({ length: 24 }, (_, i) => ({ ts: SPLIT - (24 - i) * HOUR, price: 10 + i }));
const DE_LU = Array.from({ length: 24 }, (_, i) => ({ ts: SPLIT + i * HOUR, price: 100 + i }));

const DE_LU_BEFORE =
  'DE_LU exists from 2018-10-01T00:00:00+02:00 (2018-09-30T22:00:00Z); before, Germany-Luxembourg was in DE_AT_LU: ask DE_AT_LU for earlier periods or set lineage=true';
const DE_AT_LU_AFTER =
  'DE_AT_LU exists until 2018-10-01T00:00:00+02:00 (2018-09-30T22:00:00Z); after, DE_LU and AT replaced it: ask DE_LU or AT for later periods';

const PricesQuery = graphql(`
  query HistoryPrices($zones: [String!], $from: String, $to: String, $resolution: Resolution, $lineage: Boolean!, $first: Int, $after: String) {
    prices(zones: $zones, from: $from, to: $to, resolution: $resolution, lineage: $lineage, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { datetime biddingZone series priceEurMwh } }
    }
  }
`);

const KpisQuery = graphql(`
  query HistoryKpis($zones: [String!], $from: String, $to: String, $lineage: Boolean!) {
    priceKpis(zones: $zones, from: $from, to: $to, lineage: $lineage) {
      rows { biddingZone seriesZones meanPrice minPrice maxPrice stdPrice p05Price medianPrice p95Price peakMeanPrice offpeakMeanPrice hours negativeHours }
    }
  }
`);

const CatalogueQuery = graphql(`
  query HistoryCatalogue {
    zones(zones: ["DE_AT_LU", "DE_LU"]) { code validFrom validTo predecessors successors }
    borders(borders: ["FR->DE_AT_LU", "AT->DE_LU"]) { key validFrom validTo }
  }
`);

interface Detail {
  detail: { loc: string[]; msg: string; type: string }[];
}

describe.each(TEST_BACKENDS)('zones that changed, on %s', (backend) => {
  it.override({ backend, seed: 'empty' });
  const t = blockApp(it);
  const get = async (path: string) => {
    const res = await t.get(path);
    return { status: res.status, body: (await res.json()) as any };
  };

  const loaded = blockSetup();
  it.beforeEach(() =>
    loaded.run(async () => {
      const catalogue = await readCatalogue(t.db);
      const row = (code: string) => (p: { ts: number; price: number }) =>
        ({
          zoneId: catalogue.zone(code)!.id,
          ts: new Date(p.ts),
          periodMinutes: 60,
          priceEurMwh: p.price,
          interpolated: false,
          source: 'entsoe',
        }) satisfies PricePointRow;
      await loadPrices(t.db, [...AT_LU.map(row('DE_AT_LU')), ...DE_LU.map(row('DE_LU'))]);
    }),
  );

  describe('the catalogue', () => {
    it('lists the historical zones beside the current ones, each with its period, by code and by EIC', async () => {
      const all = await get('/api/v1/zones');
      expect(all.body.data).toHaveLength(ZONES.length);
      const byCode = new Map(all.body.data.map((z: any) => [z.zone, z]));
      expect(byCode.get('DE_AT_LU')).toMatchObject({
        eic: '10Y1001A1001A63L',
        valid_from: null,
        valid_to: '2018-09-30T22:00:00Z',
        predecessors: [],
        successors: ['DE_LU', 'AT'],
      });
      expect(byCode.get('DE_LU')).toMatchObject({
        valid_from: '2018-09-30T22:00:00Z',
        valid_to: null,
        predecessors: ['DE_AT_LU'],
        successors: [],
      });
      expect(byCode.get('FR')).toMatchObject({ valid_from: null, valid_to: null, predecessors: [], successors: [] });
      expect(byCode.get('IT_CALA')).toMatchObject({ valid_from: '2020-12-31T23:00:00Z', predecessors: ['IT_ROSN'] });
      const byEic = await get('/api/v1/zones?zone=10Y1001A1001A63L');
      expect(byEic.body.data.map((z: any) => z.zone)).toEqual(['DE_AT_LU']);
      expect((byCode.get('DE_AT_LU') as any).neighbours).toContain('FR');
    });

    it('gives each border the period in which both of its zones exist', async () => {
      const { body } = await get('/api/v1/borders');
      expect(body.data).toHaveLength(BORDERS.length);
      const byKey = new Map(body.data.map((b: any) => [b.border, b]));
      expect(byKey.get('DE_AT_LU->FR')).toMatchObject({ valid_from: null, valid_to: '2018-09-30T22:00:00Z' });
      expect(byKey.get('AT->DE_LU')).toMatchObject({ valid_from: '2018-09-30T22:00:00Z', valid_to: null });
      expect(byKey.get('DE_LU->FR')).toMatchObject({ valid_from: '2018-09-30T22:00:00Z', valid_to: null });
      expect(byKey.get('FR->ES') ?? byKey.get('ES->FR')).toMatchObject({ valid_from: null, valid_to: null });
    });

    it('answers the same periods through GraphQL', async () => {
      const { data } = await t.graphql(CatalogueQuery);
      expect(data?.zones).toEqual([
        {
          code: 'DE_AT_LU',
          validFrom: null,
          validTo: '2018-09-30T22:00:00Z',
          predecessors: [],
          successors: ['DE_LU', 'AT'],
        },
        {
          code: 'DE_LU',
          validFrom: '2018-09-30T22:00:00Z',
          validTo: null,
          predecessors: ['DE_AT_LU'],
          successors: [],
        },
      ]);
      expect(data?.borders).toEqual([
        { key: 'AT->DE_LU', validFrom: '2018-09-30T22:00:00Z', validTo: null },
        { key: 'DE_AT_LU->FR', validFrom: null, validTo: '2018-09-30T22:00:00Z' },
      ]);
    });
  });

  describe('a named zone or border outside its period', () => {
    it('is a 422 naming the period and the zone before it: DE_LU before October 2018', async () => {
      const { status, body } = await get('/api/v1/prices?zone=DE_LU&datetime_from=2018-09-01&datetime_to=2018-09-15');
      expect(status).toBe(422);
      expect((body as Detail).detail).toMatchObject([
        { loc: ['query', 'zone'], msg: DE_LU_BEFORE, type: 'value_error' },
      ]);
    });

    it('is a 422 naming the zones after it: DE_AT_LU after September 2018', async () => {
      const { status, body } = await get(
        '/api/v1/prices?zone=DE_AT_LU&datetime_from=2018-10-05&datetime_to=2018-10-06',
      );
      expect(status).toBe(422);
      expect((body as Detail).detail[0]?.msg).toBe(DE_AT_LU_AFTER);
    });

    it('is a 422 for a range straddling the split, on either zone', async () => {
      const range = 'datetime_from=2018-09-30T12:00Z&datetime_to=2018-10-01T12:00Z';
      const de = await get(`/api/v1/prices?zone=DE_LU&${range}`);
      expect([de.status, de.body.detail[0].msg]).toEqual([422, DE_LU_BEFORE]);
      const old = await get(`/api/v1/prices?zone=DE_AT_LU&${range}`);
      expect([old.status, old.body.detail[0].msg]).toEqual([422, DE_AT_LU_AFTER]);
      const inside = await get(
        '/api/v1/prices?zone=DE_LU&datetime_from=2018-09-30T22:00Z&datetime_to=2018-10-01T12:00Z',
      );
      expect(inside.status).toBe(200);
    });

    it('is a 422 on every endpoint taking zones or borders, and no zone named answers what exists', async () => {
      const range = 'datetime_from=2018-09-01&datetime_to=2018-09-15';
      const cases: [string, string][] = [
        [`/api/v1/price-kpis?zone=DE_LU&${range}`, 'zone'],
        [`/api/v1/zone-import-export?zone=DE_LU&${range}`, 'zone'],
        [`/api/v1/ci-share?zone=DE_LU&${range}`, 'zone'],
        [`/api/v1/flows?zone=DE_LU&${range}`, 'zone'],
        [`/api/v1/flows?border=DE_LU-%3EFR&${range}`, 'border'],
        [`/api/v1/flow-type-summary?border=DE_LU-%3EFR&${range}`, 'border'],
        [`/api/v1/flow-price-scatter?border=DE_LU-%3EFR&${range}`, 'border'],
        [`/api/v1/flow-duration?border=DE_LU-%3EFR&${range}`, 'border'],
        [`/api/v1/flow-duration?zone=DE_LU&${range}`, 'zone'],
      ];
      for (const [path, param] of cases) {
        const { status, body } = await get(path);
        expect([path, status, body.detail?.[0]?.loc]).toEqual([path, 422, ['query', param]]);
      }
      const border = await get(`/api/v1/flows?border=DE_LU-%3EFR&${range}`);
      expect(border.body.detail[0].msg).toBe(
        'DE_LU->FR exists from 2018-10-01T00:00:00+02:00 (2018-09-30T22:00:00Z), while both zones do; before, ask DE_AT_LU->FR for earlier periods',
      );
      const all = await get('/api/v1/prices?datetime_from=2018-09-29&datetime_to=2018-10-02&resolution=1D');
      expect(all.status).toBe(200);
      expect(all.body.data.map((r: any) => [r.bidding_zone, 'series' in r])).toEqual([
        ['DE_AT_LU', false],
        ['DE_AT_LU', false],
        ['DE_LU', false],
        ['DE_LU', false],
      ]);
    });

    it('is the same error through GraphQL', async () => {
      const res = await t.graphql(PricesQuery, {
        zones: ['DE_LU'],
        from: '2018-09-01',
        to: '2018-09-15',
        lineage: false,
      });
      expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(res.errors?.[0]?.message).toBe(`zones.0: ${DE_LU_BEFORE} (got "DE_LU")`);
    });
  });

  describe('lineage', () => {
    it('answers DE_LU with DE_AT_LU before the split and DE_LU after, each row marked with its zone', async () => {
      const { status, body } = await get(
        '/api/v1/prices?zone=DE_LU&lineage=true&datetime_from=2018-09-30T20:00Z&datetime_to=2018-10-01T00:00Z&resolution=1H',
      );
      expect(status).toBe(200);
      expect(body.data.map((r: any) => [r.datetime, r.bidding_zone, r.series, r.price_mwh])).toEqual([
        ['2018-09-30T20:00:00Z', 'DE_AT_LU', 'DE_LU', 32],
        ['2018-09-30T21:00:00Z', 'DE_AT_LU', 'DE_LU', 33],
        ['2018-09-30T22:00:00Z', 'DE_LU', 'DE_LU', 100],
        ['2018-09-30T23:00:00Z', 'DE_LU', 'DE_LU', 101],
      ]);
    });

    it('never merges a bucket the split cuts: a UTC day gives one row per zone, a Berlin day one zone', async () => {
      const utc = await get(
        '/api/v1/prices?zone=DE_LU&lineage=true&datetime_from=2018-09-29&datetime_to=2018-10-02&resolution=1D',
      );
      expect(utc.body.data.map((r: any) => [r.datetime, r.bidding_zone, r.series, r.price_mwh])).toEqual([
        ['2018-09-29T00:00:00Z', 'DE_AT_LU', 'DE_LU', 10.5],
        ['2018-09-30T00:00:00Z', 'DE_AT_LU', 'DE_LU', 22.5],
        ['2018-09-30T00:00:00Z', 'DE_LU', 'DE_LU', 100.5],
        ['2018-10-01T00:00:00Z', 'DE_LU', 'DE_LU', 112.5],
      ]);
      const local = await get(
        '/api/v1/prices?zone=DE_LU&lineage=true&datetime_from=2018-09-30&datetime_to=2018-10-02&resolution=1D&tz=Europe/Berlin',
      );
      expect(local.body.data.map((r: any) => [r.datetime, r.bidding_zone, r.price_mwh])).toEqual([
        ['2018-09-30T00:00:00+02:00', 'DE_AT_LU', 21.5],
        ['2018-10-01T00:00:00+02:00', 'DE_LU', 111.5],
      ]);
    });

    it('chains DE_AT_LU for AT too, each series keeping its own rows, ordered by datetime then series', async () => {
      const { body } = await get(
        '/api/v1/prices?zone=DE_LU&zone=AT&lineage=true&datetime_from=2018-09-30T21:00Z&datetime_to=2018-09-30T23:00Z&resolution=1H',
      );
      expect(body.data.map((r: any) => [r.datetime, r.series, r.bidding_zone, r.price_mwh])).toEqual([
        ['2018-09-30T21:00:00Z', 'AT', 'DE_AT_LU', 33],
        ['2018-09-30T21:00:00Z', 'DE_LU', 'DE_AT_LU', 33],
        ['2018-09-30T22:00:00Z', 'DE_LU', 'DE_LU', 100],
      ]);
    });

    it('leaves rows without lineage with exactly the five fields of the contract (no series)', async () => {
      const { body } = await get(
        '/api/v1/prices?zone=DE_LU&datetime_from=2018-09-30T22:00Z&datetime_to=2018-09-30T23:00Z&resolution=1H',
      );
      expect(body.data).toEqual([
        {
          datetime: '2018-09-30T22:00:00Z',
          bidding_zone: 'DE_LU',
          price_mwh: 100,
          interpolated: false,
          year: 2018,
        },
      ]);
    });

    it('pages the same rows through GraphQL, one row a page', async () => {
      const rest = await get(
        '/api/v1/prices?zone=DE_LU&zone=AT&lineage=true&datetime_from=2018-09-29&datetime_to=2018-10-02&resolution=1D',
      );
      const want = rest.body.data.map((r: any) => [r.datetime, r.bidding_zone, r.series, r.price_mwh]);
      const got: unknown[] = [];
      let after: string | undefined;
      let total = -1;
      for (let i = 0; i < 20; i++) {
        const res = await t.graphql(PricesQuery, {
          zones: ['DE_LU', 'AT'],
          from: '2018-09-29',
          to: '2018-10-02',
          resolution: 'DAILY',
          lineage: true,
          first: 1,
          after,
        });
        const conn = res.data!.prices;
        total = conn.totalCount;
        for (const e of conn.edges) {
          got.push([e.node.datetime.replace('.000Z', 'Z'), e.node.biddingZone, e.node.series, e.node.priceEurMwh]);
        }
        if (!conn.pageInfo.hasNextPage) break;
        after = conn.pageInfo.endCursor ?? undefined;
      }
      expect(want).toHaveLength(6);
      expect(got).toEqual(want);
      expect(total).toBe(6);
    });

    it('refuses basis=native for a lineage series that chains another zone, naming both ways out', async () => {
      const res = await get(
        '/api/v1/price-kpis?zone=DE_LU&lineage=true&basis=native&datetime_from=2018-09-29T22:00Z&datetime_to=2018-10-01T22:00Z',
      );
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['query', 'basis'], type: 'value_error' });
      expect(res.body.detail[0].msg).toContain('ask each zone of the series with basis=native');
      const after = await get(
        '/api/v1/price-kpis?zone=DE_LU&lineage=true&basis=native&datetime_from=2018-10-01T00:00Z&datetime_to=2018-10-01T22:00Z',
      );
      expect(after.status).toBe(200);
      expect(after.body.data[0]).toMatchObject({ bidding_zone: 'DE_LU', series_zones: ['DE_LU'], hours: 22 });
    });

    it('computes price KPIs of DE_LU over the hours of both zones, listing them', async () => {
      const hours = [...AT_LU, ...DE_LU].map((h) => h.price).sort((a, b) => a - b);
      const mean = 3192 / 48;
      const std = Math.sqrt(hours.reduce((s, p) => s + (p - mean) ** 2, 0) / 48);
      const { body } = await get(
        '/api/v1/price-kpis?zone=DE_LU&zone=FR&lineage=true&datetime_from=2018-09-29T22:00Z&datetime_to=2018-10-01T22:00Z',
      );
      expect(body.data).toHaveLength(1);
      const row = body.data[0];
      expect(row).toMatchObject({
        bidding_zone: 'DE_LU',
        series_zones: ['DE_AT_LU', 'DE_LU'],
        mean_price: 66.5,
        min_price: 10,
        max_price: 123,
        median_price: 66.5,
        p05_price: 12.35,
        p95_price: 120.65,
        peak_mean_price: 113.5,
        hours: 48,
        negative_hours: 0,
      });
      expect(row.std_price).toBeCloseTo(std, 4);
      expect(row.offpeak_mean_price).toBeCloseTo(1830 / 36, 4);
      const { data } = await t.graphql(KpisQuery, {
        zones: ['DE_LU', 'FR'],
        from: '2018-09-29T22:00Z',
        to: '2018-10-01T22:00Z',
        lineage: true,
      });
      expect(data?.priceKpis.rows).toEqual([
        {
          biddingZone: 'DE_LU',
          seriesZones: ['DE_AT_LU', 'DE_LU'],
          meanPrice: row.mean_price,
          minPrice: row.min_price,
          maxPrice: row.max_price,
          stdPrice: row.std_price,
          p05Price: row.p05_price,
          medianPrice: row.median_price,
          p95Price: row.p95_price,
          peakMeanPrice: row.peak_mean_price,
          offpeakMeanPrice: row.offpeak_mean_price,
          hours: 48,
          negativeHours: 0,
        },
      ]);
    });

    it('still refuses a range outside the whole series: IE_SEM has no predecessor', async () => {
      const { status, body } = await get(
        '/api/v1/prices?zone=IE_SEM&lineage=true&datetime_from=2018-09-01&datetime_to=2018-09-15',
      );
      expect(status).toBe(422);
      expect(body.detail[0].msg).toBe(
        'IE_SEM exists from 2018-10-01T00:00:00+01:00 (2018-09-30T23:00:00Z); no earlier zone is in the catalogue',
      );
    });
  });
});
