/**
 * The demo market: which catalogue zones and borders it covers and the parameters that shape their
 * prices (EUR/MWh) and capacities (MW). Illustrative values, not calibrated to any real year.
 */
import { BORDERS } from '../domain/catalogue-data.js';
import { borderPeriod, zonePeriod } from '../domain/validity.js';
import { Rng } from './rng.js';

/** Weather region: zones of one region share wind and cloud. */
export type Region = 'iberia' | 'cwe' | 'cee' | 'nordic' | 'baltic';

/** Price-shaping parameters of one demo zone. */
export interface ZoneProfile {
  readonly code: string;
  readonly region: Region;
  /** Annual mean price level, EUR/MWh. */
  readonly level: number;
  /** Depth of the midday solar dip on a clear summer day, EUR/MWh. */
  readonly solar: number;
  /** Price drop for one standard deviation of regional wind, EUR/MWh. */
  readonly wind: number;
  /** Hourly noise, EUR/MWh (standard deviation). */
  readonly noise: number;
  /** Share of the demo zone in coupled price formation (relative market size). */
  readonly weight: number;
  /** Standard-time UTC offset of the zone's clock, hours. */
  readonly stdOffsetH: number;
}

const P = (
  code: string,
  region: Region,
  level: number,
  solar: number,
  wind: number,
  weight: number,
  stdOffsetH = 1,
): ZoneProfile => ({ code, region, level, solar, wind, noise: 2 + level * 0.03, weight, stdOffsetH });

/** The 30 demo zones, by code. */
export const DEMO_PROFILES: readonly ZoneProfile[] = [
  P('AT', 'cwe', 95, 55, 6, 6),
  P('BE', 'cwe', 82, 75, 10, 8),
  P('CH', 'cwe', 92, 45, 3, 6),
  P('CZ', 'cee', 92, 55, 6, 6),
  P('DE_LU', 'cwe', 86, 100, 22, 40),
  P('DK_1', 'nordic', 80, 45, 25, 3),
  P('DK_2', 'nordic', 84, 40, 20, 3),
  P('EE', 'baltic', 82, 30, 12, 1, 2),
  P('ES', 'iberia', 62, 115, 18, 25),
  P('FI', 'nordic', 42, 15, 25, 8, 2),
  P('FR', 'cwe', 66, 65, 10, 45),
  P('HR', 'cee', 102, 50, 5, 2),
  P('HU', 'cee', 105, 90, 5, 4),
  P('IT_NORD', 'cwe', 110, 50, 3, 20),
  P('LT', 'baltic', 86, 35, 10, 1, 2),
  P('LV', 'baltic', 85, 25, 8, 1, 2),
  P('NL', 'cwe', 85, 100, 20, 12),
  P('NO_1', 'nordic', 55, 5, 6, 3),
  P('NO_2', 'nordic', 60, 5, 8, 4),
  P('NO_3', 'nordic', 32, 0, 8, 2),
  P('NO_4', 'nordic', 22, 0, 6, 2),
  P('NO_5', 'nordic', 56, 0, 5, 3),
  P('PL', 'cee', 100, 50, 12, 15),
  P('PT', 'iberia', 62, 115, 15, 5, 0),
  P('SE_1', 'nordic', 25, 0, 10, 2),
  P('SE_2', 'nordic', 26, 0, 12, 3),
  P('SE_3', 'nordic', 46, 10, 15, 10),
  P('SE_4', 'nordic', 70, 15, 18, 3),
  P('SI', 'cee', 100, 45, 3, 2),
  P('SK', 'cee', 100, 50, 4, 3),
];

/** Demo zone codes in catalogue order. */
export const DEMO_ZONE_CODES: readonly string[] = DEMO_PROFILES.map((p) => p.code);

/**
 * The first UTC midnight at which every demo zone and every border between them exists (IT_CALA:
 * 2021-01-01): the demo data set starts no earlier, so it never holds data of a zone or border
 * outside its period. Epoch ms.
 */
export const DEMO_VALID_FROM_MS: number = (() => {
  const codes = new Set(DEMO_ZONE_CODES);
  const starts = [
    ...DEMO_ZONE_CODES.map((c) => zonePeriod(c).from),
    ...BORDERS.filter(([a, b]) => codes.has(a) && codes.has(b)).map(([a, b]) => borderPeriod(a, b)?.from ?? Infinity),
  ];
  const latest = Math.max(...starts);
  return Math.ceil(latest / 86_400_000) * 86_400_000;
})();

/** Capacity parameters of one demo border (stored orientation A<B). */
export interface BorderProfile {
  readonly a: string;
  readonly b: string;
  /** Index of zones A and B in {@link DEMO_PROFILES}. */
  readonly ia: number;
  readonly ib: number;
  /** Typical NTC A->B and B->A, MW. */
  readonly ntcAb: number;
  readonly ntcBa: number;
  /** Isolated-price gap (EUR/MWh) the border can typically close before it congests. */
  readonly tolerance: number;
  /** Probability per hour of a loop flow against the price gradient. */
  readonly loopProb: number;
  /** Probability per split-price hour of a schedule against the price gradient. */
  readonly adverseScheduleProb: number;
}

/** Base tolerance (EUR/MWh) of borders inside one region and across regions, plus NTC / 300 MW. */
const TOL_SAME = 8;
const TOL_CROSS = 4;
const TOL_DIV = 300;
const LOOP_PRONE = new Set([
  'CZ->DE_LU',
  'CZ->PL',
  'DE_LU->PL',
  'AT->CZ',
  'AT->HU',
  'CZ->SK',
  'PL->SK',
  'BE->NL',
  'BE->FR',
]);

/** Every catalogue border between two demo zones, with capacities drawn from the seed. */
export function demoBorders(seed: number): BorderProfile[] {
  const index = new Map(DEMO_ZONE_CODES.map((c, i) => [c, i]));
  const rng = new Rng(seed, 'borders');
  const out: BorderProfile[] = [];
  for (const [a, b] of BORDERS) {
    const ia = index.get(a);
    const ib = index.get(b);
    if (ia === undefined || ib === undefined) continue;
    const base = Math.round(rng.range(6, 40)) * 100;
    const ntcAb = base;
    const ntcBa = Math.round((base * rng.range(0.75, 1.25)) / 50) * 50;
    const key = `${a}->${b}`;
    const sameRegion = DEMO_PROFILES[ia]?.region === DEMO_PROFILES[ib]?.region;
    const tolerance = (sameRegion ? TOL_SAME : TOL_CROSS) + base / TOL_DIV;
    const loopProb = LOOP_PRONE.has(key) ? 0.12 : 0.03;
    const adverseScheduleProb = a === 'CH' || b === 'CH' ? 0.08 : 0.02;
    out.push({ a, b, ia, ib, ntcAb, ntcBa, tolerance, loopProb, adverseScheduleProb });
  }
  return out;
}
