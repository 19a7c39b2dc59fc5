/**
 * Announces committed data: a `pg_notify` on the data events channel, sent inside the transaction
 * that writes a window, so PostgreSQL delivers it to every listening session exactly when (and
 * only if) the data commits.
 */
import { DATA_EVENTS_CHANNEL_PREFIX, type DataEvent, type DataEventKind } from '../../domain/data-events.js';
import { Prisma } from '../../generated/prisma/client.js';
import { type Executor, run } from '../../db/executor.js';

/** The event kind of an upstream item: prices for day-ahead prices, flows for the border items. */
export function eventKindOf(item: string): DataEventKind {
  return item === 'prices' ? 'prices' : 'flows';
}

/**
 * Queues the data event of one window (item, area key, [start, end) UTC) on `db`; call it with the
 * transaction that writes the window. The channel and the payload name the current schema (see
 * `dataEventsChannel`).
 */
export async function notifyWindowCommitted(
  db: Executor,
  w: { item: string; areaKey: string; start: Date; end: Date },
): Promise<void> {
  await run(
    db,
    'notifyWindowCommitted',
    Prisma.sql`
    SELECT pg_notify(left(${DATA_EVENTS_CHANNEL_PREFIX} || current_schema(), 63), json_build_object('schema', current_schema(), 'kind', ${eventKindOf(w.item)}::text, 'item', ${w.item}::text,
       'areas', json_build_array(${w.areaKey}::text), 'from', ${w.start.toISOString()}::text, 'to', ${w.end.toISOString()}::text)::text)`,
  );
}

/** The data event {@link notifyWindowCommitted} announces for a window, as listeners read it. */
export function windowEvent(w: { item: string; areaKey: string; start: Date; end: Date }): DataEvent {
  const kind = eventKindOf(w.item);
  return {
    kind,
    item: w.item,
    zones: kind === 'prices' ? [w.areaKey] : [],
    borders: kind === 'flows' ? [w.areaKey] : [],
    from: w.start,
    to: w.end,
  };
}

/**
 * Announces a data event over several areas (zone codes for `prices`, border keys `A->B` otherwise,
 * at most 100) for [from, to) UTC, as {@link notifyWindowCommitted} does for one window: the demo's
 * live feed, which writes no window of its own.
 */
export async function notifyDataEvent(
  db: Executor,
  e: { item: string; areas: readonly string[]; from: Date; to: Date },
): Promise<void> {
  await run(
    db,
    'notifyDataEvent',
    Prisma.sql`
    SELECT pg_notify(left(${DATA_EVENTS_CHANNEL_PREFIX} || current_schema(), 63), json_build_object('schema', current_schema(), 'kind', ${eventKindOf(e.item)}::text, 'item', ${e.item}::text,
       'areas', to_json(${[...e.areas]}::text[]), 'from', ${e.from.toISOString()}::text, 'to', ${e.to.toISOString()}::text)::text)`,
  );
}
