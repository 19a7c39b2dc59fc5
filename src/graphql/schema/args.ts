import { bordersArgSchema, rangeArgSchema, timeZoneArgSchema, zonesArgSchema } from '../arg-schemas.js';
import type { builder } from '../builder.js';
import { ResolutionEnum } from './common.js';

/** The `t.arg` builder of a query field. */
export type ArgBuilder = Parameters<Parameters<typeof builder.queryFields>[0]>[0]['arg'];

/** `from` and `to`: the half-open range [from, to) of REST `datetime_from` / `datetime_to`. */
export const rangeArgs = (t: ArgBuilder) => ({
  from: t.string({
    description: 'Start of the range (inclusive), REST datetime_from: ISO 8601 (UTC when no offset; a bare date is 00:00 UTC) or now[-<n><unit>] with unit m (minutes), H or h (hours), d, w, M (months), y. Default now-30d.',
    validate: rangeArgSchema,
  }),
  to: t.string({ description: 'End of the range (exclusive), REST datetime_to; same formats. Default now.', validate: rangeArgSchema }),
});

/** The `resolution` argument (REST `resolution`, default AUTO), described for its field. */
export const resolutionArg = (t: ArgBuilder, description: string) =>
  t({ type: ResolutionEnum, defaultValue: 'auto', description: `${description} Explicit NATIVE allows a range of at most 2 days, HOURLY at most 14 days.` });

/** A repeatable border filter (REST `border`): `A->B`, short codes or EICs, case-insensitive. */
export const bordersArg = (t: ArgBuilder, description: string) =>
  t.stringList({ description: `Borders written A->B (short codes or EICs, case-insensitive), REST border. ${description}`, validate: bordersArgSchema });

/** A repeatable zone filter (REST `zone`): short codes or EICs, case-insensitive. */
export const zonesArg = (t: ArgBuilder, description: string) =>
  t.stringList({ description: `Bidding zones (short code such as DE_LU, or EIC; case-insensitive), REST zone. ${description}`, validate: zonesArgSchema });

/** Nullable GraphQL range arguments as service input. */
export const rangeInput = (a: { from?: string | null; to?: string | null }) => ({ datetimeFrom: a.from ?? undefined, datetimeTo: a.to ?? undefined });

/** The `timeZone` argument (REST `tz`), described for its field. */
export const timeZoneArg = (t: ArgBuilder, description: string) =>
  t.string({
    description: `Time zone of the output, REST tz: an IANA name (e.g. Europe/Berlin, case-insensitive), UTC, or local (each bidding zone's own zone). ${description} Omitted: UTC, output unchanged.`,
    validate: timeZoneArgSchema,
  });

/** Nullable GraphQL `timeZone` as service input (`tz`). */
export const timeZoneInput = (a: { timeZone?: string | null }) => ({ tz: a.timeZone ?? undefined });
