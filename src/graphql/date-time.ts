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
