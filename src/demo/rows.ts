/**
 * Turns the generated demo data set into loader rows with database ids. Pure. Source `demo`
 * everywhere; physical flows carry no source where they were not reported (hours after now).
 */
import type { StoredCatalogue } from '../domain/catalogue.js';
import { HOUR_MS } from './calendar.js';
import type { BorderHourRow, BorderOutageRow, PricePointRow } from '../repositories/ingest/load.js';
import type { BorderFlows } from './flows.js';
import type { DemoDataSet } from './generate.js';

const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x);

function idOf(stored: { id: number } | undefined, key: string): number {
  if (stored === undefined) throw new Error(`demo data: ${key} is not in the stored catalogue`);
  return stored.id;
}

/** Hours [from, to) of the data set, as indices from its first hour (a chunk of a large load). */
export interface HourSlice {
  readonly from: number;
  readonly to: number;
}

/** Calendar-month slices (hour indices) of the data set; the last one ends with the data. */
export function monthSlices(data: DemoDataSet): HourSlice[] {
  const slices: HourSlice[] = [];
  let from = 0;
  while (from < data.hours) {
    const at = new Date(data.range.start + from * HOUR_MS);
    const next = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
    const to = Math.min(data.hours, (next - data.range.start) / HOUR_MS);
    slices.push({ from, to });
    from = to;
  }
  return slices;
}

const allHours = (data: DemoDataSet): HourSlice => ({ from: 0, to: data.hours });

/** Database ids of the data set's zones (order of `data.prices`) and borders (order of `data.flows`). */
export interface DemoIds {
  readonly zones: readonly number[];
  readonly borders: readonly number[];
}

/** The stored ids of the data set's zones and borders. @throws Error when one is not in the catalogue. */
export function demoIds(data: DemoDataSet, catalogue: StoredCatalogue): DemoIds {
  const zones = data.prices.map((z) => idOf(catalogue.zone(z.code), z.code));
  const borders = data.flows.map((f) => {
    const b = data.borders[f.border];
    const key = b ? `${b.a}->${b.b}` : `border #${f.border}`;
    return idOf(b && catalogue.border(key), key);
  });
  return { zones, borders };
}

/** Price rows (EUR/MWh, native periods) of every demo zone, for the periods of `slice` (default all). */
export function demoPriceRows(data: DemoDataSet, catalogue: StoredCatalogue, slice = allHours(data)): PricePointRow[] {
  const { periodStart, periodMinutes, hourFirst } = data.grid;
  const first = hourFirst[slice.from] as number;
  const stamps = Array.from(periodStart.subarray(first, hourFirst[slice.to] as number), (ms) => new Date(ms));
  const rows: PricePointRow[] = [];
  for (const zone of data.prices) {
    const zoneId = idOf(catalogue.zone(zone.code), zone.code);
    for (let j = 0; j < stamps.length; j++) {
      const i = first + j;
      rows.push({
        zoneId,
        ts: stamps[j] as Date,
        periodMinutes: periodMinutes[i] as number,
        priceEurMwh: zone.price[i] as number,
        interpolated: zone.interpolated[i] === 1,
        source: 'demo',
      });
    }
  }
  return rows;
}

function oneBorderRows(
  f: BorderFlows,
  borderId: number,
  stamps: readonly Date[],
  first: number,
  rows: BorderHourRow[],
): void {
  for (let j = 0; j < stamps.length; j++) {
    const k = first + j;
    const physicalAbMw = orNull(f.physicalAb[k] as number);
    const physicalBaMw = orNull(f.physicalBa[k] as number);
    const reported = physicalAbMw !== null || physicalBaMw !== null;
    rows.push({
      borderId,
      ts: stamps[j] as Date,
      physicalAbMw,
      physicalBaMw,
      physicalInterpolated: f.physicalInterpolated[k] === 1,
      physicalSource: reported ? 'demo' : null,
      scheduledAbMw: f.scheduledAb[k] as number,
      scheduledBaMw: f.scheduledBa[k] as number,
      scheduledSource: 'demo',
      ntcAbMw: f.ntcAb[k] as number,
      ntcBaMw: f.ntcBa[k] as number,
      ntcSource: 'demo',
      classification: f.classes[k] ?? null,
    });
  }
}

/**
 * Border-hour rows (MW, stored orientation) with their precomputed classification, for the hours
 * of `slice` (default all), border after border.
 */
export function demoBorderHourRows(
  data: DemoDataSet,
  catalogue: StoredCatalogue,
  slice = allHours(data),
): BorderHourRow[] {
  const stamps = Array.from(
    { length: slice.to - slice.from },
    (_, j) => new Date(data.range.start + (slice.from + j) * HOUR_MS),
  );
  const rows: BorderHourRow[] = [];
  for (const f of data.flows) {
    const b = data.borders[f.border];
    if (!b) continue;
    oneBorderRows(f, idOf(catalogue.border(`${b.a}->${b.b}`), `${b.a}->${b.b}`), stamps, slice.from, rows);
  }
  return rows;
}

/** Outage rows of the demo borders. */
export function demoOutageRows(data: DemoDataSet, catalogue: StoredCatalogue): BorderOutageRow[] {
  return data.outages.map((o) => {
    const b = data.borders[o.border];
    if (!b) throw new Error('demo data: outage of an unknown border');
    return {
      borderId: idOf(catalogue.border(`${b.a}->${b.b}`), `${b.a}->${b.b}`),
      startsAt: new Date(o.startsAt),
      endsAt: new Date(o.endsAt),
      planned: o.planned,
      reason: o.reason,
      mrid: o.mrid,
      source: 'demo',
    };
  });
}
