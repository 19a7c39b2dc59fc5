/**
 * The events the service publishes when data changes: one per ingestion window that commits,
 * carried from the committing transaction to every server instance by PostgreSQL NOTIFY on the
 * schema's channel ({@link dataEventsChannel}; the embedded database implements NOTIFY too).
 *
 * Channels are database-wide and any session may NOTIFY on any of them: a payload is read with a
 * schema and dropped when it is not a data event of the listener's schema, never trusted.
 */
import { z } from 'zod';
import { ITEMS } from '../ingest/windows.js';

/** The prefix of the NOTIFY channels: the channel of schema `s` is `emk_data_s`. */
export const DATA_EVENTS_CHANNEL_PREFIX = 'emk_data_';

/** Longest identifier PostgreSQL keeps (NAMEDATALEN - 1), bytes. */
const MAX_IDENTIFIER_BYTES = 63;

/**
 * The NOTIFY channel of a schema's data events: `emk_data_<schema>`, cut to 63 bytes. Schemas are
 * lower-case identifiers (DATABASE_SCHEMA; `public` on the embedded database), so the channel is one
 * too and reads the same quoted or not (PGlite's `unlisten` does not quote). Two schemas whose names
 * share their first 54 characters share a channel; the payload's schema still tells their events
 * apart. The publisher builds the same name in SQL (`left(prefix || current_schema(), 63)`).
 */
export function dataEventsChannel(schema: string): string {
  return `${DATA_EVENTS_CHANNEL_PREFIX}${schema}`.slice(0, MAX_IDENTIFIER_BYTES);
}

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

const area = z.string().min(1).max(40);

/** The wire form of a {@link DataEvent} in a NOTIFY payload (well under PostgreSQL's 8000-byte limit). */
const payloadSchema = z
  .object({
    schema: z.string(),
    kind: z.enum(['prices', 'flows']),
    item: z.enum(ITEMS),
    areas: z.array(area).min(1).max(100),
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
  })
  .refine((p) => (p.kind === 'prices') === (p.item === 'prices'), 'kind does not match item')
  .refine((p) => Date.parse(p.from) < Date.parse(p.to), 'from is not before to');

/** A payload read: the event, or why it was dropped. */
export type ReadPayload = { readonly event: DataEvent } | { readonly dropped: string };

/** Reads a NOTIFY payload for the listener of `schema`; never throws. */
export function readDataEvent(payload: string | undefined, schema: string): ReadPayload {
  let raw: unknown;
  try {
    raw = JSON.parse(payload ?? '');
  } catch {
    return { dropped: 'not JSON' };
  }
  const parsed = payloadSchema.safeParse(raw);
  if (!parsed.success)
    return {
      dropped: `not a data event (${parsed.error.issues[0]?.path.join('.') || 'payload'}: ${parsed.error.issues[0]?.message ?? 'invalid'})`,
    };
  const p = parsed.data;
  if (p.schema !== schema) return { dropped: 'an event of another schema' };
  const from = new Date(p.from);
  const to = new Date(p.to);
  return {
    event: {
      kind: p.kind,
      item: p.item,
      zones: p.kind === 'prices' ? p.areas : [],
      borders: p.kind === 'flows' ? p.areas : [],
      from,
      to,
    },
  };
}
