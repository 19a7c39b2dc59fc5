import type { Endpoint } from '../endpoint.js';
import { flowsEndpoint } from './flows.js';
import { pricesEndpoint } from './prices.js';

/** Every REST endpoint, in documentation order. */
export const ENDPOINTS: readonly Endpoint[] = [pricesEndpoint, flowsEndpoint] as unknown as readonly Endpoint[];
