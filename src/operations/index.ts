import { borders } from './borders.js';
import { ciShare } from './ci-share.js';
import { flowDuration } from './flow-duration.js';
import { flowPriceScatter } from './flow-price-scatter.js';
import { flowTypeSummary } from './flow-type-summary.js';
import { flows } from './flows.js';
import type { Operation } from './operation.js';
import { priceKpis } from './price-kpis.js';
import { prices } from './prices.js';
import { zoneImportExport } from './zone-import-export.js';
import { zones } from './zones.js';

/** The operations declared once for every surface (REST, OpenAPI, MCP, GraphQL), in documentation order. */
export const OPERATIONS: readonly Operation[] = [
  prices,
  flows,
  flowTypeSummary,
  ciShare,
  flowPriceScatter,
  flowDuration,
  priceKpis,
  zoneImportExport,
  zones,
  borders,
];
