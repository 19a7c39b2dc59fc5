/**
 * NDJSON lines made from the CSV lines the database writes for an export (`COPY ... WITH CSV`):
 * the same bytes as the NDJSON row writer gives for the same rows, without a row object per row
 * (an export of ten million rows then keeps its memory as the CSV one does).
 */
import type { RowContract } from '../../contract/fields.js';
import { csvFieldsOf, eachCsvLine } from './csv-lines.js';

/** What JSON would escape in a string (a quote, a backslash, a control character): never in the codes, instants and labels of the exported rows. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is looked for
const NEEDS_ESCAPING = /["\\\u0000-\u001f]/;

/** A JSON number or boolean as written (NaN and Infinity, which the database may write, are not JSON). */
const JSON_BARE = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false)$/;

/**
 * The converter of a chunk of whole CSV lines (CRLF, no header, the contract's REST fields in
 * order, NULL an empty cell) into NDJSON lines (`{"field":value,...}` and LF), or undefined when a
 * field's kind has text the CSV cell does not carry as JSON (lists, nested rows). A cell JSON
 * would escape ends the export with an error (its body then says it was cut), never a wrong line.
 * Numbers pass as written: the database's shortest round-trip text, JavaScript's in the ranges
 * the CSV copy path writes (see repositories/flows/csv-copy.ts).
 */
export function ndjsonOfCsv<R>(contract: RowContract<R>): ((chunk: Uint8Array) => string) | undefined {
  const read = csvFieldsOf(contract);
  if (!read) return undefined;
  const quoted = read.kinds.map((k) => k === 'timestamp' || k === 'day' || k === 'utf8');
  const keys = read.fields.map((f, i) => `${i === 0 ? '{' : ','}${JSON.stringify(f.rest)}:`);
  return (chunk) => {
    let out = '';
    eachCsvLine(
      Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8'),
      keys.length,
      (cells) => {
        for (let i = 0; i < cells.length; i++) {
          const cell = cells[i] as string;
          if (cell === '') out += `${keys[i]}null`;
          else if (quoted[i]) {
            if (NEEDS_ESCAPING.test(cell)) throw new Error('a CSV cell that JSON would escape');
            out += `${keys[i]}"${cell}"`;
          } else {
            if (!JSON_BARE.test(cell)) throw new Error(`a CSV cell that is no JSON number or boolean: ${cell}`);
            out += keys[i] + cell;
          }
        }
        out += '}\n';
      },
    );
    return out;
  };
}
