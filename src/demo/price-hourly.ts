/**
 * The `price_hourly` rollup of the generated demo prices, computed from the generator's arrays
 * instead of regrouped from `price_point`. Pure. The hourly means are the generator's own
 * (`ZonePrices.hourly`, rounded by `hourlyMeanPrice` as the SQL rollup rounds); the peak flag is
 * left to the statement that stores the rows, so its definition stays in one place.
 */
import type { DemoDataSet } from './generate.js';

/** The demo's hourly prices: every zone over the same run of consecutive UTC hours. */
export interface DemoPriceHours {
  /** First UTC hour, epoch ms. */
  readonly start: number;
  readonly hours: number;
  /** Zone codes, in the order of the blocks of `price` and `interpolated`. */
  readonly zones: readonly string[];
  /** EUR/MWh per zone and hour, zone by zone (`zones.length × hours` values). */
  readonly price: readonly number[];
  /** Whether any period of the zone-hour is interpolated, same layout as `price`. */
  readonly interpolated: readonly boolean[];
}

/** Every zone's UTC hours of `data` (zone by zone, hours in order). */
export function demoPriceHours(data: DemoDataSet): DemoPriceHours {
  const { hourFirst } = data.grid;
  const price: number[] = [];
  const interpolated: boolean[] = [];
  for (const zone of data.prices) {
    for (let h = 0; h < data.hours; h++) price.push(zone.hourly[h] as number);
    for (let h = 0; h < data.hours; h++) {
      let any = false;
      for (let i = hourFirst[h] as number; i < (hourFirst[h + 1] as number); i++) any ||= zone.interpolated[i] === 1;
      interpolated.push(any);
    }
  }
  return { start: data.range.start, hours: data.hours, zones: data.prices.map((z) => z.code), price, interpolated };
}
