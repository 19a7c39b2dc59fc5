import { describe, expect, it } from 'vitest';
import { splitWeeks } from '../../src/repositories/flows/daily-sums.js';

const range = (from: string, to: string) => ({ from: new Date(`${from}T00:00:00Z`), to: new Date(`${to}T00:00:00Z`) });
const iso = (r: { from: Date; to: Date }) => [r.from.toISOString().slice(0, 10), r.to.toISOString().slice(0, 10)];

describe('splitWeeks', () => {
  it('keeps the whole ISO weeks (Monday to Monday) and the days around them', () => {
    const s = splitWeeks(range('2025-09-24', '2025-10-18')); // Wednesday .. Saturday
    expect(s.weeks && iso(s.weeks)).toEqual(['2025-09-29', '2025-10-13']);
    expect(s.days.map(iso)).toEqual([
      ['2025-09-24', '2025-09-29'],
      ['2025-10-13', '2025-10-18'],
    ]);
  });

  it('needs no days around weeks that fill the range', () => {
    const s = splitWeeks(range('2025-09-22', '2025-10-06'));
    expect(s.weeks && iso(s.weeks)).toEqual(['2025-09-22', '2025-10-06']);
    expect(s.days).toEqual([]);
  });

  it('returns the days alone when no whole week fits', () => {
    expect(splitWeeks(range('2025-09-23', '2025-09-29')).weeks).toBeNull();
    expect(splitWeeks(range('2025-09-23', '2025-10-05'))).toEqual({
      weeks: null,
      days: [range('2025-09-23', '2025-10-05')],
    });
  });
});
