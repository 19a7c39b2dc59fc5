import { flows } from '../../operations/flows.js';
import { operationEndpoint } from './operations.js';

/** GET /api/v1/flows. */
export const flowsEndpoint = operationEndpoint(flows);
