import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, euSwitchInstant, isEuSummerTime, isoWeekStart } from '../../src/domain/calendar.js';
import { ZONES } from '../../src/domain/catalogue.js';

const formats = new Map<string, Intl.DateTimeFormat>();

/** UTC offset in minutes of an IANA zone at an instant, as the platform's time zone database has it. */
function intlOffsetMinutes(timeZone: string, ms: number): number {
  let format = formats.get(timeZone);
  if (!format)
    formats.set(timeZone, (format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })));
  const name = format.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? '';
  const m = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
  if (!m) throw new Error(`unreadable offset ${name} of ${timeZone}`);
  return m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** Every hour from two days before to two days after each EU switch of 2015..2030, plus each month's 15th. */
function instantsNearSwitches(): number[] {
  const out: number[] = [];
  for (let year = 2015; year <= 2030; year++) {
    for (const month0 of [2, 9]) {
      const at = euSwitchInstant(year, month0);
      for (let t = at - 2 * DAY_MS; t <= at + 2 * DAY_MS; t += HOUR_MS) out.push(t);
      out.push(at - 1, at + 1);
    }
    for (let month0 = 0; month0 < 12; month0++) out.push(Date.UTC(year, month0, 15, 12));
  }
  return out;
}

const timeZones = [...new Set(ZONES.map((z) => z.timeZone))].sort();

describe('EU summer time rule', () => {
  it('covers several time zones of the catalogue (WET, CET and EET)', () => {
    const standard = new Set(timeZones.map((tz) => intlOffsetMinutes(tz, Date.UTC(2025, 0, 15))));
    expect([...standard].sort((a, b) => a - b)).toEqual([0, 60, 120]);
  });

  it.each(timeZones)(
    'gives the offset of %s that Intl gives, every hour near the switches of 2015-2030',
    (timeZone) => {
      const mismatches = instantsNearSwitches().filter((ms) => {
        const standard = intlOffsetMinutes(timeZone, Date.UTC(new Date(ms).getUTCFullYear(), 0, 15));
        return intlOffsetMinutes(timeZone, ms) !== standard + (isEuSummerTime(ms) ? 60 : 0);
      });
      expect(mismatches.map((ms) => new Date(ms).toISOString())).toEqual([]);
    },
  );

  it('answers as the switch instants say for more years than it remembers, in any order', () => {
    const years = Array.from({ length: 150 }, (_, i) => 1950 + ((i * 37) % 150));
    const wrong = [...years, ...years].flatMap((year) => {
      const [start, end] = [euSwitchInstant(year, 2), euSwitchInstant(year, 9)];
      const expected: [number, boolean][] = [
        [start - 1, false],
        [start, true],
        [end - 1, true],
        [end, false],
      ];
      return expected.filter(([ms, summer]) => isEuSummerTime(ms) !== summer).map(([ms]) => new Date(ms).toISOString());
    });
    expect(wrong).toEqual([]);
  });

  it('switches at 01:00 UTC on the last Sunday of March and of October', () => {
    expect(new Date(euSwitchInstant(2025, 2)).toISOString()).toBe('2025-03-30T01:00:00.000Z');
    expect(new Date(euSwitchInstant(2026, 9)).toISOString()).toBe('2026-10-25T01:00:00.000Z');
  });
});

describe('ISO week start', () => {
  it.each([
    ['2025-12-29T00:00:00Z', '2025-12-29'],
    ['2026-01-04T23:59:59Z', '2025-12-29'],
    ['2026-01-05T00:00:00Z', '2026-01-05'],
    ['2024-03-03T12:00:00Z', '2024-02-26'],
    ['1969-12-31T00:00:00Z', '1969-12-29'],
  ])('puts %s in the week starting Monday %s (UTC)', (instant, monday) => {
    expect(new Date(isoWeekStart(Date.parse(instant))).toISOString().slice(0, 10)).toBe(monday);
  });
});
