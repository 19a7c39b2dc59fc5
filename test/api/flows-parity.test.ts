import { describe, expect } from 'vitest';
import { schema } from '../../src/graphql/schema/index.js';
import { graphql } from '../gql/index.js';
import type { AggregatesQueryVariables, FlowRowsQueryVariables } from '../gql/graphql.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';
import { unselectedFields } from '../support/graphql-selection.js';
import { type AggregateField, REST_PATH, restQuery, WIRE, wireFlow, wireMeta } from './parity-wire.js';

const MetaFields = graphql(`
  fragment MetaFields on Meta { provenance upstreamSources resolvedFrom resolvedTo resolution timeZone }
`);

const Aggregates = graphql(`
  query Aggregates($from: String, $to: String, $borders: [String!], $zones: [String!], $resolution: Resolution, $points: Int, $flowBinMw: Float, $priceBin: Float, $basis: PriceBasis) {
    flowTypeSummary(from: $from, to: $to, resolution: $resolution, borders: $borders) {
      meta { ...MetaFields }
      rows { day biddingZoneFrom biddingZoneTo zoneFrom { code } zoneTo { code } convergence congestion counterIntuitive outage hours }
    }
    ciShare(from: $from, to: $to, resolution: $resolution, zones: $zones) {
      meta { ...MetaFields } rows { day biddingZone zone { code } ciHours totalHours ciPercentage }
    }
    flowPriceScatter(from: $from, to: $to, resolution: $resolution, borders: $borders, flowBinMw: $flowBinMw, priceBin: $priceBin) {
      meta { ...MetaFields } rows { biddingZoneFrom biddingZoneTo netFlowMw priceDeltaEurMwh count }
    }
    flowDuration(from: $from, to: $to, borders: $borders, zones: $zones, points: $points) {
      meta { ...MetaFields } rows { series seriesType percentage flowMw }
    }
    priceKpis(from: $from, to: $to, zones: $zones, basis: $basis) {
      meta { ...MetaFields }
      rows { biddingZone zone { code } meanPrice minPrice maxPrice stdPrice p05Price medianPrice p95Price peakMeanPrice offpeakMeanPrice negativeHours hours interpolatedHours seriesZones }
    }
    zoneImportExport(from: $from, to: $to, zones: $zones) {
      meta { ...MetaFields }
      rows { biddingZone zone { code } importMwh exportMwh netExportMwh peakImportMw peakExportMw netImporterHours netExporterHours }
    }
  }
`);

const FlowRows = graphql(`
  query FlowRows($from: String, $to: String, $resolution: Resolution, $borders: [String!], $zones: [String!], $flowTypes: [FlowType!]) {
    flows(from: $from, to: $to, resolution: $resolution, borders: $borders, zones: $zones, flowTypes: $flowTypes, first: 5000) {
      totalCount
      meta { ...MetaFields }
      edges {
        node {
          datetime from { code } to { code } biddingZoneFrom biddingZoneTo flowType flowInterpolated derived
          netFlowMw priceFromEurMwh priceToEurMwh priceDeltaEurMwh capacityMw hours
        }
      }
    }
  }
`);

const Flows = graphql(`
  query Flows($from: String, $to: String, $borders: [String!], $resolution: Resolution, $first: Int, $after: String, $basis: FlowBasis) {
    flows(from: $from, to: $to, borders: $borders, resolution: $resolution, first: $first, after: $after, basis: $basis) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { datetime biddingZoneFrom biddingZoneTo flowType netFlowMw hours from { code eic } to { code } } }
    }
  }
`);

describe('the parity documents', () => {
  it('select every field of the rows and meta they compare', () => {
    const exempt = ['Query', 'Zone', 'FlowConnection', 'FlowConnectionEdge'];
    expect([Aggregates, FlowRows].flatMap((doc) => unselectedFields(schema, doc, exempt))).toEqual([]);
    expect(unselectedFields(schema, MetaFields, [])).toEqual([]);
  });
});

