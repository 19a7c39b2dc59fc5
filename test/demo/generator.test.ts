import { describe, expect, it } from 'vitest';
import { BORDERS, ZONES } from '../../src/domain/catalogue-data.js';
import { HOUR_MS, QUARTER_HOUR_SWITCH_MS, demoRange, isoWeekStart, localHour } from '../../src/demo/calendar.js';
import { type DemoDataSet, generateDemo } from '../../src/demo/generate.js';
import { DEMO_ZONE_CODES } from '../../src/demo/profiles.js';
import { DEMO_TEST_FROM, DEMO_TEST_NOW } from '../support/db.js';

const small = (seed?: number): DemoDataSet => generateDemo({ now: DEMO_TEST_NOW, from: DEMO_TEST_FROM, seed });

describe('demo generator', () => {
  const data = small();

  it('is deterministic for a seed and differs between seeds', () => {
    const again = small();
    expect(again.prices.map((z) => Array.from(z.price))).toEqual(data.prices.map((z) => Array.from(z.price)));
    expect(again.flows.map((f) => f.classes)).toEqual(data.flows.map((f) => f.classes));
    expect(again.outages).toEqual(data.outages);
    const other = small(7);
    expect(Array.from(other.prices[0]?.price ?? [])).not.toEqual(Array.from(data.prices[0]?.price ?? []));
  });

  it('covers the 30 demo zones, all real catalogue zones, and every catalogue border between them', () => {
    expect(data.zones).toHaveLength(30);
    const catalogue = new Set(ZONES.map((z) => z.code));
    for (const code of DEMO_ZONE_CODES) expect(catalogue.has(code)).toBe(true);
    const demo = new Set(DEMO_ZONE_CODES);
    const expected = BORDERS.filter(([a, b]) => demo.has(a) && demo.has(b)).map(([a, b]) => `${a}->${b}`);
    expect(data.borders.map((b) => `${b.a}->${b.b}`)).toEqual(expected);
  });

  it('spans the first day of the month of now - 430 days to the end of tomorrow UTC by default', () => {
    const range = demoRange(new Date('2026-11-22T03:56:00Z'));
    expect(new Date(range.start).toISOString()).toBe('2025-09-01T00:00:00.000Z');
    expect(new Date(range.end).toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(new Date(range.physicalEnd).toISOString()).toBe('2026-11-22T03:00:00.000Z');
  });

  it('uses 15-minute periods from 2025-10-01 and hourly periods before', () => {
    const { periodStart, periodMinutes } = data.grid;
    for (let i = 0; i < periodStart.length; i++) {
      expect(periodMinutes[i]).toBe((periodStart[i] as number) >= QUARTER_HOUR_SWITCH_MS ? 15 : 60);
      if (i > 0)
        expect((periodStart[i] as number) - (periodStart[i - 1] as number)).toBe(
          (periodMinutes[i - 1] as number) * 60_000,
        );
    }
    expect(periodStart[0]).toBe(DEMO_TEST_FROM.getTime());
  });

  it('has no physical flows for hours not completed at now, and derives their classification', () => {
    const firstFuture = (data.range.physicalEnd - data.range.start) / HOUR_MS;
    for (const f of data.flows) {
      expect(Number.isNaN(f.physicalAb[firstFuture - 1] as number)).toBe(false);
      expect(Number.isNaN(f.physicalAb[firstFuture] as number)).toBe(true);
      expect(f.classes[firstFuture]?.flowDerived).toBe(true);
      expect(f.scheduledAb[data.hours - 1]).not.toBeNaN();
    }
  });

  it('produces every flow type in every ISO week', () => {
    const byWeek = new Map<number, Set<string>>();
    for (const f of data.flows) {
      f.classes.forEach((c, k) => {
        const week = isoWeekStart(data.range.start + k * HOUR_MS);
        if (!byWeek.has(week)) byWeek.set(week, new Set());
        if (c.flowType) byWeek.get(week)?.add(c.flowType);
      });
    }
    expect(byWeek.size).toBe(7);
    for (const types of byWeek.values())
      expect([...types].sort()).toEqual(['congestion', 'convergence', 'counter_intuitive', 'outage']);
  });

  it('flags filled gaps as interpolated in prices and flows', () => {
    expect(data.prices.every((z) => z.interpolated.includes(1))).toBe(true);
    expect(data.flows.every((f) => f.physicalInterpolated.includes(1))).toBe(true);
  });
});

describe('demo price shapes', () => {
  const summer = generateDemo({ now: new Date('2025-07-20T12:00:00Z'), from: new Date('2025-05-01T00:00:00Z') });
  const zone = (code: string) => summer.prices[summer.zones.indexOf(code)];

  it('has negative midday prices in sunny zones in spring and summer', () => {
    for (const code of ['ES', 'PT', 'DE_LU', 'NL']) {
      const z = zone(code);
      let negativeMidday = 0;
      z?.hourly.forEach((p, k) => {
        const h = localHour(summer.range.start + k * HOUR_MS, code === 'PT' ? 0 : 1);
        if (p < 0 && h >= 10 && h < 17) negativeMidday++;
      });
      expect(negativeMidday, code).toBeGreaterThan(10);
    }
  });

  it('has an evening peak above the night trough on average', () => {
    const z = zone('FR');
    let evening = 0;
    let night = 0;
    z?.hourly.forEach((p, k) => {
      const h = localHour(summer.range.start + k * HOUR_MS, 1);
      if (Math.floor(h) === 19) evening += p;
      if (Math.floor(h) === 3) night += p;
    });
    expect(evening).toBeGreaterThan(night);
  });

  it('lets neighbours share one price in most hours while congested borders split them', () => {
    const shares = summer.borders.map((b) => {
      const pa = summer.prices[b.ia]?.hourly ?? [];
      const pb = summer.prices[b.ib]?.hourly ?? [];
      let equal = 0;
      for (let k = 0; k < summer.hours; k++) if (pa[k] === pb[k]) equal++;
      return equal / summer.hours;
    });
    const mostlyCoupled = shares.filter((s) => s > 0.5).length;
    expect(mostlyCoupled / shares.length).toBeGreaterThan(0.7);
    expect(shares.every((s) => s < 1)).toBe(true);
  });
});
