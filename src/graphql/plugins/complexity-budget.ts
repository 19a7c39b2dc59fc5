import { complexityFromQuery } from '@pothos/plugin-complexity';
import {
  getNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  parse,
} from 'graphql';
import { PAGE_LIMITS } from '../../limits.js';

/** The largest page of each connection of Query, by field name: the most `first` may ask for. */
export const PAGE_MAXIMA: Readonly<Record<string, number>> = { flows: PAGE_LIMITS.flows, prices: PAGE_LIMITS.prices };

/**
 * Every column of an object type as a selection: its leaf fields (lists of leaves included) and,
 * `depth` levels down, the columns of its single-object fields. Lists of objects (joins, such as a
 * zone's neighbours) and fields with required arguments are left out.
 */
function columns(type: GraphQLObjectType, depth = 1): string {
  const selected: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const named = getNamedType(field.type);
    const bare = isNonNullType(field.type) ? field.type.ofType : field.type;
    if (isLeafType(named)) selected.push(field.name);
    else if (isObjectType(named) && !isListType(bare) && depth > 0)
      selected.push(`${field.name} { ${columns(named, depth - 1)} }`);
  }
  return selected.join(' ');
}

function namedObject(type: GraphQLOutputType | undefined): GraphQLObjectType | undefined {
  const named = type && getNamedType(type);
  return isObjectType(named) ? named : undefined;
}

/**
 * The widest page of a connection: `first` at its maximum, every column of the node, the edge's
 * cursor, and every column of the connection itself (pageInfo, totalCount, meta).
 */
export function widestPage(schema: GraphQLSchema, field: string, first: number): string {
  const connection = namedObject(schema.getQueryType()?.getFields()[field]?.type);
  const edge = namedObject(connection?.getFields().edges?.type);
  const node = namedObject(edge?.getFields().node?.type);
  if (!connection || !node) throw new Error(`Query.${field} is not a connection with edges { node }`);
  return `{ ${field}(first: ${first}) { ${columns(connection)} edges { cursor node { ${columns(node)} } } } }`;
}

const budgets = new WeakMap<GraphQLSchema, number>();

/**
 * The complexity limit of a schema: the score of its widest documented page ({@link PAGE_MAXIMA}
 * with every column selected), so that page always fits while anything heavier (a second page,
 * a list of objects under each row) does not.
 */
export function complexityBudget(schema: GraphQLSchema): number {
  let budget = budgets.get(schema);
  if (budget === undefined) {
    const scores = Object.entries(PAGE_MAXIMA).map(
      ([field, first]) =>
        complexityFromQuery(parse(widestPage(schema, field, first)), { schema, variables: {} }).complexity,
    );
    budgets.set(schema, (budget = Math.max(...scores)));
  }
  return budget;
}
