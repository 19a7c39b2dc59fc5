import { z } from 'zod';
import { isSupportedInstant } from '../../domain/time.js';
import { InputError } from '../../errors.js';
import type { Meta } from '../../services/meta.js';
import { builder } from '../builder.js';

const RESOLUTION_VALUES = {
  AUTO: { value: 'auto', description: 'Choose by range width.' },
  NATIVE: { value: 'native', description: 'Values as published (15-minute or hourly); range at most 2 days.' },
  HOURLY: { value: '1H', description: 'UTC hours (REST 1H); range at most 14 days.' },
  DAILY: { value: '1D', description: 'UTC days (REST 1D).' },
  WEEKLY: { value: '1W', description: 'ISO weeks, Monday 00:00 UTC (REST 1W).' },
} as const;

/** Requested resolution as a GraphQL enum; values map to the REST spelling. */
export const ResolutionEnum = builder.enumType('Resolution', {
  description: 'Requested aggregation. AUTO picks by range width (<= 2 days NATIVE, <= 14 days HOURLY, <= 90 days DAILY, else WEEKLY). Buckets are UTC; WEEKLY buckets are ISO weeks from Monday 00:00 UTC; aggregates are time-weighted means.',
  values: RESOLUTION_VALUES,
});

/** Applied resolution as reported in meta. */
export const AppliedResolutionEnum = builder.enumType('AppliedResolution', {
  description: 'Resolution the server applied (REST meta.resolution: native, 1H, 1D, 1W).',
  values: {
    NATIVE: { value: 'native', description: 'Values as published: 15-minute or hourly prices, hourly flows (REST native).' },
    HOURLY: { value: '1H', description: 'UTC hours; prices are time-weighted means of the native values (REST 1H).' },
    DAILY: { value: '1D', description: 'UTC days from 00:00 UTC (REST 1D).' },
    WEEKLY: { value: '1W', description: 'ISO weeks from Monday 00:00 UTC (REST 1W).' },
  } as const,
});

/** How the values of a result came to be (REST meta.provenance). */
export const ProvenanceEnum = builder.enumType('Provenance', {
  description: 'MEASURED: upstream observations; DERIVED: computed from other signals.',
  values: {
    MEASURED: { value: 'measured', description: 'Upstream observations: prices, measured physical flows (REST measured).' },
    DERIVED: { value: 'derived', description: 'Computed: every aggregate, and flows where a physical flow was missing and the scheduled exchange stood in (REST derived).' },
  } as const,
});

/** Response meta (REST meta, spec 2.2). */
export const MetaRef = builder.objectRef<Meta>('Meta').implement({
  description: 'Provenance, resolved UTC range and applied resolution of a result.',
  fields: (t) => ({
    provenance: t.field({ type: ProvenanceEnum, description: 'measured or derived (derived also for the generated demo data set: upstreamSources demo).', resolve: (m) => m.provenance }),
    upstreamSources: t.stringList({ nullable: true, description: 'Where the data came from ("ENTSO-E Transparency Platform", or "demo").', resolve: (m) => m.upstreamSources }),
    resolvedFrom: t.field({ type: 'DateTime', nullable: true, description: 'Start of the range used, UTC.', resolve: (m) => m.range?.from ?? null }),
    resolvedTo: t.field({ type: 'DateTime', nullable: true, description: 'End of the range used (exclusive), UTC.', resolve: (m) => m.range?.to ?? null }),
    resolution: t.field({ type: AppliedResolutionEnum, nullable: true, description: 'Applied resolution; null where the field takes none.', resolve: (m) => m.resolution }),
    timeZone: t.string({ nullable: true, description: 'The time zone applied (REST meta.time_zone): the canonical IANA name, UTC or local; null without timeZone.', resolve: (m) => m.timeZone ?? null }),
  }),
});

export { rangeArgSchema } from '../arg-schemas.js';

const GRAPHQL_PARAM: Record<string, string> = { datetime_from: 'from', datetime_to: 'to', zone: 'zones', border: 'borders', tz: 'timeZone' };

const GRAPHQL_RESOLUTION: Record<string, string> = Object.fromEntries(Object.entries(RESOLUTION_VALUES).map(([name, v]) => [v.value, name]));

/** Runs a service call, renaming REST parameter names (and REST resolution values) in input errors to their GraphQL spelling. */
export async function withArgNames<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    throw new InputError(err.issues.map((i) => ({ ...i, param: GRAPHQL_PARAM[i.param] ?? i.param, ...(i.param === 'resolution' ? { input: GRAPHQL_RESOLUTION[String(i.input)] ?? i.input } : {}) })));
  }
}

/** Opaque keyset cursor: base64url of a JSON array. */
export const encodeCursor = (parts: readonly unknown[]): string => Buffer.from(JSON.stringify(parts)).toString('base64url');

/** A connection edge whose cursor is only encoded when a client selects it. */
export interface Edge<T> {
  readonly node: T;
  readonly cursor: string;
}

class LazyEdge<T> implements Edge<T> {
  constructor(readonly node: T, private readonly cursorOf: (node: T) => string) {}

  get cursor(): string {
    return this.cursorOf(this.node);
  }
}

/** Edges of a page; `cursorOf` runs only for the cursors a query reads. */
export const lazyEdges = <T>(nodes: readonly T[], cursorOf: (node: T) => string): Edge<T>[] => nodes.map((n) => new LazyEdge(n, cursorOf));

const CURSOR_TEXT = /^[A-Za-z0-9_-]{1,1024}$/;

/**
 * A cursor's datetime part: RFC 3339 UTC text as {@link encodeCursor} writes it, within the
 * supported range of instants (1900-01-01 to 2200-01-01 UTC).
 */
export const cursorInstant = z.iso
  .datetime()
  .transform((v) => new Date(v))
  .refine(isSupportedInstant, 'datetime outside 1900-01-01..2200-01-01 UTC');

/** A cursor's code part (zone code, flow type): short non-empty text. */
export const cursorCode = z.string().min(1).max(64);

/**
 * Decodes a cursor made by {@link encodeCursor} and validates its parts with `schema` (one tuple
 * schema per connection), returning the parsed parts.
 * @throws InputError on `after` (BAD_USER_INPUT) when the cursor is not base64url, not JSON, or not of that shape.
 */
export function decodeCursor<S extends z.ZodType>(cursor: string, schema: S): z.output<S> {
  let parts: unknown;
  try {
    if (!CURSOR_TEXT.test(cursor)) throw new Error('not base64url');
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw InputError.of('after', 'Invalid cursor: pass the cursor of an edge unchanged', 'value_error');
  }
  const result = schema.safeParse(parts);
  if (!result.success) throw InputError.of('after', 'Invalid cursor: pass the cursor of an edge unchanged', 'value_error');
  return result.data;
}
