import { specifiedDirectives } from 'graphql';
import { rateLimitDirectiveDefinition } from '../../security/graphql.js';
import { builder } from '../builder.js';
import './common.js';
import './zones.js';
import './coverage.js';
import './prices.js';
import './flows.js';
import './aggregates.js';
import './events.js';

/** The executable GraphQL schema, with the directives every GraphQL service has (`@skip`, `@include`, `@deprecated`, ...). */
export const schema = builder.toSchema({
  sortSchema: false,
  directives: [...specifiedDirectives, rateLimitDirectiveDefinition],
});
