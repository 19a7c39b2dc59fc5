import { describe, expect, it } from 'vitest';
import { EntsoeNotDayAheadError, parseDayAheadPrices, type PricePoint } from '../../src/ingest/entsoe/index.js';
import { at, dataOf, fixture, isoOf } from './entsoe-helpers.js';

function prices(name: string, options?: Parameters<typeof parseDayAheadPrices>[1]) {
  const data = dataOf(parseDayAheadPrices(fixture(name), options));
  expect(data.series).toHaveLength(1);
  return { ...data, zone: data.series[0]!.zoneEic, points: data.series[0]!.points };
}

/** Consecutive points touch: each one starts where the previous one ends. */
function contiguous(points: readonly PricePoint[]): boolean {
  return points.every(
    (p, i) => i === 0 || p.ts.getTime() === points[i - 1]!.ts.getTime() + points[i - 1]!.periodMinutes * 60_000,
  );
}

describe('A44 day-ahead prices, real documents', () => {
  it('BE 2024-10-08 (ns 7:3, A03 with all 24 positions): 24 hourly points from 22:00Z', () => {
    const { zone, points, ignored } = prices('A44_BE_2024-10-08_PT60M.xml');
    expect(zone).toBe('10YBE----------2');
    expect(points).toHaveLength(24);
    expect(points[0]).toEqual({
      ts: new Date('2024-10-07T22:00Z'),
      periodMinutes: 60,
      priceEurMwh: 64.98,
      interpolated: false,
    });
    expect(at(points, '2024-10-08T06:00Z')?.priceEurMwh).toBe(100); // position 9 = 22:00Z + 8 h
    expect(points[23]).toEqual({
      ts: new Date('2024-10-08T21:00Z'),
      periodMinutes: 60,
      priceEurMwh: 50,
      interpolated: false,
    });
    expect(ignored).toEqual([]);
  });

  it('BE written with a namespace prefix, or with a comment in a Period, reads the same (generic XML path)', () => {
    const be = new TextDecoder().decode(fixture('A44_BE_2024-10-08_PT60M.xml'));
    const expected = parseDayAheadPrices(be);
    const prefixed = be.replace('xmlns=', 'xmlns:ns=').replace(/<(\/?)([A-Za-z_][\w.]*)([\s>])/g, '<$1ns:$2$3');
    expect(prefixed).toContain('<ns:Point>');
    expect(parseDayAheadPrices(prefixed)).toEqual(expected);
    expect(parseDayAheadPrices(be.replace('<position>3</position>', '<!-- c --><position>3</position>'))).toEqual(
      expected,
    );
    expect(
      parseDayAheadPrices(be.replace('<price.amount>100</price.amount>', '<price.amount>&#49;00</price.amount>')),
    ).toEqual(expected);
  });

  it('FR 2023-05-07/08 (ns 7:0, A01, no contract type = day-ahead): two days, 48 points', () => {
    const { zone, points } = prices('A44_FR_2023-05-07_08_PT60M_A01_ns7-0.xml');
    expect(zone).toBe('10YFR-RTE------C');
    expect(points).toHaveLength(48);
    expect(isoOf(points[0])).toBe('2023-05-06T22:00Z');
    expect(points[0]?.priceEurMwh).toBe(106.78);
    expect(at(points, '2023-05-07T22:00Z')?.priceEurMwh).toBe(98.24); // first hour of day 2
    expect(isoOf(points[47])).toBe('2023-05-08T21:00Z');
    expect(points[47]?.priceEurMwh).toBe(104.04);
    expect(contiguous(points)).toBe(true);
  });

  it('SE4 2023-08-07/08: negative prices are kept as published', () => {
    const { zone, points } = prices('A44_SE4_2023-08-07_08_PT60M_A01_negative_prices_ns7-0.xml');
    expect(zone).toBe('10Y1001A1001A47J');
    expect(points).toHaveLength(48);
    expect(points[0]?.priceEurMwh).toBe(-0.19);
    // Day 1 negative at positions 1-6, 13-18 and 24 (13 hours); day 2 negative all 24 hours.
    expect(points.filter((p) => p.priceEurMwh < 0)).toHaveLength(37);
    // Minimum -11.60 at day 2 position 16 = 2023-08-07T22:00Z + 15 h.
    const min = points.reduce((a, b) => (b.priceEurMwh < a.priceEurMwh ? b : a));
    expect([isoOf(min), min.priceEurMwh]).toEqual(['2023-08-08T13:00Z', -11.6]);
    // Maximum 4.96 at day 1 position 10 = 2023-08-06T22:00Z + 9 h.
    expect(at(points, '2023-08-07T07:00Z')?.priceEurMwh).toBe(4.96);
    expect(points[47]?.priceEurMwh).toBe(-5.05);
  });

  it('DE-LU: keeps sequence 1 (SDAC, PT60M) and lists sequence 2 (EXAA, PT15M) as ignored', () => {
    const { zone, points, ignored } = prices('A44_DE-LU_2024-10-06_07_PT60M_seq1_plus_PT15M_seq2_A03.xml');
    expect(zone).toBe('10Y1001A1001A82H');
    expect(points).toHaveLength(48);
    expect(points.every((p) => p.periodMinutes === 60)).toBe(true);
    expect(points[0]?.priceEurMwh).toBe(67.04);
    // Position 15 of day 1 is omitted (A03): 2024-10-05T22:00Z + 14 h repeats position 14 (-0.01).
    expect(at(points, '2024-10-06T11:00Z')?.priceEurMwh).toBe(-0.01);
    expect(at(points, '2024-10-06T12:00Z')).toMatchObject({ priceEurMwh: -0.01, interpolated: false });
    expect(at(points, '2024-10-06T13:00Z')?.priceEurMwh).toBe(0.2);
    expect(at(points, '2024-10-06T22:00Z')?.priceEurMwh).toBe(34.58);
    expect(points[47]?.priceEurMwh).toBe(79.12);
    expect(ignored).toEqual([
      {
        zoneEic: '10Y1001A1001A82H',
        contractType: 'A01',
        sequence: 2,
        start: new Date('2024-10-05T22:00Z'),
        end: new Date('2024-10-07T22:00Z'),
        reason: 'other-sequence',
      },
    ]);
  });

  it('DE-LU with sequence 2 requested: 192 quarter-hours of the EXAA auction', () => {
    const { points } = prices('A44_DE-LU_2024-10-06_07_PT60M_seq1_plus_PT15M_seq2_A03.xml', { sequence: 2 });
    expect(points).toHaveLength(192);
    expect(points[0]).toMatchObject({ periodMinutes: 15, priceEurMwh: 98.1 });
    // Day 1 position 23 omitted: 22:00Z + 22 x 15 min = 03:30Z repeats position 22 (68.2).
    expect(at(points, '2024-10-06T03:30Z')?.priceEurMwh).toBe(68.2);
    expect(at(points, '2024-10-06T03:45Z')?.priceEurMwh).toBe(63.76);
    // Day 2 position 6 omitted: 2024-10-06T22:00Z + 5 x 15 min repeats position 5 (64.91).
    expect(at(points, '2024-10-06T23:15Z')?.priceEurMwh).toBe(64.91);
    expect([isoOf(points[191]), points[191]?.priceEurMwh]).toEqual(['2024-10-07T21:45Z', 70.39]);
  });

  it('ES 2025-09-29..10-02: PT60M until 2025-09-30, PT15M from 2025-10-01, A03 omissions repeat the previous value', () => {
    const { zone, points } = prices('A44_ES_2025-09-29_to_10-02_PT60M_then_PT15M.xml');
    expect(zone).toBe('10YES-REE------0');
    expect(points).toHaveLength(24 + 24 + 96 + 96);
    expect(contiguous(points)).toBe(true);
    expect(points.some((p) => p.interpolated)).toBe(false);
    expect(points[0]).toMatchObject({ ts: new Date('2025-09-28T22:00Z'), periodMinutes: 60, priceEurMwh: 51.6 });
    // The switch: last hourly period, then the first quarter-hour of delivery day 2025-10-01 (CEST).
    expect(at(points, '2025-09-30T21:00Z')).toMatchObject({ periodMinutes: 60, priceEurMwh: 101.5 });
    expect(at(points, '2025-09-30T22:00Z')).toMatchObject({ periodMinutes: 15, priceEurMwh: 105.1 });
    expect(points.filter((p) => p.periodMinutes === 60)).toHaveLength(48);
    // Day 3 omits 12, 15, 84: 22:00Z + 11/14/83 quarter-hours repeat positions 11 (100), 14 (97.51), 83 (230).
    expect(at(points, '2025-10-01T00:45Z')?.priceEurMwh).toBe(100);
    expect(at(points, '2025-10-01T01:30Z')?.priceEurMwh).toBe(97.51);
    expect(at(points, '2025-10-01T18:45Z')?.priceEurMwh).toBe(230);
    // Day 4 omits 4, 10-12 and 60: they repeat positions 3 (103.33), 9 (95) and 59 (16.79).
    expect(at(points, '2025-10-01T22:45Z')?.priceEurMwh).toBe(103.33);
    for (const t of ['2025-10-02T00:00Z', '2025-10-02T00:15Z', '2025-10-02T00:30Z', '2025-10-02T00:45Z']) {
      expect(at(points, t)?.priceEurMwh).toBe(95);
    }
    expect(at(points, '2025-10-02T01:00Z')?.priceEurMwh).toBe(95.5); // position 13
    expect(at(points, '2025-10-02T12:45Z')?.priceEurMwh).toBe(16.79);
    expect([isoOf(points.at(-1)), points.at(-1)?.priceEurMwh]).toEqual(['2025-10-02T21:45Z', 103.27]);
  });

  it('CH 2025-11-26/27: stays hourly after the 15-minute go-live', () => {
    const { zone, points } = prices('A44_CH_2025-11-26_27_PT60M.xml');
    expect(zone).toBe('10YCH-SWISSGRIDZ');
    expect(points).toHaveLength(48);
    expect(points.every((p) => p.periodMinutes === 60)).toBe(true);
    expect([isoOf(points[0]), points[0]?.priceEurMwh]).toEqual(['2025-11-25T23:00Z', 104.06]);
    expect(at(points, '2025-11-26T15:00Z')?.priceEurMwh).toBe(317.97); // day 1 position 17, the maximum
    expect([isoOf(points[47]), points[47]?.priceEurMwh]).toEqual(['2025-11-27T22:00Z', 111.8]);
  });

  it('rejects the ES intraday auction document (contract A07) as not day-ahead', () => {
    const parse = () => parseDayAheadPrices(fixture('A44_ES_intraday_auction_IDA_PT15M_2025-09-29_to_10-02.xml'));
    expect(parse).toThrow(EntsoeNotDayAheadError);
    expect(parse).toThrow(/A07/);
    try {
      parse();
    } catch (e) {
      expect((e as EntsoeNotDayAheadError).contractTypes).toEqual(['A07']);
    }
  });
});

