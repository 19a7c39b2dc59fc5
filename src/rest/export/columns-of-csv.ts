/**
 * Column batches (typed arrays) read from the CSV lines the database writes for an export
 * (`COPY ... WITH CSV`), for the Arrow and Parquet writers: no object per row, so an export of
 * millions of rows keeps its memory as the CSV one does.
 */
import type { RowContract } from '../../contract/fields.js';
import type { Column, ColumnBatch } from '../../domain/columns.js';
import { type CellKind, csvFieldsOf, eachCsvLine, linesIn } from './csv-lines.js';

/** What a column is read from: every cell kind but dates (Arrow's dates are no column kind here). */
type ReadKind = Exclude<CellKind, 'day'>;

/** One column being filled: its cells read in turn, then the finished {@link Column}. */
interface ColumnBuilder {
  read(row: number, cell: string): void;
  done(): Column;
}

/** `value` read from `cell`, unless the cell was no finite number (NaN and Infinity are refused, not written). */
function numberOf(value: number, cell: string): number {
  if (!Number.isFinite(value)) throw new Error(`a CSV cell that is no finite number: ${cell}`);
  return value;
}

/** 1 for `true`, 0 for `false`; any other cell is refused. */
function booleanOf(cell: string): number {
  if (cell === 'true') return 1;
  if (cell === 'false') return 0;
  throw new Error(`a CSV cell that is no boolean: ${cell}`);
}

function builderOf(kind: ReadKind, rows: number, nullable: boolean): ColumnBuilder {
  const valid = nullable ? new Uint8Array(rows) : undefined;
  const present = (row: number, cell: string) => {
    if (cell !== '') {
      if (valid) valid[row] = 1;
      return true;
    }
    if (!valid) throw new Error('an empty CSV cell in a column that is never null');
    return false;
  };
  const withValid = <C extends Column>(c: C): C => (valid ? { ...c, valid } : c);
  switch (kind) {
    case 'timestamp': {
      const ms = new Float64Array(rows);
      return {
        read: (r, c) => void (present(r, c) && (ms[r] = numberOf(Date.parse(c), c))),
        done: () => withValid({ kind, ms }),
      };
    }
    case 'float': {
      const values = new Float64Array(rows);
      return {
        read: (r, c) => void (present(r, c) && (values[r] = numberOf(Number(c), c))),
        done: () => withValid({ kind, values }),
      };
    }
    case 'int': {
      const values = new Int32Array(rows);
      return {
        read: (r, c) => void (present(r, c) && (values[r] = numberOf(Number(c), c))),
        done: () => withValid({ kind, values }),
      };
    }
    case 'bool': {
      const values = new Uint8Array(rows);
      return {
        read: (r, c) => void (present(r, c) && (values[r] = booleanOf(c))),
        done: () => withValid({ kind, values }),
      };
    }
    case 'utf8': {
      const texts: string[] = new Array<string>(rows).fill('');
      return {
        read: (r, c) => void (present(r, c) && (texts[r] = c)),
        done: () => {
          const offsets = new Int32Array(rows + 1);
          for (let i = 0; i < rows; i++) offsets[i + 1] = offsets[i]! + Buffer.byteLength(texts[i]!);
          return withValid({ kind, offsets, bytes: Buffer.from(texts.join(''), 'utf8') });
        },
      };
    }
  }
}

/**
 * The reader of whole CSV lines into one column batch, with `extra` columns added (`time_zone`);
 * undefined when a field is not read into a column (days, lists, nested rows). A quoted cell or a
 * value a column cannot hold ends the export with an error (its body then has no footer), never a
 * wrong value.
 */
export function columnsOfCsv<R>(
  contract: RowContract<R>,
  extra: ReadonlyMap<string, Column>,
): ((text: string, rows: number) => ColumnBatch) | undefined {
  const read = csvFieldsOf(contract);
  if (!read || read.kinds.includes('day')) return undefined;
  const { fields, kinds } = read;
  return (text, rows) => {
    const builders = fields.map((f, i) => builderOf(kinds[i] as ReadKind, rows, f.nullable ?? false));
    let row = 0;
    const lines = eachCsvLine(text, builders.length, (cells) => {
      if (row >= rows) throw new Error(`more CSV lines than the ${rows} of the batch`);
      for (let i = 0; i < cells.length; i++) (builders[i] as ColumnBuilder).read(row, cells[i] as string);
      row++;
    });
    if (lines !== rows) throw new Error(`${lines} CSV lines read of ${rows}`);
    return {
      length: rows,
      columns: new Map<string, Column>([...fields.map((f, i) => [f.rest, builders[i]!.done()] as const), ...extra]),
    };
  };
}

/** The byte offset just past the `n`th LF of `bytes` (n >= 1; there are at least n). */
function pastLine(bytes: Buffer, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) at = bytes.indexOf(0x0a, at + 1);
  return at + 1;
}

/**
 * Column batches of the database's CSV lines, read by `read`: the first of `first` rows (a first
 * byte soon), then `rows` each, the last what is left; chunks of whole lines are gathered and cut
 * at line ends, so the batches (and a Parquet file's row groups) are the same whatever the chunks.
 */
export async function* csvColumnBatches(
  lines: AsyncIterable<Uint8Array>,
  read: (text: string, rows: number) => ColumnBatch,
  first: number,
  rows: number,
): AsyncGenerator<ColumnBatch> {
  let held: Uint8Array[] = [];
  let count = 0;
  let target = first;
  for await (const chunk of lines) {
    held.push(chunk);
    count += linesIn(chunk);
    while (count >= target) {
      const bytes = Buffer.concat(held);
      const cut = pastLine(bytes, target);
      yield read(bytes.toString('utf8', 0, cut), target);
      held = cut < bytes.length ? [bytes.subarray(cut)] : [];
      count -= target;
      target = rows;
    }
  }
  const rest = Buffer.concat(held);
  if (rest.length && rest[rest.length - 1] !== 0x0a) throw new Error('CSV lines that end inside a line');
  if (count) yield read(rest.toString('utf8'), count);
}
