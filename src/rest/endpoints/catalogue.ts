import { borders } from '../../operations/borders.js';
import { zones } from '../../operations/zones.js';
import { operationEndpoint } from './operations.js';

/** GET /api/v1/zones: the zone catalogue with stored coverage. */
export const zonesEndpoint = operationEndpoint(zones);
/** GET /api/v1/borders: the border catalogue with stored coverage. */
export const bordersEndpoint = operationEndpoint(borders);
