import { DateTimeISOResolver } from 'graphql-scalars';
import { describe, expect, it } from 'vitest';
import { isZonedText, lastInstantMemo } from '../../src/graphql/date-time.js';

describe('DateTime scalar remembering the last instant', () => {
  const memo = lastInstantMemo(DateTimeISOResolver);

  it('writes what DateTimeISO writes for repeated, changing and millisecond instants', () => {
    const instants = [
      '2026-11-01T00:00:00Z',
      '2026-11-01T00:00:00Z',
      '2026-11-01T01:00:00Z',
      '2026-11-01T00:00:00Z',
      '2026-11-01T00:15:00.123Z',
    ];
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

describe('instants already written in a time zone', () => {
  it('are RFC 3339 texts with a numeric offset, and nothing else', () => {
    expect(isZonedText('2026-03-29T00:00:00+01:00')).toBe(true);
    expect(isZonedText('2026-10-25T02:30:00.250-03:30')).toBe(true);
    expect(isZonedText('2026-03-29T00:00:00Z')).toBe(false);
    expect(isZonedText('2026-03-29T00:00:00')).toBe(false);
    expect(isZonedText('2026-13-45T00:00:00+01:00')).toBe(false);
    expect(isZonedText(new Date('2026-03-29T00:00:00Z'))).toBe(false);
  });
});
