import { ciShare } from './ci-share.js';
import { flowDuration } from './flow-duration.js';
import { flowPriceScatter } from './flow-price-scatter.js';
import { flowTypeSummary } from './flow-type-summary.js';
import type { Operation } from './operation.js';
import { priceKpis } from './price-kpis.js';
import { zoneImportExport } from './zone-import-export.js';

/** The operations declared once for every surface (REST, OpenAPI, MCP, GraphQL), in documentation order. */
export const OPERATIONS: readonly Operation[] = [
  flowTypeSummary,
  ciShare,
  flowPriceScatter,
  flowDuration,
  priceKpis,
  zoneImportExport,
];
