import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './schema/index.js';

/** The SDL committed as schema.graphql: printed from the Pothos schema, sorted for stable diffs. */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
