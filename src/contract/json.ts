import { formatUtc, isoDay } from '../domain/time.js';
import { zonedFormatter } from '../domain/time-zone.js';
import { type Field, restFields, type RowContract } from './fields.js';

/** A JSON value of a REST row field. */
export type WireValue = string | number | boolean | null | readonly string[] | WireRow;

/** A REST row: field names in contract order. */
export type WireRow = { [name: string]: WireValue };

/** Date formatting that remembers the last instant: sorted rows repeat an hour or day many times. */
function lastValueMemo(format: (d: Date) => string): (d: Date) => string {
  let lastMs = Number.NaN;
  let lastText = '';
  return (d) => {
    const ms = d.getTime();
    if (ms !== lastMs) {
      lastMs = ms;
      lastText = format(d);
    }
    return lastText;
  };
}

/**
 * The IANA time zone a row's instants are written in (`tz` requests); omitted: UTC with `Z`.
 * Rows of one zone repeat instants: formatting is memoised per zone, no Intl call per row.
 */
export type RowTimeZone<R> = ((row: R) => string) | undefined;

/** Instant or day text of a field kind in the zone of each row, remembered per zone. */
function zonedText<R>(kind: 'datetime' | 'day', zoneOf: (row: R) => string): (d: Date, row: R) => string {
  const format = zonedFormatter(kind);
  return (d, row) => format(d, zoneOf(row));
}

/** The calendar year of a row's instant: UTC, or local in the row's zone under `zoneOf`. */
export function yearOf<R>(value: (row: R) => Date | null, zoneOf?: RowTimeZone<R>): (row: R) => number | null {
  if (!zoneOf) return (row) => value(row)?.getUTCFullYear() ?? null;
  const day = zonedFormatter('day');
  return (row) => {
    const d = value(row);
    return d === null ? null : Number(day(d, zoneOf(row)).slice(0, 4));
  };
}

/**
 * The JSON value of a field: instants as RFC 3339 UTC text (with `zoneOf`: with the offset of the
 * row's zone), days as YYYY-MM-DD (local dates with `zoneOf`), the rest as is.
 */
export function wireValueOf<R>(f: Field<R>, zoneOf?: RowTimeZone<R>): (row: R) => WireValue {
  if (f.kind === 'year') return yearOf(f.value, zoneOf);
  if (f.kind === 'datetime' || f.kind === 'day') {
    const value = f.value;
    if (zoneOf) {
      const zoned = zonedText(f.kind, zoneOf);
      return (row) => {
        const d = value(row);
        return d === null ? null : zoned(d, row);
      };
    }
    const text = lastValueMemo(f.kind === 'day' ? isoDay : formatUtc);
    return (row) => {
      const d = value(row);
      return d === null ? null : text(d);
    };
  }
  if (f.kind === 'object') {
    const [value, nested] = [f.value, wireRowOf(f.contract)];
    return (row) => {
      const v = value(row);
      return v === null ? null : nested(v);
    };
  }
  return f.value;
}

/** Builds a contract's wire rows from the wire value getters of its REST fields, in contract order. */
type WireRowFactory = (values: readonly ((row: any) => WireValue)[]) => (row: any) => WireRow;

const wireRowFactories = new WeakMap<RowContract<any>, WireRowFactory>();

/**
 * The factory of a contract's wire rows: one object literal of the REST field names (quoted as
 * JSON), compiled once per contract, so that every row of a contract has one shape (V8's fast
 * path for `JSON.stringify`) and every field its own call site. Rows assigned field by field in
 * a loop cost about a quarter more to build and to write. The names are the contract's own constants; a
 * literal's `__proto__` would set the prototype, so no field may have that name.
 */
function wireRowFactory(contract: RowContract<any>): WireRowFactory {
  let factory = wireRowFactories.get(contract);
  if (!factory) {
    const fields = restFields(contract);
    if (fields.some((f) => f.rest === '__proto__')) throw new Error(`${contract.rest}: __proto__ cannot name a field`);
    const names = fields.map((f, i) => [JSON.stringify(f.rest), `v${i}`] as const);
    const literal = names.map(([key, v]) => `${key}: ${v}(row)`).join(', ');
    factory = new Function(
      'values',
      `const [${names.map(([, v]) => v).join(', ')}] = values;\nreturn (row) => ({ ${literal} });`,
    ) as WireRowFactory;
    wireRowFactories.set(contract, factory);
  }
  return factory;
}

/** The REST row of a domain row (JSON, CSV): field names, order, rounding and formats of the contract. */
export function wireRowOf<R>(contract: RowContract<R>, zoneOf?: RowTimeZone<R>): (row: R) => WireRow {
  return wireRowFactory(contract)(restFields(contract).map((f) => wireValueOf(f, zoneOf)));
}

/** Rows per chunk of {@link jsonChunks}. */
const CHUNK_ROWS = 1_000;

/**
 * JSON texts of `CHUNK_ROWS` rows at a time, comma-separated inside a chunk, no brackets: the
 * chunk's REST rows ({@link wireRowOf}) written by one native `JSON.stringify`, which costs less
 * than assembling the text field by field.
 */
export function jsonChunks<R>(
  contract: RowContract<R>,
  rows: readonly R[],
  zoneOf?: RowTimeZone<R>,
): Generator<string> {
  return jsonTexts(wireRowOf(contract, zoneOf), rows);
}

/** {@link jsonChunks} of rows with their wire rows made by `wire` (one {@link wireRowOf} for every batch of an answer). */
export function* jsonTexts<R>(wire: (row: R) => WireRow, rows: readonly R[]): Generator<string> {
  for (let at = 0; at < rows.length; at += CHUNK_ROWS) {
    const chunk: WireRow[] = new Array<WireRow>(Math.min(CHUNK_ROWS, rows.length - at));
    for (let i = 0; i < chunk.length; i++) chunk[i] = wire(rows[at + i] as R);
    yield JSON.stringify(chunk).slice(1, -1);
  }
}
