import type { RowContract } from '../../contract/fields.js';
import type { RowTimeZone } from '../../contract/json.js';
import type { ExportWriter } from './formats.js';

/** The Parquet writer of an export (see {@link ExportWriter}): not available yet. */
export function parquetWriter<R>(_contract: RowContract<R>, _zoneOf?: RowTimeZone<R>): ExportWriter<R> {
  throw new Error('parquet is not available');
}
