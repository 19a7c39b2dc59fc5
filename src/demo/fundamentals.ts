/**
 * Isolated hourly prices of the demo zones (EUR/MWh): the price each zone would clear alone, before
 * market coupling. Seasonal level, a shared fuel factor, daily and weekly cycles in local time,
 * regional wind and cloud, midday solar dips (negative prices in sunny months), noise and spikes.
 */
import { DAY_MS, HOUR_MS, dayOfYear, localHour, localWeekday } from './calendar.js';
import type { Region, ZoneProfile } from './profiles.js';
import { Rng } from './rng.js';

const REGIONS: readonly Region[] = ['iberia', 'cwe', 'cee', 'nordic', 'baltic'];

const bump = (h: number, centre: number, width: number): number => {
  const d = (h - centre) / width;
  return Math.exp(-0.5 * d * d);
};

/** Shared weather and fuel drivers over the range. */
interface Drivers {
  /** Daily fuel factor, EUR/MWh, index = day. */
  readonly fuel: Float64Array;
  /** Daily clear-sky share per region (0.15-1.2), index = region * days + day. */
  readonly cloud: Float64Array;
  /** Hourly wind anomaly per region (about N(0,1)), index = region * hours + hour. */
  readonly wind: Float64Array;
}

function drivers(seed: number, days: number, hours: number): Drivers {
  const rng = new Rng(seed, 'drivers');
  const fuel = new Float64Array(days);
  let g = 0;
  for (let d = 0; d < days; d++) {
    g = 0.96 * g + 3 * rng.normal();
    fuel[d] = g;
  }
  const cloud = new Float64Array(REGIONS.length * days);
  for (let i = 0; i < cloud.length; i++) cloud[i] = rng.chance(0.25) ? rng.range(0.15, 0.5) : rng.range(0.7, 1.2);
  const wind = new Float64Array(REGIONS.length * hours);
  const rho = 0.97;
  const innovation = Math.sqrt(1 - rho * rho);
  for (let r = 0; r < REGIONS.length; r++) {
    let w = rng.normal();
    for (let k = 0; k < hours; k++) {
      w = rho * w + innovation * rng.normal();
      wind[r * hours + k] = w;
    }
  }
  return { fuel, cloud, wind };
}

function isolatedHour(
  p: ZoneProfile,
  ms: number,
  dr: Drivers,
  idx: { d: number; r: number; k: number },
  rng: Rng,
): number {
  const days = dr.fuel.length;
  const hours = dr.wind.length / REGIONS.length;
  const season = Math.cos((2 * Math.PI * (dayOfYear(ms) - 15)) / 365.25);
  const sun = (0.5 - 0.5 * season) ** 1.2;
  const lh = localHour(ms, p.stdOffsetH);
  const wd = localWeekday(ms, p.stdOffsetH);
  const fuelShare = p.region === 'nordic' ? 0.4 : 1;
  const level = p.level * (1 + 0.18 * season) + (dr.fuel[idx.d] as number) * fuelShare;
  const shape = level * (0.16 * bump(lh, 8, 1.8) + 0.24 * bump(lh, 19, 2.2) - 0.18 * bump(lh, 3.5, 2.5));
  const weekend = wd === 6 ? -0.08 * level : wd === 0 ? -0.15 * level : 0;
  const cloud = dr.cloud[idx.r * days + idx.d] as number;
  const solar = -p.solar * sun * cloud * bump(lh, 13, 2.2 + 1.5 * sun);
  const wind = -p.wind * (dr.wind[idx.r * hours + idx.k] as number);
  const peakHour = (lh >= 7 && lh < 10) || (lh >= 17 && lh < 21);
  const spike = peakHour && rng.chance(0.002 * (1.2 + season)) ? rng.range(80, 350) * (p.level / 80) : 0;
  const value = level + shape + weekend + solar + wind + p.noise * rng.normal() + spike;
  return Math.min(3000, Math.max(-150, value));
}

/**
 * Isolated hourly prices per zone, EUR/MWh: `result[zone][hour]` for hours `start + k h`.
 * Deterministic in `seed`.
 */
export function isolatedPrices(
  profiles: readonly ZoneProfile[],
  start: number,
  hours: number,
  seed: number,
): Float64Array[] {
  const days = Math.ceil((hours * HOUR_MS) / DAY_MS) + 1;
  const dr = drivers(seed, days, hours);
  return profiles.map((p) => {
    const rng = new Rng(seed, `isolated:${p.code}`);
    const out = new Float64Array(hours);
    const r = REGIONS.indexOf(p.region);
    for (let k = 0; k < hours; k++) {
      const ms = start + k * HOUR_MS;
      out[k] = isolatedHour(p, ms, dr, { d: Math.floor((k * HOUR_MS) / DAY_MS), r, k }, rng);
    }
    return out;
  });
}
