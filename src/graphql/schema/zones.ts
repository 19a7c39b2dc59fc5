import { z } from 'zod';
import { findZone, neighboursOf } from '../../domain/catalogue.js';
import type { ZoneRecord } from '../../repositories/catalogue.js';
import { builder } from '../builder.js';

/** A bidding zone. */
export const ZoneRef = builder.objectRef<ZoneRecord>('Zone');

ZoneRef.implement({
  description: 'A bidding zone of the European day-ahead market.',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'ENTSO-E short code, e.g. DE_LU (the code REST uses).' }),
    eic: t.exposeString('eic', { description: 'Energy Identification Code, e.g. 10Y1001A1001A82H.' }),
    name: t.exposeString('name', { description: 'English name.' }),
    timeZone: t.exposeString('timeZone', { description: 'IANA time zone of the zone (peak hours are local).' }),
    neighbours: t.field({
      type: [ZoneRef],
      description: 'Zones sharing a border with this one, by code.',
      resolve: (zone, _args, ctx) => neighboursOf(zone.code).flatMap((c) => ctx.deps.directory.byCode.get(c) ?? []),
    }),
  }),
});

builder.queryFields((t) => ({
  zones: t.field({
    type: [ZoneRef],
    description: 'All bidding zones, ordered by code.',
    resolve: (_root, _args, ctx) => [...ctx.deps.directory.zones],
  }),
  zone: t.field({
    type: ZoneRef,
    nullable: true,
    description: 'One zone by short code or EIC (case-insensitive); null when unknown.',
    args: { code: t.arg.string({ required: true, validate: z.string().min(1).max(40) }) },
    resolve: (_root, args, ctx) => {
      const found = findZone(args.code);
      return found ? (ctx.deps.directory.byCode.get(found.code) ?? null) : null;
    },
  }),
}));
