import type { z } from 'zod';
import { restFields, type RowContract } from '../contract/fields.js';
import { type RowTimeZone, wireRowOf, type WireRow, type WireValue } from '../contract/json.js';
import { type RowWriter, writeArray } from './chunks.js';

/** A CSV column: its header (nested fields dotted, `coverage.prices.datetime_from`) and the path to its value in a wire row. */
export interface CsvColumn {
  readonly header: string;
  readonly path: readonly string[];
}

/** The CSV columns of a contract: its REST fields in order, object fields replaced by their nested columns. */
export function csvColumns<R>(contract: RowContract<R>, prefix: readonly string[] = []): CsvColumn[] {
  return restFields(contract).flatMap((f) => {
    const path = [...prefix, f.rest];
    return f.kind === 'object' ? csvColumns(f.contract, path) : [{ header: path.join('.'), path }];
  });
}

/** The CSV columns of a REST row schema (rows built without a contract, OpenAPI examples): nested objects dotted. */
export function schemaColumns(row: z.ZodObject, prefix: readonly string[] = []): CsvColumn[] {
  return Object.entries(row.shape).flatMap(([name, field]) => {
    let schema = field as z.ZodType;
    while (schema.def.type === 'nullable' || schema.def.type === 'optional')
      schema = (schema as z.ZodNullable).unwrap() as z.ZodType;
    const path = [...prefix, name];
    return schema.def.type === 'object'
      ? schemaColumns(schema as z.ZodObject, path)
      : [{ header: path.join('.'), path }];
  });
}

/** The whole CSV text of wire rows (small bodies: OpenAPI examples). */
export function csvOfWireRows(columns: readonly CsvColumn[], rows: readonly WireRow[]): string {
  const line = csvLineOf(columns);
  return csvHeader(columns) + rows.map(line).join('');
}

const NEEDS_QUOTES = /[",\r\n]/;

/** A text field per RFC 4180: quoted (inner quotes doubled) when it holds a comma, quote, CR or LF. */
export function csvText(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The CSV field of a wire value: null (and a non-finite number, which JSON writes as null) empty,
 * numbers as JSON writes them, booleans `true`/`false`, string lists joined with `;`.
 */
export function csvField(value: WireValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return csvText(value);
  if (Array.isArray(value)) return csvText(value.join(';'));
  return '';
}

/** The value at a column's path in a wire row; undefined below a null object. */
function valueAt(row: WireRow, path: readonly string[]): WireValue | undefined {
  let v: WireValue | undefined = row;
  for (const key of path) {
    if (v === null || v === undefined || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as WireRow)[key];
  }
  return v;
}

/** The CSV line (CRLF-terminated) of a wire row. */
export function csvLineOf(columns: readonly CsvColumn[]): (row: WireRow) => string {
  const flat = columns.every((c) => c.path.length === 1);
  const keys = columns.map((c) => c.path[0] as string);
  return (row) => {
    let line = '';
    for (let i = 0; i < columns.length; i++) {
      if (i > 0) line += ',';
      line += csvField(flat ? row[keys[i] as string] : valueAt(row, (columns[i] as CsvColumn).path));
    }
    return `${line}\r\n`;
  };
}

/** The header line (CRLF-terminated) of columns. */
export const csvHeader = (columns: readonly CsvColumn[]): string =>
  `${columns.map((c) => csvText(c.header)).join(',')}\r\n`;

/** Rows per chunk of {@link csvChunks}. */
const CHUNK_ROWS = 1_000;

/**
 * CSV text of domain rows, in chunks: the header line, then `CHUNK_ROWS` lines at a time. Values are
 * the contract's wire values (those of the JSON rows), so the two formats agree field by field.
 */
export function csvChunks<R>(contract: RowContract<R>, rows: readonly R[], zoneOf?: RowTimeZone<R>): Generator<string> {
  return writeArray(rows, csvWriter(contract, zoneOf));
}

/** How {@link csvChunks} writes rows: the header line first, then the lines of each run of rows. */
export function csvWriter<R>(contract: RowContract<R>, zoneOf?: RowTimeZone<R>): RowWriter<R, string> {
  const columns = csvColumns(contract);
  const wire = wireRowOf(contract, zoneOf);
  const line = csvLineOf(columns);
  return {
    head: () => [csvHeader(columns)],
    *rows(rows) {
      for (let at = 0; at < rows.length; at += CHUNK_ROWS) {
        let text = '';
        for (let i = at; i < Math.min(rows.length, at + CHUNK_ROWS); i++) text += line(wire(rows[i] as R));
        yield text;
      }
    },
  };
}
