import type { z } from 'zod';
import { DEFAULT_FROM, DEFAULT_TO } from '../domain/time.js';
import { DURATION_POINTS, FLOW_BIN_MW, PAGE_LIMITS, PRICE_BIN_EUR_MWH } from '../limits.js';
import { InputError, type InputIssue } from '../errors.js';
import { type EnumDecl, FLOW_BASIS, FLOW_TYPE, graphqlValueName, PRICE_BASIS, REQUESTED_RESOLUTION } from './enums.js';
import { codeListShape } from './param-checks.js';

/**
 * Query parameters, each declared once like the rows (fields.ts): its names on each surface, the
 * service input field it fills, its kind, bounds and default, and its description with units. The
 * REST query schemas and OpenAPI parameters (rest/params.ts), the GraphQL arguments
 * (graphql/schema/args.ts), the service input of both (`inputOf`) and the names in input errors
 * are derived from these declarations.
 *
 * Services and domain checks name a parameter at fault by its declaration's `input` (the service
 * input field, `datetimeFrom`), a name of no surface; each surface writes it as it names the
 * parameter (`namedOn`).
 */

/** What a parameter's value is, by kind. */
interface KindValues {
  readonly string: string;
  /** Repeatable on REST (`zone=A&zone=B`), a list on GraphQL. */
  readonly strings: readonly string[];
  readonly int: number;
  readonly float: number;
  readonly enum: string;
  /** Repeatable enum. */
  readonly enums: readonly string[];
  /** REST `true` / `false`, GraphQL Boolean. */
  readonly boolean: boolean;
}

/** A kind of {@link KindValues}. */
export type ParamKind = keyof KindValues;

interface ParamBase<I extends string> {
  /** Field of the service input the value fills (`datetimeFrom`). */
  readonly input: I;
  /** REST query name; omitted: GraphQL only. */
  readonly rest?: string;
  /** GraphQL argument name; omitted: REST only. */
  readonly graphql?: string;
  /** Meaning, units, default and bounds, as OpenAPI shows it. */
  readonly description: string;
  /** The GraphQL description, with the note a field adds (empty when it adds none). */
  readonly graphqlDescription?: (note: string) => string;
  /** OpenAPI example. */
  readonly example?: string | readonly string[];
  /**
   * Shape limit of a value (list length), checked where the surface checks each value on arrival
   * (GraphQL arguments) before any work; what the value means the service alone checks.
   */
  readonly shape?: z.ZodType;
}

/** A text or list of texts; no default (the service applies its own: `now-30d`, all zones, UTC). */
interface TextParam<I extends string, K extends 'string' | 'strings'> extends ParamBase<I> {
  readonly kind: K;
}

/** A number within bounds, with a default (REST applies it; GraphQL declares it non-null with it). */
export interface NumberParam<I extends string> extends ParamBase<I> {
  readonly kind: 'int' | 'float';
  readonly min: number;
  readonly max?: number;
  readonly default: number;
}

/** A switch with a default: REST `true` or `false`, GraphQL a non-null Boolean. */
export interface BooleanParam<I extends string> extends ParamBase<I> {
  readonly kind: 'boolean';
  readonly default: boolean;
}

/** One value (or, `enums`, several) of a declared enum; `enum` params have a default. */
export interface EnumParam<I extends string, V extends string, K extends 'enum' | 'enums'> extends ParamBase<I> {
  readonly kind: K;
  readonly values: EnumDecl<V>;
  readonly default?: V;
}

/** A declared query parameter. */
export type ParamDecl<I extends string = string> =
  | TextParam<I, 'string' | 'strings'>
  | NumberParam<I>
  | BooleanParam<I>
  | EnumParam<I, string, 'enum' | 'enums'>;

/** A parameter as an endpoint or field uses it: with its own REST description or GraphQL note. */
export interface ParamUse<D extends ParamDecl = ParamDecl> {
  readonly param: D;
  /** Replaces the declared REST description on this endpoint. */
  readonly rest?: string;
  /** What the parameter does on this GraphQL field, inserted in the declared GraphQL description. */
  readonly graphql?: string;
}

/** A parameter as a list of them names it: its declaration, or a use of it. */
export type ParamRef = ParamDecl | ParamUse;

/** The declaration behind a reference. */
export const declOf = (p: ParamRef): ParamDecl => ('param' in p ? p.param : p);

/** A reference with this use's own descriptions. */
export const useOf = (p: ParamRef): ParamUse => ('param' in p ? p : { param: p });

/** The parameter with a REST description and a GraphQL note of its own. */
export const use = <D extends ParamDecl>(param: D, notes: { rest?: string; graphql?: string }): ParamUse<D> => ({
  param,
  ...notes,
});

