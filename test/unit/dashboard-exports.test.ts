import { describe, expect, it } from 'vitest';
import { restUrl, scatterCsv } from '../../src/dashboard/chart-exports.js';

const week = { from: Date.parse('2026-11-23T00:00:00Z'), to: Date.parse('2026-11-30T00:00:00Z') };

describe("a chart's data export", () => {
  it("asks the REST API for the range on screen in the view's zone, with the chart's parameters", () => {
    const url = new URL(
      restUrl('export/prices', { zone: ['DE_LU', 'FR'], resolution: '1H' }, { range: week, tz: 'market' }, 'parquet'),
      'http://page',
    );
    expect(url.pathname).toBe('/api/v1/export/prices');
    expect(Object.fromEntries([...url.searchParams].filter(([k]) => k !== 'zone'))).toEqual({
      datetime_from: '2026-11-23T00:00:00',
      datetime_to: '2026-11-30T00:00:00',
      format: 'parquet',
      tz: 'Europe/Berlin',
      resolution: '1H',
    });
    expect(url.searchParams.getAll('zone')).toEqual(['DE_LU', 'FR']);
  });

  it('sends UTC ranges as instants without a time zone', () => {
    const url = new URL(
      restUrl('flow-duration', { border: 'DE_LU->FR' }, { range: week, tz: 'UTC' }, 'csv'),
      'http://page',
    );
    expect(url.searchParams.get('datetime_from')).toBe('2026-11-23T00:00:00Z');
    expect(url.searchParams.has('tz')).toBe(false);
  });

  it("writes the scatter's bins on screen as CSV, nothing before one is shown", () => {
    expect(scatterCsv(null)).toBeNull();
    expect(scatterCsv({ a: 'DE_LU', b: 'FR', bins: [[100, -2.5, 3]] })).toBe(
      'bidding_zone_from,bidding_zone_to,net_flow_mw,price_delta,count\nDE_LU,FR,100,-2.5,3\n',
    );
  });
});
