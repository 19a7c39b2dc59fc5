import { describe, expect, it } from 'vitest';
import {
  parsePhysicalFlows,
  parseScheduledExchanges,
  type ScheduleParseOptions,
} from '../../src/ingest/entsoe/index.js';
import { at, dataOf, fixture, isoOf } from './entsoe-helpers.js';

const DK1 = '10YDK-1--------W';
const GB = '10YGB----------A';

function flows(name: string, maxGapMinutes?: number) {
  const data = dataOf(parsePhysicalFlows(fixture(name), maxGapMinutes === undefined ? undefined : { maxGapMinutes }));
  expect(data).toHaveLength(1);
  return data[0]!;
}

function schedules(name: string, options?: ScheduleParseOptions) {
  const data = dataOf(parseScheduledExchanges(fixture(name), options));
  expect(data).toHaveLength(1);
  return data[0]!;
}

describe('A11 physical flows', () => {
  // Three TimeSeries: 2023-12-20T17:00Z-2023-12-22T08:00Z (39 h), 09:00-11:00Z (2 h), 13:00-16:00Z (3 h).
  // Holes: 08:00Z (1 h) and 11:00-13:00Z (2 h), both within the 3-hour limit -> 39 + 1 + 2 + 2 + 3 = 47 hours.
  it('in GB / out DK1: power flows DK1 -> GB; split TimeSeries are joined and short holes interpolated', () => {
    const s = flows('A11_in-GB_out-DK1_2023-12-20_22_PT60M_gaps_as_split_TimeSeries.xml');
    expect([s.fromZoneEic, s.toZoneEic]).toEqual([DK1, GB]);
    expect(s.points).toHaveLength(47);
    expect(s.points[0]).toEqual({ ts: new Date('2023-12-20T17:00Z'), mw: 1362, interpolated: false });
    expect(at(s.points, '2023-12-20T18:00Z')?.mw).toBe(102);
    expect(at(s.points, '2023-12-22T07:00Z')).toMatchObject({ mw: 1, interpolated: false }); // position 39
    // 08:00Z between 07:00Z (1) and 09:00Z (1).
    expect(at(s.points, '2023-12-22T08:00Z')).toMatchObject({ mw: 1, interpolated: true });
    // 11:00Z and 12:00Z on the line from 10:00Z (1) to 13:00Z (0): 2/3 and 1/3.
    expect(at(s.points, '2023-12-22T11:00Z')?.mw).toBeCloseTo(2 / 3, 12);
    expect(at(s.points, '2023-12-22T12:00Z')?.mw).toBeCloseTo(1 / 3, 12);
    expect(at(s.points, '2023-12-22T13:00Z')).toMatchObject({ mw: 0, interpolated: false });
    expect(s.points.filter((p) => p.interpolated).map(isoOf)).toEqual([
      '2023-12-22T08:00Z',
      '2023-12-22T11:00Z',
      '2023-12-22T12:00Z',
    ]);
    expect(isoOf(s.points.at(-1))).toBe('2023-12-22T15:00Z');
  });

  it('with a 1-hour limit only the 1-hour hole is filled', () => {
    const s = flows('A11_in-GB_out-DK1_2023-12-20_22_PT60M_gaps_as_split_TimeSeries.xml', 60);
    expect(s.points).toHaveLength(45);
    expect(at(s.points, '2023-12-22T08:00Z')?.interpolated).toBe(true);
    expect(at(s.points, '2023-12-22T11:00Z')).toBeUndefined();
  });

  it('in DK1 / out GB (reverse direction): power flows GB -> DK1', () => {
    const s = flows('A11_in-DK1_out-GB_2023-12-20_22_PT60M.xml');
    expect([s.fromZoneEic, s.toZoneEic]).toEqual([GB, DK1]);
    expect(s.points).toHaveLength(47);
    expect(s.points[0]?.mw).toBe(0);
    // Position 17 = 2023-12-20T17:00Z + 16 h; position 23 (1406 MW) is the maximum.
    expect(at(s.points, '2023-12-21T09:00Z')?.mw).toBe(38);
    expect(Math.max(...s.points.map((p) => p.mw))).toBe(1406);
    expect(at(s.points, '2023-12-21T15:00Z')?.mw).toBe(1406);
    // 11:00Z and 12:00Z between 10:00Z (0) and 13:00Z (2).
    expect(at(s.points, '2023-12-22T11:00Z')?.mw).toBeCloseTo(2 / 3, 12);
    expect(at(s.points, '2023-12-22T12:00Z')?.mw).toBeCloseTo(4 / 3, 12);
    expect(at(s.points, '2023-12-22T13:00Z')?.mw).toBe(2);
  });

  it('IT-SARD -> IT SACODC: 47 zero hours from 2023-12-27T10:00Z', () => {
    const s = flows('A11_in-IT-SACODC_out-IT-SARD_2023-12-27_29_PT60M.xml');
    expect([s.fromZoneEic, s.toZoneEic]).toEqual(['10Y1001A1001A74G', '10Y1001A1001A893']);
    expect(s.points).toHaveLength(47);
    expect(s.points.every((p) => p.mw === 0 && !p.interpolated)).toBe(true);
    expect([isoOf(s.points[0]), isoOf(s.points[46])]).toEqual(['2023-12-27T10:00Z', '2023-12-29T08:00Z']);
  });

  it('hand-made PT30M: hourly means of two half-hours; a missing half-hour is interpolated first', () => {
    const s = flows('HANDMADE_A11_in-IE-SEM_out-GB_2020-12-01_PT30M_A01_missing_position.xml');
    expect([s.fromZoneEic, s.toZoneEic]).toEqual([GB, '10Y1001A1001A59C']);
    // (100+200)/2, (300+300)/2, (0+50)/2, (10+255)/2 with 255 = 10 + (500-10)/2, (500+700)/2, (1000+0)/2.
    expect(s.points.map((p) => [isoOf(p), p.mw, p.interpolated])).toEqual([
      ['2020-12-01T00:00Z', 150, false],
      ['2020-12-01T01:00Z', 300, false],
      ['2020-12-01T02:00Z', 25, false],
      ['2020-12-01T03:00Z', 132.5, true],
      ['2020-12-01T04:00Z', 600, false],
      ['2020-12-01T05:00Z', 500, false],
    ]);
  });

  it('hand-made PT30M without gap filling: the half-covered hour is left out', () => {
    const s = flows('HANDMADE_A11_in-IE-SEM_out-GB_2020-12-01_PT30M_A01_missing_position.xml', 0);
    expect(s.points.map(isoOf)).toEqual([
      '2020-12-01T00:00Z',
      '2020-12-01T01:00Z',
      '2020-12-01T02:00Z',
      '2020-12-01T04:00Z',
      '2020-12-01T05:00Z',
    ]);
  });
});