/** The declaration of a parameter reference type. */
export type DeclIn<P> = P extends ParamUse<infer D> ? D : P;

/** The value of a declared parameter. */
export type ValueOf<D> =
  D extends EnumParam<string, infer V, infer K>
    ? K extends 'enum'
      ? V
      : readonly V[]
    : D extends { kind: infer K extends ParamKind }
      ? KindValues[K]
      : never;

/** The service input of a list of parameters: each parameter's value under its input field (absent: undefined, unless it has a default). */
export type InputOf<P extends readonly ParamRef[]> = {
  [D in DeclIn<P[number]> as D['input']]: D extends { default: unknown } ? ValueOf<D> : ValueOf<D> | undefined;
};

/**
 * The service input from the values a surface received under its own names (GraphQL null as
 * undefined; a GraphQL enum value is already its REST spelling).
 */
export function inputOf<const P extends readonly ParamRef[]>(
  params: P,
  surface: 'rest' | 'graphql',
  values: Readonly<Record<string, unknown>>,
): InputOf<P> {
  const input: Record<string, unknown> = {};
  for (const ref of params) {
    const p = declOf(ref);
    const name = p[surface];
    if (name !== undefined) input[p.input] = values[name] ?? ('default' in p ? p.default : undefined);
  }
  return input as InputOf<P>;
}

const datetimeGrammar =
  'ISO 8601 datetime (UTC when no offset is given; a bare date is 00:00 UTC) or relative: `now`, optionally followed by `-<n><unit>` with unit m (minutes), H or h (hours), d, w, M (months), y. Offsets must lie within ±14:00; instants from 1900-01-01T00:00:00Z to 2200-01-01T00:00:00Z.';

/** Start of the half-open range [from, to). */
export const DATETIME_FROM = {
  input: 'datetimeFrom',
  rest: 'datetime_from',
  graphql: 'from',
  kind: 'string',
  example: DEFAULT_FROM,
  description: `Start of the range. ${datetimeGrammar} Default \`${DEFAULT_FROM}\`. Ranges are half-open [from, to).`,
  graphqlDescription: () =>
    `Start of the range (inclusive), REST datetime_from: ISO 8601 (UTC when no offset; a bare date is 00:00 UTC) or now[-<n><unit>] with unit m (minutes), H or h (hours), d, w, M (months), y. Default ${DEFAULT_FROM}.`,
} as const satisfies ParamDecl;

/** End of the half-open range [from, to). */
export const DATETIME_TO = {
  input: 'datetimeTo',
  rest: 'datetime_to',
  graphql: 'to',
  kind: 'string',
  example: DEFAULT_TO,
  description: `End of the range (exclusive). ${datetimeGrammar} Default \`${DEFAULT_TO}\`. Ranges are half-open [from, to).`,
  graphqlDescription: () => `End of the range (exclusive), REST datetime_to; same formats. Default ${DEFAULT_TO}.`,
} as const satisfies ParamDecl;

/** The requested aggregation (docs/contract.md#resolution). */
export const RESOLUTION = {
  input: 'resolution',
  rest: 'resolution',
  graphql: 'resolution',
  kind: 'enum',
  values: REQUESTED_RESOLUTION,
  default: 'auto',
  description:
    'Aggregation: auto (by range width: <= 2 days native, <= 14 days 1H, <= 90 days 1D, else 1W), native (range at most 2 days), 1H (at most 14 days), 1D, 1W. Buckets are UTC; 1W buckets are ISO weeks starting Monday 00:00 UTC (with `tz`: local hours, days and Monday-to-Monday weeks); aggregates are time-weighted means.',
  graphqlDescription: (note) =>
    `${note} Any range at any resolution: a connection page is bounded by first, a binned aggregate by its bins (REST /api/v1 keeps the caps: native 2 days, 1H 14 days).`,
} as const satisfies ParamDecl;

/** How naive bounds are read, where buckets start and which offset rows carry. */
export const TIME_ZONE = {
  input: 'tz',
  rest: 'tz',
  graphql: 'timeZone',
  kind: 'string',
  example: 'Europe/Berlin',
  description:
    "Time zone: an IANA name (case-insensitive, e.g. Europe/Berlin), `UTC`, or `local` for each bidding zone's own time zone (a border: its first zone in stored orientation). Sets how datetime_from/datetime_to without offset are read (under `local` only when the selected zones share one time zone; otherwise give an offset), and where 1H/1D/1W buckets start: a local day has 23, 24 or 25 hours, a local week starts Monday 00:00 local. Row datetimes are the same instants written with the zone's offset (`2026-03-29T00:00:00+01:00`) and meta.time_zone names the zone. Omitted or `UTC`: UTC, unchanged.",
  graphqlDescription: (note) =>
    `Time zone of the output, REST tz: an IANA name (e.g. Europe/Berlin, case-insensitive), UTC, or local (each bidding zone's own zone). ${note} Omitted: UTC, output unchanged.`,
} as const satisfies ParamDecl;

