import { BORDERS, use } from '../contract/params.js';
import { BORDER_ROW } from '../contract/rows/catalogue.js';
import { getBorders, selectBorders } from '../services/catalogue.js';
import { CATALOGUE_META } from './notes.js';
import { BORDERS_EXAMPLE } from './examples.js';
import { defineOperation } from './operation.js';

/** The border catalogue with stored coverage; on GraphQL a list of `Border` (coverage is a field of its own). */
export const borders = defineOperation({
  path: '/api/v1/borders',
  reads: ['catalogue'],
  example: BORDERS_EXAMPLE,
  tag: 'Catalogue',
  summary: 'Borders and their data coverage',
  description: `One row per border in stored orientation (zone_a sorts first), ordered by key, with the stored span [datetime_from, datetime_to) and sources of physical flows, scheduled exchanges, NTC and outages. Unknown zone codes are a 422 naming the closest known codes. ${CATALOGUE_META}`,
  params: [
    use(BORDERS, {
      rest: 'Border written A->B (short codes or EICs, case-insensitive; either orientation). Repeat to select several; omitted means all borders.',
      graphql: 'Either orientation selects the border. Omitted means all borders.',
    }),
  ],
  contract: BORDER_ROW,
  rows: getBorders,
  graphql: {
    kind: 'list',
    field: 'borders',
    description: 'Borders in stored orientation, each once, ordered by key (REST /api/v1/borders).',
    items: async (deps, input) => selectBorders(deps, input),
  },
});
