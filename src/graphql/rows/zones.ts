import type { BorderRecord, ZoneRecord } from '../../domain/catalogue.js';
import { builder, type GraphQLContext } from '../builder.js';
import type { RowContract } from '../../contract/fields.js';
import { BORDER_ROW, ZONE_ROW } from '../../contract/rows/catalogue.js';
import { borderValidity, zoneValidity } from '../../domain/lineage.js';

/** The zones of `codes` in the stored catalogue; an error for a code it does not hold. */
function zonesOf(codes: readonly string[], ctx: GraphQLContext): (ZoneRecord | Error)[] {
  return codes.map((code) => ctx.deps.catalogue.zone(code) ?? new Error(`zone ${code} is not in the stored catalogue`));
}

/** The description the row contract gives a field (by its REST name): declared once for both surfaces. */
function described<R>(contract: RowContract<R>, rest: string): string {
  const f = contract.fields.find((x) => x.rest === rest);
  if (!f) throw new Error(`${contract.rest} has no field ${rest}`);
  return f.description;
}

/** A bidding zone, by short code, read from the in-memory catalogue (no query). */
export const ZoneRef = builder.loadableObjectRef('Zone', {
  load: (codes: string[], ctx: GraphQLContext) => Promise.resolve(zonesOf(codes, ctx)),
  sort: (zone) => zone.code,
});

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
      resolve: (zone, _args, ctx) => ctx.deps.catalogue.neighboursOf(zone.code),
    }),
    validFrom: t.field({
      type: 'DateTime',
      nullable: true,
      description: described(ZONE_ROW, 'valid_from'),
      resolve: (zone) => zoneValidity(zone.code).validFrom,
    }),
    validTo: t.field({
      type: 'DateTime',
      nullable: true,
      description: described(ZONE_ROW, 'valid_to'),
      resolve: (zone) => zoneValidity(zone.code).validTo,
    }),
    predecessors: t.stringList({
      description: described(ZONE_ROW, 'predecessors'),
      resolve: (zone) => [...zoneValidity(zone.code).predecessors],
    }),
    successors: t.stringList({
      description: described(ZONE_ROW, 'successors'),
      resolve: (zone) => [...zoneValidity(zone.code).successors],
    }),
  }),
});

/** A border between two zones, in stored orientation (A's code sorts first). */
export const BorderRef = builder.objectRef<BorderRecord>('Border').implement({
  description: 'An interconnection between two neighbouring bidding zones, stored once as A->B with A sorting first.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'A->B in stored orientation, e.g. DE_LU->FR.' }),
    zoneA: t.field({ type: ZoneRef, description: 'The zone whose code sorts first.', resolve: (b) => b.a }),
    zoneB: t.field({ type: ZoneRef, description: 'The other zone.', resolve: (b) => b.b }),
    validFrom: t.field({
      type: 'DateTime',
      nullable: true,
      description: described(BORDER_ROW, 'valid_from'),
      resolve: (b) => borderValidity(b.a, b.b).validFrom,
    }),
    validTo: t.field({
      type: 'DateTime',
      nullable: true,
      description: described(BORDER_ROW, 'valid_to'),
      resolve: (b) => borderValidity(b.a, b.b).validTo,
    }),
  }),
});
