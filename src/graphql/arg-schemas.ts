import type { z } from 'zod';
import { PARAMS } from '../contract/params.js';

/**
 * The shape limit of each argument name that carries one (contract/params.ts), the same on every field.
 * @pothos/plugin-validation stops at the first argument that fails; these let its error list the
 * other invalid ones too.
 */
export const ARG_SCHEMAS: Readonly<Record<string, z.ZodType>> = Object.fromEntries(
  PARAMS.flatMap((p) => (p.graphql !== undefined && p.shape !== undefined ? [[p.graphql, p.shape]] : [])),
);
