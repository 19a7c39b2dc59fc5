import { z } from 'zod';
import { builder } from '../builder.js';
import { BORDERS, use, ZONES } from '../../contract/params.js';
import { ARG_LIMITS } from '../../limits.js';
import { BorderRef, ZoneRef } from '../rows/zones.js';
import { graphqlArgs, withArgs } from './args.js';

const ZONE_PARAMS = [use(ZONES, { graphql: 'Omitted means all zones.' })] as const;
const BORDER_PARAMS = [
  use(BORDERS, { graphql: 'Either orientation selects the border. Omitted means all borders.' }),
] as const;

builder.queryFields((t) => ({
  zones: t.field({
    type: [ZoneRef],
    description: 'Bidding zones, ordered by code (REST /api/v1/zones).',
    args: graphqlArgs(t.arg, ZONE_PARAMS),
    resolve: (_root, args, ctx) =>
      withArgs(ZONE_PARAMS, args, async (input) =>
        (input.zones?.length
          ? ctx.deps.catalogue.resolveZones(input.zones)
          : ctx.deps.catalogue.zones.map((z) => z.code)
        ).sort(),
      ),
  }),
  zone: t.field({
    type: ZoneRef,
    nullable: true,
    description: 'One zone by short code or EIC (case-insensitive); null when unknown.',
    args: {
      code: t.arg.string({
        required: true,
        description: 'Short code (DE_LU) or EIC.',
        validate: z.string().min(1).max(ARG_LIMITS.codeChars),
      }),
    },
    resolve: (_root, args, ctx) => ctx.deps.catalogue.findZone(args.code)?.code ?? null,
  }),
  borders: t.field({
    type: [BorderRef],
    description: 'Borders in stored orientation, each once, ordered by key (REST /api/v1/borders).',
    args: graphqlArgs(t.arg, BORDER_PARAMS),
    resolve: (_root, args, ctx) =>
      withArgs(BORDER_PARAMS, args, async (input) => {
        const keys = input.borders?.length
          ? new Set(ctx.deps.catalogue.resolveBorders(input.borders).map((b) => b.key))
          : null;
        return ctx.deps.catalogue.borders
          .filter((b) => !keys || keys.has(b.key))
          .sort((x, y) => (x.key < y.key ? -1 : 1));
      }),
  }),
}));
