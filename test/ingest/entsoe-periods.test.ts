import { describe, expect, it } from 'vitest';
import {
  addEuCalendarDays,
  expandPeriod,
  fillGaps,
  isEuSummerTime,
  toHourly,
  type Sample,
} from '../../src/ingest/entsoe/index.js';

const H = 3_600_000;
const t = (iso: string): number => Date.parse(iso);
const show = (samples: readonly Sample[]) =>
  samples.map((s) => [
    new Date(s.start).toISOString().slice(11, 16),
    (s.end - s.start) / 60_000,
    s.value,
    s.interpolated,
  ]);

describe('EU market days', () => {
  it('switches to summer time on the last Sunday of March and back on the last Sunday of October at 01:00Z', () => {
    expect(isEuSummerTime(t('2025-03-30T00:59Z'))).toBe(false);
    expect(isEuSummerTime(t('2025-03-30T01:00Z'))).toBe(true);
    expect(isEuSummerTime(t('2025-10-26T00:59Z'))).toBe(true);
    expect(isEuSummerTime(t('2025-10-26T01:00Z'))).toBe(false);
  });

  it('a market day lasts 23 hours in March, 25 in October, 24 otherwise', () => {
    expect(addEuCalendarDays(t('2025-03-29T23:00Z'), 1)).toBe(t('2025-03-30T22:00Z'));
    expect(addEuCalendarDays(t('2025-10-25T22:00Z'), 1)).toBe(t('2025-10-26T23:00Z'));
    expect(addEuCalendarDays(t('2025-06-01T22:00Z'), 1)).toBe(t('2025-06-02T22:00Z'));
    expect(addEuCalendarDays(t('2026-02-16T23:00Z'), 41)).toBe(t('2026-03-29T22:00Z'));
  });
});

describe('expanding a Period', () => {
  const period = (
    resolution: string,
    points: [number, number][],
    start = '2025-01-01T00:00Z',
    end = '2025-01-01T04:00Z',
  ) => ({
    start: t(start),
    end: t(end),
    resolution,
    points: points.map(([position, value]) => ({ position, value })),
  });

  it('A03: an omitted position repeats the previous value and the last point extends to the end', () => {
    expect(
      show(
        expandPeriod(
          period('PT60M', [
            [1, 10],
            [3, 30],
          ]),
          'A03',
        ),
      ),
    ).toEqual([
      ['00:00', 60, 10, false],
      ['01:00', 60, 10, false],
      ['02:00', 60, 30, false],
      ['03:00', 60, 30, false],
    ]);
  });

  it('A01: an omitted position is a gap', () => {
    expect(
      show(
        expandPeriod(
          period('PT60M', [
            [1, 10],
            [3, 30],
          ]),
          'A01',
        ),
      ),
    ).toEqual([
      ['00:00', 60, 10, false],
      ['02:00', 60, 30, false],
    ]);
  });

  it('positions are 1-based and may come unordered', () => {
    expect(
      show(
        expandPeriod(
          period(
            'PT30M',
            [
              [2, 2],
              [1, 1],
            ],
            '2025-01-01T00:00Z',
            '2025-01-01T01:00Z',
          ),
          'A01',
        ),
      ),
    ).toEqual([
      ['00:00', 30, 1, false],
      ['00:30', 30, 2, false],
    ]);
  });

  it('A03 positions before the first published one have no value', () => {
    expect(show(expandPeriod(period('PT60M', [[3, 30]]), 'A03')).map((r) => r[0])).toEqual(['02:00', '03:00']);
  });

  it('refuses a period that is not a whole number of steps', () => {
    expect(() => expandPeriod(period('PT60M', [[1, 1]], '2025-01-01T00:00Z', '2025-01-01T00:30Z'), 'A01')).toThrow(
      /whole number/,
    );
  });
});

describe('gap filling and hourly means', () => {
  const s = (start: string, minutes: number, value: number): Sample => ({
    start: t(start),
    end: t(start) + minutes * 60_000,
    value,
    interpolated: false,
  });

  it('fills a 30-minute hole between quarter-hours on the 15-minute grid', () => {
    const filled = fillGaps([s('2025-01-01T00:00Z', 15, 0), s('2025-01-01T00:45Z', 15, 90)], 3 * H);
    // Line from (00:00, 0) to (00:45, 90): 00:15 -> 30, 00:30 -> 60.
    expect(show(filled)).toEqual([
      ['00:00', 15, 0, false],
      ['00:15', 15, 30, true],
      ['00:30', 15, 60, true],
      ['00:45', 15, 90, false],
    ]);
    expect(toHourly(filled)).toEqual([{ ts: new Date('2025-01-01T00:00Z'), mw: 45, interpolated: true }]);
  });

  it('leaves a gap longer than the limit, and never extrapolates', () => {
    const samples = [s('2025-01-01T00:00Z', 60, 1), s('2025-01-01T05:00Z', 60, 5)];
    expect(fillGaps(samples, 3 * H)).toHaveLength(2);
    expect(fillGaps(samples, 4 * H)).toHaveLength(6);
  });

  it('an hour is emitted only when fully covered; a P1D value covers each hour of its day', () => {
    expect(toHourly([s('2025-01-01T00:00Z', 15, 4), s('2025-01-01T00:15Z', 15, 8)])).toEqual([]);
    const day = toHourly([s('2025-01-01T23:00Z', 24 * 60, 600)]);
    expect(day).toHaveLength(24);
    expect(day.every((p) => p.mw === 600)).toBe(true);
  });
});
