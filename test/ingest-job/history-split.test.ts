/**
 * The DE-AT-LU split (2018-10-01 Berlin = 2018-09-30T22:00Z) through the real ingestion job: the fake
 * upstream serves hand-made 2018 documents, the job asks for DE_AT_LU and its border up to the split
 * only and for DE_LU and AT from it only, and the database holds exactly what the documents say under
 * the right zone and border. Expected values read by hand from the HANDMADE_*2018* fixtures (their
 * .source.txt lists every value).
 */
import { describe, expect } from 'vitest';
import { readCatalogue } from '../../src/repositories/catalogue/catalogue.js';
import { TEST_BACKENDS } from '../support/db.js';
import { upstreamTest as it } from '../support/fixtures.js';
import { storeHistoricalZones } from '../support/history.js';
import { fixture } from './fake-upstream.js';
import { EIC, fakeClient, ingest, iso, key, rows } from './helpers.js';

const DE_AT_LU = '10Y1001A1001A63L';
const AT = '10YAT-APG------L';
const DE_AT_LU_PRICES = 'HANDMADE_A44_DE-AT-LU_2018-09-29_30_PT60M_A01_before_split.xml';
const DE_LU_PRICES = 'HANDMADE_A44_DE-LU_2018-10-01_02_PT60M_A01_after_split.xml';
const DE_AT_LU_TO_FR = 'HANDMADE_A11_in-FR_out-DE-AT-LU_2018-09-29_30_PT60M_before_split.xml';
const SPLIT = '2018-09-30T22:00:00.000Z';

/** Four Berlin delivery days, two on each side of the split. */
const FROM = '2018-09-28T22:00Z';
const TO = '2018-10-02T22:00Z';

interface PriceRow {
  code: string;
  ts: Date;
  period_minutes: number;
  price_eur_mwh: number;
  interpolated: boolean;
  source: string;
}

