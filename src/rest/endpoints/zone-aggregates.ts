import { priceKpis } from '../../operations/price-kpis.js';
import { zoneImportExport } from '../../operations/zone-import-export.js';
import { operationEndpoint } from './operations.js';

/** GET /api/v1/price-kpis. */
export const priceKpisEndpoint = operationEndpoint(priceKpis);
/** GET /api/v1/zone-import-export. */
export const zoneImportExportEndpoint = operationEndpoint(zoneImportExport);