describe.each(TEST_BACKENDS)('GraphQL aggregates and flows equal REST on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it, { config: { RATE_LIMIT_CAPACITY: 10_000 } });
  const rest = async (path: string) => (await (await t.get(path)).json()) as { data: any[]; meta: any };

  const aggregateCases: { name: string; vars: AggregatesQueryVariables }[] = [
    {
      name: 'a range cut inside a day, DAILY, border and zone filters, bin widths and points',
      vars: {
        from: '2025-10-13T06:00:00',
        to: '2025-10-30',
        borders: ['FR->ES', 'DE_LU->NL'],
        zones: ['FR', 'ES'],
        resolution: 'DAILY',
        points: 11,
        flowBinMw: 100,
        priceBin: 2.5,
      },
    },
    { name: 'the defaults (the last 30 days, AUTO, every zone and border)', vars: {} },
    {
      name: 'HOURLY over the DST change, borders written against their stored orientation',
      vars: {
        from: '2025-10-25',
        to: '2025-10-27',
        borders: ['ES->FR', 'NL->DE_LU'],
        zones: ['PT', 'DE_LU'],
        resolution: 'HOURLY',
        points: 5,
      },
    },
    {
      name: 'WEEKLY from a relative start',
      vars: { from: 'now-40d', borders: ['NO_2->DK_1'], zones: ['NO_2'], resolution: 'WEEKLY' },
    },
    {
      name: 'price KPIs on the native basis, over a range cut inside an hour',
      vars: { from: '2025-10-13T06:30:00', to: '2025-10-20T17:45:00', zones: ['DE_LU', 'FR'], basis: 'NATIVE' },
    },
  ];

  it.each(aggregateCases)('returns the rows and meta REST returns for every aggregate: $name', async ({ vars }) => {
    const res = await t.graphql(Aggregates, vars);
    expect(res.errors).toBeUndefined();
    for (const field of Object.keys(REST_PATH) as AggregateField[]) {
      const expected = await rest(`${REST_PATH[field]}?${restQuery(field, vars)}`);
      const got = res.data![field];
      expect(expected.data.length, field).toBeGreaterThan(0);
      expect(
        got.rows.map((r) => WIRE[field](r as never)),
        field,
      ).toEqual(expected.data);
      expect(wireMeta(got.meta), field).toEqual(expected.meta);
    }
  });

  it('rejects bad codes, bin widths and ranges on the aggregate fields with coded errors naming the argument', async () => {
    const cases: [AggregatesQueryVariables, RegExp][] = [
      [{ zones: ['ATLANTIS'] }, /zones/],
      [{ borders: ['FR->PT'] }, /borders/],
      [{ flowBinMw: 0 }, /flowBinMw/],
      [{ points: 1 }, /points/],
      [{ from: '2025-10-05', to: '2025-10-01' }, /^(from|to):/],
      [{ from: 'yesterday' }, /^from:/],
    ];
    for (const [vars, argument] of cases) {
      const { errors } = await t.graphql(Aggregates, vars);
      expect(errors?.length, argument.source).toBeGreaterThan(0);
      for (const e of errors!)
        expect([e.extensions?.code, e.message], argument.source).toEqual([
          'BAD_USER_INPUT',
          expect.stringMatching(argument),
        ]);
    }
  });

  const flowCases: { name: string; vars: FlowRowsQueryVariables }[] = [
    {
      name: 'HOURLY rows of two zones over the DST change',
      vars: { from: '2025-10-25', to: '2025-10-27', zones: ['FR', 'ES'], resolution: 'HOURLY' },
    },
    {
      name: 'DAILY means of two borders from a range cut inside a day',
      vars: { from: '2025-10-13T06:00:00', to: '2025-10-30', borders: ['FR->ES', 'DE_LU->NL'], resolution: 'DAILY' },
    },
    {
      name: 'WEEKLY means of every border, derived and interpolated hours inside',
      vars: { from: '2025-09-22', to: '2025-11-07', resolution: 'WEEKLY' },
    },
    {
      name: 'the default range with flow type and border filters',
      vars: { borders: ['ES->FR', 'DE_LU->FR'], flowTypes: ['COUNTER_INTUITIVE', 'CONGESTION'] },
    },
  ];

  it.each(flowCases)('returns every field of the /flows rows and meta: $name', async ({ vars }) => {
    const expected = await rest(`/api/v1/flows?${restQuery('flows', vars)}`);
    const res = await t.graphql(FlowRows, vars);
    expect(res.errors).toBeUndefined();
    const { totalCount, meta, edges } = res.data!.flows;
    expect(expected.data.length).toBeGreaterThan(0);
    expect(totalCount).toBe(expected.meta.pagination.total);
    expect(edges.map((e) => wireFlow(e.node))).toEqual(expected.data);
    expect(wireMeta(meta)).toEqual({ ...expected.meta, pagination: null });
    expect(meta.provenance, 'demo data is never measured').toBe('DERIVED');
  });

  it('compares rows that exercise the interpolated and derived flags', async () => {
    const { edges } = (await t.graphql(FlowRows, flowCases[2]!.vars)).data!.flows;
    expect(edges.filter((e) => e.node.flowInterpolated).length).toBeGreaterThan(0);
    expect(edges.filter((e) => e.node.derived).length).toBeGreaterThan(0);
    expect(edges.filter((e) => !e.node.flowInterpolated && !e.node.derived).length).toBeGreaterThan(0);
  });

  it('walks keyset and offset pages to exactly the unpaged rows at every resolution and with filters', async () => {
    // Means are left out: the same bucket summed in another plan may differ in the last bit, and so
    // in the last rounded digit; the order and the hour counts must not differ at all.
    const key = (r: {
      datetime: string;
      zoneFrom: string;
      zoneTo: string;
      flowType: string;
      hours: number;
      netFlowMw: number;
    }) => [r.datetime.replace('.000Z', 'Z'), r.zoneFrom, r.zoneTo, r.flowType.toLowerCase(), r.hours].join('|');
    const cases = [
      {
        resolution: 'HOURLY',
        rest: '1H',
        from: '2025-10-20T05:00:00',
        to: '2025-10-24',
        page: 499,
        borders: undefined,
      },
      { resolution: 'DAILY', rest: '1D', from: '2025-10-13T06:00:00', to: '2025-10-30', page: 97, borders: undefined },
      { resolution: 'WEEKLY', rest: '1W', from: '2025-10-13T06:00:00', to: '2025-10-30', page: 37, borders: undefined },
      {
        resolution: 'DAILY',
        rest: '1D',
        from: '2025-10-13T06:00:00',
        to: '2025-10-30',
        page: 5,
        borders: ['DE_LU->FR', 'ES->FR'],
      },
    ] as const;
    for (const c of cases) {
      const filter = c.borders ? c.borders.map((b) => `&border=${encodeURIComponent(b)}`).join('') : '';
      const unpaged = (
        await rest(`/api/v1/flows?datetime_from=${c.from}&datetime_to=${c.to}&resolution=${c.rest}${filter}`)
      ).data.map((r) =>
        key({
          datetime: r.datetime,
          zoneFrom: r.bidding_zone_from,
          zoneTo: r.bidding_zone_to,
          flowType: r.flow_type,
          hours: r.hours,
          netFlowMw: r.net_flow_mw,
        }),
      );
      expect(unpaged.length, c.rest).toBeGreaterThan(3 * c.page);
      const walked: string[] = [];
      for (let after: string | undefined, n = 0; n < 200; n++) {
        const res = await t.graphql(Flows, {
          from: c.from,
          to: c.to,
          resolution: c.resolution,
          first: c.page,
          after,
          borders: c.borders ? [...c.borders] : undefined,
        });
        walked.push(
          ...res.data!.flows.edges.map((e) =>
            key({ ...e.node, zoneFrom: e.node.biddingZoneFrom, zoneTo: e.node.biddingZoneTo }),
          ),
        );
        if (!res.data!.flows.pageInfo.hasNextPage) break;
        after = res.data!.flows.pageInfo.endCursor!;
      }
      expect(walked, `keyset ${c.rest}`).toEqual(unpaged);
      const offsets: string[] = [];
      for (let offset = 0; offset < unpaged.length; offset += c.page * 3) {
        const page = await rest(
          `/api/v1/flows?datetime_from=${c.from}&datetime_to=${c.to}&resolution=${c.rest}${filter}&limit=${c.page * 3}&offset=${offset}`,
        );
        expect(page.meta.pagination.total).toBe(unpaged.length);
        offsets.push(
          ...page.data.map((r) =>
            key({
              datetime: r.datetime,
              zoneFrom: r.bidding_zone_from,
              zoneTo: r.bidding_zone_to,
              flowType: r.flow_type,
              hours: r.hours,
              netFlowMw: r.net_flow_mw,
            }),
          ),
        );
      }
      expect(offsets, `offset ${c.rest}`).toEqual(unpaged);
    }
  });

  it('classifies on scheduled exchanges on request', async () => {
    const physical = await t.graphql(Flows, { from: '2025-10-20', to: '2025-10-21', first: 5000 });
    const scheduled = await t.graphql(Flows, { from: '2025-10-20', to: '2025-10-21', first: 5000, basis: 'SCHEDULED' });
    expect(scheduled.errors).toBeUndefined();
    expect(scheduled.data!.flows.totalCount).toBeGreaterThan(0);
    expect(scheduled.data!.flows.edges.map((e) => e.node.netFlowMw)).not.toEqual(
      physical.data!.flows.edges.map((e) => e.node.netFlowMw),
    );
  });

  it.runIf(backend === 'pglite')(
    'reads a 1,000-row page with its zones in two SQL queries, the page and its count: zones come from the in-memory catalogue',
    async () => {
      const pglite = t.db.pglite!;
      const original = pglite.query.bind(pglite);
      const statements: { sql: string; params: unknown[] }[] = [];
      (pglite as { query: unknown }).query = (...args: Parameters<typeof original>) => {
        statements.push({ sql: String(args[0]), params: (args[1] as unknown[] | undefined) ?? [] });
        return original(...args);
      };
      try {
        const res = await t.graphql(Flows, { from: '2025-10-20', to: '2025-10-22', first: 1000 });
        const edges = res.data!.flows.edges;
        expect(edges).toHaveLength(1000);
        expect(
          edges.every(
            (e) =>
              e.node.from.code === e.node.biddingZoneFrom &&
              e.node.to.code === e.node.biddingZoneTo &&
              /^10Y/.test(e.node.from.eic),
          ),
        ).toBe(true);
        expect(statements.filter((s) => /FROM "[^"]+"\."zone" WHERE/.test(s.sql))).toEqual([]);
        expect(statements, statements.map((s) => s.sql.trim().slice(0, 120)).join('\n---\n')).toHaveLength(2);
      } finally {
        (pglite as { query: unknown }).query = original;
      }
    },
  );
});
