import { describe, expect, it } from 'vitest';
import { pieces } from '../../src/dashboard/fetch.js';
import { fromWall, MARKET_ZONE, offsetMs, toWall } from '../../src/dashboard/time.js';

const at = (iso: string) => Date.parse(iso);

describe('dashboard market time (CET/CEST)', () => {
  it('is one hour ahead of UTC in winter and two in summer, switching at 01:00 UTC on the last Sundays of March and October', () => {
    expect(offsetMs(at('2025-03-30T00:59:59Z'), MARKET_ZONE)).toBe(3_600_000);
    expect(offsetMs(at('2025-03-30T01:00:00Z'), MARKET_ZONE)).toBe(7_200_000);
    expect(offsetMs(at('2025-10-26T00:59:59Z'), MARKET_ZONE)).toBe(7_200_000);
    expect(offsetMs(at('2025-10-26T01:00:00Z'), MARKET_ZONE)).toBe(3_600_000);
    expect(offsetMs(at('2025-10-26T01:00:00Z'), 'UTC')).toBe(0);
  });

  it('maps a delivery day to its instants: 23 hours in March, 25 in October, 24 otherwise', () => {
    const day = (d: string) => {
      const from = fromWall(at(`${d}T00:00:00Z`), MARKET_ZONE);
      const to = fromWall(at(`${d}T00:00:00Z`) + 86_400_000, MARKET_ZONE);
      return [new Date(from).toISOString(), (to - from) / 3_600_000];
    };
    expect(day('2025-03-30')).toEqual(['2025-03-29T23:00:00.000Z', 23]);
    expect(day('2025-10-26')).toEqual(['2025-10-25T22:00:00.000Z', 25]);
    expect(day('2025-11-06')).toEqual(['2025-11-05T23:00:00.000Z', 24]);
  });

  it('reads a repeated autumn hour as its first instant and a skipped spring hour as the instant after the gap', () => {
    expect(new Date(fromWall(at('2025-10-26T02:30:00Z'), MARKET_ZONE)).toISOString()).toBe('2025-10-26T00:30:00.000Z');
    expect(new Date(fromWall(at('2025-03-30T02:30:00Z'), MARKET_ZONE)).toISOString()).toBe('2025-03-30T01:30:00.000Z');
    expect(new Date(toWall(at('2025-10-26T01:30:00Z'), MARKET_ZONE)).toISOString()).toBe('2025-10-26T02:30:00.000Z');
  });
});

describe('dashboard request pieces in market time', () => {
  it('give a 14-day piece over the October clock change a day fewer, so no piece exceeds 14 days of real time', () => {
    const day = (d: string) => at(`${d}T00:00:00Z`);
    const scope = { range: { from: day('2025-10-07'), to: day('2025-11-06') }, tz: 'market' as const };
    const cut = pieces(scope, 14 * 86_400_000).map((p) => [
      new Date(p.from).toISOString().slice(0, 10),
      new Date(p.to).toISOString().slice(0, 10),
    ]);
    expect(cut).toEqual([
      ['2025-10-07', '2025-10-21'],
      ['2025-10-21', '2025-11-03'],
      ['2025-11-03', '2025-11-06'],
    ]);
    expect(pieces({ ...scope, tz: 'UTC' }, 14 * 86_400_000).map((p) => (p.to - p.from) / 86_400_000)).toEqual([
      14, 14, 2,
    ]);
  });
});
