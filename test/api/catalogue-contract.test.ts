import { describe, expect } from 'vitest';
import { sourceLabels } from '../../src/services/meta.js';
import { graphql } from '../gql/index.js';
import { blockApp } from '../support/app.js';
import { dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';

interface Span {
  datetime_from: string;
  datetime_to: string;
  native_resolution: string | null;
  sources: string[];
}
interface ZoneRow {
  zone: string;
  eic: string;
  name: string;
  time_zone: string;
  neighbours: string[];
  coverage: { prices: Span | null };
}
interface BorderRow {
  border: string;
  zone_a: string;
  zone_b: string;
  coverage: { physical_flows: Span | null; scheduled_flows: Span | null; ntc: Span | null; outages: Span | null };
}
interface Body<R> {
  meta: {
    provenance: string;
    upstream_sources: string[] | null;
    resolved_datetime_from: null;
    resolution: null;
    pagination: null;
  };
  data: R[];
}

const CatalogueQuery = graphql(`
  query Catalogue {
    zones { code coverage { prices { datetimeFrom datetimeTo nativeResolution sources } } }
    borders {
      key
      coverage {
        physicalFlows { datetimeFrom datetimeTo nativeResolution sources }
        scheduledFlows { datetimeFrom datetimeTo nativeResolution sources }
        ntc { datetimeFrom datetimeTo nativeResolution sources }
        outages { datetimeFrom datetimeTo nativeResolution sources }
      }
    }
  }
`);

const ZonesArgQuery = graphql(`
  query CatalogueZonesArg($zones: [String!]) {
    zones(zones: $zones) { code }
  }
`);

const iso = (d: Date) => d.toISOString().replace('.000Z', 'Z');
const restSpan = (
  s: { datetimeFrom: string; datetimeTo: string; nativeResolution: string | null; sources: string[] } | null,
) =>
  s && {
    datetime_from: iso(new Date(s.datetimeFrom)),
    datetime_to: iso(new Date(s.datetimeTo)),
    native_resolution: s.nativeResolution,
    sources: s.sources,
  };

describe.each(TEST_BACKENDS)('catalogue endpoints on %s', (backend) => {
  it.override({ backend, seed: 'demo' });
  const t = blockApp(it, { config: { LOG_LEVEL: 'error' } });

  async function ok<R>(path: string): Promise<Body<R>> {
    const res = await t.get(path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as Body<R>;
  }
  async function unknown(path: string): Promise<{ loc: string[]; msg: string; type: string }[]> {
    const res = await t.get(path);
    expect(res.status, path).toBe(422);
    return ((await res.json()) as { detail: { loc: string[]; msg: string; type: string }[] }).detail;
  }

  it('lists every zone with EIC, time zone and neighbours, ordered by code', async () => {
    const body = await ok<ZoneRow>('/api/v1/zones');
    const codes = t.app.deps.catalogue.zones.map((z) => z.code).sort();
    expect(body.data.map((z) => z.zone)).toEqual(codes);
    expect(body.data.find((z) => z.zone === 'DE_LU')).toMatchObject({
      eic: '10Y1001A1001A82H',
      time_zone: 'Europe/Berlin',
    });
    expect(body.data.find((z) => z.zone === 'ES')?.neighbours).toEqual(['FR', 'PT']);
    expect(body.meta).toMatchObject({
      provenance: 'derived',
      resolved_datetime_from: null,
      resolution: null,
      pagination: null,
    });
  });

  it('reports the price coverage of each zone as the stored points give it', async () => {
    const expected = await t.db.rawQuery<{ zone: string; first: Date; end: Date; minutes: number; sources: string[] }>(`
      SELECT z.code AS zone, min(p.ts) AS first, max(p.ts + p.period_minutes * interval '1 minute') AS end,
             (array_agg(p.period_minutes ORDER BY p.ts DESC))[1]::int AS minutes,
             array_agg(DISTINCT p.source::text) AS sources
      FROM price_point p JOIN zone z ON z.id = p.zone_id GROUP BY z.code`);
    expect(expected.length).toBeGreaterThan(0);
    const rows = new Map((await ok<ZoneRow>('/api/v1/zones')).data.map((z) => [z.zone, z.coverage.prices]));
    for (const e of expected) {
      expect(rows.get(e.zone), e.zone).toEqual({
        datetime_from: iso(e.first),
        datetime_to: iso(e.end),
        native_resolution: `PT${e.minutes}M`,
        sources: sourceLabels(e.sources.sort()),
      });
    }
    const withPrices = new Set(expected.map((e) => e.zone));
    for (const [zone, prices] of rows) if (!withPrices.has(zone)) expect(prices, zone).toBeNull();
  });

  it('filters zones by code or EIC, case-insensitively', async () => {
    const body = await ok<ZoneRow>('/api/v1/zones?zone=fr&zone=10Y1001A1001A82H');
    expect(body.data.map((z) => z.zone)).toEqual(['DE_LU', 'FR']);
    expect(body.meta.upstream_sources).toEqual(['demo']);
  });

  it('reports border coverage per kind as the stored hours and outages give it', async () => {
    const hourly = async (present: string, source: string) =>
      new Map(
        (
          await t.db.rawQuery<{ key: string; first: Date; last: Date; sources: string[] }>(`
        SELECT a.code || '->' || b2.code AS key, min(h.ts) AS first, max(h.ts) AS last, array_agg(DISTINCT h.${source}::text) AS sources
        FROM border_hour h JOIN border b ON b.id = h.border_id JOIN zone a ON a.id = b.zone_a_id JOIN zone b2 ON b2.id = b.zone_b_id
        WHERE ${present} GROUP BY 1`)
        ).map((r) => [
          r.key,
          {
            datetime_from: iso(r.first),
            datetime_to: iso(new Date(r.last.getTime() + 3_600_000)),
            native_resolution: 'PT60M',
            sources: sourceLabels(r.sources.sort()),
          },
        ]),
      );
    const physical = await hourly('h.physical_ab_mw IS NOT NULL OR h.physical_ba_mw IS NOT NULL', 'physical_source');
    const scheduled = await hourly(
      'h.scheduled_ab_mw IS NOT NULL OR h.scheduled_ba_mw IS NOT NULL',
      'scheduled_source',
    );
    const ntc = await hourly('h.ntc_ab_mw IS NOT NULL OR h.ntc_ba_mw IS NOT NULL', 'ntc_source');
    const outages = new Map(
      (
        await t.db.rawQuery<{ key: string; first: Date; last: Date; sources: string[] }>(`
      SELECT a.code || '->' || b2.code AS key, min(o.starts_at) AS first, max(o.ends_at) AS last, array_agg(DISTINCT o.source::text) AS sources
      FROM border_outage o JOIN border b ON b.id = o.border_id JOIN zone a ON a.id = b.zone_a_id JOIN zone b2 ON b2.id = b.zone_b_id
      GROUP BY 1`)
      ).map((r) => [
        r.key,
        {
          datetime_from: iso(r.first),
          datetime_to: iso(r.last),
          native_resolution: null,
          sources: sourceLabels(r.sources.sort()),
        },
      ]),
    );
    expect([physical.size, scheduled.size, ntc.size, outages.size].every((n) => n > 0)).toBe(true);
    const body = await ok<BorderRow>('/api/v1/borders');
    expect(body.data.map((b) => b.border)).toEqual(t.app.deps.catalogue.borders.map((b) => b.key).sort());
    for (const row of body.data) {
      expect(row.border).toBe(`${row.zone_a}->${row.zone_b}`);
      expect(row.coverage.physical_flows, row.border).toEqual(physical.get(row.border) ?? null);
      expect(row.coverage.scheduled_flows, row.border).toEqual(scheduled.get(row.border) ?? null);
      expect(row.coverage.ntc, row.border).toEqual(ntc.get(row.border) ?? null);
      expect(row.coverage.outages, row.border).toEqual(outages.get(row.border) ?? null);
    }
  });

  it('selects a border in either orientation, once, in stored orientation', async () => {
    const body = await ok<BorderRow>('/api/v1/borders?border=FR->DE_LU&border=de_lu->fr');
    expect(body.data.map((b) => b.border)).toEqual(['DE_LU->FR']);
  });

  it('answers unknown codes with 422 naming the closest known codes', async () => {
    expect(await unknown('/api/v1/zones?zone=DE')).toEqual([
      {
        loc: ['query', 'zone'],
        msg: 'Unknown bidding zone: DE; did you mean DE_LU?',
        type: 'value_error',
        input: ['DE'],
      },
    ]);
    expect((await unknown('/api/v1/zones?zone=de_l'))[0]?.msg).toBe('Unknown bidding zone: de_l; did you mean DE_LU?');
    expect((await unknown('/api/v1/borders?border=DE->FRR'))[0]).toMatchObject({
      loc: ['query', 'border'],
      msg: 'Unknown bidding zone: DE, FRR; did you mean DE_LU for DE, FR for FRR?',
    });
    expect((await unknown('/api/v1/zones?zone=ATLANTIS'))[0]?.msg).toBe('Unknown bidding zone: ATLANTIS');
  });

  it('gives GraphQL the same coverage as REST', async () => {
    const gql = await t.graphql(CatalogueQuery);
    expect(gql.errors).toBeUndefined();
    const zones = (await ok<ZoneRow>('/api/v1/zones')).data;
    const borders = (await ok<BorderRow>('/api/v1/borders')).data;
    const gqlZones = new Map(gql.data!.zones.map((z) => [z.code, { prices: restSpan(z.coverage.prices ?? null) }]));
    for (const z of zones) expect(gqlZones.get(z.zone), z.zone).toEqual(z.coverage);
    const gqlBorders = new Map(
      gql.data!.borders.map((b) => [
        b.key,
        {
          physical_flows: restSpan(b.coverage.physicalFlows ?? null),
          scheduled_flows: restSpan(b.coverage.scheduledFlows ?? null),
          ntc: restSpan(b.coverage.ntc ?? null),
          outages: restSpan(b.coverage.outages ?? null),
        },
      ]),
    );
    for (const b of borders) expect(gqlBorders.get(b.border), b.border).toEqual(b.coverage);
  });

  it('filters GraphQL zones as REST does, and rejects unknown codes with the same suggestions as BAD_USER_INPUT', async () => {
    expect(
      (await t.graphql(ZonesArgQuery, { zones: ['fr', '10Y1001A1001A82H'] })).data?.zones.map((z) => z.code),
    ).toEqual(['DE_LU', 'FR']);
    const gql = await t.graphql(ZonesArgQuery, { zones: ['DE'] });
    expect(gql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(gql.errors?.[0]?.message).toContain('Unknown bidding zone: DE; did you mean DE_LU?');
  });
});
