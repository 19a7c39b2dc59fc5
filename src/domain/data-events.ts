/**
 * The events the service publishes when data changes: one per ingestion window that commits,
 * carried from the committing transaction to every server instance by PostgreSQL NOTIFY on the
 * schema's channel ({@link dataEventsChannel}; the embedded database implements NOTIFY too).
 *
 * Channels are database-wide and any session may NOTIFY on any of them: a payload is read with a
 * schema and dropped when it is not a data event of the listener's schema, and its areas are
 * checked against the catalogue, never trusted.
 */
import { z } from 'zod';
import { type Catalogue, DATA_CATALOGUE } from './catalogue.js';
import { ITEMS } from './items.js';

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

/**
 * A payload read: the event and how many of its areas were not in the catalogue (dropped from it),
 * or why the whole payload was dropped (with the unknown areas counted when that is the reason).
 */
export type ReadPayload =
  | { readonly event: DataEvent; readonly unknownAreas: number }
  | { readonly dropped: string; readonly unknownAreas?: number };

/**
 * Reads a NOTIFY payload for the listener of `schema`; never throws. Areas are checked against
 * `catalogue`: zone codes exactly as stored (kind `prices`), border keys `A->B` in stored
 * orientation (kind `flows`); unknown ones are dropped from the event, and an event left without
 * an area is dropped whole, so a payload can only name what the service serves.
 */
export function readDataEvent(
  payload: string | undefined,
  schema: string,
  catalogue: Catalogue = DATA_CATALOGUE,
): ReadPayload {
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
  const known = (a: string) => (p.kind === 'prices' ? catalogue.zone(a) : catalogue.border(a)) !== undefined;
  const areas = [...new Set(p.areas.filter(known))];
  const unknownAreas = p.areas.filter((a) => !known(a)).length;
  if (!areas.length) return { dropped: 'no area of the catalogue', unknownAreas };
  return {
    event: {
      kind: p.kind,
      item: p.item,
      zones: p.kind === 'prices' ? areas : [],
      borders: p.kind === 'flows' ? areas : [],
      from: new Date(p.from),
      to: new Date(p.to),
    },
    unknownAreas,
  };
}