/** A repeatable zone filter: short code (`DE_LU`) or EIC, case-insensitive. */
export const ZONES = {
  input: 'zones',
  rest: 'zone',
  graphql: 'zones',
  kind: 'strings',
  shape: codeListShape,
  example: ['DE_LU', 'FR'],
  description:
    'Bidding zone short code (e.g. DE_LU) or EIC, case-insensitive. Repeat to select several; omitted means all zones.',
  graphqlDescription: (note) =>
    `Bidding zones (short code such as DE_LU, or EIC; case-insensitive), REST zone. ${note}`,
} as const satisfies ParamDecl;

/** A repeatable border filter `ZONE_FROM->ZONE_TO` (either direction of flow is selected). */
export const BORDERS = {
  input: 'borders',
  rest: 'border',
  graphql: 'borders',
  kind: 'strings',
  shape: codeListShape,
  example: ['DE_LU->FR'],
  description:
    'Border written ZONE_FROM->ZONE_TO (codes or EICs; URL-encoded `-%3E` accepted). Selects the border whatever the direction of flow; the written orientation sets the sign of signed flows (positive = from -> to). Repeat for several.',
  graphqlDescription: (note) => `Borders written A->B (short codes or EICs, case-insensitive), REST border. ${note}`,
} as const satisfies ParamDecl;

/**
 * The flow type filter (REST flow_type, GraphQL flowTypes): flow types to keep. The types
 * themselves are FLOW_TYPES of domain/classification.ts.
 */
export const FLOW_TYPES_PARAM = {
  input: 'flowTypes',
  rest: 'flow_type',
  graphql: 'flowTypes',
  kind: 'enums',
  values: FLOW_TYPE,
  description: 'Flow type(s) to keep; repeat for several.',
  graphqlDescription: () => 'Flow types to keep.',
} as const satisfies ParamDecl;

/** Which flow is classified (GraphQL only). */
export const BASIS = {
  input: 'basis',
  graphql: 'basis',
  kind: 'enum',
  values: FLOW_BASIS,
  default: 'physical',
  description: 'Classify physical flows (default) or scheduled exchanges.',
} as const satisfies ParamDecl;

/** What the price KPIs are statistics of: hourly means (default, the contract's) or the published periods. */
export const KPI_BASIS = {
  input: 'priceBasis',
  rest: 'basis',
  graphql: 'basis',
  kind: 'enum',
  values: PRICE_BASIS,
  default: 'hourly',
  description:
    'Statistics of: `hourly` (default) the hourly time-weighted mean prices, one sample per UTC hour, hour counts whole hours; `native` the prices as published (15-minute or hourly periods) weighted by duration, so a 60-minute price counts as four quarter-hours, min/max are the real period extremes, percentiles are weighted, and `hours`, `negative_hours`, `interpolated_hours` are durations in hours (a quarter-hour counts 0.25). Peak is Mon-Fri 08:00-20:00 zone local time by the hour or period start.',
  graphqlDescription: (note) =>
    `What the statistics are of, REST basis: HOURLY (default) hourly time-weighted means, NATIVE the published 15-minute or hourly periods weighted by duration (a 60-minute price counts as four quarter-hours; hour counts become durations in hours). ${note}`,
} as const satisfies ParamDecl;

/** /flows page size (docs/contract.md#paging); GraphQL pages with `first`. */
export const LIMIT = {
  input: 'limit',
  rest: 'limit',
  kind: 'int',
  min: 1,
  max: PAGE_LIMITS.flows,
  default: PAGE_LIMITS.flows,
  description: `Page size, 1 to ${PAGE_LIMITS.flows}.`,
} as const satisfies ParamDecl;

/** /flows rows skipped; GraphQL pages with `after`. */
export const OFFSET = {
  input: 'offset',
  rest: 'offset',
  kind: 'int',
  min: 0,
  default: 0,
  description: 'Rows skipped before the page.',
} as const satisfies ParamDecl;

/** Width of the flow bins of the flow-price scatter, MW. */
export const FLOW_BIN = {
  input: 'flowBinMw',
  rest: 'flow_bin_mw',
  graphql: 'flowBinMw',
  kind: 'float',
  ...FLOW_BIN_MW,
  description: 'Width of the flow bins, MW.',
  graphqlDescription: () => `Width of the flow bins, MW (${FLOW_BIN_MW.min} to ${FLOW_BIN_MW.max}), REST flow_bin_mw.`,
} as const satisfies ParamDecl;

