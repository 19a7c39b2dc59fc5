import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseNetTransferCapacity, parseTransmissionOutages } from '../../src/ingest/entsoe/index.js';
import { at, dataOf, fixture, isoOf } from './entsoe-helpers.js';

function ntc(name: string) {
  const data = dataOf(parseNetTransferCapacity(fixture(name)));
  expect(data).toHaveLength(1);
  return data[0]!;
}

describe('A61 net transfer capacity', () => {
  it('day-ahead ES <- FR, PT60M A03 with 9 of 41 positions: each value holds until the next position', () => {
    const s = ntc('A61_in-ES_out-FR_day_ahead_NTC_2026-03-19_20_PT60M_A03.xml');
    expect([s.fromZoneEic, s.toZoneEic, s.contractType]).toEqual(['10YFR-RTE------C', '10YES-REE------0', null]);
    // Period 2026-03-19T06:00Z -> 2026-03-20T23:00Z = 41 hours; position p starts at 06:00Z + (p - 1) h.
    expect(s.points).toHaveLength(41);
    expect(s.points.every((p) => !p.interpolated)).toBe(true);
    expect([isoOf(s.points[0]), s.points[0]?.mw]).toEqual(['2026-03-19T06:00Z', 3006]);
    expect(at(s.points, '2026-03-19T09:00Z')?.mw).toBe(3006); // position 4 repeats 1
    expect(at(s.points, '2026-03-19T10:00Z')?.mw).toBe(2914); // position 5
    expect(at(s.points, '2026-03-19T17:00Z')?.mw).toBe(3607); // position 12
    expect(at(s.points, '2026-03-19T23:00Z')?.mw).toBe(3422); // position 18
    expect(at(s.points, '2026-03-20T03:00Z')?.mw).toBe(3515); // position 22
    expect(at(s.points, '2026-03-20T04:00Z')?.mw).toBe(3515); // position 23 repeats 22
    expect(at(s.points, '2026-03-20T16:00Z')?.mw).toBe(3099); // position 35 repeats 29
    // Position 36 (17:00Z) is the last given one and holds until the period end: 6 hours.
    expect(s.points.slice(-6).map((p) => p.mw)).toEqual([3607, 3607, 3607, 3607, 3607, 3607]);
    expect(isoOf(s.points[40])).toBe('2026-03-20T22:00Z');
  });

  it('week-ahead DK1 <- DK2: one P1D point covering 41 market days gives 983 hourly values', () => {
    const s = ntc('A61_in-DK1_out-DK2_week_ahead_NTC_P1D_single_point.xml');
    expect([s.fromZoneEic, s.toZoneEic]).toEqual(['10YDK-2--------M', '10YDK-1--------W']);
    // 2026-02-16T23:00Z -> 2026-03-29T22:00Z: 41 days, the last one (2026-03-29, CET -> CEST) 23 hours:
    // 40 x 24 + 23 = 983 hours.
    expect(s.points).toHaveLength(983);
    expect(s.points.every((p) => p.mw === 600 && !p.interpolated)).toBe(true);
    expect([isoOf(s.points[0]), isoOf(s.points.at(-1))]).toEqual(['2026-02-16T23:00Z', '2026-03-29T21:00Z']);
  });

  it('month-ahead FR <- ES: P1D positions 1, 3, 16 follow market days, so day 16 starts at 22:00Z after the DST change', () => {
    const s = ntc('A61_in-FR_out-ES_month_ahead_NTC_P1D_A03.xml');
    expect([s.fromZoneEic, s.toZoneEic]).toEqual(['10YES-REE------0', '10YFR-RTE------C']);
    // 2026-03-16T23:00Z -> 2026-05-18T22:00Z = 63 market days, one of 23 hours: 63 x 24 - 1 = 1511 hours.
    expect(s.points).toHaveLength(1511);
    // Days 1-2 (48 h) 2150; days 3-15 (13 days incl. the 23-hour 2026-03-29: 311 h) 2400; days 16-63 (48 x 24 h) 0.
    expect(s.points.filter((p) => p.mw === 2150)).toHaveLength(48);
    expect(s.points.filter((p) => p.mw === 2400)).toHaveLength(311);
    expect(s.points.filter((p) => p.mw === 0)).toHaveLength(1152);
    expect(at(s.points, '2026-03-18T22:00Z')?.mw).toBe(2150);
    expect(at(s.points, '2026-03-18T23:00Z')?.mw).toBe(2400);
    // Local day 2026-04-01 (CEST) starts at 2026-03-31T22:00Z, not 23:00Z.
    expect(at(s.points, '2026-03-31T21:00Z')?.mw).toBe(2400);
    expect(at(s.points, '2026-03-31T22:00Z')?.mw).toBe(0);
    expect(isoOf(s.points.at(-1))).toBe('2026-05-18T21:00Z');
  });
});

describe('A78 transmission outages', () => {
  it('reads the real zip: one planned NL-BE line outage', () => {
    const outages = dataOf(parseTransmissionOutages(fixture('A78_OUTAGES_A78_202011180000-202011190000.zip')));
    expect(outages).toEqual([
      {
        mRID: 'jK9_LQxQKyCztr5NfozZKg',
        revisionNumber: 3,
        fromZoneEic: '10YBE----------2',
        toZoneEic: '10YNL----------L',
        start: new Date('2020-10-15T05:30Z'),
        end: new Date('2020-12-16T14:30Z'),
        planned: true,
        status: 'active',
        reasonCode: 'B19',
        reasonText: 'ScheduledWorks',
        assets: [{ mRID: '22T20161020----I', name: 'AVLGM380 101 HORTA', psrType: 'B21' }],
        minAvailableMw: 1400,
      },
    ]);
  });

  function handmadeZip(): Uint8Array {
    return zipSync({
      '001-001-UNPLANNED_rev1.xml': fixture('HANDMADE_A78_unplanned_rev1.xml'),
      '001-002-UNPLANNED_rev2.xml': fixture('HANDMADE_A78_unplanned_rev2.xml'),
      '002-001-PLANNED_cancelled.xml': fixture('HANDMADE_A78_planned_cancelled.xml'),
    });
  }

  it('hand-made zip: keeps the latest revision, drops the cancelled outage, reads A54 as unplanned', () => {
    const outages = dataOf(parseTransmissionOutages(handmadeZip()));
    expect(outages).toHaveLength(1);
    expect(outages[0]).toMatchObject({
      mRID: 'HANDMADE-unplanned-0001',
      revisionNumber: 2,
      fromZoneEic: '10YDK-1--------W',
      toZoneEic: '10Y1001A1001A82H',
      start: new Date('2024-02-10T08:00Z'),
      end: new Date('2024-02-10T15:00Z'),
      planned: false,
      status: 'active',
      reasonCode: 'B18',
      reasonText: 'Failure',
      minAvailableMw: 0,
    });
  });

  it('hand-made zip with includeInactive: the cancelled planned outage is kept and flagged', () => {
    const outages = dataOf(parseTransmissionOutages(handmadeZip(), { includeInactive: true }));
    expect(outages.map((o) => [o.mRID, o.status, o.planned])).toEqual([
      ['HANDMADE-cancelled-0002', 'cancelled', true],
      ['HANDMADE-unplanned-0001', 'active', false],
    ]);
  });

  it('an acknowledgement instead of a zip is the empty answer', () => {
    const result = parseTransmissionOutages(fixture('ACK_no_matching_data_official_guide_example_2016.xml'));
    expect(result).toEqual({ kind: 'empty', reason: 'No matching data found' });
  });
});
