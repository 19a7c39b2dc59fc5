import { describe, expect, it } from 'vitest';
import { ALWAYS, borderPeriod, boundIso, covers, intersect, zonePeriod } from '../../src/domain/validity.js';

const SPLIT = Date.UTC(2018, 8, 30, 22);

describe('zone and border validity', () => {
  it('ends DE_AT_LU and starts DE_LU and AT at 2018-10-01 00:00 Berlin time', () => {
    expect(zonePeriod('DE_AT_LU')).toEqual({ from: -Infinity, to: SPLIT });
    expect(zonePeriod('DE_LU')).toEqual({ from: SPLIT, to: Infinity });
    expect(zonePeriod('AT')).toEqual({ from: SPLIT, to: Infinity });
  });

  it('treats a zone without history as valid over the whole record', () => {
    expect(zonePeriod('FR')).toBe(ALWAYS);
  });

  it('gives a border the intersection of its zones, and none when they never coexisted', () => {
    expect(borderPeriod('DE_AT_LU', 'FR')).toEqual({ from: -Infinity, to: SPLIT });
    expect(borderPeriod('AT', 'DE_LU')).toEqual({ from: SPLIT, to: Infinity });
    expect(borderPeriod('DE_AT_LU', 'DE_LU')).toBeNull();
    expect(intersect({ from: 0, to: 10 }, { from: 10, to: 20 })).toBeNull();
  });

  it('covers a range only when the range lies wholly inside the period', () => {
    expect(covers(zonePeriod('DE_LU'), { from: SPLIT, to: SPLIT + 3_600_000 })).toBe(true);
    expect(covers(zonePeriod('DE_LU'), { from: SPLIT - 3_600_000, to: SPLIT + 3_600_000 })).toBe(false);
  });

  it('writes open bounds as null and closed ones without milliseconds', () => {
    expect(boundIso(-Infinity)).toBeNull();
    expect(boundIso(SPLIT)).toBe('2018-09-30T22:00:00Z');
  });
});

describe('ingestion windows of zones that changed', () => {
  it('plans each zone and border over its own period only', async () => {
    const { planWindows } = await import('../../src/ingest/windows.js');
    const range = { from: new Date('2018-09-01T00:00:00Z'), to: new Date('2018-11-01T00:00:00Z') };
    const targets = [
      { item: 'prices', areaKey: 'DE_AT_LU' },
      { item: 'prices', areaKey: 'DE_LU' },
      { item: 'flows', areaKey: 'DE_LU->FR' },
      { item: 'prices', areaKey: 'FR' },
    ] as const;
    const spans = planWindows(targets, range, []).map((w) => [w.areaKey, w.start.toISOString(), w.end.toISOString()]);
    expect(spans).toEqual([
      ['DE_AT_LU', '2018-09-01T00:00:00.000Z', '2018-09-30T22:00:00.000Z'],
      ['DE_LU', '2018-09-30T22:00:00.000Z', '2018-11-01T00:00:00.000Z'],
      ['DE_LU->FR', '2018-09-30T22:00:00.000Z', '2018-11-01T00:00:00.000Z'],
      ['FR', '2018-09-01T00:00:00.000Z', '2018-11-01T00:00:00.000Z'],
    ]);
  });
});
