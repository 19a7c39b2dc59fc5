import { describe, expect, it } from 'vitest';
import type { DenseFlows } from '../../src/dashboard/data.js';
import { kpiTitle, onClock, wallFlows } from '../../src/dashboard/panel-views.js';

const at = (iso: string) => Date.parse(iso);

describe("the panels' clock", () => {
  it("plots instants at the view's wall-clock time (CEST: two hours after UTC)", () => {
    const series = new Map([['FR', [[at('2026-07-01T00:00:00Z'), 5] as [number, number]]]]);
    expect(onClock(series, 'Europe/Berlin')).toEqual(new Map([['FR', [[at('2026-07-01T02:00:00Z'), 5]]]]));
    expect(onClock(series, 'UTC')).toEqual(series);
  });

  it("moves only the flows' hours to the wall clock (CET: one hour after UTC)", () => {
    const flows: DenseFlows = { hours: [at('2026-01-01T00:00:00Z')], mw: [100], types: ['CONGESTION'] };
    expect(wallFlows(flows, 'Europe/Berlin')).toEqual({ ...flows, hours: [at('2026-01-01T01:00:00Z')] });
  });
});

describe('the KPI table title', () => {
  it('says KPIs are over hourly means, also under the native resolution', () => {
    expect(kpiTitle('HOURLY')).toBe('Price KPIs (EUR/MWh, over hourly means)');
    expect(kpiTitle('NATIVE')).toContain('also under Native');
  });
});
