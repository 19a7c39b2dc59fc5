/**
 * Encoder of PostgreSQL's binary COPY format. Pure. Binary COPY is about twice as fast to load as
 * text on PGlite (no float parsing inside WASM) and five times faster to build in JS (no number
 * formatting): 636 k border-hours build in 1 s and load in 5 s instead of 5 s + 10 s.
 */

/** Column types the loaders write; `text` also carries enum labels. */
export type CopyType = 'int2' | 'int4' | 'float8' | 'bool' | 'timestamptz' | 'text';

/** A value of a COPY column; null writes SQL NULL. */
export type CopyValue = number | string | boolean | Date | null;

const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];
/** 2000-01-01T00:00Z, PostgreSQL's timestamp epoch, in Unix ms. */
const PG_EPOCH_MS = 946_684_800_000;
const TWO_POW_32 = 0x1_0000_0000;

const encoder = new TextEncoder();

/**
 * Writes one binary COPY payload field by field (the header on creation): a row is
 * {@link row} with its field count, then one call per field, in column order; {@link finish}
 * returns the payload.
 */
export class CopyWriter {
  private buf: Uint8Array<ArrayBuffer>;
  private view: DataView;
  private pos = 0;
  private readonly texts = new Map<string, Uint8Array>();

  constructor(initialBytes = 1 << 16) {
    this.buf = new Uint8Array(initialBytes);
    this.view = new DataView(this.buf.buffer);
    this.bytes(SIGNATURE);
    this.int32(0);
    this.int32(0);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  private bytes(data: ArrayLike<number>): void {
    this.ensure(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  private int32(v: number): void {
    this.ensure(4);
    this.view.setInt32(this.pos, v);
    this.pos += 4;
  }

  /** Starts a row of `fields` fields. */
  row(fields: number): void {
    this.ensure(2);
    this.view.setInt16(this.pos, fields);
    this.pos += 2;
  }

  /** SQL NULL. */
  null(): void {
    this.int32(-1);
  }

  int2(v: number): void {
    this.ensure(6);
    this.view.setInt32(this.pos, 2);
    this.view.setInt16(this.pos + 4, v);
    this.pos += 6;
  }

  int4(v: number): void {
    this.ensure(8);
    this.view.setInt32(this.pos, 4);
    this.view.setInt32(this.pos + 4, v);
    this.pos += 8;
  }

  /** @throws RangeError on a non-finite number. */
  float8(v: number): void {
    if (!Number.isFinite(v)) throw new RangeError(`Non-finite number in bulk load: ${String(v)}`);
    this.ensure(12);
    this.view.setInt32(this.pos, 8);
    this.view.setFloat64(this.pos + 4, v);
    this.pos += 12;
  }

  bool(v: boolean): void {
    this.ensure(5);
    this.view.setInt32(this.pos, 1);
    this.view.setUint8(this.pos + 4, v ? 1 : 0);
    this.pos += 5;
  }

  /** An instant, epoch ms UTC. @throws RangeError on NaN. */
  timestamptz(ms: number): void {
    if (Number.isNaN(ms)) throw new RangeError('Invalid Date in bulk load');
    const micros = (ms - PG_EPOCH_MS) * 1000;
    const high = Math.floor(micros / TWO_POW_32);
    this.ensure(12);
    this.view.setInt32(this.pos, 8);
    this.view.setInt32(this.pos + 4, high);
    this.view.setUint32(this.pos + 8, micros - high * TWO_POW_32);
    this.pos += 12;
  }

  /** UTF-8 text (enum labels too). */
  text(value: string): void {
    let data = this.texts.get(value);
    if (data === undefined) {
      data = encoder.encode(value);
      if (this.texts.size < 10_000) this.texts.set(value, data);
    }
    this.int32(data.length);
    this.bytes(data);
  }

  /** A value of a column of type `type`; null writes SQL NULL. */
  field(type: CopyType, value: CopyValue): void {
    if (value === null) return this.null();
    switch (type) {
      case 'int2':
        return this.int2(value as number);
      case 'int4':
        return this.int4(value as number);
      case 'float8':
        return this.float8(value as number);
      case 'bool':
        return this.bool(Boolean(value));
      case 'timestamptz':
        return this.timestamptz((value as Date).getTime());
      default:
        return this.text(String(value));
    }
  }

  /** Ends the payload (trailer) and returns it. */
  finish(): Uint8Array<ArrayBuffer> {
    this.ensure(2);
    this.view.setInt16(this.pos, -1);
    this.pos += 2;
    return this.buf.subarray(0, this.pos);
  }
}

/**
 * Encodes rows as one binary COPY payload: `encode` returns one value per column, typed by `types`.
 * @throws RangeError on non-finite numbers or invalid dates.
 */
export function copyBinary<R>(
  rows: readonly R[],
  types: readonly CopyType[],
  encode: (row: R) => readonly CopyValue[],
): Uint8Array<ArrayBuffer> {
  const w = new CopyWriter();
  for (const row of rows) {
    const values = encode(row);
    w.row(types.length);
    for (let i = 0; i < types.length; i++) w.field(types[i] as CopyType, values[i] ?? null);
  }
  return w.finish();
}
