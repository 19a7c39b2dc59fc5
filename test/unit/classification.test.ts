import { describe, expect, it } from 'vitest';
import { type BorderHourInput, classifyHour, DEFAULT_THRESHOLDS, netAbFlow } from '../../src/domain/classification.js';
import { BOUNDARY_HOURS } from '../support/classification-boundaries.js';

/** A border A-B hour: A at 50 EUR/MWh, B at 80, 1000 MW of NTC each way, 600 MW flowing A->B. */
const base: BorderHourInput = {
  priceA: 50,
  priceB: 80,
  flowAbMw: 600,
  flowBaMw: 0,
  ntcAbMw: 1000,
  ntcBaMw: 1000,
  outage: false,
};
const classify = (over: Partial<BorderHourInput>) => classifyHour({ ...base, ...over });

describe('classifyHour rules', () => {
  it('convergence: power moves toward the higher price below the capacity limit', () => {
    expect(classify({})).toEqual({ flowType: 'convergence', exportFromA: true, netFlowMw: 600 });
  });
  it('congestion: toward the higher price at >= 97 % of the NTC of that direction', () => {
    expect(classify({ flowAbMw: 970 }).flowType).toBe('congestion');
    expect(classify({ flowAbMw: 969.9 }).flowType).toBe('convergence');
  });
  it('counter_intuitive: power leaves the higher-price zone', () => {
    expect(classify({ flowAbMw: 0, flowBaMw: 400 })).toEqual({
      flowType: 'counter_intuitive',
      exportFromA: false,
      netFlowMw: 400,
    });
  });
  it('counter_intuitive even at full capacity (the direction decides first)', () => {
    expect(classify({ priceA: 90, flowAbMw: 1000 }).flowType).toBe('counter_intuitive');
  });
  it('outage: an outage record wins over every other rule', () => {
    expect(classify({ outage: true, flowAbMw: 0, flowBaMw: 400 }).flowType).toBe('outage');
  });
  it('outage: zero offered capacity in both directions', () => {
    expect(classify({ ntcAbMw: 0, ntcBaMw: 0 }).flowType).toBe('outage');
  });
});

describe('classifyHour edge cases', () => {
  it('coupled prices within eps are convergence whatever the flow', () => {
    expect(classify({ priceB: 50.009, flowAbMw: 1000 }).flowType).toBe('convergence');
    expect(classify({ priceB: 49.995, flowAbMw: 1000 }).flowType).toBe('convergence');
  });
  it('a spread just beyond eps counts', () => {
    expect(classify({ priceB: 49.98 }).flowType).toBe('counter_intuitive');
    expect(classify({ priceB: 50.02, flowAbMw: 990 }).flowType).toBe('congestion');
  });
  it('a near-zero flow (< 1 MW) has no direction and is convergence', () => {
    expect(classify({ flowAbMw: 0.4, flowBaMw: 0 })).toEqual({
      flowType: 'convergence',
      exportFromA: null,
      netFlowMw: 0.4,
    });
  });
  it('a missing NTC cannot be congestion', () => {
    expect(classify({ flowAbMw: 5000, ntcAbMw: null }).flowType).toBe('convergence');
  });
  it('zero NTC in the export direction only is not congestion (loop flow)', () => {
    expect(classify({ ntcAbMw: 0 }).flowType).toBe('convergence');
  });
  it('a missing price leaves the hour unassessed', () => {
    expect(classify({ priceB: null }).flowType).toBeNull();
    expect(classify({ priceA: null }).flowType).toBeNull();
  });
  it('no reported flow leaves the hour unassessed unless there is an outage', () => {
    expect(classify({ flowAbMw: null, flowBaMw: null })).toEqual({
      flowType: null,
      exportFromA: null,
      netFlowMw: null,
    });
    expect(classify({ flowAbMw: null, flowBaMw: null, outage: true }).flowType).toBe('outage');
  });
  it('nets the two directions, a missing side counting as zero', () => {
    expect(netAbFlow(700, 100)).toBe(600);
    expect(netAbFlow(null, 250)).toBe(-250);
    expect(netAbFlow(null, null)).toBeNull();
  });
  it('honours custom thresholds', () => {
    const t = { ...DEFAULT_THRESHOLDS, congestionShare: 0.5, epsEurMwh: 40 };
    expect(classifyHour({ ...base }, t).flowType).toBe('convergence');
    expect(classifyHour({ ...base, priceB: 95 }, t).flowType).toBe('congestion');
  });
});

describe('classifyHour at exact thresholds (hand-computed, default thresholds)', () => {
  it.each(BOUNDARY_HOURS)('$name', (h) => {
    const r = classifyHour({
      priceA: h.priceA,
      priceB: h.priceB,
      flowAbMw: h.flowAbMw,
      flowBaMw: h.flowBaMw,
      ntcAbMw: h.ntcAbMw,
      ntcBaMw: h.ntcBaMw,
      outage: false,
    });
    expect({ flowType: r.flowType, exportFromA: r.exportFromA }).toEqual({
      flowType: h.flowType,
      exportFromA: h.exportFromA,
    });
  });
  it('compares a custom capacity share exactly (7 of 100 MW at a share of 0.07 is congestion)', () => {
    const t = { ...DEFAULT_THRESHOLDS, congestionShare: 0.07 };
    expect(classifyHour({ ...base, flowAbMw: 7, ntcAbMw: 100 }, t).flowType).toBe('congestion');
    expect(classifyHour({ ...base, flowAbMw: 6.999, ntcAbMw: 100 }, t).flowType).toBe('convergence');
  });
  it('compares a custom eps and minimum flow exactly', () => {
    const t = { ...DEFAULT_THRESHOLDS, epsEurMwh: 0.29, minFlowMw: 0.3 };
    expect(classifyHour({ ...base, priceA: 50.29, priceB: 50, flowAbMw: 0.3 }, t)).toEqual({
      flowType: 'convergence',
      exportFromA: true,
      netFlowMw: 0.3,
    });
    expect(classifyHour({ ...base, priceA: 50.3, priceB: 50, flowAbMw: 0.3 }, t).flowType).toBe('counter_intuitive');
  });
});
