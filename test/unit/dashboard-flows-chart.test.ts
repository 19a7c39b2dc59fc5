import { describe, expect, it } from 'vitest';
import { flowsOption } from '../../src/dashboard/charts.js';
import { flowSeries } from '../../src/dashboard/data.js';

const at = (iso: string) => Date.parse(iso);

describe('the border flows chart', () => {
  it("plots each hour once at the API's flow, never stacking hours of different flow types", () => {
    const rows = [
      { datetime: '2025-11-05T00:00:00Z', biddingZoneFrom: 'FR', flowType: 'CONGESTION', netFlowMw: 3000 },
      { datetime: '2025-11-05T01:00:00Z', biddingZoneFrom: 'FR', flowType: 'COUNTER_INTUITIVE', netFlowMw: 2500 },
      { datetime: '2025-11-05T02:00:00Z', biddingZoneFrom: 'DE_LU', flowType: 'CONVERGENCE', netFlowMw: 100 },
    ] as const;
    const option = flowsOption(flowSeries(rows, 'DE_LU'), 'DE_LU', 'FR', 800);
    const series = option.series as { name: string; stack?: string; data: [number, number | null][] }[];
    for (const s of series) expect(s.stack, s.name).toBeUndefined();
    const plotted = series.flatMap((s) => s.data.filter((p) => p[1] !== null).map((p) => [s.name, p[0], p[1]]));
    expect(plotted.sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      ['Congestion', at('2025-11-05T00:00:00Z'), -3000],
      ['Counter-intuitive', at('2025-11-05T01:00:00Z'), -2500],
      ['Convergence', at('2025-11-05T02:00:00Z'), 100],
    ]);
    for (const s of series)
      expect(
        s.data.map((p) => p[0]),
        s.name,
      ).toEqual([0, 1, 2].map((h) => at(`2025-11-05T0${h}:00:00Z`)));
  });
});