describe('A44 day-ahead prices, hand-made documents', () => {
  it('23-hour day 2025-03-30 (CET -> CEST): 23 hourly points, A03 omissions inside and at the end', () => {
    const { zone, points } = prices('HANDMADE_A44_FR_2025-03-30_DST_23h_PT60M_A03_ns7-3.xml');
    expect(zone).toBe('10YFR-RTE------C');
    expect(points).toHaveLength(23);
    expect(isoOf(points[0])).toBe('2025-03-29T23:00Z');
    expect(at(points, '2025-03-30T01:00Z')?.priceEurMwh).toBe(75.5); // position 3 repeats 2
    expect(at(points, '2025-03-30T08:00Z')?.priceEurMwh).toBe(40); // 10 and 11 repeat 9
    expect(at(points, '2025-03-30T09:00Z')?.priceEurMwh).toBe(40);
    expect(at(points, '2025-03-30T11:00Z')?.priceEurMwh).toBe(-12.34);
    // Position 21 (19:00Z) holds until the period end 22:00Z: 20:00Z and 21:00Z too.
    expect(points.slice(-3).map((p) => [isoOf(p), p.priceEurMwh])).toEqual([
      ['2025-03-30T19:00Z', 95.2],
      ['2025-03-30T20:00Z', 95.2],
      ['2025-03-30T21:00Z', 95.2],
    ]);
    expect(contiguous(points)).toBe(true);
  });

  it('25-hour day 2025-10-26 (CEST -> CET) at 15 minutes: 100 points covering 25 hours', () => {
    const { points } = prices('HANDMADE_A44_NL_2025-10-26_DST_25h_PT15M_A03_ns7-3.xml');
    expect(points).toHaveLength(100);
    expect(points.reduce((m, p) => m + p.periodMinutes, 0)).toBe(25 * 60);
    expect([isoOf(points[0]), points[0]?.priceEurMwh]).toEqual(['2025-10-25T22:00Z', 50]);
    // Position 9 = 22:00Z + 2 h = 52.00; omitted 10-12 repeat it; position 13 = 53.00.
    expect(
      ['2025-10-26T00:00Z', '2025-10-26T00:15Z', '2025-10-26T00:30Z', '2025-10-26T00:45Z'].map(
        (t) => at(points, t)?.priceEurMwh,
      ),
    ).toEqual([52, 52, 52, 52]);
    expect(at(points, '2025-10-26T01:00Z')?.priceEurMwh).toBe(53);
    expect(at(points, '2025-10-26T01:15Z')?.priceEurMwh).toBe(53.25);
    // Position 97 = 22:00Z + 24 h = 74.00, repeated by 98-100 up to the end 23:00Z.
    expect(points.slice(-4).map((p) => [isoOf(p), p.priceEurMwh])).toEqual([
      ['2025-10-26T22:00Z', 74],
      ['2025-10-26T22:15Z', 74],
      ['2025-10-26T22:30Z', 74],
      ['2025-10-26T22:45Z', 74],
    ]);
  });

  it('A01 gaps: 2 missing hours are interpolated and flagged, 4 missing hours stay empty', () => {
    const { points } = prices('HANDMADE_A44_BE_2023-01-15_PT60M_A01_gaps_ns7-0.xml');
    expect(points).toHaveLength(20);
    // Positions 5 and 6 (03:00Z, 04:00Z) lie between position 4 = 100 and 7 = 70: 90 and 80.
    expect(at(points, '2023-01-15T03:00Z')).toMatchObject({ priceEurMwh: 90, interpolated: true, periodMinutes: 60 });
    expect(at(points, '2023-01-15T04:00Z')).toMatchObject({ priceEurMwh: 80, interpolated: true });
    expect(points.filter((p) => p.interpolated)).toHaveLength(2);
    // Positions 15-18 (13:00Z-16:00Z): 4 hours > 3-hour limit.
    for (const t of ['2023-01-15T13:00Z', '2023-01-15T14:00Z', '2023-01-15T15:00Z', '2023-01-15T16:00Z']) {
      expect(at(points, t)).toBeUndefined();
    }
    expect(at(points, '2023-01-15T12:00Z')?.priceEurMwh).toBe(20);
    expect(at(points, '2023-01-15T17:00Z')?.priceEurMwh).toBe(60);
  });

  it('A01 gaps with a 4-hour limit: 20 -> 60 over 5 steps gives 28, 36, 44, 52; with 0 nothing is filled', () => {
    const wide = prices('HANDMADE_A44_BE_2023-01-15_PT60M_A01_gaps_ns7-0.xml', { maxGapMinutes: 240 }).points;
    expect(wide).toHaveLength(24);
    expect(['13:00', '14:00', '15:00', '16:00'].map((h) => at(wide, `2023-01-15T${h}Z`)?.priceEurMwh)).toEqual([
      28, 36, 44, 52,
    ]);
    const none = prices('HANDMADE_A44_BE_2023-01-15_PT60M_A01_gaps_ns7-0.xml', { maxGapMinutes: 0 }).points;
    expect(none).toHaveLength(18);
    expect(none.some((p) => p.interpolated)).toBe(false);
  });
});