/** Width of the price-difference bins of the flow-price scatter, EUR/MWh. */
export const PRICE_BIN = {
  input: 'priceBin',
  rest: 'price_bin',
  graphql: 'priceBin',
  kind: 'float',
  ...PRICE_BIN_EUR_MWH,
  description: 'Width of the price-difference bins, EUR/MWh.',
  graphqlDescription: () =>
    `Width of the price-difference bins, EUR/MWh (${PRICE_BIN_EUR_MWH.min} to ${PRICE_BIN_EUR_MWH.max}), REST price_bin.`,
} as const satisfies ParamDecl;

/** Points of each flow duration curve. */
export const POINTS = {
  input: 'points',
  rest: 'points',
  graphql: 'points',
  kind: 'int',
  ...DURATION_POINTS,
  description: `Points per curve (${DURATION_POINTS.default} = every whole percent).`,
  graphqlDescription: () =>
    `Points per curve at evenly spaced percentages from 0 to 100 (${DURATION_POINTS.min} to ${DURATION_POINTS.max}; ${DURATION_POINTS.default} = every whole percent).`,
} as const satisfies ParamDecl;

/**
 * Answer a zone with its lineage (`/prices`, `/price-kpis`): before the zone existed, the prices of
 * the zone it came from (DE_LU: DE_AT_LU before 2018-10-01), each row marked with its actual zone.
 */
export const LINEAGE = {
  input: 'lineage',
  rest: 'lineage',
  graphql: 'lineage',
  kind: 'boolean',
  default: false,
  description:
    "true: each named zone answers with its lineage, the zone it came from before it existed, chained (DE_LU and AT: DE_AT_LU before 2018-10-01 00:00 Europe/Berlin; IT_CALA: IT_ROSN before 2021). Only a zone with a single predecessor chains. Rows keep the actual zone in bidding_zone and the requested one in series; never spliced silently. Without named zones it changes nothing (every zone answers its own period). Default false: a range outside a named zone's period is a 422.",
  graphqlDescription: (note) =>
    `true: each named zone answers with its lineage (DE_LU: DE_AT_LU before 2018-10-01 00:00 Europe/Berlin), REST lineage. ${note}`,
} as const satisfies ParamDecl;

/** The range parameters every time-series endpoint and field takes. */
export const RANGE = [DATETIME_FROM, DATETIME_TO] as const;

/** Every declared parameter. */
export const PARAMS: readonly ParamDecl[] = [
  DATETIME_FROM,
  DATETIME_TO,
  RESOLUTION,
  TIME_ZONE,
  ZONES,
  BORDERS,
  FLOW_TYPES_PARAM,
  BASIS,
  KPI_BASIS,
  LIMIT,
  OFFSET,
  FLOW_BIN,
  PRICE_BIN,
  POINTS,
  LINEAGE,
];

/**
 * The name `surface` gives the parameter an input issue names by its `input` (see above), among
 * `params` and then every declared one, and a GraphQL enum value in its GraphQL spelling; other names are kept.
 */
export function issueName(
  surface: 'rest' | 'graphql',
  params: readonly ParamRef[],
  id: string,
  input: unknown,
): { param: string; input: unknown } {
  const p = params.map(declOf).find((d) => d.input === id) ?? PARAMS.find((d) => d.input === id);
  const name = p?.[surface] ?? id;
  const shown = surface === 'graphql' && p && 'values' in p ? graphqlValueName(p.values, input) : input;
  return { param: name, input: shown };
}

/**
 * An issue a service reports, as `surface` names it: REST one entry per parameter (FastAPI's);
 * GraphQL each failing value of a list at its index (`zones.2`), as its argument paths run.
 */
function issuesOn(surface: 'rest' | 'graphql', params: readonly ParamRef[], issue: InputIssue): InputIssue[] {
  const { entries, ...whole } = issue;
  const named = { ...whole, ...issueName(surface, params, issue.param, issue.input) };
  if (surface === 'rest' || !entries?.length) return [named];
  return entries.map((e) => ({ param: `${named.param}.${e.index}`, msg: e.msg, type: issue.type, input: e.input }));
}

/** Runs a service call taking `params` whose input errors name parameters by declaration; they come out named as `surface` names them. */
export async function namedOn<T>(
  surface: 'rest' | 'graphql',
  params: readonly ParamRef[],
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    throw new InputError(err.issues.flatMap((i) => issuesOn(surface, params, i)));
  }
}
