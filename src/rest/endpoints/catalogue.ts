import { BORDER_ROW, ZONE_ROW } from '../../contract/rows/catalogue.js';
import { getBorders, getZones } from '../../services/catalogue.js';
import { rowsEndpoint } from '../endpoint.js';
import { BORDERS_EXAMPLE, ZONES_EXAMPLE } from '../../operations/examples.js';
import { BORDERS, use, ZONES } from '../../contract/params.js';

const CATALOGUE_META =
  'meta.provenance is derived (coverage describes stored data), upstream_sources lists the sources of every coverage shown; range, resolution and pagination are null.';

/** GET /api/v1/zones: the zone catalogue with stored coverage. */
export const zonesEndpoint = rowsEndpoint({
  path: '/api/v1/zones',
  reads: ['catalogue'],
  example: ZONES_EXAMPLE,
  tag: 'Catalogue',
  summary: 'Bidding zones and their data coverage',
  description: `One row per bidding zone, ordered by code: short code, EIC, name, IANA time zone, neighbours, and per data kind the stored span [datetime_from, datetime_to), native resolution of the latest period and sources. Unknown zone codes are a 422 naming the closest known codes. ${CATALOGUE_META}`,
  params: [ZONES],
  contract: ZONE_ROW,
  rows: getZones,
});

/** GET /api/v1/borders: the border catalogue with stored coverage. */
export const bordersEndpoint = rowsEndpoint({
  path: '/api/v1/borders',
  reads: ['catalogue'],
  example: BORDERS_EXAMPLE,
  tag: 'Catalogue',
  summary: 'Borders and their data coverage',
  description: `One row per border in stored orientation (zone_a sorts first), ordered by key, with the stored span [datetime_from, datetime_to) and sources of physical flows, scheduled exchanges, NTC and outages. Unknown zone codes are a 422 naming the closest known codes. ${CATALOGUE_META}`,
  params: [
    use(BORDERS, {
      rest: 'Border written A->B (short codes or EICs, case-insensitive; either orientation). Repeat to select several; omitted means all borders.',
    }),
  ],
  contract: BORDER_ROW,
  rows: getBorders,
});
