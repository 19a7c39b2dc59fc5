/**
 * The `price_daily` rollup of the generated demo prices, computed from the generator's arrays
 * instead of read back from `price_point`. Pure. Demo prices are whole cents, so the sum the SQL
 * rollup takes in numeric (Σ price × minutes, exact) is an integer count of cent-minutes here, and
 * dividing it by 100 rounds once, as the numeric-to-float8 cast does: the values are bit-identical
 * to `refreshPriceDaily`'s.
 */
import { DAY_MS, HOUR_MS } from './calendar.js';
import type { DemoDataSet } from './generate.js';

/** One row of `price_daily`: a zone's UTC day. */
export interface DemoPriceDay {
  readonly zone: string;
  /** UTC day, `YYYY-MM-DD`. */
  readonly day: string;
  /** Σ price × period minutes, EUR/MWh·min. */
  readonly weightedSum: number;
  /** Σ period minutes. */
  readonly minutes: number;
  readonly interpolated: boolean;
}

/** Every zone's UTC days of `data` (zone by zone, days in order). */
export function demoPriceDays(data: DemoDataSet): DemoPriceDay[] {
  const { periodMinutes, hourFirst } = data.grid;
  const hoursPerDay = DAY_MS / HOUR_MS;
  const rows: DemoPriceDay[] = [];
  for (const zone of data.prices) {
    for (let h = 0; h < data.hours; h += hoursPerDay) {
      const first = hourFirst[h] as number;
      const last = hourFirst[Math.min(h + hoursPerDay, data.hours)] as number;
      let centMinutes = 0;
      let minutes = 0;
      let interpolated = false;
      for (let i = first; i < last; i++) {
        const m = periodMinutes[i] as number;
        centMinutes += Math.round((zone.price[i] as number) * 100) * m;
        minutes += m;
        interpolated ||= zone.interpolated[i] === 1;
      }
      const day = new Date(data.range.start + h * HOUR_MS).toISOString().slice(0, 10);
      rows.push({ zone: zone.code, day, weightedSum: centMinutes / 100, minutes, interpolated });
    }
  }
  return rows;
}
