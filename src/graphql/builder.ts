import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import DirectivesPlugin from '@pothos/plugin-directives';
import RelayPlugin from '@pothos/plugin-relay';
import ValidationPlugin from '@pothos/plugin-validation';
import { GraphQLScalarType } from 'graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { isZonedText, lastInstantMemo } from './date-time.js';
import { formatUtc } from '../domain/time.js';
import type { LiveEvents } from '../events/live.js';
import type { AccessContext } from '../security/client.js';
import type { ServiceDeps } from '../services/context.js';
import { argumentValidationError } from './validation-error.js';

/** Per-request GraphQL context. */
export interface GraphQLContext extends Partial<AccessContext> {
  readonly deps: ServiceDeps;
  /** Data events for subscriptions; absent when the app runs without them. */
  readonly live?: LiveEvents;
}

/** The Pothos builder: context, scalars and plugins only. */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  DefaultEdgesNullability: { list: false; items: false };
  DefaultNodeNullability: false;
  Scalars: { DateTime: { Input: Date; Output: Date | string } };
  Directives: { rateLimit: { locations: 'OBJECT' | 'FIELD_DEFINITION'; args: { limit?: number; duration?: number } } };
}>({
  plugins: [DirectivesPlugin, ComplexityPlugin, RelayPlugin, ValidationPlugin, DataloaderPlugin],
  directives: { useGraphQLToolsUnorderedDirectives: true },
  defaultFieldNullability: false,
  complexity: { defaultComplexity: 1, defaultListMultiplier: 10, disabled: true },
  relay: {
    cursorType: 'String',
    clientMutationId: 'omit',
    edgesFieldOptions: {
      nullable: { list: false, items: false },
      description: 'The rows of this page.',
      complexity: { field: 0, multiplier: 1 },
    },
    nodeFieldOptions: { nullable: false, description: 'The row.', extensions: { pothosExposedField: 'node' } },
    cursorFieldOptions: { description: 'Opaque keyset cursor of the row; pass it as `after` to continue.' },
    pageInfoFieldOptions: { description: 'Where this page sits in the whole result.' },
    pageInfoTypeOptions: { description: 'Relay page information.' },
    hasNextPageFieldOptions: { description: 'true when rows follow this page.' },
    hasPreviousPageFieldOptions: { description: 'true when this page was requested with `after`.' },
    startCursorFieldOptions: { description: 'Cursor of the first row of the page.' },
    endCursorFieldOptions: { description: 'Cursor of the last row of the page; pass it as `after` for the next page.' },
    firstArgOptions: { description: 'Page size (rows to return after `after`).' },
    afterArgOptions: { description: 'Cursor after which the page starts (endCursor of the previous page).' },
    lastArgOptions: { description: 'Not supported: pagination is forward only.' },
    beforeArgOptions: { description: 'Not supported: pagination is forward only.' },
    defaultEdgeTypeOptions: { description: 'A row with its cursor.' },
  },
  validation: { validationError: (failure, args) => argumentValidationError(failure, args) },
});

/**
 * DateTime as REST writes instants: RFC 3339 UTC with `Z`, seconds precision unless milliseconds
 * are set (`2026-11-23T00:00:00Z`), or under a `timeZone` argument the text rows carry with their offset; inputs read as graphql-scalars' DateTimeISO reads them.
 */
const DateTimeResolver = new GraphQLScalarType({
  ...DateTimeISOResolver.toConfig(),
  serialize: (value) => {
    if (value instanceof Date && !Number.isNaN(value.getTime())) return formatUtc(value);
    return isZonedText(value) ? value : formatUtc(new Date(DateTimeISOResolver.serialize(value) as string));
  },
});

builder.addScalarType('DateTime', lastInstantMemo(DateTimeResolver), {
  description:
    'An instant in UTC, RFC 3339 with Z, seconds precision unless milliseconds are set (e.g. 2026-11-01T00:00:00Z), as REST writes it; row instants under a timeZone argument carry the offset of that zone instead (e.g. 2026-03-29T00:00:00+01:00), as REST tz writes them. Inputs without offset are not accepted here; use the String range arguments for the REST-style shorthand.',
});
builder.queryType({
  description:
    "European electricity market data: day-ahead prices (EUR/MWh), cross-border flows (MW) and their classification. Every root field of an operation spends one token from the caller's rate-limit bucket, like one REST request.",
  directives: { rateLimit: {} },
});
