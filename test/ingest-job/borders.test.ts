/**
 * Border items through the whole job: physical flows (A11) of both directions, scheduled exchanges
 * (A09) classified as derived flows, day-ahead NTC (A61), and outages (A78) with revisions and
 * cancellations, each followed by the reclassification of the border-hours it affects. Expected
 * values read by hand from the fixtures (positions and quantities quoted in the comments).
 */
import { zipSync } from 'fflate';
import { describe, expect } from 'vitest';
import { readCatalogue } from '../../src/repositories/catalogue/catalogue.js';
import {
  findBorderSpans,
  findPriceSpans,
  readBorderSpans,
  readPriceSpans,
} from '../../src/repositories/catalogue/coverage.js';
import { TEST_BACKENDS } from '../support/db.js';
import type { Database } from '../../src/db/client.js';
import { upstreamTest as it } from '../support/fixtures.js';
import { type FakeUpstream, fixture } from './fake-upstream.js';
import { a11, a44, EIC, fakeClient, ingest, iso, key, rows } from './helpers.js';

interface HourRow {
  ts: Date;
  physical_ab_mw: number | null;
  physical_ba_mw: number | null;
  physical_interpolated: boolean;
  physical_source: string | null;
  scheduled_ab_mw: number | null;
  scheduled_ba_mw: number | null;
  scheduled_source: string | null;
  ntc_ab_mw: number | null;
  ntc_ba_mw: number | null;
  flow_type: string | null;
  export_from_a: boolean | null;
  net_flow_mw: number | null;
  price_a_eur_mwh: number | null;
  price_b_eur_mwh: number | null;
  flow_derived: boolean;
  scheduled_flow_type: string | null;
}

