import { describe, expect, it } from 'vitest';
import {
  type DateTimeParse,
  formatUtc,
  formatUtcNaive,
  parseDateTime,
  resolveRange,
  splitDays,
} from '../../src/domain/time.js';
import { InputError } from '../../src/errors.js';

const NOW = new Date('2026-03-31T10:20:30.456Z');
const iso = (r: DateTimeParse) => (r.ok ? r.instant.toISOString() : null);

describe('parseDateTime', () => {
  it('reads an ISO datetime without offset as UTC', () => {
    expect(iso(parseDateTime('2025-10-01T00:00:00', NOW))).toBe('2025-10-01T00:00:00.000Z');
  });
  it('reads a bare date as midnight UTC', () => {
    expect(iso(parseDateTime('2025-10-26', NOW))).toBe('2025-10-26T00:00:00.000Z');
  });
  it('converts an explicit offset to UTC', () => {
    expect(iso(parseDateTime('2025-10-01T02:00:00+02:00', NOW))).toBe('2025-10-01T00:00:00.000Z');
    expect(iso(parseDateTime('2025-10-01T00:00:00Z', NOW))).toBe('2025-10-01T00:00:00.000Z');
    expect(iso(parseDateTime('2025-10-01T00:00-0130', NOW))).toBe('2025-10-01T01:30:00.000Z');
  });
  it('resolves relative shorthand against now', () => {
    expect(iso(parseDateTime('now', NOW))).toBe('2026-03-31T10:20:30.456Z');
    expect(iso(parseDateTime('now-30d', NOW))).toBe('2026-03-01T10:20:30.456Z');
    expect(iso(parseDateTime('now-6H', NOW))).toBe('2026-03-31T04:20:30.456Z');
    expect(iso(parseDateTime('now-6h', NOW))).toBe('2026-03-31T04:20:30.456Z');
    expect(iso(parseDateTime('now-90m', NOW))).toBe('2026-03-31T08:50:30.456Z');
    expect(iso(parseDateTime('now-2w', NOW))).toBe('2026-03-17T10:20:30.456Z');
  });
  it('subtracts calendar months and years, clamping to the month end', () => {
    expect(iso(parseDateTime('now-1M', NOW))).toBe('2026-02-28T10:20:30.456Z');
    expect(iso(parseDateTime('now-1y', new Date('2028-02-29T00:00:00Z')))).toBe('2027-02-28T00:00:00.000Z');
  });
  it('rejects impossible dates and unknown forms', () => {
    for (const bad of [
      '2025-02-30',
      '2025-13-01',
      '2025-10-01T24:00:00',
      'yesterday',
      'now-5x',
      'now+1d',
      'now-d',
      '',
    ]) {
      expect(parseDateTime(bad, NOW), bad).toMatchObject({ ok: false, type: 'datetime_parsing' });
    }
  });
  it('accepts UTC offsets up to ±14:00 and refuses larger ones or minutes of 60 and more', () => {
    expect(iso(parseDateTime('2024-01-01T00:00:00+14:00', NOW))).toBe('2023-12-31T10:00:00.000Z');
    expect(iso(parseDateTime('2024-01-01T00:00:00-14:00', NOW))).toBe('2024-01-01T14:00:00.000Z');
    expect(iso(parseDateTime('2024-01-01T00:00:00-00:00', NOW))).toBe('2024-01-01T00:00:00.000Z');
    for (const bad of [
      '2024-01-01T00:00:00-99:99',
      '2024-01-01T00:00:00+14:01',
      '2024-01-01T00:00:00-15:00',
      '2024-01-01T00:00:00+01:60',
      '2024-01-01T00:00+0075',
    ]) {
      expect(parseDateTime(bad, NOW), bad).toEqual({
        ok: false,
        type: 'datetime_parsing',
        msg: expect.stringMatching(/offset/),
      });
    }
  });
  it('accepts instants from 1900-01-01T00:00:00Z to 2200-01-01T00:00:00Z inclusive', () => {
    expect(iso(parseDateTime('1900-01-01', NOW))).toBe('1900-01-01T00:00:00.000Z');
    expect(iso(parseDateTime('1900-01-01T01:00:00+01:00', NOW))).toBe('1900-01-01T00:00:00.000Z');
    expect(iso(parseDateTime('2200-01-01T00:00:00Z', NOW))).toBe('2200-01-01T00:00:00.000Z');
    expect(iso(parseDateTime('now-126y', NOW))).toBe('1900-03-31T10:20:30.456Z');
  });
  it('refuses instants outside the supported range, absolute or relative, with a range error', () => {
    const below = { ok: false, type: 'greater_than_equal', msg: expect.stringContaining('1900-01-01T00:00:00Z') };
    const above = { ok: false, type: 'less_than_equal', msg: expect.stringContaining('2200-01-01T00:00:00Z') };
    for (const text of [
      '1899-12-31T23:59:59.999',
      '1900-01-01T00:00:00+00:01',
      '0000-01-01',
      'now-2026y',
      'now-127y',
      'now-999999d',
      'now-999999y',
      'now-999999M',
      'now-999999w',
    ]) {
      expect(parseDateTime(text, NOW), text).toEqual(below);
    }
    for (const text of ['2200-01-01T00:00:00.001Z', '2199-12-31T23:00:00-01:01', '9999-12-31T23:59:59']) {
      expect(parseDateTime(text, NOW), text).toEqual(above);
    }
  });
});

