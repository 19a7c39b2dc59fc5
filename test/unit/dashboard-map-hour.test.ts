import { describe, expect, it } from 'vitest';
import type { MapFlow, MapHour } from '../../src/dashboard/map.js';
import { mapScaleText, mapSummaryText } from '../../src/dashboard/panel-views.js';
import { hourParam, keptHour, mapHours } from '../../src/dashboard/playback.js';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;

describe("the map's hours", () => {
  const days = { range: { from: at('2026-11-28T00:00:00Z'), to: at('2026-11-30T00:00:00Z') }, tz: 'UTC' as const };

  it("offers the range's hours up to the server's current hour", () => {
    expect(mapHours(days, at('2026-11-29T10:20:00Z'))).toEqual({
      from: days.range.from,
      to: at('2026-11-29T11:00:00Z'),
    });
    expect(mapHours(days, at('2026-12-05T00:00:00Z'))).toEqual(days.range);
  });

  it('offers at least the first hour of a range the server has not reached', () => {
    expect(mapHours(days, at('2026-11-01T00:00:00Z'))).toEqual({ from: days.range.from, to: days.range.from + HOUR });
  });

  it("reads the range's days in the view's zone", () => {
    expect(mapHours({ ...days, tz: 'market' }, at('2026-12-05T00:00:00Z'))).toEqual({
      from: at('2026-11-27T23:00:00Z'),
      to: at('2026-11-29T23:00:00Z'),
    });
  });

  it('keeps the chosen hour inside the hours, else takes the last one', () => {
    const hours = { from: at('2026-11-28T00:00:00Z'), to: at('2026-11-28T12:00:00Z') };
    expect(keptHour(at('2026-11-28T05:00:00Z'), hours)).toBe(at('2026-11-28T05:00:00Z'));
    expect(keptHour(null, hours)).toBe(at('2026-11-28T11:00:00Z'));
    expect(keptHour(hours.to, hours)).toBe(at('2026-11-28T11:00:00Z'));
    expect(keptHour(hours.from - HOUR, hours)).toBe(at('2026-11-28T11:00:00Z'));
  });

  it('writes the hour into the URL as UTC without milliseconds, nothing for the latest', () => {
    expect(hourParam(at('2026-11-29T10:00:00Z'))).toBe('2026-11-29T10:00:00Z');
    expect(hourParam(null)).toBeNull();
  });
});

describe("the map's hour in words", () => {
  const flow = (from: string, to: string, type: MapFlow['type']): [string, MapFlow] => [
    `${from}->${to}`,
    { border: `${from}->${to}`, from, to, type, mw: 500 },
  ];
  const hour: MapHour = {
    label: '29 Nov 2026, 10:00 Europe/Berlin',
    prices: new Map([
      ['FR', 10.4],
      ['DE_LU', -5.4],
    ]),
    flows: new Map([flow('FR', 'ES', 'COUNTER_INTUITIVE'), flow('DE_LU', 'FR', 'CONGESTION')]),
  };

  it('scales the colours from the lowest to the highest price, and says when there are none', () => {
    expect(mapScaleText(hour)).toBe('-5 to 10 EUR/MWh');
    expect(mapScaleText({ ...hour, prices: new Map() })).toBe('no prices');
  });

  it('counts zones and borders and names the flows against the price signal', () => {
    expect(mapSummaryText(hour)).toBe(
      '29 Nov 2026, 10:00 Europe/Berlin: prices for 2 zones, flows at 2 borders; 1 against the price signal (FR → ES).',
    );
    expect(mapSummaryText({ label: 'L', prices: new Map(), flows: new Map() })).toBe(
      'L: prices for 0 zones, flows at 0 borders; 0 against the price signal.',
    );
  });
});
