import { builder } from '../builder.js';
import './common.js';
import './zones.js';
import './prices.js';

/** The executable GraphQL schema. */
export const schema = builder.toSchema({ sortSchema: false });
