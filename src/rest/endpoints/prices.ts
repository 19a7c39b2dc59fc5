import { PRICE_LINEAGE_ROW, PRICE_ROW } from '../../contract/rows/prices.js';
import { getPrices } from '../../services/prices.js';
import { rowsEndpoint } from '../endpoint.js';
import { PRICES_EXAMPLE } from '../../operations/examples.js';
import { LINEAGE, RANGE, RESOLUTION, TIME_ZONE, ZONES } from '../../contract/params.js';

/** GET /api/v1/prices (docs/contract.md#endpoints). */
export const pricesEndpoint = rowsEndpoint({
  path: '/api/v1/prices',
  reads: ['prices'],
  summary: 'Day-ahead prices',
  description:
    'Day-ahead prices per bidding zone in EUR/MWh. Native rows are 15-minute where the market cleared in 15-minute periods (from 2025-10-01) and hourly before; 1H, 1D and 1W rows are time-weighted means per UTC bucket (local with `tz`), stamped with the bucket start. Rows are ordered by datetime, then zone (with lineage: datetime, series, zone). A named zone asked for a range outside its period is a 422 naming the zone before or after it; lineage=true answers the zone it came from instead, each row marked with its actual zone (`bidding_zone`) and, with lineage=true only, the requested zone (`series`); without lineage rows have exactly the fields below.',
  params: [...RANGE, RESOLUTION, ZONES, TIME_ZONE, LINEAGE],
  contract: PRICE_ROW,
  contractOf: (input) => (input.lineage === true ? PRICE_LINEAGE_ROW : PRICE_ROW),
  tag: 'Prices',
  example: PRICES_EXAMPLE,
  rows: getPrices,
});