describe('A09 scheduled exchanges', () => {
  const BE_NL = 'A09_in-BE_out-NL_2024-03-24_26_PT15M_A05_and_A01.xml';

  it('BE <- NL, PT15M: hourly means of four quarter-hours, A05 (total) preferred over A01', () => {
    const s = schedules(BE_NL);
    expect([s.fromZoneEic, s.toZoneEic]).toEqual(['10YNL----------L', '10YBE----------2']);
    expect(s.points).toHaveLength(72);
    expect(s.points.every((p) => p.contractType === 'A05' && !p.interpolated)).toBe(true);
    // A05 day 1 positions 1-4: (355 + 318 + 322 + 323) / 4 = 329.5; positions 5-8: (857 + 810 + 792 + 752) / 4 = 802.75.
    expect(s.points[0]).toEqual({
      ts: new Date('2024-03-23T23:00Z'),
      mw: 329.5,
      interpolated: false,
      contractType: 'A05',
    });
    expect(at(s.points, '2024-03-24T00:00Z')?.mw).toBe(802.75);
    // A05 day 2 positions 25-28: (1850 + 1921 + 2023 + 2246) / 4 = 2010 at 2024-03-24T23:00Z + 6 h.
    expect(at(s.points, '2024-03-25T05:00Z')?.mw).toBe(2010);
    expect([isoOf(s.points[71]), s.points[71]?.mw]).toEqual(['2024-03-26T22:00Z', 815]);
  });

  it('BE <- NL with only A01 (day-ahead) wanted', () => {
    const s = schedules(BE_NL, { contractPreference: ['A01'] });
    expect(s.points).toHaveLength(72);
    expect(s.points.every((p) => p.contractType === 'A01')).toBe(true);
    expect(s.points.slice(0, 3).map((p) => p.mw)).toEqual([297, 149, 46]);
  });

  it('FI <- EE: A05 covers two days, A01 the third; each hour says where it came from', () => {
    const s = schedules('A09_in-FI_out-EE_2024-03-24_26_PT60M.xml');
    expect([s.fromZoneEic, s.toZoneEic]).toEqual(['10Y1001A1001A39I', '10YFI-1--------U']);
    expect(s.points).toHaveLength(72);
    expect(s.points.filter((p) => p.contractType === 'A05')).toHaveLength(48);
    expect(
      s.points
        .filter((p) => p.contractType === 'A01')
        .map(isoOf)
        .slice(0, 1),
    ).toEqual(['2024-03-25T23:00Z']);
    expect(at(s.points, '2024-03-24T07:00Z')).toMatchObject({ mw: 46, contractType: 'A05' }); // A05 day 1 position 9
    expect(at(s.points, '2024-03-26T05:00Z')).toMatchObject({ mw: 45, contractType: 'A01' }); // A01 day 3 position 7
    expect(at(s.points, '2024-03-26T09:00Z')?.mw).toBe(73);
    expect(at(s.points, '2024-03-26T10:00Z')?.mw).toBe(103);
  });

  const SE4 = 'A09_in-SE4_out-DK2_2023-12-21_24_PT60M.xml';

  it('SE4 <- DK2: A05 covers all four days', () => {
    const s = schedules(SE4);
    expect([s.fromZoneEic, s.toZoneEic]).toEqual(['10YDK-2--------M', '10Y1001A1001A47J']);
    expect(s.points).toHaveLength(96);
    expect(s.points[0]?.mw).toBe(1264);
    expect(at(s.points, '2023-12-23T11:00Z')?.mw).toBe(130); // A05 day 3 position 13
    expect([isoOf(s.points[95]), s.points[95]?.mw]).toEqual(['2023-12-24T22:00Z', 0]);
  });

  // The A01 series cover only two of the four days (TimeSeries 5: 2023-12-20T23:00Z-12-21T23:00Z,
  // TimeSeries 6: 2023-12-22T23:00Z-12-23T23:00Z), not three as the fixture's source note says.
  it('SE4 <- DK2 with A01 only: the missing days (24 h > 3 h) stay empty', () => {
    const s = schedules(SE4, { contractPreference: ['A01'] });
    expect(s.points).toHaveLength(48);
    expect(s.points[0]?.mw).toBe(770);
    expect(at(s.points, '2023-12-21T22:00Z')?.mw).toBe(556);
    expect(at(s.points, '2023-12-21T23:00Z')).toBeUndefined();
    expect(at(s.points, '2023-12-22T22:00Z')).toBeUndefined();
    expect(at(s.points, '2023-12-22T23:00Z')?.mw).toBe(585);
    expect(isoOf(s.points.at(-1))).toBe('2023-12-23T22:00Z');
  });

  it('SE4 <- DK2 preferring A01: the missing A01 days are taken from A05', () => {
    const s = schedules(SE4, { contractPreference: ['A01', 'A05'] });
    expect(s.points).toHaveLength(96);
    expect(at(s.points, '2023-12-20T23:00Z')).toMatchObject({ mw: 770, contractType: 'A01' });
    expect(at(s.points, '2023-12-22T12:00Z')).toMatchObject({ mw: 1285, contractType: 'A05' }); // A05 day 2 position 14
    expect(at(s.points, '2023-12-24T22:00Z')).toMatchObject({ mw: 0, contractType: 'A05' });
    expect(s.points.filter((p) => p.contractType === 'A05')).toHaveLength(48);
  });
});
