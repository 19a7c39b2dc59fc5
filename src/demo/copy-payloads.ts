/**
 * Binary COPY payloads of the demo rows written straight from the generator's typed arrays: the
 * same bytes `appendPrices`/`appendBorderHours` encode from `demoPriceRows`/`demoBorderHourRows`
 * (same columns, row order and chunks of {@link COPY_CHUNK_ROWS} rows), without building a row
 * object and a `Date` per row. Pure.
 */
import { COPY_CHUNK_ROWS } from '../repositories/ingest/bulk.js';
import { CopyWriter } from '../repositories/sql/copy-binary.js';
import type { BorderHourClassColumns } from '../domain/border-class.js';
import { HOUR_MS } from './calendar.js';
import { orNull } from './flows.js';
import type { DemoDataSet } from './generate.js';
import type { HourSlice } from './rows.js';

/** Payloads of one table and the rows they hold. */
export interface DemoPayloads {
  readonly payloads: Uint8Array<ArrayBuffer>[];
  readonly rows: number;
}

/** Starts a new payload every {@link COPY_CHUNK_ROWS} rows. */
class Chunker {
  private writer: CopyWriter | null = null;
  private inChunk = 0;
  readonly payloads: Uint8Array<ArrayBuffer>[] = [];
  rows = 0;

  /** `total` rows of about `bytesPerRow` bytes each will be written (sizes the buffers). */
  constructor(
    private readonly total: number,
    private readonly bytesPerRow: number,
  ) {}

  next(): CopyWriter {
    if (this.writer === null || this.inChunk === COPY_CHUNK_ROWS) {
      if (this.writer) this.payloads.push(this.writer.finish());
      this.writer = new CopyWriter(
        Math.max(1, Math.min(COPY_CHUNK_ROWS, this.total - this.rows)) * this.bytesPerRow + 64,
      );
      this.inChunk = 0;
    }
    this.inChunk++;
    this.rows++;
    return this.writer;
  }

  done(): DemoPayloads {
    if (this.writer) this.payloads.push(this.writer.finish());
    this.writer = null;
    return { payloads: this.payloads, rows: this.rows };
  }
}

/**
 * `price_point` rows (zone_id, ts, period_minutes, price_eur_mwh, interpolated, source) of every
 * zone for the periods of `slice`; `zoneIds` in the order of `data.prices`.
 */
export function demoPricePayloads(data: DemoDataSet, zoneIds: readonly number[], slice: HourSlice): DemoPayloads {
  const { periodStart, periodMinutes, hourFirst } = data.grid;
  const first = hourFirst[slice.from] as number;
  const end = hourFirst[slice.to] as number;
  const out = new Chunker(data.prices.length * (end - first), 52);
  data.prices.forEach((zone, z) => {
    const zoneId = zoneIds[z] as number;
    for (let i = first; i < end; i++) {
      const w = out.next();
      w.row(6);
      w.int2(zoneId);
      w.timestamptz(periodStart[i] as number);
      w.int2(periodMinutes[i] as number);
      w.float8(zone.price[i] as number);
      w.bool(zone.interpolated[i] === 1);
      w.text('demo');
    }
  });
  return out.done();
}

function nullableFloat(w: CopyWriter, v: number | null): void {
  if (v === null) w.null();
  else w.float8(v);
}

function nullableBool(w: CopyWriter, v: boolean | null): void {
  if (v === null) w.null();
  else w.bool(v);
}

function nullableText(w: CopyWriter, v: string | null): void {
  if (v === null) w.null();
  else w.text(v);
}

function classification(w: CopyWriter, c: BorderHourClassColumns | undefined): void {
  if (!c) {
    for (let i = 0; i < 5; i++) w.null();
    w.bool(false);
    w.null();
    w.null();
    return;
  }
  nullableText(w, c.flowType);
  nullableBool(w, c.exportFromA);
  nullableFloat(w, c.netFlowMw);
  nullableFloat(w, c.priceAEurMwh);
  nullableFloat(w, c.priceBEurMwh);
  w.bool(c.flowDerived);
  nullableText(w, c.scheduledFlowType);
  nullableBool(w, c.scheduledExportFromA);
}

/**
 * `border_hour` rows with every column group (physical, scheduled, NTC, classification; NaN = not
 * reported) of every border for the hours of `slice`, border after border; `borderIds` in the
 * order of `data.flows`.
 */
export function demoBorderHourPayloads(
  data: DemoDataSet,
  borderIds: readonly number[],
  slice: HourSlice,
): DemoPayloads {
  const out = new Chunker(data.flows.length * (slice.to - slice.from), 224);
  data.flows.forEach((f, j) => {
    const borderId = borderIds[j] as number;
    for (let k = slice.from; k < slice.to; k++) {
      const w = out.next();
      w.row(21);
      w.int2(borderId);
      w.timestamptz(data.range.start + k * HOUR_MS);
      const ab = orNull(f.physicalAb[k] as number);
      const ba = orNull(f.physicalBa[k] as number);
      nullableFloat(w, ab);
      nullableFloat(w, ba);
      w.bool(f.physicalInterpolated[k] === 1);
      nullableText(w, ab === null && ba === null ? null : 'demo');
      w.float8(f.scheduledAb[k] as number);
      w.float8(f.scheduledBa[k] as number);
      w.bool(false);
      w.text('demo');
      w.float8(f.ntcAb[k] as number);
      w.float8(f.ntcBa[k] as number);
      w.text('demo');
      classification(w, f.classes[k]);
    }
  });
  return out.done();
}
