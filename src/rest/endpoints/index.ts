import type { Endpoint } from '../endpoint.js';
import { bordersEndpoint, zonesEndpoint } from './catalogue.js';
import { ciShareEndpoint, durationEndpoint, flowTypeSummaryEndpoint, scatterEndpoint } from './flow-aggregates.js';
import { flowsEndpoint } from './flows.js';
import { pricesEndpoint } from './prices.js';
import { priceKpisEndpoint, zoneImportExportEndpoint } from './zone-aggregates.js';

/** Every REST endpoint, in documentation order. */
export const ENDPOINTS: readonly Endpoint[] = [
  pricesEndpoint,
  flowsEndpoint,
  flowTypeSummaryEndpoint,
  ciShareEndpoint,
  scatterEndpoint,
  durationEndpoint,
  priceKpisEndpoint,
  zoneImportExportEndpoint,
  zonesEndpoint,
  bordersEndpoint,
];
