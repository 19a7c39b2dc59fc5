/**
 * The events the service publishes when data changes: one per ingestion window that commits,
 * carried from the committing transaction to every server instance by PostgreSQL NOTIFY on
 * {@link DATA_EVENTS_CHANNEL} (the embedded database implements NOTIFY too).
 */

/** The NOTIFY channel. Channels are database-wide: the payload names the schema, and listeners keep their own schema's events only. */
export const DATA_EVENTS_CHANNEL = 'emk_data';

/** What changed: day-ahead prices of zones, or flows (and their classification) of borders. */
export type DataEventKind = 'prices' | 'flows';

/** One committed ingestion window. Instants are UTC. */
export interface DataEvent {
  readonly kind: DataEventKind;
  /** The upstream item the window loaded (`prices`, `flows`, `schedules`, `ntc`, `outages`). */
  readonly item: string;
  /** Zone codes (kind `prices`), else empty. */
  readonly zones: readonly string[];
  /** Border keys `A->B` in stored orientation (kind `flows`), else empty. */
  readonly borders: readonly string[];
  /** The window's range [from, to). */
  readonly from: Date;
  readonly to: Date;
}

/** The wire form of a {@link DataEvent} in a NOTIFY payload (well under PostgreSQL's 8000-byte limit). */
export interface DataEventPayload {
  readonly schema: string;
  readonly kind: DataEventKind;
  readonly item: string;
  readonly areas: readonly string[];
  readonly from: string;
  readonly to: string;
}

const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');

/**
 * Reads a NOTIFY payload; null when it is not one of ours or belongs to another schema than `schema`.
 */
export function parseDataEvent(payload: string | undefined, schema: string): DataEvent | null {
  let raw: Partial<DataEventPayload>;
  try {
    raw = JSON.parse(payload ?? '') as Partial<DataEventPayload>;
  } catch {
    return null;
  }
  if (raw.schema !== schema || (raw.kind !== 'prices' && raw.kind !== 'flows') || !isStrings(raw.areas)) return null;
  const from = new Date(raw.from ?? NaN);
  const to = new Date(raw.to ?? NaN);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || typeof raw.item !== 'string') return null;
  const areas = raw.areas;
  return { kind: raw.kind, item: raw.item, zones: raw.kind === 'prices' ? areas : [], borders: raw.kind === 'flows' ? areas : [], from, to };
}
