import { rounder } from '../domain/rounding.js';
import type { Rows } from '../domain/row-batches.js';

/** What a field's getter returns, by wire kind (null aside). */
interface KindValues {
  /** Text (codes, labels). */
  readonly string: string;
  /** A bidding zone by short code: REST writes the code, GraphQL gives the Zone object. */
  readonly zone: string;
  readonly int: number;
  readonly float: number;
  readonly boolean: boolean;
  /** An instant: REST writes RFC 3339 UTC with Z, GraphQL the DateTime scalar. */
  readonly datetime: Date;
  /** A UTC day (its 00:00 UTC instant): both surfaces write YYYY-MM-DD. */
  readonly day: Date;
  /** The calendar year of an instant, an integer: UTC, or the local year under a time zone (`tz`). */
  readonly year: Date;
  /** One of a fixed set of strings: REST a string enum, GraphQL the named enum (else String). */
  readonly enum: string;
  /** A list of texts (codes): a JSON array of strings, GraphQL [String!]. */
  readonly strings: readonly string[];
  /** A nested row of {@link ObjectExtras.contract}: a JSON object, GraphQL that contract's type. */
  readonly object: object;
}

/** A wire kind of {@link KindValues}. */
export type FieldKind = keyof KindValues;

/** Names and documentation of a field. */
export interface FieldDoc {
  /** REST (JSON) name; omitted: the field is GraphQL only. */
  readonly rest?: string;
  /** GraphQL name; omitted: the field is REST only. */
  readonly graphql?: string;
  /** Meaning with units (EUR/MWh, MW, MWh, %) and time zone, shared by OpenAPI and GraphQL. */
  readonly description: string;
  /** OpenAPI example. */
  readonly example?: string;
  /** true when the value may be null. */
  readonly nullable?: boolean;
}

type KindSpec<R, K extends FieldKind> = FieldDoc & {
  readonly kind: K;
  /** The unrounded domain value of a row. */
  readonly get: (row: R) => KindValues[K] | null;
  /** The value as both surfaces write it: rounded to {@link FloatExtras.round} decimals where set. */
  readonly value: (row: R) => KindValues[K] | null;
};

/** Options of a float field. */
export interface FloatExtras {
  /** Decimals both surfaces round to (the only place a row value is rounded). */
  readonly round?: number;
}

/** Options of an enum field. */
export interface EnumExtras {
  readonly values: readonly [string, ...string[]];
  /** Name of the GraphQL enum type; omitted: GraphQL exposes a String. */
  readonly graphqlEnum?: string;
}

/** Options of an object field. */
export interface ObjectExtras {
  /** The nested row's contract (its row type is checked by the `object` constructor). */
  readonly contract: RowContract<any>;
}

type PlainKind = Exclude<FieldKind, 'float' | 'enum' | 'object'>;

/** One field of a row contract; `kind` tells what `get` and `value` return. */
export type Field<R> =
  | { [K in PlainKind]: KindSpec<R, K> }[PlainKind]
  | (KindSpec<R, 'float'> & FloatExtras)
  | (KindSpec<R, 'enum'> & EnumExtras)
  | (KindSpec<R, 'object'> & ObjectExtras);

/** A row type: one ordered list of fields from which schemas, GraphQL types and serialisers derive. */
export interface RowContract<R> {
  /** OpenAPI component id. */
  readonly rest: string;
  /** GraphQL object type name. */
  readonly graphql: string;
  readonly description: string;
  readonly fields: readonly Field<R>[];
}

function rounded<R>(decimals: number | undefined, get: (row: R) => number | null): (row: R) => number | null {
  if (decimals === undefined) return get;
  const round = rounder(decimals);
  return (row) => {
    const v = get(row);
    return v === null ? null : round(v);
  };
}

/** Field constructors for rows of type `R` (the getter's row type is fixed once). */
export function fieldsOf<R>() {
  type Get<T> = (row: R) => T | null;
  return {
    string: (get: Get<string>, doc: FieldDoc): Field<R> => ({ ...doc, kind: 'string', get, value: get }),
    zone: (get: Get<string>, doc: FieldDoc): Field<R> => ({ ...doc, kind: 'zone', get, value: get }),
    int: (get: Get<number>, doc: FieldDoc): Field<R> => ({ ...doc, kind: 'int', get, value: get }),
    boolean: (get: Get<boolean>, doc: FieldDoc): Field<R> => ({ ...doc, kind: 'boolean', get, value: get }),
    datetime: (get: Get<Date>, doc: FieldDoc): Field<R> => ({ ...doc, kind: 'datetime', get, value: get }),
    day: (get: Get<Date>, doc: FieldDoc): Field<R> => ({ ...doc, kind: 'day', get, value: get }),
    year: (get: Get<Date>, doc: FieldDoc): Field<R> => ({ ...doc, kind: 'year', get, value: get }),
    float: (get: (row: R) => number | null, doc: FieldDoc & FloatExtras): Field<R> => ({
      ...doc,
      kind: 'float',
      get,
      value: rounded(doc.round, get),
    }),
    enum: (get: (row: R) => string | null, doc: FieldDoc & EnumExtras): Field<R> => ({
      ...doc,
      kind: 'enum',
      get,
      value: get,
    }),
    strings: (get: Get<readonly string[]>, doc: FieldDoc): Field<R> => ({ ...doc, kind: 'strings', get, value: get }),
    object: <T extends object>(get: Get<T>, doc: FieldDoc & { readonly contract: RowContract<T> }): Field<R> => ({
      ...doc,
      kind: 'object',
      get,
      value: get,
    }),
  };
}

/** Declares a row contract. */
export const defineRow = <R>(contract: RowContract<R>): RowContract<R> => contract;

/** The fields a surface shows, in contract order. */
export const restFields = <R>(c: RowContract<R>) =>
  c.fields.filter((f): f is Field<R> & { rest: string } => f.rest !== undefined);
export const graphqlFields = <R>(c: RowContract<R>) =>
  c.fields.filter((f): f is Field<R> & { graphql: string } => f.graphql !== undefined);

/** The row type of a service returning `{ meta, rows }`, rows all at once or in batches. */
export type ServiceRow<F extends (...a: never[]) => Promise<{ rows: Rows<unknown> }>> =
  Awaited<ReturnType<F>>['rows'] extends Rows<infer R> ? R : never;
