import { z } from 'zod';
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
/** /flows rows skipped. */
export const offsetParam = z.coerce.number().int().min(0).default(0).meta({ description: 'Rows skipped before the page.' });
