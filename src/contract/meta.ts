import type { Meta, Pagination } from '../services/meta.js';
import { APPLIED_RESOLUTION, type EnumDecl, PROVENANCE } from './enums.js';

/**
 * The response meta (docs/contract.md#envelope-and-meta), declared once like the rows (fields.ts) and the parameters
 * (params.ts): each field's name on each surface, its kind, its description with units and time
 * zone, and how an absent value is written. The REST meta schema and OpenAPI component
 * (`metaSchema`), the REST JSON meta (`metaWriter`, both meta-rest.ts) and the GraphQL `Meta` type
 * (graphql/schema/meta.ts) are derived from {@link META}.
 */

/** What a meta field's getter returns, by kind. */
interface MetaKindValues {
  /** One value of a declared enum, in REST spelling: REST writes it so, GraphQL as the enum's value. */
  readonly enum: string;
  /** A list of texts: a JSON array of strings, GraphQL [String!]. */
  readonly strings: readonly string[];
  /** An instant: REST writes UTC text without offset (`2026-10-23T12:00:00`, milliseconds when set), GraphQL the DateTime scalar. */
  readonly naiveUtc: Date;
  readonly string: string;
  readonly int: number;
  /** A nested object of further meta fields (REST only: `pagination`). */
  readonly object: object;
}

/** A kind of {@link MetaKindValues}. */
export type MetaKind = keyof MetaKindValues;

/**
 * How a surface writes an absent value: `null` on both; `omitted`: REST leaves the key out, GraphQL
 * writes null. No `absent`: the value is always there (non-null on both surfaces).
 */
export type MetaAbsent = 'null' | 'omitted';

interface MetaFieldBase {
  /** REST (JSON) name; omitted: GraphQL only. */
  readonly rest?: string;
  /** GraphQL name; omitted: REST only. */
  readonly graphql?: string;
  /** Meaning with units and time zone, as OpenAPI shows it; omitted only for the parts of an object field its own description covers. */
  readonly description?: string;
  /** The GraphQL description, where GraphQL words it differently (its own names). */
  readonly graphqlDescription?: string;
  /** OpenAPI example. */
  readonly example?: string;
  readonly absent?: MetaAbsent;
}

type PlainMetaKind = Exclude<MetaKind, 'enum' | 'object'>;

/** One field of the meta (or of an object inside it); `get` reads its value from `S`, null or undefined when absent. */
export type MetaField<S> =
  | {
      [K in PlainMetaKind]: MetaFieldBase & {
        readonly kind: K;
        readonly get: (source: S) => MetaKindValues[K] | null | undefined;
      };
    }[PlainMetaKind]
  | (MetaFieldBase & {
      readonly kind: 'enum';
      readonly values: EnumDecl<string>;
      readonly get: (source: S) => string | null | undefined;
    })
  | (MetaFieldBase & {
      readonly kind: 'object';
      readonly fields: readonly MetaField<any>[];
      readonly get: (source: S) => object | null | undefined;
    });

/** The meta declared: its type's name on each surface and its fields in order. */
export interface MetaDecl<S, F extends readonly MetaField<S>[] = readonly MetaField<S>[]> {
  /** OpenAPI component id. */
  readonly rest: string;
  /** GraphQL object type name. */
  readonly graphql: string;
  /** The GraphQL type's description (the OpenAPI component describes its fields only). */
  readonly description: string;
  readonly fields: F;
}

const PAGINATION_FIELDS = [
  { rest: 'total', kind: 'int', get: (p: Pagination) => p.total },
  { rest: 'limit', kind: 'int', get: (p: Pagination) => p.limit },
  { rest: 'offset', kind: 'int', get: (p: Pagination) => p.offset },
  { rest: 'next_offset', kind: 'int', absent: 'null', get: (p: Pagination) => p.nextOffset },
] as const satisfies readonly MetaField<Pagination>[];

