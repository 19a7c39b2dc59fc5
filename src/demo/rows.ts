/**
 * Turns the generated demo data set into loader rows with database ids. Pure. Source `demo`
 * everywhere; physical flows carry no source where they were not reported (hours after now).
 */
import type { StoredCatalogue } from '../domain/catalogue.js';
import { HOUR_MS } from './calendar.js';
import type { BorderHourRow, BorderOutageRow, PricePointRow } from '../repositories/ingest/load.js';
import { type BorderFlows, orNull } from './flows.js';
import type { DemoDataSet } from './generate.js';

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

/** The hours of `slice` in which a zone or border exists (`span`, from `data.valid`); empty when none. */
function within(slice: HourSlice, span: HourSlice): HourSlice {
  const from = Math.max(slice.from, span.from);
  const to = Math.min(slice.to, span.to);
  return from < to ? { from, to } : { from, to: from };
}

/** Price rows (EUR/MWh, native periods) of every demo zone, for the periods of `slice` (default all) in which it exists. */
export function demoPriceRows(data: DemoDataSet, catalogue: StoredCatalogue, slice = allHours(data)): PricePointRow[] {
  const { periodStart, periodMinutes, hourFirst } = data.grid;
  const first = hourFirst[slice.from] as number;
  const stamps = Array.from(periodStart.subarray(first, hourFirst[slice.to] as number), (ms) => new Date(ms));
  const rows: PricePointRow[] = [];
  for (const [z, zone] of data.prices.entries()) {
    const span = within(slice, data.valid.zones[z] as HourSlice);
    if (span.from === span.to) continue;
    const zoneId = idOf(catalogue.zone(zone.code), zone.code);
    for (let i = hourFirst[span.from] as number; i < (hourFirst[span.to] as number); i++) {
      rows.push({
        zoneId,
        ts: stamps[i - first] as Date,
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
  span: HourSlice,
  rows: BorderHourRow[],
): void {
  for (let k = span.from; k < span.to; k++) {
    const physicalAbMw = orNull(f.physicalAb[k] as number);
    const physicalBaMw = orNull(f.physicalBa[k] as number);
    const reported = physicalAbMw !== null || physicalBaMw !== null;
    rows.push({
      borderId,
      ts: stamps[k - first] as Date,
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
 * of `slice` (default all) in which each border exists, border after border.
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
    const span = within(slice, data.valid.borders[f.border] as HourSlice);
    if (!b || span.from === span.to) continue;
    oneBorderRows(f, idOf(catalogue.border(`${b.a}->${b.b}`), `${b.a}->${b.b}`), stamps, slice.from, span, rows);
  }
  return rows;
}

/** Outage rows of the demo borders, clipped to the hours in which each border exists. */
export function demoOutageRows(data: DemoDataSet, catalogue: StoredCatalogue): BorderOutageRow[] {
  return data.outages.flatMap((o) => {
    const b = data.borders[o.border];
    const span = data.valid.borders[o.border];
    if (!b || !span) throw new Error('demo data: outage of an unknown border');
    const startsAt = span.from > 0 ? Math.max(o.startsAt, data.range.start + span.from * HOUR_MS) : o.startsAt;
    const endsAt = span.to < data.hours ? Math.min(o.endsAt, data.range.start + span.to * HOUR_MS) : o.endsAt;
    if (startsAt >= endsAt) return [];
    return [
      {
        borderId: idOf(catalogue.border(`${b.a}->${b.b}`), `${b.a}->${b.b}`),
        startsAt: new Date(startsAt),
        endsAt: new Date(endsAt),
        planned: o.planned,
        reason: o.reason,
        mrid: o.mrid,
        source: 'demo' as const,
      },
    ];
  });
}