describe.each(TEST_BACKENDS)('the DE-AT-LU split ingested on %s', (backend) => {
  it.override({ backend });

  it('asks the upstream for each zone and border over its own period only', async ({
    fileDb: db,
    fileUpstream: fake,
  }) => {
    await storeHistoricalZones(db);
    fake.serve(key('A44', DE_AT_LU, DE_AT_LU), { body: fixture(DE_AT_LU_PRICES) });
    fake.serve(key('A44', EIC.DE_LU, EIC.DE_LU), { body: fixture(DE_LU_PRICES) });
    fake.serve(key('A11', EIC.FR, DE_AT_LU), { body: fixture(DE_AT_LU_TO_FR) });
    const { client } = fakeClient(fake);
    const summary = await ingest(db, client, FROM, TO, {
      what: ['prices', 'flows'],
      zones: ['DE_AT_LU', 'DE_LU', 'AT'],
      borders: ['DE_AT_LU->FR', 'DE_LU->FR', 'AT->DE_LU'],
    });
    // 3 price windows + 3 flow windows; 48 + 48 prices, 48 border-hours; AT and the DE_LU borders: no data upstream
    expect(summary).toMatchObject({ planned: 6, rows: 144, failed: [], fatal: null });
    const sent = fake.requests.map((r) => [
      r.params.documentType,
      r.params.out_Domain,
      r.params.in_Domain,
      r.params.periodStart,
      r.params.periodEnd,
    ]);
    expect(sent).toEqual([
      ['A44', DE_AT_LU, DE_AT_LU, '201809282200', '201809302200'],
      ['A44', EIC.DE_LU, EIC.DE_LU, '201809302200', '201810022200'],
      ['A44', AT, AT, '201809302200', '201810022200'],
      ['A11', DE_AT_LU, EIC.FR, '201809282200', '201809302200'],
      ['A11', EIC.FR, DE_AT_LU, '201809282200', '201809302200'],
      ['A11', EIC.DE_LU, EIC.FR, '201809302200', '201810022200'],
      ['A11', EIC.FR, EIC.DE_LU, '201809302200', '201810022200'],
      ['A11', AT, EIC.DE_LU, '201809302200', '201810022200'],
      ['A11', EIC.DE_LU, AT, '201809302200', '201810022200'],
    ]);
  });

  it('stores DE_AT_LU prices before the split and DE_LU prices from it, none on the wrong side', async ({
    fileDb: db,
  }) => {
    const stored = await rows<PriceRow>(
      db,
      `SELECT z.code, p.ts, p.period_minutes, p.price_eur_mwh, p.interpolated, p.source::text AS source
       FROM price_point p JOIN zone z ON z.id = p.zone_id ORDER BY z.code, p.ts`,
    );
    const of = (code: string) => stored.filter((r) => r.code === code);
    expect(new Set(stored.map((r) => r.code))).toEqual(new Set(['DE_AT_LU', 'DE_LU']));
    expect(of('DE_AT_LU')).toHaveLength(48);
    expect(of('DE_LU')).toHaveLength(48);
    expect(of('DE_AT_LU').every((r) => iso(r.ts) < SPLIT)).toBe(true);
    expect(of('DE_LU').every((r) => iso(r.ts) >= SPLIT)).toBe(true);
    expect(stored.every((r) => r.period_minutes === 60 && !r.interpolated && r.source === 'entsoe')).toBe(true);
    const at = (code: string, ts: string) => of(code).find((r) => iso(r.ts) === ts)?.price_eur_mwh;
    expect(at('DE_AT_LU', '2018-09-28T22:00:00.000Z')).toBe(52.1); // day 1 position 1
    expect(at('DE_AT_LU', '2018-09-29T21:00:00.000Z')).toBe(53); // day 1 position 24
    expect(at('DE_AT_LU', '2018-09-30T10:00:00.000Z')).toBe(-5.25); // day 2 position 13
    expect(at('DE_AT_LU', '2018-09-30T11:00:00.000Z')).toBe(0); // day 2 position 14
    expect(at('DE_AT_LU', '2018-09-30T21:00:00.000Z')).toBe(47.6); // day 2 position 24, the last hour of DE-AT-LU
    expect(at('DE_LU', SPLIT)).toBe(48.2); // the first hour of DE-LU
    expect(at('DE_LU', '2018-10-01T17:00:00.000Z')).toBe(76.3); // day 1 position 20
    expect(at('DE_LU', '2018-10-02T16:00:00.000Z')).toBe(84.6); // day 2 position 19
    expect(at('DE_LU', '2018-10-02T21:00:00.000Z')).toBe(53.4); // day 2 position 24
  });

  it('keeps the daily price rollup per zone on its own side of the split', async ({ fileDb: db }) => {
    const days = await rows<{ code: string; day: string; minutes: number; weighted_sum: number }>(
      db,
      `SELECT z.code, d.day::text AS day, d.minutes, d.weighted_sum
       FROM price_daily d JOIN zone z ON z.id = d.zone_id ORDER BY z.code, d.day`,
    );
    expect(days.map((d) => [d.code, d.day, d.minutes])).toEqual([
      ['DE_AT_LU', '2018-09-28', 120],
      ['DE_AT_LU', '2018-09-29', 1440],
      ['DE_AT_LU', '2018-09-30', 1320],
      ['DE_LU', '2018-09-30', 120],
      ['DE_LU', '2018-10-01', 1440],
      ['DE_LU', '2018-10-02', 1320],
    ]);
    // UTC days: positions 1-2 of a Berlin day fall on the UTC day before.
    // DE_AT_LU 09-28: 52.10 + 49.80 = 101.90; 09-29: 1339.35 - 101.90 + (50.00 + 47.30) = 1334.75;
    // 09-30: 880.70 - 97.30 = 783.40. DE_LU 09-30: 48.20 + 45.00 = 93.20; 10-01: 1439.00 - 93.20 + (50.50 + 47.90)
    // = 1444.20; 10-02: 1505.80 - 98.40 = 1407.40. Weighted sums are EUR/MWh x minutes.
    const sums = [101.9, 1334.75, 783.4, 93.2, 1444.2, 1407.4];
    for (const [i, d] of days.entries()) expect(d.weighted_sum).toBeCloseTo((sums[i] as number) * 60, 6);
  });

  it('stores the DE_AT_LU->FR flows before the split under the historical border only', async ({ fileDb: db }) => {
    const hours = await rows<{
      key: string;
      ts: Date;
      physical_ab_mw: number | null;
      physical_ba_mw: number | null;
      physical_source: string | null;
    }>(
      db,
      `SELECT za.code || '->' || zb.code AS key, h.ts, h.physical_ab_mw, h.physical_ba_mw, h.physical_source::text AS physical_source
       FROM border_hour h JOIN border b ON b.id = h.border_id
       JOIN zone za ON za.id = b.zone_a_id JOIN zone zb ON zb.id = b.zone_b_id ORDER BY key, h.ts`,
    );
    expect(new Set(hours.map((h) => h.key))).toEqual(new Set(['DE_AT_LU->FR']));
    expect(hours).toHaveLength(48);
    expect(iso(hours[0]!.ts)).toBe('2018-09-28T22:00:00.000Z');
    expect(iso(hours.at(-1)!.ts)).toBe('2018-09-30T21:00:00.000Z');
    // Stored orientation DE_AT_LU -> FR = the document's out -> in; FR -> DE_AT_LU was not published.
    expect(hours.every((h) => h.physical_ba_mw === null && h.physical_source === 'entsoe')).toBe(true);
    const mw = (ts: string) => hours.find((h) => iso(h.ts) === ts)?.physical_ab_mw;
    expect(mw('2018-09-28T22:00:00.000Z')).toBe(2010); // position 1: 2000 + 10
    expect(mw('2018-09-29T21:00:00.000Z')).toBe(2240); // position 24: 2000 + 240
    expect(mw('2018-09-29T22:00:00.000Z')).toBe(2385); // position 25: 2400 - 15
    expect(mw('2018-09-30T21:00:00.000Z')).toBe(2040); // position 48: 2400 - 360
  });

  it('records coverage for DE_AT_LU and its border up to the split and for DE_LU from it', async ({ fileDb: db }) => {
    const coverage = await rows<{ kind: string; subject: string; first_start: Date; last_start: Date; last_end: Date }>(
      db,
      `SELECT c.kind::text AS kind, coalesce(z.code, za.code || '->' || zb.code) AS subject,
              c.first_start, c.last_start, c.last_end
       FROM coverage c
       LEFT JOIN zone z ON c.kind = 'prices' AND z.id = c.subject_id
       LEFT JOIN border b ON c.kind <> 'prices' AND b.id = c.subject_id
       LEFT JOIN zone za ON za.id = b.zone_a_id LEFT JOIN zone zb ON zb.id = b.zone_b_id
       ORDER BY 1, 2`,
    );
    expect(coverage.map((c) => [c.kind, c.subject, iso(c.first_start), iso(c.last_start), iso(c.last_end)])).toEqual([
      ['physical', 'DE_AT_LU->FR', '2018-09-28T22:00:00.000Z', '2018-09-30T21:00:00.000Z', SPLIT],
      ['prices', 'DE_AT_LU', '2018-09-28T22:00:00.000Z', '2018-09-30T21:00:00.000Z', SPLIT],
      ['prices', 'DE_LU', SPLIT, '2018-10-02T21:00:00.000Z', '2018-10-02T22:00:00.000Z'],
    ]);
  });

  it('has the historical zone and border in the stored catalogue beside their successors', async ({ fileDb: db }) => {
    const catalogue = await readCatalogue(db);
    expect(catalogue.zone('DE_AT_LU')?.eic).toBe(DE_AT_LU);
    expect(catalogue.border('DE_AT_LU->FR')).toBeDefined();
    expect(catalogue.border('DE_LU->FR')).toBeDefined();
  });
});
