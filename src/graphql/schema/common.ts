import { APPLIED_RESOLUTION, PROVENANCE } from '../../contract/enums.js';
import type { Meta } from '../../services/meta.js';
import { builder } from '../builder.js';
import { enumType } from './args.js';

/**
 * Response meta: the values of the REST meta (rest/schemas.ts `MetaSchema`, docs/contract.md#envelope-and-meta)
 * under GraphQL names; REST's `pagination` is the connections' own page info here.
 */
export const MetaRef = builder.objectRef<Meta>('Meta').implement({
  description: 'Provenance, resolved UTC range and applied resolution of a result.',
  fields: (t) => ({
    provenance: t.field({
      type: enumType(PROVENANCE),
      description: 'measured or derived (derived also for the generated demo data set: upstreamSources demo).',
      resolve: (m) => m.provenance,
    }),
    upstreamSources: t.stringList({
      nullable: true,
      description: 'Where the data came from ("ENTSO-E Transparency Platform", or "demo").',
      resolve: (m) => m.upstreamSources,
    }),
    resolvedFrom: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Start of the range used, UTC.',
      resolve: (m) => m.range?.from ?? null,
    }),
    resolvedTo: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'End of the range used (exclusive), UTC.',
      resolve: (m) => m.range?.to ?? null,
    }),
    resolution: t.field({
      type: enumType(APPLIED_RESOLUTION),
      nullable: true,
      description: 'Applied resolution; null where the field takes none.',
      resolve: (m) => m.resolution,
    }),
    timeZone: t.string({
      nullable: true,
      description:
        'The time zone applied (REST meta.time_zone): the canonical IANA name, UTC or local; null without timeZone.',
      resolve: (m) => m.timeZone ?? null,
    }),
  }),
});
