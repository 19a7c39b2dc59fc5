import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/domain/calendar.js';
import { type CoverPart, coarseInPage, coverRange, periodUnits } from '../../src/domain/period-cover.js';

const ms = (iso: string) => new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso).getTime();
const text = (t: number) => {
  const s = new Date(t).toISOString();
  return s.endsWith('T00:00:00.000Z') ? s.slice(0, 10) : s.slice(0, 16);
};
/** A part as [level, from, to] (and the units of whole periods), in readable UTC. */
const show = (parts: readonly CoverPart[]) =>
  parts.map((p) =>
    p.level === 'fine'
      ? [p.level, text(p.from), text(p.to)]
      : [p.level, text(p.from), text(p.to), text(p.firstUnit), text(p.endUnit)],
  );

describe('coverRange', () => {
  it('covers 20 years of days with whole years, the months around them and the pieces at the ends', () => {
    const parts = coverRange(ms('2006-11-27T13:00Z'), ms('2026-11-27T13:00Z'), ['year', 'month'], false);
    expect(show(parts)).toEqual([
      ['fine', '2006-11-27T13:00', '2006-12-01'],
      ['month', '2006-12-01', '2007-01-01', '2006-12-01', '2007-01-01'],
      ['year', '2007-01-01', '2026-01-01', '2007-01-01', '2026-01-01'],
      ['month', '2026-01-01', '2026-11-01', '2026-01-01', '2026-11-01'],
      ['fine', '2026-11-01', '2026-11-27T13:00'],
    ]);
  });

  it('puts a week in the period of its Monday at 1W: periods run from first Monday to first Monday', () => {
    // 2025-01-01 is a Wednesday (first Monday 01-06), 2026-01-01 a Thursday (01-05), 2026-03-01 a Sunday (03-02).
    const parts = coverRange(ms('2024-12-20'), ms('2026-03-15'), ['year', 'month'], true);
    expect(show(parts)).toEqual([
      ['fine', '2024-12-20', '2025-01-06'],
      ['year', '2025-01-06', '2026-01-05', '2025-01-01', '2026-01-01'],
      ['month', '2026-01-05', '2026-03-02', '2026-01-01', '2026-03-01'],
      ['fine', '2026-03-02', '2026-03-15'],
    ]);
  });

  it('covers an hourly range with whole days and the hours of its partial first and last days', () => {
    const parts = coverRange(ms('2025-10-20T05:00Z'), ms('2025-11-03T05:00Z'), ['day'], false);
    expect(show(parts)).toEqual([
      ['fine', '2025-10-20T05:00', '2025-10-21'],
      ['day', '2025-10-21', '2025-11-03', '2025-10-21', '2025-11-03'],
      ['fine', '2025-11-03', '2025-11-03T05:00'],
    ]);
  });

  it('leaves a range without a whole period to its positions', () => {
    const [from, to] = [ms('2025-10-10T05:00Z'), ms('2025-10-12T07:00Z')];
    expect(coverRange(from, to, ['year', 'month'], false)).toEqual([{ level: 'fine', from, to }]);
    expect(coverRange(from, from, ['year', 'month'], false)).toEqual([]);
  });

  it.each([false, true])('tiles any range exactly, whole periods on their boundaries (weekly: %s)', (weekly) => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 300; i++) {
      const from = ms('2004-01-01') + Math.floor(random() * 20 * 365) * DAY_MS + Math.floor(random() * 24) * 3_600_000;
      const to = from + Math.floor(random() * 6 * 365 * 24) * 3_600_000;
      const parts = coverRange(from, to, ['year', 'month'], weekly);
      let at = from;
      for (const p of parts) {
        expect(p.from).toBe(at);
        expect(p.to).toBeGreaterThan(p.from);
        if (p.level !== 'fine') {
          const u = periodUnits(p.level, weekly);
          expect([u.boundary(p.firstUnit), u.boundary(p.endUnit)]).toEqual([p.from, p.to]);
          if (weekly) expect([new Date(p.from).getUTCDay(), new Date(p.to).getUTCDay()]).toEqual([1, 1]);
        }
        at = p.to;
      }
      expect(at).toBe(parts.length ? to : from);
    }
  });
});

describe('coarseInPage', () => {
  const entries = [
    { rows: 3, coarse: false },
    { rows: 5, coarse: true },
    { rows: 0, coarse: true },
    { rows: 2, coarse: false },
    { rows: 4, coarse: true },
  ];
  const coarse = (e: { coarse: boolean }) => e.coarse;

  it('lists the coarse entries holding a row of the page', () => {
    expect(coarseInPage(entries, coarse, { offset: 7, limit: 2 })).toEqual([1]);
    expect(coarseInPage(entries, coarse, { offset: 8, limit: 3 })).toEqual([4]);
    expect(coarseInPage(entries, coarse, { offset: 0, limit: 100 })).toEqual([1, 4]);
  });

  it('lists none for a page of fine entries only, or past the end', () => {
    expect(coarseInPage(entries, coarse, { offset: 0, limit: 3 })).toEqual([]);
    expect(coarseInPage(entries, coarse, { offset: 8, limit: 2 })).toEqual([]);
    expect(coarseInPage(entries, coarse, { offset: 14, limit: 10 })).toEqual([]);
  });
});
