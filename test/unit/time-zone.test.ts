import { describe, expect, it } from 'vitest';
import { parseDateTime } from '../../src/domain/time.js';
import {
  formatInZone,
  localDay,
  parseTimeZone,
  restrictTimeZones,
  wallTimeToInstant,
} from '../../src/domain/time-zone.js';
import { offsetMinutesAt } from '../../src/domain/zone-offset.js';

describe('time zones', () => {
  it('reads IANA names case-insensitively in their canonical spelling; UTC is the no-tz choice', () => {
    expect(parseTimeZone('europe/berlin')).toEqual({ kind: 'zone', name: 'Europe/Berlin' });
    expect(parseTimeZone('LOCAL')).toEqual({ kind: 'local' });
    expect(parseTimeZone('utc')).toEqual({ kind: 'utc' });
    expect(parseTimeZone(undefined)).toEqual({ kind: 'utc' });
    expect(() => parseTimeZone('Mars/Olympus')).toThrow(/Unknown time zone 'Mars\/Olympus'/);
  });

  it('accepts names Intl knows beyond its canonical list (current spellings, links, UTC aliases) and writes their offsets', () => {
    expect(parseTimeZone('Europe/Kyiv')).toEqual({ kind: 'zone', name: 'Europe/Kyiv' });
    expect(parseTimeZone('Asia/Kathmandu')).toEqual({ kind: 'zone', name: 'Asia/Kathmandu' });
    expect(parseTimeZone('US/Eastern')).toEqual({ kind: 'zone', name: 'US/Eastern' });
    for (const utc of ['Etc/UTC', 'GMT']) expect(parseTimeZone(utc)).toEqual({ kind: 'utc' });
    expect(formatInZone(new Date('2026-07-01T12:00:00Z'), 'Europe/Kyiv')).toBe('2026-07-01T15:00:00+03:00');
    expect(formatInZone(new Date('2026-01-01T00:00:00Z'), 'Etc/GMT+5')).toBe('2025-12-31T19:00:00-05:00');
    expect(() => parseTimeZone(`Europe/${'x'.repeat(100)}`)).toThrow(/Unknown time zone/);
  });

  it('writes instants with the offset in force at that instant', () => {
    expect(formatInZone(new Date('2026-03-29T00:59:59Z'), 'Europe/Berlin')).toBe('2026-03-29T01:59:59+01:00');
    expect(formatInZone(new Date('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toBe('2026-03-29T03:00:00+02:00');
    expect(formatInZone(new Date('2026-10-25T00:30:00Z'), 'Europe/Lisbon')).toBe('2026-10-25T01:30:00+01:00');
    expect(formatInZone(new Date('2026-10-25T01:30:00Z'), 'Europe/Lisbon')).toBe('2026-10-25T01:30:00+00:00');
    expect(formatInZone(new Date('2026-01-01T00:00:00Z'), 'Asia/Kolkata')).toBe('2026-01-01T05:30:00+05:30');
    expect(formatInZone(new Date('2026-01-01T00:00:00Z'), 'America/New_York')).toBe('2025-12-31T19:00:00-05:00');
    expect(localDay(new Date('2026-10-24T22:30:00Z'), 'Europe/Helsinki')).toBe('2026-10-25');
    expect(offsetMinutesAt('Europe/Helsinki', Date.parse('2026-10-25T00:59:59Z'))).toBe(180);
    expect(offsetMinutesAt('Europe/Helsinki', Date.parse('2026-10-25T01:00:00Z'))).toBe(120);
  });

  it('reads wall times: spring-gap times with the earlier offset, autumn-overlap times as the earlier instant', () => {
    expect(new Date(wallTimeToInstant(Date.parse('2026-03-29T00:00:00Z'), 'Europe/Berlin')).toISOString()).toBe(
      '2026-03-28T23:00:00.000Z',
    );
    expect(new Date(wallTimeToInstant(Date.parse('2026-03-29T02:30:00Z'), 'Europe/Berlin')).toISOString()).toBe(
      '2026-03-29T01:30:00.000Z',
    );
    expect(new Date(wallTimeToInstant(Date.parse('2026-10-25T02:30:00Z'), 'Europe/Berlin')).toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
  });

  it('parses naive datetimes in the zone given; offsets and relative times are unaffected', () => {
    const now = new Date('2026-10-25T12:00:00Z');
    const at = (text: string) => {
      const r = parseDateTime(text, now, 'Europe/Helsinki');
      return r.ok ? r.instant.toISOString() : r.msg;
    };
    expect(at('2026-10-25')).toBe('2026-10-24T21:00:00.000Z');
    expect(at('2026-10-26T00:00')).toBe('2026-10-25T22:00:00.000Z');
    expect(at('2026-10-25T00:00:00Z')).toBe('2026-10-25T00:00:00.000Z');
    expect(at('now-1h')).toBe('2026-10-25T11:00:00.000Z');
  });
});

/** The zone Node's Intl reads a name as, or undefined where this Node's Intl rejects it. */
function intlReading(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

describe('time zones both Intl and the database know', () => {
  it('suggests the zone of a city given alone, reading spaces as underscores', () => {
    expect(() => parseTimeZone('Berlin')).toThrow(/did you mean Europe\/Berlin\?/);
    expect(() => parseTimeZone('new york')).toThrow(/did you mean America\/New_York\?/);
    expect(() => parseTimeZone('Europe/Berln')).toThrow(/did you mean Europe\/Berlin\?/);
  });

  it('refuses the names the database lacks though Intl knows them, and spells the others as the database does', () => {
    restrictTimeZones(['Europe/Berlin', 'America/Los_Angeles', 'UTC', 'Europe/Kyiv', 'Europe/Kiev']);
    for (const name of ['US/Pacific-New', 'Canada/East-Saskatchewan', 'SystemV/AST4', 'Europe/Paris']) {
      expect(() => parseTimeZone(name), name).toThrow(/Unknown time zone/);
    }
    expect(parseTimeZone('europe/kyiv')).toEqual({ kind: 'zone', name: 'Europe/Kyiv' });
    expect(parseTimeZone('Europe/Berlin')).toEqual({ kind: 'zone', name: 'Europe/Berlin' });
    expect(parseTimeZone('utc')).toEqual({ kind: 'utc' });
  });

  it.runIf(intlReading('US/Pacific-New') === 'America/Los_Angeles')(
    'suggests the zone Intl reads a refused link as',
    () => {
      expect(() => parseTimeZone('US/Pacific-New')).toThrow(/did you mean America\/Los_Angeles\?/);
    },
  );

  it('narrows with every database read: the names all of them know', () => {
    restrictTimeZones(['Europe/Berlin', 'UTC']);
    expect(() => parseTimeZone('Europe/Kyiv')).toThrow(/Unknown time zone/);
    expect(() => parseTimeZone('Paris')).toThrow(/UTC or local \(got/);
    expect(parseTimeZone('Europe/Berlin')).toEqual({ kind: 'zone', name: 'Europe/Berlin' });
  });
});
