/**
 * The CSV lines the database writes for an export (`COPY ... WITH CSV`: CRLF lines, no header, the
 * contract's REST fields in order, NULL an empty cell), read cell by cell by the NDJSON and
 * column writers that are made from them.
 */
import { type Field, type FieldKind, restFields, type RowContract } from '../../contract/fields.js';

/** What the CSV cell of each field kind holds (kinds absent here are not read from CSV: lists, nested rows). */
const CELL_OF_KIND = {
  datetime: 'timestamp',
  day: 'day',
  float: 'float',
  int: 'int',
  year: 'int',
  boolean: 'bool',
  string: 'utf8',
  zone: 'utf8',
  enum: 'utf8',
} as const satisfies Partial<Record<FieldKind, string>>;

/** What a CSV cell holds: an instant, a date, a number, a boolean or text. */
export type CellKind = (typeof CELL_OF_KIND)[keyof typeof CELL_OF_KIND];

/** A contract's REST fields with what each one's cell holds, or undefined when a field is not read from CSV. */
export function csvFieldsOf<R>(
  contract: RowContract<R>,
): { readonly fields: (Field<R> & { rest: string })[]; readonly kinds: CellKind[] } | undefined {
  const fields = restFields(contract) as (Field<R> & { rest: string })[];
  const kinds = fields.map((f) => (CELL_OF_KIND as Partial<Record<FieldKind, CellKind>>)[f.kind]);
  if (kinds.some((k) => k === undefined)) return undefined;
  return { fields, kinds: kinds as CellKind[] };
}

/**
 * Calls `line` with the cells of each CRLF line of `text` in turn and returns how many there were.
 * @throws Error on a line of another width than `width`, a quoted cell (a quote, a comma or a line
 * break inside: no cell of the exported kinds holds one) or text after the last line end.
 */
export function eachCsvLine(text: string, width: number, line: (cells: readonly string[]) => void): number {
  let lines = 0;
  let from = 0;
  for (let at = text.indexOf('\r\n'); at !== -1; at = text.indexOf('\r\n', from), lines++) {
    const cells = text.slice(from, at).split(',');
    if (cells.length !== width) throw new Error(`a CSV line of ${cells.length} cells for ${width} fields`);
    if (cells.some((c) => c.includes('"'))) throw new Error('a quoted CSV cell');
    line(cells);
    from = at + 2;
  }
  if (from !== text.length) throw new Error('CSV lines that end inside a line');
  return lines;
}

/** LF bytes in a chunk: its lines (the database's CSV ends each with CRLF). */
export function linesIn(chunk: Uint8Array): number {
  let n = 0;
  for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) n++;
  return n;
}
