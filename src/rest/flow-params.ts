import { z } from 'zod';
import { FLOW_BIN_MW, PRICE_BIN_EUR_MWH } from '../limits.js';
import { FLOW_TYPES } from '../services/flow-filter.js';
import { FLOWS_MAX_LIMIT } from '../services/flows.js';

/** Repeatable border filter `ZONE_FROM->ZONE_TO` (either direction of flow is selected). */
export const borderParam = z
  .array(z.string())
  .optional()
  .meta({
    description: 'Border written ZONE_FROM->ZONE_TO (codes or EICs; URL-encoded `-%3E` accepted). Selects the border whatever the direction of flow; the written orientation sets the sign of signed flows (positive = from -> to). Repeat for several.',
    example: ['DE_LU->FR'],
  });

/** Repeatable flow type filter. */
export const flowTypeParam = z
  .array(z.enum(FLOW_TYPES))
  .optional()
  .meta({ description: 'Flow type(s) to keep; repeat for several.' });

/** /flows page size (spec 4.6). */
export const limitParam = z.coerce.number().int().min(1).max(FLOWS_MAX_LIMIT).default(FLOWS_MAX_LIMIT).meta({ description: `Page size, 1 to ${FLOWS_MAX_LIMIT}.` });
/** Width of the flow bins of /flow-price-scatter, MW. */
export const flowBinParam = z.coerce.number().min(FLOW_BIN_MW.min).max(FLOW_BIN_MW.max).default(FLOW_BIN_MW.default).meta({ description: 'Width of the flow bins, MW.' });
/** Width of the price-difference bins of /flow-price-scatter, EUR/MWh. */
export const priceBinParam = z.coerce.number().min(PRICE_BIN_EUR_MWH.min).max(PRICE_BIN_EUR_MWH.max).default(PRICE_BIN_EUR_MWH.default).meta({ description: 'Width of the price-difference bins, EUR/MWh.' });
/** /flows rows skipped. */
export const offsetParam = z.coerce.number().int().min(0).default(0).meta({ description: 'Rows skipped before the page.' });
