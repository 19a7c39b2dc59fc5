import { GraphQLScalarType } from 'graphql';

/**
 * A DateTime scalar that writes what `scalar` writes, remembering the last instant it wrote: rows
 * come in datetime order, so a page repeats each hour or day many times (one `toISOString` each).
 */
export function lastInstantMemo(scalar: GraphQLScalarType): GraphQLScalarType {
  const config = scalar.toConfig();
  const serialize = config.serialize;
  let lastMs = Number.NaN;
  let lastText: unknown;
  return new GraphQLScalarType({
    ...config,
    serialize(value) {
      if (!(value instanceof Date)) return serialize(value);
      const ms = value.getTime();
      if (ms !== lastMs) {
        lastText = serialize(value);
        lastMs = ms;
      }
      return lastText;
    },
  });
}

const ZONED_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?[+-]\d{2}:\d{2}$/;

/**
 * True for an instant already written in a requested time zone, RFC 3339 with a numeric offset
 * (`2026-03-29T00:00:00+01:00`): the DateTime scalar writes such text as is.
 */
export function isZonedText(value: unknown): value is string {
  return typeof value === 'string' && ZONED_TEXT.test(value) && !Number.isNaN(Date.parse(value));
}
