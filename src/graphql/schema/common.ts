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