describe.each(TEST_BACKENDS)('border items on %s', (kind) => {
  it.override({ backend: kind, seed: 'empty' });
  let db!: Database;
  let fake!: FakeUpstream;
  it.beforeEach(({ fileDb, fileUpstream }) => {
    db = fileDb;
    fake = fileUpstream;
  });

  const hours = (border: string) =>
    rows<HourRow>(
      db,
      `SELECT h.*, h.physical_source::text AS physical_source, h.scheduled_source::text AS scheduled_source,
              h.flow_type::text AS flow_type, h.scheduled_flow_type::text AS scheduled_flow_type
       FROM border_hour h JOIN border b ON b.id = h.border_id JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id
       WHERE za.code || '->' || zb.code = $1 ORDER BY h.ts`,
      [border],
    );
  const hourAt = async (border: string, ts: string) => (await hours(border)).find((h) => iso(h.ts) === ts);

  it('stores physical flows of both directions of DK_1->GB in the physical columns', async () => {
    // DK_1 sorts first: A->B is out_Domain DK1, in_Domain GB.
    fake.serve(key('A11', EIC.GB, EIC.DK_1), {
      body: fixture('A11_in-GB_out-DK1_2023-12-20_22_PT60M_gaps_as_split_TimeSeries.xml'),
    });
    fake.serve(key('A11', EIC.DK_1, EIC.GB), { body: fixture('A11_in-DK1_out-GB_2023-12-20_22_PT60M.xml') });
    const { client } = fakeClient(fake);
    const s = await ingest(db, client, '2023-12-20', '2023-12-23', { what: ['flows'], borders: ['DK_1->GB'] });
    expect(s).toMatchObject({ completed: 1, rows: 47, requests: 2, failed: [] });
    expect(fake.requests.slice(-2).map((r) => r.params)).toEqual([
      {
        documentType: 'A11',
        in_Domain: EIC.GB,
        out_Domain: EIC.DK_1,
        periodStart: '202312200000',
        periodEnd: '202312230000',
      },
      {
        documentType: 'A11',
        in_Domain: EIC.DK_1,
        out_Domain: EIC.GB,
        periodStart: '202312200000',
        periodEnd: '202312230000',
      },
    ]);
    const all = await hours('DK_1->GB');
    expect(all).toHaveLength(47); // 17:00Z on the 20th to 15:00Z on the 22nd
    expect(all.filter((h) => h.physical_interpolated).map((h) => iso(h.ts))).toEqual([
      '2023-12-22T08:00:00.000Z',
      '2023-12-22T11:00:00.000Z',
      '2023-12-22T12:00:00.000Z',
    ]);
    // position 1: 1362 MW DK1 -> GB, 0 MW GB -> DK1; position 26: 0 and 96 MW.
    expect(all[0]).toMatchObject({
      physical_ab_mw: 1362,
      physical_ba_mw: 0,
      physical_source: 'entsoe',
      scheduled_ab_mw: null,
      flow_derived: false,
    });
    expect(await hourAt('DK_1->GB', '2023-12-21T18:00:00.000Z')).toMatchObject({
      physical_ab_mw: 0,
      physical_ba_mw: 96,
    });
    expect(all[0]!.flow_type).toBeNull(); // no prices yet: not assessed
  });

  it('stores A09 schedules as scheduled flows and classifies them as derived once prices arrive', async () => {
    fake.serve(key('A09', EIC.SE_4, EIC.DK_2), { body: fixture('A09_in-SE4_out-DK2_2023-12-21_24_PT60M.xml') });
    const { client } = fakeClient(fake);
    const s = await ingest(db, client, '2023-12-21', '2023-12-25', { what: ['schedules'], borders: ['DK_2->SE_4'] });
    expect(s).toMatchObject({ completed: 1, rows: 96, failed: [] });
    expect(fake.requests.at(-2)!.params).toEqual({
      documentType: 'A09',
      in_Domain: EIC.SE_4,
      out_Domain: EIC.DK_2,
      periodStart: '202312210000',
      periodEnd: '202312250000',
    });
    const first = await hourAt('DK_2->SE_4', '2023-12-20T23:00:00.000Z');
    // A05 position 1 = 1264 MW DK2 -> SE4 (A05 preferred over the A01 value 770); no B->A reply.
    expect(first).toMatchObject({
      scheduled_ab_mw: 1264,
      scheduled_ba_mw: null,
      scheduled_source: 'entsoe',
      physical_ab_mw: null,
      flow_derived: true,
      flow_type: null,
    });

    // Prices afterwards: DK_2 50 EUR/MWh; SE_4 80 on the first day, 20 after.
    fake.serve(key('A44', EIC.DK_2, EIC.DK_2), { body: a44(EIC.DK_2, '2023-12-20T23:00Z', Array(96).fill(50)) });
    fake.serve(key('A44', EIC.SE_4, EIC.SE_4), {
      body: a44(EIC.SE_4, '2023-12-20T23:00Z', [...Array(24).fill(80), ...Array(72).fill(20)]),
    });
    await ingest(db, client, '2023-12-21', '2023-12-25', { what: ['prices'], zones: ['DK_2', 'SE_4'] });
    expect(await hourAt('DK_2->SE_4', '2023-12-20T23:00:00.000Z')).toMatchObject({
      flow_type: 'convergence',
      scheduled_flow_type: 'convergence',
      export_from_a: true,
      net_flow_mw: 1264,
      price_a_eur_mwh: 50,
      price_b_eur_mwh: 80,
      flow_derived: true,
    });
    // Second day, position 1 = 1301 MW towards SE4, now the cheaper zone: against the price signal.
    expect(await hourAt('DK_2->SE_4', '2023-12-21T23:00:00.000Z')).toMatchObject({
      flow_type: 'counter_intuitive',
      net_flow_mw: 1301,
      flow_derived: true,
    });
    // Fourth day: 0 MW, no direction.
    expect(await hourAt('DK_2->SE_4', '2023-12-23T23:00:00.000Z')).toMatchObject({
      flow_type: 'convergence',
      export_from_a: null,
      net_flow_mw: 0,
    });
  });

  it('stores day-ahead NTC (contract A01) per direction', async () => {
    fake.serve(key('A61', EIC.ES, EIC.FR), {
      body: fixture('A61_in-ES_out-FR_day_ahead_NTC_2026-03-19_20_PT60M_A03.xml'),
    });
    const { client } = fakeClient(fake);
    const s = await ingest(db, client, '2026-03-19', '2026-03-21', { what: ['ntc'], borders: ['ES->FR'] });
    expect(s).toMatchObject({ completed: 1, rows: 41, failed: [] });
    expect(fake.requests.at(-1)!.params).toMatchObject({ documentType: 'A61', 'contract_MarketAgreement.type': 'A01' });
    // FR -> ES is B -> A; position 1 (06:00Z) = 3006 MW, position 5 (10:00Z) = 2914 MW.
    expect(await hourAt('ES->FR', '2026-03-19T06:00:00.000Z')).toMatchObject({ ntc_ba_mw: 3006, ntc_ab_mw: null });
    expect(await hourAt('ES->FR', '2026-03-19T10:00:00.000Z')).toMatchObject({ ntc_ba_mw: 2914 });
  });

  it('stores the real A78 outage of BE->NL from its zip', async () => {
    fake.serve(key('A78', EIC.NL, EIC.BE), { body: fixture('A78_OUTAGES_A78_202011180000-202011190000.zip') });
    const { client } = fakeClient(fake);
    const s = await ingest(db, client, '2020-11-18', '2020-11-19', { what: ['outages'], borders: ['BE->NL'] });
    expect(s).toMatchObject({ completed: 1, rows: 1, requests: 2, failed: [] });
    expect(fake.requests.slice(-2).map((r) => r.params.documentType)).toEqual(['A78', 'A78']);
    const stored = await rows<{
      starts_at: Date;
      ends_at: Date;
      planned: boolean;
      reason: string;
      mrid: string;
      source: string;
    }>(db, `SELECT o.starts_at, o.ends_at, o.planned, o.reason, o.mrid, o.source::text AS source FROM border_outage o`);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      planned: true,
      reason: 'ScheduledWorks',
      mrid: 'jK9_LQxQKyCztr5NfozZKg',
      source: 'entsoe',
    });
    expect([iso(stored[0]!.starts_at), iso(stored[0]!.ends_at)]).toEqual([
      '2020-10-15T05:30:00.000Z',
      '2020-12-16T14:30:00.000Z',
    ]);
  });

  it('replaces an outage by its later revision, drops cancelled ones and reclassifies the hours', async () => {
    const xml = (name: string) => new Uint8Array(fixture(name));
    const zip = (files: Record<string, Uint8Array>) => Buffer.from(zipSync(files));
    const outages = key('A78', EIC.DE_LU, EIC.DK_1); // out DK1 -> in DE_LU
    fake.serve(key('A11', EIC.DK_1, EIC.DE_LU), {
      body: a11(EIC.DE_LU, EIC.DK_1, '2024-02-10T06:00Z', Array(12).fill(700)),
    });
    fake.serve(outages, {
      body: zip({
        '001.xml': xml('HANDMADE_A78_unplanned_rev1.xml'),
        '002.xml': xml('HANDMADE_A78_planned_cancelled.xml'),
      }),
    });
    const { client } = fakeClient(fake);
    const opts = { what: ['flows', 'outages'] as const, borders: ['DE_LU->DK_1'] };
    const first = await ingest(db, client, '2024-02-10', '2024-02-11', {
      ...opts,
      what: [...opts.what],
      now: () => new Date('2024-02-01T00:00Z'),
    });
    expect(first).toMatchObject({ failed: [], fatal: null });
    const read = () =>
      rows<{ mrid: string; starts_at: Date; ends_at: Date; planned: boolean }>(
        db,
        `SELECT mrid, starts_at, ends_at, planned FROM border_outage WHERE mrid LIKE 'HANDMADE%'`,
      );
    expect((await read()).map((o) => [o.mrid, iso(o.ends_at), o.planned])).toEqual([
      ['HANDMADE-unplanned-0001', '2024-02-10T12:00:00.000Z', false],
    ]);
    const outageHours = async () =>
      (await hours('DE_LU->DK_1')).filter((h) => h.flow_type === 'outage').map((h) => iso(h.ts).slice(11, 16));
    expect(await outageHours()).toEqual(['08:00', '09:00', '10:00', '11:00']);

    fake.serve(outages, { body: zip({ '001.xml': xml('HANDMADE_A78_unplanned_rev2.xml') }) });
    await ingest(db, client, '2024-02-10', '2024-02-11', {
      ...opts,
      what: ['outages'],
      now: () => new Date('2024-02-05T00:00Z'),
    });
    expect((await read()).map((o) => [o.mrid, iso(o.ends_at)])).toEqual([
      ['HANDMADE-unplanned-0001', '2024-02-10T15:00:00.000Z'],
    ]);
    expect(await outageHours()).toEqual(['08:00', '09:00', '10:00', '11:00', '12:00', '13:00', '14:00']);
  });

  it('leaves the coverage rollup equal to the coverage computed from the stored facts after the loads and reloads above', async () => {
    const catalogue = await readCatalogue(db);
    const [zones, borders] = [catalogue.zones.map((z) => z.id), catalogue.borders.map((b) => b.id)];
    const byBorder = <T extends { border: string }>(spans: T[]) =>
      [...spans].sort((x, y) => x.border.localeCompare(y.border));
    const facts = byBorder(await findBorderSpans(db, borders));
    expect(
      facts.some((s) => s.physical) &&
        facts.some((s) => s.scheduled) &&
        facts.some((s) => s.ntc) &&
        facts.some((s) => s.outages),
    ).toBe(true);
    expect(byBorder(await readBorderSpans(db, borders))).toEqual(facts);
    expect(await readPriceSpans(db, zones)).toEqual(await findPriceSpans(db, zones));
  });
});
