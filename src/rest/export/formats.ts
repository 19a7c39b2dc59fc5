import { z } from 'zod';
import { defineRow, fieldsOf, type RowContract } from '../../contract/fields.js';
import { type RowTimeZone, wireRowOf } from '../../contract/json.js';
import { ARROW_CONTENT_TYPE, arrowWriter } from '../arrow.js';
import type { RowWriter } from '../chunks.js';
import { csvText, csvWriter } from '../csv.js';

/** Formats of the exports, CSV first (the default). */
export const EXPORT_FORMATS = ['csv', 'ndjson', 'arrow', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The `format` parameter of the exports. */
export const exportFormatParam = z.enum(EXPORT_FORMATS).default('csv').meta({
  description:
    'File format: `csv` (RFC 4180, header row, the JSON field names; default), `ndjson` (one JSON object a line), `arrow` (Arrow IPC stream: UTC millisecond timestamps, float64, int32, bool, utf8) or `parquet` (Snappy-compressed, row groups of 50,000 rows, UTC timestamps). An error after the first byte ends a CSV body with a line starting `#error:`, an NDJSON body with a line `{"error":…}`; an Arrow or Parquet body is cut without its end marker or footer.',
});

/** Media type of each export format. */
export const EXPORT_CONTENT_TYPES: Readonly<Record<ExportFormat, string>> = {
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson',
  arrow: ARROW_CONTENT_TYPE,
  parquet: 'application/vnd.apache.parquet',
};

/** File name extension of each export format. */
export const EXPORT_EXTENSIONS: Readonly<Record<ExportFormat, string>> = {
  csv: 'csv',
  ndjson: 'ndjson',
  arrow: 'arrows',
  parquet: 'parquet',
};

/** A writer of a format and how it ends a body cut by an error (undefined: no marker, the body is aborted). */
export interface ExportWriter<R> {
  readonly writer: RowWriter<R, string | Uint8Array>;
  readonly failure?: (message: string) => string;
}

/**
 * The contract of the typed formats (Arrow, Parquet): the rows' fields and `time_zone`, the IANA
 * zone their instants are shown in under `tz` (instants themselves are UTC timestamps).
 */
export function typedContract<R>(contract: RowContract<R>, zoneOf?: RowTimeZone<R>): RowContract<R> {
  const f = fieldsOf<R>();
  return defineRow<R>({
    ...contract,
    fields: [
      ...contract.fields,
      f.string((r) => zoneOf?.(r) ?? 'UTC', {
        rest: 'time_zone',
        description:
          'The time zone of the request (tz; UTC without it): the timestamps are UTC instants, shown in this zone by the text formats.',
      }),
    ],
  });
}

/** Prefix of the last line of a CSV export cut by an error. */
export const CSV_ERROR_PREFIX = '#error:';

/** NDJSON lines of rows: each row's JSON (the contract's wire row) and a LF. */
function ndjsonWriter<R>(contract: RowContract<R>, zoneOf?: RowTimeZone<R>): RowWriter<R, string> {
  const wire = wireRowOf(contract, zoneOf);
  return {
    *rows(rows) {
      for (let at = 0; at < rows.length; at += 1_000) {
        let text = '';
        for (let i = at; i < Math.min(rows.length, at + 1_000); i++) text += `${JSON.stringify(wire(rows[i] as R))}\n`;
        yield text;
      }
    },
  };
}

/** The writer of a text or Arrow export; Parquet is written from the batches (see parquet.ts). */
export function exportWriter<R>(
  format: Exclude<ExportFormat, 'parquet'>,
  contract: RowContract<R>,
  zoneOf?: RowTimeZone<R>,
): ExportWriter<R> {
  switch (format) {
    case 'csv':
      return { writer: csvWriter(contract, zoneOf), failure: (m) => `${CSV_ERROR_PREFIX} ${csvText(m)}\r\n` };
    case 'ndjson':
      return { writer: ndjsonWriter(contract, zoneOf), failure: (m) => `${JSON.stringify({ error: m })}\n` };
    case 'arrow':
      return { writer: arrowWriter(typedContract(contract, zoneOf), zoneOf) };
  }
}