describe('resolveRange', () => {
  it('defaults to the last 30 days with now truncated to the second', () => {
    const r = resolveRange(undefined, undefined, NOW.getTime());
    expect(r.from.toISOString()).toBe('2026-03-01T10:20:30.000Z');
    expect(r.to.toISOString()).toBe('2026-03-31T10:20:30.000Z');
  });
  it('names the unreadable parameter', () => {
    try {
      resolveRange('garbage', 'now', NOW.getTime());
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).issues.map((i) => i.param)).toEqual(['datetimeFrom']);
    }
  });
  it('names each parameter that resolves outside the supported range, with the parameter as sent', () => {
    try {
      resolveRange('now-2026y', 'now-999999d', NOW.getTime());
      expect.unreachable();
    } catch (err) {
      expect((err as InputError).issues).toEqual([
        { param: 'datetimeFrom', msg: expect.stringContaining('1900'), type: 'greater_than_equal', input: 'now-2026y' },
        { param: 'datetimeTo', msg: expect.stringContaining('1900'), type: 'greater_than_equal', input: 'now-999999d' },
      ]);
    }
  });
  it('rejects an empty or inverted range on datetimeTo', () => {
    expect(() => resolveRange('2025-01-02', '2025-01-02', 0)).toThrow(/datetime_to must be later/);
    expect(() => resolveRange('2025-01-03', '2025-01-02', 0)).toThrow(InputError);
  });
});

describe('formatting', () => {
  it('prints meta datetimes without offset and rows with Z', () => {
    const d = new Date('2025-10-01T00:15:00Z');
    expect(formatUtcNaive(d)).toBe('2025-10-01T00:15:00');
    expect(formatUtc(d)).toBe('2025-10-01T00:15:00Z');
    expect(formatUtcNaive(new Date('2025-10-01T00:15:00.250Z'))).toBe('2025-10-01T00:15:00.250');
  });
  it('writes every instant as toISOString does, seconds precision when the milliseconds are zero', () => {
    const instants = [
      0, 86_399_000, 86_400_000, -1_000, -86_400_001, 253_402_300_799_000, 253_402_300_800_000, 1_759_276_800_123,
    ];
    for (let i = 0; i < 2_000; i++)
      instants.push(Math.round(((Math.random() * 2 - 0.5) * 4e12) / 1_000) * 1_000, Math.round(Math.random() * 4e12));
    for (let i = 0; i < 2_000; i++) instants.push(Math.round((Math.random() * 4e12) / 60_000) * 60_000);
    instants.push(86_340_000, 1_759_276_740_000, 1_759_276_800_000, 253_402_300_740_000);
    for (const ms of instants) {
      const iso = new Date(ms).toISOString();
      expect(formatUtc(new Date(ms)), iso).toBe(iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso);
    }
  });
});

describe('splitDays', () => {
  const r = (a: string, b: string) => ({ from: new Date(a), to: new Date(b) });
  it('serves whole UTC days from the rollup and keeps both partial ends', () => {
    expect(splitDays(r('2025-10-01T10:00Z', '2025-10-04T06:00Z'))).toEqual({
      days: r('2025-10-02T00:00Z', '2025-10-04T00:00Z'),
      edges: [r('2025-10-01T10:00Z', '2025-10-02T00:00Z'), r('2025-10-04T00:00Z', '2025-10-04T06:00Z')],
    });
  });
  it('has no edges on midnight bounds', () => {
    expect(splitDays(r('2025-10-01T00:00Z', '2025-10-03T00:00Z'))).toEqual({
      days: r('2025-10-01T00:00Z', '2025-10-03T00:00Z'),
      edges: [],
    });
  });
  it('keeps a range inside one day (or across one midnight without a whole day) as edges only', () => {
    expect(splitDays(r('2025-10-01T03:00Z', '2025-10-01T05:00Z'))).toEqual({
      days: null,
      edges: [r('2025-10-01T03:00Z', '2025-10-01T05:00Z')],
    });
    expect(splitDays(r('2025-10-01T20:00Z', '2025-10-02T05:00Z')).days).toBeNull();
  });
});
