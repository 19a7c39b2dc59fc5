import { use, ZONES } from '../contract/params.js';
import { ZONE_ROW } from '../contract/rows/catalogue.js';
import { getZones, selectZones } from '../services/catalogue.js';
import { CATALOGUE_META } from './notes.js';
import { ZONES_EXAMPLE } from './examples.js';
import { defineOperation } from './operation.js';

/** The zone catalogue with stored coverage; on GraphQL a list of `Zone` (coverage is a field of its own). */
export const zones = defineOperation({
  path: '/api/v1/zones',
  reads: ['catalogue'],
  example: ZONES_EXAMPLE,
  tag: 'Catalogue',
  summary: 'Bidding zones and their data coverage',
  description: `One row per bidding zone, ordered by code: short code, EIC, name, IANA time zone, neighbours, and per data kind the stored span [datetime_from, datetime_to), native resolution of the latest period and sources. Unknown zone codes are a 422 naming the closest known codes. ${CATALOGUE_META}`,
  params: [use(ZONES, { graphql: 'Omitted means all zones.' })],
  contract: ZONE_ROW,
  rows: getZones,
  graphql: {
    kind: 'list',
    field: 'zones',
    description: 'Bidding zones, ordered by code (REST /api/v1/zones).',
    items: async (deps, input) => selectZones(deps, input),
  },
});
