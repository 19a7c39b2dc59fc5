import type { FlowType } from '../../src/domain/classification.js';

/** A hand-computed border-hour at a threshold of the default classification (eps 0.01, 97 %, 1 MW). */
export interface BoundaryHour {
  readonly name: string;
  /** Hourly prices of zones A and B, EUR/MWh. */
  readonly priceA: number;
  readonly priceB: number;
  /** Quarter-hour prices of zone B whose time-weighted mean is priceB, when the SQL path should average them. */
  readonly quartersB?: readonly number[];
  readonly flowAbMw: number;
  readonly flowBaMw: number;
  readonly ntcAbMw: number;
  readonly ntcBaMw: number;
  readonly flowType: FlowType;
  readonly exportFromA: boolean | null;
}

/** Exporter/importer price pairs one cent apart, where `importer - exporter` in doubles lands on either side of 0.01. */
const CENT_PAIRS: readonly [number, number][] = [
  [184.86, 184.87],
  [86.1, 86.11],
  [0, 0.01],
  [-0.02, -0.01],
  [1000, 1000.01],
  [123.44, 123.45],
];

const full = { flowAbMw: 990, flowBaMw: 0, ntcAbMw: 1000, ntcBaMw: 1000 };

/** Every boundary hour: spreads of exactly ±eps, flows exactly at the capacity share and at the minimum flow. */
export const BOUNDARY_HOURS: readonly BoundaryHour[] = [
  ...CENT_PAIRS.flatMap(([low, high]): BoundaryHour[] => [
    {
      name: `spread +eps ${low} -> ${high} at 99 % of NTC is convergence`,
      priceA: low,
      priceB: high,
      ...full,
      flowType: 'convergence',
      exportFromA: true,
    },
    {
      name: `spread -eps ${high} -> ${low} is convergence`,
      priceA: high,
      priceB: low,
      ...full,
      flowType: 'convergence',
      exportFromA: true,
    },
    {
      name: `spread +2 cents ${low} -> ${high}+0.01 at 99 % of NTC is congestion`,
      priceA: low,
      priceB: Math.round((high + 0.01) * 100) / 100,
      ...full,
      flowType: 'congestion',
      exportFromA: true,
    },
    {
      name: `spread -2 cents ${high}+0.01 -> ${low} is counter_intuitive`,
      priceA: Math.round((high + 0.01) * 100) / 100,
      priceB: low,
      ...full,
      flowType: 'counter_intuitive',
      exportFromA: true,
    },
  ]),
  {
    name: 'spread +eps from a quarter-hour mean (184.86 -> mean 184.87) is convergence',
    priceA: 184.86,
    priceB: 184.87,
    quartersB: [184.86, 184.86, 184.88, 184.88],
    ...full,
    flowType: 'convergence',
    exportFromA: true,
  },
  {
    name: 'spread -eps toward zone A (B exports 86.11 -> 86.10) is convergence',
    priceA: 86.1,
    priceB: 86.11,
    flowAbMw: 0,
    flowBaMw: 500,
    ntcAbMw: 1000,
    ntcBaMw: 1000,
    flowType: 'convergence',
    exportFromA: false,
  },
  {
    name: 'flow exactly 97 % of NTC (97 of 100 MW) is congestion',
    priceA: 50,
    priceB: 51,
    flowAbMw: 97,
    flowBaMw: 0,
    ntcAbMw: 100,
    ntcBaMw: 100,
    flowType: 'congestion',
    exportFromA: true,
  },
  {
    name: 'net flow exactly 97 % of NTC from two directions (32.3 - 22.6 of 10 MW) is congestion',
    priceA: 50,
    priceB: 51,
    flowAbMw: 32.3,
    flowBaMw: 22.6,
    ntcAbMw: 10,
    ntcBaMw: 10,
    flowType: 'congestion',
    exportFromA: true,
  },
  {
    name: 'flow 1 kW under 97 % of NTC is convergence',
    priceA: 50,
    priceB: 51,
    flowAbMw: 96.999,
    flowBaMw: 0,
    ntcAbMw: 100,
    ntcBaMw: 100,
    flowType: 'convergence',
    exportFromA: true,
  },
  {
    name: 'net flow exactly at the minimum flow (1.4 - 0.4 MW) has a direction',
    priceA: 60,
    priceB: 50,
    flowAbMw: 1.4,
    flowBaMw: 0.4,
    ntcAbMw: 1000,
    ntcBaMw: 1000,
    flowType: 'counter_intuitive',
    exportFromA: true,
  },
  {
    name: 'net flow exactly at the minimum flow B -> A (2.3 - 1.3 MW the other way) has a direction',
    priceA: 50,
    priceB: 60,
    flowAbMw: 1.3,
    flowBaMw: 2.3,
    ntcAbMw: 1000,
    ntcBaMw: 1000,
    flowType: 'counter_intuitive',
    exportFromA: false,
  },
  {
    name: 'net flow 1 kW under the minimum flow has no direction',
    priceA: 60,
    priceB: 50,
    flowAbMw: 0.999,
    flowBaMw: 0,
    ntcAbMw: 1000,
    ntcBaMw: 1000,
    flowType: 'convergence',
    exportFromA: null,
  },
];
