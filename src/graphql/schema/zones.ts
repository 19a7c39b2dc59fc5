import { z } from 'zod';
import { builder } from '../builder.js';
import { ARG_LIMITS } from '../../limits.js';
import { borders } from '../../operations/borders.js';
import { zones } from '../../operations/zones.js';
import { BorderRef, ZoneRef } from '../rows/zones.js';
import { listField } from './operation-fields.js';

builder.queryFields((t) => ({
  [zones.graphql.field]: listField(t, zones, ZoneRef),
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
  [borders.graphql.field]: listField(t, borders, BorderRef),
}));
