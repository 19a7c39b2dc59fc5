/**
 * Rows held as columns (typed arrays, one value per row), for writers of columnar formats: no
 * object per row. Pure.
 */

/** Which rows hold a value: 1 a value, 0 null; absent, every row holds one. */
interface Nullable {
  readonly valid?: Uint8Array;
}

/** UTF-8 strings: row i is `bytes[offsets[i] .. offsets[i + 1])` (Arrow's utf8 layout). */
export interface Utf8Column extends Nullable {
  readonly kind: 'utf8';
  readonly offsets: Int32Array;
  readonly bytes: Uint8Array;
}

/** One column of a {@link ColumnBatch}. */
export type Column =
  /** Instants as UTC epoch milliseconds. */
  | ({ readonly kind: 'timestamp'; readonly ms: Float64Array } & Nullable)
  | ({ readonly kind: 'float'; readonly values: Float64Array } & Nullable)
  | ({ readonly kind: 'int'; readonly values: Int32Array } & Nullable)
  /** 1 for true, 0 for false. */
  | ({ readonly kind: 'bool'; readonly values: Uint8Array } & Nullable)
  | Utf8Column
  /** The same text in every row. */
  | { readonly kind: 'constant'; readonly value: string };

/** `length` rows as columns, each named by its field's REST name. */
export interface ColumnBatch {
  readonly length: number;
  readonly columns: ReadonlyMap<string, Column>;
}

const YEAR_STARTS = new Map<number, number>();

/** Epoch ms of 1 January 00:00 UTC of `year`. */
function yearStart(year: number): number {
  let ms = YEAR_STARTS.get(year);
  if (ms === undefined) {
    ms = Date.UTC(year, 0, 1);
    YEAR_STARTS.set(year, ms);
  }
  return ms;
}

/** The UTC year of each instant (epoch ms); one date computation per run of instants in the same year. */
export function utcYears(ms: Float64Array): Int32Array {
  const years = new Int32Array(ms.length);
  let year = 0;
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < ms.length; i++) {
    const t = ms[i]!;
    if (t < from || t >= to) {
      year = new Date(t).getUTCFullYear();
      from = yearStart(year);
      to = yearStart(year + 1);
    }
    years[i] = year;
  }
  return years;
}
