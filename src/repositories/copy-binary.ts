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

/** Appends binary COPY fields to a growing buffer. */
class Writer {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  private pos = 0;
  private readonly texts = new Map<string, Uint8Array>();

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  bytes(data: ArrayLike<number>): void {
    this.ensure(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  int16(v: number): void {
    this.ensure(2);
    this.view.setInt16(this.pos, v);
    this.pos += 2;
  }

  int32(v: number): void {
    this.ensure(4);
    this.view.setInt32(this.pos, v);
    this.pos += 4;
  }

  field(type: CopyType, value: CopyValue): void {
    if (value === null) return this.int32(-1);
    this.ensure(12);
    const v = this.view;
    const at = this.pos;
    switch (type) {
      case 'int2':
        v.setInt32(at, 2);
        v.setInt16(at + 4, value as number);
        this.pos += 6;
        return;
      case 'int4':
        v.setInt32(at, 4);
        v.setInt32(at + 4, value as number);
        this.pos += 8;
        return;
      case 'float8':
        if (!Number.isFinite(value)) throw new RangeError(`Non-finite number in bulk load: ${String(value)}`);
        v.setInt32(at, 8);
        v.setFloat64(at + 4, value as number);
        this.pos += 12;
        return;
      case 'bool':
        v.setInt32(at, 1);
        v.setUint8(at + 4, value ? 1 : 0);
        this.pos += 5;
        return;
      case 'timestamptz':
        return this.timestamp(value as Date);
      default:
        return this.text(String(value));
    }
  }

  private timestamp(ts: Date): void {
    const ms = ts.getTime();
    if (Number.isNaN(ms)) throw new RangeError('Invalid Date in bulk load');
    const micros = (ms - PG_EPOCH_MS) * 1000;
    const high = Math.floor(micros / TWO_POW_32);
    this.view.setInt32(this.pos, 8);
    this.view.setInt32(this.pos + 4, high);
    this.view.setUint32(this.pos + 8, micros - high * TWO_POW_32);
    this.pos += 12;
  }

  private text(value: string): void {
    let data = this.texts.get(value);
    if (data === undefined) {
      data = encoder.encode(value);
      if (this.texts.size < 10_000) this.texts.set(value, data);
    }
    this.int32(data.length);
    this.bytes(data);
  }

  result(): Uint8Array<ArrayBuffer> {
    return this.buf.subarray(0, this.pos);
  }
}

/**
 * Encodes rows as one binary COPY payload: `encode` returns one value per column, typed by `types`.
 * @throws RangeError on non-finite numbers or invalid dates.
 */
export function copyBinary<R>(rows: readonly R[], types: readonly CopyType[], encode: (row: R) => readonly CopyValue[]): Uint8Array<ArrayBuffer> {
  const w = new Writer();
  w.bytes(SIGNATURE);
  w.int32(0);
  w.int32(0);
  for (const row of rows) {
    const values = encode(row);
    w.int16(types.length);
    for (let i = 0; i < types.length; i++) w.field(types[i] as CopyType, values[i] ?? null);
  }
  w.int16(-1);
  return w.result();
}