const META_FIELDS = [
  {
    rest: 'provenance',
    graphql: 'provenance',
    kind: 'enum',
    values: PROVENANCE,
    get: (m: Meta) => m.provenance,
    description:
      '`measured`: upstream observations; `derived`: computed from other signals, or generated (the demo data set, upstream_sources `demo`).',
    graphqlDescription: 'measured or derived (derived also for the generated demo data set: upstreamSources demo).',
  },
  {
    rest: 'upstream_sources',
    graphql: 'upstreamSources',
    kind: 'strings',
    absent: 'null',
    get: (m: Meta) => m.upstreamSources,
    description:
      'Where the data came from, e.g. "ENTSO-E Transparency Platform", or "demo" for the generated demo data set.',
    graphqlDescription: 'Where the data came from ("ENTSO-E Transparency Platform", or "demo").',
  },
  {
    rest: 'resolved_datetime_from',
    graphql: 'resolvedFrom',
    kind: 'naiveUtc',
    absent: 'null',
    get: (m: Meta) => m.range?.from,
    example: '2026-10-23T12:00:00',
    description: 'Start of the range used, UTC, without offset.',
    graphqlDescription: 'Start of the range used, UTC.',
  },
  {
    rest: 'resolved_datetime_to',
    graphql: 'resolvedTo',
    kind: 'naiveUtc',
    absent: 'null',
    get: (m: Meta) => m.range?.to,
    description: 'End of the range used (exclusive), UTC, without offset.',
    graphqlDescription: 'End of the range used (exclusive), UTC.',
  },
  {
    rest: 'resolution',
    graphql: 'resolution',
    kind: 'enum',
    values: APPLIED_RESOLUTION,
    absent: 'null',
    get: (m: Meta) => m.resolution,
    description: 'Applied resolution; null on endpoints without a resolution parameter.',
    graphqlDescription: 'Applied resolution; null where the field takes none.',
  },
  {
    rest: 'pagination',
    kind: 'object',
    fields: PAGINATION_FIELDS,
    absent: 'null',
    get: (m: Meta) => m.pagination,
    description: 'On /flows only: the unsliced row count and the page; null elsewhere.',
  },
  {
    rest: 'time_zone',
    graphql: 'timeZone',
    kind: 'string',
    absent: 'omitted',
    get: (m: Meta) => m.timeZone,
    example: 'Europe/Berlin',
    description:
      'Only when `tz` was given: the applied time zone, its canonical IANA name (`Europe/Berlin`, `UTC`) or `local`.',
    graphqlDescription:
      'The time zone applied (REST meta.time_zone): the canonical IANA name, UTC or local; null without timeZone.',
  },
] as const satisfies readonly MetaField<Meta>[];

/** The response meta of every endpoint and field. */
export const META = {
  rest: 'Meta',
  graphql: 'Meta',
  description: 'Provenance, resolved UTC range and applied resolution of a result.',
  fields: META_FIELDS,
} as const satisfies MetaDecl<Meta>;

type Fields = readonly MetaField<any>[];

/** The REST value of a field, present. */
type RestValue<D> = D extends { kind: 'enum'; values: EnumDecl<infer V> }
  ? V
  : D extends { kind: 'object'; fields: infer F extends Fields }
    ? WireOf<F>
    : D extends { kind: 'strings' }
      ? string[]
      : D extends { kind: 'int' }
        ? number
        : string;

type RestName<D> = D extends { rest: infer N extends string } ? N : never;

/** The REST JSON object of a list of meta fields: `null` where absent, the key left out where `omitted`. */
export type WireOf<F extends Fields> = {
  [D in F[number] as D extends { absent: 'omitted' } ? never : RestName<D>]: D extends { absent: 'null' }
    ? RestValue<D> | null
    : RestValue<D>;
} & {
  [D in F[number] as D extends { absent: 'omitted' } ? RestName<D> : never]?: RestValue<D>;
};

/** The type a meta declaration reads its values from. */
export type SourceOf<D> = D extends { fields: readonly (infer F)[] }
  ? F extends { get: (source: infer S) => unknown }
    ? S
    : never
  : never;

/** The REST JSON meta. */
export type WireMeta = WireOf<typeof META.fields>;

/** The fields a surface shows, in declaration order. */
export const restMetaFields = <S>(fields: readonly MetaField<S>[]) =>
  fields.filter((f): f is MetaField<S> & { rest: string } => f.rest !== undefined);
export const graphqlMetaFields = <S>(fields: readonly MetaField<S>[]) =>
  fields.filter((f): f is MetaField<S> & { graphql: string } => f.graphql !== undefined);
