import { DateTimeISOResolver } from 'graphql-scalars';
import { describe, expect, it } from 'vitest';
import { lastInstantMemo } from '../../src/graphql/date-time.js';

describe('DateTime scalar remembering the last instant', () => {
  const memo = lastInstantMemo(DateTimeISOResolver);

  it('writes what DateTimeISO writes for repeated, changing and millisecond instants', () => {
    const instants = ['2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z', '2026-11-01T01:00:00Z', '2026-11-01T00:00:00Z', '2026-11-01T00:15:00.123Z'];
    for (const text of instants) {
      const d = new Date(text);
      expect(memo.serialize(d)).toBe(DateTimeISOResolver.serialize(d));
    }
    expect(memo.serialize(new Date('2026-11-01T01:00:00Z'))).toBe('2026-11-01T01:00:00.000Z');
  });

  it('still rejects an invalid date after a valid one, and serialises strings as DateTimeISO does', () => {
    memo.serialize(new Date('2026-11-01T00:00:00Z'));
    expect(() => memo.serialize(new Date(Number.NaN))).toThrow();
    expect(memo.serialize('2026-11-01T00:00:00Z')).toBe(DateTimeISOResolver.serialize('2026-11-01T00:00:00Z'));
  });

  it('keeps the name, description and parsing of the scalar', () => {
    expect(memo.name).toBe(DateTimeISOResolver.name);
    expect(memo.parseValue('2026-11-01T00:00:00Z')).toEqual(DateTimeISOResolver.parseValue('2026-11-01T00:00:00Z'));
  });
});
