import { APPLIED_RESOLUTION, PROVENANCE, REQUESTED_RESOLUTION } from '../../contract/enums.js';
import { META } from '../../contract/meta.js';
import { enumType } from './args.js';
import { metaObjectType } from './meta.js';

/** Requested resolution as a GraphQL enum; values map to the REST spelling. */
export const ResolutionEnum = enumType(REQUESTED_RESOLUTION);

/** Applied resolution as reported in meta. */
export const AppliedResolutionEnum = enumType(APPLIED_RESOLUTION);

/** How the values of a result came to be (REST meta.provenance). */
export const ProvenanceEnum = enumType(PROVENANCE);

/** Response meta (REST meta, docs/contract.md#envelope-and-meta), from its declaration. */
export const MetaRef = metaObjectType(META);
