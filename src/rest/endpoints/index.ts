import { OPERATIONS } from '../../operations/index.js';
import type { Endpoint } from '../endpoint.js';
import { operationEndpoint } from './operations.js';

/** Every REST endpoint, in documentation order: one per declared operation (src/operations/). */
export const ENDPOINTS: readonly Endpoint[] = OPERATIONS.map(operationEndpoint);
