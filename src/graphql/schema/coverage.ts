import { BORDER_COVERAGE_ROW, ZONE_COVERAGE_ROW } from '../../contract/rows/catalogue.js';
import { getBorderCoverage, getZoneCoverage } from '../../services/catalogue.js';
import { builder, type GraphQLContext } from '../builder.js';
import { rowObjectType } from '../rows/object-type.js';
import { BorderRef, ZoneRef } from '../rows/zones.js';

const ZoneCoverageRef = rowObjectType(ZONE_COVERAGE_ROW);
const BorderCoverageRef = rowObjectType(BORDER_COVERAGE_ROW);

builder.objectField(ZoneRef, 'coverage', (t) =>
  t.loadable({
    type: ZoneCoverageRef,
    description:
      'What the database holds for this zone, per data kind (REST /api/v1/zones coverage). All zones of a request are read in one query.',
    load: (codes: string[], ctx: GraphQLContext) => getZoneCoverage(ctx.deps, codes),
    resolve: (zone) => zone.code,
  }),
);

builder.objectField(BorderRef, 'coverage', (t) =>
  t.loadable({
    type: BorderCoverageRef,
    description:
      'What the database holds for this border, per data kind (REST /api/v1/borders coverage). All borders of a request are read in one query.',
    load: (keys: string[], ctx: GraphQLContext) => getBorderCoverage(ctx.deps, keys),
    resolve: (border) => border.key,
  }),
);
