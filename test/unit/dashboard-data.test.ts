import { describe, expect, it } from 'vitest';
import {
  chunkRange,
  DAY_MS,
  flowSeries,
  hourOfDayMeans,
  priceSeries,
  priceStats,
  resolveChoice,
  tomorrowOf,
} from '../../src/dashboard/data.js';

const NOW = Date.parse('2025-11-05T12:00:00Z');
const at = (iso: string) => Date.parse(iso);

describe('dashboard ranges', () => {
  it('cover whole UTC days ending with today for a preset', () => {
    expect(resolveChoice({ kind: 'days', days: 7 }, NOW)).toEqual({
      from: at('2025-10-30T00:00:00Z'),
      to: at('2025-11-06T00:00:00Z'),
    });
  });

  it('include both dates of a custom range and refuse reversed, unreadable or too wide ones', () => {
    expect(resolveChoice({ kind: 'custom', from: '2025-11-01', to: '2025-11-01' }, NOW)).toEqual({
      from: at('2025-11-01T00:00:00Z'),
      to: at('2025-11-02T00:00:00Z'),
    });
    expect(resolveChoice({ kind: 'custom', from: '2025-11-02', to: '2025-11-01' }, NOW)).toMatch(/must not be before/);
    expect(resolveChoice({ kind: 'custom', from: '2025-02-30', to: '2025-03-01' }, NOW)).toMatch(/YYYY-MM-DD/);
    expect(resolveChoice({ kind: 'custom', from: '', to: '2025-03-01' }, NOW)).toMatch(/YYYY-MM-DD/);
    expect(resolveChoice({ kind: 'custom', from: '2025-01-01', to: '2025-04-03' }, NOW)).toMatch(/at most 92 days/);
    expect(resolveChoice({ kind: 'custom', from: '2025-01-01', to: '2025-04-02' }, NOW)).toEqual({
      from: at('2025-01-01T00:00:00Z'),
      to: at('2025-04-03T00:00:00Z'),
    });
  });

  it('put tomorrow on the next UTC day of the server clock', () => {
    expect(tomorrowOf(at('2025-11-05T23:59:59Z'))).toEqual({
      from: at('2025-11-06T00:00:00Z'),
      to: at('2025-11-07T00:00:00Z'),
    });
  });

  it('split a range into pieces of at most the given width that cover it exactly', () => {
    const range = { from: 0, to: 30 * DAY_MS };
    expect(chunkRange(range, 14 * DAY_MS)).toEqual([
      { from: 0, to: 14 * DAY_MS },
      { from: 14 * DAY_MS, to: 28 * DAY_MS },
      { from: 28 * DAY_MS, to: 30 * DAY_MS },
    ]);
    expect(chunkRange({ from: 5, to: 5 }, DAY_MS)).toEqual([]);
  });
});

describe('dashboard series', () => {
  const rows = [
    { biddingZone: 'FR', datetime: '2025-11-05T01:00:00Z', priceEurMwh: 30 },
    { biddingZone: 'DE_LU', datetime: '2025-11-05T00:00:00Z', priceEurMwh: 10 },
    { biddingZone: 'FR', datetime: '2025-11-05T00:00:00Z', priceEurMwh: 20 },
    { biddingZone: 'DE_LU', datetime: '2025-11-06T00:00:00Z', priceEurMwh: 15 },
    { biddingZone: 'XX', datetime: '2025-11-06T00:00:00Z', priceEurMwh: 99 },
  ];

  it('group prices per picked zone in time order and keep zones without prices empty', () => {
    const series = priceSeries(rows, ['DE_LU', 'FR', 'NL']);
    expect([...series.keys()]).toEqual(['DE_LU', 'FR', 'NL']);
    expect(series.get('FR')).toEqual([
      [at('2025-11-05T00:00:00Z'), 20],
      [at('2025-11-05T01:00:00Z'), 30],
    ]);
    expect(series.get('NL')).toEqual([]);
    expect(priceStats(series)).toEqual([
      { zone: 'DE_LU', count: 2, mean: 12.5, min: 10, max: 15 },
      { zone: 'FR', count: 2, mean: 25, min: 20, max: 30 },
    ]);
  });

  it('average prices per zone and UTC hour of day into heatmap cells', () => {
    const cells = hourOfDayMeans(priceSeries(rows, ['DE_LU', 'FR']), ['DE_LU', 'FR']);
    expect(cells).toEqual([
      [0, 0, 12.5],
      [0, 1, 20],
      [1, 1, 30],
    ]);
  });

  it('sign flows positive from zone A, one entry per hour in time order with its flow type', () => {
    const flows = flowSeries(
      [
        { datetime: '2025-11-05T01:00:00Z', biddingZoneFrom: 'FR', flowType: 'CONGESTION', netFlowMw: 500 },
        { datetime: '2025-11-05T00:00:00Z', biddingZoneFrom: 'DE_LU', flowType: 'CONVERGENCE', netFlowMw: 200 },
      ],
      'DE_LU',
    );
    expect(flows).toEqual({
      hours: [at('2025-11-05T00:00:00Z'), at('2025-11-05T01:00:00Z')],
      mw: [200, -500],
      types: ['CONVERGENCE', 'CONGESTION'],
    });
  });
});
