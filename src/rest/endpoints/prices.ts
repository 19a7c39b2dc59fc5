import { prices } from '../../operations/prices.js';
import { operationEndpoint } from './operations.js';

/** GET /api/v1/prices. */
export const pricesEndpoint = operationEndpoint(prices);
