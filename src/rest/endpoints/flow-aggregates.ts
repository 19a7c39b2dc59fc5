import { ciShare } from '../../operations/ci-share.js';
import { flowDuration } from '../../operations/flow-duration.js';
import { flowPriceScatter } from '../../operations/flow-price-scatter.js';
import { flowTypeSummary } from '../../operations/flow-type-summary.js';
import { operationEndpoint } from './operations.js';

/** GET /api/v1/flow-type-summary. */
export const flowTypeSummaryEndpoint = operationEndpoint(flowTypeSummary);
/** GET /api/v1/ci-share. */
export const ciShareEndpoint = operationEndpoint(ciShare);
/** GET /api/v1/flow-price-scatter. */
export const scatterEndpoint = operationEndpoint(flowPriceScatter);
/** GET /api/v1/flow-duration. */
export const durationEndpoint = operationEndpoint(flowDuration);
