/**
 * Announces committed data: a `pg_notify` on the data events channel, sent inside the transaction
 * that writes a window, so PostgreSQL delivers it to every listening session exactly when (and
 * only if) the data commits.
 */
import { DATA_EVENTS_CHANNEL_PREFIX, type DataEvent, type DataEventKind } from '../../events/data-events.js';
import { type Executor, query } from '../sql/executor.js';

/** The event kind of an upstream item: prices for day-ahead prices, flows for the border items. */
export function eventKindOf(item: string): DataEventKind {
  return item === 'prices' ? 'prices' : 'flows';
}

/**
 * Queues the data event of one window (item, area key, [start, end) UTC) on `db`; call it with the
 * transaction that writes the window. The channel and the payload name the current schema (see
 * `dataEventsChannel`).
 */
export async function notifyWindowCommitted(db: Executor, w: { item: string; areaKey: string; start: Date; end: Date }): Promise<void> {
  await query(
    db,
    `SELECT pg_notify(left($1 || current_schema(), 63), json_build_object('schema', current_schema(), 'kind', $2::text, 'item', $3::text,
       'areas', json_build_array($4::text), 'from', $5::text, 'to', $6::text)::text)`,
    [DATA_EVENTS_CHANNEL_PREFIX, eventKindOf(w.item), w.item, w.areaKey, w.start.toISOString(), w.end.toISOString()],
  );
}

/** The data event {@link notifyWindowCommitted} announces for a window, as listeners read it. */
export function windowEvent(w: { item: string; areaKey: string; start: Date; end: Date }): DataEvent {
  const kind = eventKindOf(w.item);
  return { kind, item: w.item, zones: kind === 'prices' ? [w.areaKey] : [], borders: kind === 'flows' ? [w.areaKey] : [], from: w.start, to: w.end };
}
